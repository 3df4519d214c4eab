//! Measuring one board on several thread counts: timed runs, speedups, efficiencies, the model.

use std::sync::Arc;
use std::time::Duration;

use super::info::{Headline, MODEL_LEAVES_OUT, RunInfo};
use super::loss::WorkerTime;
pub use super::measured::MeasuredPoint;
use super::measured::split_other_programs;
use super::model;
pub use super::model::ModelPoint;
use super::stats::{self, Summary};
use super::{Machine, cpu};
use crate::engine::kernel::Kernel;
use crate::engine::plan::{Plan, Strategy};
use crate::engine::pool::{check_threads, shared_pool};
use crate::engine::run::{RunOptions, run};
use crate::error::Error;
use crate::known;

/// What to measure (with the `serde` feature, a field left out takes its value in
/// [`StudyOptions::default`], and a field of another name is an error).
///
/// ```
/// use nqueens::scaling::study::{measure, StudyOptions};
/// use nqueens::{Kernel, Strategy};
/// let options = StudyOptions::new(vec![2])
///     .with_strategy(Strategy::Mirror)
///     .with_repeat(1)
///     .with_model_up_to(Some(12));
/// let study = measure(8, &options, &mut |_| {}).unwrap();
/// let measured: Vec<usize> = study.runs.iter().map(|point| point.threads).collect();
/// assert_eq!(measured, [1, 2]); // one thread is always measured
/// assert!(study.model_at(12).is_some() && study.model_at(256).is_some());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(default, deny_unknown_fields))]
#[non_exhaustive]
pub struct StudyOptions {
    /// How the board is split into tasks.
    pub strategy: Strategy,
    /// Which kernel counts the tasks.
    pub kernel: Kernel,
    /// Thread counts to measure. One thread is always measured as well: it is the baseline of
    /// every speedup and the source of the model's task times.
    pub threads: Vec<usize>,
    /// Timed runs per thread count (each count also gets one untimed warm-up run first).
    pub repeat: usize,
    /// Model worker counts up to this many as well (the powers of two below it and the count
    /// itself), beyond the default 1, 2, 4, …, 256; `None`: the default counts only.
    pub model_up_to: Option<usize>,
}

impl StudyOptions {
    /// Measure these thread counts (and one), three timed runs each, with the default strategy
    /// and the fastest kernel, and the default model.
    ///
    /// ```
    /// use nqueens::scaling::study::StudyOptions;
    /// let options = StudyOptions::new(vec![1, 2]);
    /// assert_eq!((options.threads, options.repeat, options.model_up_to), (vec![1, 2], 3, None));
    /// ```
    #[must_use]
    pub fn new(threads: Vec<usize>) -> StudyOptions {
        StudyOptions {
            strategy: Strategy::default(),
            kernel: Kernel::Auto,
            threads,
            repeat: 3,
            model_up_to: None,
        }
    }

    /// These options with `strategy` splitting the board.
    ///
    /// ```
    /// use nqueens::scaling::study::StudyOptions;
    /// use nqueens::Strategy;
    /// assert_eq!(StudyOptions::default().with_strategy(Strategy::Mirror).strategy, Strategy::Mirror);
    /// ```
    #[must_use]
    pub fn with_strategy(self, strategy: Strategy) -> StudyOptions {
        StudyOptions { strategy, ..self }
    }

