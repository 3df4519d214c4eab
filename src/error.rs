//! The library's error type.

/// Everything the library can refuse or fail at.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The board is wider than the 64-bit masks can hold.
    #[error("n = {n} is too large: the largest board is 64 x 64")]
    BoardTooLarge {
        /// The requested side.
        n: u32,
    },
    /// A thread count of zero was asked for.
    #[error("the thread count must be at least 1")]
    ZeroThreads,
    /// The thread pool could not be built.
    #[error("could not start the worker threads: {0}")]
    ThreadPool(String),
    /// A sum exceeded `u128` (unreachable for any board that can finish; checked all the same).
    #[error("the solution count overflowed 128 bits")]
    Overflow,
    /// A checkpoint journal was refused or could not be written.
    #[error(transparent)]
    Checkpoint(#[from] crate::checkpoint::CheckpointError),
    /// A computed solution failed its check (a defect; never expected).
    #[error("internal error: the computed solution is invalid: {0}")]
    InvalidSolution(#[from] crate::board::Conflict),
    /// A kernel was asked for on a CPU that cannot run it.
    #[error(
        "the {kernel} kernel needs instructions this CPU lacks (this CPU runs: {})",
        crate::engine::kernel::Kernel::available()
            .iter()
            .map(|k| k.name())
            .collect::<Vec<_>>()
            .join(", ")
    )]
    KernelUnavailable {
        /// The kernel's name.
        kernel: &'static str,
    },
    /// Counts that must agree do not (an internal error: a total that is not the board's true
    /// total).
    #[error("inconsistent counts: {0}")]
    Inconsistent(String),
    /// An estimate was asked for outside what the estimator samples.
    #[error("{0}")]
    Estimate(String),
}
