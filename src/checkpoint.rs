//! Checkpoint journals: every finished task recorded durably, so that a count can resume.
//!
//! A journal is an append-only file: one header naming the count it belongs to, then one
//! fixed-size record per finished task. All integers are little-endian.
//!
//! | part   | bytes | contents                                                                |
//! |--------|-------|-------------------------------------------------------------------------|
//! | header | 64    | magic `NQJOURNL` (8), format version `u32`, [`PLAN_VERSION`] `u32`, `n` `u32`, strategy name (16, zero-padded), task count `u64`, plan fingerprint `u64` ([`crate::engine::plan::fingerprint`]), shard index `u32`, shard count `u32`, CRC-32 of the 60 bytes before it |
//! | record | 30    | tag `T` (1), id length (1), id columns (16, zero-padded), count `u64`, CRC-32 of the 26 bytes before it |
//!
//! Each record is handed to the operating system as soon as its task finishes (so a killed
//! process loses nothing) and the file is synced to disk at least every [`SYNC_INTERVAL`] and
//! when the journal is closed (so a power cut loses at most a few seconds of work).
//!
//! A journal records one shard of a plan ([`crate::shard`]); a whole count is shard `0/1`.
//! Format 1 (before shards and fingerprints) is refused as another format.
//!
//! Reopening validates the header — a journal made for another `n`, strategy, plan version,
//! task count, fingerprint or shard is refused — and replays the records. [`read`] replays a
//! journal without a plan, without writing or locking it (for merging shards). A torn or corrupt *last* record (a crash in
//! the middle of a write) is dropped and cut off the file so that its task is counted again;
//! damage anywhere else is an error naming the file and the byte offset. While a journal is open
//! the file holds an exclusive OS lock: a second process refuses it.
//!
//! [`PLAN_VERSION`]: crate::engine::plan::PLAN_VERSION

use std::fmt;
use std::fs::{File, OpenOptions, TryLockError};
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::engine::plan::{MAX_ID_LEN, PLAN_VERSION, Plan, TaskId};
use crate::engine::plan::fingerprint;
use crate::shard::Shard;

/// The first eight bytes of every journal.
pub(crate) const MAGIC: [u8; 8] = *b"NQJOURNL";
/// Version of the file layout described in the module documentation.
pub(crate) const FORMAT_VERSION: u32 = 2;
/// Size of the header in bytes.
pub const HEADER_LEN: usize = 64;
/// Size of one task record in bytes.
pub const RECORD_LEN: usize = 30;
/// The longest a finished task waits before the journal is synced to disk.
pub const SYNC_INTERVAL: Duration = Duration::from_secs(2);

const STRATEGY_LEN: usize = 16;
const RECORD_TAG: u8 = b'T';

/// What a journal belongs to: one plan of one board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// The plan version the tasks were made under.
    pub plan_version: u32,
    /// Board side.
    pub n: u32,
    /// Strategy name (at most 16 bytes).
    pub strategy: String,
    /// Number of tasks in the plan.
    pub tasks: u64,
    /// The plan's fingerprint ([`Plan::fingerprint`]).
    pub fingerprint: u64,
    /// The part of the plan this journal records ([`Shard::WHOLE`] for a whole count).
    pub shard: Shard,
}

impl Header {
    /// The header for a journal of `plan`.
    ///
    /// ```
    /// use nqueens::checkpoint::Header;
    /// use nqueens::engine::plan::{Plan, Strategy};
    /// let plan = Plan::new(8, Strategy::Mirror, 16).unwrap();
    /// let header = Header::for_plan(&plan);
    /// assert_eq!((header.n, header.strategy.as_str()), (8, "mirror"));
    /// assert_eq!(header.tasks, plan.tasks.len() as u64);
    /// ```
    pub fn for_plan(plan: &Plan) -> Header {
        Header::for_shard(plan, Shard::WHOLE)
    }

    /// The header for a journal of shard `shard` of `plan`.
    pub fn for_shard(plan: &Plan, shard: Shard) -> Header {
        Header {
            plan_version: PLAN_VERSION,
            n: plan.n,
            strategy: plan.strategy.name().to_string(),
            tasks: plan.tasks.len() as u64,
            fingerprint: plan.fingerprint(),
            shard,
        }
    }

