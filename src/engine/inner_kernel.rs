//! The kernel of the `symmetric` plan: count the completions of a board whose border queens (and
//! perhaps a few more) are already placed, skipping the rows that already hold a queen.
//!
//! An [`InnerBoard`] keeps the usual three masks (`cols`, `ld` shifting left each row, `rd`
//! shifting right each row), with two differences from [`super::kernel::State`]:
//!
//! * **Offset columns.** Column `c` is bit `c + OFFSET`. Queens placed *below* the current row
//!   have diagonals that, projected up to the current row, may lie left of column 0; the offset
//!   keeps those bits in the word so they slide onto the board at the right row by themselves.
//!   Every bit outside the board is set in `cols`, so the free squares of a row are just
//!   `!(cols | ld | rd)`, with no board mask.
//! * **Skipped rows.** Rows already holding a queen are stepped over: the masks shift by the
//!   distance to the next free row (a per-depth table built once per task), so the search only
//!   ever branches on rows it must fill.
//!
//! The search is an explicit stack (no recursion) with three shortcuts:
//!
//! * **Last two rows in closed form.** Placing a queen on the third-to-last free row adds the
//!   number of ways to fill the last two, computed from their free squares with four popcounts
//!   (see `last_two_rows`), instead of descending.
//! * **Lookahead.** A child is pushed only if its next free row has a free square and the two
//!   free rows after that have one each even before the next queen is placed.
//! * **Hardware bit instructions.** On x86-64 a copy compiled with `popcnt` and BMI2 is chosen at
//!   run time (once per task) when the CPU has them; the portable copy runs elsewhere.
//!
//! [`count_inner`] is monomorphised on a `const STATS: bool`: with `false` (production) the node
//! counter is compiled out entirely; with `true` every placement is counted, so the cost per node
//! can be measured without slowing the production path.

use std::fmt;

/// Bit of column 0; room for diagonals of queens below the current row that are still left of
/// the board.
pub const OFFSET: u32 = 20;

/// The widest board an [`InnerBoard`] with a queen in row 0 always holds: seen from row 1, the
/// right-shifting diagonal of a queen on the bottom-right corner sits at bit `OFFSET + 2n − 3`,
/// which must stay below 64, and the left-shifting diagonal of one on the bottom-left corner at
/// `OFFSET + 2 − n`, which must not go below 0.
pub const MAX_INNER_N: u32 = 22;

/// A partial board seen from its next row to fill, with rows that already hold a queen marked.
///
/// ```
/// use nqueens::engine::inner_kernel::{count_inner, InnerBoard};
/// // The 6-board with one queen pre-placed in row 3, column 0: rows 0..=2 and 4..=5 remain.
/// let board = InnerBoard::new(6, &[(3, 0)]).unwrap();
/// assert_eq!(count_inner::<false>(&board, &mut 0), 1);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct InnerBoard {
    /// Columns holding a queen, plus every bit outside the board.
    pub cols: u64,
    /// Left-shifting diagonals attacked, seen from row `row`.
    pub ld: u64,
    /// Right-shifting diagonals attacked, seen from row `row`.
    pub rd: u64,
    /// Rows holding a queen (bit `r` for row `r`).
    pub taken_rows: u64,
    /// The row the masks are seen from: every row above it holds a queen.
    pub row: u8,
    /// Board side.
    pub n: u8,
}

impl fmt::Debug for InnerBoard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("InnerBoard")
            .field("n", &self.n)
            .field("row", &self.row)
            .field("cols", &format_args!("{:#x}", self.cols))
            .field("ld", &format_args!("{:#x}", self.ld))
            .field("rd", &format_args!("{:#x}", self.rd))
            .field("taken_rows", &format_args!("{:#x}", self.taken_rows))
            .finish()
    }
}

