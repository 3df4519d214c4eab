//! The driver of a count: kernel selection, plan, shard, journal, run, unique count.

use std::collections::HashMap;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use super::unique_search::UniqueSearch;
use super::{CountOptions, CountRun, Counts, RunControl, Watcher};
use crate::engine::kernel::{Kernel, Selected};
use crate::engine::plan::{Fingerprint, Plan, TaskId, default_plan};
use crate::engine::pool::{INLINE_MAX_N, Workers, check_threads};
use crate::engine::run::{RunOptions, RunReport, TaskOutcome, run};
use crate::engine::unique::{UNIQUE_MAX_N, unique_from};
use crate::error::Error;
use crate::journal::{Header, Journal, JournalError, Shard, Spent};

/// Counts the `n`-board like [`crate::count`], under the given controls: [`Prepared::new`],
/// then [`Prepared::run`].
///
/// The plan depends only on `n`, the strategy and the least task count (4096 tasks, or a
/// board split to its last rows), never on the thread count or the machine, so a journal can
/// be resumed with any thread count anywhere.
///
/// A journal is a regular file, opened without waiting and never written through a symbolic
/// link (a link at its path is refused). A resumed count is only as right as its journal, whose records
/// someone who may write the file can alter with their checksums recomputed:
/// [`Counts::check_known`](crate::Counts::check_known) checks a whole board against the known
/// table.
///
/// # Errors
///
/// [`Error::BoardTooLarge`](crate::Error::BoardTooLarge) for `n` above [`MAX_N`](crate::Plan::MAX_N);
/// [`Error::TooManyThreads`](crate::Error::TooManyThreads) for more threads than
/// [`max_threads`](crate::max_threads) allows, [`Error::ThreadPool`](crate::Error::ThreadPool) when
/// the worker threads cannot start; [`Error::KernelUnavailable`](crate::Error::KernelUnavailable)
/// for a kernel this CPU does not run (and, with the `gpu` feature, `Error::Gpu` for a GPU kernel
/// without a GPU that opens); [`Error::Shard`](crate::Error::Shard) for a shard the plan cannot be
/// split into; [`Error::Journal`](crate::Error::Journal) for a journal that is refused, belongs to
/// another count, is damaged or cannot be written; [`Error::Overflow`](crate::Error::Overflow) or
/// [`Error::Inconsistent`](crate::Error::Inconsistent) for counts that do not add up (a damaged
/// journal). A stopped count is no error: it returns what it counted.
///
/// ```
/// use nqueens::{count_with, CountOptions, RunControl, Strategy};
/// let file = std::env::temp_dir().join(format!("nqueens-doc-n10-{}.ckpt", std::process::id()));
/// let _ = std::fs::remove_file(&file);
/// let options = CountOptions::new(2, Strategy::Mirror);
/// let control = RunControl::default().with_journal(&file);
/// let first = count_with(10, &options, &control).unwrap();
/// assert_eq!((first.counts.total, first.resumed_tasks), (724, 0));
/// // Run again with the same file: every task is already recorded, nothing is searched.
/// let again = count_with(10, &options, &control).unwrap();
/// assert_eq!((again.counts.total, again.searched_tasks), (724, 0));
/// std::fs::remove_file(&file).unwrap();
/// ```
pub fn count_with(
    n: u32,
    options: &CountOptions,
    control: &RunControl<'_>,
) -> Result<CountRun, Error> {
    Prepared::new(n, options, control)?.run(control)
}

/// A count ready to search: its kernel selected, its plan made (one shard of it, if asked) and
/// fingerprinted, its journal open and replayed. Preparing refuses what can be refused (a
/// kernel the CPU lacks, a board too large, a journal of another count) before any task is
/// searched, and tells the caller what the journal already holds.
///
/// ```
/// use nqueens::Prepared;
/// use nqueens::{CountOptions, Strategy};
/// use nqueens::RunControl;
/// let control = RunControl::default();
/// let prepared = Prepared::new(10, &CountOptions::new(2, Strategy::Mirror), &control).unwrap();
/// assert!(prepared.resumed().is_empty());
/// let tasks = prepared.plan().tasks().len();
/// let run = prepared.run(&control).unwrap();
/// assert_eq!((run.counts.total, run.searched_tasks), (724, tasks));
/// ```
pub struct Prepared {
    n: u32,
    threads: usize,
    kernel: Selected,
    /// The tasks to count: the whole plan or one shard of it.
    plan: Plan,
    shard: Shard,
    fingerprint: Fingerprint,
    plan_tasks: usize,
    journal: Option<Journal>,
    recorded: HashMap<TaskId, u64>,
    /// The time the journal's earlier runs recorded.
    earlier_runs: Option<Spent>,
    resumed: Vec<TaskOutcome>,
    started: Instant,
    /// The unique count's searches, for a whole board (not a shard).
    unique: Option<SearchGuard>,
}

