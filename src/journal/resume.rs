//! Counts that can be watched, stopped and resumed.
//!
//! [`count_with`] is [`crate::count`] with three optional controls ([`RunControl`]): a
//! [`Watcher`] told about every finished task (a progress bar), a stop flag read between tasks
//! (an interrupt handler), and a journal ([`crate::journal`]) that records every finished task
//! and, when the same count is run again with the same file, supplies the tasks already done so
//! that only the rest are searched. None of them touches the search kernel.
//!
//! A fourth control, [`RunControl::shard`], counts only one shard of the plan
//! ([`super::shard`]); its journal names the shard, and `nqueens merge` adds the shards up.

use std::collections::HashMap;
use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::shard::{Shard, ShardError};
use super::{Damage, Header, Journal, JournalError};
use crate::engine::kernel::Selected;
use crate::engine::plan::{DEFAULT_MIN_TASKS, Plan, Task, TaskId};
use crate::engine::run::{RunOptions, TaskOutcome, run};
use crate::{CountOptions, Counts, Error};

/// Observes a count: told the plan once, then every task as it finishes.
///
/// Both methods run while workers count, so they must be cheap; `task_done` runs on a worker
/// thread, possibly on several at once.
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
///         self.to_search.store(plan.tasks.len() - resumed.len(), Ordering::Relaxed);
///     }
///     fn task_done(&self, _: &TaskOutcome) {
///         self.done.fetch_add(1, Ordering::Relaxed);
///     }
/// }
///
/// let w = Progress::default();
/// let control = RunControl { watcher: Some(&w), ..RunControl::default() };
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
    /// Called after each searched task.
    fn task_done(&self, outcome: &TaskOutcome);
}

/// Optional controls of a count.
///
/// The default controls nothing: [`count_with`] then counts like [`crate::count`]. A stop flag
/// raised before the count starts lets no task start:
///
/// ```
/// use std::sync::atomic::AtomicBool;
/// use nqueens::{count_with, CountOptions, RunControl, Strategy};
/// let options = CountOptions::new(2, Strategy::Mirror);
/// let whole = count_with(8, &options, &RunControl::default()).unwrap();
/// assert!(whole.complete);
///
/// let stop = AtomicBool::new(true);
/// let control = RunControl { stop: Some(&stop), ..RunControl::default() };
/// let stopped = count_with(8, &options, &control).unwrap();
/// assert!(!stopped.complete);
/// assert_eq!((stopped.counts.total, stopped.counts.unique), (0, None));
/// ```
#[derive(Clone, Copy, Default)]
pub struct RunControl<'a> {
    /// Journal file: finished tasks are recorded there, and tasks it already holds are not
    /// searched again.
    pub journal: Option<&'a Path>,
    /// When set to `true`, workers finish their current task and start no other.
    pub stop: Option<&'a AtomicBool>,
    /// Told about every finished task.
    pub watcher: Option<&'a dyn Watcher>,
    /// Count only this shard of the plan (`None`: the whole plan).
    pub shard: Option<Shard>,
}

/// The result of [`count_with`].
///
/// ```
/// use nqueens::journal::Shard;
/// use nqueens::{count_with, CountOptions, RunControl, Strategy};
/// let options = CountOptions::new(2, Strategy::Symmetric);
/// let whole = count_with(8, &options, &RunControl::default()).unwrap();
/// assert!(whole.complete);
/// assert_eq!((whole.counts.total, whole.counts.unique), (92, Some(12)));
/// assert_eq!((whole.shard, whole.plan_tasks), (Shard::WHOLE, whole.counts.tasks));
/// assert_eq!((whole.searched_tasks, whole.resumed_tasks), (whole.counts.tasks, 0));
///
/// // One shard of two: part of the plan, part of the total, no unique count.
/// let control = RunControl { shard: Some(Shard::new(0, 2).unwrap()), ..RunControl::default() };
/// let half = count_with(8, &options, &control).unwrap();
/// assert_eq!((half.fingerprint, half.plan_tasks), (whole.fingerprint, whole.plan_tasks));
/// assert!(half.counts.tasks < half.plan_tasks && half.counts.total < 92);
/// assert_eq!(half.counts.unique, None);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CountRun {
    /// The counts. When the run is not `complete`, `total` sums only the finished tasks and
    /// `unique` is `None` (it is derived from the whole total). For a shard, `total` is the
    /// shard's part, `unique` is `None` and `tasks` is the shard's task count.
    pub counts: Counts,
    /// The plan's fingerprint ([`Plan::fingerprint`]).
    pub fingerprint: u64,
    /// Tasks in the whole plan (more than `counts.tasks` for a shard).
    pub plan_tasks: usize,
    /// The part of the plan counted ([`Shard::WHOLE`] without a shard).
    pub shard: Shard,
    /// Whether every task finished (false when the stop flag ended the run early).
    pub complete: bool,
    /// Tasks taken from the journal instead of searched.
    pub resumed_tasks: usize,
    /// The part of `counts.total` that the tasks taken from the journal contribute (this
    /// run did not search it).
    pub resumed_total: u128,
    /// Tasks searched by this run.
    pub searched_tasks: usize,
    /// Time the workers spent searching, summed over tasks (the work an interrupt without a
    /// journal loses).
    pub search_time: Duration,
    /// What the GPU and the CPU each did, for a GPU kernel.
    #[cfg(feature = "gpu")]
    pub gpu: Option<crate::engine::gpu_run::DeviceShare>,
}

