//! Why a journal is refused or fails ([`JournalError`]), and what is wrong with a damaged part
//! of one ([`Damage`]).

use std::io;
use std::path::PathBuf;

use crate::ids::{FORMAT_VERSION, Header, MAX_N, Shard, TaskId};

/// Why a journal could not be opened, read or written.
///
/// [`count_with`](crate::count_with) reports it inside [`Error::Journal`](crate::Error::Journal):
///
/// ```
/// use nqueens::journal::JournalError;
/// use nqueens::{count_with, CountOptions, Error, RunControl, Strategy};
/// let name = format!("nqueens-doc-journal-error-{}", std::process::id());
/// let dir = std::env::temp_dir().join(name);
/// let _ = std::fs::remove_dir_all(&dir);
/// std::fs::create_dir_all(&dir).unwrap();
/// let options = CountOptions::new(2, Strategy::Mirror);
///
/// // A file that is not a journal is refused, and left as it was.
/// let notes = dir.join("notes.txt");
/// std::fs::write(&notes, "my notes").unwrap();
/// let control = RunControl::default().with_journal(&notes);
/// let Err(Error::Journal(error)) = count_with(8, &options, &control) else { panic!() };
/// assert!(matches!(error, JournalError::NotAJournal { .. }) && error.is_refusal());
/// // Refused as a journal to write into ([`Access::Write`](nqueens::journal::Access)).
/// let refusal = "notes.txt is not an nqueens journal (refusing to overwrite it)";
/// assert!(error.to_string().ends_with(refusal));
/// assert_eq!(std::fs::read_to_string(&notes).unwrap(), "my notes");
///
/// // A journal of the 8-board is refused for the 9-board, naming what differs.
/// let file = dir.join("n8.ckpt");
/// let control = RunControl::default().with_journal(&file);
/// count_with(8, &options, &control).unwrap();
/// let Err(Error::Journal(error)) = count_with(9, &options, &control) else { panic!() };
/// let JournalError::Mismatch { found, expected, .. } = &error else { panic!("{error}") };
/// assert_eq!((found.n, expected.n), (8, 9));
/// assert_eq!(error.differences()[0], ("n = 8".to_string(), "n = 9".to_string()));
/// std::fs::remove_dir_all(&dir).unwrap();
/// ```
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum JournalError {
    /// The file cannot be opened or created (missing directory, permissions, ...). The message
    /// names the file; the operating system's reason is its [`source`](std::error::Error::source).
    #[error("cannot open journal {}", .path.display())]
    Open {
        /// The journal's path.
        path: PathBuf,
        /// The operating system's reason.
        source: io::Error,
    },
    /// Another process holds the journal.
    #[error("journal {} is in use by another nqueens process", .path.display())]
    Locked {
        /// The journal's path.
        path: PathBuf,
    },
    /// The file is not a journal at all.
    #[error("{} is not an nqueens journal{}", .path.display(), .access.refusal())]
    NotAJournal {
        /// The file's path.
        path: PathBuf,
        /// Whether it was to be read or written.
        access: Access,
    },
    /// The path names something other than a regular file (a directory, a FIFO, a device, a
    /// pseudo-file of the kernel, …), refused before it is opened for long: opening a FIFO
    /// waits for a writer, reading a device may never end. A journal to write is never reached
    /// through a symbolic link either: a link at its path, dangling or not, is refused as
    /// `a symbolic link` and left as it is.
    #[error("journal {} is {what}, not a regular file", .path.display())]
    NotAFile {
        /// The path.
        path: PathBuf,
        /// What it is, with its article ("a FIFO").
        what: &'static str,
    },
    /// The journal belongs to another count: its header is not this count's
    /// ([`Header::differing_fields`] names what differs). The advice never suggests deleting a
    /// shard's journal: `merge` needs it.
    #[error(
        "journal {} was made for {found}, not for this count ({expected}); {}",
        .path.display(), advice(found)
    )]
    Mismatch {
        /// The journal's path.
        path: PathBuf,
        /// What the file says it is for.
        found: Box<Header>,
        /// What this count needs.
        expected: Box<Header>,
    },
    /// The journal is in another format version.
    #[error(
        "journal {} was made for journal format {found}, not for this count \
         (journal format {FORMAT_VERSION}); use another file or delete this one",
        .path.display()
    )]
    OtherFormat {
        /// The journal's path.
        path: PathBuf,
        /// The format version the file has.
        found: u32,
    },
    /// Damage that is not a torn last record.
    #[error("journal {} is corrupt at byte {offset}: {damage}", .path.display())]
    Corrupt {
        /// The journal's path.
        path: PathBuf,
        /// Byte offset of the damaged part.
        offset: u64,
        /// What is wrong there.
        damage: Damage,
    },
    /// A header no reader would accept was given to write
    /// ([`Journal::open`](crate::journal::Journal)): no file was touched.
    #[error("journal {} would be unreadable: its header is wrong ({damage})", .path.display())]
    BadHeader {
        /// The journal's path.
        path: PathBuf,
        /// What the reader would find wrong with it.
        damage: Damage,
    },
    /// Writing or syncing failed while counting. The message holds the operating system's
    /// reason, followed by what to do (so the reason is no [`source`](std::error::Error::source)).
    #[error(
        "cannot write journal {}: {reason} (tasks recorded before this are kept: \
         rerun the same command to resume)",
        .path.display()
    )]
    Write {
        /// The journal's path.
        path: PathBuf,
        /// The operating system's reason.
        reason: io::Error,
    },
}

/// Why a journal is opened: to be read (`merge`), or to be written (a count records into it).
///
/// A file that is not a journal is refused either way; the refusal says that it is not
/// overwritten only where it could have been.
///
/// ```
/// use nqueens::journal::{Access, JournalError};
/// let refused = |access| JournalError::NotAJournal { path: "notes.txt".into(), access };
/// assert_eq!(refused(Access::Read).to_string(), "notes.txt is not an nqueens journal");
/// assert_eq!(
///     refused(Access::Write).to_string(),
///     "notes.txt is not an nqueens journal (refusing to overwrite it)"
/// );
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Access {
    /// Read only: `merge`.
    Read,
    /// Created when missing, then recorded into: a count with a journal.
    Write,
}

impl Access {
    /// What a refusal adds: nothing when reading.
    fn refusal(self) -> &'static str {
        match self {
            Access::Read => "",
            Access::Write => " (refusing to overwrite it)",
        }
    }
}

/// What a refusal of a journal made for another count advises.
fn advice(found: &Header) -> String {
    if found.shard.is_whole() {
        "use another file or delete this one".to_string()
    } else {
        format!(
            "use another file (this one records shard {} for nqueens merge: keep it)",
            found.shard
        )
    }
}

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
