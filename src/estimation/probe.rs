//! One probe: a task drawn from its stratum, a random descent, an exact count of what is left.

use std::time::Instant;

use super::rng::SplitMix64;
use crate::engine::kernel::{Selected, job::MAX_PLACED};
use crate::engine::plan::{Plan, Subproblem, Task};

/// What one probe measured, already divided by the probability of reaching it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Probe {
    /// Index of the task drawn, in plan order.
    pub task: usize,
    /// `weight × count × B / p`: an unbiased estimate of the board's total.
    pub total: f64,
    /// `B / p`: what the probe's time is multiplied by to estimate the core-seconds of the
    /// whole plan.
    pub scale: f64,
    /// Seconds the exact count of the probe's subtree took by the wall clock (a monotonic
    /// clock read without a system call); the caller turns it into processor time with its
    /// thread's processor clock, read once for many probes.
    pub elapsed: f64,
}

/// Draws probes of the symmetric plan of one board: tasks by inverse transform over their
/// selection probabilities, then a uniform descent to at most `free_rows` free rows.
///
/// The sampler holds the plan (a large one by its task ids alone, 17 bytes a task: 38 MB for
/// the 2.3 million tasks of n = 32; see [`Plan::tasks`]). The selection probabilities are a
/// function of the size hints, which the plan order keeps in runs of equal hints: a few
/// hundred runs stand for them all.
#[derive(Clone, Debug)]
pub struct Sampler {
    plan: Plan,
    /// The runs of neighbouring tasks of equal size (`size_hint + 1`), in plan order.
    runs: Vec<Run>,
    /// The sizes of all the tasks, summed.
    sum: u64,
    free_rows: u32,
    kernel: Selected,
}

/// Neighbouring tasks of one size in plan order.
#[derive(Clone, Copy, Debug)]
struct Run {
    /// The index of the run's first task.
    start: usize,
    /// The size (`size_hint + 1`) of each of its tasks.
    size: u64,
    /// The sizes of the tasks before it, summed.
    before: u64,
}

/// The probability of each task of a [`Sampler`]'s plan in turn, without a search for its run.
#[derive(Clone, Debug)]
pub struct Probabilities<'a> {
    sampler: &'a Sampler,
    /// The next task.
    next: usize,
    /// Its run.
    run: usize,
    /// The cumulative probability of the tasks before it.
    before: f64,
}

impl Iterator for Probabilities<'_> {
    type Item = f64;

    fn next(&mut self) -> Option<f64> {
        let Sampler { plan, runs, .. } = self.sampler;
        let j = self.next;
        if j >= plan.len() {
            return None;
        }
        while runs.get(self.run + 1).is_some_and(|run| run.start <= j) {
            self.run += 1;
        }
        let upto = self.sampler.cumulative_in(&runs[self.run], j);
        let probability = upto - self.before;
        self.before = upto;
        self.next += 1;
        Some(probability)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = self.sampler.len() - self.next;
        (left, Some(left))
    }
}

impl ExactSizeIterator for Probabilities<'_> {}

impl Sampler {
    /// A sampler of the `n`-board's symmetric plan with [`Plan::DEFAULT_MIN_TASKS`] (n from 4
    /// to 32; `None` for another board) whose probes descend to at most `free_rows` free rows
    /// (never more queens than an [`InnerBoard`](crate::search::InnerBoard) holds) and count the rest with `kernel`. Each
    /// task is drawn with probability proportional to `size_hint + 1`.
    ///
    /// The plan is made once (its tasks come one at a time, twice: to count them by size, then
    /// to put each in its place).
    pub fn new(n: u32, free_rows: u32, kernel: Selected) -> Option<Sampler> {
        let (plan, hints) = Plan::symmetric_with_hints(n)?;
        if plan.len() == 0 {
            return None;
        }
        // In plan order the tasks come by hint, largest first: one run per hint.
        let (mut runs, mut start, mut sum) = (Vec::new(), 0, 0u64);
        for (hint, tasks) in hints {
            let size = hint + 1;
            runs.push(Run {
                start,
                size,
                before: sum,
            });
            start += tasks;
            sum += size * tasks as u64;
        }
        Some(Sampler {
            plan,
            runs,
            sum,
            free_rows: free_rows.max(n.saturating_sub(MAX_PLACED as u32)),
            kernel,
        })
    }

