//! The library's error type.

use crate::engine::error::{EngineError, names};
use crate::engine::kernel::Kernel;

/// Everything the library can refuse or fail at.
///
/// New kinds of failure may be added, so a `match` needs a `_` arm.
///
/// ```
/// use nqueens::{count, CountOptions, Error, Strategy};
/// let error = count(65, &CountOptions::default()).unwrap_err();
/// assert!(matches!(error, Error::BoardTooLarge { n: 65 }));
/// assert_eq!(error.to_string(), "n = 65 is too large: the largest board is 64 x 64");
///
/// let error = count(8, &CountOptions::new(0, Strategy::Mirror)).unwrap_err();
/// let advice = match error {
///     Error::ZeroThreads => "ask for at least one thread",
///     Error::BoardTooLarge { .. } => "ask for a smaller board",
///     _ => "see the message",
/// };
/// assert_eq!(advice, "ask for at least one thread");
/// assert_eq!(error.to_string(), "the thread count must be at least 1");
/// ```
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
    /// A shard that does not exist, or more shards than the plan has tasks.
    #[error(transparent)]
    Shard(#[from] crate::journal::ShardError),
    /// A journal was refused or could not be written.
    #[error(transparent)]
    Journal(#[from] crate::journal::JournalError),
    /// A computed solution failed its check (a defect; never expected): the conflict is its
    /// [`source`](std::error::Error::source).
    #[error("internal error: the computed solution is invalid")]
    InvalidSolution(#[from] crate::board::Conflict),
    /// A kernel was asked for on a CPU that cannot run it.
    #[error(
        "the {kernel} kernel needs instructions this CPU lacks (this CPU runs: {})",
        names(.available)
    )]
    KernelUnavailable {
        /// The kernel asked for.
        kernel: Kernel,
        /// The kernels this CPU runs, as [`crate::Kernel::available`] lists them.
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
    /// An estimate was asked for outside what the estimator samples.
    #[error("{0}")]
    Estimate(String),
    /// Journals or runs that cannot be merged ([`journal::merge`](crate::journal::merge),
    /// [`Merged::from_runs`](crate::journal::Merged::from_runs)); a failure of the count
    /// itself inside a merge comes as its own variant.
    #[error(transparent)]
    Merge(Box<crate::journal::MergeError>),
    /// A scaling study was refused or disagreed with the known total
    /// ([`measure`](crate::scaling::study::measure)); a failure of the count itself comes as
    /// its own variant.
    #[error(transparent)]
    Study(Box<crate::scaling::study::StudyError>),
    /// Counts that differ from the known table ([`Counts::check_known`](crate::Counts::check_known),
    /// [`Merged::check_known`](crate::journal::Merged::check_known)): a wrong count.
    #[error(transparent)]
    KnownMismatch(#[from] crate::known::Mismatch),
    /// Workers that cannot be placed on the CPUs asked for
    /// ([`Placement`](crate::placement::Placement)).
    #[error(transparent)]
    Pin(#[from] crate::placement::PinError),
    /// A name that is not one of the choices (a strategy, a kernel, an algorithm).
    #[error(transparent)]
    UnknownName(#[from] crate::names::UnknownName),
    /// Text that is not a task id.
    #[error(transparent)]
    TaskId(#[from] crate::engine::plan::TaskIdError),
    /// A GPU kernel was asked for and no GPU can count (no adapter, or it failed to open).
    #[cfg(feature = "gpu")]
    #[error(transparent)]
    Gpu(#[from] crate::engine::kernel::gpu::GpuError),
}

/// `?` on the engine's errors: each becomes its namesake.
///
/// ```
/// use nqueens::{EngineError, Error};
/// let error = Error::from(EngineError::ZeroThreads);
/// assert!(matches!(error, Error::ZeroThreads));
/// assert_eq!(error.to_string(), EngineError::ZeroThreads.to_string());
/// ```
impl From<EngineError> for Error {
    fn from(error: EngineError) -> Error {
        match error {
            EngineError::BoardTooLarge { n } => Error::BoardTooLarge { n },
            EngineError::ZeroThreads => Error::ZeroThreads,
            EngineError::TooManyThreads { threads, max } => Error::TooManyThreads { threads, max },
            EngineError::ThreadPool(why) => Error::ThreadPool(why),
            EngineError::Overflow => Error::Overflow,
            EngineError::KernelUnavailable { kernel, available } => {
                Error::KernelUnavailable { kernel, available }
            }
            EngineError::Inconsistent(why) => Error::Inconsistent(why),
            EngineError::InvalidPlan(why) => Error::InvalidPlan(why),
            EngineError::UniqueBeyondReach { n, max } => Error::UniqueBeyondReach { n, max },
            EngineError::Stopped => Error::Stopped,
            #[cfg(feature = "gpu")]
            EngineError::Gpu(e) => Error::Gpu(e),
        }
    }
}

/// `?` on a merge: the count's own failures keep their variant, the rest is [`Error::Merge`].
///
/// ```
/// fn total(files: &[std::path::PathBuf]) -> Result<u128, nqueens::Error> {
///     Ok(nqueens::journal::merge(files)?.total)
/// }
/// let error = total(&[]).unwrap_err();
/// assert!(matches!(error, nqueens::Error::Merge(_)));
/// assert_eq!(error.to_string(), "no journals to merge");
/// ```
impl From<crate::journal::MergeError> for Error {
    fn from(error: crate::journal::MergeError) -> Error {
        match error {
            crate::journal::MergeError::Engine(e) => e.into(),
            other => Error::Merge(Box::new(other)),
        }
    }
}

/// `?` on a study: the count's own failures keep their variant, the rest is [`Error::Study`].
///
/// ```
/// use nqueens::scaling::study::{measure, StudyOptions};
/// fn best(n: u32) -> Result<f64, nqueens::Error> {
///     let study = measure(n, &StudyOptions::new(vec![1]).with_repeat(0), &mut |_| {})?;
///     Ok(study.runs[0].median.as_secs_f64())
/// }
/// assert!(matches!(best(8), Err(nqueens::Error::Study(_))));
/// ```
impl From<crate::scaling::study::StudyError> for Error {
    fn from(error: crate::scaling::study::StudyError) -> Error {
        match error {
            crate::scaling::study::StudyError::Engine(e) => e.into(),
            other => Error::Study(Box::new(other)),
        }
    }
}

/// `?` on a disagreeing run: [`Error::Study`].
///
/// ```
/// use nqueens::scaling::study::Mismatch;
/// let mismatch = Mismatch { n: 8, threads: 2, got: 90, expected: 92, source_name: "the table" };
/// assert!(matches!(nqueens::Error::from(mismatch), nqueens::Error::Study(_)));
/// ```
impl From<crate::scaling::study::Mismatch> for Error {
    fn from(error: crate::scaling::study::Mismatch) -> Error {
        Error::Study(Box::new(error.into()))
    }
}

#[cfg(test)]
mod tests {
    use super::{EngineError, Error, Kernel};

    #[test]
    fn an_unavailable_kernel_names_itself_and_the_kernels_this_cpu_runs() {
        // No CPU runs both NEON and AVX2.
        let kernel = Kernel::ALL
            .iter()
            .copied()
            .find(|k| !k.is_available())
            .expect("a kernel this CPU lacks");
        let err = Error::from(kernel.select().unwrap_err());
        let Error::KernelUnavailable {
            kernel: asked,
            available,
        } = &err
        else {
            panic!("{err:?}");
        };
        assert_eq!((*asked, available), (kernel, &Kernel::available()));
        let names: Vec<&str> = available.iter().map(|k| k.name()).collect();
        assert_eq!(
            err.to_string(),
            format!(
                "the {kernel} kernel needs instructions this CPU lacks (this CPU runs: {})",
                names.join(", ")
            )
        );
    }

    #[test]
    fn every_engine_error_becomes_its_namesake_with_the_same_message() {
        let errors = [
            EngineError::BoardTooLarge { n: 65 },
            EngineError::ZeroThreads,
            EngineError::ThreadPool("no threads".to_string()),
            EngineError::Overflow,
            EngineError::KernelUnavailable {
                kernel: Kernel::Neon,
                available: vec![Kernel::PortableLanes, Kernel::DepthFirst],
            },
            EngineError::Inconsistent("a total".to_string()),
            EngineError::InvalidPlan("no task".to_string()),
            EngineError::UniqueBeyondReach { n: 30, max: 27 },
            EngineError::Stopped,
            #[cfg(feature = "gpu")]
            EngineError::Gpu(crate::engine::kernel::gpu::GpuError::NoAdapter),
        ];
        for engine in errors {
            let error = Error::from(engine.clone());
            // The same variant with the same fields (Debug leaves out the type's name), and the
            // same message.
            assert_eq!(format!("{error:?}"), format!("{engine:?}"));
            assert_eq!(error.to_string(), engine.to_string());
        }
    }
}
