//! A full count (plan + parallel run) for n = 12..=14, with one thread and with every logical CPU.

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use nqueens::{CountOptions, Strategy, count};
use std::hint::black_box;

fn full_counts(c: &mut Criterion) {
    let mut group = c.benchmark_group("count");
    group.sample_size(10);
    let all = num_cpus::get();
    for n in 12..=14u32 {
        for threads in [1, all] {
            let options = CountOptions::new(threads, Strategy::Mirror);
            let id = BenchmarkId::new(format!("mirror/{threads}-threads"), n);
            group.bench_with_input(id, &n, |b, &n| {
                b.iter(|| count(black_box(n), &options).unwrap().total)
            });
            if all == 1 {
                break;
            }
        }
    }
    group.finish();
}

criterion_group!(benches, full_counts);
criterion_main!(benches);
