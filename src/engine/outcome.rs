//! What a run is given and what it gives back: its options, each task's outcome, the report.
//! Both the CPU run (`run.rs`) and the GPU run (`gpu_run.rs`) take and make them, and
//! `engine::run` names them.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use super::kernel::{Kernel, Selected};
use super::plan::{Task, TaskId};
#[cfg(feature = "gpu")]
use crate::error::Error;

/// What happened to one task.
///
/// A [`Watcher`](crate::Watcher) sees one for every task a count searches:
///
/// ```
/// use std::sync::Mutex;
/// use nqueens::{count_with, CountOptions, RunControl, Strategy, TaskOutcome, Watcher};
///
/// #[derive(Default)]
/// struct Collect(Mutex<Vec<TaskOutcome>>);
///
/// impl Watcher for Collect {
///     fn task_done(&self, outcome: &TaskOutcome) {
///         self.0.lock().unwrap().push(*outcome);
///     }
/// }
///
/// let collect = Collect::default();
/// let control = RunControl::default().with_watcher(&collect);
/// let run = count_with(8, &CountOptions::new(2, Strategy::Mirror), &control).unwrap();
/// let outcomes = collect.0.into_inner().unwrap();
/// assert_eq!(outcomes.len(), run.counts.tasks);
/// assert!(outcomes.iter().all(|outcome| !outcome.recorded)); // searched, not from a journal
/// let total: u128 = outcomes.iter().map(TaskOutcome::weighted).sum();
/// assert_eq!(total, 92);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct TaskOutcome {
    /// Position of the task in the plan.
    pub index: usize,
    /// The task's name.
    pub id: TaskId,
    /// Unweighted count of the task's subproblem.
    pub count: u64,
    /// The task's weight.
    pub weight: u64,
    /// Time the kernel took; zero for a task taken from a journal. `seconds` in serde's
    /// output.
    #[cfg_attr(
        feature = "serde",
        serde(rename = "seconds", with = "crate::serde_util::seconds")
    )]
    pub elapsed: Duration,
    /// Whether the count was taken from a journal instead of searched.
    pub recorded: bool,
    /// When the kernel started on the task, from the start of its run; zero for a task taken
    /// from a journal. `started_seconds` in serde's output (zero where absent).
    #[cfg_attr(
        feature = "serde",
        serde(
            rename = "started_seconds",
            with = "crate::serde_util::seconds",
            default
        )
    )]
    pub started: Duration,
}

impl TaskOutcome {
    /// The outcome of task `index` of a plan before anything is known of it: count 0, not
    /// taken from a journal, no time. Every run starts a task's outcome here.
    pub(crate) fn of_task(index: usize, task: &Task) -> TaskOutcome {
        TaskOutcome {
            index,
            id: task.id,
            count: 0,
            weight: task.weight,
            elapsed: Duration::ZERO,
            recorded: false,
            started: Duration::ZERO,
        }
    }

    /// The task's contribution to the total: `count × weight`.
    #[must_use]
    pub fn weighted(&self) -> u128 {
        u128::from(self.count) * u128::from(self.weight)
    }
}

/// Callback type for finished tasks.
pub type TaskObserver<'a> = &'a (dyn Fn(&TaskOutcome) + Sync);
/// A job run once by a run's first worker before its first task (see [`RunOptions::first`]).
pub type FirstJob<'a> = &'a (dyn Fn() + Sync);
/// Callback type that supplies counts recorded by an earlier run.
pub type RecordedCounts<'a> = &'a (dyn Fn(&Task) -> Option<u64> + Sync);