/// Counts the `n`-board like [`crate::count`], under the given controls: [`Prepared::new`],
/// then [`Prepared::run`].
///
/// The plan depends only on `n`, the strategy and [`DEFAULT_MIN_TASKS`], never on the thread
/// count or the machine, so a journal can be resumed with any thread count anywhere.
///
/// ```
/// use nqueens::{count_with, CountOptions, RunControl, Strategy};
/// let dir = tempfile::tempdir().unwrap();
/// let file = dir.path().join("n10.ckpt");
/// let options = CountOptions::new(2, Strategy::Mirror);
/// let control = RunControl { journal: Some(&file), ..RunControl::default() };
/// let first = count_with(10, &options, &control).unwrap();
/// assert_eq!((first.counts.total, first.resumed_tasks), (724, 0));
/// // Run again with the same file: every task is already recorded, nothing is searched.
/// let again = count_with(10, &options, &control).unwrap();
/// assert_eq!((again.counts.total, again.searched_tasks), (724, 0));
/// ```
pub fn count_with(
    n: u32,
    options: &CountOptions,
    control: &RunControl<'_>,
) -> Result<CountRun, Error> {
    Prepared::new(n, options, control.journal, control.shard)?.run(control.stop, control.watcher)
}

/// A count ready to search: its kernel selected, its plan made (one shard of it, if asked) and
/// fingerprinted, its journal open and replayed. Preparing refuses what can be refused (a
/// kernel the CPU lacks, a board too large, a journal of another count) before any task is
/// searched, and tells the caller what the journal already holds.
///
/// ```
/// use nqueens::journal::Prepared;
/// use nqueens::{CountOptions, Strategy};
/// let prepared = Prepared::new(10, &CountOptions::new(2, Strategy::Mirror), None, None).unwrap();
/// assert!(prepared.resumed().is_empty());
/// let tasks = prepared.plan().tasks.len();
/// let run = prepared.run(None, None).unwrap();
/// assert_eq!((run.counts.total, run.searched_tasks), (724, tasks));
/// ```
pub struct Prepared {
    n: u32,
    threads: usize,
    kernel: Selected,
    /// The tasks to count: the whole plan or one shard of it.
    plan: Plan,
    shard: Shard,
    fingerprint: u64,
    plan_tasks: usize,
    journal: Option<Journal>,
    recorded: HashMap<TaskId, u64>,
    resumed: Vec<TaskOutcome>,
    started: Instant,
}

impl Prepared {
    /// Selects the kernel, makes the plan of the `n`-board (only `shard` of it when given) and
    /// opens the journal at `journal` (when given), checking that every record it holds is a
    /// task to count.
    pub fn new(
        n: u32,
        options: &CountOptions,
        journal: Option<&Path>,
        shard: Option<Shard>,
    ) -> Result<Prepared, Error> {
        if options.threads == 0 {
            return Err(Error::ZeroThreads);
        }
        // Before any journal is touched.
        let kernel = options.kernel.select()?;
        let started = Instant::now();
        let whole = Plan::new(n, options.strategy, DEFAULT_MIN_TASKS)?;
        let shard = shard.unwrap_or(Shard::WHOLE);
        // Every shard holds a task: no more shards than tasks (refused before any journal is
        // touched).
        let shard = Shard::new(shard.index, shard.count)?;
        if shard.count as usize > whole.tasks.len() {
            return Err(ShardError::MoreShardsThanTasks {
                count: shard.count,
                tasks: whole.tasks.len(),
                n,
                strategy: options.strategy.name(),
            }
            .into());
        }
        let fingerprint = whole.fingerprint();
        let header = Header::with_fingerprint(&whole, fingerprint, shard);
        let plan = if shard.is_whole() {
            whole
        } else {
            let picked = super::shard::select(&whole, shard.index, shard.count);
            Plan {
                tasks: picked.iter().map(|&p| whole.tasks[p]).collect(),
                ..whole
            }
        };
        let (journal, recorded) = match journal {
            Some(path) => {
                let (journal, recorded) = open_journal(path, &plan, &header)?;
                (Some(journal), recorded)
            }
            None => (None, HashMap::new()),
        };
        let resumed = plan
            .tasks
            .iter()
            .enumerate()
            .filter_map(|(index, task)| {
                recorded.get(&task.id).map(|&count| TaskOutcome {
                    index,
                    id: task.id,
                    count,
                    weight: task.weight,
                    elapsed: Duration::ZERO,
                    recorded: true,
                })
            })
            .collect();
        Ok(Prepared {
            n,
            threads: options.threads,
            kernel,
            plan,
            shard,
            fingerprint,
            plan_tasks: header.tasks as usize,
            journal,
            recorded,
            resumed,
            started,
        })
    }

