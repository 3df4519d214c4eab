//! `nqueens count`: count one or more boards and report totals, time and throughput.

use std::io::Write;

use nqueens::export::{TableRow, per_second, seconds, write_records};
use nqueens::{CountOptions, Counts, Kernel, Strategy};
use serde::Serialize;

use super::long_run::LongRun;
use super::{Failure, Outcome, budget};
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
    /// The kernel that counted the tasks.
    pub kernel: Kernel,
    /// Number of tasks the board was split into.
    pub tasks: usize,
    /// Tasks taken from a `--checkpoint` file instead of searched.
    pub resumed_tasks: usize,
    /// The plan's fingerprint, 16 hex digits ([`nqueens::fingerprint`]).
    pub fingerprint: String,
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
            kernel: counts.kernel,
            tasks: counts.tasks,
            resumed_tasks: 0,
            fingerprint: String::new(),
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
            "kernel",
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
            self.kernel.to_string(),
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
        let limit = args.max_seconds.unwrap_or(budget::DAY);
        return super::compare::count_with(algorithm, &args.boards.0, limit, args.format, out);
    }
    let options = options(&args.engine);
    let long_run = LongRun::new(args)?;
    if let [_, _, ..] = args.boards.0[..] {
        // One board is announced once its checkpoint is accepted, net of the resumed tasks.
        announce_long_counts(&args.boards.0, options.threads, 1.0, false);
    }
    let mut records = Vec::with_capacity(args.boards.0.len());
    for &n in &args.boards.0 {
        let Some(run) = long_run.count(n, &options)? else {
            return Ok(Outcome::Interrupted);
        };
        if !run.shard.is_whole() {
            return super::shard::write(&run, &options, args.format, out);
        }
        let mut record = CountRecord::new(&run.counts, &options);
        record.resumed_tasks = run.resumed_tasks;
        record.fingerprint = nqueens::fingerprint::hex(run.fingerprint);
        records.push(record);
    }
    write_records(out, args.format, &records)?;
    Ok(Outcome::Success)
}

/// Says on stderr, before anything is counted, when the boards need more than a day on
/// `threads` threads; `remaining` is the share of the work still to do (below 1 when a
/// checkpoint holds some of it).
pub fn announce_long_counts(boards: &[u32], threads: usize, remaining: f64, checkpointed: bool) {
    let secs: f64 = boards
        .iter()
        .map(|&n| remaining * budget::engine_seconds(n, threads))
        .sum();
    let what = match boards {
        [n] if remaining < 1.0 => format!("the rest of n = {n} on {threads} threads"),
        [n] => format!("counting n = {n} on {threads} threads"),
        _ => format!(
            "counting these {} boards on {threads} threads",
            boards.len()
        ),
    };
    let remedy = if checkpointed {
        "it starts anyway; an interrupt keeps the finished tasks in the checkpoint"
    } else {
        "it starts anyway; add --checkpoint FILE (one n) to keep finished tasks across \
         interrupts"
    };
    budget::announce_if_long(&what, secs, remedy);
}
