//! How to estimate: the budget ([`Budget`]), the options ([`EstimateOptions`]), and why an
//! estimate ended ([`StopReason`]).

use std::time::Duration;

use crate::count::CountOptions;
use crate::engine::kernel::Kernel;
use crate::engine::plan::Strategy;

/// How many samples to draw.
///
/// ```
/// use std::time::Duration;
/// use nqueens::estimation::{estimate, Budget, EstimateOptions};
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
/// use nqueens::estimation::Budget;
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
    /// use nqueens::estimation::Budget;
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
/// use nqueens::estimation::{estimate, Budget, EstimateOptions};
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
    /// use nqueens::estimation::{Budget, EstimateOptions};
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
    /// use nqueens::estimation::{estimate, Budget, EstimateOptions};
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
    /// use nqueens::estimation::{Budget, EstimateOptions};
    /// assert_eq!(EstimateOptions::default().with_threads(2).count.threads, 2);
    /// ```
    #[must_use]
    pub fn with_threads(self, threads: usize) -> EstimateOptions {
        self.with_count(self.count.with_threads(threads))
    }

    /// These options with `kernel` counting each sample's subtree.
    ///
    /// ```
    /// use nqueens::estimation::EstimateOptions;
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
    /// use nqueens::estimation::EstimateOptions;
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
    /// use nqueens::estimation::{estimate, Budget, EstimateOptions, StopReason};
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
/// use nqueens::estimation::StopReason;
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
