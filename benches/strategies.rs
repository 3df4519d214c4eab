//! The two strategies on whole boards, n = 11..=13, one thread: plan, parallel run and the unique
//! count by Burnside's lemma, exactly as `nqueens count` does them.

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use nqueens::{CountOptions, Strategy, count};
use std::hint::black_box;

fn strategies(c: &mut Criterion) {
    let mut group = c.benchmark_group("strategies");
    group.sample_size(10);
    for n in 11..=13u32 {
        for strategy in [Strategy::Mirror, Strategy::Symmetric] {
            let options = CountOptions::new(1, strategy);
            group.bench_with_input(BenchmarkId::new(strategy.name(), n), &n, |b, &n| {
                b.iter(|| count(black_box(n), &options).unwrap().total)
            });
        }
    }
    group.finish();
}

criterion_group!(benches, strategies);
criterion_main!(benches);
