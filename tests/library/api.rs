//! The library as another crate uses it: code that compiles whichever features are on, the
//! threads a count reports, the worker threads the library keeps, a `Debug` on every type,
//! refused thread counts, one time type and one unique type across results, and options read
//! from partial JSON.

use nqueens::journal::Shard;
use nqueens::{CountOptions, Kernel, RunControl, Strategy, count, count_with, known};

/// A `match` on a kernel with a `_` arm, and `Kernel::ALL` as a slice: what compiles with and
/// without the `gpu` feature (the test suite runs with both).
#[test]
fn code_on_kernels_compiles_whichever_features_are_on() {
    fn describe(kernel: Kernel) -> &'static str {
        match kernel {
            Kernel::Auto => "the fastest",
            Kernel::DepthFirst => "the reference",
            Kernel::PortableLanes => "plain Rust",
            _ => "another",
        }
    }
    let all: &[Kernel] = Kernel::ALL;
    assert_eq!(all[0], Kernel::Auto);
    assert_eq!(describe(all[0]), "the fastest");
    assert!(all.iter().filter(|&&k| describe(k) == "another").count() >= 3);
    for kernel in Kernel::available() {
        assert!(all.contains(&kernel), "{kernel}");
    }
    // The options of a count are built without naming their fields.
    let options = CountOptions::new(1, Strategy::Mirror).with_kernel(all[all.len() - 1]);
    assert_eq!(options.threads, 1);
}

/// A shard is made by `Shard::new` (or parsed), which refuses one that does not exist, and read
/// through its accessors.
#[test]
fn a_shard_is_checked_when_made_and_read_through_accessors() {
    let shard = Shard::new(3, 8).unwrap();
    assert_eq!((shard.index(), shard.count()), (3, 8));
    assert!(Shard::new(8, 8).is_err() && Shard::new(0, 0).is_err());
    assert_eq!("3/8".parse::<Shard>().unwrap(), shard);
    assert_eq!((Shard::WHOLE.index(), Shard::WHOLE.count()), (0, 1));
}

/// `Counts::threads` is what the count ran on: the pool given wins over the options' count.
#[test]
fn a_count_on_a_given_pool_reports_the_pool_s_threads() {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(3)
        .build()
        .unwrap();
    let control = RunControl::default().with_pool(&pool);
    let options = CountOptions::new(1, Strategy::Mirror);
    for n in [8, 12] {
        let run = count_with(n, &options, &control).unwrap();
        assert_eq!(Some(run.counts.total), known::total(n));
        assert_eq!(run.counts.threads, 3, "n = {n}");
    }
}

/// Called from a worker of a pool of its own thread count (here `rayon::join`'s), a count
/// searches on that worker alone, and says so; so does a board small enough for the calling
/// thread.
#[test]
fn a_count_that_searches_on_the_calling_thread_reports_one_thread() {
    let options = CountOptions::new(rayon::current_num_threads().max(2), Strategy::Mirror);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(options.threads)
        .build()
        .unwrap();
    let (inside, _) = pool.install(|| rayon::join(|| count(12, &options).unwrap(), || ()));
    assert_eq!((inside.total, inside.threads), (14_200, 1));
    let outside = count(12, &options).unwrap();
    assert_eq!(outside.threads, options.threads);
    assert_eq!(count(8, &options).unwrap().threads, 1);
}