    /// This sampler with probes that descend to at most `free_rows` free rows.
    #[cfg(test)]
    pub fn with_free_rows(self, free_rows: u32) -> Sampler {
        Sampler {
            free_rows: free_rows.max(self.plan.n().saturating_sub(MAX_PLACED as u32)),
            ..self
        }
    }

    /// How many tasks the plan sampled has.
    pub fn len(&self) -> usize {
        self.plan.len()
    }

    /// The plan sampled.
    pub fn plan(&self) -> &Plan {
        &self.plan
    }

    /// Task `j` (below [`Sampler::len`]) of the plan sampled.
    pub fn task(&self, j: usize) -> Task {
        self.plan.task_at(j)
    }

    /// The selection probability of tasks `0..=j`: the sizes of those tasks summed over the
    /// sizes of all (each sum a whole number below 2⁵³, so exact as a float: the value is the
    /// running float sum of the sizes over their float total, to the bit); exactly 1 for the
    /// last task.
    fn cumulative(&self, j: usize) -> f64 {
        self.cumulative_in(
            &self.runs[self.runs.partition_point(|run| run.start <= j) - 1],
            j,
        )
    }

    /// [`Sampler::cumulative`] of task `j` of `run`.
    fn cumulative_in(&self, run: &Run, j: usize) -> f64 {
        if j + 1 >= self.len() {
            return 1.0;
        }
        let upto = run.before + (j - run.start + 1) as u64 * run.size;
        upto as f64 / self.sum as f64
    }

    /// The probability that a probe draws task `j`.
    pub fn probability(&self, j: usize) -> f64 {
        self.cumulative(j) - if j == 0 { 0.0 } else { self.cumulative(j - 1) }
    }

    /// The probability of each task, in plan order ([`Sampler::probability`] of each, read
    /// run by run).
    pub fn probabilities(&self) -> Probabilities<'_> {
        Probabilities {
            sampler: self,
            next: 0,
            run: 0,
            before: 0.0,
        }
    }

    /// The first task whose cumulative probability is above `u` (the last task when none is).
    fn task_at(&self, u: f64) -> usize {
        let (mut low, mut high) = (0, self.len());
        while low < high {
            let mid = low + (high - low) / 2;
            if self.cumulative(mid) <= u {
                low = mid + 1;
            } else {
                high = mid;
            }
        }
        low.min(self.len() - 1)
    }

    /// The free rows a probe descends to.
    pub fn free_rows(&self) -> u32 {
        self.free_rows
    }

    /// Probe `index` of `samples` under `seed`: a uniform point of stratum `index` of
    /// `[0, 1)` cut into `samples` equal strata picks the task, then the descent.
    pub fn probe(&self, seed: u64, index: u64, samples: u64) -> Probe {
        let mut rng = SplitMix64::for_sample(seed, index);
        let u = (index as f64 + rng.next_f64()) / samples as f64;
        let j = self.task_at(u);
        let task = self.task(j);
        let Subproblem::Inner(mut board) = task.subproblem else {
            unreachable!("every task of a symmetric plan is an inner board")
        };
        let mut branches = 1.0f64;
        let mut dead = false;
        while board.free_rows().count_ones() > self.free_rows {
            let free = board.first_free_row().map_or(0, |(_, f)| f);
            let b = free.count_ones();
            if b == 0 {
                dead = true;
                break;
            }
            let col = nth_bit(free, rng.below(u64::from(b)) as u32);
            // `col` is free on the first row to fill; a board that cannot take it (more queens
            // than an inner board holds) ends the probe as a dead end.
            let Some(child) = board.place(col) else {
                dead = true;
                break;
            };
            board = child;
            branches *= f64::from(b);
        }
        let started = Instant::now();
        let count = if dead {
            0
        } else {
            self.kernel
                .count_inner(&board, None)
                .expect("a count without a stop flag finishes")
        };
        let elapsed = started.elapsed().as_secs_f64();
        let scale = branches / self.probability(j);
        Probe {
            task: j,
            total: task.weight as f64 * count as f64 * scale,
            scale,
            elapsed,
        }
    }
}

