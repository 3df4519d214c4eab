//! The bitboard kernel on whole boards, n = 10..=13: the explicit-stack kernel with the last-row
//! shortcut (production), the recursive form with the shortcut, and the recursive form without it.

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use nqueens::engine::kernel::{
    State, count_completions, count_completions_plain, count_completions_recursive,
};
use std::hint::black_box;

fn kernels(c: &mut Criterion) {
    let mut group = c.benchmark_group("kernel");
    group.sample_size(10);
    for n in 10..=13u32 {
        group.bench_with_input(BenchmarkId::new("stack", n), &n, |b, &n| {
            b.iter(|| count_completions(black_box(n), State::EMPTY))
        });
        group.bench_with_input(BenchmarkId::new("recursive", n), &n, |b, &n| {
            b.iter(|| count_completions_recursive(black_box(n), State::EMPTY))
        });
        group.bench_with_input(BenchmarkId::new("no-shortcut", n), &n, |b, &n| {
            b.iter(|| count_completions_plain(black_box(n), State::EMPTY))
        });
    }
    group.finish();
}

criterion_group!(benches, kernels);
criterion_main!(benches);
