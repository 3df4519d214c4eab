//! The work a count does outside its tasks, part by part: making the `symmetric` plan and the
//! unique count's two symmetric searches, for n = 16, 18 and 20. `examples/fixed_cost.rs`
//! measures what they add up to in a whole count.

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use nqueens::search::DEFAULT_MIN_TASKS;
use nqueens::search::symmetric_fixed_counts;
use nqueens::{Plan, Strategy};
use std::hint::black_box;

fn fixed_cost(c: &mut Criterion) {
    let mut group = c.benchmark_group("fixed_cost");
    for n in [16u32, 18, 20] {
        group.bench_with_input(BenchmarkId::new("plan", n), &n, |b, &n| {
            b.iter(|| {
                Plan::new(black_box(n), Strategy::Symmetric, DEFAULT_MIN_TASKS)
                    .unwrap()
                    .tasks()
                    .len()
            })
        });
        group.bench_with_input(BenchmarkId::new("symmetric_searches", n), &n, |b, &n| {
            b.iter(|| symmetric_fixed_counts(black_box(n)).unwrap().half_turn)
        });
    }
    group.finish();
}

criterion_group!(benches, fixed_cost);
criterion_main!(benches);
