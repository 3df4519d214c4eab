//! The open journal: created or reopened, locked, appended to and synced.

use std::fs::{File, TryLockError};
use std::io::{self, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::error::Damage;
use super::error::{Access, JournalError};
use super::format::{
    FORMAT_VERSION, HEADER_LEN, Header, RECORD_LEN, Seal, Spent, TimeRecord, encode_record,
    encode_time, encode_untimed_before,
};
use super::read::{self, Opened, Replay};
use crate::engine::plan::TaskId;

/// The longest a finished task waits before the journal is synced to disk.
pub(crate) const SYNC_INTERVAL: Duration = Duration::from_secs(2);

/// The longest a run's search time waits, while its tasks finish, before a time record holds
/// it: what a run killed outright loses of its time.
pub(crate) const TIME_INTERVAL: Duration = Duration::from_secs(60);

/// The bytes of `header`, to be written to the journal at `path`: only a header the reader takes
/// back unchanged is written (a strategy name longer than its field, or with other characters,
/// would come back otherwise); another is [`JournalError::BadHeader`].
fn writable(path: &Path, header: &Header) -> Result<[u8; HEADER_LEN], JournalError> {
    let expected = header.encode();
    let damage = match Header::decode(&expected) {
        Ok(read) if read == *header => return Ok(expected),
        Ok(_) => Damage::StrategyName,
        Err((_, damage)) => damage,
    };
    Err(JournalError::BadHeader {
        path: path.to_path_buf(),
        damage,
    })
}

/// Takes the journal's exclusive lock, or refuses a journal another process holds
/// ([`JournalError::Locked`]).
fn lock_or_refuse(file: &File, path: &Path) -> Result<(), JournalError> {
    match lock(file) {
        Ok(()) => Ok(()),
        Err(TryLockError::WouldBlock) => Err(JournalError::Locked {
            path: path.to_path_buf(),
        }),
        Err(TryLockError::Error(source)) => Err(JournalError::Open {
            path: path.to_path_buf(),
            source,
        }),
    }
}

/// An open, locked journal.
#[derive(Debug)]
pub struct Journal {
    file: File,
    path: PathBuf,
    last_sync: Instant,
    unsynced: bool,
    broken: bool,
    /// What the records' checksums cover besides the records: the journal's header (a journal
    /// of an older format is rewritten in today's when it is opened).
    seal: Seal,
    /// When the last time record was written (or the journal opened).
    last_time: Instant,
    /// Search time of the tasks appended since the last time record.
    unrecorded_search: Duration,
    /// Whether tasks with their search time were appended since the last time record.
    untimed: bool,
    /// Whether this run has written a time record.
    timed: bool,
}

impl Journal {
    /// Opens (or creates) the journal at `path` for the count `header` describes, and replays
    /// the tasks it already records.
    ///
    /// # Errors
    ///
    /// [`JournalError::BadHeader`] for a header no reader would accept (nothing is touched),
    /// [`JournalError::NotAFile`] for a path that is a link or something other than a regular file,
    /// [`JournalError::Open`] when the file cannot be opened or created, [`JournalError::Locked`]
    /// when another process holds it, [`JournalError::NotAJournal`], [`JournalError::OtherFormat`]
    /// or [`JournalError::Mismatch`] for a file that is no journal, another format's or another
    /// count's, and [`JournalError::Corrupt`] for damage other than a torn last record.
    ///
    /// ```
    /// use nqueens::journal::{Header, Journal};
    /// use nqueens::{Plan, Strategy, TaskId};
    /// let dir = tempfile::tempdir().unwrap();
    /// let path = dir.path().join("n8.ckpt");
    /// let header = Header::for_plan(&Plan::new(8, Strategy::Mirror, 4).unwrap());
    /// let (mut journal, replay) = Journal::open(&path, &header).unwrap();
    /// assert!(replay.records.is_empty());
    /// journal.append(TaskId::from_columns(&[0]).unwrap(), 4).unwrap();
    /// drop(journal);
    /// let (_journal, replay) = Journal::open(&path, &header).unwrap();
    /// assert_eq!(replay.records[0].count, 4);
    /// ```
    pub fn open(path: &Path, header: &Header) -> Result<(Journal, Replay), JournalError> {
        let expected = writable(path, header)?;
        let open_error = |source| JournalError::Open {
            path: path.to_path_buf(),
            source,
        };
        let Opened { mut file, created } = read::open(path, Access::Write)?;
        lock_or_refuse(&file, path)?;
        let len = file.metadata().map_err(open_error)?.len();
        let (head, got) = read::read_head(&mut file).map_err(open_error)?;
        let mut journal = Journal {
            file,
            path: path.to_path_buf(),
            last_sync: Instant::now(),
            unsynced: false,
            broken: false,
            seal: Seal::of(&expected, FORMAT_VERSION),
            last_time: Instant::now(),
            unrecorded_search: Duration::ZERO,
            untimed: false,
            timed: false,
        };
        if got < HEADER_LEN && expected.starts_with(&head[..got]) {
            // New, or created by a run that died before its header was complete.
            if let Err(e) = journal.start_fresh(&expected) {
                if created {
                    // A journal without its header is no journal: leave nothing behind.
                    let _ = std::fs::remove_file(path);
                }
                return Err(open_error(e));
            }
            let replay = Replay {
                spent: Some(Spent::default()),
                ..Replay::default()
            };
            return Ok((journal, replay));
        }
        let (found, format, seal) = read::check_header(path, &head[..got], Access::Write)?;
        if found != *header {
            return Err(JournalError::Mismatch {
                path: path.to_path_buf(),
                found: Box::new(found),
                expected: Box::new(header.clone()),
            });
        }
        let replay = read::read_records(&mut journal.file, path, len, header.tasks, format, &seal)?;
        let valid = len - replay.dropped_bytes;
        journal
            .cut_to(valid, replay.dropped_bytes > 0)
            .map_err(open_error)?;
        if format < FORMAT_VERSION {
            let untimed = replay.spent.is_none();
            journal
                .rewrite(&expected, &seal, valid, untimed)
                .map_err(|e| JournalError::Open {
                    path: path.to_path_buf(),
                    source: io::Error::new(
                        e.kind(),
                        format!("rewriting it in journal format {FORMAT_VERSION}: {e}"),
                    ),
                })?;
        }
        Ok((journal, replay))
    }

    /// Rewrites a journal of an older format, `valid` bytes long and checked (its records hold
    /// under `old`), in today's: the header `header` and every record as it was, sealed to the
    /// header (the journal's own [`Seal`]), after a mark that the earlier runs recorded no time when `untimed`
    /// (a journal of format 2 that holds tasks). The new file is written beside the old one,
    /// locked, synced and renamed over it: a crash leaves one or the other, whole.
    fn rewrite(
        &mut self,
        header: &[u8; HEADER_LEN],
        old: &Seal,
        valid: u64,
        untimed: bool,
    ) -> io::Result<()> {
        let (dir, name) = nqueens_files::Directory::of(&self.path).map_err(io::Error::other)?;
        #[cfg(unix)]
        let mode = {
            use std::os::unix::fs::PermissionsExt;
            self.file.metadata()?.permissions().mode() & 0o7777
        };
        #[cfg(not(unix))]
        let mode = 0o666;
        let prefix = format!(".{}.", name.to_string_lossy());
        let (new, new_name) = dir.create_temporary(&prefix, ".rewrite", mode)?;
        let written = new
            .try_lock()
            .map_err(io::Error::other)
            .and_then(|()| self.copy_sealed(&new, header, old, valid, untimed))
            .and_then(|()| new.sync_all())
            .and_then(|()| dir.rename(&new_name, name));
        if let Err(e) = written {
            let _ = dir.remove_file(&new_name);
            return Err(e);
        }
        sync_parent_dir(&self.path);
        self.file = new;
        self.file.seek(SeekFrom::End(0))?;
        Ok(())
    }

    /// Writes into `new` the header `header`, the mark that the earlier runs recorded no time
    /// when `untimed`, and every record of this journal's first `valid` bytes (each holding
    /// under `old`) sealed by this journal's seal instead.
    fn copy_sealed(
        &self,
        new: &File,
        header: &[u8; HEADER_LEN],
        old: &Seal,
        valid: u64,
        untimed: bool,
    ) -> io::Result<()> {
        use std::io::{BufReader, BufWriter, Read};
        let mut out = BufWriter::with_capacity(1 << 16, new);
        out.write_all(header)?;
        if untimed {
            out.write_all(&encode_untimed_before(&self.seal))?;
        }
        (&self.file).seek(SeekFrom::Start(HEADER_LEN as u64))?;
        let body = valid.saturating_sub(HEADER_LEN as u64);
        let mut records = BufReader::with_capacity(1 << 16, (&self.file).take(body));
        let mut bytes = [0u8; RECORD_LEN];
        for _ in 0..body / RECORD_LEN as u64 {
            records.read_exact(&mut bytes)?;
            if !old.holds(&bytes) {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidData,
                    "the file changed while it was read",
                ));
            }
            out.write_all(&self.seal.reseal(&bytes))?;
        }
        out.flush()
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

    /// The journal's path.
    #[must_use]
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Records one finished task: the record reaches the operating system at once and the disk
    /// within two seconds.
    ///
    /// After a failed write the journal records nothing more (a half-written record must stay
    /// the last one), and the error is returned once.
    ///
    /// The task's search time is not known: no time record holds it ([`Journal::append_searched`]
    /// records it).
    ///
    /// # Errors
    ///
    /// [`JournalError::Write`] when the record cannot be written (or an earlier write failed).
    pub fn append(&mut self, id: TaskId, count: u64) -> Result<(), JournalError> {
        self.write_task(id, count, None)
    }

    /// Records one finished task that took `search` to search, like [`Journal::append`]; the
    /// search time reaches the journal in a time record within a minute, and when the journal
    /// is synced ([`Journal::sync`], and when it is closed).
    ///
    /// # Errors
    ///
    /// [`JournalError::Write`] when the record cannot be written (or an earlier write failed).
    pub fn append_searched(
        &mut self,
        id: TaskId,
        count: u64,
        search: Duration,
    ) -> Result<(), JournalError> {
        self.write_task(id, count, Some(search))
    }

    /// Adds `search`, the time spent on tasks a stop abandoned part-way (no record holds them:
    /// they are searched again), to the search time the next time record holds, written when
    /// the journal is synced: a run stopped before any of its tasks finished is timed too.
    pub(crate) fn add_abandoned(&mut self, search: Duration) {
        if self.broken {
            return;
        }
        self.untimed = true;
        self.unrecorded_search = self.unrecorded_search.saturating_add(search);
    }

    /// Writes the record of a task, and of its search time when `search` is known.
    fn write_task(
        &mut self,
        id: TaskId,
        count: u64,
        search: Option<Duration>,
    ) -> Result<(), JournalError> {
        if self.broken {
            return Ok(());
        }
        let record = encode_record(&self.seal, id, count);
        let written = self.file.write_all(&record).and_then(|()| {
            self.unsynced = true;
            if let Some(search) = search {
                self.untimed = true;
                self.unrecorded_search = self.unrecorded_search.saturating_add(search);
            }
            if self.untimed && self.last_time.elapsed() >= TIME_INTERVAL {
                self.write_time()?;
            }
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

    /// Syncs every recorded task to disk, after a time record of the tasks appended since the
    /// last one.
    ///
    /// # Errors
    ///
    /// [`JournalError::Write`] when the time record cannot be written or the file cannot be synced
    /// (or an earlier write failed).
    pub fn sync(&mut self) -> Result<(), JournalError> {
        if self.broken {
            return Ok(());
        }
        if let Err(source) = self.write_time() {
            self.broken = true;
            return Err(self.write_error(source));
        }
        if !self.unsynced {
            return Ok(());
        }
        self.sync_now().map_err(|source| self.write_error(source))
    }

    /// Writes a time record of the tasks appended (or abandoned) since the last one (none when
    /// no task was).
    fn write_time(&mut self) -> io::Result<()> {
        if !self.untimed {
            return Ok(());
        }
        let record = TimeRecord {
            wall: self.last_time.elapsed(),
            search: self.unrecorded_search,
            first: !self.timed,
        };
        self.file.write_all(&encode_time(&self.seal, record))?;
        self.last_time = Instant::now();
        self.unrecorded_search = Duration::ZERO;
        (self.untimed, self.timed, self.unsynced) = (false, true, true);
        Ok(())
    }

    fn sync_now(&mut self) -> io::Result<()> {
        self.file.sync_data()?;
        self.unsynced = false;
        self.last_sync = Instant::now();
        Ok(())
    }

    fn write_error(&self, reason: io::Error) -> JournalError {
        JournalError::Write {
            path: self.path.clone(),
            reason,
        }
    }
}

impl Drop for Journal {
    fn drop(&mut self) {
        // Best effort: callers that care about the error call `sync` themselves.
        let _ = self.sync();
    }
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

/// Takes the journal's lock, waiting a moment for it: a lock held by another writer stays held,
/// but one that a closed journal left in a process this one is just starting (between its fork
/// and its exec, the child holds a copy of every open file) goes within milliseconds.
fn lock(file: &File) -> Result<(), TryLockError> {
    let mut wait = Duration::from_millis(1);
    for _ in 0..7 {
        match file.try_lock() {
            Err(TryLockError::WouldBlock) => std::thread::sleep(wait),
            done => return done,
        }
        wait *= 2;
    }
    file.try_lock()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::plan::Plan;
    use crate::journal::Damage;
    use crate::journal::Shard;
    use crate::journal::format::RECORD_LEN;
    use crate::journal::format::tests::header;
    use std::fs;

    fn id(i: u8) -> TaskId {
        TaskId::from_columns(&[i, i + 2]).unwrap()
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

    fn reopen(path: &Path) -> Result<Replay, JournalError> {
        Journal::open(path, &header()).map(|(_, r)| r)
    }

    fn ids(replay: &Replay) -> Vec<TaskId> {
        replay.records.iter().map(|r| r.id).collect()
    }

    #[test]
    fn every_run_s_time_adds_up_across_runs() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("j.ckpt");
        let second = Duration::from_secs(1);
        let (mut j, replay) = Journal::open(&path, &header()).unwrap();
        assert_eq!(replay.spent, Some(Spent::default()));
        j.append_searched(id(0), 1, 3 * second).unwrap();
        j.append_searched(id(1), 1, 4 * second).unwrap();
        drop(j);
        let (j, replay) = Journal::open(&path, &header()).unwrap();
        let spent = replay.spent.unwrap();
        assert_eq!((spent.runs, spent.core_time), (1, 7 * second));
        assert_eq!(replay.records.len(), 2);
        // A run that searches nothing records no time; one that does, its own.
        drop(j);
        let (mut j, _) = Journal::open(&path, &header()).unwrap();
        j.append_searched(id(2), 1, 5 * second).unwrap();
        j.sync().unwrap();
        drop(j);
        let (_, replay) = Journal::open(&path, &header()).unwrap();
        let spent = replay.spent.unwrap();
        assert_eq!((spent.runs, spent.core_time), (2, 12 * second));
        assert_eq!(replay.records.len(), 3);
        assert!(spent.wall_time < 60 * second);
    }

    /// The journal at `path` as a version writing format `format` (2 or 3) would have written
    /// it: its format and checksums made again, each record's of its own bytes alone.
    fn as_older_format(path: &Path, format: u32) {
        let mut bytes = fs::read(path).unwrap();
        bytes[8..12].copy_from_slice(&format.to_le_bytes());
        let crc = crc32fast::hash(&bytes[..HEADER_LEN - 4]);
        bytes[HEADER_LEN - 4..HEADER_LEN].copy_from_slice(&crc.to_le_bytes());
        for record in bytes[HEADER_LEN..].chunks_exact_mut(RECORD_LEN) {
            let crc = crc32fast::hash(&record[..RECORD_LEN - 4]);
            record[RECORD_LEN - 4..].copy_from_slice(&crc.to_le_bytes());
        }
        fs::write(path, &bytes).unwrap();
    }

    fn format_of(path: &Path) -> u32 {
        let bytes = fs::read(path).unwrap();
        u32::from_le_bytes(bytes[8..12].try_into().unwrap())
    }

    #[test]
    fn a_journal_of_format_2_is_rewritten_with_its_earlier_time_still_untold() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("j.ckpt");
        {
            let (mut j, _) = Journal::open(&path, &header()).unwrap();
            j.append(id(0), 0).unwrap();
            j.append(id(1), 10).unwrap();
        }
        as_older_format(&path, 2);
        assert_eq!(format_of(&path), 2);
        let (mut j, replay) = Journal::open(&path, &header()).unwrap();
        assert_eq!((replay.records.len(), replay.spent), (2, None));
        assert_eq!(format_of(&path), FORMAT_VERSION);
        j.append_searched(id(2), 20, Duration::from_secs(1))
            .unwrap();
        drop(j);
        // The header, the mark that earlier runs recorded no time, three tasks and this run's
        // time: the time of the count stays unknown.
        let len = fs::metadata(&path).unwrap().len();
        assert_eq!(len, (HEADER_LEN + 5 * RECORD_LEN) as u64);
        let (_, replay) = Journal::open(&path, &header()).unwrap();
        assert_eq!((replay.records.len(), replay.spent), (3, None));
        let counts: Vec<u64> = replay.records.iter().map(|r| r.count).collect();
        assert_eq!(counts, [0, 10, 20]);
    }

    #[test]
    fn a_journal_of_format_3_is_rewritten_bound_to_its_header_with_its_time() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("j.ckpt");
        {
            let (mut j, _) = Journal::open(&path, &header()).unwrap();
            j.append_searched(id(0), 5, Duration::from_secs(3)).unwrap();
            j.append_searched(id(1), 10, Duration::from_secs(4))
                .unwrap();
        }
        as_older_format(&path, 3);
        let old = fs::read(&path).unwrap();
        // An older journal's records are checked by their own bytes alone: read as they are.
        let (_, replay) = read::read(&path, 10).unwrap();
        let spent = replay.spent.unwrap();
        assert_eq!((spent.runs, spent.core_time.as_secs()), (1, 7));
        // Opened to resume, it is rewritten: the same records, sealed to the header.
        let (j, replay) = Journal::open(&path, &header()).unwrap();
        let spent = replay.spent.unwrap();
        assert_eq!((spent.runs, spent.core_time.as_secs()), (1, 7));
        let new = fs::read(&path).unwrap();
        assert_eq!((format_of(&path), new.len()), (FORMAT_VERSION, old.len()));
        let seal = crate::journal::format::tests::seal(&header());
        for (old, new) in old[HEADER_LEN..]
            .chunks_exact(RECORD_LEN)
            .zip(new[HEADER_LEN..].chunks_exact(RECORD_LEN))
        {
            assert_eq!(old[..RECORD_LEN - 4], new[..RECORD_LEN - 4]);
            assert!(seal.holds(new));
        }
        // No file is left beside it, and the rewritten journal is the one locked.
        let names: Vec<_> = fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(names.len(), 1);
        let Err(JournalError::Locked { .. }) = Journal::open(&path, &header()) else {
            panic!("the rewritten journal is not locked");
        };
        drop(j);
        let (_, replay) = Journal::open(&path, &header()).unwrap();
        assert_eq!(replay.records.len(), 2);
    }

    #[test]
    fn a_record_copied_from_another_journal_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = journal_with(dir.path(), 3);
        let other = dir.path().join("other.ckpt");
        let other_header = Header {
            shard: Shard::new(0, 2).unwrap(),
            ..header()
        };
        {
            let (mut j, _) = Journal::open(&other, &other_header).unwrap();
            j.append(id(1), 999).unwrap();
        }
        // The second record of `path` replaced by the other journal's record of the same task.
        let foreign = fs::read(&other).unwrap()[HEADER_LEN..HEADER_LEN + RECORD_LEN].to_vec();
        let mut bytes = fs::read(&path).unwrap();
        let at = HEADER_LEN + RECORD_LEN;
        bytes[at..at + RECORD_LEN].copy_from_slice(&foreign);
        fs::write(&path, &bytes).unwrap();
        let err = reopen(&path).unwrap_err();
        let JournalError::Corrupt { offset, damage, .. } = &err else {
            panic!("{err}")
        };
        assert_eq!((*offset, *damage), (at as u64, Damage::Record(2)));
        assert!(err.to_string().contains("from another journal"), "{err}");
        assert_eq!(fs::read(&path).unwrap(), bytes);
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
            matches!(err, JournalError::Corrupt { offset: o, damage: Damage::Record(2), .. } if o == offset),
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
            matches!(err, JournalError::Corrupt { offset: 0, .. }),
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
                plan_version: Plan::VERSION + 1,
                ..header()
            },
            Header {
                tasks: 11,
                ..header()
            },
            Header {
                fingerprint: crate::Fingerprint::new(0x1235),
                ..header()
            },
            Header {
                shard: Shard::new(1, 2).unwrap(),
                ..header()
            },
        ] {
            let err = Journal::open(&path, &other).unwrap_err();
            let text = err.to_string();
            assert!(matches!(err, JournalError::Mismatch { .. }), "{text}");
            assert!(text.contains("n = 9") && text.contains("j.ckpt"), "{text}");
            assert!(err.is_refusal());
            // Exactly the one field changed is named, with both values.
            let JournalError::Mismatch {
                found, expected, ..
            } = &err
            else {
                unreachable!()
            };
            assert_eq!((**found).clone(), header());
            assert_eq!(**expected, other);
            assert_eq!(found.differing_fields(expected).len(), 1, "{text}");
            assert_eq!(err.differences().len(), 1, "{text}");
        }
        assert_eq!(fs::read(&path).unwrap(), before);
    }

    #[test]
    fn a_journal_of_another_format_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = journal_with(dir.path(), 1);
        let mut bytes = fs::read(&path).unwrap();
        bytes[8..12].copy_from_slice(&1u32.to_le_bytes());
        fs::write(&path, &bytes).unwrap();
        let err = reopen(&path).unwrap_err();
        assert!(
            matches!(err, JournalError::OtherFormat { found: 1, .. }),
            "{err}"
        );
        assert_eq!(
            err.differences(),
            [("journal format 1".into(), "journal format 4".into())]
        );
    }

    #[test]
    fn other_files_are_not_journals() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("notes.txt");
        fs::write(&path, "shopping list\n").unwrap();
        let err = reopen(&path).unwrap_err();
        assert!(matches!(err, JournalError::NotAJournal { .. }), "{err}");
        assert_eq!(fs::read(&path).unwrap(), b"shopping list\n");
    }

    #[test]
    fn devices_fifos_and_directories_are_not_journals() {
        let dir = tempfile::tempdir().unwrap();
        let not_a_file = |path: &Path, kind: &str| {
            let err = reopen(path).unwrap_err();
            assert!(
                matches!(err, JournalError::NotAFile { what, .. } if what == kind),
                "{err}"
            );
            let text = err.to_string();
            assert!(text.ends_with(&format!("is {kind}, not a regular file")));
            let err = crate::journal::read_header(path).unwrap_err();
            assert!(matches!(err, JournalError::NotAFile { .. }), "{err}");
        };
        not_a_file(dir.path(), "a directory");
        #[cfg(unix)]
        {
            use std::os::unix::ffi::OsStrExt;
            not_a_file(Path::new("/dev/zero"), "a device");
            // Opening a FIFO to read waits for a writer: it must not be opened that way.
            let fifo = dir.path().join("f.ckpt");
            let name = std::ffi::CString::new(fifo.as_os_str().as_bytes()).unwrap();
            // SAFETY: a valid, NUL-terminated path.
            assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o600) }, 0);
            not_a_file(&fifo, "a FIFO");
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
        assert!(matches!(err, JournalError::Locked { .. }), "{err}");
        drop(first);
        assert!(Journal::open(&path, &header()).is_ok());
    }

    #[test]
    fn a_missing_directory_is_an_open_error() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("missing").join("j.ckpt");
        let err = reopen(&path).unwrap_err();
        assert!(matches!(err, JournalError::Open { .. }), "{err}");
        assert!(err.to_string().contains("missing"));
    }
}
