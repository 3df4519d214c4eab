//! The hot bitboard search: count the completions of one partial board.
//!
//! A partial board with queens on its first `row` rows is described by three `u64` masks, one
//! bit per column of the *next* row:
//!
//! * `cols` — columns already holding a queen;
//! * `ld` — squares attacked along the ↘ diagonals (`row − column` constant): bit `c` is column
//!   `c`, so the mask shifts **left** by one each row (one column to the right on the board);
//! * `rd` — squares attacked along the ↙ anti-diagonals (`row + column` constant): the mask shifts
//!   **right** by one each row (one column to the left on the board).
//!
//! The free squares of the next row are `board_mask(n) & !(cols | ld | rd)` and the lowest free
//! square is `free & free.wrapping_neg()`.
//!
//! [`count_completions`] counts the `mirror` plan's row prefixes for the depth-first kernel, and
//! for every kernel those wider than the lanes' 32 bits (n = 33..=64): an explicit fixed-size
//! stack (no recursion),
//! the last-row shortcut (a queen placed on the second-to-last row leaves one column for the last
//! row, which is either free or not, so the last row is never descended into) and a two-row
//! lookahead. [`count_completions_recursive`] (recursion with the shortcut) and
//! [`count_completions_plain`] (recursion without it) are the textbook forms, kept as independent
//! references for tests and for the kernel benchmark that measures each idea.
//!
//! Neither allocates, locks or dispatches dynamically.

use std::sync::atomic::{AtomicBool, Ordering};

pub use crate::ids::MAX_N;

/// The mask of the `n` columns of an `n`-wide board: bits `0..n` set.
#[inline]
pub const fn board_mask(n: u32) -> u64 {
    if n >= 64 { u64::MAX } else { (1u64 << n) - 1 }
}

/// One level of an explicit search stack (used by the textbook bitmask counter and the
/// solution iterator): the squares of its row still to try, and the masks they came from.
#[derive(Clone, Copy, Default)]
pub(crate) struct Frame {
    pub free: u64,
    pub cols: u64,
    pub ld: u64,
    pub rd: u64,
}

/// A partial board of queens on rows `0..row`, seen from row `row`, the next one to fill.
///
/// ```
/// use nqueens::search::State;
/// let s = State::EMPTY.place(0b0010); // a queen in column 1 of row 0
/// assert_eq!(s.row, 1);
/// assert_eq!(s.cols, 0b0010);
/// assert_eq!(s.ld, 0b0100);
/// assert_eq!(s.rd, 0b0001);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct State {
    /// Columns holding a queen.
    pub cols: u64,
    /// Squares of the next row attacked along ↘ diagonals (the mask shifts left each row).
    pub ld: u64,
    /// Squares of the next row attacked along ↙ anti-diagonals (the mask shifts right each row).
    pub rd: u64,
    /// The next row to fill; also the number of queens placed.
    pub row: u32,
}

impl State {
    /// The empty board, seen from row 0.
    pub const EMPTY: State = State {
        cols: 0,
        ld: 0,
        rd: 0,
        row: 0,
    };

    /// The free squares of the next row on an `n`-wide board.
    #[inline]
    #[must_use]
    pub const fn free(&self, n: u32) -> u64 {
        board_mask(n) & !(self.cols | self.ld | self.rd)
    }

    /// The state after placing a queen on the square `bit` (a single set bit) of the next row.
    #[inline]
    #[must_use]
    pub const fn place(&self, bit: u64) -> State {
        State {
            cols: self.cols | bit,
            ld: (self.ld | bit) << 1,
            rd: (self.rd | bit) >> 1,
            row: self.row + 1,
        }
    }

    /// The state after placing a queen in column `col` of the next row; `None` when `col` is
    /// not a column of any board (64 or more).
    ///
    /// ```
    /// use nqueens::search::State;
    /// assert_eq!(State::EMPTY.place_col(1), Some(State::EMPTY.place(0b10)));
    /// assert_eq!(State::EMPTY.place_col(63).map(|s| s.cols), Some(1 << 63));
    /// assert_eq!(State::EMPTY.place_col(64), None);
    /// ```
    #[inline]
    #[must_use]
    pub const fn place_col(&self, col: u32) -> Option<State> {
        if col >= MAX_N {
            return None;
        }
        Some(self.place(1u64 << col))
    }

