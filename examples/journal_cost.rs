//! What a checkpoint journal and the progress bar cost per finished task: journal open, one
//! append per task of the n = 16 plan and the final sync, three times over; then one progress
//! update per task.
//!
//! Run with `cargo run --release --example journal_cost` (the journal goes in a temporary
//! directory under the current one, so it measures that disk). The bar is drawn only when stderr
//! is a terminal: `script -qec 'target/release/examples/journal_cost' /dev/null` gives it one.

use std::time::{Duration, Instant};

use nqueens::Watcher;
use nqueens::checkpoint::{Header, Journal};
use nqueens::engine::plan::{DEFAULT_MIN_TASKS, Plan, Strategy};
use nqueens::engine::run::TaskOutcome;
use nqueens::progress::Progress;

fn main() {
    let plan = Plan::new(16, Strategy::Mirror, DEFAULT_MIN_TASKS).expect("n = 16 plans");
    let dir = tempfile::tempdir_in(".").expect("a temporary directory here");
    let tasks = plan.tasks.len();
    for round in 0..3 {
        let path = dir.path().join(format!("journal-{round}"));
        let t0 = Instant::now();
        let (mut journal, _) = Journal::open(&path, &Header::for_plan(&plan)).expect("opens");
        let opened = t0.elapsed();
        let t1 = Instant::now();
        let mut worst = Duration::ZERO;
        for task in &plan.tasks {
            let t = Instant::now();
            journal.append(task.id, 12_345).expect("appends");
            worst = worst.max(t.elapsed());
        }
        let appends = t1.elapsed();
        let t2 = Instant::now();
        journal.sync().expect("syncs");
        let synced = t2.elapsed();
        println!(
            "{tasks} tasks: open {opened:?}, appends {appends:?} ({:?} per task, worst {worst:?}), \
             final sync {synced:?}",
            appends / tasks as u32
        );
    }

    let progress = Progress::on_terminal(true, "n = 16");
    progress.start(&plan, &[]);
    let t3 = Instant::now();
    for (index, task) in plan.tasks.iter().enumerate() {
        progress.task_done(&TaskOutcome {
            index,
            id: task.id,
            count: 12_345,
            weight: task.weight,
            elapsed: Duration::ZERO,
            recorded: false,
        });
    }
    let updates = t3.elapsed();
    progress.finish();
    println!(
        "progress updates: {updates:?} ({:?} per task)",
        updates / tasks as u32
    );
}
