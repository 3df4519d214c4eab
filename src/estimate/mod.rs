//! Estimates of a board's total and of the cost of counting it, from a random sample of its plan.
//!
//! A full count of a large board costs core-years; this module predicts, in a minute, both what
//! it will find and what it will cost here, each with a 95% interval.
//!
//! # The estimator
//!
//! The [`symmetric`](crate::Strategy::Symmetric) plan writes the total as
//! `Q(n) = Σⱼ wⱼ cⱼ` over its tasks `j` (weight `wⱼ`, unweighted count `cⱼ`), and the cost of a
//! count as `C = Σⱼ tⱼ` (the kernel's time on task `j`). At n = 27 one task is about ten
//! core-minutes, so a sample of whole tasks cannot fit a minute. A **sample** instead follows
//! one random path part of the way down one task (Knuth, *Estimating the efficiency of
//! backtrack programs*, 1975):
//!
//! 1. draw task `j` with probability `pⱼ` (proportional to the plan's cheap size estimate plus
//!    one, so every task can be drawn);
//! 2. while more than `m` rows are free, place the queen of the first free row on one of its
//!    `bₖ` free squares, chosen uniformly (a row with no free square ends the sample with
//!    count 0);
//! 3. count the completions `c` of the board reached exactly, with the fastest kernel, timing
//!    the count as `t`: its wall time (a monotonic clock, read without a system call) at the
//!    share of the time its thread was running, from the thread's processor clock read once
//!    per chunk of samples, so that other threads and programs on the same cores do not
//!    inflate it;
//! 4. with `B = Π bₖ`, return `X = wⱼ c B / pⱼ` and `Y = t B / pⱼ`.
//!
//! A leaf `v` of the descent under task `j` is reached with probability `pⱼ / B(v)`, and the
//! counts of the leaves of a task sum to its count, so
//! `E[X] = Σⱼ Σ_v (pⱼ / B(v)) · wⱼ c(v) B(v) / pⱼ = Σⱼ wⱼ cⱼ = Q(n)`: `X` is **unbiased**, and
//! likewise `E[Y] = Σ_v t(v)`, the cost of counting every leaf, which is the cost of the task
//! less the few rows above the leaves.
//!
//! # Stratification
//!
//! The tasks, in plan order (largest first by size estimate), cut `[0, 1)` into intervals of
//! length `pⱼ`. With `K` samples, sample `i` draws its point uniformly from the `i`-th of `K`
//! equal strata `[i/K, (i+1)/K)` and takes the task whose interval holds it (inverse transform).
//! Each point is uniform over its stratum, with density `K`, so `X̄ = Σᵢ Xᵢ / K` is still unbiased,
//! and neighbouring strata hold tasks of like size, so `Var X̄ = Σᵢ Var Xᵢ / K²` is smaller than
//! for independent draws. The variance is estimated by collapsing neighbouring strata in pairs
//! (stratified by task), which can only overstate it; the interval is `X̄ ± 1.96 √V̂` (normal: `K` is
//! thousands of samples).
//!
//! # The descent depth
//!
//! A deep descent makes samples cheap but `B` large and `X` noisy; a shallow one makes each
//! sample exact over more of the tree but leaves few samples in the budget. Each sample's exact
//! count is aimed at about a millisecond: a table gives the free rows `m` left
//! after the descent for each `n`, chosen from timings of the AVX2 kernel. It depends on `n`
//! alone, so the estimate does too.
//!
//! # Reproducibility
//!
//! Sample `i` draws every number from its own stream, a function of the seed and `i`
//! (SplitMix64); samples run on a thread pool, and only running sums are kept (per group of
//! strata: the sum and the spread), added in an order fixed by `K` alone. The same seed and the
//! same number of samples give the same totals on any thread count.
//!
//! # Time budgets
//!
//! A time budget counts from the moment the estimate is asked for: building the plan, pilot
//! runs and samples all spend it. It draws **whole rounds only**: pilot runs of growing size
//! (16 samples a thread, then four times as many, until one takes a thirtieth of the budget)
//! and then rounds of about a thirty-second of what is left each, every pilot and every round
//! a complete stratified draw of its own (its own `K`, its own stream of the seed). A round
//! is never cut: the budget is checked between rounds, and the last round is sized to what is
//! left, so the time taken is the budget within about one round. Each whole round is an
//! unbiased estimate; their samples pooled, each weighed by its size, are too, and the pooled
//! collapsed-strata variance is the variance of that pooled mean. A round cut by the clock
//! would not be: which of its strata it had drawn would depend on load and threads, and the
//! strata it lacked would bias the mean without the variance seeing it. So, however the
//! budget and the machine's load cut the work, the interval keeps its 95% (measured by
//! `scripts/estimate-coverage.sh`). Such an estimate is not repeated by the same seed (a fixed
//! number of samples is). The core times are measured times and vary run to run.
//!
//! # Stopping early
//!
//! By default ([`EstimateOptions::early_stop`]) a time budget also ends early, at a whole
//! round, for either of two reasons ([`StopReason`]): the samples so far show that counting
//! the board exactly would take less than the budget left (then it counts, and the figures
//! are the count's: [`StopReason::Counted`]), or the samples have done the work of a full
//! count ([`StopReason::Covered`]), after which more samples would cost more than the count.
//! A stop flag ([`RunControl::stop`]) ends an estimate at the next group of samples: it
//! returns what the rounds of samples drawn whole until then show, with
//! [`StopReason::Stopped`] (also when it stops the exact count it had decided on: the samples
//! before the count are kept). Only a stop raised before two samples were summed gives
//! [`Error::Stopped`] instead: there is no estimate to give.
//!
//! # What else is reported
//!
//! * **Unique solutions**: `Q(n)/8`, with the interval divided likewise. The exact unique count
//!   is `(Q(n) + P + 2R)/8` where `P` and `R` count the solutions fixed by the half and quarter
//!   turns (`engine/unique.rs`); they are below 10⁻⁵ of `Q(n)` from n = 20 on, far
//!   inside the interval.
//! * **Wall time** on `T` threads and on clusters of 64, 1024 and 10 000 cores: the estimated
//!   core time is shared among the plan's tasks in proportion to `pⱼ` and replayed by the
//!   load-balance model (the one behind [`crate::scaling`]), which also gives the largest task's share
//!   of the work (the largest `pⱼ`). Task sizes vary more than the size
//!   estimate knows, so on clusters with few tasks per core this is a lower bound.
//! * **Coverage**: the measured time of the samples over the estimated core time, the fraction
//!   of a full count's work the samples did.
//!
//! # The cost of work before it starts
//!
//! [`cost`] turns one such estimate per board, kernel and thread count into the figure to weigh
//! work by before starting it ([`cost::Cost`]), made once in a process.