/// The count prepared: board, threads, kernel, shard, fingerprint, the tasks to count and
/// those the journal already holds.
impl std::fmt::Debug for Prepared {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Prepared")
            .field("n", &self.n)
            .field("threads", &self.threads)
            .field("kernel", &self.kernel.kernel())
            .field("strategy", &self.plan.strategy())
            .field("shard", &self.shard)
            .field("fingerprint", &format_args!("{}", self.fingerprint))
            .field("plan_tasks", &self.plan_tasks)
            .field("tasks", &self.plan.tasks().len())
            .field("journal", &self.journal)
            .field("resumed_tasks", &self.resumed.len())
            .finish_non_exhaustive()
    }
}

/// A count's unique-count searches, kept from being made once the count is dropped unrun.
struct SearchGuard(Arc<UniqueSearch>);

impl Drop for SearchGuard {
    fn drop(&mut self) {
        self.0.cancel();
    }
}

impl Prepared {
    /// Selects the kernel, makes the plan of the `n`-board (only the control's shard of it, when
    /// it names one) and opens the control's journal (when it names one), checking that every
    /// record it holds is a task to count. The workers are started first (those
    /// [`RunControl::pool`] describes), and one of them makes the unique
    /// count's two symmetric searches while this thread makes the plan: a core that would wait
    /// for the plan does them instead. (A run of one thread, or one that searches on the calling
    /// thread, makes them on its worker before its first task.) They are left out for a board
    /// above [`Counts::UNIQUE_MAX_N`](crate::Counts::UNIQUE_MAX_N) unless the options ask for them
    /// ([`CountOptions::unique_above_bound`]), and the control's stop flag ends them. Give
    /// [`Prepared::run`] the same control.
    ///
    /// # Errors
    ///
    /// [`Error::BoardTooLarge`](crate::Error::BoardTooLarge) for `n` above [`MAX_N`](crate::Plan::MAX_N);
    /// [`Error::TooManyThreads`](crate::Error::TooManyThreads) for more threads than
    /// [`max_threads`](crate::max_threads) allows, [`Error::ThreadPool`](crate::Error::ThreadPool)
    /// when the worker threads cannot start;
    /// [`Error::KernelUnavailable`](crate::Error::KernelUnavailable) for a kernel this CPU does not
    /// run (and, with the `gpu` feature, `Error::Gpu` for a GPU kernel without a GPU that opens);
    /// [`Error::Shard`](crate::Error::Shard) for a shard the plan cannot be split into;
    /// [`Error::Journal`](crate::Error::Journal) for a journal that is refused, belongs to another
    /// count, or is damaged.
    ///
    /// ```
    /// use nqueens::{CountOptions, Prepared, RunControl, Strategy};
    /// let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    /// let control = RunControl::default().with_pool(&pool);
    /// let options = CountOptions::new(2, Strategy::Symmetric);
    /// let prepared = Prepared::new(12, &options, &control).unwrap();
    /// let run = prepared.run(&control).unwrap();
    /// assert_eq!((run.counts.total, run.counts.unique), (14_200, Some(1_787)));
    /// ```
    pub fn new(
        n: u32,
        options: &CountOptions,
        control: &RunControl<'_>,
    ) -> Result<Prepared, Error> {
        Prepared::prepare(n, options, control.journal, control.shard, control.pool)
    }

