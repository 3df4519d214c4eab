//! Opening a journal file and reading it: the one way every journal is opened (to resume a
//! count or to merge), its header checked before anything else is read, its records streamed.
//!
//! Nothing is read from a path that is not a regular file ([`crate::files`]: checked before it
//! is opened, so a FIFO cannot block the open, and again on the opened file), nothing is
//! written through a symbolic link, nothing past the header of a file
//! whose header is not a journal's, and no record of a file longer than its plan's records: no
//! file, however large or strange, makes a reader wait or allocate by its size.

use std::fs::File;
use std::io::{self, BufReader, ErrorKind, Read};
use std::path::Path;

use super::error::Damage;
use super::error::{Access, JournalError};
use super::format::{
    FORMAT_VERSION, HEADER_CHECKED, HEADER_LEN, Header, MAGIC, OLDEST_FORMAT, RECORD_LEN, Record,
    Seal, Spent, TIMED_FORMAT, TimeEntry, decode_record, decode_time,
};
use nqueens_files::{self as files, Refusal};

/// What reading a journal found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Replay {
    /// Every valid task record, in file order.
    pub records: Vec<Record>,
    /// The time the journal's runs recorded ([`Spent`]); `None` for a journal of an older
    /// format (2) that holds tasks, which records no time.
    pub spent: Option<Spent>,
    /// Bytes of a torn or corrupt last record, left out of the replay (and cut off the file
    /// when the journal is opened for writing).
    pub dropped_bytes: u64,
}

/// A journal file, open.
pub(super) struct Opened {
    pub file: File,
    /// Whether this open created the file (it did not exist before).
    pub created: bool,
}

/// Opens the journal file at `path` for `access`, as every file of the tool is opened
/// ([`crate::files`]): a regular file only, never waiting; to write, never through a symbolic
/// link, and created (empty, new) when it is missing.
pub(super) fn open(path: &Path, access: Access) -> Result<Opened, JournalError> {
    let opened = match access {
        Access::Read => files::open_read(path).map(|file| (file, false)),
        Access::Write => files::open_update(path),
    };
    let (file, created) = opened.map_err(|refusal| match refusal {
        Refusal::Io(source) => JournalError::Open {
            path: path.to_path_buf(),
            source,
        },
        Refusal::NotAFile(what) => JournalError::NotAFile {
            path: path.to_path_buf(),
            what,
        },
        Refusal::Link => JournalError::NotAFile {
            path: path.to_path_buf(),
            what: "a symbolic link",
        },
        other => JournalError::Open {
            path: path.to_path_buf(),
            source: io::Error::other(other.to_string()),
        },
    })?;
    Ok(Opened { file, created })
}

/// The most time records a journal may hold besides its task records (a run writes one a
/// minute at most while its tasks finish, and one when it ends): two years of minutes.
pub(crate) const MAX_TIME_RECORDS: u64 = 1 << 20;

