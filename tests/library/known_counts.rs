//! Every counting path against the known table (OEIS A000170), with one and with two threads.

use nqueens::engine::kernel::{State, count_completions, count_completions_recursive};
use nqueens::engine::plan::{Plan, Strategy};
use nqueens::engine::run::{RunOptions, run};
use nqueens::{CountOptions, Kernel, count, known};

#[test]
fn every_board_up_to_14_matches_the_table_with_one_and_two_threads() {
    for threads in [1, 2] {
        for n in 0..=14 {
            let options = CountOptions::new(threads, Strategy::Mirror);
            let counts = count(n, &options).unwrap();
            assert_eq!(
                Some(counts.total),
                known::total(n),
                "n={n} threads={threads}"
            );
        }
    }
}

#[test]
fn every_kernel_gives_the_table_with_either_strategy() {
    let mut kernels = Vec::new();
    for &kernel in Kernel::ALL {
        if kernel.uses_gpu() {
            // Counted against the table in gpu.rs (skipped there without an adapter).
            continue;
        }
        if kernel.is_available() {
            kernels.push(kernel);
        } else {
            assert!(kernel.check().is_err());
            eprintln!("skipped on this CPU: the {kernel} kernel (not available here)");
        }
    }
    for kernel in kernels {
        for strategy in [Strategy::Mirror, Strategy::Symmetric] {
            for n in 0..=13 {
                let options = CountOptions::new(2, strategy).with_kernel(kernel);
                let counts = count(n, &options).unwrap();
                assert_eq!(
                    (Some(counts.total), counts.unique),
                    (known::total(n), known::unique(n)),
                    "n={n} {strategy} {kernel}"
                );
            }
        }
    }
}

#[test]
fn per_task_sums_equal_a_plain_unsplit_search() {
    for n in 0..=12 {
        let plain = u128::from(count_completions_recursive(n, State::EMPTY));
        let whole = u128::from(count_completions(n, State::EMPTY).unwrap());
        let plan = Plan::new(n, Strategy::Mirror, 1000).unwrap();
        let report = run(&plan, &RunOptions::with_threads(2)).unwrap();
        let by_task: u128 = report.outcomes.iter().map(|o| o.weighted()).sum();
        assert_eq!(plain, whole, "n={n}");
        assert_eq!(by_task, plain, "n={n}");
        assert_eq!(report.total, plain, "n={n}");
        assert_eq!(report.outcomes.len(), plan.tasks().len());
    }
}

#[test]
fn more_threads_than_tasks_still_counts_everything() {
    let options = CountOptions::new(7, Strategy::Mirror);
    for n in [1, 4, 5, 6] {
        assert_eq!(Some(count(n, &options).unwrap().total), known::total(n));
    }
}

#[test]
fn zero_threads_and_oversized_boards_are_errors() {
    let zero = CountOptions::new(0, Strategy::Mirror);
    assert!(count(8, &zero).is_err());
    assert!(count(65, &CountOptions::default()).is_err());
}
