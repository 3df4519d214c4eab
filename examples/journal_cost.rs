//! What a journal costs per finished task: journal open, one append per task of the
//! n = 16 plan and the final sync, three times over.
//!
//! Run with `cargo run --release --example journal_cost` (the journal goes in a temporary
//! directory under the current one, so it measures that disk). The progress bar belongs to the
//! command, not the library: `scripts/checkpoint-overhead.sh` times it end to end.

use std::time::{Duration, Instant};

use nqueens::journal::{Header, Journal};
use nqueens::{Plan, Strategy};

fn main() {
    let plan = Plan::new(16, Strategy::Mirror, Plan::DEFAULT_MIN_TASKS).expect("n = 16 plans");
    let dir = tempfile::tempdir_in(".").expect("a temporary directory here");
    let tasks = plan.tasks().len();
    for round in 0..3 {
        let path = dir.path().join(format!("journal-{round}"));
        let t0 = Instant::now();
        let (mut journal, _) = Journal::open(&path, &Header::for_plan(&plan)).expect("opens");
        let opened = t0.elapsed();
        let t1 = Instant::now();
        let mut worst = Duration::ZERO;
        for task in plan.tasks() {
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
}