impl InnerBoard {
    /// The `n`-board with queens on `queens` (`(row, column)` pairs), seen from its first row
    /// without a queen. `None` when the board is wider than [`MAX_INNER_N`], a square is off
    /// the board, two queens attack each other, or a diagonal does not fit the word (possible
    /// only for the widest boards with row 0 empty; boards with a queen in row 0 always fit).
    pub fn new(n: u32, queens: &[(u32, u32)]) -> Option<InnerBoard> {
        if n > MAX_INNER_N || n == 0 {
            return None;
        }
        for (a, &(r, c)) in queens.iter().enumerate() {
            if r >= n || c >= n {
                return None;
            }
            let attacked = queens[..a]
                .iter()
                .any(|&(r2, c2)| r2 == r || c2 == c || r.abs_diff(r2) == c.abs_diff(c2));
            if attacked {
                return None;
            }
        }
        let taken_rows: u64 = queens.iter().map(|&(r, _)| 1u64 << r).sum();
        let row = (!taken_rows).trailing_zeros().min(n);
        let outside = !(((1u64 << n) - 1) << OFFSET);
        let mut board = InnerBoard {
            cols: outside,
            ld: 0,
            rd: 0,
            taken_rows,
            row: row as u8,
            n: n as u8,
        };
        for &(r, c) in queens {
            board.cols |= 1u64 << (c + OFFSET);
            // Diagonal c − r seen from `row` is at column c − r + row; anti-diagonal c + r at
            // column c + r − row. Both must fit the word.
            let ld = (c + OFFSET + row).checked_sub(r).filter(|&b| b < 64)?;
            let rd = (c + OFFSET + r).checked_sub(row).filter(|&b| b < 64)?;
            board.ld |= 1u64 << ld;
            board.rd |= 1u64 << rd;
        }
        Some(board)
    }

    /// The rows still to fill.
    #[inline]
    pub fn free_rows(&self) -> u64 {
        let n = u32::from(self.n);
        let below = !((1u64 << self.row) - 1);
        ((1u64 << n) - 1) & below & !self.taken_rows
    }

    /// The free columns (`0..n`) of the first row still to fill, with that row; `None` when
    /// every row holds a queen.
    pub fn first_free_row(&self) -> Option<(u32, u64)> {
        let rows = self.free_rows();
        if rows == 0 {
            return None;
        }
        let r = rows.trailing_zeros();
        let gap = r - u32::from(self.row);
        let free = !(self.cols | self.ld << gap | self.rd >> gap);
        Some((r, free >> OFFSET))
    }

    /// This board with one more queen, at `col` of the first row still to fill, seen from the
    /// next free row. The caller chooses a free column (see [`InnerBoard::first_free_row`]).
    pub fn place(&self, col: u32) -> InnerBoard {
        let (r, free) = self.first_free_row().expect("a free row");
        debug_assert!(free & (1u64 << col) != 0);
        let bit = 1u64 << (col + OFFSET);
        let gap = r - u32::from(self.row);
        let taken_rows = self.taken_rows | (1u64 << r);
        let next = (!taken_rows).trailing_zeros().min(u32::from(self.n));
        InnerBoard {
            cols: self.cols | bit,
            ld: ((self.ld << gap) | bit) << (next - r),
            rd: ((self.rd >> gap) | bit) >> (next - r),
            taken_rows,
            row: next as u8,
            n: self.n,
        }
    }
}

/// One level of the explicit stack.
#[derive(Clone, Copy, Default)]
struct Frame {
    free: u64,
    cols: u64,
    ld: u64,
    rd: u64,
}

/// The completions of the last two free rows, `gap` rows apart, whose free squares before
/// either is filled are `upper` and `lower`.
///
/// A queen on square `x` of the upper row takes exactly three squares of the lower one: `x`
/// (its column), `x << gap` and `x >> gap` (its diagonals), so summing over `x`:
/// `|upper|·|lower| − |upper ∩ lower| − |(upper << gap) ∩ lower| − |(upper >> gap) ∩ lower|`.
#[inline(always)]
fn last_two_rows(upper: u64, lower: u64, gap: u32) -> u64 {
    let pairs = upper.count_ones() * lower.count_ones();
    let taken = (upper & lower).count_ones()
        + ((upper << gap) & lower).count_ones()
        + ((upper >> gap) & lower).count_ones();
    u64::from(pairs - taken)
}

