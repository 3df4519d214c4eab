//! `nqueens count --shard`: which shard to count, and how a shard's partial result is printed.

use std::io::Write;

use crate::format::fingerprint as hex;
use crate::format::{Format, table_row, write_records};
use crate::human::{duration, grouped};
use nqueens::journal::{Shard, ShardSpec};
use nqueens::{CountOptions, CountRun, Kernel, Strategy};
use serde::Serialize;

use super::escape;
use super::{Failure, Outcome};
use crate::args::CountArgs;

/// The shard `--shard` asks for; `slurm` and `slurm/M` read the array task's environment (a
/// missing or inconsistent one is a usage error, and so is an array of one task under `slurm`,
/// which would count the whole board).
pub fn resolve(args: &CountArgs) -> Result<Option<Shard>, Failure> {
    if args.shard.is_some() && args.checkpoint.is_none() {
        return Err(Failure::Usage(
            "--shard needs --checkpoint FILE: the journal is what nqueens merge adds up".into(),
        ));
    }
    let Some(spec) = args.shard else {
        return Ok(None);
    };
    spec.resolve(|name| std::env::var(name))
        .map(Some)
        .map_err(|e| Failure::Usage(format!("--shard {}: {e}", spec_name(spec))))
}

/// `slurm` or `slurm/M`, as the user wrote it (`K/M` for a fixed shard).
fn spec_name(spec: ShardSpec) -> String {
    match spec {
        ShardSpec::Fixed(shard) => shard.to_string(),
        ShardSpec::SlurmOf(count) => format!("slurm/{count}"),
        _ => "slurm".to_string(),
    }
}

/// What names the shard a Slurm array task chose, for stderr: `nqueens: --shard slurm/4: shard
/// 2/4 (SLURM_ARRAY_TASK_ID=2)`; `None` for a shard given as `K/M`.
pub fn slurm_note(args: &CountArgs, shard: Shard) -> Option<String> {
    let spec = args.shard.filter(|spec| spec.is_slurm())?;
    let id = std::env::var("SLURM_ARRAY_TASK_ID").unwrap_or_default();
    Some(format!(
        "nqueens: --shard {}: shard {shard} (SLURM_ARRAY_TASK_ID={})",
        spec_name(spec),
        escape::text(&id)
    ))
}

/// One counted shard, as every output format reports it.
#[derive(Debug, Clone, Serialize)]
pub struct ShardRecord {
    /// Board side.
    pub n: u32,
    /// The shard, `K/M` (K from 0).
    pub shard: String,
    /// Always true: `total` is the shard's part of the board's total.
    pub partial: bool,
    /// The shard's part of the total (`nqueens merge` adds the shards up).
    pub total: u128,
    /// Tasks in the shard.
    pub tasks: usize,
    /// Tasks in the whole plan.
    pub plan_tasks: usize,
    /// Tasks taken from the journal instead of searched.
    pub resumed_tasks: usize,
    /// The plan's fingerprint.
    pub fingerprint: String,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// Worker threads used.
    pub threads: usize,
    /// Decomposition strategy.
    pub strategy: Strategy,
    /// The kernel that counted the tasks.
    pub kernel: Kernel,
}

table_row!(ShardRecord, |record| {
    "n" => record.n,
    "shard" => record.shard,
    "partial total" => grouped(record.total),
    "tasks" => format!("{} of {}", grouped(record.tasks), grouped(record.plan_tasks)),
    "time" => duration(record.seconds),
    "threads" => record.threads,
    "strategy" => record.strategy,
    "kernel" => record.kernel,
    "fingerprint" => record.fingerprint,
});

/// Prints a finished shard.
pub fn write(
    run: &CountRun,
    options: &CountOptions,
    format: Format,
    out: &mut dyn Write,
) -> Result<Outcome, Failure> {
    let record = ShardRecord {
        n: run.counts.n,
        shard: run.shard.to_string(),
        partial: true,
        total: run.counts.total,
        tasks: run.counts.tasks,
        plan_tasks: run.plan_tasks,
        resumed_tasks: run.resumed_tasks,
        fingerprint: hex(run.fingerprint),
        seconds: run.counts.elapsed.as_secs_f64(),
        threads: options.threads,
        strategy: options.strategy,
        kernel: run.counts.kernel,
    };
    write_records(out, format, &[record])?;
    Ok(Outcome::Success)
}
