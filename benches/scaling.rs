//! One plan of n = 13 run on one thread and on every logical CPU: the speedup the study measures,
//! in criterion's terms. The plan is built once, outside the timed loop.

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use nqueens::{Kernel, Plan, Strategy};
use std::hint::black_box;

const N: u32 = 13;

fn one_vs_all_threads(c: &mut Criterion) {
    let mut group = c.benchmark_group("scaling");
    group.sample_size(10);
    let all = num_cpus::get();
    let plan = Plan::new(N, Strategy::Mirror, Plan::DEFAULT_MIN_TASKS).unwrap();
    let mut counts = vec![1];
    if all > 1 {
        counts.push(all);
    }
    for threads in counts {
        let id = BenchmarkId::new(format!("mirror/n{N}"), format!("{threads}-threads"));
        group.bench_with_input(id, &threads, |b, &threads| {
            b.iter(|| {
                black_box(&plan)
                    .count(threads, Kernel::Auto)
                    .unwrap()
                    .0
                    .total
            })
        });
    }
    group.finish();
}

criterion_group!(benches, one_vs_all_threads);
criterion_main!(benches);