    /// The tasks to count: the whole plan, or the shard's tasks in plan order.
    pub fn plan(&self) -> &Plan {
        &self.plan
    }

    /// The tasks the journal already holds, in plan order (not searched again).
    pub fn resumed(&self) -> &[TaskOutcome] {
        &self.resumed
    }

    /// Searches the tasks the journal does not hold, recording each in the journal as it
    /// finishes, on the options' threads with the selected kernel. `watcher` is told the plan
    /// first ([`Watcher::start`]) and then every searched task; raising `stop` makes the
    /// workers finish their current task and start no other.
    pub fn run(
        self,
        stop: Option<&AtomicBool>,
        watcher: Option<&dyn Watcher>,
    ) -> Result<CountRun, Error> {
        let Prepared {
            n,
            threads,
            kernel,
            plan,
            shard,
            fingerprint,
            plan_tasks,
            journal,
            recorded,
            resumed,
            started,
        } = self;
        if let Some(watcher) = watcher {
            watcher.start(&plan, &resumed);
        }
        let journal = journal.map(Mutex::new);
        let own_stop = AtomicBool::new(false);
        let stop = stop.unwrap_or(&own_stop);
        let write_error: Mutex<Option<JournalError>> = Mutex::new(None);
        let observe = |outcome: &TaskOutcome| {
            if let Some(journal) = &journal {
                let appended = lock(journal).append(outcome.id, outcome.count);
                if let Err(e) = appended {
                    lock(&write_error).get_or_insert(e);
                    stop.store(true, Ordering::Relaxed);
                }
            }
            if let Some(watcher) = watcher {
                watcher.task_done(outcome);
            }
        };
        let lookup = |task: &Task| recorded.get(&task.id).copied();
        let report = run(
            &plan,
            &RunOptions {
                threads,
                on_task_done: Some(&observe),
                stop: Some(stop),
                recorded: Some(&lookup),
                kernel,
            },
        )?;
        if let Some(e) = write_error.into_inner().unwrap_or_else(|p| p.into_inner()) {
            return Err(e.into());
        }
        if let Some(journal) = journal {
            journal
                .into_inner()
                .unwrap_or_else(|p| p.into_inner())
                .sync()?;
        }
        let searched: Vec<&TaskOutcome> = report.outcomes.iter().filter(|o| !o.recorded).collect();
        let unique = if report.complete && shard.is_whole() {
            Some(crate::engine::unique::unique_count(n, report.total)?)
        } else {
            None
        };
        Ok(CountRun {
            counts: Counts {
                n,
                total: report.total,
                unique,
                tasks: plan.tasks.len(),
                kernel: report.kernel,
                elapsed: started.elapsed(),
            },
            fingerprint,
            plan_tasks,
            shard,
            complete: report.complete,
            resumed_tasks: report.outcomes.len() - searched.len(),
            resumed_total: report
                .outcomes
                .iter()
                .filter(|o| o.recorded)
                .map(TaskOutcome::weighted)
                .sum(),
            searched_tasks: searched.len(),
            search_time: searched.iter().map(|o| o.elapsed).sum(),
            #[cfg(feature = "gpu")]
            gpu: report.gpu,
        })
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// Opens the journal `header` describes and checks that every record names a task of `plan`
/// (the tasks to count: the whole plan or one shard of it).
fn open_journal(
    path: &Path,
    plan: &Plan,
    header: &Header,
) -> Result<(Journal, HashMap<TaskId, u64>), JournalError> {
    let (journal, replay) = Journal::open(path, header)?;
    let ids: std::collections::HashSet<TaskId> = plan.tasks.iter().map(|t| t.id).collect();
    let mut recorded = HashMap::with_capacity(replay.records.len());
    for record in replay.records {
        let corrupt = |damage: Damage| JournalError::Corrupt {
            path: path.to_path_buf(),
            offset: record.offset,
            damage,
        };
        if !ids.contains(&record.id) {
            return Err(corrupt(Damage::NotInPlan(record.id)));
        }
        if let Some(old) = recorded.insert(record.id, record.count)
            && old != record.count
        {
            return Err(corrupt(Damage::RecordedTwice(record.id)));
        }
    }
    Ok((journal, recorded))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Strategy;
    use crate::known;
    use std::sync::atomic::AtomicUsize;

    const OPTIONS: CountOptions = CountOptions {
        threads: 2,
        strategy: Strategy::Mirror,
        kernel: crate::Kernel::Auto,
    };

    /// Raises the stop flag after `after` finished tasks.
    struct StopAfter<'a> {
        seen: AtomicUsize,
        after: usize,
        stop: &'a AtomicBool,
    }

    impl Watcher for StopAfter<'_> {
        fn task_done(&self, _: &TaskOutcome) {
            if self.seen.fetch_add(1, Ordering::Relaxed) + 1 >= self.after {
                self.stop.store(true, Ordering::Relaxed);
            }
        }
    }

