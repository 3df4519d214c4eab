//! Attack arrays: one flag per column and per diagonal, so a square is tested in O(1).
//!
//! Instead of comparing a candidate with every placed queen, remember which lines are taken.
//! A board has `n` columns, `2n − 1` ↙ anti-diagonals on which `r + c` is constant and `2n − 1`
//! ↘ diagonals on which `r − c` is constant (stored at index `r − c + n − 1`). Square `(r, c)` is open when its column
//! flag and both of its diagonal flags are clear: the **column test** first, then, only for a
//! candidate that passed it, the **diagonal test** of the two diagonal flags.
//!
//! Placing a queen sets its three flags; after the rows below have been searched, undoing it
//! clears them again, so one set of arrays serves the whole search.

use super::{Event, Line, Observer};

/// The taken lines of a partial board.
struct Lines {
    /// `cols[c]`: a queen stands in column `c`.
    cols: Vec<bool>,
    /// `sums[r + c]`: a queen stands on that ↙ anti-diagonal.
    sums: Vec<bool>,
    /// `diffs[r - c + n - 1]`: a queen stands on that ↘ diagonal.
    diffs: Vec<bool>,
}

/// Counts the solutions of the `n × n` board, reporting the work to `probe`.
pub fn count<O: Observer>(n: u32, probe: &mut O) -> u128 {
    let n = n as usize;
    if n == 0 {
        probe.event(Event::Solution);
        return 1;
    }
    let mut lines = Lines {
        cols: vec![false; n],
        sums: vec![false; 2 * n - 1],
        diffs: vec![false; 2 * n - 1],
    };
    let mut solutions = 0;
    fill_row(n, 0, &mut lines, &mut solutions, probe);
    solutions
}

/// Tries every column of row `row` against the lines taken by rows `0..row`.
fn fill_row<O: Observer>(
    n: usize,
    row: usize,
    lines: &mut Lines,
    solutions: &mut u128,
    probe: &mut O,
) {
    for col in 0..n {
        if probe.stop() {
            return;
        }
        probe.event(Event::Try { row, col });
        if lines.cols[col] {
            probe.event(reject(row, col, Line::Column));
            continue;
        }
        probe.event(Event::DiagonalTest { row, col });
        let (sum, diff) = (row + col, row + n - 1 - col);
        if lines.sums[sum] {
            probe.event(reject(row, col, Line::AntiDiagonal));
            continue;
        }
        if lines.diffs[diff] {
            probe.event(reject(row, col, Line::Diagonal));
            continue;
        }
        probe.event(Event::Place { row, col });
        if row + 1 == n {
            *solutions += 1;
            probe.event(Event::Solution);
        } else {
            set(lines, col, sum, diff, true);
            fill_row(n, row + 1, lines, solutions, probe);
            set(lines, col, sum, diff, false);
        }
        probe.event(Event::Remove { row, col });
    }
}

/// A rejection along `line`, whose queen the flags do not name.
#[inline(always)]
fn reject(row: usize, col: usize, line: Line) -> Event {
    Event::Reject {
        row,
        col,
        line: Some(line),
        by: None,
    }
}

/// Sets or clears the three lines of one queen.
#[inline]
fn set(lines: &mut Lines, col: usize, sum: usize, diff: usize, taken: bool) {
    lines.cols[col] = taken;
    lines.sums[sum] = taken;
    lines.diffs[diff] = taken;
}
