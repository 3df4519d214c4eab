//! Why the engine refuses or fails: planning a board, choosing a kernel, starting the workers,
//! running a plan, deriving a unique count.

use super::kernel::Kernel;
#[cfg(feature = "gpu")]
use super::kernel::gpu::GpuError;

/// Why the engine (a plan, a kernel, the worker threads, a run) refused or failed.
///
/// It sits below the library's [`Error`](crate::Error), which has a variant of the same name for
/// each of these, and `?` turns one into the other:
///
/// ```
/// use nqueens::{EngineError, Error, Plan, Strategy};
/// let error = Plan::new(65, Strategy::Mirror, 1).unwrap_err();
/// assert_eq!(error, EngineError::BoardTooLarge { n: 65 });
/// assert_eq!(error.to_string(), "n = 65 is too large: the largest board is 64 x 64");
///
/// fn plan(n: u32) -> Result<usize, Error> {
///     Ok(Plan::new(n, Strategy::Mirror, 1)?.tasks().len())
/// }
/// assert!(matches!(plan(65), Err(Error::BoardTooLarge { n: 65 })));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum EngineError {
    /// The board is wider than the 64-bit masks can hold.
    #[error("n = {n} is too large: the largest board is 64 x 64")]
    BoardTooLarge {
        /// The requested side.
        n: u32,
    },
    /// A thread count of zero was asked for.
    #[error("the thread count must be at least 1")]
    ZeroThreads,
    /// More worker threads were asked for than [`max_threads`](crate::max_threads) allows.
    #[error("{threads} threads are too many: at most {max} on this machine")]
    TooManyThreads {
        /// The thread count asked for.
        threads: usize,
        /// The most this machine allows ([`max_threads`](crate::max_threads)).
        max: usize,
    },
    /// The thread pool could not be built.
    #[error("could not start the worker threads: {0}")]
    ThreadPool(String),
    /// A sum exceeded `u128` (unreachable for any board that can finish; checked all the same).
    #[error("the solution count overflowed 128 bits")]
    Overflow,
    /// A kernel was asked for on a CPU that cannot run it.
    #[error(
        "the {kernel} kernel needs instructions this CPU lacks (this CPU runs: {})",
        names(.available)
    )]
    KernelUnavailable {
        /// The kernel asked for.
        kernel: Kernel,
        /// The kernels this CPU runs, as [`Kernel::available`] lists them.
        available: Vec<Kernel>,
    },
    /// Counts that must agree do not (an internal error: a total that is not the board's true
    /// total).
    #[error("inconsistent counts: {0}")]
    Inconsistent(String),
    /// A plan that does not describe its board: no task, or a task of another board.
    #[error("invalid plan: {0}")]
    InvalidPlan(String),
    /// The unique count of a board above [`UNIQUE_MAX_N`](crate::UNIQUE_MAX_N) was asked for:
    /// the symmetric searches it needs grow about tenfold every two rows.
    #[error(
        "the unique count of n = {n} is beyond reach: its symmetric searches take about a minute \
         at n = 28 and ten times longer every two rows; it is computed up to n = {max}"
    )]
    UniqueBeyondReach {
        /// The board asked for.
        n: u32,
        /// The largest board whose unique count is computed ([`UNIQUE_MAX_N`](crate::UNIQUE_MAX_N)).
        max: u32,
    },
    /// A search was stopped by its stop flag before it finished.
    #[error("the search was stopped before it finished")]
    Stopped,
    /// A GPU kernel was asked for and no GPU can count (no adapter, or it failed to open).
    #[cfg(feature = "gpu")]
    #[error(transparent)]
    Gpu(#[from] GpuError),
}

/// The kernels' names, comma-separated.
pub(crate) fn names(kernels: &[Kernel]) -> String {
    kernels
        .iter()
        .map(|k| k.name())
        .collect::<Vec<_>>()
        .join(", ")
}