mod clock;
pub mod cost;
pub(crate) mod probe;
mod rng;
#[cfg(test)]
mod sample_tests;
pub(crate) mod stats;
mod walls;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

pub use crate::count::EstimateProgress;
use crate::count::{CountOptions, RunControl, Watcher, count_with};
use crate::engine::kernel::Kernel;
use crate::engine::plan::Strategy;
use crate::engine::pool::{Workers, check_threads, spread};
use crate::error::Error;
pub use crate::error::estimate::EstimateError;
use crate::known;
use clock::thread_seconds;
use probe::Sampler;
use stats::{StratifiedSums, group_bounds};
use walls::Walls;

/// Mixed into the seed of the pilot runs, so that they draw other numbers than the sample.
const PILOT_STREAM: u64 = 0x9170_5eed;

/// Mixed into the seed (with the round number) for the rounds of a time budget.
const ROUND_STREAM: u64 = 0x9a55_5eed_0f0f;

/// The rounds a time budget is drawn in, about: the last one ends within about this fraction
/// of the budget after its end.
const ROUNDS_PER_BUDGET: f64 = 32.0;

/// The groups of strata per round of a sample, at least (until there are [`MAX_ROUNDS`]).
const GROUPS_PER_ROUND: u64 = 128;

/// The most rounds a sample is drawn in.
const MAX_ROUNDS: u64 = 512;

/// The chunks a round is cut into, at most: enough for the workers to share a round evenly,
/// few enough that a round's sums take a fixed amount of memory and that a chunk of a large
/// round holds many samples (the thread's processor clock is read twice a chunk).
const MAX_CHUNKS: u64 = 64;

/// The fewest groups of strata in a chunk (at most one read of the processor clock per four
/// samples, and at most 64 × 512 chunks a draw).
const MIN_CHUNK_GROUPS: u64 = 4;

/// The free rows a sample leaves for the exact count on the `n`-board: its exact count takes
/// about a millisecond with the AVX2 kernel (measured: n = 20 at 14 rows 1.1 ms, n = 25 at
/// 15 rows 1.1 ms, n = 30 at 16 rows 2.1 ms). Below n = 20 the plan's tasks are smaller than
/// that and samples count whole tasks.
pub(crate) fn default_free_rows(n: u32) -> u32 {
    match n {
        0..=22 => 14,
        23..=29 => 15,
        _ => 16,
    }
}

/// How many samples to draw.
///
/// ```
/// use std::time::Duration;
/// use nqueens::estimate::{estimate, Budget, EstimateOptions};
/// let options = |budget| EstimateOptions::new(budget).with_seed(1).with_threads(1);
/// assert_eq!(estimate(10, &options(Budget::Samples(64))).unwrap().samples, 64);
/// let error = estimate(10, &options(Budget::Time(Duration::ZERO))).unwrap_err();
/// assert_eq!(error.to_string(), "0 is not a positive number of seconds");
/// ```
///
/// With the `serde` feature a time budget is written `{"seconds": 60.0}`, a number of seconds:
///
/// ```
/// # #[cfg(feature = "serde")] {
/// use std::time::Duration;
/// use nqueens::estimate::Budget;
/// let minute = Budget::Time(Duration::from_secs(60));
/// assert_eq!(serde_json::to_value(minute).unwrap(), serde_json::json!({"seconds": 60.0}));
/// assert_eq!(serde_json::from_str::<Budget>(r#"{"seconds": 60}"#).unwrap(), minute);
/// assert_eq!(serde_json::to_value(Budget::Samples(9)).unwrap(), serde_json::json!({"samples": 9}));
/// # }
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
#[non_exhaustive]
pub enum Budget {
    /// Exactly this many (at least 2): reproducible.
    Samples(u64),
    /// As many whole samples as fit this much wall time, building the plan and pilot runs
    /// included (see the module documentation), ending within about a thirty-second of it after
    /// the end, or earlier (see [`EstimateOptions::early_stop`]); not reproducible. `seconds`
    /// in serde's output, a number.
    #[cfg_attr(
        feature = "serde",
        serde(rename = "seconds", with = "crate::serde_util::seconds")
    )]
    Time(Duration),
}

impl Budget {
    /// The time budget that suits the `n`-board: 5 seconds up to n = 16, 10 up to 19, 20 up to
    /// 21, 30 up to 23, and a minute from n = 24 on (the boards whose count takes core-hours,
    /// where a narrower interval is worth the wait). A small board usually ends far sooner
    /// (see [`EstimateOptions::early_stop`]).
    ///
    /// ```
    /// use std::time::Duration;
    /// use nqueens::estimate::Budget;
    /// assert_eq!(Budget::for_board(14), Budget::Time(Duration::from_secs(5)));
    /// assert_eq!(Budget::for_board(28), Budget::Time(Duration::from_secs(60)));
    /// ```
    #[must_use]
    pub fn for_board(n: u32) -> Budget {
        let seconds = match n {
            0..=16 => 5,
            17..=19 => 10,
            20..=21 => 20,
            22..=23 => 30,
            _ => 60,
        };
        Budget::Time(Duration::from_secs(seconds))
    }
}

/// How to estimate (with the `serde` feature, a field left out takes its value in
/// [`EstimateOptions::default`], and a field of another name is an error).
///
/// The same seed and number of samples give the same estimate on any thread count:
///
/// ```
/// use nqueens::estimate::{estimate, Budget, EstimateOptions};
/// let one = EstimateOptions::new(Budget::Samples(100)).with_seed(42).with_threads(1);
/// let two = one.with_threads(2);
/// let (a, b) = (estimate(10, &one).unwrap(), estimate(10, &two).unwrap());
/// assert_eq!(a.estimate_total, b.estimate_total);
/// assert_eq!((a.total_low, a.total_high), (b.total_low, b.total_high));
/// assert_eq!((a.threads, b.threads), (1, 2));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(default, deny_unknown_fields))]
#[non_exhaustive]
pub struct EstimateOptions {
    /// How many samples.
    pub budget: Budget,
    /// The seed of every sample's random stream.
    pub seed: u64,
    /// How the work is done, as for a count: `count.threads` workers for the samples (and the
    /// thread count whose wall time is predicted: at most this many of the workers of the pool
    /// the estimate runs on, `0` for all of them; see [`RunControl::pool`](crate::RunControl::pool)),
    /// `count.kernel` counts each sample's subtree, and an exact count (see
    /// [`StopReason::Counted`]) is made with these options whole. The samples are always drawn from
    /// the symmetric plan, whatever `count.strategy` says.
    pub count: CountOptions,
    /// Whether a time budget may end early (the default): by counting the board exactly when
    /// the samples show that takes less than the budget left, or once the samples have done the
    /// work of a full count. `false` spends the whole budget on samples. A fixed number of
    /// samples never ends early.
    pub early_stop: bool,
}

