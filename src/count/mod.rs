//! The count: what to count and how ([`CountOptions`]), the optional controls of a run
//! ([`RunControl`], [`Watcher`]), the driver that prepares and runs it ([`Prepared`],
//! [`count_with`]) and what comes back ([`Counts`], [`CountRun`]).
//!
//! [`count`] is the plain call. [`count_with`] adds three optional controls: a [`Watcher`] told
//! about every finished task (a progress bar), a stop flag read between tasks (an interrupt
//! handler), and a journal ([`crate::journal`]) that records every finished task and, when the
//! same count is run again with the same file, supplies the tasks already done so that only the
//! rest are searched. None of them touches the search kernel. A fourth control,
//! [`RunControl::shard`], counts only one shard of the plan; its journal names the shard, and
//! [`crate::journal::merge`] adds the shards up.
//!
//! | file | what |
//! |---|---|
//! | `options.rs` | [`CountOptions`] |
//! | `control.rs` | [`RunControl`], [`Watcher`] |
//! | `driver.rs` | [`Prepared`], [`count_with`] |
//! | `results.rs` | [`Counts`], [`CountRun`] |
//! | `unique_search.rs` | the unique count's searches, made by whichever thread is free first |

mod control;
mod driver;
mod merge;
mod options;
mod results;
mod unique_search;

pub use control::{EstimateProgress, RunControl, StudyProgress, Watcher};
pub use driver::{Prepared, count_with};
pub use options::CountOptions;
pub use results::{CountRun, Counts};

use crate::error::Error;

/// Counts the solutions of the `n × n` board with the given options.
///
/// # Errors
///
/// [`Error::BoardTooLarge`](crate::Error::BoardTooLarge) for `n` above [`MAX_N`](crate::Plan::MAX_N);
/// [`Error::TooManyThreads`](crate::Error::TooManyThreads) for more threads than
/// [`max_threads`](crate::max_threads) allows, [`Error::ThreadPool`](crate::Error::ThreadPool) when
/// the worker threads cannot start; [`Error::KernelUnavailable`](crate::Error::KernelUnavailable)
/// for a kernel this CPU does not run (and, with the `gpu` feature, `Error::Gpu` for a GPU kernel
/// without a GPU that opens).
///
/// ```
/// let counts = nqueens::count(8, &nqueens::CountOptions::default()).unwrap();
/// assert_eq!((counts.total, counts.unique), (92, Some(12)));
/// ```
pub fn count(n: u32, options: &CountOptions) -> Result<Counts, Error> {
    count_with(n, options, &RunControl::default()).map(|run| run.counts)
}

/// The number of solutions distinct under the 8 symmetries of the square (OEIS A002562) of the
/// `n`-board whose solutions number `total` (OEIS A000170), however the total was counted: by
/// Burnside's lemma, from the total and two small searches of the solutions the half and the
/// quarter turn leave unchanged (milliseconds at n = 18, run on the calling thread).
///
/// A total that cannot be the board's (the formula gives no whole number) is
/// [`Error::Inconsistent`]; a board above [`Counts::UNIQUE_MAX_N`](crate::Counts::UNIQUE_MAX_N), whose
/// searches take minutes to ages, is [`Error::UniqueBeyondReach`] (at once), and one above
/// [`MAX_N`](crate::Plan::MAX_N) is [`Error::BoardTooLarge`].
///
/// # Errors
///
/// [`Error::Inconsistent`](crate::Error::Inconsistent) for a total that cannot be the board's,
/// [`Error::UniqueBeyondReach`](crate::Error::UniqueBeyondReach) for a board above
/// [`Counts::UNIQUE_MAX_N`](crate::Counts::UNIQUE_MAX_N), [`Error::BoardTooLarge`](crate::Error::BoardTooLarge) for
/// one above [`MAX_N`](crate::Plan::MAX_N).
///
/// ```
/// use nqueens::{Error, unique_from_total};
/// assert_eq!(unique_from_total(8, 92).unwrap(), 12);
/// assert!(matches!(unique_from_total(64, 1), Err(Error::UniqueBeyondReach { n: 64, .. })));
/// assert_eq!(unique_from_total(16, 14_772_512).unwrap(), 1_846_955);
/// let wrong = unique_from_total(8, 93).unwrap_err();
/// let Error::Inconsistent { n: 8, total: 93, half_turn, quarter_turn } = wrong else { panic!() };
/// assert_eq!((half_turn, quarter_turn), (4, 0));
/// ```
pub fn unique_from_total(n: u32, total: u128) -> Result<u128, Error> {
    crate::engine::unique::unique_count(n, total)
}
