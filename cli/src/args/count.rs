//! The arguments of `nqueens count`.

use clap::Args;

use crate::format::Format;
use nqueens::classic::Algorithm;
use nqueens::journal::ShardSpec;

use super::common::{EngineArgs, ProgressArgs};
use super::parse::{
    Boards, choice, one_algorithm_parser, parse_boards, parse_seconds, parse_shard_spec,
};

/// Arguments of `nqueens count`.
#[derive(Debug, Args)]
pub struct CountArgs {
    /// Board sizes, 0 to 64: one n (16), an inclusive range (4..=16) or a list (8,10,12).
    #[arg(value_name = "N", value_parser = parse_boards)]
    pub boards: Boards,
    #[command(flatten)]
    pub engine: EngineArgs,
    /// Output format.
    ///
    /// JSON and CSV also give each board's plan fingerprint, what a journal supplied
    /// (resumed_tasks, resumed_total), the plan's tasks (plan_tasks, searched_tasks), shard and
    /// complete, and core_time: the searched tasks' time summed over the threads, so that
    /// wall_time - core_time / threads is the time the count spent outside its tasks (times in
    /// seconds). With --checkpoint they add runs, all_runs_wall_time and all_runs_core_time
    /// (every run of the count that its journal timed), and the table gives wall time (this
    /// run), core time (all runs') and the share of tasks resumed.
    #[arg(short, long, value_parser = choice::<Format>(), default_value_t = Format::Table)]
    pub format: Format,
    /// Record finished tasks in FILE; the same command resumes.
    ///
    /// Every finished task is recorded; rerunning the same command resumes where it stopped. Several boards keep one journal each: FILE with -nN before its extension (run.ckpt:
    /// run-n12.ckpt), or nN.ckpt inside FILE when it is a directory (or ends in /), nN-sK-of-M.ckpt
    /// for shard K/M. Example: --checkpoint n20.ckpt
    #[arg(long, value_name = "FILE")]
    pub checkpoint: Option<std::path::PathBuf>,
    /// Place the threads on chosen CPUs (Linux).
    ///
    /// cores = one per physical core first, then their SMT siblings; siblings = SMT siblings
    /// together, core by core; none = wherever the system puts them. Only the CPUs the process may run on (taskset) are used, and no
    /// more threads than those; recorded in the results ("pin": "cores: 0,1").
    #[arg(long, value_name = "PLACEMENT", value_parser = choice::<crate::placement::Pin>(),
          default_value = "none")]
    pub pin: crate::placement::Pin,
    /// Count only shard K of M of the board's tasks, for `nqueens merge`.
    ///
    /// K/M, slurm or slurm/M. K goes from 0 to M-1 (about equal work each); the shard is recorded in --checkpoint FILE
    /// for `nqueens merge`. `slurm` takes K and M from a Slurm
    /// array task's environment (refused in an array of one task, which says nothing of M),
    /// `slurm/M` takes K = SLURM_ARRAY_TASK_ID (as when one task is run again with sbatch
    /// --array=K). The total printed is the shard's part only.
    #[arg(long, value_name = "K/M", value_parser = parse_shard_spec,
          conflicts_with = "algorithm", requires = "checkpoint")]
    pub shard: Option<ShardSpec>,
    /// Count with one textbook algorithm instead of the engine.
    ///
    /// It runs on one thread; `nqueens compare` runs several side by side. The algorithm splits nothing, so --threads
    /// and --strategy do not apply.
    #[arg(short, long = "algorithm", alias = "algorithms", value_name = "NAME",
          value_parser = one_algorithm_parser(),
          conflicts_with_all = ["threads", "strategy", "kernel", "checkpoint"])]
    pub algorithm: Option<Algorithm>,
    /// Refuse a count estimated to take longer than this.
    ///
    /// A refusal threshold, checked before starting: nothing is counted when the estimate is over it (exit 2); a count
    /// under it runs to its end. [default: no limit for the engine, which says when a count
    /// will take long; 86400, a day, with --algorithm]
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    pub max_seconds: Option<f64>,
    #[command(flatten)]
    pub progress: ProgressArgs,
}

impl CountArgs {
    /// Refuses `--shard` with several boards.
    pub fn check(&self) -> Result<(), String> {
        if self.shard.is_some() && self.boards.0.len() != 1 {
            return Err(
                "--shard counts one board: give one n (run each board's shards separately)"
                    .to_string(),
            );
        }
        Ok(())
    }
}