impl EstimateOptions {
    /// `budget` samples with seed 1, on every logical CPU, with the fastest kernel.
    ///
    /// ```
    /// use nqueens::estimate::{Budget, EstimateOptions};
    /// let options = EstimateOptions::new(Budget::Samples(100));
    /// assert_eq!((options.seed, options.count.kernel), (1, nqueens::Kernel::Auto));
    /// ```
    #[must_use]
    pub fn new(budget: Budget) -> EstimateOptions {
        EstimateOptions {
            budget,
            seed: 1,
            count: CountOptions::new(0, Strategy::Symmetric),
            early_stop: true,
        }
    }

    /// These options with the samples' random streams seeded by `seed`.
    ///
    /// ```
    /// use nqueens::estimate::{estimate, Budget, EstimateOptions};
    /// let options = EstimateOptions::new(Budget::Samples(50)).with_threads(2);
    /// let (a, b) = (options.with_seed(7), options.with_seed(8));
    /// assert_ne!(estimate(10, &a).unwrap().estimate_total, estimate(10, &b).unwrap().estimate_total);
    /// ```
    #[must_use]
    pub fn with_seed(self, seed: u64) -> EstimateOptions {
        EstimateOptions { seed, ..self }
    }

    /// These options with `threads` workers.
    ///
    /// ```
    /// use nqueens::estimate::{Budget, EstimateOptions};
    /// assert_eq!(EstimateOptions::default().with_threads(2).count.threads, 2);
    /// ```
    #[must_use]
    pub fn with_threads(self, threads: usize) -> EstimateOptions {
        self.with_count(self.count.with_threads(threads))
    }

    /// These options with `kernel` counting each sample's subtree.
    ///
    /// ```
    /// use nqueens::estimate::EstimateOptions;
    /// use nqueens::Kernel;
    /// let options = EstimateOptions::default().with_kernel(Kernel::DepthFirst);
    /// assert_eq!(options.count.kernel, Kernel::DepthFirst);
    /// ```
    #[must_use]
    pub fn with_kernel(self, kernel: Kernel) -> EstimateOptions {
        self.with_count(self.count.with_kernel(kernel))
    }

    /// These options with `count` saying how the work is done (threads, kernel, and how an
    /// exact count is made).
    ///
    /// ```
    /// use nqueens::estimate::EstimateOptions;
    /// use nqueens::{CountOptions, Kernel, Strategy};
    /// let count = CountOptions::new(2, Strategy::Mirror).with_kernel(Kernel::DepthFirst);
    /// let options = EstimateOptions::default().with_count(count);
    /// assert_eq!((options.count.threads, options.count.kernel), (2, Kernel::DepthFirst));
    /// ```
    #[must_use]
    pub fn with_count(self, count: CountOptions) -> EstimateOptions {
        EstimateOptions { count, ..self }
    }

    /// These options with a time budget that may end early (`true`, the default) or is spent
    /// on samples whole (`false`).
    ///
    /// ```
    /// use std::time::Duration;
    /// use nqueens::estimate::{estimate, Budget, EstimateOptions, StopReason};
    /// let budget = Budget::Time(Duration::from_millis(300));
    /// let options = EstimateOptions::new(budget).with_threads(1);
    /// // A small board is counted exactly, long before the budget is spent.
    /// let counted = estimate(10, &options).unwrap();
    /// assert_eq!((counted.stopped, counted.estimate_total), (StopReason::Counted, 724.0));
    /// let sampled = estimate(10, &options.with_early_stop(false)).unwrap();
    /// assert_eq!(sampled.stopped, StopReason::Budget);
    /// ```
    #[must_use]
    pub fn with_early_stop(self, early_stop: bool) -> EstimateOptions {
        EstimateOptions { early_stop, ..self }
    }
}

impl Default for EstimateOptions {
    /// A minute of samples (the command's default), seed 1, every logical CPU, the fastest
    /// kernel.
    fn default() -> EstimateOptions {
        EstimateOptions::new(Budget::Time(Duration::from_secs(60)))
    }
}

/// Why an estimate ended.
///
/// ```
/// use nqueens::estimate::StopReason;
/// assert_eq!(StopReason::Counted.to_string(), "counted exactly: cheaper than sampling");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
#[non_exhaustive]
pub enum StopReason {
    /// The fixed number of samples ([`Budget::Samples`]) was drawn.
    Samples,
    /// The time budget was spent.
    #[default]
    Budget,
    /// The samples had done the work of a full count: more would cost more than counting.
    Covered,
    /// Counting exactly took less than the budget left, so the board was counted: the total
    /// (and the unique count, when the count made it) is exact, its interval a point, and the
    /// core time is the count's wall time on its threads.
    Counted,
    /// The stop flag was raised: the estimate rests on the samples drawn until then (the rounds
    /// of samples that were whole when the flag was seen, each spread over all the strata),
    /// fewer than the budget would have drawn, so its interval is wider.
    Stopped,
}

impl std::fmt::Display for StopReason {
    /// The reason, padded to the formatter's width.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.pad(match self {
            StopReason::Samples => "drew the samples asked for",
            StopReason::Budget => "spent the time budget",
            StopReason::Covered => "the samples had done the work of a full count",
            StopReason::Counted => "counted exactly: cheaper than sampling",
            StopReason::Stopped => "stopped before the end of its budget",
        })
    }
}

/// What an estimate reads of its [`RunControl`], with the instant its budget started.
#[derive(Clone, Copy, Default)]
struct Control<'a> {
    stop: Option<&'a AtomicBool>,
    watcher: Option<&'a dyn Watcher>,
    pool: Option<&'a rayon::ThreadPool>,
    started: Option<Instant>,
}

