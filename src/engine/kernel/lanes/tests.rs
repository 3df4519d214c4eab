//! One harness for every kernel: each kernel this CPU runs is compared with the depth-first
//! search on the same boards, and the kernels it cannot run are named on stderr.

use crate::engine::kernel::depth_first::tests::widest_boards;
use crate::engine::kernel::{InnerBoard, Kernel, Selected, State, count_completions, count_job};
use crate::engine::plan::symmetric::constellations;
use crate::engine::plan::{Plan, Strategy, Subproblem};

/// Every kernel this CPU runs, after naming on stderr those it does not (so a skipped kernel is
/// never silent).
pub(crate) fn kernels_here() -> Vec<Selected> {
    let mut here = Vec::new();
    for &kernel in Kernel::ALL {
        if kernel.uses_gpu() {
            // One task at a time a GPU kernel counts on its CPU kernel; the GPU counts batches,
            // checked against the depth-first search in `gpu::tests` and tests/integration/gpu.rs.
            eprintln!("not in this harness: the {kernel} kernel (checked in batches elsewhere)");
            continue;
        }
        match kernel.select() {
            Ok(selected) => here.push(selected),
            Err(_) => eprintln!("skipped on this CPU: the {kernel} kernel (not available here)"),
        }
    }
    here
}

/// Every board below `board` down to `depth` more queens, `board` included.
fn descendants(board: InnerBoard, depth: u32, out: &mut Vec<InnerBoard>) {
    out.push(board);
    if depth == 0 {
        return;
    }
    if let Some((_, mut free)) = board.first_free_row() {
        while free != 0 {
            let col = free.trailing_zeros();
            free &= free - 1;
            descendants(board.place(col).unwrap(), depth - 1, out);
        }
    }
}

/// Every constellation of n = 4..=12 and its children two levels down (over 10 000 boards).
pub(crate) fn inner_boards() -> Vec<InnerBoard> {
    let mut boards = Vec::new();
    for n in 4..=12 {
        for (c, _) in constellations(n) {
            descendants(InnerBoard::new(n, &c.queens(n)).unwrap(), 2, &mut boards);
        }
    }
    boards
}

#[test]
fn every_kernel_agrees_with_the_depth_first_search_on_every_class_and_its_children() {
    let boards = inner_boards();
    assert!(boards.len() > 10_000, "only {} boards", boards.len());
    let want: Vec<u64> = boards
        .iter()
        .map(|b| count_job::<false>(&b.job(), &mut 0))
        .collect();
    for kernel in kernels_here() {
        for (b, &want) in boards.iter().zip(&want) {
            assert_eq!(kernel.count_inner(b, None), Some(want), "{kernel:?} {b:?}");
        }
    }
}

#[test]
fn every_kernel_agrees_on_the_tasks_of_both_plans() {
    for kernel in kernels_here() {
        for n in 4..=13 {
            for strategy in [Strategy::Symmetric, Strategy::Mirror] {
                for task in Plan::new(n, strategy, 256).unwrap().tasks() {
                    let (got, want) = match task.subproblem {
                        Subproblem::Rows(state) => (
                            kernel.count_rows(n, state, None),
                            count_completions(n, state).unwrap(),
                        ),
                        Subproblem::Inner(b) => (
                            kernel.count_inner(&b, None),
                            count_job::<false>(&b.job(), &mut 0),
                        ),
                    };
                    assert_eq!(got, Some(want), "{kernel:?} n={n} {strategy} {}", task.id);
                }
            }
        }
    }
}

