//! Running a [`Plan`] on a pool of worker threads and summing the counts.
//!
//! A run's workers are the process's rayon pool of exactly `threads` workers (never the global
//! pool; kept for later runs, see [`super::pool`]), a pool the caller gives, or the calling
//! thread alone where waiting for a pool could nest runs, and every worker takes the next task
//! from a shared index: list scheduling in the plan's largest-first order. Per-task counts are
//! weighted and summed in `u128`: a task's count is at most `u64::MAX` and its weight at most 8,
//! so even 2³² tasks cannot overflow the sum.
//!
//! Observers (progress bars, journals) see each finished task through
//! [`RunOptions::on_task_done`]; a stop flag is read between tasks. Neither touches the kernel.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use super::kernel::{Kernel, Selected};
use super::plan::{Plan, Task, TaskId};
use super::pool::{INLINE_MAX_N, Workers, on_workers};
use crate::Error;

pub use super::pool::build_pool;

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
    /// Worker threads; must be at least 1.
    pub threads: usize,
    /// Called on a worker thread after each task finishes (not for recorded ones).
    pub on_task_done: Option<TaskObserver<'a>>,
    /// When set to `true`, workers start no further task.
    pub stop: Option<&'a AtomicBool>,
    /// Counts already known for some tasks (resuming a journal): those are not searched.
    pub recorded: Option<RecordedCounts<'a>>,
    /// The kernel that counts each task, selected once for the whole run ([`Kernel::select`]).
    pub kernel: Selected,
    /// The pool to run on instead of the process's pool of `threads` workers (its size then
    /// wins over `threads`).
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
            kernel: Kernel::Auto.select().expect("auto always selects a kernel"),
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
    /// run searched on the calling thread alone (see [`on_workers`]); for a GPU kernel, the CPU
    /// workers beside the GPU.
    pub threads: usize,
    /// What the GPU and the CPU each did, for a GPU kernel.
    #[cfg(feature = "gpu")]
    pub gpu: Option<super::gpu_run::DeviceShare>,
    /// What each worker searched and when, one entry per worker of the run.
    pub workers: Vec<WorkerSpan>,
}

/// The finished tasks of a run (or of one worker) summed.
///
/// ```
/// use nqueens::engine::{plan::{Plan, Strategy}, run::{run, RunOptions}};
/// let plan = Plan::new(10, Strategy::Mirror, 64).unwrap();
/// let options = RunOptions { keep_outcomes: false, ..RunOptions::with_threads(2) };
/// let report = run(&plan, &options).unwrap();
/// assert!(report.outcomes.is_empty());
/// assert_eq!((report.total, report.tally.searched), (724, plan.tasks().len()));
/// assert_eq!((report.tally.recorded, report.tally.recorded_total), (0, 0));
/// ```
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
}

