//! The textbook algorithms at small n, each plain (no-op probe) and instrumented (counters).
//!
//! Compare `plain` with `instrumented` within one run: the ratio is what the counters cost;
//! the plain search is the uninstrumented code path `nqueens compare` times.

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use nqueens::classic::{Algorithm, count, count_instrumented};
use std::hint::black_box;

fn classic(c: &mut Criterion) {
    let mut group = c.benchmark_group("classic");
    group.sample_size(20);
    for algorithm in Algorithm::ALL {
        let n = 9;
        group.bench_with_input(
            BenchmarkId::new(format!("{algorithm}/plain"), n),
            &n,
            |b, &n| b.iter(|| count(algorithm, black_box(n)).unwrap()),
        );
        group.bench_with_input(
            BenchmarkId::new(format!("{algorithm}/instrumented"), n),
            &n,
            |b, &n| b.iter(|| count_instrumented(algorithm, black_box(n)).unwrap().nodes),
        );
    }
    group.finish();
}

criterion_group!(benches, classic);
criterion_main!(benches);
