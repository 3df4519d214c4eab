//! The fixed cost of a count: its wall time minus the tasks' searching time divided by the
//! threads, everything the count does outside the tasks (plan, pool, unique count, the wait for
//! the last task), from one run at a time, so that the two figures share the machine's state.
//!
//! ```text
//! cargo run --release --example fixed_cost -- 18 2 5   # n, threads, runs
//! ```

use std::process::ExitCode;

use nqueens::{CountOptions, RunControl, Strategy, count_with};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let numbers: Option<Vec<usize>> = args.iter().map(|a| a.parse().ok()).collect();
    let Some([n, threads, runs]) = numbers
        .as_deref()
        .and_then(|v| <[usize; 3]>::try_from(v).ok())
    else {
        eprintln!("usage: fixed_cost N THREADS RUNS (for example 18 2 5)");
        return ExitCode::from(2);
    };
    if n > 64 || threads == 0 || runs == 0 {
        eprintln!("fixed_cost: N must be at most 64, THREADS and RUNS at least 1");
        return ExitCode::from(2);
    }
    let options = CountOptions::new(threads, Strategy::Symmetric);
    let mut fixed = Vec::with_capacity(runs);
    println!("run      wall   tasks/threads   fixed cost");
    for i in 1..=runs {
        let run = match count_with(n as u32, &options, &RunControl::default()) {
            Ok(run) => run,
            Err(e) => {
                eprintln!("fixed_cost: {e}");
                return ExitCode::FAILURE;
            }
        };
        let wall = run.counts.wall_time.as_secs_f64();
        let share = run.core_time.as_secs_f64() / threads as f64;
        fixed.push(wall - share);
        println!(
            "{i:3} {:9.4} s {:13.4} s {:9.2} ms",
            wall,
            share,
            (wall - share) * 1e3
        );
    }
    fixed.sort_by(f64::total_cmp);
    println!("median fixed cost: {:.2} ms", fixed[runs / 2] * 1e3);
    ExitCode::SUCCESS
}
