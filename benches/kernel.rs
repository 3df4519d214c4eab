//! The bitboard search on whole boards, n = 10..=13, on the calling thread
//! ([`State::completions`]). Then every kernel this CPU runs (the lane kernels and the
//! depth-first search) on every task of the `symmetric` plan of n = 13 and 14, one thread.

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use nqueens::Kernel;
use nqueens::search::{State, Subproblem};
use nqueens::{Plan, Strategy};
use std::hint::black_box;
fn kernels(c: &mut Criterion) {
    let mut group = c.benchmark_group("kernel");
    group.sample_size(10);
    for n in 10..=13u32 {
        group.bench_with_input(BenchmarkId::new("stack", n), &n, |b, &n| {
            b.iter(|| State::EMPTY.completions(black_box(n)).unwrap())
        });
    }
    group.finish();
}

/// The inner boards of the symmetric plan of `n`, split into at least 4096 tasks.
fn inner_boards(n: u32) -> Vec<Subproblem> {
    Plan::new(n, Strategy::Symmetric, 4096)
        .expect("a valid board")
        .tasks()
        .filter(|t| matches!(t.subproblem, Subproblem::Inner(_)))
        .map(|t| t.subproblem)
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
            if !kernel.is_available() {
                eprintln!("inner-kernel/{kernel} skipped: not available on this CPU");
                continue;
            }
            group.bench_with_input(BenchmarkId::new(kernel.name(), n), &boards, |b, boards| {
                b.iter(|| {
                    boards
                        .iter()
                        .map(|board| {
                            let count = board.count_with(n, black_box(kernel));
                            count.unwrap().expect("a board of n")
                        })
                        .sum::<u64>()
                })
            });
        }
    }
    group.finish();
}

criterion_group!(benches, kernels, inner_kernels);
criterion_main!(benches);