    /// Reads a header whose checksum has been checked.
    fn decode(b: &[u8]) -> Header {
        let u32_at = |i: usize| u32::from_le_bytes(b[i..i + 4].try_into().unwrap());
        let u64_at = |i: usize| u64::from_le_bytes(b[i..i + 8].try_into().unwrap());
        let name = &b[20..36];
        let name_len = name.iter().position(|&c| c == 0).unwrap_or(name.len());
        Header {
            plan_version: u32_at(12),
            n: u32_at(16),
            strategy: String::from_utf8_lossy(&name[..name_len]).into_owned(),
            tasks: u64_at(36),
            fingerprint: u64_at(44),
            shard: Shard {
                index: u32_at(52),
                count: u32_at(56),
            },
        }
    }

    fn encode(&self) -> [u8; HEADER_LEN] {
        let mut b = [0u8; HEADER_LEN];
        b[0..8].copy_from_slice(&MAGIC);
        b[8..12].copy_from_slice(&FORMAT_VERSION.to_le_bytes());
        b[12..16].copy_from_slice(&self.plan_version.to_le_bytes());
        b[16..20].copy_from_slice(&self.n.to_le_bytes());
        let name = self.strategy.as_bytes();
        let len = name.len().min(STRATEGY_LEN);
        b[20..20 + len].copy_from_slice(&name[..len]);
        b[36..44].copy_from_slice(&self.tasks.to_le_bytes());
        b[44..52].copy_from_slice(&self.fingerprint.to_le_bytes());
        b[52..56].copy_from_slice(&self.shard.index.to_le_bytes());
        b[56..60].copy_from_slice(&self.shard.count.to_le_bytes());
        let crc = crc32fast::hash(&b[..60]);
        b[60..64].copy_from_slice(&crc.to_le_bytes());
        b
    }
}

impl fmt::Display for Header {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "n = {}, strategy {}, plan version {}, {} tasks, plan {}, shard {}",
            self.n,
            self.strategy,
            self.plan_version,
            self.tasks,
            fingerprint::hex(self.fingerprint),
            self.shard
        )
    }
}

/// One finished task as the journal records it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Record {
    /// The task's id.
    pub id: TaskId,
    /// The task's unweighted count.
    pub count: u64,
    /// Where the record starts in the file.
    pub offset: u64,
}

fn encode_record(id: TaskId, count: u64) -> [u8; RECORD_LEN] {
    let mut b = [0u8; RECORD_LEN];
    b[0] = RECORD_TAG;
    let cols = id.cols();
    b[1] = cols.len() as u8;
    b[2..2 + cols.len()].copy_from_slice(cols);
    b[18..26].copy_from_slice(&count.to_le_bytes());
    let crc = crc32fast::hash(&b[..26]);
    b[26..30].copy_from_slice(&crc.to_le_bytes());
    b
}

fn decode_record(b: &[u8], offset: u64) -> Option<Record> {
    let crc = u32::from_le_bytes(b[26..30].try_into().ok()?);
    if b[0] != RECORD_TAG || crc32fast::hash(&b[..26]) != crc {
        return None;
    }
    let len = usize::from(b[1]);
    if len > MAX_ID_LEN {
        return None;
    }
    Some(Record {
        id: TaskId::from_cols(&b[2..2 + len])?,
        count: u64::from_le_bytes(b[18..26].try_into().ok()?),
        offset,
    })
}

/// Why a journal could not be opened, read or written.
#[derive(Debug, thiserror::Error)]
pub enum CheckpointError {
    /// The file cannot be opened or created (missing directory, permissions, ...).
    #[error("cannot open checkpoint {}: {source}", .path.display())]
    Open {
        /// The journal's path.
        path: PathBuf,
        /// The operating system's reason.
        source: io::Error,
    },
    /// Another process holds the journal.
    #[error("checkpoint {} is in use by another nqueens process", .path.display())]
    Locked {
        /// The journal's path.
        path: PathBuf,
    },
    /// The file is not a journal at all.
    #[error("{} is not an nqueens checkpoint (refusing to overwrite it)", .path.display())]
    NotAJournal {
        /// The file's path.
        path: PathBuf,
    },
    /// The journal belongs to another count.
    #[error(
        "checkpoint {} was made for {found}, not for this count ({expected}); \
         use another file or delete this one",
        .path.display()
    )]
    Mismatch {
        /// The journal's path.
        path: PathBuf,
        /// What the file says it is for.
        found: String,
        /// What this count needs.
        expected: String,
    },
    /// Damage that is not a torn last record.
    #[error("checkpoint {} is corrupt at byte {offset}: {why}", .path.display())]
    Corrupt {
        /// The journal's path.
        path: PathBuf,
        /// Byte offset of the damaged part.
        offset: u64,
        /// What is wrong there.
        why: String,
    },
    /// Writing or syncing failed while counting.
    #[error(
        "cannot write checkpoint {}: {source} (tasks recorded before this are kept: \
         rerun the same command to resume)",
        .path.display()
    )]
    Write {
        /// The journal's path.
        path: PathBuf,
        /// The operating system's reason.
        source: io::Error,
    },
}

