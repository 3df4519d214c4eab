//! Every solution of a board, one at a time, in lexicographic order and constant memory.
//!
//! [`Solutions`] is a bitmask backtracker with an explicit stack (the search of
//! the counting kernels, stopping at each full board instead of counting it). It holds a
//! fixed 64-level stack and the current columns, about 2.5 KiB whatever the board, and yields
//! solutions in lexicographic order of their column lists (row 0 first, lowest column first).
//!
//! ```
//! use nqueens::enumerate::Solutions;
//! let first = Solutions::all(8).unwrap().next().unwrap();
//! assert_eq!(first.columns(), &[0, 4, 7, 5, 2, 6, 1, 3]);
//! assert_eq!(Solutions::all(8).unwrap().count(), 92);
//! assert_eq!(Solutions::unique(8).unwrap().count(), 12);
//! ```

use crate::board::{Solution, is_canonical};
use crate::engine::kernel::{Frame, MAX_N, board_mask};
use crate::error::Error;

/// Which solutions to yield.
///
/// ```
/// use nqueens::enumerate::{Mode, Solutions};
/// assert_eq!(Solutions::new(8, Mode::All).unwrap().count(), 92);
/// let unique: Vec<_> = Solutions::new(8, Mode::Unique).unwrap().collect();
/// assert_eq!(unique.len(), 12);
/// assert!(unique.iter().all(|solution| solution.is_canonical()));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Mode {
    /// Every solution.
    All,
    /// Only canonical forms (see [`crate::board::Solution`]): one per class of solutions
    /// equivalent under the 8 symmetries of the square.
    Unique,
}

/// How far a bounded [`Solutions::search`] got.
///
/// ```
/// use nqueens::enumerate::{Solutions, Step};
/// let mut four = Solutions::all(4).unwrap();
/// assert_eq!(four.search(1), Step::Unfinished); // one step places one queen
/// assert_eq!(four.search(u64::MAX), Step::Found);
/// assert_eq!(four.columns(), &[1, 3, 0, 2]);
/// assert_eq!(four.search(u64::MAX), Step::Found);
/// assert_eq!(four.search(u64::MAX), Step::Exhausted);
/// assert_eq!(Solutions::all(3).unwrap().search(u64::MAX), Step::Exhausted);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Step {
    /// A solution was found.
    Found,
    /// There are no more solutions.
    Exhausted,
    /// The steps ran out before either.
    Unfinished,
}

/// The solutions of one board, in lexicographic order.
///
/// As an [`Iterator`] it yields owned [`Solution`]s; [`Solutions::next_columns`] lends the
/// columns instead, without allocating, for callers that only print them.
///
/// ```
/// use nqueens::enumerate::Solutions;
/// let mut all = Solutions::all(4).unwrap();
/// assert_eq!(all.next_columns(), Some(&[1u32, 3, 0, 2][..]));
/// assert_eq!(all.next_columns(), Some(&[2u32, 0, 3, 1][..]));
/// assert_eq!(all.next_columns(), None);
/// ```
pub struct Solutions {
    n: u32,
    mode: Mode,
    /// Number of rows with a queen in `columns`; the frame of the row being tried is
    /// `stack[depth]`.
    depth: usize,
    done: bool,
    stack: [Frame; MAX_N as usize],
    columns: [u32; MAX_N as usize],
    scratch: [u32; MAX_N as usize],
}

/// The board, the mode, the columns of the queens placed so far and whether the search is done.
impl std::fmt::Debug for Solutions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Solutions")
            .field("n", &self.n)
            .field("mode", &self.mode)
            .field(
                "placed",
                &&self.columns[..self.depth.min(self.columns.len())],
            )
            .field("done", &self.done)
            .finish_non_exhaustive()
    }
}

impl Solutions {
    /// Every solution of the `n × n` board (`n` up to 64).
    ///
    /// # Errors
    ///
    /// [`Error::BoardTooLarge`] for `n` above 64.
    pub fn all(n: u32) -> Result<Solutions, Error> {
        Solutions::new(n, Mode::All)
    }

