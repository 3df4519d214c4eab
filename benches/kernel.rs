//! The bitboard kernel on whole boards, n = 10..=13: the explicit-stack kernel with the last-row
//! shortcut (production), the recursive form with the shortcut, and the recursive form without it.
//! Then the two inner kernels of the `symmetric` plan on every task of n = 13 and 14 (one
//! thread): the lane kernel (AVX-512, where the CPU has it) against the depth-first search.

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use nqueens::engine::inner_kernel::{InnerBoard, count_inner, count_inner_dfs};
use nqueens::engine::kernel::{
    State, count_completions, count_completions_plain, count_completions_recursive,
};
use nqueens::engine::lane_kernel::available;
use nqueens::engine::plan::{Plan, Strategy, Subproblem};
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

/// The inner boards of the symmetric plan of `n`, split into at least 4096 tasks.
fn inner_boards(n: u32) -> Vec<InnerBoard> {
    Plan::new(n, Strategy::Symmetric, 4096)
        .expect("a valid board")
        .tasks
        .iter()
        .filter_map(|t| match t.subproblem {
            Subproblem::Inner(b) => Some(b),
            Subproblem::Rows(_) => None,
        })
        .collect()
}

fn inner_kernels(c: &mut Criterion) {
    let mut group = c.benchmark_group("inner-kernel");
    group.sample_size(10);
    for n in [13u32, 14] {
        let boards = inner_boards(n);
        group.bench_with_input(BenchmarkId::new("depth-first", n), &boards, |b, boards| {
            b.iter(|| {
                boards
                    .iter()
                    .map(|board| count_inner_dfs::<false>(black_box(board), &mut 0))
                    .sum::<u64>()
            })
        });
        if available() {
            group.bench_with_input(BenchmarkId::new("lanes", n), &boards, |b, boards| {
                b.iter(|| {
                    boards
                        .iter()
                        .map(|board| count_inner(black_box(board)))
                        .sum::<u64>()
                })
            });
        } else {
            eprintln!("inner-kernel/lanes skipped: this CPU lacks AVX-512F/VPOPCNTDQ");
        }
    }
    group.finish();
}

criterion_group!(benches, kernels, inner_kernels);
criterion_main!(benches);