    /// These options with `kernel` counting the tasks.
    ///
    /// ```
    /// use nqueens::scaling::study::StudyOptions;
    /// use nqueens::Kernel;
    /// let options = StudyOptions::default().with_kernel(Kernel::DepthFirst);
    /// assert_eq!(options.kernel, Kernel::DepthFirst);
    /// ```
    #[must_use]
    pub fn with_kernel(self, kernel: Kernel) -> StudyOptions {
        StudyOptions { kernel, ..self }
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
}

impl Default for StudyOptions {
    /// The command's defaults: the powers of two below the logical CPU count and that count,
    /// three timed runs each, the default strategy, the fastest kernel.
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

/// Where a study is, reported before each run starts.
///
/// ```
/// use nqueens::scaling::study::{measure, Progress, StudyOptions};
/// use nqueens::{Kernel, Strategy};
/// let options = StudyOptions::new(vec![2]).with_strategy(Strategy::Mirror).with_repeat(1);
/// let mut seen = Vec::new();
/// measure(8, &options, &mut |p: Progress| seen.push((p.threads, p.run, p.repeat))).unwrap();
/// // The warm-ups (run 0) first, then the timed runs taking turns over the thread counts.
/// assert_eq!(seen, [(1, 0, 1), (2, 0, 1), (1, 1, 1), (2, 1, 1)]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Progress {
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
    /// (see [`measure_together`]).
    pub variant: usize,
    /// How many variants are measured together (1 for [`measure`]).
    pub variants: usize,
}

impl Progress {
    /// Run `run` (0 for the warm-up) of `repeat` on `threads` threads with `strategy` and
    /// `kernel`, in a study of one variant (what an observer sees from [`measure`]).
    ///
    /// ```
    /// use nqueens::scaling::study::Progress;
    /// use nqueens::{Kernel, Strategy};
    /// let p = Progress::new(2, 1, 3, Strategy::Mirror, Kernel::DepthFirst);
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
    ) -> Progress {
        Progress {
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

/// A finished study: the machine, the measured points and the model's predictions.
///
/// ```
/// use nqueens::scaling::{study::{measure, StudyOptions}, Machine};
/// use nqueens::{count, CountOptions, Kernel, Strategy};
/// let options = StudyOptions::new(vec![2]).with_strategy(Strategy::Mirror).with_repeat(1);
/// let study = measure(8, &options, &mut |_| {}).unwrap();
/// assert_eq!((study.n, study.strategy, study.repeat), (8, Strategy::Mirror, 1));
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
    /// Board side.
    pub n: u32,
    /// Decomposition strategy.
    pub strategy: Strategy,
    /// The kernel that counted the tasks (never [`Kernel::Auto`]).
    pub kernel: Kernel,
    /// The machine that ran it.
    pub machine: Machine,
    /// Timed runs per thread count.
    pub repeat: usize,
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
    /// The board's total, which every run counted.
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
    /// The model's prediction for `workers`, when it was modelled.
    #[must_use]
    pub fn model_at(&self, workers: usize) -> Option<&ModelPoint> {
        self.model.iter().find(|p| p.workers == workers)
    }

    /// The model checked against the runs: each measured thread count above one predicted from
    /// the smaller ones ([`super::check::leave_one_out`]).
    #[must_use]
    pub fn leave_one_out(&self) -> Vec<super::check::Holdout> {
        super::check::leave_one_out(&self.runs, &self.model)
    }

    /// What the runs say about their own worth: a busy machine, runs too short to mean much;
    /// in that order, each at most once.
    ///
    /// ```
    /// use nqueens::scaling::study::{measure, StudyOptions, StudyWarning, SHORT_RUN};
    /// use nqueens::Strategy;
    /// let options = StudyOptions::new(vec![2]).with_strategy(Strategy::Mirror).with_repeat(1);
    /// let study = measure(8, &options, &mut |_| {}).unwrap();
    /// // The 8-board takes microseconds.
    /// let short = study.warnings().into_iter().find_map(|warning| match warning {
    ///     StudyWarning::ShortRuns { threads, time } => Some((threads, time)),
    ///     _ => None,
    /// });
    /// let (threads, time) = short.unwrap();
    /// assert!(time < SHORT_RUN);
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
        .filter(|&(_, share)| share < BUSY_BELOW)
        .collect();
    let busy = (!starved.is_empty()).then_some(StudyWarning::BusyMachine { starved });
    let short = runs
        .iter()
        .min_by_key(|p| p.min)
        .filter(|fastest| fastest.min < SHORT_RUN)
        .map(|fastest| StudyWarning::ShortRuns {
            threads: fastest.threads,
            time: fastest.min,
        });
    busy.into_iter().chain(short).collect()
}

/// A CPU share ([`MeasuredPoint::cpu_share`]) below this means that other programs were using
/// the machine during the runs.
pub(crate) const BUSY_BELOW: f64 = 0.8;

/// Timed runs shorter than this (50 ms) measure start-up costs and timer noise more than the
/// search.
///
/// ```
/// use std::time::Duration;
/// assert_eq!(nqueens::scaling::study::SHORT_RUN, Duration::from_millis(50));
/// ```
pub const SHORT_RUN: Duration = Duration::from_millis(50);

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
    /// The fastest timed run took less than [`SHORT_RUN`]: the speedups mean little, and a
    /// larger board would measure the search.
    ShortRuns {
        /// The thread count of that run.
        threads: usize,
        /// Its wall-clock time.
        time: Duration,
    },
}

/// Why a study stopped, apart from the failures of its counts: [`measure`] returns it inside
/// [`Error::Study`]; a count's own failure inside a study comes as its own variant of
/// [`Error`], as it does from [`count`](crate::count).
///
/// ```
/// use nqueens::scaling::study::{measure, StudyError, StudyOptions};
/// use nqueens::{Error, Kernel, Strategy};
/// let options = StudyOptions::new(vec![2]).with_strategy(Strategy::Mirror).with_repeat(0);
/// let Err(Error::Study(error)) = measure(8, &options, &mut |_| {}) else { panic!() };
/// assert!(matches!(*error, StudyError::NoRuns));
/// assert_eq!(error.to_string(), "the number of timed runs must be at least 1");
///
/// let options = options.with_repeat(1);
/// let error = measure(65, &options, &mut |_| {}).unwrap_err();
/// assert!(matches!(error, Error::BoardTooLarge { n: 65 }));
/// ```
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum StudyError {
    /// At least one timed run is needed.
    #[error("the number of timed runs must be at least 1")]
    NoRuns,
    /// A run counted a different total: the engine is wrong and the timings are meaningless.
    #[error(transparent)]
    Mismatch(#[from] Mismatch),
}

/// A run whose total disagrees with the known count or with the study's earlier runs.
///
/// A study stops on the first one ([`StudyError::Mismatch`]): its timings would be meaningless.
///
/// ```
/// use nqueens::scaling::study::Mismatch;
/// let mismatch = Mismatch {
///     n: 8,
///     threads: 2,
///     got: 90,
///     expected: 92,
///     source_name: "the known table (OEIS A000170)",
/// };
/// assert_eq!(
///     mismatch.to_string(),
///     "count mismatch: n = 8 with 2 threads counted 90, \
///      but the known table (OEIS A000170) says 92"
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "count mismatch: n = {n} with {threads} threads counted {got}, but {source_name} says {expected}"
)]
pub struct Mismatch {
    /// Board side.
    pub n: u32,
    /// Thread count of the run that disagreed.
    pub threads: usize,
    /// What that run counted.
    pub got: u128,
    /// What it should have counted.
    pub expected: u128,
    /// Where `expected` came from.
    pub source_name: &'static str,
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