    /// [`Prepared::new`] with the controls it reads.
    fn prepare(
        n: u32,
        options: &CountOptions,
        journal: Option<&Path>,
        shard: Option<Shard>,
        pool: Option<&rayon::ThreadPool>,
    ) -> Result<Prepared, Error> {
        check_threads(options.threads)?;
        // Before any journal is touched.
        let kernel = options
            .kernel
            .select_for(n, kernel_threads(options.threads, shard, pool))?;
        let started = Instant::now();
        // Above the bound, the searches would take minutes to ages: left out unless asked for.
        let wants_unique = n <= UNIQUE_MAX_N || options.unique_above_bound;
        let unique = (wants_unique && shard.is_none_or(|s| s.is_whole())).then(|| {
            let search = UniqueSearch::new(n);
            // The run's workers, started now (a new thread can wait a scheduler tick, 4 ms,
            // for a CPU): one of them makes the searches while this thread makes the plan. A
            // pool that cannot be built is reported by the run.
            if let Ok(workers) = Workers::for_run(options.threads, n <= INLINE_MAX_N, pool) {
                search.start_on(&workers);
            }
            SearchGuard(search)
        });
        let (whole, fingerprint) = default_plan(n, options.strategy)?;
        let shard = shard.unwrap_or(Shard::WHOLE);
        // Every shard holds a task: no more shards than tasks (refused before any journal is
        // touched).
        let shard = Shard::new(shard.index(), shard.count())?.for_plan(&whole)?;
        let header = Header::with_fingerprint(&whole, fingerprint, shard);
        let plan = if shard.is_whole() {
            whole
        } else {
            whole.select(&shard.positions(&whole))
        };
        let (journal, recorded, earlier_runs) = match journal {
            Some(path) => {
                let (journal, recorded, spent) = crate::journal::open(path, &plan, &header)?;
                (Some(journal), recorded, spent)
            }
            None => (None, HashMap::new(), None),
        };
        // Only the recorded tasks are made (a large plan makes each task from its id).
        let resumed = (0..plan.len())
            .filter_map(|index| {
                let &count = recorded.get(&plan.id(index))?;
                let task = plan.task_at(index);
                Some(TaskOutcome {
                    count,
                    recorded: true,
                    ..TaskOutcome::of_task(index, &task)
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
            earlier_runs,
            resumed,
            started,
            unique,
        })
    }

    /// The kernel that will count the tasks, never `auto`: the one the options name, or what
    /// `auto` chose for this board and these threads ([`Kernel::for_board`]).
    ///
    /// ```
    /// use nqueens::{CountOptions, Kernel, Prepared, RunControl, Strategy};
    /// let options = CountOptions::new(2, Strategy::Symmetric);
    /// let prepared = Prepared::new(10, &options, &RunControl::default()).unwrap();
    /// assert_eq!(prepared.kernel(), Kernel::Auto.resolve().unwrap());
    /// ```
    #[must_use]
    pub fn kernel(&self) -> Kernel {
        self.kernel.kernel()
    }

    /// The tasks to count: the whole plan, or the shard's tasks in plan order.
    #[must_use]
    pub fn plan(&self) -> &Plan {
        &self.plan
    }

    /// The tasks the journal already holds, in plan order (not searched again).
    #[must_use]
    pub fn resumed(&self) -> &[TaskOutcome] {
        &self.resumed
    }

    /// Searches the tasks the journal does not hold, recording each in the journal as it
    /// finishes, with the selected kernel, on the workers [`RunControl::pool`] describes: the
    /// control's pool, the pool the caller is on, or else the process's pool of the options'
    /// thread count. The control's watcher is
    /// told the plan first ([`Watcher::start`]) and then every searched task. Raising its stop
    /// flag makes the workers abandon the tasks they are searching, within milliseconds, and
    /// start no other (the abandoned tasks are neither counted nor recorded, and a resumed count
    /// searches them again: [`CountRun::abandoned_tasks`](crate::CountRun::abandoned_tasks)),
    /// ends the unique count's searches wherever they run, and leaves the unique count out
    /// (`None`). A stopped run that searched (whether or not a task finished) leaves its time
    /// in the journal, the abandoned tasks' included, as a finished run does: a resumed count
    /// finds it in [`CountRun::earlier_runs`](crate::CountRun::earlier_runs).
    ///
    /// # Errors
    ///
    /// [`Error::ThreadPool`](crate::Error::ThreadPool) when the worker threads cannot start;
    /// [`Error::Journal`](crate::Error::Journal) when a record cannot be written to the journal;
    /// [`Error::Overflow`](crate::Error::Overflow) or
    /// [`Error::Inconsistent`](crate::Error::Inconsistent) for counts that do not add up (a damaged
    /// journal). A stopped run is no error: it returns what it counted.
    ///
    /// ```
    /// use nqueens::{CountOptions, Prepared, RunControl, Strategy};
    /// let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    /// let options = CountOptions::new(1, Strategy::Mirror);
    /// let prepared = Prepared::new(12, &options, &RunControl::default()).unwrap();
    /// let run = prepared.run(&RunControl::default().with_pool(&pool)).unwrap();
    /// assert_eq!(run.counts.total, 14_200);
    /// ```
    pub fn run(self, control: &RunControl<'_>) -> Result<CountRun, Error> {
        self.run_on(control.pool, control.stop, control.watcher)
    }

    /// [`Prepared::run`] with the controls it reads.
    fn run_on(
        self,
        pool: Option<&rayon::ThreadPool>,
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
            earlier_runs,
            resumed,
            started,
            unique,
        } = self;
        if let Some(watcher) = watcher {
            watcher.start(&plan, &resumed);
        }
        let journal = journal.map(Mutex::new);
        let own_stop = AtomicBool::new(false);
        let stop = stop.unwrap_or(&own_stop);
        let write_error: Mutex<Option<JournalError>> = Mutex::new(None);
        // The task observer borrows the journal until the run is over.
        let report = {
            let observe = observer(journal.as_ref(), &write_error, stop, watcher);
            let lookup = |task: &crate::engine::plan::Task| recorded.get(&task.id).copied();
            // The unique count's two symmetric searches depend on the board alone: unless a worker
            // took them while the plan was made, the first worker makes them while the others
            // take the first tasks, instead of after the last one.
            let make_fixed = || {
                if let Some(SearchGuard(search)) = &unique {
                    search.make_unless_claimed(stop);
                }
            };
            // Searches a pool's worker took while the plan was made cannot read the stop flag: a
            // thread watches it for them while the run lasts (the caller waits for the run).
            let watched = unique
                .as_ref()
                .map(|SearchGuard(search)| search)
                .filter(|search| search.is_being_made());
            let run_options = RunOptions {
                threads,
                on_task_done: Some(&observe),
                stop: Some(stop),
                // Nothing to look up without records (a hash per task saved).
                recorded: (!recorded.is_empty()).then_some(&lookup as _),
                kernel,
                pool,
                first: unique.is_some().then_some(&make_fixed as _),
                // The sums are enough: no list of the tasks to store and order.
                keep_outcomes: false,
            };
            run_watched(&plan, &run_options, watched, stop)?
        };
        close_journal(journal, write_error, &report)?;
        let unique = unique_count(n, &report, unique, stop)?;
        Ok(CountRun {
            counts: Counts {
                n,
                total: report.total,
                unique,
                wall_time: started.elapsed(),
                threads: report.threads,
                strategy: plan.strategy(),
                kernel: report.kernel,
                tasks: plan.tasks().len(),
            },
            fingerprint,
            plan_tasks,
            shard,
            complete: report.complete,
            resumed_tasks: report.tally.recorded,
            resumed_total: report.tally.recorded_total,
            searched_tasks: report.tally.searched,
            abandoned_tasks: report.tally.abandoned,
            core_time: report.tally.search_time + report.tally.abandoned_time,
            earlier_runs,
            #[cfg(feature = "gpu")]
            gpu: report.gpu,
        })
    }
}

/// What a run does as each task ends: the task recorded in the journal (the first record that
/// cannot be written is kept in `write_error` and stops the run), then told to the watcher.
fn observer<'a>(
    journal: Option<&'a Mutex<Journal>>,
    write_error: &'a Mutex<Option<JournalError>>,
    stop: &'a AtomicBool,
    watcher: Option<&'a dyn Watcher>,
) -> impl Fn(&TaskOutcome) + Sync + 'a {
    move |outcome: &TaskOutcome| {
        if let Some(journal) = journal {
            let appended =
                lock(journal).append_searched(outcome.id, outcome.count, outcome.elapsed);
            if let Err(e) = appended {
                lock(write_error).get_or_insert(e);
                stop.store(true, Ordering::Relaxed);
            }
        }
        if let Some(watcher) = watcher {
            watcher.task_done(outcome);
        }
    }
}

