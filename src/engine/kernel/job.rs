//! What a kernel searches: a board with some queens pre-placed ([`InnerBoard`]), and the same
//! board as the kernels see it ([`Job`]).
//!
//! # Relative masks and a table of blocked squares
//!
//! The kernels fill the free rows from the top. The queens they place move their diagonals one
//! column outwards per row, and those never come back onto the board; so the kernels keep the
//! three usual masks (`cols`, `ld` shifting left, `rd` shifting right) of *their own* queens
//! only, as plain `n`-bit masks: bit `c` is column `c`, and bits shifted past the edge are
//! simply lost.
//!
//! The pre-placed queens are different: a queen below the current row has diagonals that move
//! *inwards* as the search goes down. But their attacks on every row are fixed for the whole
//! task, so a [`Job`] carries them as a table: `blocked[k]` is the set of squares of the free
//! row with `k` free rows left (itself included) that a pre-placed queen attacks, plus every
//! bit at or above `n`. The free squares of a row are then `!(cols | ld | rd | blocked[k])`.
//!
//! This keeps every mask within `n` bits, so a board of side up to [`MAX_JOB_N`] = 32 fits a
//! `u32` lane, whatever rows the pre-placed queens sit on.

use std::fmt;

/// The widest board a [`Job`] (and so an [`InnerBoard`]) holds: every mask fits 32 bits.
pub const MAX_JOB_N: u32 = 32;

/// The most queens an [`InnerBoard`] pre-places.
pub const MAX_PLACED: usize = 16;

/// The most free rows a [`Job`] has; its tables are indexed `0..=MAX_ROWS`.
pub(crate) const MAX_ROWS: usize = MAX_JOB_N as usize;

/// A board of side `n ≤ 32` with up to 16 queens pre-placed on any rows: a task of
/// the `symmetric` plan.
///
/// ```
/// use nqueens::search::InnerBoard;
/// // The 6-board with one queen pre-placed in row 3, column 0: rows 0..=2 and 4..=5 remain.
/// let board = InnerBoard::new(6, &[(3, 0)]).unwrap();
/// assert_eq!(board.free_rows(), 0b110111);
/// // Row 0: the queen attacks column 0 and, three rows up its diagonal, column 3.
/// assert_eq!(board.first_free_row(), Some((0, 0b110110)));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct InnerBoard {
    n: u8,
    len: u8,
    /// `(row, column)` of each pre-placed queen, in the order they were placed.
    queens: [(u8, u8); MAX_PLACED],
}

impl fmt::Debug for InnerBoard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("InnerBoard")
            .field("n", &self.n)
            .field("queens", &self.queens())
            .finish()
    }
}

impl InnerBoard {
    /// The `n`-board with queens on `queens` (`(row, column)` pairs). `None` when `n` is 0 or
    /// above 32, there are more than 16 queens, a square is off the
    /// board, or two queens attack each other.
    #[must_use]
    pub fn new(n: u32, queens: &[(u32, u32)]) -> Option<InnerBoard> {
        if n == 0 || n > MAX_JOB_N || queens.len() > MAX_PLACED {
            return None;
        }
        let mut board = InnerBoard {
            n: n as u8,
            len: 0,
            queens: [(0, 0); MAX_PLACED],
        };
        for &(r, c) in queens {
            if r >= n || c >= n || board.attacks(r, c) {
                return None;
            }
            board.queens[board.len as usize] = (r as u8, c as u8);
            board.len += 1;
        }
        Some(board)
    }

    /// Board size.
    #[must_use]
    pub fn n(&self) -> u32 {
        u32::from(self.n)
    }

    /// The pre-placed queens, `(row, column)`, in the order they were placed.
    #[must_use]
    pub fn queens(&self) -> Vec<(u32, u32)> {
        self.placed().collect()
    }

