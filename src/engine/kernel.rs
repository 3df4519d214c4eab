//! The hot bitboard search: count the completions of one partial board.
//!
//! A partial board with queens on its first `row` rows is described by three `u64` masks, one
//! bit per column of the *next* row:
//!
//! * `cols` — columns already holding a queen;
//! * `ld` — squares attacked along the diagonals that move one column left-to-right per row
//!   (the mask shifts **left** by one each row);
//! * `rd` — squares attacked along the anti-diagonals (the mask shifts **right** by one each row).
//!
//! The free squares of the next row are `board_mask(n) & !(cols | ld | rd)` and the lowest free
//! square is `free & free.wrapping_neg()`.
//!
//! [`count_completions`] is the production kernel: an explicit fixed-size stack (no recursion),
//! and the last-row shortcut (when a queen is placed on the second-to-last row, the number of
//! completions is the popcount of the last row's free squares, 0 or 1, so that row is never
//! descended into). [`count_completions_recursive`] is the textbook recursive form, kept as a
//! reference for tests and for the kernel benchmark that measures one against the other.
//!
//! Neither allocates, locks or dispatches dynamically.

/// The largest board side the `u64` masks can represent.
pub const MAX_N: u32 = 64;

/// The mask of the `n` columns of an `n`-wide board: bits `0..n` set.
///
/// ```
/// use nqueens::engine::kernel::board_mask;
/// assert_eq!(board_mask(4), 0b1111);
/// assert_eq!(board_mask(64), u64::MAX);
/// assert_eq!(board_mask(0), 0);
/// ```
#[inline]
pub const fn board_mask(n: u32) -> u64 {
    if n >= 64 { u64::MAX } else { (1u64 << n) - 1 }
}

/// A partial board of queens on rows `0..row`, seen from row `row`, the next one to fill.
///
/// ```
/// use nqueens::engine::kernel::State;
/// let s = State::EMPTY.place(0b0010); // a queen in column 1 of row 0
/// assert_eq!(s.row, 1);
/// assert_eq!(s.cols, 0b0010);
/// assert_eq!(s.ld, 0b0100);
/// assert_eq!(s.rd, 0b0001);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct State {
    /// Columns holding a queen.
    pub cols: u64,
    /// Squares of the next row attacked along left-shifting diagonals.
    pub ld: u64,
    /// Squares of the next row attacked along right-shifting diagonals.
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
    pub const fn free(&self, n: u32) -> u64 {
        board_mask(n) & !(self.cols | self.ld | self.rd)
    }

    /// The state after placing a queen on the square `bit` (a single set bit) of the next row.
    #[inline]
    pub const fn place(&self, bit: u64) -> State {
        State {
            cols: self.cols | bit,
            ld: (self.ld | bit) << 1,
            rd: (self.rd | bit) >> 1,
            row: self.row + 1,
        }
    }

    /// The state after placing a queen in column `col` of the next row.
    #[inline]
    pub const fn place_col(&self, col: u32) -> State {
        self.place(1u64 << col)
    }
}

/// Counts the ways to complete `state` to a full `n`-queens solution.
///
/// `state.row` may be anything from `0` to `n`; a full board (`row == n`) has one completion.
/// The count of one subtree always fits a `u64` for every board this crate can finish; callers
/// sum subtrees in `u128`.
///
/// ```
/// use nqueens::engine::kernel::{count_completions, State};
/// assert_eq!(count_completions(8, State::EMPTY), 92);
/// assert_eq!(count_completions(6, State::EMPTY.place_col(1)), 1);
/// ```
pub fn count_completions(n: u32, state: State) -> u64 {
    debug_assert!(n <= MAX_N && state.row <= n);
    let rows_left = n - state.row;
    let first = state.free(n);
    match rows_left {
        0 => return 1,
        1 => return u64::from(first.count_ones()),
        _ => {}
    }
    let mask = board_mask(n);
    // Depth `last` is the second-to-last row: placing there uses the shortcut.
    let last = (rows_left - 2) as usize;
    let mut stack = [Frame::default(); MAX_N as usize];
    stack[0] = Frame {
        free: first,
        cols: state.cols,
        ld: state.ld,
        rd: state.rd,
    };
    let mut depth = 0usize;
    let mut count = 0u64;
    loop {
        let frame = stack[depth];
        if frame.free == 0 {
            if depth == 0 {
                return count;
            }
            depth -= 1;
            continue;
        }
        let bit = frame.free & frame.free.wrapping_neg();
        stack[depth].free = frame.free ^ bit;
        let cols = frame.cols | bit;
        let ld = (frame.ld | bit) << 1;
        let rd = (frame.rd | bit) >> 1;
        let free = mask & !(cols | ld | rd);
        if depth == last {
            count += u64::from(free.count_ones());
        } else if free != 0 {
            depth += 1;
            stack[depth] = Frame { free, cols, ld, rd };
        }
    }
}

