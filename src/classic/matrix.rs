//! The 2-D board: an `n × n` grid of cells, each free, holding a queen, or attacked.
//!
//! The most literal way to play the puzzle on paper. Start with an empty grid. To fill row `r`,
//! look at its cells from column 0 upward; on every cell still free, put a queen: copy the grid,
//! mark the queen, and mark every cell it attacks — the rest of its row, its column, and both of
//! its diagonals, in every direction — as attacked. Then fill row `r + 1` on the copy. A queen
//! on the last row is a solution; backing up is free, because the grid of the row above was
//! never changed.
//!
//! Testing a square is one look at one cell, but the cell already sums up the column and both
//! diagonals of every earlier queen, so each candidate reaches that single combined test
//! (`diagonal_checks = candidates`). The price is paid when placing: a copy of `n²` cells and
//! about `4n` marks per queen.
//!
//! The grids of all rows live in one buffer allocated before the search (one grid per depth),
//! so the search itself never allocates.

use super::{Event, Observer};

/// One square of the grid.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Cell {
    Free,
    Queen,
    Threatened,
}

/// Counts the solutions of the `n × n` board, reporting the work to `probe`.
pub fn count<O: Observer>(n: u32, probe: &mut O) -> u128 {
    let n = n as usize;
    if n == 0 {
        probe.event(Event::Solution);
        return 1;
    }
    let mut grids = vec![Cell::Free; (n + 1) * n * n];
    let mut solutions = 0;
    fill_row(n, 0, &mut grids, &mut solutions, probe);
    solutions
}

/// Tries every free cell of row `row` on the grid of depth `row` (the grid after `row` queens).
fn fill_row<O: Observer>(
    n: usize,
    row: usize,
    grids: &mut [Cell],
    solutions: &mut u128,
    probe: &mut O,
) {
    let size = n * n;
    for col in 0..n {
        if probe.stop() {
            return;
        }
        probe.event(Event::Try { row, col });
        probe.event(Event::DiagonalTest { row, col });
        if grids[row * size + row * n + col] != Cell::Free {
            probe.event(Event::Reject {
                row,
                col,
                line: None,
                by: None,
            });
            continue;
        }
        probe.event(Event::Place { row, col });
        if row + 1 == n {
            *solutions += 1;
            probe.event(Event::Solution);
        } else {
            let (done, rest) = grids.split_at_mut((row + 1) * size);
            let next = &mut rest[..size];
            next.copy_from_slice(&done[row * size..]);
            place(n, next, row, col);
            fill_row(n, row + 1, grids, solutions, probe);
        }
        probe.event(Event::Remove { row, col });
    }
}

/// Puts a queen on `(row, col)` of `grid` and marks every cell it attacks.
fn place(n: usize, grid: &mut [Cell], row: usize, col: usize) {
    let mark = |grid: &mut [Cell], r: usize, c: usize| grid[r * n + c] = Cell::Threatened;
    for i in 0..n {
        mark(grid, row, i);
        mark(grid, i, col);
    }
    // The four diagonal rays from the queen, out to the edges.
    let (r, c) = (row as isize, col as isize);
    for (dr, dc) in [(-1, -1), (-1, 1), (1, -1), (1, 1)] {
        let (mut i, mut j) = (r + dr, c + dc);
        while (0..n as isize).contains(&i) && (0..n as isize).contains(&j) {
            mark(grid, i as usize, j as usize);
            i += dr;
            j += dc;
        }
    }
    grid[row * n + col] = Cell::Queen;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_queen_threatens_its_row_column_and_diagonals_only() {
        let n = 5;
        let mut grid = vec![Cell::Free; n * n];
        place(n, &mut grid, 1, 2);
        let picture: Vec<String> = grid
            .chunks(n)
            .map(|row| {
                row.iter()
                    .map(|cell| match cell {
                        Cell::Free => '.',
                        Cell::Queen => 'Q',
                        Cell::Threatened => 'x',
                    })
                    .collect()
            })
            .collect();
        assert_eq!(picture, [".xxx.", "xxQxx", ".xxx.", "x.x.x", "..x.."]);
    }
}
