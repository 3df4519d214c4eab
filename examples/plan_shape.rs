//! The shape of a plan: how many tasks, how long it takes to build, and (with a thread count)
//! how the measured task times spread: the largest task's share of the work and the load-balance
//! model's efficiency on bigger machines. `--large` forces the large-board task rule.
//!
//! ```text
//! cargo run --release --example plan_shape -- 27            # build only
//! cargo run --release --example plan_shape -- 18 1 --large  # build, count on 1 thread, model
//! ```

use std::process::ExitCode;
use std::time::{Duration, Instant};

use nqueens::scaling::study::ModelPoint;
use nqueens::{Kernel, Plan, Strategy};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let large = args.iter().any(|a| a == "--large");
    let numbers: Vec<&String> = args.iter().filter(|a| *a != "--large").collect();
    let parsed = match numbers.as_slice() {
        [n] => n.parse::<u32>().ok().map(|n| (n, None)),
        [n, t] => n
            .parse::<u32>()
            .ok()
            .zip(t.parse::<usize>().ok().filter(|&t| t > 0))
            .map(|(n, t)| (n, Some(t))),
        _ => None,
    };
    let Some((n, threads)) = parsed.filter(|(n, _)| *n <= 64) else {
        eprintln!(
            "usage: plan_shape N [THREADS] [--large]   (for example: plan_shape 18 1 --large)"
        );
        return ExitCode::from(2);
    };
    match shape(n, large, threads) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("plan_shape: error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn shape(n: u32, large: bool, threads: Option<usize>) -> Result<(), nqueens::Error> {
    let started = Instant::now();
    let (plan, rule) = if large || n >= 23 {
        (
            Plan::split_large(n, Strategy::Symmetric, Plan::DEFAULT_MIN_TASKS)?,
            "Large",
        )
    } else {
        (
            Plan::new(n, Strategy::Symmetric, Plan::DEFAULT_MIN_TASKS)?,
            "Standard",
        )
    };
    println!(
        "n = {n}, {rule} rule: {} tasks, built in {:.3} s",
        plan.tasks().len(),
        started.elapsed().as_secs_f64()
    );
    let Some(threads) = threads else {
        return Ok(());
    };
    let (report, outcomes) = plan.count(threads, Kernel::Auto)?;
    let times: Vec<Duration> = outcomes.iter().map(|o| o.elapsed).collect();
    let total: Duration = times.iter().sum();
    let largest = times.iter().max().copied().unwrap_or_default();
    println!(
        "total {} in {:.3} s on {threads} thread(s) with the {} kernel; task time {:.3} s, \
         largest task {:.4} s = {:.2e} of the work",
        report.total,
        report.wall_time.as_secs_f64(),
        report.kernel,
        total.as_secs_f64(),
        largest.as_secs_f64(),
        largest.as_secs_f64() / total.as_secs_f64()
    );
    for point in ModelPoint::predict(&times, &[64, 1024, 10_000]) {
        println!(
            "  {:>6} workers: modelled efficiency {:.3}",
            point.workers, point.efficiency
        );
    }
    Ok(())
}
