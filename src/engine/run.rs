//! Running a [`Plan`] on a pool of worker threads and summing the counts.
//!
//! A run's workers are the pool the caller is on or gives, or else one the library keeps (see
//! [`super::pool`] for the rule), and every worker takes the next task from a shared index: list scheduling in the plan's largest-first order. Per-task counts are
//! weighted and summed in `u128`: a task's count is at most `u64::MAX` and its weight at most 8,
//! so even 2³² tasks cannot overflow the sum.
//!
//! Observers (progress bars, journals) see each finished task through
//! [`RunOptions::on_task_done`]. A stop flag is read between tasks and, by the kernel, inside
//! them: a raised flag abandons the tasks under way within a fraction of a millisecond (they
//! are neither counted nor reported; the [`Tally`] sums them and the time spent on them).

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use super::kernel::Selected;
use super::plan::Plan;
use super::pool::{INLINE_MAX_N, Workers, spread};
use crate::error::Error;

pub use super::outcome::{RunOptions, RunReport, Tally, TaskOutcome, WorkerSpan};

/// What one worker of a run did: its tasks (when kept), its span (which sums what it searched)
/// and the sums of the rest.
struct WorkerResult {
    outcomes: Vec<TaskOutcome>,
    span: WorkerSpan,
    /// Tasks taken from the records, and Σ weight × count of them.
    recorded: (usize, u128),
    /// Σ weight × count of its tasks; `None` past `u128::MAX`.
    total: Option<u128>,
    /// The time spent on the task a stop abandoned part-way (a worker abandons at most one).
    abandoned: Option<Duration>,
}

/// Runs every task of `plan` on `options.threads` workers.
pub fn run(plan: &Plan, options: &RunOptions<'_>) -> Result<RunReport, Error> {
    plan.check()?;
    let workers = Workers::for_run(options.threads, plan.n() <= INLINE_MAX_N, options.pool)?;
    #[cfg(feature = "gpu")]
    if let Some(share) = options.kernel.gpu() {
        return super::gpu_run::run(plan, options, share, &workers);
    }
    let kernel = options.kernel;
    let started = Instant::now();
    let next = AtomicUsize::new(0);
    let first_taken = AtomicBool::new(false);
    let n = plan.n();
    let worker = || {
        let mut result = WorkerResult {
            outcomes: Vec::new(),
            span: WorkerSpan::default(),
            recorded: (0, 0),
            total: Some(0),
            abandoned: None,
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
            let Some(task) = plan.task(index) else {
                break;
            };
            let mut outcome = TaskOutcome::of_task(index, &task);
            if let Some(count) = options.recorded.and_then(|r| r(&task)) {
                outcome.count = count;
                outcome.recorded = true;
                result.recorded.0 += 1;
                result.recorded.1 += outcome.weighted();
            } else {
                let t0 = Instant::now();
                let Some(count) = task.subproblem.count_on(n, kernel, options.stop) else {
                    // Stopped part-way: the task is not finished, so it is neither counted nor
                    // reported; the time spent on it is.
                    result.abandoned = Some(t0.elapsed());
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
    let results: Vec<WorkerResult> = workers.run(|width| spread(width, worker));
    report_of(plan, results, kernel, started)
}

/// The run's report from its workers' results: the total (refused past `u128`), the tally of
/// tasks and times, each worker's span and the outcomes in plan order.
fn report_of(
    plan: &Plan,
    results: Vec<WorkerResult>,
    kernel: Selected,
    started: Instant,
) -> Result<RunReport, Error> {
    let total = results
        .iter()
        .try_fold(0u128, |acc, r| r.total.and_then(|t| acc.checked_add(t)))
        .ok_or(Error::Overflow)?;
    let tally = results.iter().fold(Tally::default(), |acc, r| Tally {
        searched: acc.searched + r.span.tasks,
        search_time: acc.search_time + r.span.busy,
        recorded: acc.recorded + r.recorded.0,
        recorded_total: acc.recorded_total + r.recorded.1,
        abandoned: acc.abandoned + usize::from(r.abandoned.is_some()),
        abandoned_time: acc.abandoned_time + r.abandoned.unwrap_or_default(),
    });
    let workers = results.iter().map(|r| r.span).collect();
    // One result per worker the run was handed to.
    let threads = results.len();
    let outcomes = in_plan_order(results.into_iter().map(|r| r.outcomes).collect());
    Ok(RunReport {
        total,
        tally,
        complete: tally.finished() == plan.len(),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::kernel::Kernel;
    use crate::engine::plan::{Strategy, Task};
    use std::sync::Mutex;
    use std::time::Duration;

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
            let i = plan.tasks().position(|x| x.id == t.id).unwrap();
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
    fn zero_threads_runs_on_the_whole_pool_and_too_many_is_an_error() {
        let plan = Plan::new(12, Strategy::Mirror, 64).unwrap();
        let pool = crate::engine::pool::build_pool(3).unwrap();
        let report = pool
            .install(|| run(&plan, &RunOptions::with_threads(0)))
            .unwrap();
        assert_eq!((report.total, report.threads), (14_200, 3));
        let too_many = crate::max_threads() + 1;
        assert!(matches!(
            run(&plan, &RunOptions::with_threads(too_many)),
            Err(Error::TooManyThreads { .. })
        ));
    }

    #[test]
    fn the_observer_sees_every_searched_task_and_recorded_ones_are_not_searched() {
        let plan = Plan::new(10, Strategy::Mirror, 100).unwrap();
        let seen = Mutex::new(Vec::new());
        let observe = |o: &TaskOutcome| seen.lock().unwrap().push(o.index);
        // Pretend every even-indexed task was finished earlier with its true count.
        let recorded = |t: &Task| {
            let i = plan.tasks().position(|x| x.id == t.id).unwrap();
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

#[cfg(test)]
mod examples {
    //! The examples of the items above, as tests (the items are not public).

    #[test]
    fn tally_example() {
        use crate::engine::{
            plan::{Plan, Strategy},
            run::{RunOptions, run},
        };
        let plan = Plan::new(10, Strategy::Mirror, 64).unwrap();
        let options = RunOptions {
            keep_outcomes: false,
            ..RunOptions::with_threads(2)
        };
        let report = run(&plan, &options).unwrap();
        assert!(report.outcomes.is_empty());
        assert_eq!(
            (report.total, report.tally.searched),
            (724, plan.tasks().len())
        );
        assert_eq!((report.tally.recorded, report.tally.recorded_total), (0, 0));
    }

    #[test]
    fn workerspan_example() {
        use crate::engine::{
            plan::{Plan, Strategy},
            run::{RunOptions, run},
        };
        let plan = Plan::new(11, Strategy::Mirror, 64).unwrap(); // up to n = 10, one worker runs
        let report = run(&plan, &RunOptions::with_threads(2)).unwrap();
        assert_eq!(report.workers.len(), 2);
        let tasks: usize = report.workers.iter().map(|w| w.tasks).sum();
        assert_eq!(tasks, plan.tasks().len());
        for w in report.workers.iter().filter(|w| w.tasks > 0) {
            assert!(w.first_start + w.busy <= w.last_end && w.last_end <= report.elapsed);
        }
    }

    #[test]
    fn run_example() {
        use crate::engine::{
            plan::{Plan, Strategy},
            run::{RunOptions, run},
        };
        let plan = Plan::new(10, Strategy::Mirror, 64).unwrap();
        let report = run(&plan, &RunOptions::with_threads(2)).unwrap();
        assert_eq!(report.total, 724);
        assert!(report.complete);
    }
}
