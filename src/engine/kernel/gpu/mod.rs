//! The `gpu` kernel: the depth-first search of many jobs at once on a GPU, through wgpu
//! (Vulkan on Linux, Metal on macOS, DX12 on Windows). Built with the `gpu` feature.
//!
//! * `adapter`: the adapters found, fastest kind first, and the one to count on (the
//!   settings may pick another).
//! * `auto`: when `auto` adds the GPU (a discrete adapter, a board the CPU alone would need
//!   about 2 s for).
//! * `settings`: the process's choice of adapter, threads per dispatch, stacks, last rows and
//!   tracing.
//! * `split`: a batch of jobs split on the CPU into sub-jobs (a few more rows placed), many
//!   more than the device has threads, none deeper than its stacks.
//! * `search.wgsl`: one thread searches one sub-job at a time over `u32` masks, one step per
//!   queen placed (a level popped with its last free square, the last row counted by
//!   popcount, or the last two in closed form: `last_rows`), its stack and its sub-job's row
//!   tables in workgroup memory (or private arrays: `stack`), and keeps its 64-bit count as two
//!   `u32` words; threads claim sub-jobs by number from a shared counter.
//! * `device`: the adapter opened and the pipelines by stack depth; `device/stream.rs`: batches
//!   streamed through four places in bounded dispatches (resumable: the stacks are saved
//!   between dispatches), so that no dispatch comes near the two seconds desktop drivers allow
//!   a shader, whatever the board, and threads done with one batch go on with the next.
//! * `work`: how busy the threads were.
//!
//! A count's jobs are summed per job on the CPU into `u64`. A device that fails part-way
//! returns an error and no count: the caller counts the batches on the device again on the
//! CPU.

pub mod adapter;
pub mod auto;
pub mod device;
pub mod last_rows;
mod settings;
pub(crate) mod split;
pub mod stack;
pub mod work;

use std::sync::atomic::AtomicBool;
use std::sync::{Mutex, MutexGuard};

pub use crate::error::gpu::GpuError;
pub use adapter::{AdapterInfo, adapters};
pub use device::Device;
pub use settings::{GpuSettings, configure, settings};
pub use work::Work;

pub use split::BatchShape;

use super::job::Job;
use split::Split;

impl GpuError {
    /// A device failure, its message on one line (wgpu's span several).
    pub(crate) fn device(message: impl std::fmt::Display) -> GpuError {
        let text = message.to_string();
        let parts: Vec<&str> = text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect();
        GpuError::Device(parts.join(": ").replace("Caused by:: ", ""))
    }
}

/// The device of this process, opened on first use and kept (`None` once it failed to open).
static DEVICE: Mutex<Option<Result<Device, GpuError>>> = Mutex::new(None);

/// The process's device, opened on the first call: the same one for every count of the process.
/// A device that failed is opened again on the next call.
pub fn device() -> Result<MutexGuard<'static, Option<Result<Device, GpuError>>>, GpuError> {
    let mut guard = DEVICE.lock().unwrap_or_else(|p| p.into_inner());
    if !matches!(*guard, Some(Ok(_))) {
        *guard = Some(Device::open());
    }
    match guard.as_ref().expect("opened") {
        Ok(_) => Ok(guard),
        Err(e) => Err(e.clone()),
    }
}

/// Closes the process's device (after any count on it ends): the next use opens it again.
pub(crate) fn close_device() {
    *DEVICE.lock().unwrap_or_else(|p| p.into_inner()) = None;
}

/// Opens the device (once per process) and tells what it runs on: the check a count makes
/// before any work.
///
/// # Errors
///
/// [`GpuError::NoAdapter`] when no adapter is found, [`GpuError::NoSuchAdapter`] when the settings
/// name one that is not, [`GpuError::Device`] when the device fails to open.
pub fn check() -> Result<AdapterInfo, GpuError> {
    let guard = device()?;
    let Some(Ok(device)) = guard.as_ref() else {
        unreachable!("device() returns an open device")
    };
    Ok(device.info().clone())
}

/// The adapter the process's settings pick: the open device's, else one of [`adapters`] (found
/// once per process, without opening a device); `None` when there is none.
pub fn chosen_adapter() -> Option<AdapterInfo> {
    if let Some(Ok(device)) = DEVICE.lock().unwrap_or_else(|p| p.into_inner()).as_ref() {
        return Some(device.info().clone());
    }
    let found = adapter::found();
    let picked = adapter::pick(found, settings().adapter()).ok()?;
    Some(found[picked].clone())
}

