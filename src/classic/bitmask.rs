//! Bitboards: the engine's kernel, on a single thread and without symmetry.
//!
//! A partial board is three `u64` masks with one bit per column of the next row to fill:
//! `cols` (columns taken), `ld` (squares attacked along ↘ diagonals, `row − column` constant: bit
//! `c` is column `c`, so the mask shifts left by one per row) and `rd` (along ↙ anti-diagonals,
//! `row + column` constant; shifts right). One expression tests
//! every square of the row against every placed queen at once:
//! `free = mask & !(cols | ld | rd)`. The search then places a queen on each set bit of `free`,
//! lowest (column 0) first — `free & free.wrapping_neg()` — exactly the order of the other
//! algorithms, and walks the tree with an explicit fixed-size stack instead of recursion.
//!
//! **What it counts.** Computing `free` examines all `n` squares of the row, and each reaches
//! the single combined test, so every extended partial board adds `n` to both `candidates` and
//! `diagonal_checks`. Each set bit of `free` that gets a queen is a node. Like the engine's
//! kernel, it does not descend into the last row: when a queen lands on the second-to-last row,
//! the last row's `free` mask is computed (its `n` candidates) and each of its bits is a queen
//! and a solution, counted with one popcount. The counters are the same as if it had descended.

use super::{Event, Line, Observer};
use crate::engine::kernel::{Frame, MAX_N, board_mask};

/// Counts the solutions of the `n × n` board, reporting the work to `probe`.
///
/// The events come in the order of the other algorithms: a square that fails the row's mask is
/// reported (tried and rejected) just before the next square that passes it, or when the row is
/// done; for a [`NoProbe`](super::NoProbe) every such loop is empty and compiles away.
///
/// # Panics
///
/// If `n` is above 64, the width of the masks.
pub fn count<O: Observer>(n: u32, probe: &mut O) -> u128 {
    assert!(
        n <= MAX_N,
        "the bitmask search handles boards up to {MAX_N} wide"
    );
    if n == 0 {
        probe.event(Event::Solution);
        return 1;
    }
    let width = n as usize;
    let mask = board_mask(n);
    // Without steps: the first row's squares, each tried and tested at once by its mask.
    let row_work = u64::from(n);
    if !O::STEPS {
        probe.tally(row_work, row_work, 0);
    }
    if n == 1 {
        if probe.stop() {
            return 0;
        }
        // Row 0 is the last row: its one square is free.
        let square = (0, 0);
        open_square(probe, square);
        if !O::STEPS {
            probe.tally(0, 0, 1);
        }
        probe.event(Event::Solution);
        probe.event(Event::Remove { row: 0, col: 0 });
        return 1;
    }
    // A queen placed at this depth is on the second-to-last row.
    let last = (n - 2) as usize;
    let mut stack = [Frame::default(); MAX_N as usize];
    stack[0].free = mask;
    let mut depth = 0usize;
    let mut solutions = 0u128;
    loop {
        if probe.stop() {
            return solutions;
        }
        let frame = stack[depth];
        let from = if O::STEPS {
            next_unreported(&frame, mask)
        } else {
            0
        };
        if frame.free == 0 {
            reject_squares(probe, depth, &frame, from, width);
            if depth == 0 {
                return solutions;
            }
            depth -= 1;
            let queen = stack[depth + 1].cols ^ stack[depth].cols;
            probe.event(Event::Remove {
                row: depth,
                col: queen.trailing_zeros() as usize,
            });
            continue;
        }
        let bit = frame.free & frame.free.wrapping_neg();
        let col = bit.trailing_zeros() as usize;
        reject_squares(probe, depth, &frame, from, col);
        open_square(probe, (depth, col));
        stack[depth].free = frame.free ^ bit;
        let cols = frame.cols | bit;
        let ld = (frame.ld | bit) << 1;
        let rd = (frame.rd | bit) >> 1;
        let free = mask & !(cols | ld | rd);
        let child = Frame { free, cols, ld, rd };
        if !O::STEPS {
            // The queen, and the child row's squares examined by one mask operation.
            probe.tally(row_work, row_work, 1);
        }
        if depth == last && !O::STEPS {
            // The last row's free squares are queens and solutions: one popcount.
            let queens = u64::from(free.count_ones());
            probe.tally(0, 0, queens);
            solutions += u128::from(queens);
        } else if depth == last {
            // The last row, without descending: each free square is a queen and a solution.
            let row = depth + 1;
            for c in 0..width {
                if probe.stop() {
                    return solutions;
                }
                if free >> c & 1 == 1 {
                    open_square(probe, (row, c));
                    solutions += 1;
                    probe.event(Event::Solution);
                    probe.event(Event::Remove { row, col: c });
                } else {
                    reject_squares(probe, row, &child, c, c + 1);
                }
            }
            probe.event(Event::Remove { row: depth, col });
        } else if free != 0 {
            depth += 1;
            stack[depth] = child;
        } else {
            reject_squares(probe, depth + 1, &child, 0, width);
            probe.event(Event::Remove { row: depth, col });
        }
    }
}

/// The first square of `frame`'s row not reported yet: the one after the highest free square
/// already taken from its `free` mask (0 when none was).
#[inline(always)]
fn next_unreported(frame: &Frame, mask: u64) -> usize {
    let tried = mask & !(frame.cols | frame.ld | frame.rd) & !frame.free;
    (u64::BITS - tried.leading_zeros()) as usize
}

/// A square that passes the row's mask: tried, tested, a queen.
#[inline(always)]
fn open_square<O: Observer>(probe: &mut O, (row, col): (usize, usize)) {
    if !O::STEPS {
        return;
    }
    probe.event(Event::Try { row, col });
    probe.event(Event::DiagonalTest { row, col });
    probe.event(Event::Place { row, col });
}

/// Reports the attacked squares of columns `from..to` of `row` (masks `frame`) as tried and
/// rejected, naming the first mask that holds each: columns, then `rd` (a queen up and to the
/// right: the same `row + column`, a ↙ anti-diagonal), then `ld` (up and to the left: the same
/// `row − column`, a ↘ diagonal).
#[inline(always)]
fn reject_squares<O: Observer>(probe: &mut O, row: usize, frame: &Frame, from: usize, to: usize) {
    if !O::STEPS {
        return;
    }
    for col in from..to {
        let line = if frame.cols >> col & 1 == 1 {
            Line::Column
        } else if frame.rd >> col & 1 == 1 {
            Line::AntiDiagonal
        } else if frame.ld >> col & 1 == 1 {
            Line::Diagonal
        } else {
            continue;
        };
        probe.event(Event::Try { row, col });
        probe.event(Event::DiagonalTest { row, col });
        probe.event(Event::Reject {
            row,
            col,
            line: Some(line),
            by: None,
        });
    }
}