    fn placed(&self) -> impl Iterator<Item = (u32, u32)> + '_ {
        self.queens[..self.len as usize]
            .iter()
            .map(|&(r, c)| (u32::from(r), u32::from(c)))
    }

    /// Whether a pre-placed queen attacks the square `(r, c)`.
    fn attacks(&self, r: u32, c: u32) -> bool {
        self.placed()
            .any(|(r2, c2)| r2 == r || c2 == c || r.abs_diff(r2) == c.abs_diff(c2))
    }

    /// The rows still to fill (bit `r` for row `r`).
    #[inline]
    #[must_use]
    pub fn free_rows(&self) -> u64 {
        let all = (1u64 << self.n) - 1;
        all & !self.placed().fold(0u64, |rows, (r, _)| rows | 1 << r)
    }

    /// The squares of row `r` that a pre-placed queen attacks, plus every bit at or above `n`.
    #[must_use]
    pub fn blocked(&self, r: u32) -> u64 {
        let outside = !((1u64 << self.n) - 1);
        self.placed().fold(outside, |blocked, (qr, qc)| {
            let d = r.abs_diff(qr);
            let mut b = blocked | 1 << qc;
            if qc + d < 64 {
                b |= 1 << (qc + d);
            }
            if let Some(left) = qc.checked_sub(d) {
                b |= 1 << left;
            }
            b
        })
    }

    /// The first row still to fill and its free columns (bit `c` for column `c`); `None` when
    /// every row holds a queen.
    #[must_use]
    pub fn first_free_row(&self) -> Option<(u32, u64)> {
        let rows = self.free_rows();
        if rows == 0 {
            return None;
        }
        let r = rows.trailing_zeros();
        Some((r, !self.blocked(r)))
    }

    /// This board with one more queen, at `col` of the first row still to fill (see
    /// [`InnerBoard::first_free_row`]); `None` when no row is left to fill, `col` is not free on
    /// that row, or the board already holds 16 queens.
    ///
    /// ```
    /// use nqueens::search::InnerBoard;
    /// let board = InnerBoard::new(6, &[(0, 0)]).unwrap();
    /// assert_eq!(board.place(2).unwrap().queens(), [(0, 0), (1, 2)]);
    /// assert_eq!(board.place(1), None);
    /// assert_eq!(board.place(64), None);
    /// ```
    #[must_use]
    pub fn place(&self, col: u32) -> Option<InnerBoard> {
        let (r, free) = self.first_free_row()?;
        let free_here = 1u64.checked_shl(col).is_some_and(|bit| free & bit != 0);
        (free_here && usize::from(self.len) < MAX_PLACED).then(|| self.with_queen(r, col))
    }

    /// This board with one more queen at `(r, c)`, unchecked: the caller knows that no queen
    /// attacks the square, that `r` is the first row still to fill, and that fewer than
    /// [`MAX_PLACED`] queens are placed (the plan's splits, which have read the row already).
    pub(crate) fn with_queen(&self, r: u32, c: u32) -> InnerBoard {
        let mut child = *self;
        child.queens[usize::from(self.len)] = (r as u8, c as u8);
        child.len += 1;
        child
    }

    /// The search of this board as the kernels see it.
    pub(crate) fn job(&self) -> Job {
        let mut job = Job::empty(self.n());
        let mut rows = self.free_rows();
        let m = rows.count_ones() as usize;
        job.rows = m;
        let mut k = m;
        let mut prev: Option<u32> = None;
        while rows != 0 {
            let r = rows.trailing_zeros();
            rows &= rows - 1;
            job.blocked[k] = self.blocked(r);
            if let Some(p) = prev {
                job.steps[k + 1] = r - p;
            }
            prev = Some(r);
            k -= 1;
        }
        job
    }
}

/// One search as every kernel sees it: the masks of the first free row, the number of free
/// rows, the distance between consecutive free rows and the squares the pre-placed queens
/// block on each (see the module docs). Tables are indexed by the number of free rows left.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Job {
    /// Board size (at most [`MAX_JOB_N`]).
    pub n: u32,
    /// Number of free rows.
    pub rows: usize,
    /// Columns of the queens placed before the search starts that the table does not hold (the
    /// row prefix of a `mirror` task).
    pub cols: u64,
    /// Their ↘ diagonals (the left-shifting mask), seen from the first free row.
    pub ld: u64,
    /// Their ↙ anti-diagonals (the right-shifting mask), seen from the first free row.
    pub rd: u64,
    /// `steps[k]`: rows from the free row with `k` free rows left to the next free row.
    pub steps: [u32; MAX_ROWS + 1],
    /// `blocked[k]`: squares of the free row with `k` free rows left attacked by the
    /// pre-placed queens, and every bit at or above `n`.
    pub blocked: [u64; MAX_ROWS + 1],
}

impl Job {
    /// The empty `n`-board: every row free, one row apart.
    fn empty(n: u32) -> Job {
        let outside = !((1u64 << n) - 1);
        Job {
            n,
            rows: n as usize,
            cols: 0,
            ld: 0,
            rd: 0,
            steps: [1; MAX_ROWS + 1],
            blocked: [outside; MAX_ROWS + 1],
        }
    }

