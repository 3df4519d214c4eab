//! The textbook algorithms at small n, each plain (no-op probe) and instrumented (counters),
//! and the engine's kernel on the same board for reference.
//!
//! Compare `plain` with `instrumented` within one run: the ratio is what the counters cost;
//! the plain search is the uninstrumented code path `nqueens compare` times.

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use nqueens::classic::Algorithm;
use nqueens::search::State;
use std::hint::black_box;
use std::time::Duration;

fn classic(c: &mut Criterion) {
    let mut group = c.benchmark_group("classic");
    group
        .sample_size(20)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(2));
    let n = 9;
    group.bench_with_input(BenchmarkId::new("engine-kernel", n), &n, |b, &n| {
        b.iter(|| State::EMPTY.completions(black_box(n)).unwrap())
    });
    for algorithm in Algorithm::ALL {
        group.bench_with_input(
            BenchmarkId::new(format!("{algorithm}/plain"), n),
            &n,
            |b, &n| b.iter(|| algorithm.count(black_box(n)).unwrap()),
        );
        group.bench_with_input(
            BenchmarkId::new(format!("{algorithm}/instrumented"), n),
            &n,
            |b, &n| b.iter(|| algorithm.count_instrumented(black_box(n)).unwrap().nodes),
        );
    }
    group.finish();
}

criterion_group!(benches, classic);
criterion_main!(benches);