impl<'a> Control<'a> {
    /// The parts of `control` an estimate uses; its budget started at `started`.
    fn of(control: &RunControl<'a>, started: Instant) -> Control<'a> {
        Control {
            stop: control.stop,
            watcher: control.watcher,
            pool: control.pool,
            started: Some(started),
        }
    }

    fn stopped(&self) -> bool {
        self.stop.is_some_and(|stop| stop.load(Ordering::Relaxed))
    }

    fn tell(&self, progress: impl FnOnce() -> EstimateProgress) {
        if let Some(watcher) = self.watcher {
            watcher.sampled(&progress());
        }
    }
}

/// How a time budget's sampling ended: its samples, or a decision to count instead.
enum Sampled {
    Probes(Sample, StopReason),
    CountInstead(Sample),
}

/// A random sample of one plan's work, ready to estimate from.
///
/// The plan is made once, when the estimator is built (a large one held by its task ids: 17
/// bytes a task, 38 MB at n = 32, see [`Plan::tasks`](crate::Plan::tasks)), and it is the
/// plan a watcher is told. Each estimate draws its own samples.
///
/// ```
/// use nqueens::estimate::{Budget, EstimateOptions, Estimator};
/// use nqueens::Kernel;
/// let estimator = Estimator::new(10, Kernel::Auto).unwrap();
/// let options = |seed| EstimateOptions::new(Budget::Samples(100)).with_seed(seed).with_threads(1);
/// let first = estimator.estimate(&options(1)).unwrap();
/// let other = estimator.estimate(&options(2)).unwrap();
/// assert_eq!((first.seed, other.seed), (1, 2));
/// // The same seed draws the same samples.
/// assert_eq!(estimator.estimate(&options(1)).unwrap().estimate_total, first.estimate_total);
/// ```
#[derive(Clone, Debug)]
pub struct Estimator {
    n: u32,
    sampler: Sampler,
    kernel: Kernel,
    walls: Walls,
}

/// The sums of one round of samples (nothing is kept per sample).
#[derive(Clone, Copy, Debug, Default)]
#[non_exhaustive]
pub(crate) struct Sample {
    /// The samples' estimates of the total.
    pub total: StratifiedSums,
    /// The samples' estimates of the core time of a full count.
    pub cost: StratifiedSums,
    /// Processor seconds the samples' exact counts took.
    pub measured: f64,
    /// Wall-clock time of the sample.
    pub elapsed: Duration,
}

impl Sample {
    /// Adds the sums of `other` (disjoint groups of the same sample, or another sample).
    fn merge(&mut self, other: &Sample) {
        self.total.merge(&other.total);
        self.cost.merge(&other.cost);
        self.measured += other.measured;
    }
}

/// `seconds` as a time: none below zero (or not a number), and at most [`Duration::MAX`] (an
/// estimate of a board far beyond reach).
pub(crate) fn time(seconds: f64) -> Duration {
    Duration::try_from_secs_f64(seconds.max(0.0)).unwrap_or(Duration::MAX)
}

/// An estimate of one board.
///
/// ```
/// use nqueens::estimate::{estimate, Budget, EstimateOptions};
/// use nqueens::{Kernel, Strategy};
/// let options = EstimateOptions::new(Budget::Samples(200)).with_seed(7).with_threads(1);
/// let e = estimate(10, &options).unwrap();
/// assert_eq!((e.n, e.strategy, e.samples, e.seed), (10, Strategy::Symmetric, 200, 7));
/// assert_ne!(e.kernel, Kernel::Auto);
/// assert!(e.total_low <= e.estimate_total && e.estimate_total <= e.total_high);
/// assert_eq!(e.estimate_unique, e.estimate_total / 8.0);
/// assert_eq!(e.known_total, Some(724)); // a board this small is in the table
/// ```
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct Estimate {
    /// Board size.
    pub n: u32,
    /// The plan sampled.
    pub strategy: Strategy,
    /// The kernel that counted the samples (and whose cost is estimated).
    pub kernel: Kernel,
    /// The seed of the samples' random streams.
    pub seed: u64,
    /// Number of samples.
    pub samples: u64,
    /// Threads the samples ran on, and the thread count of `wall_time`.
    pub threads: usize,
    /// Tasks in the plan.
    pub tasks: usize,
    /// Free rows each sample left to its exact count.
    pub free_rows: u32,
    /// The estimated total number of solutions; `total` in serde's output (which reads
    /// `estimate_total` too), a whole number like every estimated count there.
    #[cfg_attr(
        feature = "serde",
        serde(
            rename = "total",
            alias = "estimate_total",
            with = "crate::serde_util::whole"
        )
    )]
    pub estimate_total: f64,
    /// Lower end of the total's 95% interval (never below 0).
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_util::whole"))]
    pub total_low: f64,
    /// Upper end of the total's 95% interval.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_util::whole"))]
    pub total_high: f64,
    /// Half-width of the total's interval over the estimate.
    pub total_relative_half_width: f64,
    /// The estimated number of unique solutions: the total over 8 (the exact unique count when
    /// the board was [counted](StopReason::Counted) and the count made it); `unique` in serde's
    /// output (which reads `estimate_unique` too).
    #[cfg_attr(
        feature = "serde",
        serde(
            rename = "unique",
            alias = "estimate_unique",
            with = "crate::serde_util::whole"
        )
    )]
    pub estimate_unique: f64,
    /// Lower end of the unique count's 95% interval.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_util::whole"))]
    pub unique_low: f64,
    /// Upper end of the unique count's 95% interval.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_util::whole"))]
    pub unique_high: f64,
    /// The predicted core time of a full count with this kernel on this machine: its
    /// workers' time in the tasks, summed (the count's `core_time`, predicted; a number of
    /// seconds in serde's output, as every time below).
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_util::seconds"))]
    pub core_time: Duration,
    /// Lower end of the core time's 95% interval.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_util::seconds"))]
    pub core_time_low: Duration,
    /// Upper end of the core time's 95% interval.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_util::seconds"))]
    pub core_time_high: Duration,
    /// The predicted wall time of a full count on `threads` threads (the count's
    /// `wall_time`, predicted).
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_util::seconds"))]
    pub wall_time: Duration,
    /// The predicted wall time on 64 cores.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_util::seconds"))]
    pub wall_time_64: Duration,
    /// The predicted wall time on 1024 cores.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_util::seconds"))]
    pub wall_time_1024: Duration,
    /// The predicted wall time on 10 000 cores.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_util::seconds"))]
    pub wall_time_10000: Duration,
    /// The largest task's share of the work, from the plan's size estimate: with more cores
    /// than its inverse, that task alone sets the wall time.
    pub largest_task_share: f64,
    /// Fraction of a full count's work the samples did (their time over `core_time`); 1
    /// when the board was counted exactly.
    pub covered_fraction: f64,
    /// Why the sampling ended (with the `serde` feature, `"budget"` when absent).
    #[cfg_attr(feature = "serde", serde(default))]
    pub stopped: StopReason,
    /// Wall-clock time the sampling took, pilot runs included (building the plan not);
    /// `seconds` in serde's output, a number.
    #[cfg_attr(
        feature = "serde",
        serde(rename = "seconds", with = "crate::serde_util::seconds")
    )]
    pub elapsed: Duration,
    /// The known total, when the table has it.
    pub known_total: Option<u128>,
}

