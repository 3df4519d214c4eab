//! Measuring one board on several thread counts: timed runs, speedups, efficiencies, the model.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use super::info::{Headline, MODEL_LEAVES_OUT, RunInfo};
use super::loss::WorkerTime;
pub use super::measured::MeasuredPoint;
use super::measured::split_other_programs;
use super::model;
pub use super::model::ModelPoint;
use super::stats::{self, Summary};
use super::{Machine, cpu};
pub use crate::count::StudyProgress;
use crate::count::{CountOptions, RunControl};
use crate::engine::kernel::Kernel;
use crate::engine::plan::{Plan, Strategy};
use crate::engine::pool::{check_threads, shared_pool};
use crate::engine::run::{RunOptions, run};
use crate::error::Error;
pub use crate::error::study::StudyError;
use crate::known;

/// What to measure (with the `serde` feature, a field left out takes its value in
/// [`StudyOptions::default`], and a field of another name is an error).
///
/// ```
/// use nqueens::scaling::study::{measure, StudyOptions};
/// use nqueens::{RunControl, Strategy};
/// let options = StudyOptions::new(vec![2])
///     .with_strategy(Strategy::Mirror)
///     .with_repeat(1)
///     .with_model_up_to(Some(12));
/// let study = measure(8, &options, &RunControl::default()).unwrap();
/// let measured: Vec<usize> = study.runs.iter().map(|point| point.threads).collect();
/// assert_eq!(measured, [1, 2]); // one thread is always measured
/// assert!(study.model_at(12).is_some() && study.model_at(256).is_some());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(default, deny_unknown_fields))]
#[non_exhaustive]
pub struct StudyOptions {
    /// How each run counts: the strategy that splits the board and the kernel that counts the
    /// tasks. Its [`threads`](CountOptions::threads) is replaced by the thread count each run
    /// measures (see [`StudyOptions::threads`]), and a study counts the total only, so what it
    /// says of the unique count is not read.
    pub count: CountOptions,
    /// Thread counts to measure. One thread is always measured as well: it is the baseline of
    /// every speedup and the source of the model's task times.
    pub threads: Vec<usize>,
    /// Timed runs per thread count (each count also gets [`warmup`](StudyOptions::warmup)
    /// untimed warm-up runs first).
    pub repeat: usize,
    /// Untimed warm-up runs per thread count, before the timed runs (1 by default; 0 times
    /// every run from the first).
    pub warmup: usize,
    /// Model worker counts up to this many as well (the powers of two below it and the count
    /// itself), beyond the default 1, 2, 4, …, 256; `None`: the default counts only.
    pub model_up_to: Option<usize>,
}

impl StudyOptions {
    /// Measure these thread counts (and one), three timed runs each, counting with the default
    /// options ([`CountOptions::default`]: the default strategy, the fastest kernel), with the
    /// default model.
    ///
    /// ```
    /// use nqueens::scaling::study::StudyOptions;
    /// let options = StudyOptions::new(vec![1, 2]);
    /// assert_eq!((options.threads, options.repeat, options.model_up_to), (vec![1, 2], 3, None));
    /// ```
    #[must_use]
    pub fn new(threads: Vec<usize>) -> StudyOptions {
        StudyOptions {
            count: CountOptions::default(),
            threads,
            repeat: 3,
            warmup: 1,
            model_up_to: None,
        }
    }

    /// These options with `strategy` splitting the board.
    ///
    /// ```
    /// use nqueens::scaling::study::StudyOptions;
    /// use nqueens::Strategy;
    /// let options = StudyOptions::default().with_strategy(Strategy::Mirror);
    /// assert_eq!(options.count.strategy, Strategy::Mirror);
    /// ```
    #[must_use]
    pub fn with_strategy(self, strategy: Strategy) -> StudyOptions {
        StudyOptions {
            count: self.count.with_strategy(strategy),
            ..self
        }
    }

    /// These options with `kernel` counting the tasks.
    ///
    /// ```
    /// use nqueens::scaling::study::StudyOptions;
    /// use nqueens::Kernel;
    /// let options = StudyOptions::default().with_kernel(Kernel::DepthFirst);
    /// assert_eq!(options.count.kernel, Kernel::DepthFirst);
    /// ```
    #[must_use]
    pub fn with_kernel(self, kernel: Kernel) -> StudyOptions {
        StudyOptions {
            count: self.count.with_kernel(kernel),
            ..self
        }
    }

    /// These options with each run counting as `count` says (its thread count replaced by the
    /// one measured: see [`StudyOptions::count`]).
    ///
    /// ```
    /// use nqueens::scaling::study::StudyOptions;
    /// use nqueens::{CountOptions, Kernel, Strategy};
    /// let count = CountOptions::new(8, Strategy::Symmetric).with_kernel(Kernel::DepthFirst);
    /// let options = StudyOptions::new(vec![2]).with_count(count);
    /// assert_eq!(options.count, count);
    /// assert_eq!(options.thread_counts(), [1, 2]); // not the count's 8 threads
    /// ```
    #[must_use]
    pub fn with_count(self, count: CountOptions) -> StudyOptions {
        StudyOptions { count, ..self }
    }

    /// These options with `repeat` timed runs per thread count.
    ///
    /// ```
    /// use nqueens::scaling::study::StudyOptions;
    /// assert_eq!(StudyOptions::default().with_repeat(5).repeat, 5);
    /// ```
    #[must_use]
    pub fn with_repeat(self, repeat: usize) -> StudyOptions {
        StudyOptions { repeat, ..self }
    }

    /// These options with `warmup` untimed runs per thread count before the timed ones.
    ///
    /// ```
    /// use nqueens::scaling::study::StudyOptions;
    /// assert_eq!(StudyOptions::default().warmup, 1);
    /// assert_eq!(StudyOptions::default().with_warmup(0).warmup, 0);
    /// ```
    #[must_use]
    pub fn with_warmup(self, warmup: usize) -> StudyOptions {
        StudyOptions { warmup, ..self }
    }

    /// These options modelling worker counts up to `model_up_to` as well.
    ///
    /// ```
    /// use nqueens::scaling::study::StudyOptions;
    /// assert_eq!(StudyOptions::default().with_model_up_to(Some(12)).model_up_to, Some(12));
    /// ```
    #[must_use]
    pub fn with_model_up_to(self, model_up_to: Option<usize>) -> StudyOptions {
        StudyOptions {
            model_up_to,
            ..self
        }
    }

