//! Bitboards: the engine's kernel, on a single thread and without symmetry.
//!
//! A partial board is three `u64` masks with one bit per column of the next row to fill:
//! `cols` (columns taken), `ld` (squares attacked along one diagonal direction; the mask shifts
//! left by one per row) and `rd` (the other direction; shifts right). One expression tests
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

use super::Probe;
use crate::engine::kernel::{Frame, MAX_N, board_mask};

/// Counts the solutions of the `n × n` board, reporting the work to `probe`.
///
/// # Panics
///
/// If `n` is above 64, the width of the masks.
pub fn count<P: Probe>(n: u32, probe: &mut P) -> u128 {
    assert!(
        n <= MAX_N,
        "the bitmask search handles boards up to {MAX_N} wide"
    );
    if n == 0 {
        return 1;
    }
    let width = u64::from(n);
    let mask = board_mask(n);
    // Row 0: every square is free.
    probe.candidates(width);
    probe.diagonal_checks(width);
    if n == 1 {
        probe.nodes(1);
        return 1;
    }
    // A queen placed at this depth is on the second-to-last row.
    let last = (n - 2) as usize;
    let mut stack = [Frame::default(); MAX_N as usize];
    stack[0].free = mask;
    let mut depth = 0usize;
    let mut solutions = 0u128;
    loop {
        let frame = stack[depth];
        if frame.free == 0 {
            if depth == 0 {
                return solutions;
            }
            depth -= 1;
            continue;
        }
        let bit = frame.free & frame.free.wrapping_neg();
        stack[depth].free = frame.free ^ bit;
        probe.nodes(1);
        let cols = frame.cols | bit;
        let ld = (frame.ld | bit) << 1;
        let rd = (frame.rd | bit) >> 1;
        let free = mask & !(cols | ld | rd);
        probe.candidates(width);
        probe.diagonal_checks(width);
        if depth == last {
            let completions = free.count_ones();
            probe.nodes(u64::from(completions));
            solutions += u128::from(completions);
        } else if free != 0 {
            depth += 1;
            stack[depth] = Frame { free, cols, ld, rd };
        }
    }
}

/// The documentation's examples of crate-internal items, as tests.
#[cfg(test)]
mod examples {
    #[test]
    fn module_example() {
        use crate::classic::{NoProbe, bitmask};
        assert_eq!(bitmask::count(8, &mut NoProbe), 92);
    }

    #[test]
    fn count_example() {
        use crate::classic::{Counters, bitmask};
        let mut counters = Counters::default();
        assert_eq!(bitmask::count(4, &mut counters), 2);
        assert_eq!(
            (
                counters.nodes,
                counters.candidates,
                counters.diagonal_checks
            ),
            (16, 60, 60)
        );
    }
}