// The estimator samples every board the kernels' lanes hold, and no other.
const _: () = assert!(Estimator::MAX_N == crate::engine::kernel::MAX_JOB_N);

impl Estimator {
    /// The smallest board the estimator samples (the symmetric plan needs a border).
    pub const MIN_N: u32 = 4;

    /// The largest board the estimator samples (the kernels' 32-bit lanes).
    pub const MAX_N: u32 = 32;

    /// The estimator of the `n`-board's symmetric plan (n from [`Estimator::MIN_N`] to
    /// [`Estimator::MAX_N`]) whose samples are counted by `kernel`.
    ///
    /// # Errors
    ///
    /// [`Error::Estimate`] for a board outside [`Estimator::MIN_N`] to [`Estimator::MAX_N`],
    /// [`Error::KernelUnavailable`] for a kernel this CPU does not run (and, with the `gpu`
    /// feature, `Error::Gpu` for a GPU kernel without a GPU that opens).
    ///
    /// ```
    /// use nqueens::estimate::Estimator;
    /// let estimator = Estimator::new(10, nqueens::Kernel::Auto).unwrap();
    /// assert!(Estimator::new(3, nqueens::Kernel::Auto).is_err());
    /// ```
    pub fn new(n: u32, kernel: Kernel) -> Result<Estimator, Error> {
        let board = || {
            Error::Estimate(EstimateError::Board {
                n,
                min: Self::MIN_N,
                max: Self::MAX_N,
            })
        };
        if !(Self::MIN_N..=Self::MAX_N).contains(&n) {
            return Err(board());
        }
        let selected = kernel.select()?;
        // The sampler holds the plan (a large one by its tasks' ids).
        let sampler = Sampler::new(n, default_free_rows(n), selected).ok_or_else(board)?;
        Ok(Estimator {
            n,
            walls: Walls::new(sampler.probabilities()),
            sampler,
            kernel: selected.kernel(),
        })
    }

    /// This estimator with samples that descend to `free_rows` free rows instead of
    /// the default (to test the descent on boards where the default does not descend).
    #[cfg(test)]
    pub(crate) fn with_free_rows(self, free_rows: u32) -> Estimator {
        Estimator {
            sampler: self.sampler.with_free_rows(free_rows),
            ..self
        }
    }

    /// The free rows each sample leaves for its exact count.
    #[cfg(test)]
    pub(crate) fn free_rows(&self) -> u32 {
        self.sampler.free_rows()
    }

    /// Draws samples `0..samples` under `seed` on `threads` workers.
    #[cfg(test)]
    pub(crate) fn sample(&self, samples: u64, seed: u64, threads: usize) -> Result<Sample, Error> {
        let control = Control::default();
        let before = Progress::since(Instant::now());
        let (sample, _) = self.sample_observed(samples, seed, threads, &control, &before)?;
        Ok(sample)
    }

    /// [`Estimator::sample`], telling `control` how far it is after each round (with the
    /// samples of `before` counted in) and stopping at its stop flag.
    ///
    /// The `samples / 2` groups of neighbouring strata (pairs, the last a triple for an odd
    /// count) are dealt to the rounds in turn, so the samples of the first rounds are spread
    /// over every stratum, and the running estimate the progress reports is one of the whole
    /// total; each round is cut into chunks of whole groups, which the workers draw and sum,
    /// and the chunks' sums are added in chunk order: the same sums, to the bit, on any thread
    /// count. Nothing is kept per sample. Every round is drawn, or the stop flag was raised:
    /// then the sums are those of the rounds drawn whole before it was seen (`true` says so;
    /// none, when it was raised during the first).
    fn sample_observed(
        &self,
        samples: u64,
        seed: u64,
        threads: usize,
        control: &Control<'_>,
        before: &Progress,
    ) -> Result<(Sample, bool), Error> {
        if samples < 2 {
            return Err(Error::Estimate(EstimateError::TooFewSamples {
                samples,
                min: 2,
            }));
        }
        let groups = samples / 2;
        let rounds = (groups / GROUPS_PER_ROUND).clamp(1, MAX_ROUNDS);
        let stop = control.stop;
        let workers = Workers::for_run(threads, false, control.pool)?;
        let sample = workers.run(|width| {
            let started = Instant::now();
            let mut sample = Sample::default();
            for round in 0..rounds {
                // This round's groups: round, round + rounds, round + 2 × rounds, …
                let count = (groups - round).div_ceil(rounds);
                let per_chunk = count.div_ceil(MAX_CHUNKS).max(MIN_CHUNK_GROUPS);
                let chunk = |c: u64| {
                    let first = c * per_chunk;
                    let last = (first + per_chunk).min(count);
                    self.chunk(
                        seed,
                        samples,
                        (first..last).map(|j| round + j * rounds),
                        stop,
                    )
                };
                let chunks = count.div_ceil(per_chunk);
                // The workers take the next chunk in turn; the sums are added in chunk order.
                let next = AtomicU64::new(0);
                let taken = spread(width, || {
                    let mut mine = Vec::new();
                    loop {
                        let c = next.fetch_add(1, Ordering::Relaxed);
                        if c >= chunks {
                            break mine;
                        }
                        mine.push((c, chunk(c)));
                    }
                });
                let mut numbered: Vec<(u64, Sample)> = taken.concat();
                numbered.sort_unstable_by_key(|&(c, _)| c);
                let sums: Vec<Sample> = numbered.into_iter().map(|(_, sum)| sum).collect();
                if control.stopped() {
                    // This round's chunks may be cut short: only the whole rounds count.
                    return (sample, true);
                }
                for part in &sums {
                    sample.merge(part);
                }
                sample.elapsed = started.elapsed();
                control.tell(|| before.with(&sample, samples));
            }
            (sample, false)
        });
        Ok(sample)
    }

