//! What to count with: threads, strategy, kernel.

use crate::engine::kernel::Kernel;
use crate::engine::plan::Strategy;

/// How to count: worker threads, decomposition strategy and kernel.
///
/// The options change how fast a board is counted, never what is counted.
///
/// ```
/// use nqueens::{count, CountOptions, Kernel, Strategy};
/// let options = CountOptions::new(2, Strategy::Mirror).with_kernel(Kernel::DepthFirst);
/// let counts = count(8, &options).unwrap();
/// assert_eq!((counts.total, counts.kernel), (92, Kernel::DepthFirst));
/// assert_eq!(count(8, &CountOptions::default()).unwrap().total, 92);
/// ```
///
/// With the `serde` feature a field left out takes its value in [`CountOptions::default`], a
/// field of another name is an error (a typo is not ignored), and the kernel and the strategy
/// are read by name, in any case:
///
/// ```
/// # #[cfg(feature = "serde")] {
/// use nqueens::{CountOptions, Kernel, Strategy};
/// let options: CountOptions = serde_json::from_str(r#"{"threads": 2}"#).unwrap();
/// assert_eq!(options, CountOptions::default().with_threads(2));
/// let options: CountOptions = serde_json::from_str(r#"{"kernel": "Depth-First"}"#).unwrap();
/// assert_eq!(options.kernel, Kernel::DepthFirst);
/// assert_eq!(serde_json::from_str::<CountOptions>("{}").unwrap(), CountOptions::default());
/// assert!(serde_json::from_str::<CountOptions>(r#"{"thread": 4}"#).is_err());
/// # }
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(default, deny_unknown_fields))]
#[non_exhaustive]
pub struct CountOptions {
    /// Worker threads: at most this many of the workers of the pool the count runs on, `0`
    /// (the default) for all of them, as rayon reads `0` for a pool's size. Called on a worker
    /// of a rayon pool, or given one ([`RunControl::pool`](crate::RunControl::pool)), a count
    /// runs on that pool; outside every pool, on rayon's global pool for `0` and otherwise on
    /// the process's own pool of exactly this many workers (see [`release_pools`]).
    ///
    /// [`release_pools`]: crate::release_pools
    pub threads: usize,
    /// How the board is split into tasks.
    pub strategy: Strategy,
    /// Which kernel counts the tasks (the counts never depend on it).
    pub kernel: Kernel,
    /// Whether a board above [`Counts::UNIQUE_MAX_N`](crate::Counts::UNIQUE_MAX_N) gets its unique count too
    /// (off by default: its symmetric searches take a minute at `n = 28` and about ten times
    /// longer every two rows, so the count's [`Counts::unique`](crate::Counts::unique) is
    /// `None`). Boards up to the bound always get it. Either way the count's stop flag ends the
    /// searches, and a stopped count's unique count is `None`.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "std::ops::Not::not"))]
    pub unique_above_bound: bool,
}

impl CountOptions {
    /// `threads` workers, `strategy`, the fastest kernel.
    ///
    /// ```
    /// use nqueens::{CountOptions, Kernel, Strategy};
    /// let options = CountOptions::new(2, Strategy::Mirror);
    /// assert_eq!(options.kernel, Kernel::Auto);
    /// ```
    #[must_use]
    pub const fn new(threads: usize, strategy: Strategy) -> CountOptions {
        CountOptions {
            threads,
            strategy,
            kernel: Kernel::Auto,
            unique_above_bound: false,
        }
    }
}

impl CountOptions {
    /// These options with `kernel` counting the tasks.
    ///
    /// ```
    /// use nqueens::{count, CountOptions, Kernel, Strategy};
    /// let options = CountOptions::new(2, Strategy::Mirror).with_kernel(Kernel::DepthFirst);
    /// assert_eq!(count(8, &options).unwrap().kernel, Kernel::DepthFirst);
    /// ```
    #[must_use]
    pub const fn with_kernel(self, kernel: Kernel) -> CountOptions {
        CountOptions { kernel, ..self }
    }

    /// These options with `threads` workers.
    ///
    /// ```
    /// use nqueens::CountOptions;
    /// assert_eq!(CountOptions::default().with_threads(3).threads, 3);
    /// ```
    #[must_use]
    pub const fn with_threads(self, threads: usize) -> CountOptions {
        CountOptions { threads, ..self }
    }

    /// These options with `strategy` splitting the board.
    ///
    /// ```
    /// use nqueens::{CountOptions, Strategy};
    /// let options = CountOptions::default().with_strategy(Strategy::Mirror);
    /// assert_eq!(options.strategy, Strategy::Mirror);
    /// ```
    #[must_use]
    pub const fn with_strategy(self, strategy: Strategy) -> CountOptions {
        CountOptions { strategy, ..self }
    }

    /// These options with the unique count made (`true`) or left out (`false`, the default) for
    /// a board above [`Counts::UNIQUE_MAX_N`](crate::Counts::UNIQUE_MAX_N).
    ///
    /// ```
    /// use nqueens::{CountOptions, Counts};
    /// let options = CountOptions::default();
    /// assert!(!options.unique_above_bound);
    /// assert!(options.with_unique_above_bound(true).unique_above_bound);
    /// assert_eq!(Counts::UNIQUE_MAX_N, 27);
    /// ```
    #[must_use]
    pub const fn with_unique_above_bound(self, unique_above_bound: bool) -> CountOptions {
        CountOptions {
            unique_above_bound,
            ..self
        }
    }
}

impl Default for CountOptions {
    /// Every worker of the pool the count runs on (`threads` 0: rayon's global pool, one worker
    /// per logical CPU unless the program set it up otherwise), the default strategy, the
    /// fastest kernel.
    ///
    /// ```
    /// use nqueens::{count, CountOptions};
    /// let pool = rayon::ThreadPoolBuilder::new().num_threads(3).build().unwrap();
    /// let counts = pool.install(|| count(12, &CountOptions::default())).unwrap();
    /// assert_eq!((counts.total, counts.threads), (14_200, 3));
    /// ```
    fn default() -> Self {
        CountOptions::new(0, Strategy::default())
    }
}
