//! What one call costs on small boards, where the search is a few microseconds: `count(6)` and
//! `count(8)` with the default options (every logical CPU, the symmetric plan; searched on the
//! calling thread), the same counts handed to a pool of two workers (`on-pool`: the difference is
//! what the hand-off to the workers costs), the search alone with the row kernel, and
//! `count(12)` on the process's pool of two workers.

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use nqueens::search::State;
use nqueens::{CountOptions, RunControl, Strategy, count, count_with};
use std::hint::black_box;

fn small_counts(c: &mut Criterion) {
    let mut group = c.benchmark_group("small-count");
    let options = CountOptions::default();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    let on_pool = RunControl::default().with_pool(&pool);
    for n in [6u32, 8] {
        group.bench_with_input(BenchmarkId::new("count", n), &n, |b, &n| {
            b.iter(|| count(black_box(n), &options).unwrap().total)
        });
        group.bench_with_input(BenchmarkId::new("count-on-pool", n), &n, |b, &n| {
            b.iter(|| {
                count_with(black_box(n), &options, &on_pool)
                    .unwrap()
                    .counts
                    .total
            })
        });
        group.bench_with_input(BenchmarkId::new("search-alone", n), &n, |b, &n| {
            b.iter(|| State::EMPTY.completions(black_box(n)))
        });
    }
    let two = CountOptions::new(2, Strategy::Symmetric);
    group.bench_function(BenchmarkId::new("count-2-threads", 12), |b| {
        b.iter(|| count(black_box(12), &two).unwrap().total)
    });
    group.finish();
}

criterion_group!(benches, small_counts);
criterion_main!(benches);