    /// Draws the samples of `groups` (of `samples` samples under `seed`) on this thread and
    /// sums them, or stops early (with partial sums) once `stop` is raised. The thread's
    /// processor clock is read once for the whole chunk: each sample's wall time is counted at
    /// the share of the chunk's wall time the thread was running.
    fn chunk(
        &self,
        seed: u64,
        samples: u64,
        groups: impl Iterator<Item = u64>,
        stop: Option<&AtomicBool>,
    ) -> Sample {
        let cpu_started = thread_seconds();
        let wall_started = Instant::now();
        let mut sums = Sample::default();
        let mut cost = StratifiedSums::default();
        let mut elapsed = 0.0;
        for g in groups {
            if stop.is_some_and(|stop| stop.load(Ordering::Relaxed)) {
                break;
            }
            let (mut totals, mut costs) = ([0.0; 3], [0.0; 3]);
            let range = group_bounds(g, samples);
            let m = (range.end - range.start) as usize;
            for (slot, i) in range.enumerate() {
                let probe = self.sampler.probe(seed, i, samples);
                totals[slot] = probe.total;
                costs[slot] = probe.elapsed * probe.scale;
                elapsed += probe.elapsed;
            }
            sums.total.add_group(&totals[..m]);
            cost.add_group(&costs[..m]);
        }
        let wall = wall_started.elapsed().as_secs_f64();
        let running = if wall > 0.0 {
            ((thread_seconds() - cpu_started) / wall).clamp(0.0, 1.0)
        } else {
            1.0
        };
        sums.cost = cost.scaled(running);
        sums.measured = elapsed * running;
        sums
    }

    /// The estimate of the board's total from `sample`, with no cost figures (cheap).
    pub(crate) fn total_of(sample: &Sample) -> stats::MeanEstimate {
        sample.total.estimate().expect("at least two probes")
    }

    /// Samples within `options.budget` and estimates the total, the unique count and the cost
    /// (a time budget counts from this call).
    ///
    /// # Errors
    ///
    /// [`Error::Estimate`] for a budget the estimator cannot use (too few samples for an interval,
    /// a time budget of zero); [`Error::TooManyThreads`] for more threads than
    /// [`max_threads`](crate::max_threads) allows, [`Error::ThreadPool`] when the worker threads
    /// cannot start; the errors of the exact count it makes of a small board ([`count_with`]).
    pub fn estimate(&self, options: &EstimateOptions) -> Result<Estimate, Error> {
        self.estimate_with(options, &RunControl::default())
    }

    /// [`Estimator::estimate`] under `control` (a time budget counts from this call), as
    /// [`estimate_with`] is: it stops at the control's stop flag, keeping the samples drawn, tells
    /// its watcher how the work goes, and runs on its pool.
    ///
    /// # Errors
    ///
    /// As [`Estimator::estimate`], and [`Error::Stopped`] when the stop flag is raised before
    /// two samples are drawn.
    ///
    /// ```
    /// use std::sync::Mutex;
    /// use nqueens::estimate::{Budget, EstimateOptions, EstimateProgress, Estimator};
    /// use nqueens::{RunControl, Watcher};
    /// // Told after each round of samples.
    /// struct Seen(Mutex<Vec<u64>>);
    /// impl Watcher for Seen {
    ///     fn sampled(&self, p: &EstimateProgress) {
    ///         self.0.lock().unwrap().push(p.samples_done);
    ///     }
    /// }
    /// let estimator = Estimator::new(12, nqueens::Kernel::Auto).unwrap();
    /// let options = EstimateOptions::new(Budget::Samples(1000)).with_seed(3).with_threads(1);
    /// let seen = Seen(Mutex::new(Vec::new()));
    /// let watched = estimator.estimate_with(&options, &RunControl::default().with_watcher(&seen)).unwrap();
    /// let seen = seen.0.into_inner().unwrap();
    /// assert!(seen.len() > 1 && seen.windows(2).all(|w| w[0] < w[1]));
    /// assert_eq!(seen.last(), Some(&1000));
    /// // The same estimate as without it.
    /// let plain = estimator.estimate(&options).unwrap();
    /// assert_eq!(watched.estimate_total, plain.estimate_total);
    /// ```
    pub fn estimate_with(
        &self,
        options: &EstimateOptions,
        control: &RunControl<'_>,
    ) -> Result<Estimate, Error> {
        self.estimate_controlled(options, &Control::of(control, Instant::now()))
    }

    /// [`Estimator::estimate_with`] under the parts of a control an estimate reads.
    fn estimate_controlled(
        &self,
        options: &EstimateOptions,
        control: &Control<'_>,
    ) -> Result<Estimate, Error> {
        check_threads(options.count.threads)?;
        if let Some(watcher) = control.watcher {
            watcher.start(self.sampler.plan(), &[]);
        }
        // `0`: as many as the pool the estimate runs on has; the figures use what it gets.
        let options =
            &options.with_threads(Workers::width_for(options.count.threads, control.pool));
        let started = control.started.unwrap_or_else(Instant::now);
        let (sample, stopped) = match options.budget {
            Budget::Samples(k) => {
                let before = Progress::since(started);
                let (sample, stopped) =
                    self.sample_observed(k, options.seed, options.count.threads, control, &before)?;
                let reason = if stopped {
                    StopReason::Stopped
                } else {
                    StopReason::Samples
                };
                (sample, reason)
            }
            Budget::Time(time) => {
                let clock = || started.elapsed().as_secs_f64();
                match self.sample_for(time, options, control, started, &clock)? {
                    Sampled::Probes(sample, stopped) => (sample, stopped),
                    Sampled::CountInstead(sample) => {
                        return self.count_exactly(&sample, options, control, started);
                    }
                }
            }
        };
        // Stopped before a round of probes was whole: nothing to estimate from.
        if sample.total.draws < 2 {
            return Err(Error::Stopped);
        }
        Ok(self.summarise(&sample, options, stopped, started.elapsed()))
    }

