//! Times `mirror` against `symmetric` on one board in one run, measures the symmetric inner
//! kernel's cost per node, and times its two kernels (lanes and depth-first) on the same tasks.
//! Used by `scripts/strategies.sh`.
//!
//! ```text
//! cargo run --release --example strategies -- 16 2
//! ```

use std::process::ExitCode;
use std::time::Instant;

use nqueens::engine::lane_kernel;
use nqueens::engine::plan::{Plan, default_min_tasks};
use nqueens::engine::run::{RunOptions, run};
use nqueens::engine::symmetric::search_nodes;
use nqueens::{CountOptions, Kernel, Strategy, count};

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

fn study(n: u32, threads: usize) -> Result<(), nqueens::Error> {
    println!("n = {n}, {threads} thread(s); total and unique by each strategy, timed in one run");
    println!(
        "{:>10} {:>14} {:>12} {:>10}",
        "strategy", "total", "unique", "seconds"
    );
    let mut seconds = Vec::new();
    for strategy in [Strategy::Mirror, Strategy::Symmetric] {
        let counts = count(n, &CountOptions::new(threads, strategy))?;
        let secs = counts.elapsed.as_secs_f64();
        println!(
            "{:>10} {:>14} {:>12} {:>10.3}",
            strategy.name(),
            counts.total,
            counts.unique,
            secs
        );
        seconds.push((counts.total, secs));
    }
    let (mirror, symmetric) = (seconds[0], seconds[1]);
    if mirror.0 != symmetric.0 {
        return Err(nqueens::Error::Inconsistent(format!(
            "mirror counted {} but symmetric {}",
            mirror.0, symmetric.0
        )));
    }
    println!(
        "speed-up symmetric over mirror: {:.2}x",
        mirror.1 / symmetric.1
    );
    let started = Instant::now();
    let stats = search_nodes(n, threads)?;
    let counting = started.elapsed().as_secs_f64();
    println!(
        "inner kernel: {} nodes in {} tasks; {:.1} M nodes/s ({:.1} M/s per thread) at the \
         production speed, {:.1} M nodes/s in the node-counting (depth-first) build",
        stats.nodes,
        stats.tasks,
        stats.nodes as f64 / symmetric.1 / 1e6,
        stats.nodes as f64 / symmetric.1 / threads as f64 / 1e6,
        stats.nodes as f64 / counting / 1e6
    );
    kernels(n, threads)
}

/// Times the symmetric plan's tasks through each kernel, one after the other.
fn kernels(n: u32, threads: usize) -> Result<(), nqueens::Error> {
    if !lane_kernel::available() {
        println!("lane kernel: not available on this CPU (needs AVX-512F and AVX512_VPOPCNTDQ)");
        return Ok(());
    }
    let plan = Plan::new(n, Strategy::Symmetric, default_min_tasks(threads))?;
    let time = |kernel| {
        let options = RunOptions {
            kernel,
            ..RunOptions::with_threads(threads)
        };
        run(&plan, &options).map(|report| (report.total, report.elapsed.as_secs_f64()))
    };
    let (dfs_total, dfs) = time(Kernel::DepthFirst)?;
    let (lanes_total, lanes) = time(Kernel::Lanes)?;
    if dfs_total != lanes_total {
        return Err(nqueens::Error::Inconsistent(format!(
            "the depth-first kernel counted {dfs_total} but the lane kernel {lanes_total}"
        )));
    }
    println!(
        "inner kernels on the same {} tasks: depth-first {dfs:.3} s, lanes {lanes:.3} s; \
         lanes speed-up {:.2}x",
        plan.tasks.len(),
        dfs / lanes
    );
    Ok(())
}