/// One level of the explicit stack: the squares still to try and the masks they were taken from.
#[derive(Clone, Copy, Default)]
struct Frame {
    free: u64,
    cols: u64,
    ld: u64,
    rd: u64,
}

/// The textbook recursive form of [`count_completions`], with the same last-row shortcut.
///
/// Kept as an independent reference for tests and for the kernel benchmark.
///
/// ```
/// use nqueens::engine::kernel::{count_completions_recursive, State};
/// assert_eq!(count_completions_recursive(8, State::EMPTY), 92);
/// ```
pub fn count_completions_recursive(n: u32, state: State) -> u64 {
    fn descend(mask: u64, rows_left: u32, cols: u64, ld: u64, rd: u64) -> u64 {
        let mut free = mask & !(cols | ld | rd);
        if rows_left == 1 {
            return u64::from(free.count_ones());
        }
        let mut count = 0;
        while free != 0 {
            let bit = free & free.wrapping_neg();
            free ^= bit;
            count += descend(
                mask,
                rows_left - 1,
                cols | bit,
                (ld | bit) << 1,
                (rd | bit) >> 1,
            );
        }
        count
    }
    match n - state.row {
        0 => 1,
        rows_left => descend(board_mask(n), rows_left, state.cols, state.ld, state.rd),
    }
}

/// The recursive kernel without the last-row shortcut: it descends into every row.
///
/// Exists only so the benchmark can measure what the shortcut is worth.
pub fn count_completions_plain(n: u32, state: State) -> u64 {
    fn descend(mask: u64, rows_left: u32, cols: u64, ld: u64, rd: u64) -> u64 {
        if rows_left == 0 {
            return 1;
        }
        let mut free = mask & !(cols | ld | rd);
        let mut count = 0;
        while free != 0 {
            let bit = free & free.wrapping_neg();
            free ^= bit;
            count += descend(
                mask,
                rows_left - 1,
                cols | bit,
                (ld | bit) << 1,
                (rd | bit) >> 1,
            );
        }
        count
    }
    descend(board_mask(n), n - state.row, state.cols, state.ld, state.rd)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::known;

    #[test]
    fn every_kernel_matches_the_known_totals() {
        for n in 0..=11u32 {
            let want = known::total(n).unwrap();
            assert_eq!(
                u128::from(count_completions(n, State::EMPTY)),
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
            let s = State::EMPTY.place_col(c);
            let part = count_completions(n, s);
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
            .fold(State::EMPTY, |s, &c| s.place_col(c));
        assert_eq!(count_completions(4, full), 1);
        let three = [1, 3, 0].iter().fold(State::EMPTY, |s, &c| s.place_col(c));
        assert_eq!(count_completions(4, three), 1);
        let dead_end = [0, 2].iter().fold(State::EMPTY, |s, &c| s.place_col(c));
        assert_eq!(count_completions(4, dead_end), 0);
    }

    #[test]
    fn the_widest_board_has_a_full_mask() {
        assert_eq!(board_mask(64).count_ones(), 64);
        assert_eq!(State::EMPTY.free(64), u64::MAX);
    }
}
