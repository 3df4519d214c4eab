//! The memory of the default `symmetric` plans: for each board, the tasks, the fingerprint, the
//! time to build the plan and the process's peak resident memory so far (Linux). A plan of up to
//! 65,536 tasks holds each task whole; a larger one holds the tasks' ids (17 bytes a task).
//!
//! ```text
//! cargo run --release --example plan_memory -- 20 32
//! ```

use std::process::ExitCode;
use std::time::Instant;

use nqueens::{Plan, Strategy, Task};

/// The process's peak resident memory in kB (`VmHWM` of /proc/self/status), where Linux gives it.
fn peak_kb() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn main() -> ExitCode {
    let args: Vec<u32> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let (from, to) = match args[..] {
        [n] => (n, n),
        [a, b] if a <= b => (a, b),
        _ => {
            eprintln!("usage: plan_memory FROM [TO]  (board sides up to 64)");
            return ExitCode::from(2);
        }
    };
    let size = std::mem::size_of::<Task>();
    println!("a task: {size} bytes, no heap memory");
    println!(
        "{:>3} {:>10} {:>18} {:>8} {:>10}",
        "n", "tasks", "fingerprint", "build s", "peak MB"
    );
    for n in from..=to.min(Plan::MAX_N) {
        let started = Instant::now();
        let Ok(plan) = Plan::new(n, Strategy::Symmetric, Plan::DEFAULT_MIN_TASKS) else {
            eprintln!("n = {n}: no plan");
            return ExitCode::FAILURE;
        };
        let took = started.elapsed().as_secs_f64();
        let tasks = plan.tasks().len();
        let peak = peak_kb().map_or("-".to_string(), |kb| format!("{:.1}", kb as f64 / 1024.0));
        println!(
            "{n:>3} {tasks:>10} {:>18} {took:>8.3} {peak:>10}",
            plan.fingerprint().to_string()
        );
    }
    ExitCode::SUCCESS
}
