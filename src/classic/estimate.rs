//! Rough running times of the textbook algorithms, so that a comparison that would take minutes
//! can be refused before it starts.
//!
//! The time of a search is modelled as `nodes(n) × cost(n)`: the number of queens it places —
//! the same for every algorithm, tabulated exactly below from the bitmask counters — times a
//! cost per queen placed that grows like a power of `n` (the grid copy of [`super::matrix`],
//! the scan of placed queens of [`super::array`], the row of lookups of [`super::attack`]).
//! The constants were measured with optimised builds on a shared x86-64 machine; other machines
//! differ by a small factor, which is all a refusal needs.

use super::Algorithm;

/// Queens placed by the full search of the `n × n` board, `n = 0, 1, …` (exact).
pub(crate) const NODES: [u64; 17] = [
    0,
    1,
    2,
    5,
    16,
    53,
    152,
    551,
    2_056,
    8_393,
    35_538,
    166_925,
    856_188,
    4_674_889,
    27_358_552,
    171_129_071,
    1_141_190_302,
];

/// Estimated seconds of a plain (uninstrumented) search of the `n × n` board.
pub(crate) fn seconds(algorithm: Algorithm, n: u32) -> f64 {
    let (nanos, power) = cost(algorithm);
    nodes(n) * nanos * (f64::from(n) / 13.0).powf(power) * 1e-9
}

/// Estimated seconds of an instrumented search of the `n × n` board.
pub(crate) fn instrumented_seconds(algorithm: Algorithm, n: u32) -> f64 {
    seconds(algorithm, n) * INSTRUMENTED_RATIO
}

/// Instrumented time over plain time, measured at `n = 12` to `14`: between 1.0 and 1.5 for every
/// algorithm (the counters are a few additions per queen), with much noise; a middle value is used.
const INSTRUMENTED_RATIO: f64 = 1.3;

/// Queens placed by the full search of the `n × n` board: exact where tabulated, extrapolated
/// with the growth of the last tabulated step beyond.
pub(crate) fn nodes(n: u32) -> f64 {
    let n = n as usize;
    let last = NODES.len() - 1;
    if n <= last {
        return NODES[n] as f64;
    }
    let growth = NODES[last] as f64 / NODES[last - 1] as f64;
    NODES[last] as f64 * growth.powi((n - last) as i32)
}

/// Per algorithm: nanoseconds per queen placed at `n = 13`, and the power of `n` that cost grows
/// with. Measured as the fastest of five plain runs at `n = 8..=13` (bitmask: `10..=15`); below
/// `n = 12` the trees are small enough for the branch predictor to learn, so the larger boards
/// set the constants.
const fn cost(algorithm: Algorithm) -> (f64, f64) {
    match algorithm {
        // A copy of n² cells and about 4n marks per queen, but no test loops.
        Algorithm::Matrix => (90.0, 1.5),
        // Each of the n candidates is compared with every placed queen.
        Algorithm::Array => (260.0, 2.0),
        // n candidates, each one to three lookups.
        Algorithm::Attack => (130.0, 1.0),
        // A few mask operations per queen, whatever n.
        Algorithm::Bitmask => (18.0, 0.0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_node_table_is_what_the_search_counts() {
        for n in 0..=11u32 {
            let counted = Algorithm::Bitmask.count_instrumented(n).unwrap().nodes;
            assert_eq!(u128::from(NODES[n as usize]), counted, "n={n}");
        }
    }

    #[test]
    fn estimates_grow_with_n_and_order_the_algorithms() {
        for algorithm in Algorithm::ALL {
            for n in 4..40 {
                assert!(
                    seconds(algorithm, n + 1) > seconds(algorithm, n),
                    "{algorithm} n={n}"
                );
                assert!(instrumented_seconds(algorithm, n) >= seconds(algorithm, n));
            }
        }
        for n in [12, 16, 20] {
            assert!(seconds(Algorithm::Bitmask, n) < seconds(Algorithm::Attack, n));
        }
        assert!(seconds(Algorithm::Bitmask, 64).is_finite());
    }
}
