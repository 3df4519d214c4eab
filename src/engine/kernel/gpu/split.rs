//! Splitting a batch of jobs into sub-jobs on the CPU: one GPU thread searches one sub-job at a
//! time, so a batch needs many more sub-jobs than the device has threads.
//!
//! A sub-job is one of its job's boards with a few more queens placed on the first free rows.
//! The deepest sub-jobs are split first, one row at a time, until the batch holds at least the
//! target count or every sub-job is down to [`MIN_ROWS`] free rows, and always until none has
//! more free rows than the device's stacks hold ([`BatchShape::max_rows`]). Jobs of fewer than
//! [`MIN_GPU_ROWS`] free rows are counted here by the depth-first kernel (they are tiny).

use crate::engine::kernel::depth_first::count_job;
use crate::engine::kernel::job::{Job, MAX_ROWS};

/// Sub-jobs are not split below this many free rows.
pub(super) const MIN_ROWS: u32 = 8;

/// Jobs with fewer free rows are counted on the CPU (the shader needs three).
pub(super) const MIN_GPU_ROWS: usize = 4;

/// How a batch is split for a device: the sub-jobs it aims at, and the most free rows a
/// sub-job may keep (what the device's stacks hold).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BatchShape {
    /// Sub-jobs the batch should hold at least, where its jobs are large enough.
    pub target: usize,
    /// Free rows a sub-job has at most.
    pub max_rows: u32,
}

/// Words per job in the tables buffer: `steps[0..=32]` then `blocked[0..=32]`.
pub(super) const TABLE_WORDS: usize = 2 * (MAX_ROWS + 1);

/// One sub-job as the shader reads it: job index, free rows, and the first free row's masks
/// (uploaded as it lies in memory: five `u32` words, the shader's `SubJob`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, bytemuck::Pod, bytemuck::Zeroable)]
#[repr(C)]
pub(super) struct SubJob {
    pub job: u32,
    pub rows: u32,
    pub cols: u32,
    pub ld: u32,
    pub rd: u32,
}

/// A batch ready for the device.
#[derive(Debug, Default)]
pub(super) struct Split {
    /// Every job's tables, [`TABLE_WORDS`] each, in job order.
    pub tables: Vec<u32>,
    /// The sub-jobs the device searches.
    pub sub_jobs: Vec<SubJob>,
    /// Per job: what the CPU counted here (jobs too small for the device).
    pub counted: Vec<u64>,
}

impl Split {
    /// Splits `jobs` into at least `shape.target` sub-jobs where their size allows, none of
    /// more than `shape.max_rows` free rows.
    pub fn new(jobs: &[Job], shape: BatchShape) -> Split {
        let max_rows = shape.max_rows.max(MIN_GPU_ROWS as u32);
        let mut split = Split {
            tables: Vec::with_capacity(jobs.len() * TABLE_WORDS),
            sub_jobs: Vec::new(),
            counted: vec![0; jobs.len()],
        };
        for (j, job) in jobs.iter().enumerate() {
            split.tables.extend(job.steps.iter().copied());
            // Truncated to 32 bits: every bit at or above n stays set up to bit 31.
            split.tables.extend(job.blocked.iter().map(|&b| b as u32));
            if job.rows < MIN_GPU_ROWS {
                split.counted[j] = count_job::<false>(job, &mut 0);
            } else {
                split.sub_jobs.push(SubJob {
                    job: j as u32,
                    rows: job.rows as u32,
                    cols: job.cols as u32,
                    ld: job.ld as u32,
                    rd: job.rd as u32,
                });
            }
        }
        loop {
            let deepest = split.sub_jobs.iter().map(|s| s.rows).max().unwrap_or(0);
            let few = split.sub_jobs.len() < shape.target && deepest > MIN_ROWS;
            if !few && deepest <= max_rows {
                break;
            }
            let mut next = Vec::with_capacity(split.sub_jobs.len() * 4);
            for s in &split.sub_jobs {
                if s.rows == deepest {
                    place_each(s, &jobs[s.job as usize], &mut next);
                } else {
                    next.push(*s);
                }
            }
            split.sub_jobs = next;
        }
        split
    }

