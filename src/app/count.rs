//! `nqueens count`: count one or more boards and report totals, time and throughput.

use std::io::Write;

use nqueens::export::{TableRow, per_second, seconds, write_records};
use nqueens::{CountOptions, Counts, Strategy};
use serde::Serialize;

use super::long_run::LongRun;
use super::{Failure, Outcome};
use crate::cli::{CountArgs, EngineArgs};

/// One counted board, as every output format reports it.
#[derive(Debug, Clone, Serialize)]
pub struct CountRecord {
    /// Board side.
    pub n: u32,
    /// All solutions.
    pub total: u128,
    /// Solutions distinct under the 8 symmetries.
    pub unique: u128,
    /// Wall-clock seconds of the count.
    pub seconds: f64,
    /// Worker threads used.
    pub threads: usize,
    /// Decomposition strategy.
    pub strategy: Strategy,
    /// Number of tasks the board was split into.
    pub tasks: usize,
    /// Tasks taken from a `--checkpoint` file instead of searched.
    pub resumed_tasks: usize,
}

impl CountRecord {
    /// The record for `counts`, counted with `options`.
    pub fn new(counts: &Counts, options: &CountOptions) -> CountRecord {
        CountRecord {
            n: counts.n,
            total: counts.total,
            unique: counts.unique,
            seconds: counts.elapsed.as_secs_f64(),
            threads: options.threads,
            strategy: options.strategy,
            tasks: counts.tasks,
            resumed_tasks: 0,
        }
    }
}

impl TableRow for CountRecord {
    fn headings() -> Vec<&'static str> {
        vec![
            "n",
            "total",
            "unique",
            "time",
            "solutions/s",
            "threads",
            "strategy",
        ]
    }

    fn cells(&self) -> Vec<String> {
        vec![
            self.n.to_string(),
            self.total.to_string(),
            self.unique.to_string(),
            seconds(self.seconds),
            per_second(self.total as f64 / self.seconds),
            self.threads.to_string(),
            self.strategy.to_string(),
        ]
    }
}

/// The engine options the shared arguments ask for.
pub fn options(engine: &EngineArgs) -> CountOptions {
    CountOptions {
        threads: engine.threads,
        strategy: engine.strategy,
        kernel: engine.kernel,
    }
}

pub fn run(args: &CountArgs, out: &mut dyn Write) -> Result<Outcome, Failure> {
    if let Some(algorithm) = args.algorithm {
        return super::compare::count_with(algorithm, &args.boards.0, args.format, out);
    }
    let options = options(&args.engine);
    let long_run = LongRun::new(args)?;
    let mut records = Vec::with_capacity(args.boards.0.len());
    for &n in &args.boards.0 {
        let Some(run) = long_run.count(n, &options)? else {
            return Ok(Outcome::Interrupted);
        };
        let mut record = CountRecord::new(&run.counts, &options);
        record.resumed_tasks = run.resumed_tasks;
        records.push(record);
    }
    write_records(out, args.format, &records)?;
    Ok(Outcome::Success)
}