    /// The thread counts a study with these options measures: those of
    /// [`StudyOptions::threads`] ascending, without duplicates or zeros, and always 1.
    ///
    /// ```
    /// use nqueens::scaling::study::StudyOptions;
    /// assert_eq!(StudyOptions::new(vec![8, 2, 2, 0]).thread_counts(), [1, 2, 8]);
    /// ```
    #[must_use]
    pub fn thread_counts(&self) -> Vec<usize> {
        let mut counts: Vec<usize> = self.threads.iter().copied().filter(|&t| t > 0).collect();
        counts.push(1);
        counts.sort_unstable();
        counts.dedup();
        counts
    }
}

impl Default for StudyOptions {
    /// The command's defaults: the powers of two below the logical CPU count and that count,
    /// three timed runs each, counting with the default options.
    ///
    /// ```
    /// use nqueens::scaling::study::StudyOptions;
    /// let options = StudyOptions::default();
    /// assert_eq!((options.threads[0], options.repeat), (1, 3));
    /// ```
    fn default() -> StudyOptions {
        let logical = num_cpus::get().max(1);
        let mut threads: Vec<usize> = (0..usize::BITS)
            .map(|b| 1usize << b)
            .take_while(|&t| t < logical)
            .collect();
        threads.push(logical);
        StudyOptions::new(threads)
    }
}

/// A study: the machine, the measured points and the model's predictions; a study stopped by
/// its stop flag has the runs that finished ([`Study::complete`]).
///
/// ```
/// use nqueens::scaling::{study::{measure, StudyOptions}, Machine};
/// use nqueens::{count, CountOptions, Kernel, RunControl, Strategy};
/// let options = StudyOptions::new(vec![2]).with_strategy(Strategy::Mirror).with_repeat(1);
/// let study = measure(8, &options, &RunControl::default()).unwrap();
/// assert_eq!((study.n, study.strategy, study.repeat), (8, Strategy::Mirror, 1));
/// assert!(study.complete);
/// assert_ne!(study.kernel, Kernel::Auto);
/// assert_eq!(study.machine, Machine::detect());
/// // The plan of a count with the same strategy.
/// assert_eq!(study.tasks, count(8, &CountOptions::new(1, Strategy::Mirror)).unwrap().tasks);
/// assert!(study.task_time_max <= study.task_time_total);
/// assert_eq!(study.runs.len(), 2);
/// ```
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct Study {
    /// Board size.
    pub n: u32,
    /// Decomposition strategy.
    pub strategy: Strategy,
    /// The kernel that counted the tasks (never [`Kernel::Auto`]).
    pub kernel: Kernel,
    /// The machine that ran it.
    pub machine: Machine,
    /// Timed runs per thread count (those asked for: a stopped study has fewer).
    pub repeat: usize,
    /// Untimed warm-up runs per thread count before the timed ones (read as 1 where a saved
    /// study lacks it).
    #[cfg_attr(feature = "serde", serde(default = "super::series::one"))]
    pub warmup: usize,
    /// Whether every run finished: `false` when the stop flag stopped the study, whose
    /// [`runs`](Study::runs) are then the thread counts with a finished timed run, each from
    /// its finished timed runs, and whose model needs a finished one-thread timed run (read as
    /// `true` where a saved study lacks it).
    #[cfg_attr(feature = "serde", serde(default = "super::series::yes"))]
    pub complete: bool,
    /// Tasks in the plan (the same plan for every thread count).
    pub tasks: usize,
    /// The sum of the one-thread task times (each task's fastest timed run); serialized as
    /// `task_seconds_total`, in seconds.
    #[cfg_attr(
        feature = "serde",
        serde(rename = "task_seconds_total", with = "crate::serde_util::seconds")
    )]
    pub task_time_total: Duration,
    /// The longest one-thread task time: no number of workers finishes sooner; serialized as
    /// `task_seconds_max`, in seconds.
    #[cfg_attr(
        feature = "serde",
        serde(rename = "task_seconds_max", with = "crate::serde_util::seconds")
    )]
    pub task_time_max: Duration,
    /// One point per measured thread count, ascending.
    pub runs: Vec<MeasuredPoint>,
    /// One prediction per modelled worker count, ascending.
    pub model: Vec<ModelPoint>,
    /// What the model leaves out (SMT, clock changes, memory bandwidth and caches, scheduling
    /// overhead; read back as this build's text).
    #[cfg_attr(
        feature = "serde",
        serde(skip_deserializing, default = "model_leaves_out")
    )]
    pub model_leaves_out: &'static str,
    /// The board's total, which every run counted (where a stopped study finished no run, the
    /// known table's, or 0 for a board it lacks).
    pub total: u128,
    /// Where and how the study ran: CPU, version, date, operating system.
    pub run: RunInfo,
    /// The best measured throughput (`None` when no run took measurable time).
    pub headline: Option<Headline>,
    /// The model checked against the runs: each measured thread count above one predicted
    /// from the smaller ones ([`Study::leave_one_out`]); empty in results saved before it was.
    #[cfg_attr(feature = "serde", serde(default))]
    pub model_check: Vec<super::check::Holdout>,
}

impl Study {
    /// Timed runs shorter than this (250 ms) measure start-up costs, clock changes and timer
    /// noise more than the search ([`StudyWarning::ShortRuns`]): on a quiet 2-core machine, runs
    /// of 85 ms gave a two-thread efficiency of 111 %, where a larger board gave 99 %.
    ///
    /// ```
    /// use std::time::Duration;
    /// use nqueens::scaling::study::Study;
    /// assert_eq!(Study::SHORT_RUN, Duration::from_millis(250));
    /// ```
    pub const SHORT_RUN: Duration = Duration::from_millis(250);

    /// A CPU share ([`MeasuredPoint::cpu_share`]) below this (80 %) means that other programs
    /// were using the machine during the runs ([`StudyWarning::BusyMachine`]).
    ///
    /// ```
    /// use nqueens::scaling::study::Study;
    /// assert_eq!(Study::BUSY_BELOW, 0.8);
    /// ```
    pub const BUSY_BELOW: f64 = 0.8;

    /// The model's prediction for `workers`, when it was modelled.
    #[must_use]
    pub fn model_at(&self, workers: usize) -> Option<&ModelPoint> {
        self.model.iter().find(|p| p.workers == workers)
    }

