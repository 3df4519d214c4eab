//! Checking a journal's bytes and replaying its records.

use std::fs::File;
use std::io::Read;
use std::path::Path;

use super::error::{Damage, JournalError};
use super::format::{
    FORMAT_VERSION, HEADER_CHECKED, HEADER_LEN, Header, MAGIC, RECORD_LEN, Record, decode_record,
};

/// What reading a journal found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Replay {
    /// Every valid record, in file order.
    pub records: Vec<Record>,
    /// Bytes of a torn or corrupt last record, left out of the replay (and cut off the file
    /// when the journal is opened for writing).
    pub dropped_bytes: u64,
}

/// Reads the journal at `path` without a plan: its header and every valid record. Nothing is
/// written or locked; a torn or corrupt last record is left out of the replay (and counted in
/// `dropped_bytes`) but stays in the file. Damage anywhere else is an error.
pub(crate) fn read(path: &Path) -> Result<(Header, Replay), JournalError> {
    let open_error = |source| JournalError::Open {
        path: path.to_path_buf(),
        source,
    };
    let mut file = File::open(path).map_err(open_error)?;
    if !file.metadata().map_err(open_error)?.is_file() {
        return Err(JournalError::NotAJournal {
            path: path.to_path_buf(),
        });
    }
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes).map_err(open_error)?;
    parse(path, &bytes)
}

/// Checks the bytes of the journal at `path`: its header, then every record.
pub(super) fn parse(path: &Path, bytes: &[u8]) -> Result<(Header, Replay), JournalError> {
    let corrupt = |offset: u64, damage: Damage| JournalError::Corrupt {
        path: path.to_path_buf(),
        offset,
        damage,
    };
    let magic_len = bytes.len().min(MAGIC.len());
    if bytes.is_empty() || bytes[..magic_len] != MAGIC[..magic_len] {
        return Err(JournalError::NotAJournal {
            path: path.to_path_buf(),
        });
    }
    if bytes.len() >= 12 {
        let format = u32::from_le_bytes(bytes[8..12].try_into().unwrap());
        if format != FORMAT_VERSION {
            return Err(JournalError::OtherFormat {
                path: path.to_path_buf(),
                found: format,
            });
        }
    }
    if bytes.len() < HEADER_LEN {
        return Err(corrupt(0, Damage::IncompleteHeader));
    }
    let stored_crc = u32::from_le_bytes(bytes[HEADER_CHECKED..HEADER_LEN].try_into().unwrap());
    if crc32fast::hash(&bytes[..HEADER_CHECKED]) != stored_crc {
        return Err(corrupt(0, Damage::HeaderChecksum));
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
            None => return Err(corrupt(offset, Damage::Record(i + 1))),
        }
    }
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
        journal.append(plan.tasks[0].id, 3).unwrap();
        journal.append(plan.tasks[1].id, 4).unwrap();
        drop(journal);
        let (header, replay) = read(&path).unwrap();
        assert_eq!(header, Header::for_plan(&plan));
        assert_eq!(replay.records[0].count, 3);
        let bytes = std::fs::read(&path).unwrap();
        std::fs::write(&path, &bytes[..bytes.len() - 5]).unwrap();
        let (_, replay) = read(&path).unwrap();
        assert_eq!((replay.records.len(), replay.dropped_bytes), (1, 25));
        assert_eq!(std::fs::read(&path).unwrap().len(), bytes.len() - 5);
    }
}