/// How to run a plan.
#[derive(Clone, Copy)]
pub struct RunOptions<'a> {
    /// Worker threads: at most this many of the pool's workers, `0` for all of them (see
    /// [`super::pool`]).
    pub threads: usize,
    /// Called on a worker thread after each task finishes (not for recorded ones).
    pub on_task_done: Option<TaskObserver<'a>>,
    /// When set to `true`, workers start no further task and abandon the tasks under way
    /// (the kernels read it inside a task).
    pub stop: Option<&'a AtomicBool>,
    /// Counts already known for some tasks (resuming a journal): those are not searched.
    pub recorded: Option<RecordedCounts<'a>>,
    /// The kernel that counts each task, selected once for the whole run ([`Kernel::select`]).
    pub kernel: Selected,
    /// The pool to run on (at most `threads` of its workers) instead of the one the calling
    /// thread is on or the process's pool of `threads` workers.
    pub pool: Option<&'a rayon::ThreadPool>,
    /// Work the caller needs after the run, done inside it: the first worker to start runs it
    /// once, before its first task, as if it were the plan's largest task, so that it overlaps
    /// the others' tasks instead of adding to the wall time (a count's unique-count searches).
    /// Not run where the stop flag is raised before a worker starts, nor by the GPU kernels:
    /// the caller makes sure of it afterwards.
    pub first: Option<FirstJob<'a>>,
    /// Whether the report lists every finished task ([`RunReport::outcomes`]); without the
    /// list (which costs a store per task and an ordering after the last) the report still
    /// has the total and the [`Tally`]. The GPU kernels always list them.
    pub keep_outcomes: bool,
}

/// The options' values, and which callbacks are set.
impl std::fmt::Debug for RunOptions<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let set = |on: bool| if on { "set" } else { "none" };
        f.debug_struct("RunOptions")
            .field("threads", &self.threads)
            .field("on_task_done", &set(self.on_task_done.is_some()))
            .field("stop", &self.stop)
            .field("recorded", &set(self.recorded.is_some()))
            .field("kernel", &self.kernel)
            .field(
                "pool",
                &self.pool.map(rayon::ThreadPool::current_num_threads),
            )
            .field("first", &set(self.first.is_some()))
            .field("keep_outcomes", &self.keep_outcomes)
            .finish()
    }
}

impl RunOptions<'_> {
    /// Plain options: `threads` workers, no observer, no stop flag, nothing recorded, the
    /// fastest kernel, every outcome kept.
    pub fn with_threads(threads: usize) -> RunOptions<'static> {
        RunOptions {
            threads,
            on_task_done: None,
            stop: None,
            recorded: None,
            kernel: Kernel::fastest_cpu(),
            pool: None,
            first: None,
            keep_outcomes: true,
        }
    }
}

/// The result of a run.
#[derive(Clone, Debug)]
pub struct RunReport {
    /// Σ weight × count over the finished tasks.
    pub total: u128,
    /// The finished tasks summed: how many were searched and for how long, how many taken
    /// from the records.
    pub tally: Tally,
    /// Every finished task, ordered by plan index; empty unless [`RunOptions::keep_outcomes`].
    pub outcomes: Vec<TaskOutcome>,
    /// Whether every task of the plan finished (false when the stop flag ended the run).
    pub complete: bool,
    /// The kernel that counted the tasks (never [`Kernel::Auto`]).
    pub kernel: Kernel,
    /// Wall-clock time of the run.
    pub elapsed: Duration,
    /// The worker threads the run's tasks were handed to: the pool's workers, or 1 where the
    /// run searched on the calling thread alone (see [`super::pool`]); for a GPU
    /// kernel, the CPU workers beside the GPU.
    pub threads: usize,
    /// What the GPU and the CPU each did, for a GPU kernel.
    #[cfg(feature = "gpu")]
    pub gpu: Option<DeviceShare>,
    /// What each worker searched and when, one entry per worker of the run.
    pub workers: Vec<WorkerSpan>,
}

/// The finished tasks of a run (or of one worker) summed, and those a stop abandoned.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Tally {
    /// Tasks searched.
    pub searched: usize,
    /// The searched tasks' times summed (every worker's).
    pub search_time: Duration,
    /// Tasks whose counts were taken from the records ([`RunOptions::recorded`]).
    pub recorded: usize,
    /// Σ weight × count of those tasks.
    pub recorded_total: u128,
    /// Tasks a stop abandoned part-way: neither counted nor reported, nor among `searched`.
    pub abandoned: usize,
    /// The time spent on those tasks before the stop (every worker's), besides `search_time`.
    pub abandoned_time: Duration,
}