/// Reads up to [`HEADER_LEN`] bytes from the current position (the start) of `file`: the
/// header, or all of a shorter file.
pub(super) fn read_head(file: &mut File) -> io::Result<([u8; HEADER_LEN], usize)> {
    let mut head = [0u8; HEADER_LEN];
    let mut got = 0;
    while got < HEADER_LEN {
        match file.read(&mut head[got..]) {
            Ok(0) => break,
            Ok(k) => got += k,
            Err(e) if e.kind() == ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok((head, got))
}

/// Checks the first bytes of the journal at `path` (at most [`HEADER_LEN`], fewer when the
/// file is shorter): the magic, the format version, the checksum and every field
/// ([`Header::decode`]). Returns the header, the file's format version and the seal its
/// records hold under.
pub(super) fn check_header(
    path: &Path,
    bytes: &[u8],
    access: Access,
) -> Result<(Header, u32, Seal), JournalError> {
    let corrupt = |offset: u64, damage: Damage| JournalError::Corrupt {
        path: path.to_path_buf(),
        offset,
        damage,
    };
    let magic_len = bytes.len().min(MAGIC.len());
    if bytes.is_empty() || bytes[..magic_len] != MAGIC[..magic_len] {
        return Err(JournalError::NotAJournal {
            path: path.to_path_buf(),
            access,
        });
    }
    let mut version = FORMAT_VERSION;
    if let Some(format) = bytes.get(8..12) {
        let format = u32::from_le_bytes([format[0], format[1], format[2], format[3]]);
        version = format;
        if !(OLDEST_FORMAT..=FORMAT_VERSION).contains(&format) {
            return Err(JournalError::OtherFormat {
                path: path.to_path_buf(),
                found: format,
            });
        }
    }
    let Ok(header) = <&[u8; HEADER_LEN]>::try_from(bytes) else {
        return Err(corrupt(0, Damage::IncompleteHeader));
    };
    let stored_crc = u32::from_le_bytes([header[60], header[61], header[62], header[63]]);
    if crc32fast::hash(&header[..HEADER_CHECKED]) != stored_crc {
        return Err(corrupt(0, Damage::HeaderChecksum));
    }
    let seal = Seal::of(header, version);
    let header = Header::decode(header).map_err(|(offset, damage)| corrupt(offset, damage))?;
    Ok((header, version, seal))
}

/// Reads the records that follow the header of a journal of format `format`, whose records hold
/// under `seal`, `file` being positioned just after it and `len` bytes long. A file longer than `max_records` task
/// records and [`MAX_TIME_RECORDS`] time records (and a torn one) is refused before a record
/// is read, and so is one whose task records outnumber `max_records`; the records are read
/// through a small buffer. A torn or corrupt last record is left out (counted in
/// `dropped_bytes`); damage anywhere else is an error.
pub(super) fn read_records(
    file: &mut File,
    path: &Path,
    len: u64,
    max_records: u64,
    format: u32,
    seal: &Seal,
) -> Result<Replay, JournalError> {
    let corrupt = |offset: u64, damage: Damage| JournalError::Corrupt {
        path: path.to_path_buf(),
        offset,
        damage,
    };
    let (header, record) = (HEADER_LEN as u64, RECORD_LEN as u64);
    let body = len.saturating_sub(header);
    let (full, partial) = (body / record, body % record);
    let timed = format >= TIMED_FORMAT;
    let most = max_records.saturating_add(if timed { MAX_TIME_RECORDS } else { 0 });
    let too_many = |records: u64| {
        corrupt(
            header + records * record,
            Damage::TooManyRecords(max_records),
        )
    };
    if full > most {
        return Err(too_many(most));
    }
    // At most `max_records` task records, which the caller has checked against its plan.
    let full =
        usize::try_from(full).map_err(|_| corrupt(header, Damage::TooManyRecords(max_records)))?;
    let mut replay = Replay {
        records: Vec::with_capacity(full.min(max_records as usize)),
        // A journal that records no time and holds tasks: their time is unknown.
        spent: (timed || full == 0).then(Spent::default),
        dropped_bytes: partial,
    };
    let mut reader = BufReader::with_capacity(1 << 16, file);
    let mut bytes = [0u8; RECORD_LEN];
    // A rewritten journal of format 2 holds a mark: its earlier runs' time is unknown.
    let mut untimed_before = false;
    for i in 0..full {
        let offset = header + i as u64 * record;
        match reader.read_exact(&mut bytes) {
            Ok(()) => {}
            // The file was cut while it was read (a count resuming it cuts a torn last record):
            // what is left is what there is.
            Err(e) if e.kind() == ErrorKind::UnexpectedEof => {
                replay.dropped_bytes = 0;
                break;
            }
            Err(source) => {
                return Err(JournalError::Open {
                    path: path.to_path_buf(),
                    source,
                });
            }
        }
        if let Some(record) = decode_record(seal, &bytes, offset) {
            if replay.records.len() as u64 == max_records {
                return Err(too_many(i as u64));
            }
            replay.records.push(record);
            continue;
        }
        match (
            timed.then(|| decode_time(seal, &bytes)).flatten(),
            &mut replay.spent,
        ) {
            (Some(TimeEntry::Run(time)), Some(spent)) => *spent = *spent + time.spent(),
            (Some(TimeEntry::UntimedBefore), Some(_)) => untimed_before = true,
            _ if i + 1 == full && partial == 0 => replay.dropped_bytes = record,
            _ => return Err(corrupt(offset, Damage::Record(i + 1))),
        }
    }
    if untimed_before {
        replay.spent = None;
    }
    Ok(replay)
}

/// The header of the journal at `path`, read without a plan (nothing else is read).
pub(crate) fn read_header(path: &Path) -> Result<Header, JournalError> {
    let Opened { mut file, .. } = open(path, Access::Read)?;
    let (head, got) = read_head(&mut file).map_err(|source| JournalError::Open {
        path: path.to_path_buf(),
        source,
    })?;
    check_header(path, &head[..got], Access::Read).map(|(header, ..)| header)
}

/// Reads the journal at `path`: its header and every valid record, no more than `max_records`
/// (a longer file is refused unread). Nothing is written or locked; a torn or corrupt last
/// record is left out of the replay (and counted in `dropped_bytes`) but stays in the file.
/// Damage anywhere else is an error.
pub(crate) fn read(path: &Path, max_records: u64) -> Result<(Header, Replay), JournalError> {
    let open_error = |source| JournalError::Open {
        path: path.to_path_buf(),
        source,
    };
    let Opened { mut file, .. } = open(path, Access::Read)?;
    let len = file.metadata().map_err(open_error)?.len();
    let (head, got) = read_head(&mut file).map_err(open_error)?;
    let (header, format, seal) = check_header(path, &head[..got], Access::Read)?;
    let replay = read_records(&mut file, path, len, max_records, format, &seal)?;
    Ok((header, replay))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::plan::{Plan, Strategy};
    use crate::journal::Journal;

    #[test]
    fn reading_replays_without_cutting_the_torn_last_record() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("n8.ckpt");
        let plan = Plan::new(8, Strategy::Mirror, 16).unwrap();
        let (mut journal, _) = Journal::open(&path, &Header::for_plan(&plan)).unwrap();
        journal.append(plan.task(0).unwrap().id, 3).unwrap();
        journal.append(plan.task(1).unwrap().id, 4).unwrap();
        drop(journal);
        let (header, replay) = read(&path, 100).unwrap();
        assert_eq!(header, Header::for_plan(&plan));
        assert_eq!(read_header(&path).unwrap(), header);
        assert_eq!(replay.records[0].count, 3);
        let bytes = std::fs::read(&path).unwrap();
        std::fs::write(&path, &bytes[..bytes.len() - 5]).unwrap();
        let (_, replay) = read(&path, 100).unwrap();
        assert_eq!((replay.records.len(), replay.dropped_bytes), (1, 25));
        assert_eq!(std::fs::read(&path).unwrap().len(), bytes.len() - 5);
    }

    #[test]
    fn a_file_longer_than_its_plan_is_refused_unread() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("n8.ckpt");
        let plan = Plan::new(8, Strategy::Mirror, 16).unwrap();
        drop(Journal::open(&path, &Header::for_plan(&plan)).unwrap());
        let file = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
        // Two records and a torn third fit a plan of two tasks; a third whole one does not.
        let len = |records: usize| (HEADER_LEN + records * RECORD_LEN) as u64;
        file.set_len(len(2) + 29).unwrap();
        let err = read(&path, 2).unwrap_err();
        // Zeros are no records: read, and refused as the first damaged one.
        assert!(
            matches!(
                err,
                JournalError::Corrupt {
                    damage: Damage::Record(1),
                    ..
                }
            ),
            "{err}"
        );
        // A third task record does not fit, wherever the time records leave room.
        std::fs::remove_file(&path).unwrap();
        let (mut journal, _) = Journal::open(&path, &Header::for_plan(&plan)).unwrap();
        for task in plan.tasks().take(3) {
            journal.append(task.id, 1).unwrap();
        }
        drop(journal);
        let err = read(&path, 2).unwrap_err();
        let JournalError::Corrupt { offset, damage, .. } = err else {
            panic!("{err}")
        };
        assert_eq!((offset, damage), (len(2), Damage::TooManyRecords(2)));
        // Sparse: no disk is used, and nothing is read.
        let file = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
        file.set_len(1 << 40).unwrap();
        assert!(read(&path, 2).is_err());
    }

    #[cfg(unix)]
    #[test]
    fn a_link_is_never_written_through() {
        let dir = tempfile::tempdir().unwrap();
        let (link, target) = (dir.path().join("link.ckpt"), dir.path().join("target.ckpt"));
        std::os::unix::fs::symlink(&target, &link).unwrap();
        for _ in 0..2 {
            let Err(JournalError::NotAFile { what, .. }) = open(&link, Access::Write) else {
                panic!("a link is followed");
            };
            assert_eq!(what, "a symbolic link");
            std::fs::write(&target, "").unwrap();
        }
        assert_eq!(std::fs::read(&target).unwrap(), b"");
    }

    #[test]
    fn a_header_is_checked_from_its_first_bytes() {
        let path = Path::new("j.ckpt");
        let header = crate::journal::format::tests::header().encode();
        let check = |bytes: &[u8]| check_header(path, bytes, Access::Read);
        assert!(matches!(check(b""), Err(JournalError::NotAJournal { .. })));
        assert!(matches!(check(b"NQJ"), Err(JournalError::Corrupt { .. })));
        assert!(matches!(
            check(b"NQX"),
            Err(JournalError::NotAJournal { .. })
        ));
        assert!(matches!(
            check(&header[..40]),
            Err(JournalError::Corrupt {
                damage: Damage::IncompleteHeader,
                ..
            })
        ));
        assert!(check(&header).is_ok());
    }
}
