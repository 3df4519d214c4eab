//! The bitboard kernel on whole boards, n = 10..=13: the explicit-stack kernel with the last-row
//! shortcut, the recursive form with the shortcut, and the recursive form without it. Then every
//! kernel this CPU runs (the lane kernels and the depth-first search) on every task of the
//! `symmetric` plan of n = 13 and 14, one thread.

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use nqueens::Kernel;
use nqueens::search::Subproblem;
use nqueens::search::{
    InnerBoard, State, count_completions, count_completions_plain, count_completions_recursive,
};
use nqueens::{Plan, Strategy};
use std::hint::black_box;
fn kernels(c: &mut Criterion) {
    let mut group = c.benchmark_group("kernel");
    group.sample_size(10);
    for n in 10..=13u32 {
        group.bench_with_input(BenchmarkId::new("stack", n), &n, |b, &n| {
            b.iter(|| count_completions(black_box(n), State::EMPTY).unwrap())
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

/// The inner boards of the symmetric plan of `n`, split into at least 4096 tasks.
fn inner_boards(n: u32) -> Vec<InnerBoard> {
    Plan::new(n, Strategy::Symmetric, 4096)
        .expect("a valid board")
        .tasks()
        .iter()
        .filter_map(|t| match t.subproblem {
            Subproblem::Inner(b) => Some(b),
            _ => None,
        })
        .collect()
}

fn inner_kernels(c: &mut Criterion) {
    let mut group = c.benchmark_group("inner-kernel");
    group.sample_size(10);
    for n in [13u32, 14] {
        let boards = inner_boards(n);
        // A GPU kernel counts single boards on its CPU kernel: not a kernel of its own here.
        for kernel in Kernel::ALL
            .iter()
            .copied()
            .skip(1)
            .filter(|k| !k.uses_gpu())
        {
            let Ok(selected) = kernel.select() else {
                eprintln!("inner-kernel/{kernel} skipped: not available on this CPU");
                continue;
            };
            group.bench_with_input(BenchmarkId::new(kernel.name(), n), &boards, |b, boards| {
                b.iter(|| {
                    boards
                        .iter()
                        .map(|board| selected.count_inner(black_box(board), None).unwrap())
                        .sum::<u64>()
                })
            });
        }
    }
    group.finish();
}

criterion_group!(benches, kernels, inner_kernels);
criterion_main!(benches);