impl Tally {
    /// Adds one finished task.
    pub fn add(&mut self, outcome: &TaskOutcome) {
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

/// What one worker of a run did: its tasks (when kept), its span (which sums what it searched)
/// and the sums of the rest.
struct WorkerResult {
    outcomes: Vec<TaskOutcome>,
    span: WorkerSpan,
    /// Tasks taken from the records, and Σ weight × count of them.
    recorded: (usize, u128),
    /// Σ weight × count of its tasks; `None` past `u128::MAX`.
    total: Option<u128>,
}

/// When one worker of a run searched: the first start and last end of its tasks, measured from
/// the start of the run, and the sum of its tasks' times (the tasks taken from a journal are not
/// searched and not counted).
///
/// ```
/// use nqueens::engine::{plan::{Plan, Strategy}, run::{run, RunOptions}};
/// let plan = Plan::new(11, Strategy::Mirror, 64).unwrap(); // up to n = 10, one worker runs
/// let report = run(&plan, &RunOptions::with_threads(2)).unwrap();
/// assert_eq!(report.workers.len(), 2);
/// let tasks: usize = report.workers.iter().map(|w| w.tasks).sum();
/// assert_eq!(tasks, plan.tasks().len());
/// for w in report.workers.iter().filter(|w| w.tasks > 0) {
///     assert!(w.first_start + w.busy <= w.last_end && w.last_end <= report.elapsed);
/// }
/// ```
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
    fn add(&mut self, start: Duration, end: Duration) {
        if self.tasks == 0 {
            self.first_start = start;
        }
        self.tasks += 1;
        self.last_end = end;
        self.busy += end.saturating_sub(start);
    }
}

/// Runs every task of `plan` on `options.threads` workers.
///
/// ```
/// use nqueens::engine::{plan::{Plan, Strategy}, run::{run, RunOptions}};
/// let plan = Plan::new(10, Strategy::Mirror, 64).unwrap();
/// let report = run(&plan, &RunOptions::with_threads(2)).unwrap();
/// assert_eq!(report.total, 724);
/// assert!(report.complete);
/// ```
pub fn run(plan: &Plan, options: &RunOptions<'_>) -> Result<RunReport, Error> {
    plan.check()?;
    #[cfg(feature = "gpu")]
    if let Some(share) = options.kernel.gpu() {
        return super::gpu_run::run(plan, options, share);
    }
    let kernel = options.kernel;
    let started = Instant::now();
    let next = AtomicUsize::new(0);
    let first_taken = AtomicBool::new(false);
    let n = plan.n();
    let tasks = plan.tasks();
    let worker = || {
        let mut result = WorkerResult {
            outcomes: Vec::new(),
            span: WorkerSpan::default(),
            recorded: (0, 0),
            total: Some(0),
        };
        if let Some(first) = options.first
            && !options.stop.is_some_and(|s| s.load(Ordering::Relaxed))
            && !first_taken.swap(true, Ordering::Relaxed)
        {
            first();
        }
        loop {
            if options.stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
                break;
            }
            let index = next.fetch_add(1, Ordering::Relaxed);
            let Some(task) = tasks.get(index) else {
                break;
            };
            let mut outcome = TaskOutcome::of_task(index, task);
            if let Some(count) = options.recorded.and_then(|r| r(task)) {
                outcome.count = count;
                outcome.recorded = true;
                result.recorded.0 += 1;
                result.recorded.1 += outcome.weighted();
            } else {
                let t0 = Instant::now();
                let Some(count) = task.subproblem.count_with(n, kernel, options.stop) else {
                    // Stopped part-way: the task is not finished, so it is not reported.
                    break;
                };
                outcome.count = count;
                outcome.elapsed = t0.elapsed();
                // The task's own two clock reads, placed on the run's time line.
                outcome.started = t0.saturating_duration_since(started);
                result
                    .span
                    .add(outcome.started, outcome.started + outcome.elapsed);
                if let Some(observe) = options.on_task_done {
                    observe(&outcome);
                }
            }
            result.total = result.total.and_then(|t| t.checked_add(outcome.weighted()));
            if options.keep_outcomes {
                result.outcomes.push(outcome);
            }
        }
        result
    };
    let results: Vec<WorkerResult> = on_workers(
        options.threads,
        n <= INLINE_MAX_N,
        options.pool,
        |workers| match workers {
            Workers::Pool(pool) => pool.broadcast(|_| worker()),
            Workers::Here => vec![worker()],
        },
    )?;
    let total = results
        .iter()
        .try_fold(0u128, |acc, r| r.total.and_then(|t| acc.checked_add(t)))
        .ok_or(Error::Overflow)?;
    let tally = results.iter().fold(Tally::default(), |acc, r| Tally {
        searched: acc.searched + r.span.tasks,
        search_time: acc.search_time + r.span.busy,
        recorded: acc.recorded + r.recorded.0,
        recorded_total: acc.recorded_total + r.recorded.1,
    });
    let workers = results.iter().map(|r| r.span).collect();
    // One result per worker the run was handed to.
    let threads = results.len();
    let outcomes = in_plan_order(results.into_iter().map(|r| r.outcomes).collect());
    Ok(RunReport {
        total,
        tally,
        complete: tally.finished() == tasks.len(),
        outcomes,
        kernel: kernel.kernel(),
        elapsed: started.elapsed(),
        threads,
        #[cfg(feature = "gpu")]
        gpu: None,
        workers,
    })
}

