//! The optional controls of a count, an estimate or a study: a journal, a stop flag, a watcher,
//! a shard, pools.

use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use crate::engine::kernel::Kernel;
use crate::engine::plan::{Plan, Strategy};
use crate::engine::run::TaskOutcome;
use crate::journal::Shard;

/// Observes a count, an estimate or a study: told the plan once, then every task of a count as
/// it finishes, how an estimate's samples go, or each run of a study as it starts.
///
/// Every method runs while workers count, so they must be cheap; `task_done` runs on a worker
/// thread, possibly on several at once. Each does nothing unless implemented.
///
/// ```
/// use std::sync::atomic::{AtomicUsize, Ordering};
/// use nqueens::{count_with, CountOptions, Plan, RunControl, Strategy, TaskOutcome, Watcher};
///
/// // What a progress bar needs: the tasks to search, and how many are done.
/// #[derive(Default)]
/// struct Progress {
///     to_search: AtomicUsize,
///     done: AtomicUsize,
/// }
///
/// impl Watcher for Progress {
///     fn start(&self, plan: &Plan, resumed: &[TaskOutcome]) {
///         self.to_search.store(plan.tasks().len() - resumed.len(), Ordering::Relaxed);
///     }
///     fn task_done(&self, _: &TaskOutcome) {
///         self.done.fetch_add(1, Ordering::Relaxed);
///     }
/// }
///
/// let w = Progress::default();
/// let control = RunControl::default().with_watcher(&w);
/// let run = count_with(10, &CountOptions::new(2, Strategy::Mirror), &control).unwrap();
/// assert_eq!(run.counts.total, 724);
/// assert_eq!(w.to_search.load(Ordering::Relaxed), run.counts.tasks);
/// assert_eq!(w.done.load(Ordering::Relaxed), run.searched_tasks);
/// ```
pub trait Watcher: Sync {
    /// Called once before any task is searched, with the tasks the journal already holds.
    fn start(&self, plan: &Plan, resumed: &[TaskOutcome]) {
        let _ = (plan, resumed);
    }
    /// Called after each searched task of a count (not for the tasks a stop abandons).
    fn task_done(&self, outcome: &TaskOutcome) {
        let _ = outcome;
    }
    /// Called as an estimate goes ([`estimate_with`](crate::estimation::estimate_with)): after
    /// each pilot run that sizes a time budget's rounds (with [`EstimateProgress::samples`] 0)
    /// and after each round of samples (a fixed number of samples is drawn in at most 512 rounds).
    /// An estimate's [`start`](Watcher::start) is told the plan it samples, with no task
    /// resumed.
    fn sampled(&self, progress: &EstimateProgress) {
        let _ = progress;
    }
    /// Called as a study goes ([`measure`](crate::scaling::study::measure)): before each of
    /// its runs starts, on the thread that called the study. A study tells no other method.
    ///
    /// ```
    /// use std::sync::Mutex;
    /// use nqueens::scaling::study::{measure, StudyOptions, StudyProgress};
    /// use nqueens::{RunControl, Strategy, Watcher};
    ///
    /// struct Runs(Mutex<Vec<(usize, usize)>>);
    /// impl Watcher for Runs {
    ///     fn measuring(&self, run: &StudyProgress) {
    ///         self.0.lock().unwrap().push((run.threads, run.run));
    ///     }
    /// }
    ///
    /// let runs = Runs(Mutex::new(Vec::new()));
    /// let options = StudyOptions::new(vec![2]).with_strategy(Strategy::Mirror).with_repeat(1);
    /// measure(8, &options, &RunControl::default().with_watcher(&runs)).unwrap();
    /// // The warm-ups (run 0), then the timed runs.
    /// assert_eq!(runs.0.into_inner().unwrap(), [(1, 0), (2, 0), (1, 1), (2, 1)]);
    /// ```
    fn measuring(&self, run: &StudyProgress) {
        let _ = run;
    }
}