    /// Whole rounds of samples within `budget` from `started`: pilot runs of growing size until
    /// one takes a thirtieth of the budget, then rounds of about a thirty-second of what is
    /// left, the last sized to the time left (each pilot and round a stratified draw under a
    /// stream of its own; their sums add up to the mean of all their samples, as unbiased as each).
    /// Between rounds, with [`EstimateOptions::early_stop`], it decides to count the board
    /// instead when that would take less than the time left, or stops once the samples have
    /// done the work of a full count.
    ///
    /// `clock` reads the seconds spent since `started` (the wall clock, or a simulated one in
    /// the tests).
    fn sample_for(
        &self,
        budget: Duration,
        options: &EstimateOptions,
        control: &Control<'_>,
        started: Instant,
        clock: &dyn Fn() -> f64,
    ) -> Result<Sampled, Error> {
        let seconds = budget.as_secs_f64();
        if budget.is_zero() {
            return Err(Error::Estimate(EstimateError::NoTime));
        }
        let (seed, threads) = (options.seed, options.count.threads);
        let left = || seconds - clock();
        let mut sample = Sample::default();
        // Decides, after a whole sample, whether to end: `Some` ends.
        let decide = |sample: &Sample| -> Option<Sampled> {
            if !options.early_stop {
                return None;
            }
            let cost = sample.cost.estimate()?;
            let (_, cost_high) = cost.interval();
            if self.count_wall_seconds(cost_high, threads) < left() {
                return Some(Sampled::CountInstead(*sample));
            }
            (sample.measured >= cost.mean).then_some(Sampled::Probes(*sample, StopReason::Covered))
        };
        // Pilots of growing size until one takes a thirtieth of the budget: the rate of the
        // last one sizes the rounds.
        let mut pilot_k = 16 * threads.max(1) as u64;
        let mut per_probe = 0.0;
        for pilot in 0u64.. {
            let before = Progress::since(started).sizing().after(&sample);
            let stream = stream_of(seed, PILOT_STREAM, pilot);
            let t0 = clock();
            let (part, stopped) =
                self.sample_observed(pilot_k, stream, threads, control, &before)?;
            let took = clock() - t0;
            per_probe = took / pilot_k as f64;
            sample.merge(&part);
            if stopped {
                return Ok(Sampled::Probes(sample, StopReason::Stopped));
            }
            if let Some(end) = decide(&sample) {
                return Ok(end);
            }
            if took >= seconds / 30.0 || left() <= seconds * 0.9 {
                break;
            }
            pilot_k *= 4;
        }
        let round_k = ((left() / ROUNDS_PER_BUDGET / per_probe.max(1e-9)) as u64).max(pilot_k);
        for round in 0u64.. {
            // The last round fits what is left; none starts with less than a quarter round left.
            let fits = (left() / per_probe.max(1e-9)) as u64;
            if fits < (round_k / 4).max(2) {
                break;
            }
            let k = round_k.min(fits);
            let before = Progress::since(started).after(&sample);
            let stream = stream_of(seed, ROUND_STREAM, round);
            let t0 = clock();
            let (part, stopped) = self.sample_observed(k, stream, threads, control, &before)?;
            // The rate of the last round sizes the rest.
            per_probe = (clock() - t0) / k as f64;
            sample.merge(&part);
            if stopped {
                return Ok(Sampled::Probes(sample, StopReason::Stopped));
            }
            if let Some(end) = decide(&sample) {
                return Ok(end);
            }
        }
        Ok(Sampled::Probes(sample, StopReason::Budget))
    }

    /// Modelled wall seconds of counting the board exactly with `threads` workers, at
    /// `core_seconds` of work (the load-balance bound, plus a part for starting and the
    /// largest task).
    fn count_wall_seconds(&self, core_seconds: f64, threads: usize) -> f64 {
        let per_thread = core_seconds / threads.max(1) as f64;
        1.25 * per_thread.max(core_seconds * self.walls.largest_share()) + 0.01
    }

    /// Counts the board exactly (what the sample so far, `pilot`, showed to be cheaper than
    /// sampling on) and reports it as an estimate with a point interval.
    fn count_exactly(
        &self,
        pilot: &Sample,
        options: &EstimateOptions,
        control: &Control<'_>,
        started: Instant,
    ) -> Result<Estimate, Error> {
        let count_options = options.count.with_kernel(self.kernel);
        let run_control = RunControl {
            stop: control.stop,
            pool: control.pool,
            ..RunControl::default()
        };
        let run = count_with(self.n, &count_options, &run_control)?;
        if !run.complete {
            // Stopped: the samples that chose the count are the estimate.
            return Ok(self.summarise(pilot, options, StopReason::Stopped, started.elapsed()));
        }
        let counts = run.counts;
        let total = counts.total as f64;
        let wall = counts.wall_time.as_secs_f64();
        let core_seconds = wall * options.count.threads as f64;
        let clusters = self.walls.on_clusters(core_seconds);
        let core_time = time(core_seconds);
        let unique = counts.unique.map_or(total / 8.0, |u| u as f64);
        Ok(Estimate {
            n: self.n,
            strategy: Strategy::Symmetric,
            kernel: self.kernel,
            seed: options.seed,
            samples: pilot.total.draws,
            threads: options.count.threads,
            tasks: self.sampler.len(),
            free_rows: self.sampler.free_rows(),
            estimate_total: total,
            total_low: total,
            total_high: total,
            total_relative_half_width: 0.0,
            estimate_unique: unique,
            unique_low: unique,
            unique_high: unique,
            // Counted: the interval is the point.
            core_time,
            core_time_low: core_time,
            core_time_high: core_time,
            wall_time: counts.wall_time,
            wall_time_64: time(clusters[0]),
            wall_time_1024: time(clusters[1]),
            wall_time_10000: time(clusters[2]),
            largest_task_share: self.walls.largest_share(),
            covered_fraction: 1.0,
            stopped: StopReason::Counted,
            elapsed: started.elapsed(),
            known_total: known::Known::of(self.n).map(|k| k.total),
        })
    }