/// Whether this machine has a GPU adapter (any of [`adapters`], found once per process): what
/// lists the GPU kernels among [`Kernel::available`](crate::Kernel::available).
pub(crate) fn has_adapter() -> bool {
    !adapter::found().is_empty()
}

/// Threads per dispatch of the process's device (`None` when it is not open).
pub fn threads() -> Option<u32> {
    match DEVICE.lock().unwrap_or_else(|p| p.into_inner()).as_ref() {
        Some(Ok(device)) => Some(device.threads()),
        _ => None,
    }
}

/// Sub-jobs per thread a batch aims at: the threads that finish early find more work.
const SUB_JOBS_PER_THREAD: usize = 4;

/// How batches are split for `device`: several sub-jobs per thread, none deeper than its
/// stacks.
pub fn batch_shape(device: &Device) -> BatchShape {
    BatchShape {
        target: device.threads() as usize * SUB_JOBS_PER_THREAD,
        max_rows: device.max_levels() + 1,
    }
}

/// A batch of jobs split for the device: [`prepare`], then [`count_stream`].
#[derive(Debug)]
pub struct Prepared {
    split: Split,
}

/// Splits `jobs` as `shape` says ([`batch_shape`]; CPU work, done while the device counts the
/// previous batch).
pub fn prepare(jobs: &[Job], shape: BatchShape) -> Prepared {
    Prepared {
        split: Split::new(jobs, shape),
    }
}

impl Prepared {
    /// The batch's totals per job, in order: what the CPU counted, plus the device's counts of
    /// the sub-jobs (`results`: two `u32` words each, low first, in sub-job order).
    fn totals(&self, results: &[u32]) -> Result<Vec<u64>, GpuError> {
        let mut totals = self.split.counted.clone();
        for (s, words) in self.split.sub_jobs.iter().zip(results.chunks_exact(2)) {
            let count = u64::from(words[0]) | u64::from(words[1]) << 32;
            let total = &mut totals[s.job as usize];
            *total = total
                .checked_add(count)
                .ok_or_else(|| GpuError::Device("a job's count overflows 64 bits".into()))?;
        }
        Ok(totals)
    }
}

pub use device::StreamError;

/// Counts batches on `device` until `next` has none left (it is called whenever the device has
/// room for one, the first time before any dispatch), handing each batch's token and totals per
/// job to `done` as soon as it is counted. Up to four batches are on the device at once, so that
/// its threads go on with the next while a batch's last sub-jobs are searched. `Ok(false)`:
/// `stop` was raised first (the batches on the device are dropped, not handed back).
pub fn count_stream<T>(
    device: &mut Device,
    next: &mut dyn FnMut() -> Option<(T, Prepared)>,
    done: &mut dyn FnMut(T, Vec<u64>),
    stop: Option<&AtomicBool>,
) -> Result<bool, StreamError<T>> {
    device.stream(next, done, stop)
}

/// Counts a prepared batch: one total per job, in order; `None` when `stop` was raised first.
#[cfg(test)]
pub(crate) fn count_prepared(
    device: &mut Device,
    batch: Prepared,
    stop: Option<&AtomicBool>,
) -> Result<Option<Vec<u64>>, GpuError> {
    let mut batch = Some(((), batch));
    let mut totals = None;
    let finished = count_stream(
        device,
        &mut || batch.take(),
        &mut |(), t| totals = Some(t),
        stop,
    )
    .map_err(|e| e.error)?;
    Ok(finished.then(|| totals.expect("the batch was counted")))
}