/// The workers' outcome lists, each in plan order (a worker takes increasing indexes), merged
/// into one in plan order.
fn in_plan_order(lists: Vec<Vec<TaskOutcome>>) -> Vec<TaskOutcome> {
    let len = lists.iter().map(Vec::len).sum();
    let mut lists: Vec<_> = lists
        .into_iter()
        .map(|l| l.into_iter().peekable())
        .collect();
    let mut heads: BinaryHeap<Reverse<(usize, usize)>> = lists
        .iter_mut()
        .enumerate()
        .filter_map(|(w, list)| list.peek().map(|o| Reverse((o.index, w))))
        .collect();
    let mut merged = Vec::with_capacity(len);
    while let Some(Reverse((_, w))) = heads.pop() {
        let list = &mut lists[w];
        merged.extend(list.next());
        if let Some(o) = list.peek() {
            heads.push(Reverse((o.index, w)));
        }
    }
    merged
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::plan::Strategy;
    use std::sync::Mutex;

    #[test]
    fn the_first_job_runs_once_before_any_task_of_its_worker_and_not_after_a_stop() {
        let plan = Plan::new(12, Strategy::Mirror, 64).unwrap();
        let log: Mutex<Vec<&'static str>> = Mutex::new(Vec::new());
        let job = || log.lock().unwrap().push("first");
        let observe = |_: &TaskOutcome| log.lock().unwrap().push("task");
        for threads in [1, 3] {
            log.lock().unwrap().clear();
            let options = RunOptions {
                first: Some(&job),
                on_task_done: Some(&observe),
                pool: Some(&*crate::engine::pool::shared_pool(threads).unwrap()),
                ..RunOptions::with_threads(threads)
            };
            let report = run(&plan, &options).unwrap();
            let log = log.lock().unwrap();
            assert_eq!(log.iter().filter(|&&e| e == "first").count(), 1);
            assert_eq!(log.len(), report.outcomes.len() + 1);
            if threads == 1 {
                assert_eq!(log[0], "first");
            }
        }
        log.lock().unwrap().clear();
        let stop = AtomicBool::new(true);
        let options = RunOptions {
            first: Some(&job),
            stop: Some(&stop),
            ..RunOptions::with_threads(2)
        };
        run(&plan, &options).unwrap();
        assert!(log.lock().unwrap().is_empty());
    }

    #[test]
    fn one_and_several_threads_agree() {
        for n in 4..=11 {
            let plan = Plan::new(n, Strategy::Mirror, 256).unwrap();
            let one = run(&plan, &RunOptions::with_threads(1)).unwrap();
            let three = run(&plan, &RunOptions::with_threads(3)).unwrap();
            assert_eq!(one.total, three.total);
            let counts = |r: &RunReport| -> Vec<(usize, u64)> {
                r.outcomes.iter().map(|o| (o.index, o.count)).collect()
            };
            assert_eq!(counts(&one), counts(&three));
            assert!(one.complete && three.complete);
        }
    }

    #[test]
    fn the_tally_and_total_are_the_same_with_and_without_the_outcomes() {
        let plan = Plan::new(11, Strategy::Symmetric, 300).unwrap();
        // Every third task recorded with its true count.
        let recorded = |t: &Task| {
            let i = plan.tasks().iter().position(|x| x.id == t.id).unwrap();
            (i % 3 == 0).then(|| t.count(11).unwrap())
        };
        for threads in [1, 3] {
            let kept = RunOptions {
                recorded: Some(&recorded),
                ..RunOptions::with_threads(threads)
            };
            let with = run(&plan, &kept).unwrap();
            let without = run(
                &plan,
                &RunOptions {
                    keep_outcomes: false,
                    ..kept
                },
            )
            .unwrap();
            assert_eq!((with.total, without.total), (2680, 2680));
            assert!(without.outcomes.is_empty() && without.complete);
            let sums = |r: &RunReport| (r.tally.searched, r.tally.recorded, r.tally.recorded_total);
            assert_eq!(sums(&with), sums(&without));
            let recorded_total: u128 = with
                .outcomes
                .iter()
                .filter(|o| o.recorded)
                .map(TaskOutcome::weighted)
                .sum();
            let searched = with.outcomes.iter().filter(|o| !o.recorded).count();
            assert_eq!(
                sums(&with),
                (searched, with.outcomes.len() - searched, recorded_total)
            );
            let time: Duration = with.outcomes.iter().map(|o| o.elapsed).sum();
            assert_eq!(with.tally.search_time, time);
            assert_eq!(with.tally.finished(), plan.tasks().len());
        }
    }

    #[test]
    fn zero_threads_is_an_error() {
        let plan = Plan::new(6, Strategy::Mirror, 1).unwrap();
        assert!(matches!(
            run(&plan, &RunOptions::with_threads(0)),
            Err(Error::ZeroThreads)
        ));
    }

    #[test]
    fn the_observer_sees_every_searched_task_and_recorded_ones_are_not_searched() {
        let plan = Plan::new(10, Strategy::Mirror, 100).unwrap();
        let seen = Mutex::new(Vec::new());
        let observe = |o: &TaskOutcome| seen.lock().unwrap().push(o.index);
        // Pretend every even-indexed task was finished earlier with its true count.
        let recorded = |t: &Task| {
            let i = plan.tasks().iter().position(|x| x.id == t.id).unwrap();
            (i % 2 == 0).then(|| t.count(10).unwrap())
        };
        let options = RunOptions {
            threads: 2,
            on_task_done: Some(&observe),
            stop: None,
            recorded: Some(&recorded),
            kernel: Kernel::DepthFirst.select().unwrap(),
            pool: None,
            first: None,
            keep_outcomes: true,
        };
        let report = run(&plan, &options).unwrap();
        assert_eq!(report.total, 724);
        let mut seen = seen.into_inner().unwrap();
        seen.sort_unstable();
        let odd: Vec<usize> = (0..plan.tasks().len()).filter(|i| i % 2 == 1).collect();
        assert_eq!(seen, odd);
    }

    #[test]
    fn a_raised_stop_flag_starts_no_task() {
        let plan = Plan::new(10, Strategy::Mirror, 100).unwrap();
        let stop = AtomicBool::new(true);
        let options = RunOptions {
            stop: Some(&stop),
            ..RunOptions::with_threads(2)
        };
        let report = run(&plan, &options).unwrap();
        assert!(!report.complete);
        assert!(report.outcomes.is_empty());
    }
}