impl Tally {
    /// Adds one finished task.
    #[cfg(feature = "gpu")]
    fn add(&mut self, outcome: &TaskOutcome) {
        if outcome.recorded {
            self.recorded += 1;
            self.recorded_total += outcome.weighted();
        } else {
            self.searched += 1;
            self.search_time += outcome.elapsed;
        }
    }

    /// The tally of `outcomes`.
    #[cfg(feature = "gpu")]
    pub(super) fn of(outcomes: &[TaskOutcome]) -> Tally {
        outcomes
            .iter()
            .fold(Tally::default(), |mut tally, outcome| {
                tally.add(outcome);
                tally
            })
    }

    /// Tasks finished, searched or recorded.
    pub fn finished(&self) -> usize {
        self.searched + self.recorded
    }
}

/// When one worker of a run searched: the first start and last end of its tasks, measured from
/// the start of the run, and the sum of its tasks' times (the tasks taken from a journal are not
/// searched and not counted).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct WorkerSpan {
    /// Tasks the worker searched.
    pub tasks: usize,
    /// When its first searched task started; zero when it searched none.
    pub first_start: Duration,
    /// When its last searched task ended; zero when it searched none.
    pub last_end: Duration,
    /// The sum of its searched tasks' times.
    pub busy: Duration,
}

impl WorkerSpan {
    /// Adds a task searched from `start` to `end` (offsets from the run's start).
    pub(super) fn add(&mut self, start: Duration, end: Duration) {
        if self.tasks == 0 {
            self.first_start = start;
        }
        self.tasks += 1;
        self.last_end = end;
        self.busy += end.saturating_sub(start);
    }
}

/// What each device did in a run with a GPU kernel.
#[cfg(feature = "gpu")]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct DeviceShare {
    /// Tasks the GPU counted.
    pub gpu_tasks: usize,
    /// Tasks the CPU counted (CPU workers, tasks too wide for the GPU, batches counted again
    /// after a GPU fault).
    pub cpu_tasks: usize,
    /// The solutions (weighted) the GPU's tasks hold.
    pub gpu_solutions: u128,
    /// The solutions (weighted) the CPU's tasks hold.
    pub cpu_solutions: u128,
    /// Whether the GPU failed during the run (the rest was counted on the CPU).
    pub gpu_failed: bool,
    /// The steps the GPU's threads ran and were offered in the run's dispatches.
    #[cfg_attr(feature = "serde", serde(default))]
    pub gpu_work: crate::engine::kernel::gpu::Work,
}

#[cfg(feature = "gpu")]
impl DeviceShare {
    /// The GPU's share of the solutions counted, from 0 to 1 (0 when nothing was counted).
    ///
    /// ```
    /// use nqueens::gpu::DeviceShare;
    /// assert_eq!(DeviceShare::default().gpu_fraction(), 0.0);
    /// ```
    #[must_use]
    pub fn gpu_fraction(&self) -> f64 {
        let all = self.gpu_solutions + self.cpu_solutions;
        if all == 0 {
            0.0
        } else {
            self.gpu_solutions as f64 / all as f64
        }
    }
}

/// Puts `outcomes` in plan order and sums their weighted counts (checked: never a silent wrap).
#[cfg(feature = "gpu")]
pub(super) fn order_and_sum(outcomes: &mut [TaskOutcome]) -> Result<u128, Error> {
    outcomes.sort_unstable_by_key(|o| o.index);
    outcomes
        .iter()
        .try_fold(0u128, |acc, o| acc.checked_add(o.weighted()))
        .ok_or(Error::Overflow)
}

#[cfg(all(test, feature = "gpu"))]
mod gpu_tests {
    use super::DeviceShare;

    #[test]
    fn the_gpu_fraction_is_its_share_of_the_solutions() {
        let share = DeviceShare {
            gpu_solutions: 3,
            cpu_solutions: 1,
            ..DeviceShare::default()
        };
        assert_eq!(share.gpu_fraction(), 0.75);
    }
}