    /// Accepts `total` from a run with `threads` threads, or reports the mismatch.
    pub fn check(&mut self, threads: usize, total: u128) -> Result<(), Mismatch> {
        match self.expected {
            None => {
                self.expected = Some((total, "the first run"));
                Ok(())
            }
            Some((expected, _)) if expected == total => Ok(()),
            Some((expected, source_name)) => Err(Mismatch {
                n: self.n,
                threads,
                got: total,
                expected,
                source_name,
            }),
        }
    }
}

/// The thread counts a study measures for `requested`: ascending, without duplicates or zeros,
/// always including 1.
/// ```
/// assert_eq!(nqueens::scaling::study::thread_counts(&[8, 2, 2, 0]), [1, 2, 8]);
/// ```
#[must_use]
pub fn thread_counts(requested: &[usize]) -> Vec<usize> {
    let mut counts: Vec<usize> = requested.iter().copied().filter(|&t| t > 0).collect();
    counts.push(1);
    counts.sort_unstable();
    counts.dedup();
    counts
}

/// Runs the study: for each thread count (see [`thread_counts`]) one warm-up run and
/// `options.repeat` timed runs of one plan, every total checked; then the speedups, efficiencies
/// and the model from the one-thread task times. The warm-ups come first; the timed runs then take
/// turns over the thread counts (1, 2, 4, 1, 2, 4, …), so that a change in the machine's other
/// load affects every count alike. `progress` is told before each run starts.
/// ```
/// use nqueens::scaling::study::{measure, StudyOptions};
/// use nqueens::{Kernel, Strategy};
/// let options = StudyOptions::new(vec![2]).with_strategy(Strategy::Mirror).with_repeat(1);
/// let study = measure(8, &options, &mut |_| {}).unwrap();
/// assert_eq!(study.runs.len(), 2);
/// assert_eq!((study.runs[0].threads, study.runs[0].speedup), (1, 1.0));
/// assert_eq!(study.model_at(256).unwrap().workers, 256);
/// ```
///
/// # Errors
///
/// [`Error::Study`] for no timed run ([`StudyError::NoRuns`]) or a run whose total disagrees
/// ([`StudyError::Mismatch`]); a count's own refusal or failure (a thread count, a kernel, a board
/// too large, the worker threads) as its own variant, as [`count`](crate::count) gives it.
pub fn measure(
    n: u32,
    options: &StudyOptions,
    progress: &mut dyn FnMut(Progress),
) -> Result<Study, Error> {
    let mut studies =
        measure_together(n, options, &[(options.strategy, options.kernel)], progress)?;
    Ok(studies.remove(0))
}