/// Counts the completions of `board`; with `STATS`, adds the number of queens placed (search
/// nodes) to `nodes`, which is left alone otherwise.
///
/// ```
/// use nqueens::engine::inner_kernel::{count_inner, InnerBoard};
/// let empty = InnerBoard::new(8, &[]).unwrap();
/// let mut nodes = 0;
/// assert_eq!(count_inner::<true>(&empty, &mut nodes), 92);
/// assert!(nodes > 92);
/// ```
pub fn count_inner<const STATS: bool>(board: &InnerBoard, nodes: &mut u64) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("popcnt") && std::arch::is_x86_feature_detected!("bmi2")
    {
        // SAFETY: the CPU has just been checked for every feature the function enables.
        return unsafe { count_inner_x86::<STATS>(board, nodes) };
    }
    search::<STATS>(board, nodes)
}

/// [`search`] compiled with the hardware popcount and the flag-free variable shifts, which the
/// baseline x86-64 target lacks; chosen at run time, once per task.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt,bmi1,bmi2")]
fn count_inner_x86<const STATS: bool>(board: &InnerBoard, nodes: &mut u64) -> u64 {
    search::<STATS>(board, nodes)
}

/// The search behind [`count_inner`], inlined into each compiled variant.
#[inline(always)]
fn search<const STATS: bool>(board: &InnerBoard, nodes: &mut u64) -> u64 {
    let mut rows = board.free_rows();
    let m = rows.count_ones() as usize;
    if m == 0 {
        return 1;
    }
    let first = rows.trailing_zeros();
    let gap = first - u32::from(board.row);
    let cols = board.cols;
    let ld = board.ld << gap;
    let rd = board.rd >> gap;
    let free = !(cols | ld | rd);
    if m == 1 {
        if STATS {
            *nodes += u64::from(free.count_ones());
        }
        return u64::from(free.count_ones());
    }
    // shift[d]: rows from the d-th free row to the next one.
    let mut shift = [0u32; 64];
    let mut prev = first;
    rows &= rows - 1;
    let mut d = 0;
    while rows != 0 {
        let r = rows.trailing_zeros();
        shift[d] = r - prev;
        prev = r;
        d += 1;
        rows &= rows - 1;
    }
    if m == 2 {
        let last = last_two_rows(free, !(cols | ld << shift[0] | rd >> shift[0]), shift[0]);
        if STATS {
            *nodes += u64::from(free.count_ones()) + last;
        }
        return last;
    }
    // Placing a queen at depth `last` (the third-to-last free row) counts the last two rows in
    // closed form.
    let last = m - 3;
    // The current frame lives in registers; the stack holds only the frames above it.
    let mut stack = [Frame::default(); 64];
    let mut top = Frame { free, cols, ld, rd };
    let mut depth = 0usize;
    let mut count = 0u64;
    let mut placed = 0u64;
    loop {
        if top.free == 0 {
            if depth == 0 {
                break;
            }
            depth -= 1;
            top = stack[depth];
            continue;
        }
        let bit = top.free & top.free.wrapping_neg();
        top.free ^= bit;
        let s = shift[depth];
        let cols = top.cols | bit;
        let ld = (top.ld | bit) << s;
        let rd = (top.rd | bit) >> s;
        let free = !(cols | ld | rd);
        if STATS {
            placed += 1;
        }
        if depth == last {
            let s2 = shift[depth + 1];
            let leaves = last_two_rows(free, !(cols | ld << s2 | rd >> s2), s2);
            if STATS {
                placed += u64::from(free.count_ones()) + leaves;
            }
            count += leaves;
        } else if free != 0 {
            // Lookahead: the two free rows after next must each have a square even before the
            // next queen is placed.
            let s2 = shift[depth + 1];
            let s3 = s2 + shift[depth + 2];
            if (!(cols | ld << s2 | rd >> s2) != 0) & (!(cols | ld << s3 | rd >> s3) != 0) {
                stack[depth] = top;
                depth += 1;
                top = Frame { free, cols, ld, rd };
            }
        }
    }
    if STATS {
        *nodes += placed;
    }
    count
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::kernel::State;
    use crate::known;

    #[test]
    fn the_empty_board_gives_the_known_totals() {
        for n in 1..=MAX_INNER_N.min(11) {
            let b = InnerBoard::new(n, &[]).unwrap();
            assert_eq!(
                Some(u128::from(count_inner::<false>(&b, &mut 0))),
                known::total(n),
                "n={n}"
            );
        }
    }

    #[test]
    fn queens_below_the_first_row_are_skipped_and_counted_like_a_row_search() {
        // Every placement of a queen in column c of the last row, and in (r, 0).
        for n in 5..=10u32 {
            for c in 0..n {
                let b = InnerBoard::new(n, &[(n - 1, c)]).unwrap();
                let want: u64 = (0..n)
                    .filter(|&c0| c0 != c)
                    .map(|c0| {
                        let s = State::EMPTY.place_col(c0);
                        brute_with(n, s, &[(n - 1, c)])
                    })
                    .sum();
                assert_eq!(count_inner::<false>(&b, &mut 0), want, "n={n} c={c}");
            }
        }
    }

    /// Completions of `state` whose queens include `fixed`, by a plain row search.
    fn brute_with(n: u32, state: State, fixed: &[(u32, u32)]) -> u64 {
        if state.row == n {
            return 1;
        }
        let mut free = state.free(n);
        if let Some(&(_, c)) = fixed.iter().find(|&&(r, _)| r == state.row) {
            free &= 1u64 << c;
        }
        let mut total = 0;
        while free != 0 {
            let bit = free & free.wrapping_neg();
            free ^= bit;
            total += brute_with(n, state.place(bit), fixed);
        }
        total
    }

    #[test]
    fn placing_a_queen_matches_pre_placing_it() {
        let n = 9;
        let b = InnerBoard::new(n, &[(0, 3), (8, 5), (4, 0)]).unwrap();
        let (r, mut free) = b.first_free_row().unwrap();
        assert_eq!(r, 1);
        let mut sum = 0;
        while free != 0 {
            let c = free.trailing_zeros();
            free &= free - 1;
            let child = b.place(c);
            let direct = InnerBoard::new(n, &[(0, 3), (8, 5), (4, 0), (1, c)]).unwrap();
            assert_eq!(child, direct, "c={c}");
            sum += count_inner::<false>(&child, &mut 0);
        }
        assert_eq!(sum, count_inner::<false>(&b, &mut 0));
        assert_eq!(sum, brute_with(n, State::EMPTY, &[(0, 3), (8, 5), (4, 0)]));
    }

    #[test]
    fn statistics_count_nodes_without_changing_the_count() {
        let b = InnerBoard::new(10, &[(0, 2)]).unwrap();
        let mut nodes = 0;
        let with = count_inner::<true>(&b, &mut nodes);
        let mut untouched = 7;
        assert_eq!(with, count_inner::<false>(&b, &mut untouched));
        assert_eq!(untouched, 7);
        assert!(nodes > with);
    }

    #[test]
    fn bad_boards_are_refused() {
        assert!(InnerBoard::new(MAX_INNER_N + 1, &[]).is_none());
        assert!(InnerBoard::new(8, &[(0, 0), (1, 1)]).is_none());
        assert!(InnerBoard::new(8, &[(0, 8)]).is_none());
        let m = MAX_INNER_N;
        assert!(InnerBoard::new(m, &[(0, 5), (m - 1, 0), (m - 2, m - 1)]).is_some());
        assert!(InnerBoard::new(m, &[(m - 1, 0)]).is_none());
    }
}