    /// The model checked against the runs: each measured thread count above one predicted from
    /// the smaller ones (see [`check`](super::check)); empty where the runs carry no loss
    /// breakdown or the model no prediction with losses.
    ///
    /// ```
    /// use nqueens::scaling::study::{measure, StudyOptions};
    /// use nqueens::{RunControl, Strategy};
    /// let options = StudyOptions::new(vec![2]).with_strategy(Strategy::Mirror).with_repeat(1);
    /// let study = measure(10, &options, &RunControl::default()).unwrap();
    /// assert_eq!(study.leave_one_out(), study.model_check);
    /// ```
    #[must_use]
    pub fn leave_one_out(&self) -> Vec<super::check::Holdout> {
        super::check::leave_one_out(&self.runs, &self.model)
    }

    /// What the runs say about their own worth: a busy machine, runs too short to mean much;
    /// in that order, each at most once.
    ///
    /// ```
    /// use nqueens::scaling::study::{measure, Study, StudyOptions, StudyWarning};
    /// use nqueens::{RunControl, Strategy};
    /// let options = StudyOptions::new(vec![2]).with_strategy(Strategy::Mirror).with_repeat(1);
    /// let study = measure(8, &options, &RunControl::default()).unwrap();
    /// // The 8-board takes microseconds.
    /// let short = study.warnings().into_iter().find_map(|warning| match warning {
    ///     StudyWarning::ShortRuns { threads, time } => Some((threads, time)),
    ///     _ => None,
    /// });
    /// let (threads, time) = short.unwrap();
    /// assert!(time < Study::SHORT_RUN);
    /// assert_eq!(study.runs.iter().find(|p| p.threads == threads).unwrap().min, time);
    /// ```
    #[must_use]
    pub fn warnings(&self) -> Vec<StudyWarning> {
        warnings_of(&self.runs)
    }
}

/// What `runs` say about their own worth ([`Study::warnings`]): a busy machine, runs too short
/// to mean much; in that order, each at most once.
pub(crate) fn warnings_of(runs: &[MeasuredPoint]) -> Vec<StudyWarning> {
    let starved: Vec<(usize, f64)> = runs
        .iter()
        .filter_map(|p| Some((p.threads, p.cpu_share?)))
        .filter(|&(_, share)| share < Study::BUSY_BELOW)
        .collect();
    let busy = (!starved.is_empty()).then_some(StudyWarning::BusyMachine { starved });
    let short = runs
        .iter()
        .min_by_key(|p| p.min)
        .filter(|fastest| fastest.min < Study::SHORT_RUN)
        .map(|fastest| StudyWarning::ShortRuns {
            threads: fastest.threads,
            time: fastest.min,
        });
    busy.into_iter().chain(short).collect()
}

/// What a study's runs say about their own worth ([`Study::warnings`]), with the figures that
/// show it.
///
/// ```
/// use nqueens::scaling::study::StudyWarning;
/// let warning = StudyWarning::BusyMachine { starved: vec![(4, 0.41)] };
/// let words = match &warning {
///     StudyWarning::BusyMachine { starved } => format!("{} thread counts starved", starved.len()),
///     StudyWarning::ShortRuns { time, .. } => format!("fastest run {time:?}"),
///     _ => String::new(),
/// };
/// assert_eq!(words, "1 thread counts starved");
/// ```
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum StudyWarning {
    /// Some thread counts' runs received less than 80 % of the CPU time they asked for:
    /// other programs were using the CPUs, so the measured times, speedups and efficiencies are
    /// those of a busy machine, not the machine's. The loss breakdown books the CPU time they
    /// took as [`Loss::other_programs`](super::Loss::other_programs), and the model leaves it
    /// out of its slowdown.
    BusyMachine {
        /// Each such thread count with its CPU share, in the order of the runs.
        starved: Vec<(usize, f64)>,
    },
    /// The fastest timed run took less than [`Study::SHORT_RUN`]: the speedups mean little, and a
    /// larger board would measure the search.
    ShortRuns {
        /// The thread count of that run.
        threads: usize,
        /// Its wall-clock time.
        time: Duration,
    },
}

/// What the model takes from the measured runs, per thread count: the time outside the tasks
/// per thread, and the tasks' slowdown against the one-thread run (`one`). The slowdown is of
/// the tasks' time on the CPU: what other programs took of it (`taken`) is this machine's load,
/// not its scaling. `at_one` is the one-thread run's place in `threads`.
fn measured_terms(
    threads: &[usize],
    medians: &[Option<WorkerTime>],
    taken: &[f64],
    one: Option<WorkerTime>,
    at_one: Option<usize>,
) -> Vec<model::MeasuredTerms> {
    let taken_at_one = at_one.and_then(|i| taken.get(i).copied()).unwrap_or(0.0);
    let one_on_cpu = one.map(|one| one.busy_on_cpu(1, taken_at_one));
    threads
        .iter()
        .zip(medians)
        .zip(taken)
        .filter_map(|((&t, median), &taken)| {
            let (median, one) = (median.as_ref()?, one_on_cpu?);
            (one > 0.0).then(|| model::MeasuredTerms {
                threads: t,
                serial_seconds: median.outside / t as f64,
                slowdown: median.busy_on_cpu(t, taken) / one,
            })
        })
        .collect()
}

/// Checks every run's total against the known table (when it has `n`), otherwise against the
/// first run.
#[derive(Clone, Debug)]
pub(crate) struct TotalCheck {
    n: u32,
    expected: Option<(u128, &'static str)>,
}

impl TotalCheck {
    /// A check for board `n`, seeded from the known table when it covers `n`.
    pub fn new(n: u32) -> TotalCheck {
        TotalCheck {
            n,
            expected: known::Known::of(n)
                .map(|k| k.total)
                .map(|t| (t, "the known table (OEIS A000170)")),
        }
    }

