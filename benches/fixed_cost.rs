//! The work a count does outside its tasks: making the `symmetric` plan, for n = 16, 18 and 20.
//! `examples/fixed_cost.rs` measures what the plan and the unique count's two symmetric searches
//! add up to in a whole count.

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use nqueens::{Plan, Strategy};
use std::hint::black_box;

fn fixed_cost(c: &mut Criterion) {
    let mut group = c.benchmark_group("fixed_cost");
    for n in [16u32, 18, 20] {
        group.bench_with_input(BenchmarkId::new("plan", n), &n, |b, &n| {
            b.iter(|| {
                Plan::new(black_box(n), Strategy::Symmetric, Plan::DEFAULT_MIN_TASKS)
                    .unwrap()
                    .tasks()
                    .len()
            })
        });
    }
    group.finish();
}

criterion_group!(benches, fixed_cost);
criterion_main!(benches);