/// Measures several strategy and kernel pairs (`variants`, each replacing `options.strategy`
/// and `options.kernel`) in one study, interleaved: for each repetition and each thread count,
/// every variant runs in turn, so that a change in the machine's other load hits all alike. One
/// [`Study`] per variant, in the order given; `Kernel::Auto` is resolved to the kernel it runs.
/// The runs use the process's pool of each thread count, which the study holds until it ends
/// (more thread counts than the library keeps pools for are not built again run after run).
/// ```
/// use nqueens::scaling::study::{measure_together, StudyOptions};
/// use nqueens::{Kernel, Strategy};
/// let options = StudyOptions::new(vec![2]).with_strategy(Strategy::Mirror).with_repeat(1);
/// let variants = [(Strategy::Mirror, Kernel::DepthFirst), (Strategy::Symmetric, Kernel::DepthFirst)];
/// let mut order = Vec::new();
/// let studies = measure_together(8, &options, &variants, &mut |p| {
///     order.push((p.threads, p.run, p.variant))
/// })
/// .unwrap();
/// assert_eq!(studies[1].strategy, Strategy::Symmetric);
/// // Each repetition of each thread count runs every variant in turn.
/// assert_eq!(order[..4], [(1, 0, 0), (1, 0, 1), (2, 0, 0), (2, 0, 1)]);
/// ```
///
/// # Errors
///
/// As [`measure`].
pub fn measure_together(
    n: u32,
    options: &StudyOptions,
    variants: &[(Strategy, Kernel)],
    progress: &mut dyn FnMut(Progress),
) -> Result<Vec<Study>, Error> {
    let mut held: Vec<Arc<rayon::ThreadPool>> = Vec::new();
    let mut pool_for = |threads: usize| {
        if let Some(pool) = held.iter().find(|p| p.current_num_threads() == threads) {
            return Ok(Arc::clone(pool));
        }
        let pool = shared_pool(threads)?;
        held.push(Arc::clone(&pool));
        Ok(pool)
    };
    measure_together_on(n, options, variants, &mut pool_for, progress)
}