    /// Accepts `total` from a run with `threads` threads, or reports the mismatch
    /// ([`StudyError::Mismatch`]).
    pub fn check(&mut self, threads: usize, total: u128) -> Result<(), StudyError> {
        match self.expected {
            None => {
                self.expected = Some((total, "the first run"));
                Ok(())
            }
            Some((expected, _)) if expected == total => Ok(()),
            Some((expected, source_name)) => Err(StudyError::Mismatch {
                n: self.n,
                threads,
                got: total,
                expected,
                source_name,
            }),
        }
    }
}

/// Runs the study: for each thread count ([`StudyOptions::thread_counts`])
/// `options.warmup` untimed warm-up runs and `options.repeat` timed runs of one plan, every total checked; then the speedups,
/// efficiencies and the model from the one-thread task times. The warm-ups come first; the
/// timed runs then take turns over the thread counts (1, 2, 4, 1, 2, 4, …), so that a change in
/// the machine's other load affects every count alike.
///
/// Each run counts as `options.count` says, on as many threads as it measures. Of the
/// `control`, a study reads:
/// - the stop flag: raised, it ends the study between runs, and a run under way stops as a
///   count stops (its running tasks are abandoned) and is left out. The study is no error: it
///   returns the runs that finished, [`Study::complete`] `false`;
/// - the watcher's [`measuring`](crate::Watcher::measuring), told before each run starts;
/// - the pools: a run of `t` threads runs on the pool of [`RunControl::pools`] with `t`
///   workers, else on [`RunControl::pool`] (at most `t` of its workers: a smaller pool is
///   refused), else on the process's pool of `t` workers (held until the study ends, so that
///   more thread counts than the library keeps pools for are not built again run after run).
///
/// A study does not run on the pool of the thread that calls it, nor read the journal or the
/// shard.
///
/// ```
/// use nqueens::scaling::study::{measure, StudyOptions};
/// use nqueens::{RunControl, Strategy};
/// let options = StudyOptions::new(vec![2]).with_strategy(Strategy::Mirror).with_repeat(1);
/// let study = measure(8, &options, &RunControl::default()).unwrap();
/// assert!(study.complete);
/// assert_eq!(study.runs.len(), 2);
/// assert_eq!((study.runs[0].threads, study.runs[0].speedup), (1, 1.0));
/// assert_eq!(study.model_at(256).unwrap().workers, 256);
/// ```
///
/// Stopped by its flag, a study returns what it measured. Here a watcher raises the flag as the
/// second thread count's first timed run is about to start (where another thread would raise
/// it on an interrupt):
///
/// ```
/// use std::sync::atomic::{AtomicBool, Ordering};
/// use nqueens::scaling::study::{measure, StudyOptions, StudyProgress};
/// use nqueens::{RunControl, Strategy, Watcher};
///
/// struct StopAt<'a>(&'a AtomicBool);
/// impl Watcher for StopAt<'_> {
///     fn measuring(&self, p: &StudyProgress) {
///         if (p.threads, p.run) == (2, 1) {
///             self.0.store(true, Ordering::Relaxed);
///         }
///     }
/// }
///
/// let stop = AtomicBool::new(false);
/// let watcher = StopAt(&stop);
/// let control = RunControl::default().with_stop(&stop).with_watcher(&watcher);
/// let options = StudyOptions::new(vec![2]).with_strategy(Strategy::Mirror).with_repeat(3);
/// let study = measure(8, &options, &control).unwrap();
/// assert!(!study.complete);
/// // One thread has its first timed run; two threads none.
/// let measured: Vec<usize> = study.runs.iter().map(|p| p.threads).collect();
/// assert_eq!(measured, [1]);
/// assert_eq!(study.total, 92);
/// ```
///
/// # Errors
///
/// [`Error::Study`] for no timed run ([`StudyError::NoRuns`]), a pool too small
/// ([`StudyError::PoolTooSmall`]) or a run whose total disagrees ([`StudyError::Mismatch`]); a
/// count's own refusal or failure (a thread count, a kernel, a board too large, the worker
/// threads) as its own variant, as [`count`](crate::count) gives it.
pub fn measure(n: u32, options: &StudyOptions, control: &RunControl<'_>) -> Result<Study, Error> {
    let mut studies = measure_together(n, options, &[options.count], control)?;
    Ok(studies.remove(0))
}

/// Measures several ways of counting (`variants`, each replacing `options.count`: another
/// strategy, another kernel) in one study, interleaved: for each repetition and each thread
/// count, every variant runs in turn, so that a change in the machine's other load hits all
/// alike. One [`Study`] per variant, in the order given; `Kernel::Auto` is resolved to the
/// kernel it runs. The `control` is read as [`measure`] reads it; stopped, every study is
/// returned with the runs that finished, marked not [`complete`](Study::complete).
///
/// ```
/// use std::sync::Mutex;
/// use nqueens::scaling::study::{measure_together, StudyOptions, StudyProgress};
/// use nqueens::{CountOptions, Kernel, RunControl, Strategy, Watcher};
/// struct Order(Mutex<Vec<(usize, usize, usize)>>);
/// impl Watcher for Order {
///     fn measuring(&self, p: &StudyProgress) {
///         self.0.lock().unwrap().push((p.threads, p.run, p.variant));
///     }
/// }
/// let options = StudyOptions::new(vec![2]).with_repeat(1);
/// let variants = [Strategy::Mirror, Strategy::Symmetric]
///     .map(|strategy| CountOptions::new(0, strategy).with_kernel(Kernel::DepthFirst));
/// let order = Order(Mutex::new(Vec::new()));
/// let control = RunControl::default().with_watcher(&order);
/// let studies = measure_together(8, &options, &variants, &control).unwrap();
/// assert_eq!(studies[1].strategy, Strategy::Symmetric);
/// // Each repetition of each thread count runs every variant in turn.
/// let order = order.0.into_inner().unwrap();
/// assert_eq!(order[..4], [(1, 0, 0), (1, 0, 1), (2, 0, 0), (2, 0, 1)]);
/// ```
///
/// # Errors
///
/// As [`measure`].
pub fn measure_together(
    n: u32,
    options: &StudyOptions,
    variants: &[CountOptions],
    control: &RunControl<'_>,
) -> Result<Vec<Study>, Error> {
    if options.repeat == 0 {
        return Err(StudyError::NoRuns.into());
    }
    let threads = options.thread_counts();
    // Refused before any run (`thread_counts` leaves out zeros and sorts: the last is largest).
    if let Some(&most) = threads.last() {
        check_threads(most)?;
    }
    let pools = RunPools::new(&threads, control)?;
    let machine = Machine::detect();
    let mut check = TotalCheck::new(n);
    let mut states = variants
        .iter()
        .map(|count| Variant::new(n, count, &threads, options.repeat))
        .collect::<Result<Vec<_>, Error>>()?;
    let stopped = || {
        control
            .stop
            .is_some_and(|stop: &AtomicBool| stop.load(Ordering::Relaxed))
    };
    let mut total = None;
    let mut complete = true;
    // Warm-ups first, then the timed runs round-robin over the thread counts and the variants,
    // so that a change in the machine's other load spreads over every count and variant instead
    // of skewing one. Every warm-up is run 0; the timed runs are 1 to `repeat`.
    let warmups = std::iter::repeat_n(0, options.warmup);
    'runs: for k in warmups.chain(1..=options.repeat) {
        for (i, &t) in threads.iter().enumerate() {
            for (v, state) in states.iter_mut().enumerate() {
                if stopped() {
                    complete = false;
                    break 'runs;
                }
                if let Some(watcher) = control.watcher {
                    watcher.measuring(&StudyProgress {
                        threads: t,
                        run: k,
                        repeat: options.repeat,
                        strategy: state.strategy,
                        kernel: state.kernel.kernel(),
                        variant: v,
                        variants: variants.len(),
                    });
                }
                match state.run_once(i, t, k, pools.on(i), control.stop, &mut check)? {
                    Some(counted) => total = Some(counted),
                    None => {
                        complete = false;
                        break 'runs;
                    }
                }
            }
        }
    }
    let total = total
        .or_else(|| known::Known::of(n).map(|k| k.total))
        .unwrap_or(0);
    Ok(states
        .into_iter()
        .map(|state| state.finish(n, total, complete, machine, options))
        .collect())
}