#[test]
fn every_kernel_agrees_on_the_widest_boards() {
    let boards = widest_boards();
    for kernel in kernels_here() {
        for (b, _) in &boards {
            let want = count_job::<false>(&b.job(), &mut 0);
            assert!(want >= 1);
            assert_eq!(kernel.count_inner(b, None), Some(want), "{kernel:?} {b:?}");
        }
        // Row prefixes of wide boards: the constructed solution's first rows, leaving 8 or 10
        // rows to count; 33 and 64 are beyond the u32 lanes and take the row kernel.
        for n in [23, 31, 32, 33, 64] {
            let columns: Vec<u32> = crate::construct::columns(n).unwrap().collect();
            for keep_free in [8, 10] {
                let mut state = State::EMPTY;
                for &c in &columns[..(n - keep_free) as usize] {
                    state = state.place_col(c).unwrap();
                }
                let want = count_completions(n, state).unwrap();
                assert!(want >= 1, "n={n}");
                assert_eq!(
                    kernel.count_rows(n, state, None),
                    Some(want),
                    "{kernel:?} n={n}"
                );
            }
        }
    }
}

#[test]
fn a_raised_stop_flag_ends_every_search_early() {
    let stop = std::sync::atomic::AtomicBool::new(true);
    let board = InnerBoard::new(16, &[(0, 3)]).unwrap();
    for kernel in kernels_here() {
        let got = kernel.count_inner(&board, Some(&stop));
        assert_eq!(got, None, "{kernel:?}");
        // The next search on the same thread starts clean.
        let small = InnerBoard::new(10, &[(0, 1)]).unwrap();
        assert_eq!(kernel.count_inner(&small, None), Some(48), "{kernel:?}");
    }
}

#[test]
fn a_board_whose_first_free_row_is_closed_has_no_completion() {
    // Row 3 is attacked on every square by the pre-placed queens.
    let b = InnerBoard::new(8, &[(0, 0), (7, 1), (2, 7), (1, 4)]).unwrap();
    assert_eq!(b.job().first_free(), 0);
    for kernel in kernels_here() {
        assert_eq!(kernel.count_inner(&b, None), Some(0), "{kernel:?}");
    }
}

/// A small deterministic generator (xorshift64*), so the sample is the same on every run.
struct Sample(u64);

impl Sample {
    fn below(&mut self, bound: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) as usize % bound
    }
}

#[test]
fn every_kernel_agrees_on_a_random_sample_of_the_largest_boards_tasks() {
    use crate::engine::kernel::job::MAX_PLACED;
    use crate::engine::plan::symmetric::oriented_queens;
    let kernels = kernels_here();
    let mut rng = Sample(0x9e37_79b9_7f4a_7c15);
    let mut nonzero = 0;
    for n in 23..=32 {
        let classes = constellations(n);
        for _ in 0..4 {
            let (c, _) = classes[rng.below(classes.len())];
            let mut board = InnerBoard::new(n, &oriented_queens(n, &c)).unwrap();
            // Descend at random to at most 14 free rows (or as many queens as a board holds).
            while board.free_rows().count_ones() > 14 && board.queens().len() < MAX_PLACED {
                let (_, free) = board.first_free_row().unwrap();
                let free = free & ((1u64 << n) - 1);
                if free == 0 {
                    break;
                }
                let cols: Vec<u32> = (0..n).filter(|c| free >> c & 1 == 1).collect();
                board = board.place(cols[rng.below(cols.len())]).unwrap();
            }
            let want = count_job::<false>(&board.job(), &mut 0);
            nonzero += usize::from(want > 0);
            for kernel in &kernels {
                assert_eq!(
                    kernel.count_inner(&board, None),
                    Some(want),
                    "{kernel:?} {board:?}"
                );
            }
        }
    }
    assert!(
        nonzero >= 10,
        "only {nonzero} sampled boards have a completion"
    );
}

/// Names the kernels this CPU runs and those the harness skips (run it with `--nocapture`, as
/// CI does, to see the list).
#[test]
fn kernels_tested_on_this_cpu() {
    let mut names: Vec<&str> = Vec::new();
    for kernel in kernels_here() {
        let name = kernel.kernel().name();
        if !names.contains(&name) {
            names.push(name);
        }
    }
    let auto = Kernel::Auto.select().unwrap().kernel();
    eprintln!(
        "kernels tested on this CPU: {} (auto runs {auto})",
        names.join(", ")
    );
    assert!(names.contains(&"portable-lanes") && names.contains(&"depth-first"));
}
