//! Counts and estimates called from inside rayon parallel iterators: no nesting, no stack
//! overflow, the right sums.

use nqueens::estimation::{Budget, EstimateOptions, estimate};
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

/// Runs `work` on a thread of its own and fails the test, instead of hanging it, if it has not
/// finished within `limit`.
fn within<T: Send + 'static>(
    limit: std::time::Duration,
    work: impl FnOnce() -> T + Send + 'static,
) -> T {
    let (done, finished) = std::sync::mpsc::channel();
    std::thread::spawn(move || done.send(work()));
    finished
        .recv_timeout(limit)
        .unwrap_or_else(|_| panic!("not finished within {limit:?}: the workers are stuck"))
}

#[test]
fn two_pools_whose_workers_count_on_each_other_finish() {
    use std::sync::Arc;
    let a = Arc::new(
        rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap(),
    );
    let b = Arc::new(
        rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap(),
    );
    // A's parallel iterator counts on B while B's counts on A, 200 counts each way.
    let crossed = |on: Arc<rayon::ThreadPool>, to: Arc<rayon::ThreadPool>| {
        move || {
            on.install(|| {
                (0..200u32)
                    .into_par_iter()
                    .map(|i| {
                        let control = RunControl::default().with_pool(&to);
                        let options = CountOptions::new(2, Strategy::Mirror);
                        count_with(10 + i % 3, &options, &control)
                            .unwrap()
                            .counts
                            .total
                    })
                    .sum::<u128>()
            })
        }
    };
    let limit = std::time::Duration::from_secs(60);
    let sums = within(limit, move || {
        // Both at once.
        let one_way = std::thread::spawn(crossed(Arc::clone(&a), Arc::clone(&b)));
        let other_way = std::thread::spawn(crossed(b, a));
        (one_way.join().unwrap(), other_way.join().unwrap())
    });
    // 724 + 2680 + 14200, about 67 times each.
    let sum = 67 * 724 + 67 * 2_680 + 66 * 14_200;
    assert_eq!(sums, (sum, sum));
}

#[test]
fn a_count_inside_a_pool_uses_all_of_its_workers() {
    use std::collections::HashSet;
    use std::sync::Mutex;
    use std::time::{Duration, Instant};
    const SIZE: usize = 3;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(SIZE)
        .build()
        .unwrap();
    for options in [
        CountOptions::default().with_strategy(Strategy::Mirror),
        CountOptions::new(SIZE, Strategy::Mirror),
    ] {
        // Each worker's first task waits until every worker of the pool has finished one: a
        // count on fewer workers would never get there, and fails after the wait below.
        let seen: Mutex<HashSet<usize>> = Mutex::new(HashSet::new());
        let watch = |_: &nqueens::TaskOutcome| {
            let me = rayon::current_thread_index().expect("tasks run on the pool's workers");
            seen.lock().unwrap().insert(me);
            let waited = Instant::now();
            while seen.lock().unwrap().len() < SIZE && waited.elapsed() < Duration::from_secs(20) {
                std::thread::sleep(Duration::from_millis(1));
            }
        };
        let control = RunControl::default().with_watcher(&watch);
        let run = pool.install(|| count_with(13, &options, &control)).unwrap();
        assert_eq!((run.counts.total, run.counts.threads), (73_712, SIZE));
        assert_eq!(seen.into_inner().unwrap().len(), SIZE, "{options:?}");
    }
}
