//! `nqueens merge`: the total of a board from its shard journals.

use std::io::Write;

use crate::cli::format::fingerprint as hex;
use crate::cli::format::{table_row, write_records};
use nqueens::Strategy;
use nqueens::journal::merge;
use serde::Serialize;

use super::{Failure, Outcome};
use crate::cli::args::MergeArgs;

/// A merged board, as every output format reports it.
#[derive(Debug, Clone, Serialize)]
pub struct MergeRecord {
    /// Board side.
    pub n: u32,
    /// All solutions.
    pub total: u128,
    /// Solutions distinct under the 8 symmetries.
    pub unique: u128,
    /// Decomposition strategy.
    pub strategy: Strategy,
    /// Tasks in the plan.
    pub tasks: usize,
    /// Shards the plan was split into.
    pub shards: u32,
    /// Journals read.
    pub journals: usize,
    /// The plan's fingerprint.
    pub fingerprint: String,
}

table_row!(MergeRecord, |record| {
    "n" => record.n,
    "total" => record.total,
    "unique" => record.unique,
    "strategy" => record.strategy,
    "tasks" => record.tasks,
    "shards" => record.shards,
    "plan" => record.fingerprint,
});

/// Merges the journals; every refusal is a one-line error and exit code 1.
pub fn run(args: &MergeArgs, out: &mut dyn Write) -> Result<Outcome, Failure> {
    let merged = merge(&args.files).map_err(|e| Failure::Wrong(format!("cannot merge: {e}")))?;
    let record = MergeRecord {
        n: merged.n,
        total: merged.total,
        unique: merged.unique,
        strategy: merged.strategy,
        tasks: merged.tasks,
        shards: merged.shards,
        journals: merged.journals,
        fingerprint: hex(merged.fingerprint),
    };
    write_records(out, args.format, &[record])?;
    Ok(Outcome::Success)
}