/// The column of the `k`-th set bit of `mask` (from 0, lowest first).
fn nth_bit(mut mask: u64, k: u32) -> u32 {
    for _ in 0..k {
        mask &= mask - 1;
    }
    mask.trailing_zeros()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::kernel::Kernel;
    use crate::engine::plan::TaskRule;

    /// The sampler of the `n`-board with the fastest kernel and the default descent.
    fn sampler(n: u32) -> Sampler {
        let kernel = Kernel::Auto.select().unwrap();
        Sampler::new(
            n,
            crate::estimation::estimator::default_free_rows(n),
            kernel,
        )
        .unwrap()
    }

    #[test]
    fn the_sampler_draws_the_tasks_of_the_plan_with_the_plans_probabilities() {
        // Standard plans, split and not, and a large-board plan (n = 23: 327 636 tasks).
        for n in (4..=12).chain([17, 23]) {
            // Held whole: the sampler's plan of n = 23 is held by id.
            let plan = Plan::whole(n, Plan::DEFAULT_MIN_TASKS, TaskRule::for_board(n));
            let sampler = sampler(n);
            assert_eq!(sampler.len(), plan.tasks().len(), "n={n}");
            // The probabilities as a list of the plan's tasks gives them: the running float
            // sum of `size_hint + 1` over the float total, the last exactly 1.
            let sizes: Vec<f64> = plan.tasks().map(|t| t.size_hint as f64 + 1.0).collect();
            let sum: f64 = sizes.iter().sum();
            let mut running = 0.0;
            let mut listed: Vec<f64> = sizes
                .iter()
                .map(|s| {
                    running += s;
                    running / sum
                })
                .collect();
            *listed.last_mut().unwrap() = 1.0;
            for (j, task) in plan.tasks().enumerate() {
                assert_eq!(sampler.task(j), task, "n={n} task {j}");
                assert_eq!(
                    sampler.cumulative(j).to_bits(),
                    listed[j].to_bits(),
                    "n={n} {j}"
                );
                let u = listed[j] - f64::EPSILON;
                let first = listed.partition_point(|&c| c <= u).min(listed.len() - 1);
                assert_eq!(sampler.task_at(u), first, "n={n} {j}");
                assert_eq!(sampler.task_at(listed[j]), (j + 1).min(listed.len() - 1));
            }
            let probabilities: Vec<f64> = sampler.probabilities().collect();
            assert_eq!(probabilities.len(), listed.len());
            assert_eq!(probabilities[0].to_bits(), listed[0].to_bits());
            for j in 1..listed.len() {
                assert_eq!(
                    probabilities[j].to_bits(),
                    (listed[j] - listed[j - 1]).to_bits()
                );
            }
        }
    }

    #[test]
    fn the_sampler_holds_an_id_a_task() {
        // n = 23 (327 636 tasks): the tasks themselves take 80 bytes each.
        let sampler = sampler(23);
        let held = sampler.plan.held_bytes() + sampler.runs.capacity() * std::mem::size_of::<Run>();
        let per_task = held as f64 / sampler.len() as f64;
        assert!(per_task <= 18.0, "{per_task} bytes a task");
        assert!(sampler.runs.len() < 1000, "{} runs", sampler.runs.len());
    }

    #[test]
    fn nth_bit_counts_from_the_lowest() {
        assert_eq!(nth_bit(0b1011_0100, 0), 2);
        assert_eq!(nth_bit(0b1011_0100, 1), 4);
        assert_eq!(nth_bit(0b1011_0100, 3), 7);
    }
}