/// The pool of each thread count of a study (see [`measure`]), in the order of the counts.
struct RunPools<'a>(Vec<RunPool<'a>>);

/// The pool of one thread count of a study.
enum RunPool<'a> {
    /// The control's pool for it.
    Given(&'a rayon::ThreadPool),
    /// The process's pool of that many workers, held until the study ends.
    Held(Arc<rayon::ThreadPool>),
}

impl<'a> RunPools<'a> {
    /// The pools of `threads` under `control`; a control's pool smaller than a thread count
    /// without a pool of its own is refused.
    fn new(threads: &[usize], control: &RunControl<'a>) -> Result<RunPools<'a>, Error> {
        let mut pools = Vec::with_capacity(threads.len());
        for &t in threads {
            let own = control
                .pools
                .iter()
                .copied()
                .find(|pool| pool.current_num_threads() == t);
            let pool = match (own, control.pool) {
                (Some(pool), _) => RunPool::Given(pool),
                (None, Some(pool)) if pool.current_num_threads() < t => {
                    return Err(StudyError::PoolTooSmall {
                        threads: t,
                        workers: pool.current_num_threads(),
                    }
                    .into());
                }
                (None, Some(pool)) => RunPool::Given(pool),
                (None, None) => RunPool::Held(shared_pool(t)?),
            };
            pools.push(pool);
        }
        Ok(RunPools(pools))
    }

    /// The pool of the `i`-th thread count.
    fn on(&self, i: usize) -> &rayon::ThreadPool {
        match &self.0[i] {
            RunPool::Given(pool) => pool,
            RunPool::Held(pool) => pool,
        }
    }
}

/// One strategy and kernel of a study: its plan and what its runs measured so far.
struct Variant {
    strategy: Strategy,
    kernel: crate::engine::kernel::Selected,
    plan: Plan,
    /// The timed runs' wall-clock seconds of each thread count.
    samples: Vec<(usize, Vec<f64>)>,
    /// CPU seconds received and wall-clock seconds of the timed runs of each thread count.
    cpu: Vec<Option<(f64, f64)>>,
    /// Each task's time in each timed one-thread run.
    task_times: Vec<Vec<Duration>>,
    /// Where the worker-seconds of each timed run of each thread count went.
    worker_times: Vec<Vec<WorkerTime>>,
}

impl Variant {
    fn new(
        n: u32,
        count: &CountOptions,
        threads: &[usize],
        repeat: usize,
    ) -> Result<Variant, Error> {
        let kernel = count.kernel.select()?;
        let plan = Plan::new(n, count.strategy, Plan::DEFAULT_MIN_TASKS)?;
        Ok(Variant {
            strategy: count.strategy,
            kernel,
            samples: threads
                .iter()
                .map(|&t| (t, Vec::with_capacity(repeat)))
                .collect(),
            cpu: vec![Some((0.0, 0.0)); threads.len()],
            worker_times: vec![Vec::with_capacity(repeat); threads.len()],
            task_times: vec![Vec::new(); plan.len()],
            plan,
        })
    }

    /// Runs the plan once on `t` threads (the `i`-th count), run `k` (0: the warm-up, not
    /// recorded), checks the total and returns it; `None` where `stop` stopped the run (which
    /// is not recorded either).
    fn run_once(
        &mut self,
        i: usize,
        t: usize,
        k: usize,
        pool: &rayon::ThreadPool,
        stop: Option<&AtomicBool>,
        check: &mut TotalCheck,
    ) -> Result<Option<u128>, Error> {
        // The pool is given so that even a small board runs on `t` workers.
        let cpu_before = cpu::process_cpu_seconds();
        let report = run(
            &self.plan,
            &RunOptions {
                kernel: self.kernel,
                pool: Some(pool),
                stop,
                // Only the 1-thread runs' task times are read.
                keep_outcomes: t == 1,
                ..RunOptions::with_threads(t)
            },
        )?;
        if !report.complete {
            return Ok(None);
        }
        let cpu_used = cpu::process_cpu_seconds()
            .zip(cpu_before)
            .map(|(after, before)| after - before);
        check.check(t, report.total)?;
        let wall = report.elapsed.as_secs_f64();
        // The warm-up run's CPU time counts towards the share too: other programs take CPU
        // time from it as from the others, and short runs need every tick of the clock.
        self.cpu[i] = self.cpu[i]
            .zip(cpu_used)
            .map(|((got, walls), used)| (got + used, walls + wall));
        if k == 0 {
            return Ok(Some(report.total));
        }
        self.samples[i].1.push(wall);
        self.worker_times[i].push(WorkerTime::of(&report));
        if t == 1 {
            for outcome in &report.outcomes {
                self.task_times[outcome.index].push(outcome.elapsed);
            }
        }
        Ok(Some(report.total))
    }