impl CheckpointError {
    /// Whether the journal was refused before any work started (as opposed to failing while
    /// writing): the user can fix these by choosing or repairing the file.
    pub fn is_refusal(&self) -> bool {
        !matches!(self, CheckpointError::Write { .. })
    }
}

/// What reopening a journal found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Replay {
    /// Every valid record, in file order.
    pub records: Vec<Record>,
    /// Bytes of a torn or corrupt last record that were cut off the file.
    pub dropped_bytes: u64,
}

/// An open, locked journal.
#[derive(Debug)]
pub struct Journal {
    file: File,
    path: PathBuf,
    last_sync: Instant,
    unsynced: bool,
    broken: bool,
}

impl Journal {
    /// Opens (or creates) the journal at `path` for the count `header` describes, and replays
    /// the tasks it already records.
    ///
    /// ```
    /// use nqueens::checkpoint::{Header, Journal};
    /// use nqueens::engine::plan::TaskId;
    /// let dir = tempfile::tempdir().unwrap();
    /// let path = dir.path().join("n8.ckpt");
    /// let header = Header {
    ///     plan_version: 2,
    ///     n: 8,
    ///     strategy: "mirror".into(),
    ///     tasks: 4,
    ///     fingerprint: 7,
    ///     shard: nqueens::shard::Shard::WHOLE,
    /// };
    /// let (mut journal, replay) = Journal::open(&path, &header).unwrap();
    /// assert!(replay.records.is_empty());
    /// journal.append(TaskId::from_cols(&[0]).unwrap(), 4).unwrap();
    /// drop(journal);
    /// let (_journal, replay) = Journal::open(&path, &header).unwrap();
    /// assert_eq!(replay.records[0].count, 4);
    /// ```
    pub fn open(path: &Path, header: &Header) -> Result<(Journal, Replay), CheckpointError> {
        let open_error = |source| CheckpointError::Open {
            path: path.to_path_buf(),
            source,
        };
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(path)
            .map_err(open_error)?;
        if !file.metadata().map_err(open_error)?.is_file() {
            return Err(CheckpointError::NotAJournal {
                path: path.to_path_buf(),
            });
        }
        match file.try_lock() {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => {
                return Err(CheckpointError::Locked {
                    path: path.to_path_buf(),
                });
            }
            Err(TryLockError::Error(e)) => return Err(open_error(e)),
        }
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes).map_err(open_error)?;
        let mut journal = Journal {
            file,
            path: path.to_path_buf(),
            last_sync: Instant::now(),
            unsynced: false,
            broken: false,
        };
        let expected = header.encode();
        if bytes.len() < HEADER_LEN && expected.starts_with(&bytes) {
            // New, or created by a run that died before its header was complete.
            journal.start_fresh(&expected).map_err(open_error)?;
            return Ok((journal, Replay::default()));
        }
        let replay = journal.validate(&bytes, header)?;
        let valid = (bytes.len() as u64) - replay.dropped_bytes;
        journal
            .cut_to(valid, replay.dropped_bytes > 0)
            .map_err(open_error)?;
        Ok((journal, replay))
    }

    /// Positions the journal at `valid`, first cutting off anything after it when `cut`.
    fn cut_to(&mut self, valid: u64, cut: bool) -> io::Result<()> {
        if cut {
            self.file.set_len(valid)?;
            self.file.sync_data()?;
        }
        self.file.seek(SeekFrom::Start(valid)).map(drop)
    }

    fn start_fresh(&mut self, header: &[u8; HEADER_LEN]) -> io::Result<()> {
        self.file.set_len(0)?;
        self.file.seek(SeekFrom::Start(0))?;
        self.file.write_all(header)?;
        self.file.sync_all()?;
        sync_parent_dir(&self.path);
        Ok(())
    }

    fn validate(&self, bytes: &[u8], header: &Header) -> Result<Replay, CheckpointError> {
        let (found, replay) = parse(&self.path, bytes)?;
        if found != *header {
            return Err(CheckpointError::Mismatch {
                path: self.path.clone(),
                found: found.to_string(),
                expected: header.to_string(),
            });
        }
        Ok(replay)
    }

    /// The journal's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Records one finished task: the record reaches the operating system at once and the disk
    /// within [`SYNC_INTERVAL`].
    ///
    /// After a failed write the journal records nothing more (a half-written record must stay
    /// the last one), and the error is returned once.
    pub fn append(&mut self, id: TaskId, count: u64) -> Result<(), CheckpointError> {
        if self.broken {
            return Ok(());
        }
        let record = encode_record(id, count);
        let written = self.file.write_all(&record).and_then(|()| {
            self.unsynced = true;
            if self.last_sync.elapsed() >= SYNC_INTERVAL {
                self.sync_now()
            } else {
                Ok(())
            }
        });
        written.map_err(|source| {
            self.broken = true;
            self.write_error(source)
        })
    }

    /// Syncs every recorded task to disk.
    pub fn sync(&mut self) -> Result<(), CheckpointError> {
        if self.broken || !self.unsynced {
            return Ok(());
        }
        self.sync_now().map_err(|source| self.write_error(source))
    }

    fn sync_now(&mut self) -> io::Result<()> {
        self.file.sync_data()?;
        self.unsynced = false;
        self.last_sync = Instant::now();
        Ok(())
    }

    fn write_error(&self, source: io::Error) -> CheckpointError {
        CheckpointError::Write {
            path: self.path.clone(),
            source,
        }
    }
}

