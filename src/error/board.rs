//! Why a placement is not a solution ([`Conflict`]).

use crate::ids::Square;

/// Why a placement is not a solution: the first conflict found.
///
/// The check reads the rows from the top and stops at the first row `r` whose queen is off the
/// board or attacked by a queen of rows `0..r`. It reports that queen with the earliest queen
/// above it on the same column, else on the same ↘ diagonal (`row − column` constant), else on
/// the same ↙ anti-diagonal (`row + column` constant), the names of [`crate::classic::Line`].
/// A wrong number of rows is reported only when the rows present have no conflict.
/// ```
/// use nqueens::board::{Conflict, Placement};
/// let err = Placement::new(vec![0, 2, 1]).check().unwrap_err();
/// assert!(matches!(err, Conflict::AntiDiagonal { .. }));
/// assert_eq!(
///     err.to_string(),
///     "the queens at (row 1, column 2) and (row 2, column 1) share a ↙ anti-diagonal (row + column = 3)"
/// );
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Conflict {
    /// The placement does not have one queen per row of the board.
    #[error("the placement has {found} rows but an {n} x {n} board needs {n}")]
    RowCount {
        /// Board size expected.
        n: u32,
        /// Rows found.
        found: u64,
    },
    /// A queen stands outside the board.
    #[error("the queen of row {} is in column {}, off the {n}-column board", .queen.row, .queen.column)]
    OffBoard {
        /// The queen.
        queen: Square,
        /// Board size.
        n: u32,
    },
    /// Two queens share a column.
    #[error("the queens at {first} and {second} share column {}", .first.column)]
    Column {
        /// The earlier queen.
        first: Square,
        /// The later queen.
        second: Square,
    },
    /// Two queens share a ↘ diagonal, running down and to the right (`row − column` constant).
    #[error("the queens at {first} and {second} share a ↘ diagonal (row − column = {})",
            i64::from(.first.row) - i64::from(.first.column))]
    Diagonal {
        /// The earlier queen.
        first: Square,
        /// The later queen.
        second: Square,
    },
    /// Two queens share a ↙ anti-diagonal, running down and to the left (`row + column`
    /// constant).
    #[error("the queens at {first} and {second} share a ↙ anti-diagonal (row + column = {})",
            u64::from(.first.row) + u64::from(.first.column))]
    AntiDiagonal {
        /// The earlier queen.
        first: Square,
        /// The later queen.
        second: Square,
    },
}