    /// Each task's fastest time in the one-thread timed runs. A task's time is its work plus
    /// whatever interrupted it (other processes, the operating system); the interruptions only
    /// add, so the fastest of the timed runs is the best estimate.
    fn fastest_task_times(&self) -> Vec<Duration> {
        self.task_times
            .iter()
            .map(|v| v.iter().copied().min().unwrap_or_default())
            .collect()
    }

    /// The measured points of the thread counts measured: their times, CPU shares and losses
    /// against the one-thread run (at `at_one` among them); with each one's median worker time
    /// and the one-thread run's.
    fn measured_runs(
        &self,
        at_one: Option<usize>,
        machine: Machine,
    ) -> (
        Vec<MeasuredPoint>,
        Vec<Option<WorkerTime>>,
        Option<WorkerTime>,
    ) {
        let mut runs = measured_points(&self.samples);
        for (point, cpu) in runs.iter_mut().zip(&self.cpu) {
            point.cpu_share = cpu
                .filter(|&(_, wall)| wall >= cpu::MIN_WALL_SECONDS)
                .map(|(got, wall)| cpu::cpu_share(got, wall, point.threads, machine.logical));
            point.shares_core = point.threads > machine.physical;
        }
        let medians: Vec<Option<WorkerTime>> = self
            .worker_times
            .iter()
            .map(|runs| WorkerTime::median(runs))
            .collect();
        let one = at_one.and_then(|i| medians[i]);
        for (point, median) in runs.iter_mut().zip(&medians) {
            point.loss = median
                .zip(one)
                .and_then(|(median, one)| median.loss(point.threads, &one));
        }
        (runs, medians, one)
    }

