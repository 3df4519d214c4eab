//! What an estimate finds ([`Estimate`]).

use std::time::Duration;

use super::options::StopReason;
use crate::engine::kernel::Kernel;
use crate::engine::plan::Strategy;

/// `seconds` as a time: none below zero (or not a number), and at most [`Duration::MAX`] (an
/// estimate of a board far beyond reach).
pub(crate) fn time(seconds: f64) -> Duration {
    Duration::try_from_secs_f64(seconds.max(0.0)).unwrap_or(Duration::MAX)
}

/// An estimate of one board.
///
/// ```
/// use nqueens::estimation::{estimate, Budget, EstimateOptions};
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
