//! Journals: every finished task of a count recorded durably, so that the count can resume,
//! run in shards on many machines and be merged.
//!
//! A journal is an append-only file: one header naming the count it belongs to, then one
//! fixed-size record per finished task, with a time record of the same size now and then. All
//! integers are little-endian.
//!
//! | part   | bytes | contents                                                                |
//! |--------|-------|-------------------------------------------------------------------------|
//! | header | 64    | bytes 0..8 magic `NQJOURNL`, 8..12 format version `u32`, 12..16 plan version `u32` ([`Plan::fingerprint`](crate::Plan::fingerprint) covers it too), 16..20 `n` `u32`, 20..36 strategy name (zero-padded), 36..44 task count `u64`, 44..52 plan fingerprint `u64` ([`Plan::fingerprint`](crate::Plan::fingerprint)), 52..56 shard index `u32`, 56..60 shard count `u32`, 60..64 CRC-32 of bytes 0..60 |
//! | record | 30    | byte 0 tag `T`, 1 id length, 2..18 id columns (zero-padded), 18..26 count `u64`, 26..30 the record's checksum |
//! | time   | 30    | byte 0 tag `S`, 1..9 search nanoseconds `u64`, 9..17 wall-clock nanoseconds `u64` (both since the run's previous time record, or since it opened the journal), 17 1 for a run's first time record (2: the runs before this record recorded no time, the times zero), 18..26 zero, 26..30 the record's checksum |
//!
//! A record's checksum is the CRC-32 of the header's bytes 0..60 followed by the record's bytes
//! 0..26: a record holds only in the journal it was written to. Many task ids are ids of several
//! plans (of neighbouring boards, of every shard of one plan), so a record copied from another
//! journal would otherwise name a task of this one with another task's count; it fails its check
//! instead, and a resume or merge refuses it, naming the journal and the record's offset. A
//! count no task could have (more than the ways to fill its free rows, or than the board's known
//! total allows) is refused too.
//!
//! A run writes a time record at least once a minute while its tasks finish and one when it
//! ends or is stopped ([`Spent`]: the time all runs of a count took and searched).
//!
//! Older formats are still read: format 3 (records checked by their own bytes alone) and 2 (no
//! time records either). A merge reads them as they are; a count that resumes one first
//! rewrites it in format 4 — the same records, sealed to the header, in a new file renamed
//! over the old one — with, for format 2, the mark that its earlier runs' time is unknown. Their
//! records were never bound to their header: a record copied into such a journal before it was
//! rewritten cannot be told from its own.
//!
//! Each record is handed to the operating system as soon as its task finishes (so a killed
//! process loses nothing) and the file is synced to disk at least every two seconds and when the
//! journal is closed (so a power cut loses at most a few seconds of work).
//!
//! A journal records one shard of a plan ([`Shard`]); a whole count is shard `0/1`. Format 1
//! (before shards and fingerprints) is refused as another format.
//!
//! Every journal is opened one way, to resume or to merge: a path that is not a regular file is
//! refused before it is opened for long (a FIFO would block the open), the header is read and
//! checked before anything else — its magic, checksum and every field, so a crafted header is
//! damage, never a panic — and the records are streamed, never more task records than the
//! plan has tasks nor more than 2^20 time records (a longer file is refused unread).
//!
//! Reopening validates the header — a journal made for another `n`, strategy, plan version,
//! task count, fingerprint or shard is refused, naming the fields that differ
//! ([`JournalError::Mismatch`]) — and replays the records. Merging reads journals without a
//! plan, without writing or locking them. A torn or corrupt *last* record (a crash in the middle
//! of a write) is dropped and cut off the file so that its task is counted again; damage
//! anywhere else is an error naming the file and the byte offset. While a journal is open the
//! file holds an exclusive OS lock: a second process refuses it.
//!
//! | file | what |
//! |---|---|
//! | `format.rs` | the header and record bytes ([`Header`], the records) |
//! | `file.rs` | the open, locked, append-only journal |
//! | `read.rs` | opening a journal file, checking its header, streaming its records |
//! | `bound.rs` | the most solutions a task can have (a recorded count above it is refused) |
//! | `error.rs` | what a journal's errors ([`JournalError`], [`Damage`]) say of themselves |
//! | `open.rs` | a journal opened for a count, its records checked against the plan |
//! | `shard.rs` | a plan's tasks dealt into shards |
//! | [`merge`] | shard journals added up into a board's total |

mod bound;
mod error;
mod file;
mod format;
pub(crate) mod merge;
mod open;
mod read;
mod shard;

pub use error::{Access, Damage, JournalError};
pub use format::{Header, HeaderField, Spent};
pub use merge::{MergeError, Merged, Missing, PlanDifference, merge};
pub(crate) use open::open;
pub(crate) use read::{read, read_header};
pub use shard::{Shard, ShardError, ShardSpec};

// The file itself and its byte layout: for a program that records its own runs, and for
// checking files.
pub use file::Journal;
pub use format::Record;
pub use read::Replay;