/// A closure is a watcher told every searched task (and not the start):
///
/// ```
/// use std::sync::atomic::{AtomicU64, Ordering};
/// use nqueens::{count_with, CountOptions, RunControl, Strategy, TaskOutcome};
/// let searched = AtomicU64::new(0);
/// let watch = |outcome: &TaskOutcome| {
///     searched.fetch_add(outcome.count * outcome.weight, Ordering::Relaxed);
/// };
/// let control = RunControl::default().with_watcher(&watch);
/// let run = count_with(10, &CountOptions::new(2, nqueens::Strategy::Mirror), &control).unwrap();
/// assert_eq!(u128::from(searched.into_inner()), run.counts.total);
/// ```
impl<F: Fn(&TaskOutcome) + Sync> Watcher for F {
    fn task_done(&self, outcome: &TaskOutcome) {
        self(outcome)
    }
}

/// Optional controls of a count, an estimate or a study.
///
/// The default controls nothing: [`count_with`](crate::count_with) then counts like
/// [`crate::count`], and [`estimate_with`](crate::estimation::estimate_with) estimates like
/// [`estimate`](crate::estimation::estimate). An estimate reads the stop flag, the watcher and the
/// pool (see [`estimate_with`](crate::estimation::estimate_with)); a study, the stop flag, the
/// watcher's [`measuring`](Watcher::measuring), the pool and the pools (see
/// [`measure`](crate::scaling::study::measure)). A stop flag raised before the count starts
/// lets no task start:
///
/// ```
/// use std::sync::atomic::AtomicBool;
/// use nqueens::{count_with, CountOptions, RunControl, Strategy};
/// let options = CountOptions::new(2, Strategy::Mirror);
/// let whole = count_with(8, &options, &RunControl::default()).unwrap();
/// assert!(whole.complete);
///
/// let stop = AtomicBool::new(true);
/// let control = RunControl::default().with_stop(&stop);
/// let stopped = count_with(8, &options, &control).unwrap();
/// assert!(!stopped.complete);
/// assert_eq!((stopped.counts.total, stopped.counts.unique), (0, None));
/// ```
#[derive(Clone, Copy, Default)]
#[non_exhaustive]
pub struct RunControl<'a> {
    /// Journal file: finished tasks are recorded there, and tasks it already holds are not
    /// searched again (a count's: an estimate does not read it).
    pub journal: Option<&'a Path>,
    /// When set to `true`, a count's workers start no other task and abandon the tasks they are
    /// searching: the kernels read the flag inside a task, so the count returns within
    /// milliseconds at any board size (a task of a large board runs for minutes). The abandoned
    /// tasks are neither counted nor recorded
    /// ([`CountRun::abandoned_tasks`](crate::CountRun::abandoned_tasks) says how many); a
    /// resumed count searches them again from the start, and the journal's time records hold
    /// the time spent on them. An estimate's workers finish their current group of samples: it
    /// returns what the samples drawn show.
    ///
    /// ```
    /// use std::sync::atomic::{AtomicBool, Ordering};
    /// use nqueens::{count_with, CountOptions, RunControl, Strategy};
    /// let stop = AtomicBool::new(false);
    /// let control = RunControl::default().with_stop(&stop);
    /// let options = CountOptions::new(2, Strategy::Mirror);
    /// let run = std::thread::scope(|scope| {
    ///     // n = 22: each of its first tasks takes seconds.
    ///     let counting = scope.spawn(|| count_with(22, &options, &control));
    ///     std::thread::sleep(std::time::Duration::from_millis(100));
    ///     stop.store(true, Ordering::Relaxed);
    ///     counting.join().unwrap().unwrap()
    /// });
    /// assert!(!run.complete);
    /// // The tasks under way were dropped (none, if the stop came before any started).
    /// assert!(run.abandoned_tasks <= 2);
    /// ```
    pub stop: Option<&'a AtomicBool>,
    /// Told about every finished task (an estimate's, how its samples go).
    pub watcher: Option<&'a dyn Watcher>,
    /// Count only this shard of the plan (`None`: the whole plan; an estimate samples the
    /// whole plan).
    pub shard: Option<Shard>,
    /// The rayon pool whose workers count: at most [`CountOptions::threads`] of them, all of
    /// them for `0` (`None`: the pool the calling thread is a worker of; outside every pool,
    /// rayon's global pool for `0` threads, else the process's pool of that many workers, built
    /// on first use and kept for the counts after it, among a few pools of the most recent
    /// thread counts: see [`release_pools`](crate::release_pools)).
    ///
    /// The rule is rayon's: called on a worker of the pool it runs on, a count's work goes to
    /// that pool as jobs the calling worker takes part in; called on a worker of another pool,
    /// the caller waits as `rayon::ThreadPool::install` does, taking its own pool's jobs
    /// meanwhile, so pools whose workers count on each other, nested pools and parallel
    /// iterators over counts always finish. Without a pool, boards up to n = 10 are searched on
    /// the calling thread, which is quicker than waking any other.
    ///
    /// ```
    /// use nqueens::{count_with, CountOptions, RunControl, Strategy};
    /// use rayon::prelude::*;
    /// let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    /// let control = RunControl::default().with_pool(&pool);
    /// let options = CountOptions::new(2, Strategy::Mirror);
    /// assert_eq!(count_with(12, &options, &control).unwrap().counts.total, 14_200);
    /// // Counts inside a parallel iterator on the same pool.
    /// let sum: u128 = pool.install(|| {
    ///     (0..100)
    ///         .into_par_iter()
    ///         .map(|_| count_with(11, &options, &control).unwrap().counts.total)
    ///         .sum()
    /// });
    /// assert_eq!(sum, 100 * 2680);
    /// ```
    ///
    /// [`CountOptions::threads`]: crate::CountOptions::threads
    pub pool: Option<&'a rayon::ThreadPool>,
    /// Pools of chosen sizes for a study's runs: a run of `t` threads runs on the one of `t`
    /// workers, where there is one (before [`RunControl::pool`]); pools whose workers the caller
    /// placed on chosen CPUs, for example. Empty by default; a count and an estimate do not
    /// read it.
    pub pools: &'a [&'a rayon::ThreadPool],
}