/// [`measure_together`] on the pools `pool_for` gives for each thread count (it is asked
/// before every run; its pool's size is the run's thread count) instead of the process's own
/// pool of that size: pools whose workers the caller placed on chosen CPUs, for example.
/// ```
/// use nqueens::scaling::study::{measure_together_on, StudyOptions};
/// use nqueens::{Kernel, Strategy};
/// let options = StudyOptions::new(vec![2]).with_strategy(Strategy::Mirror).with_repeat(1);
/// let mut asked = Vec::new();
/// let mut pools = |threads| {
///     asked.push(threads);
///     let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build();
///     pool.map(std::sync::Arc::new).map_err(|e| nqueens::Error::ThreadPool(e.into()))
/// };
/// let variants = [(Strategy::Mirror, Kernel::Auto)];
/// measure_together_on(8, &options, &variants, &mut pools, &mut |_| {}).unwrap();
/// assert_eq!(asked, [1, 2, 1, 2]); // the warm-ups, then the timed runs
/// ```
///
/// # Errors
///
/// As [`measure`], and whatever `pool_for` returns.
pub fn measure_together_on(
    n: u32,
    options: &StudyOptions,
    variants: &[(Strategy, Kernel)],
    pool_for: &mut dyn FnMut(usize) -> Result<Arc<rayon::ThreadPool>, Error>,
    progress: &mut dyn FnMut(Progress),
) -> Result<Vec<Study>, Error> {
    if options.repeat == 0 {
        return Err(StudyError::NoRuns.into());
    }
    let threads = thread_counts(&options.threads);
    // Refused before any run (`thread_counts` leaves out zeros and sorts: the last is largest).
    if let Some(&most) = threads.last() {
        check_threads(most)?;
    }
    let machine = Machine::detect();
    let mut check = TotalCheck::new(n);
    let mut states = variants
        .iter()
        .map(|&(strategy, kernel)| Variant::new(n, strategy, kernel, &threads, options.repeat))
        .collect::<Result<Vec<_>, Error>>()?;
    let mut total = 0;
    // Warm-ups first, then the timed runs round-robin over the thread counts and the variants,
    // so that a change in the machine's other load spreads over every count and variant instead
    // of skewing one.
    for k in 0..=options.repeat {
        for (i, &t) in threads.iter().enumerate() {
            for (v, state) in states.iter_mut().enumerate() {
                progress(Progress {
                    threads: t,
                    run: k,
                    repeat: options.repeat,
                    strategy: state.strategy,
                    kernel: state.kernel.kernel(),
                    variant: v,
                    variants: variants.len(),
                });
                let pool = pool_for(t)?;
                total = state.run_once(i, t, k, &pool, &mut check)?;
            }
        }
    }
    Ok(states
        .into_iter()
        .map(|state| state.finish(n, total, machine, options))
        .collect())
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
        strategy: Strategy,
        kernel: Kernel,
        threads: &[usize],
        repeat: usize,
    ) -> Result<Variant, Error> {
        let kernel = kernel.select()?;
        let plan = Plan::new(n, strategy, Plan::DEFAULT_MIN_TASKS)?;
        Ok(Variant {
            strategy,
            kernel,
            samples: threads
                .iter()
                .map(|&t| (t, Vec::with_capacity(repeat)))
                .collect(),
            cpu: vec![Some((0.0, 0.0)); threads.len()],
            worker_times: vec![Vec::with_capacity(repeat); threads.len()],
            task_times: vec![Vec::new(); plan.tasks().len()],
            plan,
        })
    }

    /// Runs the plan once on `t` threads (the `i`-th count), run `k` (0: the warm-up, not
    /// recorded), checks the total and returns it.
    fn run_once(
        &mut self,
        i: usize,
        t: usize,
        k: usize,
        pool: &rayon::ThreadPool,
        check: &mut TotalCheck,
    ) -> Result<u128, Error> {
        // The pool is given so that even a small board runs on `t` workers.
        let cpu_before = cpu::process_cpu_seconds();
        let report = run(
            &self.plan,
            &RunOptions {
                kernel: self.kernel,
                pool: Some(pool),
                // Only the 1-thread runs' task times are read.
                keep_outcomes: t == 1,
                ..RunOptions::with_threads(t)
            },
        )?;
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
            return Ok(report.total);
        }
        self.samples[i].1.push(wall);
        self.worker_times[i].push(WorkerTime::of(&report));
        if t == 1 {
            for outcome in &report.outcomes {
                self.task_times[outcome.index].push(outcome.elapsed);
            }
        }
        Ok(report.total)
    }

    /// The study of this variant's runs.
    fn finish(self, n: u32, total: u128, machine: Machine, options: &StudyOptions) -> Study {
        // A task's time is its work plus whatever interrupted it (other processes, the operating
        // system); the interruptions only add, so the fastest of the timed runs is the best
        // estimate.
        let task_times: Vec<Duration> = self
            .task_times
            .iter()
            .map(|v| v.iter().copied().min().unwrap_or_default())
            .collect();
        let threads: Vec<usize> = self.samples.iter().map(|&(t, _)| t).collect();
        let mut model = model::predict(
            &task_times,
            &model::workers_to_model(&threads, options.model_up_to),
        );
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
        let one = threads
            .iter()
            .position(|&t| t == 1)
            .and_then(|i| medians[i]);
        for (point, median) in runs.iter_mut().zip(&medians) {
            point.loss = median
                .zip(one)
                .and_then(|(median, one)| median.loss(point.threads, &one));
        }
        // The share of each count's worker-time that other programs took, and the loss
        // breakdown with it as a part of its own.
        let taken = split_other_programs(&mut runs, machine.logical, |_| true);
        let taken_at_one = threads
            .iter()
            .position(|&t| t == 1)
            .map_or(0.0, |i| taken[i]);
        // The model's slowdown is the tasks' time on the CPU: what other programs took of it
        // is this machine's load, not its scaling.
        let one_on_cpu = one.map(|one| one.busy_on_cpu(1, taken_at_one));
        let terms: Vec<model::MeasuredTerms> = threads
            .iter()
            .zip(&medians)
            .zip(&taken)
            .filter_map(|((&t, median), &taken)| {
                let (median, one) = (median.as_ref()?, one_on_cpu?);
                (one > 0.0).then(|| model::MeasuredTerms {
                    threads: t,
                    serial_seconds: median.outside / t as f64,
                    slowdown: median.busy_on_cpu(t, taken) / one,
                })
            })
            .collect();
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
        assert_eq!((err.threads, err.got, err.expected), (3, 725, 724));
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
            strategy: Strategy::Mirror,
            kernel: Kernel::Auto,
            threads: vec![3, 2],
            repeat: 2,
            model_up_to: None,
        };
        let mut seen = Vec::new();
        let study = measure(9, &options, &mut |p| seen.push((p.threads, p.run))).unwrap();
        assert_eq!(
            seen,
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
                &mut |_| {}
            ),
            Err(Error::Study(e)) if matches!(*e, StudyError::NoRuns)
        ));
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
            strategy: Strategy::Mirror,
            kernel: Kernel::Auto,
            threads: vec![2],
            repeat: 1,
            model_up_to: Some(600),
        };
        let study = measure(8, &options, &mut |_| {}).unwrap();
        let workers: Vec<usize> = study.model.iter().map(|p| p.workers).collect();
        assert_eq!(workers[workers.len() - 3..], [256, 512, 600]);
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
