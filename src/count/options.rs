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
/// With the `serde` feature a field left out takes its value in [`CountOptions::default`], and
/// the kernel and the strategy are read by name, in any case:
///
/// ```
/// # #[cfg(feature = "serde")] {
/// use nqueens::{CountOptions, Kernel, Strategy};
/// let options: CountOptions = serde_json::from_str(r#"{"threads": 2}"#).unwrap();
/// assert_eq!(options, CountOptions::default().with_threads(2));
/// let options: CountOptions = serde_json::from_str(r#"{"kernel": "Depth-First"}"#).unwrap();
/// assert_eq!(options.kernel, Kernel::DepthFirst);
/// assert_eq!(serde_json::from_str::<CountOptions>("{}").unwrap(), CountOptions::default());
/// # }
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(default))]
#[non_exhaustive]
pub struct CountOptions {
    /// Worker threads (at least 1).
    pub threads: usize,
    /// How the board is split into tasks.
    pub strategy: Strategy,
    /// Which kernel counts the tasks (the counts never depend on it).
    pub kernel: Kernel,
}

impl CountOptions {
    /// `threads` workers, `strategy`, the fastest kernel.
    ///
    /// ```
    /// use nqueens::{CountOptions, Kernel, Strategy};
    /// let options = CountOptions::new(2, Strategy::Mirror);
    /// assert_eq!(options.kernel, Kernel::Auto);
    /// ```
    pub const fn new(threads: usize, strategy: Strategy) -> CountOptions {
        CountOptions {
            threads,
            strategy,
            kernel: Kernel::Auto,
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
    pub const fn with_kernel(self, kernel: Kernel) -> CountOptions {
        CountOptions { kernel, ..self }
    }

    /// These options with `threads` workers.
    ///
    /// ```
    /// use nqueens::CountOptions;
    /// assert_eq!(CountOptions::default().with_threads(3).threads, 3);
    /// ```
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
    pub const fn with_strategy(self, strategy: Strategy) -> CountOptions {
        CountOptions { strategy, ..self }
    }
}

impl Default for CountOptions {
    /// Every logical CPU, the default strategy, the fastest kernel.
    fn default() -> Self {
        CountOptions::new(num_cpus::get(), Strategy::default())
    }
}
