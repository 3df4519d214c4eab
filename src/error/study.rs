//! Why a scaling study is refused or stops ([`StudyError`]), and what is wrong with a saved
//! study ([`InvalidSeries`]).

/// Why a study stopped, apart from the failures of its counts:
/// [`measure`](crate::scaling::study::measure) returns it inside
/// [`Error::Study`](crate::Error::Study); a count's own failure inside a study comes as its own
/// variant of [`Error`](crate::Error), as it does from [`count`](crate::count).
///
/// ```
/// use nqueens::scaling::study::{measure, StudyError, StudyOptions};
/// use nqueens::{Error, RunControl, Strategy};
/// let options = StudyOptions::new(vec![2]).with_strategy(Strategy::Mirror).with_repeat(0);
/// let control = RunControl::default();
/// let Err(Error::Study(error)) = measure(8, &options, &control) else { panic!() };
/// assert!(matches!(*error, StudyError::NoRuns));
/// assert_eq!(error.to_string(), "the number of timed runs must be at least 1");
///
/// let options = options.with_repeat(1);
/// let error = measure(65, &options, &control).unwrap_err();
/// assert!(matches!(error, Error::BoardTooLarge { n: 65 }));
///
/// // The given pool has fewer workers than a thread count measured.
/// let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
/// let Err(Error::Study(error)) = measure(8, &options, &control.with_pool(&pool)) else { panic!() };
/// assert!(matches!(*error, StudyError::PoolTooSmall { threads: 2, workers: 1 }));
/// ```
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum StudyError {
    /// At least one timed run is needed.
    #[error("the number of timed runs must be at least 1")]
    NoRuns,
    /// A thread count measured is larger than the pool given to run on
    /// ([`RunControl::pool`](crate::RunControl::pool)), which would run it on fewer threads than it
    /// says.
    #[error("a study cannot measure {threads} threads on a pool of {workers} workers")]
    PoolTooSmall {
        /// The thread count.
        threads: usize,
        /// The pool's workers.
        workers: usize,
    },
    /// A run counted a total that disagrees with the known count or with the study's earlier
    /// runs: the engine is wrong and the timings are meaningless, so a study stops on the first.
    ///
    /// ```
    /// use nqueens::scaling::study::StudyError;
    /// let mismatch = StudyError::Mismatch {
    ///     n: 8,
    ///     threads: 2,
    ///     got: 90,
    ///     expected: 92,
    ///     source_name: "the known table (OEIS A000170)",
    /// };
    /// assert_eq!(
    ///     mismatch.to_string(),
    ///     "count mismatch: n = 8 with 2 threads counted 90, \
    ///      but the known table (OEIS A000170) says 92"
    /// );
    /// ```
    #[error(
        "count mismatch: n = {n} with {threads} threads counted {got}, but {source_name} says \
         {expected}"
    )]
    Mismatch {
        /// Board size.
        n: u32,
        /// Thread count of the run that disagreed.
        threads: usize,
        /// What that run counted.
        got: u128,
        /// What it should have counted.
        expected: u128,
        /// Where `expected` came from.
        source_name: &'static str,
    },
}

/// What [`Series::validated`](crate::scaling::series::Series::validated) found wrong with a series:
/// the field, by its path (`machine.logical`, `runs[1].median_seconds`, from 0), and what is wrong
/// with it.
///
/// ```
/// use nqueens::scaling::series::Series;
/// use nqueens::scaling::Machine;
/// let error = Series::new(8, "mirror", "avx2", Machine::new(2, 2)).validated().unwrap_err();
/// assert_eq!(error.field, "runs");
/// assert_eq!(error.to_string(), "runs is empty: no measured runs");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{field} {problem}")]
#[non_exhaustive]
pub struct InvalidSeries {
    /// The field's path.
    pub field: String,
    /// What is wrong with it, after the field's path (`is 0, outside 1 to 1048576`).
    pub problem: String,
}