    /// The estimate from `sample`.
    fn summarise(
        &self,
        sample: &Sample,
        options: &EstimateOptions,
        stopped: StopReason,
        took: Duration,
    ) -> Estimate {
        let total = Self::total_of(sample);
        let cost = sample.cost.estimate().expect("at least two probes");
        // A count and a time are never negative: an interval's lower end stops at 0.
        let (total_low, total_high) = total.interval();
        let total_low = total_low.max(0.0);
        let (cost_low, cost_high) = cost.interval();
        let cost_low = cost_low.max(0.0);
        let clusters = self.walls.on_clusters(cost.mean);
        let measured = sample.measured;
        Estimate {
            n: self.n,
            strategy: Strategy::Symmetric,
            kernel: self.kernel,
            seed: options.seed,
            samples: sample.total.draws,
            threads: options.count.threads,
            tasks: self.sampler.len(),
            free_rows: self.sampler.free_rows(),
            estimate_total: total.mean,
            total_low,
            total_high,
            total_relative_half_width: (total_high - total.mean) / total.mean.abs().max(1.0),
            estimate_unique: total.mean / 8.0,
            unique_low: total_low / 8.0,
            unique_high: total_high / 8.0,
            core_time: time(cost.mean),
            core_time_low: time(cost_low),
            core_time_high: time(cost_high),
            wall_time: time(walls::on_threads(
                self.sampler.probabilities(),
                cost.mean,
                options.count.threads,
            )),
            wall_time_64: time(clusters[0]),
            wall_time_1024: time(clusters[1]),
            wall_time_10000: time(clusters[2]),
            largest_task_share: self.walls.largest_share(),
            covered_fraction: if cost.mean > 0.0 {
                measured / cost.mean
            } else {
                1.0
            },
            stopped,
            elapsed: took,
            known_total: known::Known::of(self.n).map(|k| k.total),
        }
    }
}

/// The stream of the seed that pilot or round `index` of a time budget draws from (`kind`
/// tells pilots from rounds): every whole sample draws numbers of its own.
fn stream_of(seed: u64, kind: u64, index: u64) -> u64 {
    seed ^ kind ^ index.wrapping_add(1).wrapping_mul(0x9e37_79b9_7f4a_7c15)
}

/// What the samples before the one being drawn add to its progress reports.
#[derive(Clone, Copy, Debug)]
struct Progress {
    started: Instant,
    before: Sample,
    sizing: bool,
}

impl Progress {
    /// Nothing before, the clock from `started`.
    fn since(started: Instant) -> Progress {
        Progress {
            started,
            before: Sample::default(),
            sizing: false,
        }
    }

    /// These reports while a pilot run sizes the rounds: no sample size yet.
    fn sizing(self) -> Progress {
        Progress {
            sizing: true,
            ..self
        }
    }

    /// These reports with the samples of `before` counted in.
    fn after(self, before: &Sample) -> Progress {
        Progress {
            before: *before,
            ..self
        }
    }

    /// The progress with `sample` of `samples` samples drawn.
    fn with(&self, sample: &Sample, samples: u64) -> EstimateProgress {
        let mut all = self.before;
        all.merge(sample);
        EstimateProgress {
            samples_done: all.total.draws,
            samples: if self.sizing {
                0
            } else {
                self.before.total.draws + samples
            },
            elapsed: self.started.elapsed(),
            total: all.total.estimate().map(|m| {
                let (low, high) = m.interval();
                (m.mean, low.max(0.0), high)
            }),
        }
    }
}

/// Estimates the `n`-board with `options` (see [`Estimator`]); a time budget counts from this
/// call, building the plan included. [`estimate_with`] is the same under a [`RunControl`]: a
/// stop flag, a watcher, a pool.
///
/// # Errors
///
/// [`Error::Estimate`] for a board outside [`Estimator::MIN_N`] to [`Estimator::MAX_N`] or a budget
/// the estimator cannot use (too few samples for an interval, a time budget of zero);
/// [`Error::KernelUnavailable`] for a kernel this CPU does not run; [`Error::TooManyThreads`] for
/// more threads than [`max_threads`](crate::max_threads) allows, [`Error::ThreadPool`] when the
/// worker threads cannot start.
///
/// ```
/// use nqueens::estimate::{estimate, Budget, EstimateOptions};
/// let options = EstimateOptions::new(Budget::Samples(200)).with_seed(1).with_threads(1);
/// let e = estimate(12, &options).unwrap();
/// assert!(e.total_low < e.estimate_total && e.estimate_total < e.total_high);
/// ```
pub fn estimate(n: u32, options: &EstimateOptions) -> Result<Estimate, Error> {
    estimate_with(n, options, &RunControl::default())
}

/// [`estimate`] under `control`, the control of a count: its stop flag ends the estimate at
/// the next group of samples, which returns what the samples drawn show
/// ([`StopReason::Stopped`]); its watcher is told the plan once it is built
/// ([`Watcher::start`], with no task resumed: the plan the samples are drawn from) and
/// then how the work goes
/// ([`Watcher::sampled`]); its pool is where the samples (and an exact count, see
/// [`StopReason::Counted`]) run, by [`RunControl::pool`]'s rule. The journal and the shard are
/// a count's and are not read.
///
/// # Errors
///
/// The errors of [`estimate`], and [`Error::Stopped`] when the stop flag is raised before two
/// samples are drawn (there is then nothing to estimate from).
///
/// ```
/// use std::sync::atomic::{AtomicBool, Ordering};
/// use nqueens::estimate::{estimate_with, Budget, EstimateOptions, EstimateProgress, StopReason};
/// use nqueens::{RunControl, Watcher};
/// // Raises the stop flag once a round of samples is drawn.
/// struct StopSoon(AtomicBool);
/// impl Watcher for StopSoon {
///     fn sampled(&self, _: &EstimateProgress) {
///         self.0.store(true, Ordering::Relaxed);
///     }
/// }
/// let watcher = StopSoon(AtomicBool::new(false));
/// let control = RunControl::default().with_stop(&watcher.0).with_watcher(&watcher);
/// let options = EstimateOptions::new(Budget::Samples(100_000)).with_threads(1);
/// let e = estimate_with(12, &options, &control).unwrap();
/// assert_eq!(e.stopped, StopReason::Stopped);
/// assert!(e.samples > 0 && e.samples < 100_000);
/// assert!(e.total_low <= e.estimate_total && e.estimate_total <= e.total_high);
///
/// // Raised before it starts: no sample is drawn, there is no estimate.
/// let stop = AtomicBool::new(true);
/// let control = RunControl::default().with_stop(&stop);
/// assert!(matches!(estimate_with(12, &options, &control), Err(nqueens::Error::Stopped)));
/// ```
pub fn estimate_with(
    n: u32,
    options: &EstimateOptions,
    control: &RunControl<'_>,
) -> Result<Estimate, Error> {
    // A time budget covers building the plan.
    let started = Instant::now();
    let estimator = Estimator::new(n, options.count.kernel)?;
    estimator.estimate_controlled(options, &Control::of(control, started))
}