    /// The ways to complete this row prefix to a full `n`-queens solution, counted on the
    /// calling thread without vector lanes; `None` when there is no such board (`n` above
    /// [`MAX_N`](crate::Plan::MAX_N), or `self.row` above `n`). A full board (`row == n`) has one
    /// completion. One subtree's count always fits a `u64` on every board this crate can
    /// finish; sum subtrees in `u128`.
    ///
    /// ```
    /// use nqueens::search::State;
    /// assert_eq!(State::EMPTY.completions(8), Some(92));
    /// assert_eq!(State::EMPTY.place_col(1).unwrap().completions(6), Some(1));
    /// assert_eq!(State::EMPTY.completions(70), None);
    /// ```
    #[must_use]
    pub fn completions(self, n: u32) -> Option<u64> {
        count_completions(n, self)
    }
}

/// Where the search with a stop flag reads it: on entering a node with this many rows left
/// (about a millisecond of work below it at most on the boards that use this search).
const STOP_ROWS: usize = 12;

/// Counts the ways to complete `state` to a full `n`-queens solution; `None` when there is no
/// such board (`n` above [`MAX_N`], or `state.row` above `n`).
///
/// `state.row` may be anything from `0` to `n`; a full board (`row == n`) has one completion.
/// The count of one subtree always fits a `u64` for every board this crate can finish; callers
/// sum subtrees in `u128`.
///
/// The search keeps the free *columns* (`!cols`) rather than the occupied ones, so no board mask
/// is needed in the loop, holds the current level in registers and spills only the parent levels
/// to a fixed-size stack. Two prunings keep it off dead branches: a child is not entered when its
/// next row has no free square, nor when the row after that is already closed by the diagonals
/// of the queens placed so far. The last two rows are finished inline by `leaves`.
///
/// [`State::completions`] is its public face.
#[must_use]
pub fn count_completions(n: u32, state: State) -> Option<u64> {
    search::<false>(n, state, &AtomicBool::new(false))
}

/// [`count_completions`], reading `stop` on entering each node with 12 rows left; `None` also
/// when `stop` was raised before the count finished.
pub fn count_completions_until(n: u32, state: State, stop: &AtomicBool) -> Option<u64> {
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    search::<true>(n, state, stop)
}

/// The search of [`count_completions`]; with `STOP`, `stop` is read on entering a node with
/// [`STOP_ROWS`] rows left.
#[inline(always)]
fn search<const STOP: bool>(n: u32, state: State, stop: &AtomicBool) -> Option<u64> {
    if n > MAX_N || state.row > n {
        return None;
    }
    let rows_left = (n - state.row) as usize;
    let free_cols = board_mask(n) & !state.cols;
    let avail = free_cols & !(state.ld | state.rd);
    match rows_left {
        0 => return Some(1),
        1 => return Some(u64::from(avail.count_ones())),
        2 => return Some(leaves(free_cols, state.ld, state.rd, avail)),
        _ => {}
    }
    // Children at depth `last` have two rows left: they are finished by `leaves`.
    let last = rows_left - 3;
    // A child entered from depth `check` has STOP_ROWS rows left (never, on a smaller board).
    let check = rows_left.wrapping_sub(STOP_ROWS + 1);
    // The parent levels, one array per field (measured faster than an array of structs).
    let mut stack_free_cols = [0u64; MAX_N as usize];
    let mut stack_ld = [0u64; MAX_N as usize];
    let mut stack_rd = [0u64; MAX_N as usize];
    let mut stack_avail = [0u64; MAX_N as usize];
    let (mut free_cols, mut ld, mut rd, mut avail) = (free_cols, state.ld, state.rd, avail);
    let mut depth = 0usize;
    let mut count = 0u64;
    loop {
        if avail == 0 {
            if depth == 0 {
                return Some(count);
            }
            depth -= 1;
            free_cols = stack_free_cols[depth];
            ld = stack_ld[depth];
            rd = stack_rd[depth];
            avail = stack_avail[depth];
            continue;
        }
        let bit = avail & avail.wrapping_neg();
        avail ^= bit;
        let child_free_cols = free_cols ^ bit;
        let child_ld = (ld | bit) << 1;
        let child_rd = (rd | bit) >> 1;
        let child_avail = child_free_cols & !(child_ld | child_rd);
        // Lookahead: the next row must have a free square, and the row after it must not be
        // closed already by the diagonals of the queens placed so far.
        if child_avail == 0 || child_free_cols & !((child_ld << 1) | (child_rd >> 1)) == 0 {
            continue;
        }
        if depth == last {
            count += leaves(child_free_cols, child_ld, child_rd, child_avail);
            continue;
        }
        if STOP && depth == check && stop.load(Ordering::Relaxed) {
            return None;
        }
        stack_free_cols[depth] = free_cols;
        stack_ld[depth] = ld;
        stack_rd[depth] = rd;
        stack_avail[depth] = avail;
        depth += 1;
        free_cols = child_free_cols;
        ld = child_ld;
        rd = child_rd;
        avail = child_avail;
    }
}

