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
//! work by before starting it ([`cost::Cost`]), made anew on each call.

mod clock;
pub mod cost;
mod estimator;
mod options;
pub(crate) mod probe;
mod result;
mod rng;
#[cfg(test)]
mod sample_tests;
pub(crate) mod stats;
mod walls;

use std::time::Instant;

pub use crate::count::EstimateProgress;
use crate::count::RunControl;
use crate::error::Error;
pub use crate::error::estimate::EstimateError;
use estimator::Control;
pub use estimator::Estimator;
pub use options::{Budget, EstimateOptions, StopReason};
pub use result::Estimate;
pub(crate) use result::time;

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
/// use nqueens::estimation::{estimate, Budget, EstimateOptions};
/// let options = EstimateOptions::new(Budget::Samples(200)).with_seed(1).with_threads(1);
/// let e = estimate(12, &options).unwrap();
/// assert!(e.total_low < e.estimate_total && e.estimate_total < e.total_high);
/// ```
pub fn estimate(n: u32, options: &EstimateOptions) -> Result<Estimate, Error> {
    estimate_with(n, options, &RunControl::default())
}

/// [`estimate`] under `control`, the control of a count: its stop flag ends the estimate at the
/// next group of samples, which returns what the samples drawn show ([`StopReason::Stopped`]); its
/// watcher is told the plan once it is built ([`Watcher::start`](crate::Watcher::start), with no
/// task resumed: the plan the samples are drawn from) and then how the work goes
/// ([`Watcher::sampled`](crate::Watcher::sampled)); its pool is where the samples (and an exact
/// count, see [`StopReason::Counted`]) run, by [`RunControl::pool`]'s rule. The journal and the
/// shard are a count's and are not read.
///
/// # Errors
///
/// The errors of [`estimate`], and [`Error::Stopped`] when the stop flag is raised before two
/// samples are drawn (there is then nothing to estimate from).
///
/// ```
/// use std::sync::atomic::{AtomicBool, Ordering};
/// use nqueens::estimation::{estimate_with, Budget, EstimateOptions, EstimateProgress, StopReason};
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