    /// The rows `state.row..n` of the `n`-board whose first rows hold the queens of `state` (a
    /// task of the `mirror` plan); `None` above [`MAX_JOB_N`].
    pub fn from_rows(n: u32, state: super::State) -> Option<Job> {
        if n > MAX_JOB_N || state.row > n {
            return None;
        }
        let mask = (1u64 << n) - 1;
        Some(Job {
            rows: (n - state.row) as usize,
            cols: state.cols,
            ld: state.ld & mask,
            rd: state.rd,
            ..Job::empty(n)
        })
    }

    /// The free squares of the first free row (0 when no row is free).
    #[inline]
    pub(crate) fn first_free(&self) -> u64 {
        if self.rows == 0 {
            return 0;
        }
        !(self.cols | self.ld | self.rd | self.blocked[self.rows])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_boards_are_refused() {
        assert!(InnerBoard::new(MAX_JOB_N + 1, &[]).is_none());
        assert!(InnerBoard::new(0, &[]).is_none());
        assert!(InnerBoard::new(8, &[(0, 0), (1, 1)]).is_none());
        assert!(InnerBoard::new(8, &[(0, 0), (5, 0)]).is_none());
        assert!(InnerBoard::new(8, &[(0, 8)]).is_none());
        let m = MAX_JOB_N;
        assert!(InnerBoard::new(m, &[(0, 5), (m - 1, 0), (m - 2, m - 1)]).is_some());
        let many: Vec<(u32, u32)> = (0..=MAX_PLACED as u32).map(|r| (r, 0)).collect();
        assert!(InnerBoard::new(32, &many).is_none());
    }

    #[test]
    fn placing_a_queen_matches_pre_placing_it() {
        let n = 9;
        let b = InnerBoard::new(n, &[(0, 3), (8, 5), (4, 0)]).unwrap();
        let (r, mut free) = b.first_free_row().unwrap();
        assert_eq!(r, 1);
        while free != 0 {
            let c = free.trailing_zeros();
            free &= free - 1;
            let direct = InnerBoard::new(n, &[(0, 3), (8, 5), (4, 0), (1, c)]).unwrap();
            assert_eq!(b.place(c), Some(direct), "c={c}");
            assert_eq!(b.place(c).unwrap().job(), direct.job(), "c={c}");
        }
    }

    #[test]
    fn the_table_blocks_exactly_the_attacked_squares() {
        let n = 7;
        let b = InnerBoard::new(n, &[(6, 3), (2, 0)]).unwrap();
        let job = b.job();
        assert_eq!(job.rows, 5);
        // Free rows 0, 1, 3, 4, 5 from the top: k = 5, 4, 3, 2, 1.
        assert_eq!(job.steps[5], 1);
        assert_eq!(job.steps[4], 2);
        assert_eq!(job.steps[3], 1);
        assert_eq!(job.steps[2], 1);
        let board = (1u64 << n) - 1;
        // Row 0: (6, 3) attacks column 3 only (its diagonals are off the board); (2, 0)
        // attacks column 0 and (0, 2).
        assert_eq!(job.blocked[5] & board, 0b0001101);
        // Row 5: (6, 3) attacks 2, 3, 4; (2, 0) attacks 0 and 3.
        assert_eq!(job.blocked[1] & board, 0b0011101);
        assert_eq!(job.first_free(), !job.blocked[5]);
    }
}

#[cfg(test)]
mod doc_examples {
    //! The examples of the crate-private items above, as tests.

    #[test]
    fn from_rows_example() {
        use crate::engine::kernel::{Job, State};
        let job = Job::from_rows(8, State::EMPTY.place_col(0).unwrap()).unwrap();
        assert_eq!((job.rows, job.cols), (7, 1));
        assert!(Job::from_rows(33, State::EMPTY).is_none());
    }

    #[test]
    fn job_example() {
        use crate::engine::kernel::InnerBoard;
        let job = InnerBoard::new(6, &[(3, 0)]).unwrap().job();
        assert_eq!(job.rows, 5);
        assert_eq!(job.steps[3], 2); // from row 2 (3 free rows left) over row 3 to row 4
        assert_eq!(job.blocked[5] & 0b111111, 0b001001); // row 0: columns 0 and 3
    }
}