    /// One canonical representative per symmetry class of the `n × n` board (`n` up to 64).
    ///
    /// # Errors
    ///
    /// [`Error::BoardTooLarge`] for `n` above 64.
    pub fn unique(n: u32) -> Result<Solutions, Error> {
        Solutions::new(n, Mode::Unique)
    }

    /// The solutions of the `n × n` board that `mode` selects.
    ///
    /// # Errors
    ///
    /// [`Error::BoardTooLarge`] for `n` above 64.
    pub fn new(n: u32, mode: Mode) -> Result<Solutions, Error> {
        if n > MAX_N {
            return Err(Error::BoardTooLarge { n });
        }
        let mut first_row = board_mask(n);
        if mode == Mode::Unique && n > 0 {
            // A canonical form is no greater than its left-right mirror, whose first column is
            // n - 1 - c: the first queen stands in the left half (middle included).
            first_row &= board_mask(n.div_ceil(2));
        }
        let mut stack = [Frame::default(); MAX_N as usize];
        stack[0].free = first_row;
        Ok(Solutions {
            n,
            mode,
            depth: 0,
            done: false,
            stack,
            columns: [0; MAX_N as usize],
            scratch: [0; MAX_N as usize],
        })
    }

    /// The board size.
    #[must_use]
    pub fn n(&self) -> u32 {
        self.n
    }

    /// The columns of the next solution, or `None` when there are no more.
    pub fn next_columns(&mut self) -> Option<&[u32]> {
        match self.search(u64::MAX) {
            Step::Found => Some(&self.columns[..self.n as usize]),
            Step::Exhausted | Step::Unfinished => None,
        }
    }

    /// Searches on for the next solution, for at most `steps` steps (one step places or takes
    /// back a queen), so that a caller can give up on a search that takes too long. After
    /// [`Step::Found`], [`Solutions::columns`] holds the solution; after [`Step::Unfinished`],
    /// calling again carries on where the search stopped.
    ///
    /// ```
    /// use nqueens::enumerate::{Solutions, Step};
    /// let mut all = Solutions::all(8).unwrap();
    /// let mut step = all.search(10);
    /// while step == Step::Unfinished {
    ///     step = all.search(10);
    /// }
    /// assert_eq!(step, Step::Found);
    /// assert_eq!(all.columns(), &[0, 4, 7, 5, 2, 6, 1, 3]);
    /// ```
    pub fn search(&mut self, steps: u64) -> Step {
        let n = self.n as usize;
        let mut steps = steps;
        loop {
            match self.advance(&mut steps) {
                Step::Found => {}
                other => return other,
            }
            if self.mode == Mode::All || is_canonical(&self.columns[..n], &mut self.scratch) {
                return Step::Found;
            }
        }
    }

    /// The columns of the solution the last [`Solutions::search`] found.
    #[must_use]
    pub fn columns(&self) -> &[u32] {
        &self.columns[..self.n as usize]
    }

    /// Moves to the next full board in lexicographic order, taking at most `steps` steps (what
    /// is left of them stays in `steps`).
    fn advance(&mut self, steps: &mut u64) -> Step {
        if self.done {
            return Step::Exhausted;
        }
        let n = self.n as usize;
        if n == 0 {
            // The empty board has one, empty, placement.
            self.done = true;
            return Step::Found;
        }
        let mask = board_mask(self.n);
        loop {
            if *steps == 0 {
                return Step::Unfinished;
            }
            *steps -= 1;
            let depth = self.depth;
            let frame = self.stack[depth];
            if frame.free == 0 {
                if depth == 0 {
                    self.done = true;
                    return Step::Exhausted;
                }
                self.depth -= 1;
                continue;
            }
            let bit = frame.free & frame.free.wrapping_neg();
            self.stack[depth].free ^= bit;
            self.columns[depth] = bit.trailing_zeros();
            if depth + 1 == n {
                return Step::Found;
            }
            let cols = frame.cols | bit;
            let ld = (frame.ld | bit) << 1;
            let rd = (frame.rd | bit) >> 1;
            let free = mask & !(cols | ld | rd);
            if free != 0 {
                self.depth += 1;
                self.stack[self.depth] = Frame { free, cols, ld, rd };
            }
        }
    }
}

