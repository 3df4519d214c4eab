//! Every counting path against the known table (OEIS A000170), with one and with two threads.

use std::sync::Mutex;

use nqueens::search::State;
use nqueens::{
    CountOptions, Kernel, Plan, RunControl, Strategy, TaskOutcome, Watcher, count, count_with,
    known,
};

/// The weighted count of every task, as the workers finish them, and the plan's task count.
#[derive(Default)]
struct ByTask(Mutex<Vec<u128>>, Mutex<usize>);

impl Watcher for ByTask {
    fn start(&self, plan: &Plan, _: &[TaskOutcome]) {
        *self.1.lock().unwrap() = plan.tasks().len();
    }

    fn task_done(&self, outcome: &TaskOutcome) {
        self.0.lock().unwrap().push(outcome.weighted());
    }
}

#[test]
fn every_board_up_to_14_matches_the_table_with_one_and_two_threads() {
    for threads in [1, 2] {
        for n in 0..=14 {
            let options = CountOptions::new(threads, Strategy::Mirror);
            let counts = count(n, &options).unwrap();
            assert_eq!(
                Some(counts.total),
                known::Known::of(n).map(|k| k.total),
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
            assert!(kernel.resolve().is_err());
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
                    (
                        known::Known::of(n).map(|k| k.total),
                        known::Known::of(n).map(|k| k.unique)
                    ),
                    "n={n} {strategy} {kernel}"
                );
            }
        }
    }
}

#[test]
fn per_task_sums_equal_a_plain_unsplit_search() {
    for n in 0..=12 {
        let plain = known::Known::of(n).map(|k| k.total).unwrap();
        let whole = u128::from(State::EMPTY.completions(n).unwrap());
        let watcher = ByTask::default();
        let control = RunControl::default().with_watcher(&watcher);
        let run = count_with(n, &CountOptions::new(2, Strategy::Mirror), &control).unwrap();
        let tasks = *watcher.1.lock().unwrap();
        let by_task = watcher.0.into_inner().unwrap();
        assert_eq!(plain, whole, "n={n}");
        assert_eq!(by_task.iter().sum::<u128>(), plain, "n={n}");
        assert_eq!(run.counts.total, plain, "n={n}");
        assert_eq!((by_task.len(), run.searched_tasks), (tasks, tasks), "n={n}");
    }
}

#[test]
fn more_threads_than_tasks_still_counts_everything() {
    let options = CountOptions::new(7, Strategy::Mirror);
    for n in [1, 4, 5, 6] {
        assert_eq!(
            Some(count(n, &options).unwrap().total),
            known::Known::of(n).map(|k| k.total)
        );
    }
}

#[test]
fn too_many_threads_and_oversized_boards_are_errors() {
    let too_many = CountOptions::new(nqueens::max_threads() + 1, Strategy::Mirror);
    assert!(count(8, &too_many).is_err());
    assert!(count(65, &CountOptions::default()).is_err());
    // Zero threads: every worker of the pool the count runs on.
    let zero = CountOptions::new(0, Strategy::Mirror);
    assert_eq!(count(12, &zero).unwrap().total, 14_200);
}