    /// The study of this variant's runs (`complete`: all of them finished).
    fn finish(
        mut self,
        n: u32,
        total: u128,
        complete: bool,
        machine: Machine,
        options: &StudyOptions,
    ) -> Study {
        // A stopped study measured only the thread counts with a finished timed run.
        let measured: Vec<bool> = self.samples.iter().map(|(_, s)| !s.is_empty()).collect();
        retain_where(&mut self.samples, &measured);
        retain_where(&mut self.cpu, &measured);
        retain_where(&mut self.worker_times, &measured);
        let task_times = self.fastest_task_times();
        let threads: Vec<usize> = self.samples.iter().map(|&(t, _)| t).collect();
        // Without a finished one-thread timed run (a study stopped early) there are no task
        // times to model.
        let at_one = threads.iter().position(|&t| t == 1);
        let mut model = if at_one.is_some() {
            model::predict(
                &task_times,
                &model::workers_to_model(&threads, options.model_up_to),
            )
        } else {
            Vec::new()
        };
        let (mut runs, medians, one) = self.measured_runs(at_one, machine);
        // The share of each count's worker-time that other programs took, and the loss
        // breakdown with it as a part of its own.
        let taken = split_other_programs(&mut runs, machine.logical, |_| true);
        let terms = measured_terms(&threads, &medians, &taken, one, at_one);
        model::add_measured_terms(
            &mut model,
            task_times.iter().sum::<Duration>().as_secs_f64(),
            &terms,
        );
        let kernel = self.kernel.kernel();
        let model_check = super::check::leave_one_out(&runs, &model);
        Study {
            n,
            strategy: self.strategy,
            kernel,
            machine,
            repeat: options.repeat,
            warmup: options.warmup,
            complete,
            tasks: self.plan.tasks().len(),
            task_time_total: task_times.iter().sum::<Duration>(),
            task_time_max: task_times.iter().max().copied().unwrap_or_default(),
            headline: Headline::best(
                total,
                runs.iter().map(|p| (p.threads, p.median)),
                machine.physical,
            ),
            runs,
            model,
            model_leaves_out: MODEL_LEAVES_OUT,
            total,
            run: RunInfo::now(n, self.strategy, kernel, machine),
            model_check,
        }
    }
}

/// Keeps the items of `v` whose place in `keep` is `true`.
fn retain_where<T>(v: &mut Vec<T>, keep: &[bool]) {
    let mut at = keep.iter();
    v.retain(|_| at.next().copied().unwrap_or(false));
}

/// Turns the timed runs of each thread count into measured points (with no CPU share); the
/// speedup baseline is the median of the one-thread runs (or of the first entry when there is no
/// one-thread entry).
pub(crate) fn measured_points(samples: &[(usize, Vec<f64>)]) -> Vec<MeasuredPoint> {
    let summaries: Vec<(usize, Summary)> = samples
        .iter()
        .filter_map(|(t, s)| Some((*t, Summary::of(s)?)))
        .collect();
    let Some(baseline) = summaries
        .iter()
        .find(|(t, _)| *t == 1)
        .or(summaries.first())
        .map(|(_, s)| s.median)
    else {
        return Vec::new();
    };
    summaries
        .iter()
        .map(|&(threads, s)| {
            let speedup = stats::speedup(baseline, s.median);
            let time = |seconds: f64| Duration::try_from_secs_f64(seconds).unwrap_or_default();
            MeasuredPoint::new(threads, time(s.median), time(s.min), time(s.max), speedup)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Watcher;
    use std::sync::Mutex;

    /// A watcher that keeps what it is told and raises `stop` as run `stop_at` (threads, run,
    /// variant) is about to start.
    #[derive(Default)]
    struct Seen<'a> {
        told: Mutex<Vec<StudyProgress>>,
        stop: Option<(&'a AtomicBool, (usize, usize, usize))>,
    }

    impl Watcher for Seen<'_> {
        fn measuring(&self, p: &StudyProgress) {
            self.told.lock().unwrap().push(*p);
            if let Some((stop, at)) = self.stop
                && (p.threads, p.run, p.variant) == at
            {
                stop.store(true, Ordering::Relaxed);
            }
        }
    }

    impl Seen<'_> {
        fn runs(&self) -> Vec<(usize, usize)> {
            let told = self.told.lock().unwrap();
            told.iter().map(|p| (p.threads, p.run)).collect()
        }
    }

    #[test]
    fn measured_points_use_the_one_thread_median() {
        let points = measured_points(&[
            (2, vec![5.0, 6.0]),
            (1, vec![9.0, 11.0, 10.0]),
            (8, vec![2.0]),
        ]);
        let got: Vec<(usize, f64, f64, f64)> = points
            .iter()
            .map(|p| (p.threads, p.median.as_secs_f64(), p.speedup, p.efficiency))
            .collect();
        assert_eq!(
            got,
            [
                (2, 5.5, 10.0 / 5.5, 10.0 / 5.5 / 2.0),
                (1, 10.0, 1.0, 1.0),
                (8, 2.0, 5.0, 0.625)
            ]
        );
        assert_eq!(
            (points[0].min, points[0].max),
            (Duration::from_secs(5), Duration::from_secs(6))
        );
        assert!(measured_points(&[]).is_empty());
    }

    #[test]
    fn totals_are_checked_against_the_table_then_the_first_run() {
        let mut known = TotalCheck::new(10);
        assert!(known.check(1, 724).is_ok());
        let err = known.check(3, 725).unwrap_err();
        let StudyError::Mismatch {
            threads,
            got,
            expected,
            ..
        } = err
        else {
            panic!("{err:?}");
        };
        assert_eq!((threads, got, expected), (3, 725, 724));
        assert!(err.to_string().contains("known table"), "{err}");
        // A wrong first run is caught by the table even before a second run.
        assert!(TotalCheck::new(10).check(1, 0).is_err());

        let mut unknown = TotalCheck::new(30);
        assert!(unknown.check(1, 5).is_ok());
        assert!(unknown.check(2, 5).is_ok());
        let err = unknown.check(4, 6).unwrap_err();
        assert!(err.to_string().contains("the first run"), "{err}");
    }

    #[test]
    fn a_small_study_measures_every_count_and_models_the_rest() {
        let options = StudyOptions {
            count: CountOptions::new(0, Strategy::Mirror),
            threads: vec![3, 2],
            repeat: 2,
            warmup: 1,
            model_up_to: None,
        };
        let seen = Seen::default();
        let study = measure(9, &options, &RunControl::default().with_watcher(&seen)).unwrap();
        assert!(study.complete);
        assert_eq!(
            seen.runs(),
            [
                (1, 0),
                (2, 0),
                (3, 0),
                (1, 1),
                (2, 1),
                (3, 1),
                (1, 2),
                (2, 2),
                (3, 2)
            ]
        );
        let threads: Vec<usize> = study.runs.iter().map(|p| p.threads).collect();
        assert_eq!(threads, [1, 2, 3]);
        let workers: Vec<usize> = study.model.iter().map(|p| p.workers).collect();
        assert_eq!(workers, [1, 2, 3, 4, 8, 16, 32, 64, 128, 256]);
        assert_eq!(study.runs[0].speedup, 1.0);
        assert!(study.task_time_max <= study.task_time_total);
        assert!(study.tasks > 0);
        // Runs of a few milliseconds are too short for the 10 ms process clock.
        assert!(study.runs.iter().all(|p| p.cpu_share.is_none()));
        let one = study.model_at(1).unwrap();
        assert!((one.speedup - 1.0).abs() < 1e-9, "{one:?}");
        assert!(matches!(
            measure(
                9,
                &StudyOptions {
                    repeat: 0,
                    ..options
                },
                &RunControl::default()
            ),
            Err(Error::Study(e)) if matches!(*e, StudyError::NoRuns)
        ));
    }

    #[test]
    fn a_study_makes_as_many_warm_ups_as_asked() {
        for warmup in [0, 1, 2] {
            let options = StudyOptions::new(vec![2])
                .with_strategy(Strategy::Mirror)
                .with_repeat(2)
                .with_warmup(warmup);
            let seen = Seen::default();
            let study = measure(8, &options, &RunControl::default().with_watcher(&seen)).unwrap();
            let runs = seen.runs();
            let warmups = runs.iter().filter(|&&(_, run)| run == 0).count();
            assert_eq!(warmups, 2 * warmup, "{runs:?}");
            assert_eq!(runs.len(), 2 * (warmup + 2), "{runs:?}");
            // The warm-ups come first, then the timed runs 1 and 2 of each thread count.
            assert!(
                runs[..2 * warmup].iter().all(|&(_, run)| run == 0),
                "{runs:?}"
            );
            assert_eq!(runs[2 * warmup..], [(1, 1), (2, 1), (1, 2), (2, 2)]);
            assert_eq!((study.warmup, study.repeat), (warmup, 2));
            assert!(study.complete && study.runs.len() == 2);
        }
    }

    /// A study of the 16-board measured at `points`: (threads, fastest seconds, CPU share).
    fn study_of(points: &[(usize, f64, Option<f64>)]) -> Study {
        let machine = Machine {
            logical: 2,
            physical: 2,
        };
        let runs = points
            .iter()
            .map(|&(threads, fastest, cpu_share)| MeasuredPoint {
                cpu_share,
                ..measured_points(&[(threads, vec![fastest])])[0]
            })
            .collect();
        Study {
            n: 16,
            strategy: Strategy::Mirror,
            kernel: Kernel::DepthFirst,
            machine,
            repeat: 1,
            warmup: 1,
            complete: true,
            tasks: 100,
            task_time_total: Duration::from_secs(1),
            task_time_max: Duration::from_millis(100),
            runs,
            model: Vec::new(),
            model_leaves_out: MODEL_LEAVES_OUT,
            total: 14_772_512,
            run: RunInfo::now(16, Strategy::Mirror, Kernel::DepthFirst, machine),
            headline: None,
            model_check: Vec::new(),
        }
    }

    #[test]
    fn only_starved_runs_make_the_busy_machine_warning() {
        let quiet = study_of(&[(1, 1.0, Some(0.99)), (2, 0.5, None)]);
        assert_eq!(quiet.warnings(), []);
        let busy = study_of(&[
            (1, 1.0, Some(0.95)),
            (2, 0.5, Some(0.41)),
            (4, 0.3, Some(0.7)),
        ]);
        assert_eq!(
            busy.warnings(),
            [StudyWarning::BusyMachine {
                starved: vec![(2, 0.41), (4, 0.7)]
            }]
        );
    }

    #[test]
    fn the_fastest_run_under_the_limit_makes_the_short_run_warning() {
        let short = study_of(&[(1, 0.004, Some(0.5)), (2, 0.0021, None)]);
        assert_eq!(
            short.warnings(),
            [
                StudyWarning::BusyMachine {
                    starved: vec![(1, 0.5)]
                },
                StudyWarning::ShortRuns {
                    threads: 2,
                    time: Duration::from_secs_f64(0.0021)
                }
            ]
        );
        assert_eq!(study_of(&[(1, 0.9, None), (2, 0.5, None)]).warnings(), []);
        assert_eq!(study_of(&[]).warnings(), []);
    }

    #[test]
    fn the_model_reaches_as_far_as_asked() {
        let options = StudyOptions {
            count: CountOptions::new(0, Strategy::Mirror),
            threads: vec![2],
            repeat: 1,
            warmup: 1,
            model_up_to: Some(600),
        };
        let study = measure(8, &options, &RunControl::default()).unwrap();
        let workers: Vec<usize> = study.model.iter().map(|p| p.workers).collect();
        assert_eq!(workers[workers.len() - 3..], [256, 512, 600]);
    }

    #[test]
    fn a_stopped_study_keeps_the_thread_counts_with_a_finished_timed_run() {
        let options = StudyOptions::new(vec![2, 3])
            .with_strategy(Strategy::Mirror)
            .with_repeat(3);
        let stop = AtomicBool::new(false);
        // Raised as 3 threads' first timed run starts: that run is stopped and left out.
        let seen = Seen {
            stop: Some((&stop, (3, 1, 0))),
            ..Seen::default()
        };
        let control = RunControl::default().with_stop(&stop).with_watcher(&seen);
        let study = measure(10, &options, &control).unwrap();
        assert!(!study.complete);
        // No run starts after the one stopped.
        assert_eq!(
            seen.runs(),
            [(1, 0), (2, 0), (3, 0), (1, 1), (2, 1), (3, 1)]
        );
        let threads: Vec<usize> = study.runs.iter().map(|p| p.threads).collect();
        assert_eq!(threads, [1, 2]);
        assert_eq!((study.total, study.repeat), (724, 3));
        // The model has the one-thread task times, and the measured counts' terms.
        assert_eq!(study.model_at(1).unwrap().predicted, study.task_time_total);
        assert!(study.model_at(2).unwrap().losses_from_threads.is_some());
        assert!(study.model_at(3).is_none());
        assert_eq!(study.model_check, study.leave_one_out());
        assert!(study.headline.is_some());
    }

    #[test]
    fn a_study_stopped_before_a_timed_run_finished_has_no_runs_and_no_model() {
        let options = StudyOptions::new(vec![2])
            .with_strategy(Strategy::Mirror)
            .with_repeat(2);
        // Raised before it starts: no run starts, the watcher is told nothing.
        let stop = AtomicBool::new(true);
        let seen = Seen::default();
        let control = RunControl::default().with_stop(&stop).with_watcher(&seen);
        let study = measure(8, &options, &control).unwrap();
        assert!(seen.runs().is_empty());
        assert!(!study.complete && study.runs.is_empty() && study.model.is_empty());
        assert_eq!((study.total, study.headline), (92, None));
        assert_eq!(study.task_time_total, Duration::ZERO);
        // Raised during the warm-ups: the same.
        let stop = AtomicBool::new(false);
        let seen = Seen {
            stop: Some((&stop, (2, 0, 0))),
            ..Seen::default()
        };
        let control = RunControl::default().with_stop(&stop).with_watcher(&seen);
        let study = measure(8, &options, &control).unwrap();
        assert_eq!(seen.runs(), [(1, 0), (2, 0)]);
        assert!(!study.complete && study.runs.is_empty() && study.model.is_empty());
    }

    #[test]
    fn every_study_measured_together_stops_together() {
        let options = StudyOptions::new(vec![2]).with_repeat(2);
        let variants = [Strategy::Mirror, Strategy::Symmetric]
            .map(|strategy| CountOptions::new(0, strategy).with_kernel(Kernel::DepthFirst));
        let stop = AtomicBool::new(false);
        // The second variant's first timed run on one thread is stopped.
        let seen = Seen {
            stop: Some((&stop, (1, 1, 1))),
            ..Seen::default()
        };
        let control = RunControl::default().with_stop(&stop).with_watcher(&seen);
        let studies = measure_together(9, &options, &variants, &control).unwrap();
        assert!(studies.iter().all(|s| !s.complete));
        assert_eq!(studies[0].runs.len(), 1);
        assert!(studies[1].runs.is_empty() && studies[1].model.is_empty());
        assert_eq!(studies[1].total, 352);
    }

    #[test]
    fn runs_go_to_the_pools_given() {
        let build = |threads| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap()
        };
        let (one, three) = (build(1), build(3));
        let options = StudyOptions::new(vec![2, 3])
            .with_strategy(Strategy::Mirror)
            .with_repeat(1);
        // Each thread count on its own pool where there is one, else on the shared pool.
        let pools = [&one, &three];
        let control = RunControl::default().with_pools(&pools).with_pool(&three);
        let study = measure(9, &options, &control).unwrap();
        let threads: Vec<usize> = study.runs.iter().map(|p| p.threads).collect();
        assert_eq!(threads, [1, 2, 3]);
        // A pool smaller than a thread count without a pool of its own is refused.
        let control = RunControl::default().with_pools(&pools).with_pool(&one);
        let Err(Error::Study(error)) = measure(9, &options, &control) else {
            panic!("refused")
        };
        assert!(matches!(
            *error,
            StudyError::PoolTooSmall {
                threads: 2,
                workers: 1
            }
        ));
    }
}

/// The documentation's examples of crate-internal items, as tests.
#[cfg(test)]
mod examples {
    #[test]
    fn total_check_example() {
        use crate::scaling::study::TotalCheck;
        let mut check = TotalCheck::new(8);
        assert!(check.check(1, 92).is_ok());
        assert!(check.check(2, 91).is_err());
    }

    #[test]
    fn measured_points_example() {
        use crate::scaling::study::measured_points;
        let points = measured_points(&[(1, vec![10.0, 12.0, 11.0]), (4, vec![3.0, 2.5, 4.0, 2.0])]);
        assert_eq!(points[1].median, std::time::Duration::from_millis(2750));
        assert_eq!(points[1].speedup, 4.0);
        assert_eq!(points[1].efficiency, 1.0);
    }
}

/// What a study read back says the model leaves out: [`MODEL_LEAVES_OUT`].
#[cfg(feature = "serde")]
fn model_leaves_out() -> &'static str {
    MODEL_LEAVES_OUT
}