/// The controls set: the journal's path, the shard and the pools' sizes; whether there is a stop
/// flag (and its value) and a watcher.
impl std::fmt::Debug for RunControl<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RunControl")
            .field("journal", &self.journal)
            .field("stop", &self.stop)
            .field("watcher", &self.watcher.map(|_| "a watcher"))
            .field("shard", &self.shard)
            .field(
                "pool",
                &self.pool.map(rayon::ThreadPool::current_num_threads),
            )
            .field(
                "pools",
                &self
                    .pools
                    .iter()
                    .map(|pool| pool.current_num_threads())
                    .collect::<Vec<_>>(),
            )
            .finish()
    }
}

impl<'a> RunControl<'a> {
    /// These controls with a journal at `path`: finished tasks are recorded there, and the
    /// tasks it already holds are not searched again.
    ///
    /// ```
    /// use nqueens::{count_with, CountOptions, RunControl, Strategy};
    /// let file = std::env::temp_dir().join(format!("nqueens-doc-{}.ckpt", std::process::id()));
    /// let _ = std::fs::remove_file(&file);
    /// let options = CountOptions::new(2, Strategy::Mirror);
    /// let control = RunControl::default().with_journal(&file);
    /// let first = count_with(8, &options, &control).unwrap();
    /// assert_eq!(first.searched_tasks, first.counts.tasks);
    /// let again = count_with(8, &options, &control).unwrap();
    /// assert_eq!((again.resumed_tasks, again.searched_tasks), (again.counts.tasks, 0));
    /// std::fs::remove_file(&file).unwrap();
    /// ```
    #[must_use]
    pub fn with_journal(self, path: &'a Path) -> RunControl<'a> {
        RunControl {
            journal: Some(path),
            ..self
        }
    }

    /// These controls with a stop flag: when it is raised, a count's workers abandon the tasks
    /// they are searching, within milliseconds, and start no other (see [`RunControl::stop`]).
    ///
    /// ```
    /// use std::sync::atomic::AtomicBool;
    /// use nqueens::{count_with, CountOptions, RunControl};
    /// let stop = AtomicBool::new(true);
    /// let run = count_with(8, &CountOptions::default(), &RunControl::default().with_stop(&stop));
    /// assert!(!run.unwrap().complete);
    /// ```
    #[must_use]
    pub fn with_stop(self, stop: &'a AtomicBool) -> RunControl<'a> {
        RunControl {
            stop: Some(stop),
            ..self
        }
    }

    /// These controls with a watcher told about every task: a [`Watcher`], or a closure
    /// `Fn(&TaskOutcome) + Sync`.
    ///
    /// ```
    /// use std::sync::atomic::{AtomicUsize, Ordering};
    /// use nqueens::{count_with, CountOptions, RunControl, TaskOutcome};
    /// let done = AtomicUsize::new(0);
    /// let tick = |_: &TaskOutcome| {
    ///     done.fetch_add(1, Ordering::Relaxed);
    /// };
    /// let run = count_with(8, &CountOptions::default(), &RunControl::default().with_watcher(&tick));
    /// assert_eq!(done.into_inner(), run.unwrap().searched_tasks);
    /// ```
    #[must_use]
    pub fn with_watcher(self, watcher: &'a dyn Watcher) -> RunControl<'a> {
        RunControl {
            watcher: Some(watcher),
            ..self
        }
    }

    /// These controls counting only `shard` of the plan.
    ///
    /// ```
    /// use nqueens::journal::Shard;
    /// use nqueens::{count_with, CountOptions, RunControl};
    /// let half = RunControl::default().with_shard(Shard::new(1, 2).unwrap());
    /// let run = count_with(8, &CountOptions::default(), &half).unwrap();
    /// assert!(run.complete && run.counts.total < 92);
    /// ```
    #[must_use]
    pub fn with_shard(self, shard: Shard) -> RunControl<'a> {
        RunControl {
            shard: Some(shard),
            ..self
        }
    }

    /// These controls, counting on the caller's `pool` (see [`RunControl::pool`]).
    ///
    /// ```
    /// use nqueens::{count_with, CountOptions, RunControl};
    /// let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    /// let run = count_with(8, &CountOptions::default(), &RunControl::default().with_pool(&pool));
    /// assert_eq!(run.unwrap().counts.total, 92);
    /// ```
    #[must_use]
    pub fn with_pool(self, pool: &'a rayon::ThreadPool) -> RunControl<'a> {
        RunControl {
            pool: Some(pool),
            ..self
        }
    }

    /// These controls, a study's runs of each thread count running on the pool of `pools`
    /// with that many workers (see [`RunControl::pools`]).
    ///
    /// ```
    /// use nqueens::scaling::study::{measure, StudyOptions};
    /// use nqueens::{RunControl, Strategy};
    /// let build = |threads| rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
    /// let (one, two) = (build(1), build(2));
    /// let pools = [&one, &two];
    /// let options = StudyOptions::new(vec![2]).with_strategy(Strategy::Mirror).with_repeat(1);
    /// let study = measure(8, &options, &RunControl::default().with_pools(&pools)).unwrap();
    /// assert_eq!(study.runs.len(), 2);
    /// ```
    #[must_use]
    pub fn with_pools(self, pools: &'a [&'a rayon::ThreadPool]) -> RunControl<'a> {
        RunControl { pools, ..self }
    }
}

/// Where an estimate stands, as [`Watcher::sampled`] is told it (the
/// estimate's own module, [`estimate`](mod@crate::estimation), names it too).
///
/// ```
/// use nqueens::estimation::EstimateProgress;
/// fn line(p: &EstimateProgress) -> String {
///     match p.total {
///         Some((total, low, high)) => format!("{} of {}: {total:.3e} ({low:.3e} to {high:.3e})",
///                                             p.samples_done, p.samples),
///         None => format!("sizing the sample, {:?}", p.elapsed),
///     }
/// }
/// ```
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct EstimateProgress {
    /// Samples drawn so far.
    pub samples_done: u64,
    /// Samples to draw in all; 0 while pilot runs size it for a time budget.
    pub samples: u64,
    /// Wall-clock time since the estimate started, pilot runs included.
    pub elapsed: Duration,
    /// The total estimated from the samples drawn so far, with its 95% interval: `(estimate,
    /// low, high)`; `None` before there are two samples.
    pub total: Option<(f64, f64, f64)>,
}

/// Where a study is, as [`Watcher::measuring`] is told it before each run starts (the study's
/// own module, [`study`](crate::scaling::study), names it too).
///
/// ```
/// use std::sync::Mutex;
/// use nqueens::scaling::study::{measure, StudyOptions, StudyProgress};
/// use nqueens::{RunControl, Strategy, Watcher};
/// struct Seen(Mutex<Vec<(usize, usize, usize)>>);
/// impl Watcher for Seen {
///     fn measuring(&self, p: &StudyProgress) {
///         self.0.lock().unwrap().push((p.threads, p.run, p.repeat));
///     }
/// }
/// let seen = Seen(Mutex::new(Vec::new()));
/// let options = StudyOptions::new(vec![2]).with_strategy(Strategy::Mirror).with_repeat(1);
/// measure(8, &options, &RunControl::default().with_watcher(&seen)).unwrap();
/// // The warm-ups (run 0) first, then the timed runs taking turns over the thread counts.
/// assert_eq!(seen.0.into_inner().unwrap(), [(1, 0, 1), (2, 0, 1), (1, 1, 1), (2, 1, 1)]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct StudyProgress {
    /// Thread count of the run about to start.
    pub threads: usize,
    /// `0` for the warm-up run, then `1..=repeat` for the timed runs.
    pub run: usize,
    /// Timed runs per thread count.
    pub repeat: usize,
    /// The strategy of the run about to start.
    pub strategy: Strategy,
    /// The kernel of the run about to start (never [`Kernel::Auto`]).
    pub kernel: Kernel,
    /// Which of the variants measured together this run belongs to, from 0
    /// (see [`measure_together`](crate::scaling::study::measure_together)).
    pub variant: usize,
    /// How many variants are measured together (1 for [`measure`](crate::scaling::study::measure)).
    pub variants: usize,
}

impl StudyProgress {
    /// Run `run` (0 for the warm-up) of `repeat` on `threads` threads with `strategy` and
    /// `kernel`, in a study of one variant (what a watcher is told by
    /// [`measure`](crate::scaling::study::measure)).
    ///
    /// ```
    /// use nqueens::scaling::study::StudyProgress;
    /// use nqueens::{Kernel, Strategy};
    /// let p = StudyProgress::new(2, 1, 3, Strategy::Mirror, Kernel::DepthFirst);
    /// assert_eq!((p.threads, p.run, p.repeat), (2, 1, 3));
    /// assert_eq!((p.variant, p.variants), (0, 1));
    /// ```
    #[must_use]
    pub const fn new(
        threads: usize,
        run: usize,
        repeat: usize,
        strategy: Strategy,
        kernel: Kernel,
    ) -> StudyProgress {
        StudyProgress {
            threads,
            run,
            repeat,
            strategy,
            kernel,
            variant: 0,
            variants: 1,
        }
    }
}