/// Counts every job on the process's device: one total per job, in order.
#[cfg(test)]
pub(crate) fn count_jobs(jobs: &[Job]) -> Result<Vec<u64>, GpuError> {
    let mut guard = device()?;
    let Some(Ok(device)) = guard.as_mut() else {
        unreachable!("device() returns an open device")
    };
    let batch = prepare(jobs, batch_shape(device));
    let counted = count_prepared(device, batch, None);
    if counted.is_err() {
        *guard = None;
    }
    Ok(counted?.expect("no stop flag"))
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::engine::kernel::InnerBoard;
    use crate::engine::kernel::depth_first::count_job;

    /// Held by the tests that use the process's device, so that a fault one of them makes
    /// reaches only its own run.
    pub(crate) static SERIAL: Mutex<()> = Mutex::new(());

    pub(crate) fn serial() -> MutexGuard<'static, ()> {
        SERIAL.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The device, or `None` (and a line saying so) where there is none, unless
    /// `NQUEENS_REQUIRE_GPU=1`.
    pub(crate) fn have_device() -> bool {
        match check() {
            Ok(_) => true,
            Err(e) if e != GpuError::NoAdapter => panic!("{e}"),
            Err(e) if std::env::var("NQUEENS_REQUIRE_GPU").as_deref() == Ok("1") => {
                panic!("NQUEENS_REQUIRE_GPU=1 but {e}")
            }
            Err(_) => {
                eprintln!("skipped: no GPU adapter");
                false
            }
        }
    }

    /// The jobs of every task of both plans of the `n`-board, with their depth-first counts.
    fn plan_jobs(n: u32) -> (Vec<Job>, Vec<u64>) {
        use crate::engine::plan::{Plan, Strategy, Subproblem};
        let mut jobs = Vec::new();
        for strategy in [Strategy::Symmetric, Strategy::Mirror] {
            for task in Plan::new(n, strategy, 4096).unwrap().tasks() {
                jobs.push(match task.subproblem {
                    Subproblem::Rows(state) => Job::from_rows(n, state).unwrap(),
                    Subproblem::Inner(board) => board.job(),
                });
            }
        }
        let counts = jobs.iter().map(|j| count_job::<false>(j, &mut 0)).collect();
        (jobs, counts)
    }

    #[test]
    fn gpu_jobs_match_the_depth_first_search() {
        let _serial = serial();
        if !have_device() {
            return;
        }
        let jobs: Vec<Job> = vec![
            InnerBoard::new(8, &[]).unwrap().job(),
            InnerBoard::new(12, &[]).unwrap().job(),
            InnerBoard::new(13, &[(0, 1), (12, 5), (6, 0)])
                .unwrap()
                .job(),
            InnerBoard::new(5, &[(0, 1), (1, 3)]).unwrap().job(),
            InnerBoard::new(1, &[]).unwrap().job(),
            InnerBoard::new(16, &[(0, 2), (15, 9), (7, 0), (3, 15)])
                .unwrap()
                .job(),
        ];
        let expected: Vec<u64> = jobs.iter().map(|j| count_job::<false>(j, &mut 0)).collect();
        assert_eq!(count_jobs(&jobs).unwrap(), expected);
        assert_eq!(count_jobs(&[]).unwrap(), Vec::<u64>::new());
    }

    #[test]
    fn batches_of_every_size_match_on_the_tasks_of_both_plans() {
        let _serial = serial();
        if !have_device() {
            return;
        }
        let (jobs, want) = plan_jobs(14);
        let mut got = Vec::new();
        let (mut at, mut size) = (0, 1);
        while at < jobs.len() {
            let end = (at + size).min(jobs.len());
            got.extend(count_jobs(&jobs[at..end]).unwrap());
            (at, size) = (end, size * 3);
        }
        assert_eq!(got, want);
    }

    #[test]
    fn both_stacks_and_both_ends_count_the_same() {
        if !have_device() {
            return;
        }
        let (mut jobs, mut want) = plan_jobs(12);
        let mut rng = Rng(0x2545_f491_4f6c_dd1d);
        for n in [20, 26, 32] {
            let job = random_board(&mut rng, n, 11).job();
            want.push(count_job::<false>(&job, &mut 0));
            jobs.push(job);
        }
        for stack in stack::Stack::ALL {
            for last_rows in last_rows::LastRows::ALL {
                let settings = GpuSettings::default()
                    .with_stack(*stack)
                    .with_last_rows(*last_rows);
                let mut device = Device::open_with(&settings).unwrap();
                let batch = prepare(&jobs, batch_shape(&device));
                let got = count_prepared(&mut device, batch, None).unwrap();
                assert_eq!(got, Some(want.clone()), "{stack:?}, {last_rows:?}");
            }
        }
    }

    #[test]
    fn a_stream_hands_back_every_batch_once_with_its_totals() {
        if !have_device() {
            return;
        }
        let (jobs, want) = plan_jobs(13);
        // Batches of 1, 2, 4 … jobs and back down, each its own size, so that places grow
        // while a batch waits; with numbers starting over every few thousand sub-jobs.
        let mut ranges = Vec::new();
        let (mut at, mut size, mut up) = (0, 1, true);
        while at < jobs.len() {
            let end = (at + size).min(jobs.len());
            ranges.push(at..end);
            at = end;
            up = if size >= 256 { false } else { up };
            size = if up { size * 2 } else { (size / 2).max(1) };
        }
        for limit in [device::stream::MAX_NUMBER, 3000] {
            let mut device = Device::open_with(&GpuSettings::default()).unwrap();
            device.number_limit = limit;
            let shape = BatchShape {
                target: 512,
                ..batch_shape(&device)
            };
            let mut left = ranges.clone().into_iter();
            let mut got = vec![None; jobs.len()];
            let mut next = || {
                let range = left.next()?;
                Some((range.clone(), prepare(&jobs[range], shape)))
            };
            let mut done = |range: std::ops::Range<usize>, totals: Vec<u64>| {
                assert_eq!(totals.len(), range.len());
                for (i, total) in range.zip(totals) {
                    assert!(got[i].replace(total).is_none(), "job {i} handed back twice");
                }
            };
            assert!(count_stream(&mut device, &mut next, &mut done, None).unwrap());
            let got: Vec<u64> = got.into_iter().map(|t| t.expect("every job")).collect();
            assert_eq!(got, want, "limit {limit}");
        }
    }

    #[test]
    fn auto_never_counts_on_a_software_adapter() {
        let _serial = serial();
        if !have_device() {
            return;
        }
        let kind = chosen_adapter().expect("an adapter").kind;
        for n in 4..=32 {
            for threads in [1, 2, 16] {
                let selected = crate::Kernel::Auto.select_for(n, threads).unwrap();
                assert_eq!(
                    selected.gpu().is_some(),
                    auto::auto_uses_gpu(kind, n, threads),
                    "{kind} n = {n}, {threads} threads"
                );
                if kind == "software" {
                    assert_eq!(selected.gpu(), None);
                }
            }
        }
    }

    #[test]
    fn a_raised_stop_flag_gives_no_count() {
        if !have_device() {
            return;
        }
        let (jobs, _) = plan_jobs(12);
        let mut device = Device::open_with(&GpuSettings::default()).unwrap();
        let batch = prepare(&jobs, batch_shape(&device));
        let stop = AtomicBool::new(true);
        let got = count_prepared(&mut device, batch, Some(&stop));
        assert_eq!(got, Ok(None));
    }

    /// xorshift64*: random boards without a dependency.
    struct Rng(u64);

    impl Rng {
        fn below(&mut self, n: u32) -> u32 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) as u32 % n
        }
    }

    /// A random board of side `n` with queens on random rows until `free` rows are left (fewer
    /// when a row has no free square).
    fn random_board(rng: &mut Rng, n: u32, free: u32) -> InnerBoard {
        let mut queens: Vec<(u32, u32)> = Vec::new();
        let mut tries = 0;
        while n - queens.len() as u32 > free && queens.len() < 16 && tries < 10_000 {
            tries += 1;
            let (r, c) = (rng.below(n), rng.below(n));
            let mut with = queens.clone();
            with.push((r, c));
            if InnerBoard::new(n, &with).is_some() {
                queens = with;
            }
        }
        InnerBoard::new(n, &queens).unwrap()
    }

    #[test]
    fn random_jobs_of_n_20_to_32_match_the_depth_first_search() {
        let _serial = serial();
        if !have_device() {
            return;
        }
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let mut jobs = Vec::new();
        // 10 to 13 free rows where the board allows (at most 16 queens are pre-placed, so n = 32
        // keeps 16): jobs the depth-first search counts in well under a second each.
        for n in 20..=32 {
            let samples = if n <= 26 { 8 } else { 3 };
            for _ in 0..samples {
                let free = (10 + rng.below(4)).max(n - 16);
                jobs.push(random_board(&mut rng, n, free).job());
            }
        }
        let want: Vec<u64> = jobs.iter().map(|j| count_job::<false>(j, &mut 0)).collect();
        assert!(want.iter().any(|&c| c > 0), "some jobs have solutions");
        assert_eq!(count_jobs(&jobs).unwrap(), want);
    }
}