    /// Whether the batch keeps what the shader's indices rely on (it runs without runtime
    /// checks): every sub-job names a job of the batch and has [`MIN_GPU_ROWS`] to `levels + 1`
    /// free rows, and every job has its tables. `levels` is the stack depth of the pipeline that
    /// counts the batch.
    pub fn check(&self, levels: u32) -> Result<(), String> {
        if self.tables.len() != self.counted.len() * TABLE_WORDS {
            return Err(format!(
                "{} table words for {} jobs",
                self.tables.len(),
                self.counted.len()
            ));
        }
        let rows = MIN_GPU_ROWS as u32..=levels + 1;
        match self
            .sub_jobs
            .iter()
            .find(|s| s.job as usize >= self.counted.len() || !rows.contains(&s.rows))
        {
            Some(s) => Err(format!(
                "sub-job {s:?} is outside the batch of {} jobs or {rows:?} free rows",
                self.counted.len()
            )),
            None => Ok(()),
        }
    }
}

/// Every child of `s`: one queen placed on each free square of its first free row.
fn place_each(s: &SubJob, job: &Job, out: &mut Vec<SubJob>) {
    let k = s.rows as usize;
    let blocked = job.blocked[k] as u32;
    let step = job.steps[k];
    let mut free = !(s.cols | s.ld | s.rd | blocked);
    while free != 0 {
        let bit = free & free.wrapping_neg();
        free ^= bit;
        let cols = s.cols | bit;
        let ld = (s.ld | bit) << step;
        let rd = (s.rd | bit) >> step;
        // A child whose next row has no free square has no completion.
        if !(cols | ld | rd | job.blocked[k - 1] as u32) != 0 {
            out.push(SubJob {
                job: s.job,
                rows: s.rows - 1,
                cols,
                ld,
                rd,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::kernel::InnerBoard;

    /// The depth-first count of one sub-job, rebuilt as a job.
    fn count_sub_job(s: &SubJob, job: &Job) -> u64 {
        let mut sub = *job;
        sub.rows = s.rows as usize;
        sub.cols = u64::from(s.cols);
        sub.ld = u64::from(s.ld);
        sub.rd = u64::from(s.rd);
        count_job::<false>(&sub, &mut 0)
    }

    #[test]
    fn the_sub_jobs_of_a_job_add_up_to_it() {
        let jobs = [
            InnerBoard::new(12, &[]).unwrap().job(),
            InnerBoard::new(13, &[(0, 1), (12, 5), (6, 0)])
                .unwrap()
                .job(),
            InnerBoard::new(5, &[(0, 1), (1, 3)]).unwrap().job(),
        ];
        for (target, max_rows) in [(1, 32), (10, 32), (1000, 32), (1, 9), (10, 5)] {
            let split = Split::new(&jobs, BatchShape { target, max_rows });
            assert_eq!(split.check(max_rows - 1), Ok(()), "target {target}");
            assert!(split.sub_jobs.iter().all(|s| s.rows <= max_rows));
            assert_eq!(split.tables.len(), jobs.len() * TABLE_WORDS);
            let mut totals = split.counted.clone();
            for s in &split.sub_jobs {
                totals[s.job as usize] += count_sub_job(s, &jobs[s.job as usize]);
            }
            let expected: Vec<u64> = jobs.iter().map(|j| count_job::<false>(j, &mut 0)).collect();
            assert_eq!(totals, expected, "target {target}, at most {max_rows} rows");
            if target == 1000 {
                assert!(split.sub_jobs.len() >= 100);
            }
        }
    }

    #[test]
    fn a_batch_outside_the_shaders_bounds_is_refused() {
        let jobs = [InnerBoard::new(12, &[]).unwrap().job()];
        let shape = BatchShape {
            target: 1,
            max_rows: 32,
        };
        let split = Split::new(&jobs, shape);
        assert_eq!(split.sub_jobs[0].rows, 12);
        assert_eq!(split.check(11), Ok(()));
        // Stacks of 10 levels hold sub-jobs of at most 11 free rows.
        assert!(split.check(10).unwrap_err().contains("free rows"));
        let mut wrong = Split::new(&jobs, shape);
        wrong.sub_jobs[0].job = 1;
        assert!(wrong.check(31).is_err());
        wrong.sub_jobs[0].job = 0;
        wrong.tables.pop();
        assert!(wrong.check(31).unwrap_err().contains("table words"));
    }
}
