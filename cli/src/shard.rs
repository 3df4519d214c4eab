//! `nqueens count --shard`: which shard to count, and how a shard's partial result is printed.

use std::io::Write;

use crate::counted::Counted;
use crate::format::{Format, table_row, write_records};
use nqueens::CountRun;
use nqueens::journal::{Shard, ShardSpec};
use nqueens_ui::human::{duration, grouped};
use serde::Serialize;

use crate::args::CountArgs;
use nqueens_ui::escape;
use nqueens_ui::failure::{Failure, Outcome};

/// The shard `--shard` asks for; `slurm` and `slurm/M` read the array task's environment (a
/// missing or inconsistent one is a usage error, and so is an array of one task under `slurm`,
/// which would count the whole board).
pub fn resolve(args: &CountArgs) -> Result<Option<Shard>, Failure> {
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

/// One counted shard, as every output format reports it: the count's record ([`Counted`],
/// `partial` set), whose table gives the shard and its part of the total.
#[derive(Debug, Clone, Serialize)]
#[serde(transparent)]
pub struct ShardRow(Counted);

table_row!(ShardRow, |row| {
    "n" => row.0.run.counts.n,
    "shard" => row.0.run.shard,
    "partial total" => grouped(row.0.run.counts.total),
    "tasks" => format!("{} of {}", grouped(row.0.run.counts.tasks), grouped(row.0.run.plan_tasks)),
    "wall time" => duration(row.0.seconds()),
    "threads" => row.0.run.counts.threads,
    "strategy" => row.0.run.counts.strategy,
    "kernel" => row.0.run.counts.kernel,
    "fingerprint" => row.0.run.fingerprint,
});

/// Prints a finished shard.
pub fn write(run: &CountRun, format: Format, out: &mut dyn Write) -> Result<Outcome, Failure> {
    let mut record = Counted::new(run);
    record.partial = Some(true);
    write_records(out, format, &[ShardRow(record)])?;
    Ok(Outcome::Success)
}