/// Completions of a board with exactly two rows left: each free square of the first row leaves
/// one column for the last row, which is either free (one solution) or attacked (none).
#[inline(always)]
fn leaves(free_cols: u64, ld: u64, rd: u64, mut avail: u64) -> u64 {
    let mut count = 0;
    while avail != 0 {
        let bit = avail & avail.wrapping_neg();
        avail ^= bit;
        let last = (free_cols ^ bit) & !(((ld | bit) << 1) | ((rd | bit) >> 1));
        count += u64::from(last != 0);
    }
    count
}

#[cfg(test)]
/// The textbook recursive form of [`count_completions`], with the same last-row shortcut.
///
/// Kept as an independent reference for tests and for the kernel benchmark. Panics when there
/// is no such board (`n` above [`MAX_N`], or `state.row` above `n`).
///
/// ```
/// use nqueens::search::{count_completions_recursive, State};
/// assert_eq!(count_completions_recursive(8, State::EMPTY), 92);
/// ```
pub fn count_completions_recursive(n: u32, state: State) -> u64 {
    assert!(
        n <= MAX_N && state.row <= n,
        "a reference search of a board that exists"
    );
    descend::<true>(board_mask(n), n - state.row, state.cols, state.ld, state.rd)
}

#[cfg(test)]
/// The recursive kernel without the last-row shortcut: it descends into every row.
///
/// Exists only so the benchmark can measure what the shortcut is worth. Panics like
/// [`count_completions_recursive`].
///
/// ```
/// use nqueens::search::{count_completions_plain, State};
/// assert_eq!(count_completions_plain(8, State::EMPTY), 92);
/// ```
pub fn count_completions_plain(n: u32, state: State) -> u64 {
    assert!(
        n <= MAX_N && state.row <= n,
        "a reference search of a board that exists"
    );
    descend::<false>(board_mask(n), n - state.row, state.cols, state.ld, state.rd)
}

