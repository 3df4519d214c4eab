//! Counts and estimates called from inside rayon parallel iterators: no nesting, no stack
//! overflow, the right sums.

use nqueens::estimate::{Budget, EstimateOptions, estimate};
use nqueens::{CountOptions, Kernel, RunControl, Strategy, count, count_with};
use rayon::prelude::*;

/// How many counts of the 6-board the global pool runs: enough to nest thousands deep before
/// (it aborted after about 800), few enough for a test build on two cores;
/// `NQUEENS_NESTED_COUNTS` asks for another number (100000 by hand).
const SMALL_COUNTS: u64 = 20_000;

#[test]
fn small_counts_inside_a_parallel_iterator() {
    let counts = std::env::var("NQUEENS_NESTED_COUNTS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(SMALL_COUNTS);
    let options = CountOptions::default();
    let sum: u128 = (0..counts)
        .into_par_iter()
        .map(|_| count(6, &options).unwrap().total)
        .sum();
    assert_eq!(sum, u128::from(counts) * 4);
}

#[test]
fn counts_on_a_pool_inside_a_parallel_iterator() {
    // n = 12 is searched on a pool; one thread more than the global pool, so that it is
    // another pool than the caller's.
    let options = CountOptions::new(rayon::current_num_threads() + 1, Strategy::Mirror);
    let sum: u128 = (0..100)
        .into_par_iter()
        .map(|_| count(12, &options).unwrap().total)
        .sum();
    assert_eq!(sum, 100 * 14_200);
    // The same size as the caller's pool: each count on its own worker.
    let options = CountOptions::new(rayon::current_num_threads(), Strategy::Symmetric);
    let sum: u128 = (0..200)
        .into_par_iter()
        .map(|_| count(12, &options).unwrap().total)
        .sum();
    assert_eq!(sum, 200 * 14_200);
}

#[test]
fn count_with_a_given_pool_inside_its_own_parallel_iterator() {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    let control = RunControl::default().with_pool(&pool);
    let options = CountOptions::new(2, Strategy::Symmetric);
    let sum: u128 = pool.install(|| {
        (0..500)
            .into_par_iter()
            .map(|i| {
                count_with(8 + (i % 5), &options, &control)
                    .unwrap()
                    .counts
                    .total
            })
            .sum()
    });
    // 92 + 352 + 724 + 2680 + 14200, 100 times each.
    assert_eq!(sum, 100 * (92 + 352 + 724 + 2_680 + 14_200));
}

#[test]
fn estimates_inside_a_parallel_iterator() {
    let options = EstimateOptions::new(Budget::Samples(64))
        .with_seed(7)
        .with_threads(2)
        .with_kernel(Kernel::Auto);
    let alone = estimate(12, &options).unwrap().estimate_total;
    let all: Vec<f64> = (0..64)
        .into_par_iter()
        .map(|_| estimate(12, &options).unwrap().estimate_total)
        .collect();
    assert!(all.iter().all(|&e| e == alone), "{alone} {all:?}");
}