impl Drop for Journal {
    fn drop(&mut self) {
        // Best effort: callers that care about the error call `sync` themselves.
        let _ = self.sync();
    }
}

/// Reads the journal at `path` without a plan: its header and every valid record. Nothing is
/// written or locked; a torn or corrupt last record is left out of the replay (and counted in
/// `dropped_bytes`) but stays in the file. Damage anywhere else is an error.
///
/// ```
/// use nqueens::checkpoint::{read, Header, Journal};
/// use nqueens::engine::plan::{Plan, Strategy};
/// let dir = tempfile::tempdir().unwrap();
/// let path = dir.path().join("n8.ckpt");
/// let plan = Plan::new(8, Strategy::Mirror, 16).unwrap();
/// let (mut journal, _) = Journal::open(&path, &Header::for_plan(&plan)).unwrap();
/// journal.append(plan.tasks[0].id, 3).unwrap();
/// drop(journal);
/// let (header, replay) = read(&path).unwrap();
/// assert_eq!(header, Header::for_plan(&plan));
/// assert_eq!(replay.records[0].count, 3);
/// ```
pub fn read(path: &Path) -> Result<(Header, Replay), CheckpointError> {
    let open_error = |source| CheckpointError::Open {
        path: path.to_path_buf(),
        source,
    };
    let mut file = File::open(path).map_err(open_error)?;
    if !file.metadata().map_err(open_error)?.is_file() {
        return Err(CheckpointError::NotAJournal {
            path: path.to_path_buf(),
        });
    }
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes).map_err(open_error)?;
    parse(path, &bytes)
}

/// Checks a journal's bytes: its header, then every record.
fn parse(path: &Path, bytes: &[u8]) -> Result<(Header, Replay), CheckpointError> {
    let corrupt = |offset: u64, why: String| CheckpointError::Corrupt {
        path: path.to_path_buf(),
        offset,
        why,
    };
    let magic_len = bytes.len().min(MAGIC.len());
    if bytes.is_empty() || bytes[..magic_len] != MAGIC[..magic_len] {
        return Err(CheckpointError::NotAJournal {
            path: path.to_path_buf(),
        });
    }
    if bytes.len() >= 12 {
        let format = u32::from_le_bytes(bytes[8..12].try_into().unwrap());
        if format != FORMAT_VERSION {
            return Err(CheckpointError::Mismatch {
                path: path.to_path_buf(),
                found: format!("journal format {format}"),
                expected: format!("journal format {FORMAT_VERSION}"),
            });
        }
    }
    if bytes.len() < HEADER_LEN {
        return Err(corrupt(0, "the header is incomplete".into()));
    }
    let stored_crc = u32::from_le_bytes(bytes[60..64].try_into().unwrap());
    if crc32fast::hash(&bytes[..60]) != stored_crc {
        return Err(corrupt(0, "the header checksum does not match".into()));
    }
    let header = Header::decode(&bytes[..HEADER_LEN]);
    let body = &bytes[HEADER_LEN..];
    let full = body.len() / RECORD_LEN;
    let partial = body.len() % RECORD_LEN;
    let mut replay = Replay {
        records: Vec::with_capacity(full),
        dropped_bytes: partial as u64,
    };
    for (i, chunk) in body.chunks_exact(RECORD_LEN).enumerate() {
        let offset = (HEADER_LEN + i * RECORD_LEN) as u64;
        match decode_record(chunk, offset) {
            Some(record) => replay.records.push(record),
            None if i + 1 == full && partial == 0 => {
                replay.dropped_bytes = RECORD_LEN as u64;
            }
            None => return Err(corrupt(offset, format!("task record {} is damaged", i + 1))),
        }
    }
    Ok((header, replay))
}