#[cfg(test)]
/// Plain recursion over the rows; with `SHORTCUT` the last row is counted by a popcount instead
/// of being descended into.
fn descend<const SHORTCUT: bool>(mask: u64, rows_left: u32, cols: u64, ld: u64, rd: u64) -> u64 {
    if rows_left == 0 {
        return 1;
    }
    let mut free = mask & !(cols | ld | rd);
    if SHORTCUT && rows_left == 1 {
        return u64::from(free.count_ones());
    }
    let mut count = 0;
    while free != 0 {
        let bit = free & free.wrapping_neg();
        free ^= bit;
        let (cols, ld, rd) = (cols | bit, (ld | bit) << 1, (rd | bit) >> 1);
        count += descend::<SHORTCUT>(mask, rows_left - 1, cols, ld, rd);
    }
    count
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::known;

    #[test]
    fn every_kernel_matches_the_known_totals() {
        for n in 0..=11u32 {
            let want = known::Known::of(n).map(|k| k.total).unwrap();
            assert_eq!(
                u128::from(count_completions(n, State::EMPTY).unwrap()),
                want,
                "stack n={n}"
            );
            assert_eq!(
                u128::from(count_completions_recursive(n, State::EMPTY)),
                want,
                "rec n={n}"
            );
            assert_eq!(
                u128::from(count_completions_plain(n, State::EMPTY)),
                want,
                "plain n={n}"
            );
        }
    }

    #[test]
    fn completions_of_a_partial_board_sum_to_the_whole() {
        let n = 9;
        let mut sum = 0;
        for c in 0..n {
            let s = State::EMPTY.place_col(c).unwrap();
            let part = count_completions(n, s).unwrap();
            assert_eq!(part, count_completions_recursive(n, s));
            sum += part;
        }
        assert_eq!(sum, 352);
    }

    #[test]
    fn a_full_or_nearly_full_board_is_counted_directly() {
        // 4-queens solution 1 3 0 2.
        let full = [1, 3, 0, 2]
            .iter()
            .fold(State::EMPTY, |s, &c| s.place_col(c).unwrap());
        assert_eq!(count_completions(4, full).unwrap(), 1);
        let three = [1, 3, 0]
            .iter()
            .fold(State::EMPTY, |s, &c| s.place_col(c).unwrap());
        assert_eq!(count_completions(4, three).unwrap(), 1);
        let dead_end = [0, 2]
            .iter()
            .fold(State::EMPTY, |s, &c| s.place_col(c).unwrap());
        assert_eq!(count_completions(4, dead_end).unwrap(), 0);
    }

    #[test]
    fn boards_that_do_not_exist_are_refused() {
        assert_eq!(count_completions(65, State::EMPTY), None);
        assert_eq!(count_completions(70, State::EMPTY), None);
        let two = State::EMPTY.place_col(0).unwrap().place_col(2).unwrap();
        assert_eq!(count_completions(1, two), None);
        assert_eq!(State::EMPTY.place_col(64), None);
        assert_eq!(State::EMPTY.place_col(u32::MAX), None);
    }

    #[test]
    fn a_raised_stop_flag_ends_a_long_search() {
        let stop = AtomicBool::new(false);
        let started = std::time::Instant::now();
        std::thread::scope(|scope| {
            scope.spawn(|| {
                std::thread::sleep(std::time::Duration::from_millis(20));
                stop.store(true, Ordering::Relaxed);
            });
            // Hours of work without the flag.
            assert_eq!(count_completions_until(40, State::EMPTY, &stop), None);
        });
        assert!(started.elapsed() < std::time::Duration::from_secs(5));
        let go = AtomicBool::new(false);
        assert_eq!(count_completions_until(10, State::EMPTY, &go), Some(724));
    }

    #[test]
    fn the_widest_board_has_a_full_mask() {
        assert_eq!(board_mask(64).count_ones(), 64);
        assert_eq!(State::EMPTY.free(64), u64::MAX);
    }
}

#[cfg(test)]
mod doc_examples {
    //! The examples of the crate-private items above, as tests.

    #[test]
    fn count_completions_until_example() {
        use crate::engine::kernel::{State, count_completions_until};
        use std::sync::atomic::AtomicBool;
        assert_eq!(
            count_completions_until(8, State::EMPTY, &AtomicBool::new(false)),
            Some(92)
        );
        assert_eq!(
            count_completions_until(20, State::EMPTY, &AtomicBool::new(true)),
            None
        );
    }

    #[test]
    fn board_mask_example() {
        use crate::engine::kernel::board_mask;
        assert_eq!(board_mask(4), 0b1111);
        assert_eq!(board_mask(64), u64::MAX);
        assert_eq!(board_mask(0), 0);
    }
}