impl Iterator for Solutions {
    type Item = Solution;

    fn next(&mut self) -> Option<Solution> {
        self.next_columns()
            .map(|columns| Solution::from_valid(columns.to_vec()))
    }
}

impl std::iter::FusedIterator for Solutions {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::known;
    use std::collections::HashSet;

    #[test]
    fn the_listing_matches_the_known_totals_and_unique_counts() {
        for n in 0..=10 {
            let all: Vec<Solution> = Solutions::all(n).unwrap().collect();
            let unique: Vec<Solution> = Solutions::unique(n).unwrap().collect();
            assert_eq!(
                all.len() as u128,
                known::Known::of(n).map(|k| k.total).unwrap(),
                "total n={n}"
            );
            assert_eq!(
                unique.len() as u128,
                known::Known::of(n).map(|k| k.unique).unwrap(),
                "unique n={n}"
            );
            // Strictly increasing: lexicographic, and no two equal.
            assert!(all.windows(2).all(|w| w[0] < w[1]), "order n={n}");
            assert!(unique.windows(2).all(|w| w[0] < w[1]), "order n={n}");
            for s in &all {
                assert_eq!(s.n(), n);
                assert!(s.placement().check().is_ok(), "{s:?}");
            }
            // Canonical forms: invariant under the symmetries, one per class, covering all.
            let canon: HashSet<Solution> = all.iter().map(Solution::canonical).collect();
            let listed: HashSet<Solution> = unique.iter().cloned().collect();
            assert_eq!(canon, listed, "classes n={n}");
            let class_total: usize = unique.iter().map(Solution::class_size).sum();
            assert_eq!(class_total, all.len(), "class sizes n={n}");
            for s in &all {
                let c = s.canonical();
                assert_eq!(s.is_canonical(), *s == c);
                for (g, image) in s.images() {
                    assert_eq!(image.canonical(), c, "{g} of {s:?}");
                }
            }
        }
    }

    #[test]
    fn the_first_solutions_are_the_lexicographic_ones() {
        assert_eq!(
            Solutions::all(8).unwrap().next().unwrap().columns(),
            &[0, 4, 7, 5, 2, 6, 1, 3]
        );
        assert_eq!(
            Solutions::all(4).unwrap().next().unwrap().columns(),
            &[1, 3, 0, 2]
        );
        assert_eq!(Solutions::all(1).unwrap().next().unwrap().columns(), &[0]);
        assert_eq!(
            Solutions::all(0).unwrap().next().unwrap().columns(),
            &[] as &[u32]
        );
        assert!(Solutions::all(2).unwrap().next().is_none());
        assert!(Solutions::all(3).unwrap().next().is_none());
        let s = Solutions::all(20).unwrap().next().unwrap();
        assert!(s.placement().is_solution());
    }

    #[test]
    fn the_iterator_stays_empty_once_exhausted() {
        let mut it = Solutions::all(4).unwrap();
        assert_eq!(it.by_ref().count(), 2);
        assert!(it.next().is_none());
        assert!(it.next_columns().is_none());
    }

    #[test]
    fn a_wide_board_streams_and_a_too_wide_one_is_refused() {
        assert_eq!(Solutions::all(64).unwrap().n(), 64);
        let mut it = Solutions::all(24).unwrap();
        let a = it.next().unwrap();
        let b = it.next().unwrap();
        assert!(a < b && b.placement().is_solution());
        assert!(matches!(
            Solutions::all(65),
            Err(Error::BoardTooLarge { n: 65 })
        ));
    }
}
