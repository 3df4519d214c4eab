//! What is wrong with a damaged part of a journal: below both the bytes that reveal the damage
//! ([`super::format`]) and the errors that report it ([`super::error`]).

use super::shard::Shard;
use crate::engine::kernel::MAX_N;
use crate::engine::plan::TaskId;

/// What is wrong with a damaged part of a journal.
///
/// ```
/// use nqueens::journal::{Damage, JournalError};
/// use nqueens::{count_with, CountOptions, Error, RunControl, Strategy};
/// let name = format!("nqueens-doc-damage-{}", std::process::id());
/// let dir = std::env::temp_dir().join(name);
/// let _ = std::fs::remove_dir_all(&dir);
/// std::fs::create_dir_all(&dir).unwrap();
/// let file = dir.join("n8.ckpt");
/// let options = CountOptions::new(2, Strategy::Mirror);
/// let control = RunControl::default().with_journal(&file);
/// count_with(8, &options, &control).unwrap();
///
/// // Flip a bit in the first task record (it follows the 64-byte header).
/// let mut bytes = std::fs::read(&file).unwrap();
/// bytes[64 + 20] ^= 1;
/// std::fs::write(&file, &bytes).unwrap();
/// let Err(Error::Journal(JournalError::Corrupt { offset, damage, .. })) =
///     count_with(8, &options, &control)
/// else {
///     panic!("a damaged record that is not the last is refused");
/// };
/// assert_eq!((offset, damage), (64, Damage::Record(1)));
/// assert_eq!(damage.to_string(), "task record 1 is damaged or from another journal");
/// std::fs::remove_dir_all(&dir).unwrap();
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Damage {
    /// The file ends inside the header.
    #[error("the header is incomplete")]
    IncompleteHeader,
    /// The header's bytes do not match its checksum.
    #[error("the header checksum does not match")]
    HeaderChecksum,
    /// The header names a board larger than any this format records.
    #[error("the header names n = {0}, beyond the largest board ({MAX_N})")]
    BoardTooLarge(u32),
    /// The header's strategy name is empty, not plain ASCII or not zero-padded.
    #[error("the header's strategy name is not a name")]
    StrategyName,
    /// The header names a plan without tasks (every plan has at least one).
    #[error("the header names a plan of 0 tasks")]
    NoTasks,
    /// The header names a shard that does not exist (a count of 0, an index not below it).
    #[error("the header names shard {index}/{count}, which does not exist")]
    NoSuchShard {
        /// The shard's index the header holds.
        index: u32,
        /// The shard count the header holds.
        count: u32,
    },
    /// The header names more shards than its plan has tasks: no count splits a plan so (some
    /// shards would hold nothing).
    #[error("the header names {count} shards, more than its plan's {tasks} tasks")]
    MoreShardsThanTasks {
        /// The shard count the header holds.
        count: u32,
        /// The task count the header holds.
        tasks: u64,
    },
    /// The file is longer than the header, a record for each task of the plan and a torn
    /// last record: it cannot be a journal of that plan (and is not read on).
    #[error("the file holds more records than the plan's {0} tasks")]
    TooManyRecords(u64),
    /// A record (numbered from 1) is not one, or does not match its checksum: it is damaged, or
    /// was written to another journal (from format 4 on a record's checksum covers its
    /// journal's header: board, strategy, plan and shard).
    #[error("task record {0} is damaged or from another journal")]
    Record(usize),
    /// A record names a task that is not in the plan.
    #[error("task {0} is not in the plan")]
    NotInPlan(TaskId),
    /// A record names a task of another shard.
    #[error("task {0} is not in shard {1}")]
    NotInShard(TaskId, Shard),
    /// A record gives a task more solutions than the task can have (more than the ways to fill
    /// its free rows, or than the board's known total allows).
    #[error("task {id} is recorded with {count} solutions, more than it can have (at most {most})")]
    Implausible {
        /// The task.
        id: TaskId,
        /// The count the record gives.
        count: u64,
        /// The most the task can have.
        most: u64,
    },
    /// One task is recorded twice with different counts in one journal.
    #[error("task {0} is recorded twice with different counts")]
    RecordedTwice(TaskId),
}
