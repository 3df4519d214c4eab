//! Counts that differ from the known table ([`Mismatch`]).

use crate::ids::Known;

/// A board's counts that differ from the known table: a wrong count (a damaged or altered
/// journal, a fault of the machine), never a new discovery for a board the table holds.
///
/// [`Counts::check_known`](crate::Counts::check_known) and
/// [`Merged::check_known`](crate::journal::Merged::check_known) give it:
///
/// ```
/// use nqueens::known::Mismatch;
/// let wrong = Mismatch::of(12, 22_200, Some(2_787)).unwrap();
/// assert_eq!((wrong.known.total, wrong.known.unique), (14_200, 1_787));
/// assert_eq!(
///     wrong.to_string(),
///     "n = 12: the total is 22200, not the known 14200, and the unique count 2787, \
///      not the known 1787"
/// );
/// assert_eq!(Mismatch::of(12, 14_200, Some(1_787)), None);
/// assert_eq!(Mismatch::of(12, 14_200, None), None); // no unique count: the total alone
/// assert_eq!(Mismatch::of(28, 1, None), None); // beyond the table: nothing to check
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("n = {n}: {}", self.what())]
#[non_exhaustive]
pub struct Mismatch {
    /// Board size.
    pub n: u32,
    /// The total found.
    pub total: u128,
    /// The unique count found, if there is one.
    pub unique: Option<u128>,
    /// The known counts of the board.
    pub known: Known,
}

impl Mismatch {
    /// What differs, after `n = N: `.
    fn what(&self) -> String {
        let total = (self.total != self.known.total).then(|| {
            format!(
                "the total is {}, not the known {}",
                self.total, self.known.total
            )
        });
        let unique = self.unique.filter(|&u| u != self.known.unique);
        let known_unique = self.known.unique;
        match (total, unique) {
            (Some(total), Some(u)) => {
                format!("{total}, and the unique count {u}, not the known {known_unique}")
            }
            (Some(total), None) => total,
            (None, Some(u)) => format!("the unique count is {u}, not the known {known_unique}"),
            (None, None) => "the counts are the known ones".to_string(),
        }
    }
}