/// Runs `plan` with `options`. The unique count's searches a pool's worker took while the plan
/// was made (`watched`) cannot read the stop flag: a thread watches it for them while the run
/// lasts (without the thread, a stop still ends them once the run is over).
fn run_watched(
    plan: &Plan,
    options: &RunOptions<'_>,
    watched: Option<&Arc<UniqueSearch>>,
    stop: &AtomicBool,
) -> Result<RunReport, Error> {
    let run_done = AtomicBool::new(false);
    std::thread::scope(|scope| {
        if let Some(search) = watched {
            let _ = std::thread::Builder::new()
                .name("nqueens-unique-stop".to_string())
                .spawn_scoped(scope, || search.cancel_on(stop, &run_done));
        }
        let report = run(plan, options);
        run_done.store(true, Ordering::Relaxed);
        report
    })
}

/// The journal after a run: the first record that could not be written fails the count;
/// otherwise the time of the tasks a stop abandoned (searched, not recorded) is added to the
/// run's time and the file synced.
fn close_journal(
    journal: Option<Mutex<Journal>>,
    write_error: Mutex<Option<JournalError>>,
    report: &RunReport,
) -> Result<(), Error> {
    if let Some(e) = write_error.into_inner().unwrap_or_else(|p| p.into_inner()) {
        return Err(e.into());
    }
    if let Some(journal) = journal {
        let mut journal = journal.into_inner().unwrap_or_else(|p| p.into_inner());
        if report.tally.abandoned > 0 {
            journal.add_abandoned(report.tally.abandoned_time);
        }
        journal.sync()?;
    }
    Ok(())
}