    #[test]
    fn an_interrupted_journaled_count_resumes_to_the_exact_total() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("n12.ckpt");
        let stop = AtomicBool::new(false);
        let watcher = StopAfter {
            seen: AtomicUsize::new(0),
            after: 50,
            stop: &stop,
        };
        let control = RunControl {
            journal: Some(&file),
            stop: Some(&stop),
            watcher: Some(&watcher),
            shard: None,
        };
        let first = count_with(12, &OPTIONS, &control).unwrap();
        assert!(!first.complete);
        assert!(first.searched_tasks >= 50 && first.searched_tasks < first.counts.tasks);
        assert!(first.counts.total < known::total(12).unwrap());

        let plain = RunControl {
            journal: Some(&file),
            ..RunControl::default()
        };
        let second = count_with(12, &OPTIONS, &plain).unwrap();
        assert!(second.complete);
        assert_eq!(second.resumed_tasks, first.searched_tasks);
        assert_eq!(
            second.resumed_tasks + second.searched_tasks,
            second.counts.tasks
        );
        assert_eq!(Some(second.counts.total), known::total(12));
    }

    #[test]
    fn resuming_works_with_another_thread_count() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("n11.ckpt");
        let control = RunControl {
            journal: Some(&file),
            ..RunControl::default()
        };
        let one = CountOptions {
            threads: 1,
            ..OPTIONS
        };
        count_with(11, &one, &control).unwrap();
        let again = count_with(11, &OPTIONS, &control).unwrap();
        assert_eq!(again.searched_tasks, 0);
        assert_eq!(Some(again.counts.total), known::total(11));
    }

    #[test]
    fn the_watcher_sees_the_resumed_and_the_searched_tasks() {
        struct Tally {
            resumed: AtomicUsize,
            done: AtomicUsize,
        }
        impl Watcher for Tally {
            fn start(&self, _: &Plan, resumed: &[TaskOutcome]) {
                self.resumed.store(resumed.len(), Ordering::Relaxed);
            }
            fn task_done(&self, _: &TaskOutcome) {
                self.done.fetch_add(1, Ordering::Relaxed);
            }
        }
        let tally = Tally {
            resumed: AtomicUsize::new(7),
            done: AtomicUsize::new(0),
        };
        let control = RunControl {
            watcher: Some(&tally),
            ..RunControl::default()
        };
        let run = count_with(10, &OPTIONS, &control).unwrap();
        assert_eq!(tally.resumed.load(Ordering::Relaxed), 0);
        assert_eq!(tally.done.load(Ordering::Relaxed), run.counts.tasks);
        assert_eq!(run.searched_tasks, run.counts.tasks);
    }

    #[test]
    fn a_record_for_a_task_outside_the_plan_is_corruption() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("n9.ckpt");
        let plan = Plan::new(9, Strategy::Mirror, DEFAULT_MIN_TASKS).unwrap();
        let (mut journal, _) = Journal::open(&file, &Header::for_plan(&plan)).unwrap();
        journal
            .append(TaskId::from_cols(&[0, 0]).unwrap(), 1)
            .unwrap();
        journal.append(plan.tasks[0].id, 1).unwrap();
        drop(journal);
        let control = RunControl {
            journal: Some(&file),
            ..RunControl::default()
        };
        let err = count_with(9, &OPTIONS, &control).unwrap_err();
        assert!(err.to_string().contains("byte 64"), "{err}");
    }
}
