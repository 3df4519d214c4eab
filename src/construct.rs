//! A solution for any n ≥ 4 (and n = 0, 1) in O(n) time, from a closed-form construction.
//!
//! The explicit construction of Hoffman, Loessi and Moore (1969), in the form popularised by
//! Bernhardsson (1991). Counting rows and columns from 1, list the columns of rows 1, 2, …:
//!
//! * n mod 6 is not 2 or 3: the even numbers `2, 4, …`, then the odd numbers `1, 3, …`;
//! * n mod 6 = 2: the evens `2, 4, …, n`, then the odds `3, 1, 7, 9, …, n-1, 5`
//!   (1 and 3 swapped, 5 moved to the end);
//! * n mod 6 = 3: the evens `4, 6, …, n-1, 2` (2 moved to the end), then the odds
//!   `5, 7, …, n, 1, 3` (1 and 3 moved to the end).
//!
//! [`columns`] yields that list lazily (0-based, as `u32`), so a solution of a million queens is
//! neither stored nor formatted as one string; [`verify`] checks any column sequence in O(n)
//! time and O(n) bits.
//!
//! ```
//! use nqueens::construct;
//! let eight: Vec<u32> = construct::columns(8).unwrap().collect();
//! assert_eq!(eight, [1, 3, 5, 7, 2, 0, 6, 4]);
//! assert!(construct::verify(8, construct::columns(8).unwrap()).is_ok());
//! assert!(construct::columns(3).is_none());
//! ```

use crate::board::{Conflict, check_columns};

/// The constructed solution of one board, column by column (0-based), computed on demand.
#[derive(Clone, Debug)]
struct Columns {
    n: u32,
    next: u32,
}

/// The constructed solution of the `n × n` board, or `None` for n = 2 and 3, which have no
/// solution. O(1) to create; each column is O(1).
///
/// ```
/// let c = nqueens::construct::columns(9).unwrap();
/// assert_eq!(c.len(), 9);
/// assert_eq!(c.collect::<Vec<_>>(), [3, 5, 7, 1, 4, 6, 8, 0, 2]);
/// ```
#[must_use]
pub fn columns(
    n: u32,
) -> Option<impl ExactSizeIterator<Item = u32> + std::iter::FusedIterator + Clone + std::fmt::Debug>
{
    if n == 2 || n == 3 {
        None
    } else {
        Some(Columns { n, next: 0 })
    }
}

/// The 0-based column of row `row` (0-based) in the construction for `n`.
fn column(n: u32, row: u32) -> u32 {
    // In u64 so that `2 * row + 5` cannot overflow for any u32 side.
    let (n, row) = (u64::from(n), u64::from(row));
    let evens = n / 2; // how many even (1-based) columns there are
    // The 1-based column; the odd half is indexed by j from 0.
    let one_based = match n % 6 {
        2 => {
            if row < evens {
                2 * row + 2
            } else {
                match row - evens {
                    0 => 3,
                    1 => 1,
                    j if j == evens - 1 => 5,
                    j => 2 * j + 3,
                }
            }
        }
        3 => {
            if row < evens {
                if row == evens - 1 { 2 } else { 2 * row + 4 }
            } else {
                match row - evens {
                    j if j == evens - 1 => 1,
                    j if j == evens => 3,
                    j => 2 * j + 5,
                }
            }
        }
        _ => {
            if row < evens {
                2 * row + 2
            } else {
                2 * (row - evens) + 1
            }
        }
    };
    (one_based - 1) as u32
}

impl Iterator for Columns {
    type Item = u32;

    #[inline]
    fn next(&mut self) -> Option<u32> {
        if self.next == self.n {
            return None;
        }
        let c = column(self.n, self.next);
        self.next += 1;
        Some(c)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = (self.n - self.next) as usize;
        (left, Some(left))
    }
}

impl ExactSizeIterator for Columns {}

impl std::iter::FusedIterator for Columns {}

/// Checks that `columns` is a solution of the `n × n` board in O(n) time and O(n) bits, reading
/// it once (twice to explain a conflict). The same check as
/// [`crate::board::Placement::check`], for sequences too long to store.
///
/// # Errors
///
/// The first [`Conflict`]: a column off the board, a row without a queen (the sequence is too short
/// or too long), or two queens that attack each other.
///
/// ```
/// use nqueens::construct::{columns, verify};
/// for n in [4, 5, 100, 1001] {
///     assert!(verify(n, columns(n).unwrap()).is_ok());
/// }
/// assert!(verify(4, [0u32, 1, 2, 3]).is_err());
/// ```
pub fn verify<I>(n: u32, columns: I) -> Result<(), Conflict>
where
    I: IntoIterator<Item = u32>,
    I::IntoIter: Clone,
{
    check_columns(n, columns)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_construction_is_a_solution_for_every_n_up_to_3000() {
        for n in (0..=1).chain(4..=3000) {
            let c = columns(n).unwrap();
            assert_eq!(c.len(), n as usize);
            assert_eq!(verify(n, c), Ok(()), "n={n}");
        }
    }

    #[test]
    fn the_construction_is_a_solution_near_a_million() {
        // Six consecutive sizes cover every residue mod 6.
        for n in 999_997..=1_000_002 {
            assert_eq!(verify(n, columns(n).unwrap()), Ok(()), "n={n}");
        }
    }

    #[test]
    fn the_rules_read_as_documented() {
        let list = |n| columns(n).unwrap().map(|c| c + 1).collect::<Vec<_>>();
        assert_eq!(list(4), [2, 4, 1, 3]);
        assert_eq!(list(6), [2, 4, 6, 1, 3, 5]);
        assert_eq!(list(7), [2, 4, 6, 1, 3, 5, 7]);
        assert_eq!(list(8), [2, 4, 6, 8, 3, 1, 7, 5]);
        assert_eq!(list(9), [4, 6, 8, 2, 5, 7, 9, 1, 3]);
        assert_eq!(list(14), [2, 4, 6, 8, 10, 12, 14, 3, 1, 7, 9, 11, 13, 5]);
        assert_eq!(list(1), [1]);
        assert!(list(0).is_empty());
        assert!(columns(2).is_none() && columns(3).is_none());
    }

    #[test]
    fn a_broken_sequence_is_caught() {
        let mut c: Vec<u32> = columns(100).unwrap().collect();
        c.swap(10, 20);
        assert!(verify(100, c.iter().copied()).is_err());
        assert!(verify(100, c[..99].iter().copied()).is_err());
    }
}
