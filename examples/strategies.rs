//! Times `mirror` against `symmetric` on one board in one run, measures the cost per node of
//! the fastest kernel, and times every kernel this CPU runs on the same tasks.
//! Used by `scripts/strategies.sh`.
//!
//! ```text
//! cargo run --release --example strategies -- 16 2
//! ```

use std::error::Error;
use std::process::ExitCode;
use std::time::Instant;

use nqueens::{CountOptions, Kernel, count};
use nqueens::{Plan, Strategy};
use rayon::prelude::*;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let parsed = match args.as_slice() {
        [n] => n.parse().ok().map(|n| (n, num_cpus::get())),
        [n, t] => n.parse().ok().zip(t.parse().ok().filter(|&t| t > 0)),
        _ => None,
    };
    let Some((n, threads)) = parsed else {
        eprintln!("usage: strategies N [THREADS]   (for example: strategies 16 2)");
        return ExitCode::from(2);
    };
    match study(n, threads) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("strategies: error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn study(n: u32, threads: usize) -> Result<(), Box<dyn Error>> {
    println!("n = {n}, {threads} thread(s); total and unique by each strategy, timed in one run");
    println!(
        "{:>10} {:>14} {:>12} {:>10}",
        "strategy", "total", "unique", "seconds"
    );
    let mut seconds = Vec::new();
    for strategy in [Strategy::Mirror, Strategy::Symmetric] {
        let counts = count(n, &CountOptions::new(threads, strategy))?;
        let secs = counts.wall_time.as_secs_f64();
        println!(
            "{:>10} {:>14} {:>12} {:>10.3}",
            strategy.name(),
            counts.total,
            counts.unique.unwrap_or_default(),
            secs
        );
        seconds.push((counts.total, secs));
    }
    let (mirror, symmetric) = (seconds[0], seconds[1]);
    if mirror.0 != symmetric.0 {
        return Err(format!("mirror counted {} but symmetric {}", mirror.0, symmetric.0).into());
    }
    println!(
        "speed-up symmetric over mirror: {:.2}x",
        mirror.1 / symmetric.1
    );
    let started = Instant::now();
    let (total, nodes, tasks) = search_nodes(n, threads)?;
    let counting = started.elapsed().as_secs_f64();
    if total != symmetric.0 {
        return Err(format!(
            "the node-counting build counted {total} but the plan {}",
            symmetric.0
        )
        .into());
    }
    println!(
        "symmetric plan: {nodes} nodes in {tasks} tasks; {:.1} M nodes/s ({:.1} M/s per \
         thread) at the production speed, {:.1} M nodes/s in the node-counting (depth-first) \
         build",
        nodes as f64 / symmetric.1 / 1e6,
        nodes as f64 / symmetric.1 / threads as f64 / 1e6,
        nodes as f64 / counting / 1e6
    );
    kernels(n, threads)
}

/// Search nodes (queens placed) over every task of the symmetric plan of `n`, counted by the
/// depth-first kernel's node-counting build: `(total, nodes, tasks)`.
fn search_nodes(n: u32, threads: usize) -> Result<(u128, u64, usize), Box<dyn Error>> {
    let plan = Plan::new(n, Strategy::Symmetric, Plan::DEFAULT_MIN_TASKS)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()?;
    let (total, nodes) = pool.install(|| {
        let tasks: Vec<_> = plan.tasks().collect();
        tasks
            .par_iter()
            .map(|t| {
                let count = t.count(n).expect("a task of the plan of n");
                let nodes = t.subproblem.nodes(n).expect("a task of the plan of n");
                (u128::from(t.weight) * u128::from(count), nodes)
            })
            .reduce(|| (0, 0), |a, b| (a.0 + b.0, a.1 + b.1))
    });
    Ok((total, nodes, plan.tasks().len()))
}

/// Times the symmetric plan's tasks through every kernel this CPU runs, one after the other.
fn kernels(n: u32, threads: usize) -> Result<(), Box<dyn Error>> {
    let plan = Plan::new(n, Strategy::Symmetric, Plan::DEFAULT_MIN_TASKS)?;
    let mut depth_first = None;
    for &kernel in Kernel::ALL.iter().skip(1) {
        if !kernel.is_available() {
            println!("{:>15}: not available on this CPU", kernel.name());
            continue;
        }
        let (report, _) = plan.count(threads, kernel)?;
        let secs = report.wall_time.as_secs_f64();
        let reference = *depth_first.get_or_insert((report.total, secs));
        if report.total != reference.0 {
            return Err(format!(
                "the {kernel} kernel counted {} but the first kernel {}",
                report.total, reference.0
            )
            .into());
        }
        println!(
            "{:>15}: {secs:.3} s on the same {} tasks",
            kernel.name(),
            plan.tasks().len()
        );
    }
    Ok(())
}
