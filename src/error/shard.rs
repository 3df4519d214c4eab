//! Why a shard is refused ([`ShardError`]).

/// Why a shard could not be named: a bad `K/M`, or a Slurm environment that names none.
///
/// ```
/// use nqueens::journal::{Shard, ShardError, ShardSpec};
/// let error = "8/8".parse::<Shard>().unwrap_err();
/// assert_eq!(error, ShardError::OutOfRange { index: 8, count: 8 });
/// assert_eq!(error.to_string(), "shard 8/8 does not exist: shards are numbered from 0 to 7");
/// assert_eq!("3/0".parse::<Shard>(), Err(ShardError::ZeroCount));
/// assert_eq!("three".parse::<ShardSpec>(), Err(ShardError::NotASpec("three".to_string())));
/// let outside_slurm = Shard::from_slurm_env(|_| Err(std::env::VarError::NotPresent));
/// assert_eq!(outside_slurm, Err(ShardError::SlurmUnset("SLURM_ARRAY_TASK_ID")));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ShardError {
    /// `M` is 0.
    #[error("the shard count must be at least 1")]
    ZeroCount,
    /// `K` is not below `M`.
    #[error(
        "shard {index}/{count} does not exist: shards are numbered from 0 to {}",
        .count - 1
    )]
    OutOfRange {
        /// `K`.
        index: u32,
        /// `M`.
        count: u32,
    },
    /// More shards than the plan has tasks: some shards would count nothing.
    #[error(
        "{count} shards are more than the plan's {tasks} tasks (n = {n}, strategy {strategy}): \
         use at most {tasks} shards"
    )]
    MoreShardsThanTasks {
        /// `M`.
        count: u32,
        /// The plan's tasks.
        tasks: usize,
        /// The board.
        n: u32,
        /// The plan's strategy name.
        strategy: &'static str,
    },
    /// Text that is not `K/M`.
    #[error("'{0}' is not a shard: expected K/M with 0 <= K < M (for example 3/8)")]
    NotAShard(String),
    /// Text that is neither `K/M`, `slurm` nor `slurm/M`.
    #[error("'{0}' is not a shard: expected K/M (0 <= K < M), 'slurm' or 'slurm/M'")]
    NotASpec(String),
    /// A variable of the Slurm array environment is not set.
    #[error(
        "{0} is not set: the shard of a Slurm array task is read inside a task of an array job (sbatch --array)"
    )]
    SlurmUnset(&'static str),
    /// A variable of the Slurm array environment is not valid UTF-8 (so not a number).
    #[error("{0} is not valid UTF-8, so not a whole number")]
    SlurmNotUnicode(&'static str),
    /// A variable of the Slurm array environment is not a number.
    #[error("{name}='{value}' is not a whole number")]
    SlurmNotANumber {
        /// The variable.
        name: &'static str,
        /// Its value.
        value: String,
    },
    /// `slurm` in an array of one task: the environment says nothing of the count's shards
    /// (`sbatch --array=ID`, as when one failed task of a larger array is run again).
    #[error(
        "SLURM_ARRAY_TASK_COUNT is 1 (SLURM_ARRAY_TASK_ID={id}): an array of one task, as when \
         one task of a larger array is run again, does not say how many shards the count has; \
         give them: --shard slurm/M (shard {id} of M) or --shard K/M"
    )]
    SlurmOneTask {
        /// `SLURM_ARRAY_TASK_ID`.
        id: u64,
    },
    /// `slurm/M` in an array task whose id is not a shard of `M`.
    #[error(
        "SLURM_ARRAY_TASK_ID={id} is not a shard of {count}: with --shard slurm/{count} the \
         array's task ids are the shards, 0 to {} (sbatch --array=0-{})",
        .count - 1, .count - 1
    )]
    SlurmIdBeyond {
        /// `SLURM_ARRAY_TASK_ID`.
        id: u64,
        /// `M`.
        count: u32,
    },
    /// The Slurm array environment names no shard.
    #[error(
        "inconsistent Slurm array environment (SLURM_ARRAY_TASK_ID={id}, \
         SLURM_ARRAY_TASK_MIN={min}, SLURM_ARRAY_TASK_COUNT={count}, \
         SLURM_ARRAY_TASK_STEP={step}): {why}"
    )]
    SlurmInconsistent {
        /// `SLURM_ARRAY_TASK_ID`.
        id: u64,
        /// `SLURM_ARRAY_TASK_MIN`.
        min: u64,
        /// `SLURM_ARRAY_TASK_COUNT`.
        count: u64,
        /// `SLURM_ARRAY_TASK_STEP` (1 when unset).
        step: u64,
        /// What is wrong with them.
        why: &'static str,
    },
}