/// The unique count of the `n`-board from a complete run's total and the symmetric searches
/// of `unique`; `None` for a run that did not finish or a count without one. The guard,
/// dropped here, ends searches still being made.
fn unique_count(
    n: u32,
    report: &RunReport,
    unique: Option<SearchGuard>,
    stop: &AtomicBool,
) -> Result<Option<u128>, Error> {
    let fixed = match &unique {
        Some(SearchGuard(search)) if report.complete => search.result(stop)?,
        _ => None,
    };
    drop(unique);
    fixed
        .map(|fixed| unique_from(n, report.total, fixed))
        .transpose()
}

/// The CPU threads `auto` weighs for a count ([`Kernel::select_for`]): the pool's, else the
/// options'; a shard of one k-th of the board weighs as the whole board on k times the threads.
fn kernel_threads(threads: usize, shard: Option<Shard>, pool: Option<&rayon::ThreadPool>) -> usize {
    let threads = Workers::width_for(threads, pool);
    let shards = shard.map_or(1, |s| s.count().max(1) as usize);
    threads.saturating_mul(shards)
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Strategy;
    use crate::known;
    use std::sync::atomic::AtomicUsize;

    const OPTIONS: CountOptions =
        CountOptions::new(2, Strategy::Mirror).with_kernel(crate::Kernel::Auto);

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
        let control = RunControl::default()
            .with_journal(&file)
            .with_stop(&stop)
            .with_watcher(&watcher);
        let first = count_with(12, &OPTIONS, &control).unwrap();
        assert!(!first.complete);
        assert!(first.searched_tasks >= 50 && first.searched_tasks < first.counts.tasks);
        assert!(first.counts.total < known::Known::of(12).map(|k| k.total).unwrap());

        let plain = RunControl::default().with_journal(&file);
        let second = count_with(12, &OPTIONS, &plain).unwrap();
        assert!(second.complete);
        assert_eq!(second.resumed_tasks, first.searched_tasks);
        assert_eq!(
            second.resumed_tasks + second.searched_tasks,
            second.counts.tasks
        );
        assert_eq!(
            Some(second.counts.total),
            known::Known::of(12).map(|k| k.total)
        );
    }

    /// Tells the thread that waits on it when the search starts.
    struct Started(Mutex<bool>, std::sync::Condvar);

    impl Watcher for Started {
        fn start(&self, _: &Plan, _: &[TaskOutcome]) {
            *lock(&self.0) = true;
            self.1.notify_all();
        }
    }

    /// A stop raised while the first tasks of n = 22 run (each takes seconds here) abandons
    /// them: the count returns without waiting for them, says how many it dropped, and its
    /// time (theirs included) is in the journal, where a resumed count finds it.
    #[test]
    fn a_stop_abandons_the_running_tasks_and_the_journal_times_the_run() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("n22.ckpt");
        let stop = AtomicBool::new(false);
        let started = Started(Mutex::new(false), std::sync::Condvar::new());
        let control = RunControl::default()
            .with_journal(&file)
            .with_stop(&stop)
            .with_watcher(&started);
        let options = CountOptions::new(2, Strategy::Mirror);
        let (first, stopping) = std::thread::scope(|scope| {
            let counting = scope.spawn(|| count_with(22, &options, &control).unwrap());
            let mut searching = lock(&started.0);
            while !*searching {
                searching = started.1.wait(searching).unwrap();
            }
            drop(searching);
            // Both workers well inside their first task.
            std::thread::sleep(std::time::Duration::from_millis(300));
            let raised = Instant::now();
            stop.store(true, Ordering::Relaxed);
            let run = counting.join().unwrap();
            (run, raised.elapsed())
        });
        assert!(!first.complete);
        assert!(first.abandoned_tasks >= 1, "{first:?}");
        assert!(
            first.abandoned_tasks <= 2,
            "at most one per worker: {first:?}"
        );
        // Not waiting for tasks of seconds: a generous bound on a busy machine.
        assert!(stopping.as_secs() < 3, "the stop took {stopping:?}");
        // What was abandoned is not counted; its time is.
        assert!(first.core_time > std::time::Duration::ZERO);

        // A resumed count (stopped before it starts) finds the stopped run's time.
        let halt = AtomicBool::new(true);
        let resumed = count_with(
            22,
            &options,
            &RunControl::default().with_journal(&file).with_stop(&halt),
        )
        .unwrap();
        assert_eq!(resumed.resumed_tasks, first.searched_tasks);
        assert_eq!(resumed.resumed_total, first.counts.total);
        let earlier = resumed.earlier_runs.unwrap();
        assert_eq!(earlier.runs, 1, "{earlier:?}");
        assert_eq!(earlier.core_time, first.core_time);
        assert!(earlier.wall_time > std::time::Duration::ZERO);
        assert!(earlier.wall_time <= first.counts.wall_time);
        // The resumed run searched nothing, abandoned nothing, and timed nothing.
        assert_eq!((resumed.searched_tasks, resumed.abandoned_tasks), (0, 0));
        let again = count_with(
            22,
            &options,
            &RunControl::default().with_journal(&file).with_stop(&halt),
        )
        .unwrap();
        assert_eq!(again.earlier_runs.map(|s| s.runs), Some(1));
    }

    #[test]
    fn resuming_works_with_another_thread_count() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("n11.ckpt");
        let control = RunControl::default().with_journal(&file);
        let one = OPTIONS.with_threads(1);
        count_with(11, &one, &control).unwrap();
        let again = count_with(11, &OPTIONS, &control).unwrap();
        assert_eq!(again.searched_tasks, 0);
        assert_eq!(
            Some(again.counts.total),
            known::Known::of(11).map(|k| k.total)
        );
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
        let control = RunControl::default().with_watcher(&tally);
        let run = count_with(10, &OPTIONS, &control).unwrap();
        assert_eq!(tally.resumed.load(Ordering::Relaxed), 0);
        assert_eq!(tally.done.load(Ordering::Relaxed), run.counts.tasks);
        assert_eq!(run.searched_tasks, run.counts.tasks);
    }

    #[test]
    fn a_record_for_a_task_outside_the_plan_is_corruption() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("n9.ckpt");
        let plan = Plan::new(9, Strategy::Mirror, crate::Plan::DEFAULT_MIN_TASKS).unwrap();
        let (mut journal, _) = Journal::open(&file, &Header::for_plan(&plan)).unwrap();
        journal
            .append(TaskId::from_columns(&[0, 0]).unwrap(), 1)
            .unwrap();
        journal.append(plan.task(0).unwrap().id, 1).unwrap();
        drop(journal);
        let control = RunControl::default().with_journal(&file);
        let err = count_with(9, &OPTIONS, &control).unwrap_err();
        assert!(err.to_string().contains("byte 64"), "{err}");
    }
}