/// Makes a newly created file's directory entry durable (best effort; not every platform can).
fn sync_parent_dir(path: &Path) {
    #[cfg(unix)]
    {
        let parent = match path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => Path::new("."),
        };
        if let Ok(dir) = File::open(parent) {
            let _ = dir.sync_all();
        }
    }
    #[cfg(not(unix))]
    let _ = path;
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    fn header() -> Header {
        Header {
            plan_version: PLAN_VERSION,
            n: 9,
            strategy: "mirror".into(),
            tasks: 10,
            fingerprint: 0x1234,
            shard: Shard::WHOLE,
        }
    }

    fn id(i: u8) -> TaskId {
        TaskId::from_cols(&[i, i + 2]).unwrap()
    }

    /// A journal holding `k` records, closed; returns its path.
    fn journal_with(dir: &Path, k: u8) -> PathBuf {
        let path = dir.join("j.ckpt");
        let (mut j, replay) = Journal::open(&path, &header()).unwrap();
        assert!(replay.records.is_empty());
        for i in 0..k {
            j.append(id(i), u64::from(i) * 10).unwrap();
        }
        j.sync().unwrap();
        path
    }

    fn reopen(path: &Path) -> Result<Replay, CheckpointError> {
        Journal::open(path, &header()).map(|(_, r)| r)
    }

    fn ids(replay: &Replay) -> Vec<TaskId> {
        replay.records.iter().map(|r| r.id).collect()
    }

    #[test]
    fn records_round_trip_with_their_offsets() {
        let dir = tempfile::tempdir().unwrap();
        let path = journal_with(dir.path(), 3);
        assert_eq!(
            fs::metadata(&path).unwrap().len(),
            (HEADER_LEN + 3 * RECORD_LEN) as u64
        );
        let replay = reopen(&path).unwrap();
        assert_eq!(ids(&replay), vec![id(0), id(1), id(2)]);
        let counts: Vec<u64> = replay.records.iter().map(|r| r.count).collect();
        assert_eq!(counts, vec![0, 10, 20]);
        assert_eq!(
            replay.records[2].offset,
            (HEADER_LEN + 2 * RECORD_LEN) as u64
        );
        assert_eq!(replay.dropped_bytes, 0);
    }

    #[test]
    fn a_torn_last_record_is_dropped_and_cut_off() {
        let dir = tempfile::tempdir().unwrap();
        let path = journal_with(dir.path(), 3);
        let full = fs::read(&path).unwrap();
        fs::write(&path, &full[..full.len() - 7]).unwrap();
        let (mut j, replay) = Journal::open(&path, &header()).unwrap();
        assert_eq!(ids(&replay), vec![id(0), id(1)]);
        assert_eq!(replay.dropped_bytes, (RECORD_LEN - 7) as u64);
        // Appending after the cut gives a clean journal again.
        j.append(id(2), 20).unwrap();
        drop(j);
        assert_eq!(fs::read(&path).unwrap(), full);
    }

    #[test]
    fn a_corrupt_last_record_is_dropped() {
        let dir = tempfile::tempdir().unwrap();
        let path = journal_with(dir.path(), 3);
        let mut bytes = fs::read(&path).unwrap();
        let last = bytes.len() - 1;
        bytes[last] ^= 0x5a;
        fs::write(&path, &bytes).unwrap();
        let replay = reopen(&path).unwrap();
        assert_eq!(ids(&replay), vec![id(0), id(1)]);
        assert_eq!(replay.dropped_bytes, RECORD_LEN as u64);
        assert_eq!(
            fs::metadata(&path).unwrap().len(),
            (HEADER_LEN + 2 * RECORD_LEN) as u64
        );
    }

    #[test]
    fn corruption_before_the_last_record_is_an_error_with_the_offset() {
        let dir = tempfile::tempdir().unwrap();
        let path = journal_with(dir.path(), 3);
        let mut bytes = fs::read(&path).unwrap();
        bytes[HEADER_LEN + RECORD_LEN + 20] ^= 1;
        fs::write(&path, &bytes).unwrap();
        let err = reopen(&path).unwrap_err();
        let offset = (HEADER_LEN + RECORD_LEN) as u64;
        assert!(
            matches!(err, CheckpointError::Corrupt { offset: o, .. } if o == offset),
            "{err}"
        );
        let text = err.to_string();
        assert!(text.contains("j.ckpt") && text.contains(&format!("byte {offset}")));
        // The damaged file is left as it was.
        assert_eq!(fs::read(&path).unwrap(), bytes);
    }

    #[test]
    fn a_corrupt_header_is_an_error_at_offset_zero() {
        let dir = tempfile::tempdir().unwrap();
        let path = journal_with(dir.path(), 1);
        let mut bytes = fs::read(&path).unwrap();
        bytes[17] ^= 1;
        fs::write(&path, &bytes).unwrap();
        let err = reopen(&path).unwrap_err();
        assert!(
            matches!(err, CheckpointError::Corrupt { offset: 0, .. }),
            "{err}"
        );
    }

    #[test]
    fn a_journal_for_another_count_is_refused_and_left_alone() {
        let dir = tempfile::tempdir().unwrap();
        let path = journal_with(dir.path(), 2);
        let before = fs::read(&path).unwrap();
        for other in [
            Header { n: 10, ..header() },
            Header {
                strategy: "other".into(),
                ..header()
            },
            Header {
                plan_version: PLAN_VERSION + 1,
                ..header()
            },
            Header {
                tasks: 11,
                ..header()
            },
            Header {
                fingerprint: 0x1235,
                ..header()
            },
            Header {
                shard: Shard { index: 1, count: 2 },
                ..header()
            },
        ] {
            let err = Journal::open(&path, &other).unwrap_err();
            let text = err.to_string();
            assert!(matches!(err, CheckpointError::Mismatch { .. }), "{text}");
            assert!(text.contains("n = 9") && text.contains("j.ckpt"), "{text}");
            assert!(err.is_refusal());
        }
        assert_eq!(fs::read(&path).unwrap(), before);
    }

    #[test]
    fn other_files_are_not_journals() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("notes.txt");
        fs::write(&path, "shopping list\n").unwrap();
        let err = reopen(&path).unwrap_err();
        assert!(matches!(err, CheckpointError::NotAJournal { .. }), "{err}");
        assert_eq!(fs::read(&path).unwrap(), b"shopping list\n");
    }

    #[test]
    fn devices_and_directories_are_not_journals() {
        let dir = tempfile::tempdir().unwrap();
        assert!(reopen(dir.path()).is_err());
        #[cfg(unix)]
        {
            let err = reopen(Path::new("/dev/zero")).unwrap_err();
            assert!(matches!(err, CheckpointError::NotAJournal { .. }), "{err}");
        }
    }

    #[test]
    fn a_torn_header_is_started_again() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("j.ckpt");
        fs::write(&path, &header().encode()[..20]).unwrap();
        let replay = reopen(&path).unwrap();
        assert!(replay.records.is_empty());
        assert_eq!(fs::read(&path).unwrap(), header().encode());
    }

    #[test]
    fn a_second_opener_is_refused_while_the_first_holds_the_journal() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("j.ckpt");
        let (first, _) = Journal::open(&path, &header()).unwrap();
        let err = Journal::open(&path, &header()).unwrap_err();
        assert!(matches!(err, CheckpointError::Locked { .. }), "{err}");
        drop(first);
        assert!(Journal::open(&path, &header()).is_ok());
    }

    #[test]
    fn a_missing_directory_is_an_open_error() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("missing").join("j.ckpt");
        let err = reopen(&path).unwrap_err();
        assert!(matches!(err, CheckpointError::Open { .. }), "{err}");
        assert!(err.to_string().contains("missing"));
    }
}
