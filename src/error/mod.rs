//! The library's errors: [`Error`], and each module's own error types, which it holds.
//!
//! A leaf: the errors hold std types, numbers and the small values of [`crate::ids`] (a kernel,
//! a task id, a journal's header) as plain data, and these modules import nothing of the crate
//! but that one module, which imports nothing. So every module can return them without the
//! errors reaching back up into the modules that make them. The errors keep the values
//! themselves, not their names, so that a caller can match on them (a [`Kernel`], a
//! [`Strategy`](crate::Strategy), a shard's [`Header`](crate::journal::Header)) as the public
//! API has always offered; their messages are written from them by the `Display` of those values.
//! Each type is re-exported where its module's users look for it (`nqueens::journal::JournalError`,
//! `nqueens::estimation::EstimateError`, …); what an error adds beyond its message (a journal
//! error's differences by header field, say) is implemented in that module.

pub(crate) mod board;
pub(crate) mod estimate;
#[cfg(feature = "gpu")]
pub(crate) mod gpu;
pub(crate) mod journal;
pub(crate) mod known;
pub(crate) mod merge;
pub(crate) mod names;
pub(crate) mod shard;
pub(crate) mod study;

use crate::ids::{Kernel, TaskId};

/// Everything the library can refuse or fail at: the one error of every fallible function that
/// can meet a count's failures, one variant per failure whatever call meets it (a board too
/// large is [`Error::BoardTooLarge`] from [`Plan::new`](crate::Plan::new), a count and a study;
/// a journal that cannot be opened is [`Error::Journal`] from a count and from a merge). The
/// reason below a failure (the operating system's, rayon's) is its
/// [`source`](std::error::Error::source), which its message does not repeat.
///
/// New kinds of failure may be added, so a `match` needs a `_` arm.
///
/// ```
/// use nqueens::{count, CountOptions, Error, Strategy};
/// let error = count(65, &CountOptions::default()).unwrap_err();
/// assert!(matches!(error, Error::BoardTooLarge { n: 65 }));
/// assert_eq!(error.to_string(), "n = 65 is too large: the largest board is 64 x 64");
///
/// let options = CountOptions::new(nqueens::max_threads() + 1, Strategy::Mirror);
/// let error = count(8, &options).unwrap_err();
/// let advice = match error {
///     Error::TooManyThreads { .. } => "ask for fewer threads",
///     Error::BoardTooLarge { .. } => "ask for a smaller board",
///     _ => "see the message",
/// };
/// assert_eq!(advice, "ask for fewer threads");
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
    /// The worker threads could not be started: rayon's `ThreadPoolBuildError`, or the
    /// [`std::io::Error`] of a thread that could not be spawned, is its
    /// [`source`](std::error::Error::source) (which a caller can `downcast_ref` to either).
    #[error("could not start the worker threads")]
    ThreadPool(#[source] Box<dyn std::error::Error + Send + Sync>),
    /// A sum exceeded `u128` (unreachable for any board that can finish; checked all the same).
    #[error("the solution count overflowed 128 bits")]
    Overflow,
    /// A shard that does not exist, or more shards than the plan has tasks.
    #[error(transparent)]
    Shard(#[from] shard::ShardError),
    /// A journal was refused or could not be written.
    #[error(transparent)]
    Journal(#[from] journal::JournalError),
    /// A computed solution failed its check (a defect; never expected): the conflict is its
    /// [`source`](std::error::Error::source).
    #[error("internal error: the computed solution is invalid")]
    InvalidSolution(#[from] board::Conflict),
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
    /// A total that cannot be the board's: with the board's solutions that the turns leave
    /// unchanged it does not make whole orbits of the 8 symmetries, so the unique count cannot
    /// be derived from it ([`unique_from_total`](crate::unique_from_total) given a wrong
    /// total; from a count, an internal error).
    #[error("inconsistent counts: {}", inconsistency(*.n, *.total, *.half_turn, *.quarter_turn))]
    Inconsistent {
        /// The board.
        n: u32,
        /// The total given.
        total: u128,
        /// The board's solutions that the half turn leaves unchanged (1 for `n` ≤ 1).
        half_turn: u128,
        /// The board's solutions that the quarter turn leaves unchanged (1 for `n` ≤ 1).
        quarter_turn: u128,
    },
    /// A plan that does not describe its board: no task, or a task of another board.
    #[error("invalid plan: {}", invalid_plan(*.n, *.task))]
    InvalidPlan {
        /// The plan's board.
        n: u32,
        /// The first task that is not a task of the board; `None` when the plan has no task.
        task: Option<TaskId>,
    },
    /// The unique count of a board above [`Counts::UNIQUE_MAX_N`](crate::Counts::UNIQUE_MAX_N) was asked for:
    /// the symmetric searches it needs grow about tenfold every two rows.
    #[error(
        "the unique count of n = {n} is beyond reach: its symmetric searches take about a minute \
         at n = 28 and ten times longer every two rows; it is computed up to n = {max}"
    )]
    UniqueBeyondReach {
        /// The board asked for.
        n: u32,
        /// The largest board whose unique count is computed ([`Counts::UNIQUE_MAX_N`](crate::Counts::UNIQUE_MAX_N)).
        max: u32,
    },
    /// A search was stopped by its stop flag before it finished.
    #[error("the search was stopped before it finished")]
    Stopped,
    /// An estimate was asked for outside what the estimator samples (a board, a sample count,
    /// a time budget: [`EstimateError`](crate::estimation::EstimateError) says which).
    #[error(transparent)]
    Estimate(#[from] estimate::EstimateError),
    /// Journals or runs that cannot be merged ([`journal::merge`](crate::journal::merge),
    /// [`Merged::from_runs`](crate::journal::Merged::from_runs)); a journal that cannot be read
    /// or is damaged is [`Error::Journal`], and counts that do not add up are
    /// [`Error::Overflow`] or [`Error::Inconsistent`], as for a count.
    #[error(transparent)]
    Merge(Box<merge::MergeError>),
    /// A scaling study was refused or disagreed with the known total
    /// ([`measure`](crate::scaling::study::measure)); a failure of the count itself comes as
    /// its own variant.
    #[error(transparent)]
    Study(Box<study::StudyError>),
    /// Counts that differ from the known table ([`Counts::check_known`](crate::Counts::check_known),
    /// [`Merged::check_known`](crate::journal::Merged::check_known)): a wrong count.
    #[error(transparent)]
    KnownMismatch(#[from] known::Mismatch),
    /// A name that is not one of the choices (a strategy, a kernel, an algorithm).
    #[error(transparent)]
    UnknownName(#[from] names::UnknownName),
    /// Text that is not a task id ([`TaskId`](crate::TaskId)'s `FromStr`): not `-` nor up to
    /// 16 columns joined by dots.
    #[error("'{0}' is not a task id (`-` or up to 16 columns joined by dots)")]
    InvalidTaskId(String),
    /// Text that is not a plan fingerprint ([`Fingerprint`](crate::Fingerprint)'s `FromStr`):
    /// not 16 hex digits.
    #[error("'{0}' is not a fingerprint (16 hex digits)")]
    InvalidFingerprint(String),
    /// A GPU kernel was asked for and no GPU can count (no adapter, or it failed to open).
    #[cfg(feature = "gpu")]
    #[cfg_attr(docsrs, doc(cfg(feature = "gpu")))]
    #[error(transparent)]
    Gpu(#[from] gpu::GpuError),
}

/// The kernels' names, comma-separated.
fn names(kernels: &[Kernel]) -> String {
    kernels
        .iter()
        .map(|k| k.name())
        .collect::<Vec<_>>()
        .join(", ")
}

/// Why `total` is not the `n`-board's, whose turns leave `half_turn` and `quarter_turn` of its
/// solutions unchanged.
fn inconsistency(n: u32, total: u128, half_turn: u128, quarter_turn: u128) -> String {
    if n <= 1 {
        format!("n = {n} has exactly one placement, not {total}")
    } else {
        format!(
            "n = {n}: total {total} + {half_turn} half-turn + 2 x {quarter_turn} quarter-turn \
             symmetric solutions is not a multiple of 8"
        )
    }
}

/// What is wrong with a plan of the `n`-board: no task, or `task`, which is not the board's.
fn invalid_plan(n: u32, task: Option<TaskId>) -> String {
    match task {
        None => format!("the plan of n = {n} has no task"),
        Some(task) => format!("task {task} is not a task of n = {n}"),
    }
}

/// `?` on a merge's own refusals: [`Error::Merge`].
///
/// ```
/// use nqueens::journal::MergeError;
/// let error = nqueens::Error::from(MergeError::NoJournals);
/// assert!(matches!(error, nqueens::Error::Merge(_)));
/// assert_eq!(error.to_string(), "no journals to merge");
/// ```
impl From<merge::MergeError> for Error {
    fn from(error: merge::MergeError) -> Error {
        Error::Merge(Box::new(error))
    }
}

/// `?` on a study's own refusals: [`Error::Study`].
///
/// ```
/// use nqueens::scaling::study::StudyError;
/// let error = nqueens::Error::from(StudyError::NoRuns);
/// assert!(matches!(error, nqueens::Error::Study(_)));
/// ```
impl From<study::StudyError> for Error {
    fn from(error: study::StudyError) -> Error {
        Error::Study(Box::new(error))
    }
}

#[cfg(test)]
mod tests {
    use super::{Error, Kernel, TaskId};

    #[test]
    fn an_unavailable_kernel_names_itself_and_the_kernels_this_cpu_runs() {
        // No CPU runs both NEON and AVX2.
        let kernel = Kernel::ALL
            .iter()
            .copied()
            .find(|k| !k.is_available())
            .expect("a kernel this CPU lacks");
        let err = kernel.select().unwrap_err();
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
    fn messages_say_what_is_wrong_with_the_numbers() {
        let wrong = Error::Inconsistent {
            n: 10,
            total: 725,
            half_turn: 12,
            quarter_turn: 0,
        };
        assert_eq!(
            wrong.to_string(),
            "inconsistent counts: n = 10: total 725 + 12 half-turn + 2 x 0 quarter-turn \
             symmetric solutions is not a multiple of 8"
        );
        let one = Error::Inconsistent {
            n: 1,
            total: 2,
            half_turn: 1,
            quarter_turn: 1,
        };
        assert_eq!(
            one.to_string(),
            "inconsistent counts: n = 1 has exactly one placement, not 2"
        );
        let empty = Error::InvalidPlan { n: 8, task: None };
        assert_eq!(
            empty.to_string(),
            "invalid plan: the plan of n = 8 has no task"
        );
        let task = TaskId::from_columns(&[3, 0]).unwrap();
        let foreign = Error::InvalidPlan {
            n: 8,
            task: Some(task),
        };
        assert_eq!(
            foreign.to_string(),
            "invalid plan: task 3.0 is not a task of n = 8"
        );
    }
}
