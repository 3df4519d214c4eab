//! Times `mirror` against `symmetric` on one board in one run, and measures the symmetric inner
//! kernel's cost per node. Used by `scripts/strategies.sh`.
//!
//! ```text
//! cargo run --release --example strategies -- 16 2
//! ```

use std::process::ExitCode;
use std::time::Instant;

use nqueens::engine::symmetric::search_nodes;
use nqueens::{CountOptions, Strategy, count};

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
        let counts = count(n, &CountOptions { threads, strategy })?;
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
         production speed, {:.1} M nodes/s in the node-counting build",
        stats.nodes,
        stats.tasks,
        stats.nodes as f64 / symmetric.1 / 1e6,
        stats.nodes as f64 / symmetric.1 / threads as f64 / 1e6,
        stats.nodes as f64 / counting / 1e6
    );
    Ok(())
}
