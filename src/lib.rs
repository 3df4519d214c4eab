//! # nqueens
//!
//! Counts the solutions of the N-Queens puzzle — place `n` queens on an `n × n` board so that no
//! two share a row, column or diagonal — as fast as a CPU allows.
//!
//! The engine keeps the columns and both diagonals of a partial board as shifting bit masks,
//! many boards at once in the `u32` lanes of a vector register ([`engine::kernel`]), splits the search into independent weighted subtrees
//! ([`engine::plan`]), and counts them on a pool of worker threads ([`engine::run`]).
//!
//! ```
//! use nqueens::{count, CountOptions, Strategy};
//! let options = CountOptions::new(2, Strategy::Mirror);
//! let counts = count(10, &options).unwrap();
//! assert_eq!(counts.total, 724);
//! assert_eq!(Some(counts.total), nqueens::known::total(10));
//! ```
//!
//! # Features
//!
//! * `cli` (default): the `nqueens` command (`src/main.rs` and `src/cli/`), which reaches the
//!   library only through this API — argument parsing, completions and man pages, output
//!   formats, the progress bar, the scaling plot, interrupt handling. Without it
//!   (`default-features = false`) the library depends on none of clap, clap_complete,
//!   clap_mangen, indicatif, plotters, signal-hook, ctrlc, anstream or tempfile.

#![deny(missing_docs)]
#![deny(clippy::undocumented_unsafe_blocks)]

pub mod board;
pub mod classic;
pub mod construct;
#[doc(hidden)]
pub mod engine;
pub mod enumerate;
mod error;
pub mod estimate;
pub mod journal;
pub mod known;
pub mod names;
pub mod scaling;

use std::time::Duration;

/// Building blocks that the benches, the examples and the integration tests reach into: not part
/// of the supported API (no stability promise), hence hidden from the documentation.
#[doc(hidden)]
pub mod internals {
    pub use crate::estimate::stats::{MeanEstimate, Z95};
    pub use crate::scaling::model::{DEFAULT_WORKERS, ModelPoint, predict};
}

pub use engine::kernel::{Kernel, MAX_N};
pub use engine::plan::{Plan, Strategy, Task, TaskId};
pub use engine::run::TaskOutcome;
pub use error::Error;
pub use journal::{CountRun, RunControl, Watcher, count_with};

/// How to count: worker threads, decomposition strategy and kernel.
///
/// The options change how fast a board is counted, never what is counted.
///
/// ```
/// use nqueens::{count, CountOptions, Kernel, Strategy};
/// let options = CountOptions {
///     threads: 2,
///     strategy: Strategy::Mirror,
///     kernel: Kernel::DepthFirst,
/// };
/// let counts = count(8, &options).unwrap();
/// assert_eq!((counts.total, counts.kernel), (92, Kernel::DepthFirst));
/// assert_eq!(count(8, &CountOptions::default()).unwrap().total, 92);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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
    pub fn new(threads: usize, strategy: Strategy) -> CountOptions {
        CountOptions {
            threads,
            strategy,
            kernel: Kernel::Auto,
        }
    }
}

impl Default for CountOptions {
    /// Every logical CPU, the default strategy, the fastest kernel.
    fn default() -> Self {
        CountOptions::new(num_cpus::get(), Strategy::default())
    }
}

/// The solution counts of one board.
///
/// ```
/// use nqueens::{count, CountOptions, Kernel, Strategy};
/// let counts: nqueens::Counts = count(8, &CountOptions::new(2, Strategy::Symmetric)).unwrap();
/// assert_eq!((counts.n, counts.total, counts.unique), (8, 92, Some(12)));
/// assert!(counts.tasks >= 1);
/// assert_ne!(counts.kernel, Kernel::Auto); // the kernel that ran, not the choice
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Counts {
    /// Board side.
    pub n: u32,
    /// All solutions (OEIS A000170).
    pub total: u128,
    /// Solutions distinct under the 8 symmetries of the square (OEIS A002562), from the total by
    /// Burnside's lemma ([`engine::unique`]); `None` when the total is not the whole board's (a
    /// stopped run, a shard).
    pub unique: Option<u128>,
    /// Number of tasks the board was split into.
    pub tasks: usize,
    /// The kernel that counted the tasks (never [`Kernel::Auto`]).
    pub kernel: Kernel,
    /// Wall-clock time of the search (planning included).
    pub elapsed: Duration,
}

/// Counts the solutions of the `n × n` board with the given options.
///
/// ```
/// let counts = nqueens::count(8, &nqueens::CountOptions::default()).unwrap();
/// assert_eq!((counts.total, counts.unique), (92, Some(12)));
/// ```
pub fn count(n: u32, options: &CountOptions) -> Result<Counts, Error> {
    count_with(n, options, &RunControl::default()).map(|run| run.counts)
}
