//! One array of columns: the queen of row `r` stands in column `queens[r]`.
//!
//! Putting exactly one queen on each row makes row conflicts impossible, so a partial board is
//! just the columns of its queens. To fill row `r`, try each column `c` from 0 upward and check it
//! against every queen already placed, the textbook way: first the **column test** (no placed
//! queen stands in column `c`), then, only for a candidate that passed it, the **diagonal test**
//! (no placed queen `i` has `|r − i| = |c − queens[i]|`). A candidate that passes both becomes the
//! queen of row `r`, and the search moves to row `r + 1`; backing up just overwrites the entry.
//!
//! Nothing is remembered between rows, so each test costs one comparison per placed queen: the
//! state is as small as it gets and the tests are the slowest of the four.

use super::{Event, Line, Observer};

/// Counts the solutions of the `n × n` board, reporting the work to `probe`.
pub fn count<O: Observer>(n: u32, probe: &mut O) -> u128 {
    let n = n as usize;
    if n == 0 {
        probe.event(Event::Solution);
        return 1;
    }
    let mut queens = vec![0usize; n];
    let mut solutions = 0;
    fill_row(n, 0, &mut queens, &mut solutions, probe);
    solutions
}

/// Tries every column of row `row`, given the queens of rows `0..row`.
fn fill_row<O: Observer>(
    n: usize,
    row: usize,
    queens: &mut [usize],
    solutions: &mut u128,
    probe: &mut O,
) {
    for col in 0..n {
        if probe.stop() {
            return;
        }
        probe.event(Event::Try { row, col });
        let placed = &queens[..row];
        if placed.contains(&col) {
            report_rejection(probe, row, col, placed);
            continue;
        }
        probe.event(Event::DiagonalTest { row, col });
        if placed
            .iter()
            .enumerate()
            .any(|(i, &q)| row - i == col.abs_diff(q))
        {
            report_rejection(probe, row, col, placed);
            continue;
        }
        probe.event(Event::Place { row, col });
        if row + 1 == n {
            *solutions += 1;
            probe.event(Event::Solution);
        } else {
            queens[row] = col;
            fill_row(n, row + 1, queens, solutions, probe);
        }
        probe.event(Event::Remove { row, col });
    }
}

/// Tells an observer that wants steps which queen of `placed` rejects square (`row`, `col`):
/// the one in its column, else the first on one of its diagonals. The search's own tests only
/// ask whether there is one (`contains`, `any`), as fast as a search without an observer; the
/// attacker is looked for here, for a rejection that is reported.
#[inline(always)]
fn report_rejection<O: Observer>(probe: &mut O, row: usize, col: usize, placed: &[usize]) {
    if !O::STEPS {
        return;
    }
    let column = placed
        .iter()
        .position(|&q| q == col)
        .map(|i| (Line::Column, i));
    let diagonal = || {
        let i = placed
            .iter()
            .enumerate()
            .position(|(i, &q)| row - i == col.abs_diff(q))?;
        // A queen up and to the left shares `row − column` (a ↘ diagonal); up and to the
        // right, `row + column` (a ↙ anti-diagonal).
        let line = if placed[i] < col {
            Line::Diagonal
        } else {
            Line::AntiDiagonal
        };
        Some((line, i))
    };
    if let Some((line, i)) = column.or_else(diagonal) {
        probe.event(Event::Reject {
            row,
            col,
            line: Some(line),
            by: Some((i, placed[i])),
        });
    }
}
