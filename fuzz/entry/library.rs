//! What the fuzz targets on the library's readers do with one input: a journal resumed by a
//! count (`journal`), shard journals merged (`merge`). The targets (fuzz_targets/) and the
//! test that replays their committed inputs (fuzz/replay_library.rs) run these same
//! functions.
//!
//! An input is a journal file (or several) after one mode byte: bit 0 of it recomputes the
//! header's CRC-32 and bit 1 every record's before the file is written, so that mutations reach
//! the fields behind the checksums. Boards are capped at [`MAX_N`]: a count or merge of any
//! input takes milliseconds.

use std::path::{Path, PathBuf};

use nqueens::journal::{self, Shard};
use nqueens::known::{Known, Mismatch};
use nqueens::{CountOptions, Prepared, RunControl, Strategy};

/// The largest board an input is counted or merged for (a header naming a larger one is
/// counted as this board, or not merged).
pub const MAX_N: u32 = 10;

/// Bytes of a journal's header; of each record after it.
const HEADER_LEN: usize = 64;
const RECORD_LEN: usize = 30;
const MAGIC: &[u8; 8] = b"NQJOURNL";

/// What separates the files of a `merge` input.
pub const SEPARATOR: &[u8] = b"\n--next journal--\n";

/// The most journals one `merge` input names.
const MAX_FILES: usize = 8;

/// The little-endian `u32` at `at` of `file`, if the file holds it.
fn field_u32(file: &[u8], at: usize) -> Option<u32> {
    let b = file.get(at..at + 4)?;
    Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

/// The first journal format whose records' checksums cover the header's bytes 0..60 too.
const BOUND_FORMAT: u32 = 4;

/// Recomputes the checksums `mode` asks for: bit 0 the header's (bytes 60..64, of 0..60), bit 1
/// every whole record's (bytes 26..30 of each: of the header's bytes 0..60 and the record's
/// 0..26 from format 4 on, of the record's alone before; the library's `journal::format::Seal`,
/// and the command's tests' `reseal_records` in cli/tests/integration/util.rs: change all three
/// with the format).
pub fn fix_checksums(mode: u8, file: &mut [u8]) {
    if mode & 1 != 0 && file.len() >= HEADER_LEN {
        let crc = crc32fast::hash(&file[..60]);
        file[60..64].copy_from_slice(&crc.to_le_bytes());
    }
    if mode & 2 != 0 && file.len() > HEADER_LEN {
        let (header, records) = file.split_at_mut(HEADER_LEN);
        let mut primed = crc32fast::Hasher::new();
        if field_u32(header, 8).is_some_and(|format| format >= BOUND_FORMAT) {
            primed.update(&header[..60]);
        }
        for record in records.chunks_exact_mut(RECORD_LEN) {
            let mut hasher = primed.clone();
            hasher.update(&record[..26]);
            record[26..30].copy_from_slice(&hasher.finalize().to_le_bytes());
        }
    }
}

/// The board a header names, when it is a journal's header for a board of at most `MAX_N`.
fn small_board(file: &[u8]) -> Option<u32> {
    let n = field_u32(file, 16)?;
    (file.starts_with(MAGIC) && (1..=MAX_N).contains(&n)).then_some(n)
}

/// Whether the file names a board larger than [`MAX_N`] in a journal's header.
fn large_board(file: &[u8]) -> bool {
    file.starts_with(MAGIC) && field_u32(file, 16).is_some_and(|n| n > MAX_N)
}

/// The strategy a header names (its zero-padded name), or the default.
fn strategy(file: &[u8]) -> Strategy {
    file.get(20..36)
        .and_then(|name| std::str::from_utf8(name).ok())
        .and_then(|name| name.trim_end_matches('\0').parse::<Strategy>().ok())
        .unwrap_or_default()
}

/// Every error's message and those of its sources, as the command shows them.
fn messages(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}

/// `count N --checkpoint FILE [--shard K/M]` on the input's journal (in `dir`): the count its
/// header names (a board of at most [`MAX_N`], else [`MAX_N`]), prepared from the journal and
/// run to the end; a refusal is an error, never a panic.
pub fn journal(dir: &Path, data: &[u8]) {
    let Some((&mode, file)) = data.split_first() else {
        return;
    };
    let mut file = file.to_vec();
    fix_checksums(mode, &mut file);
    let path = dir.join("journal.ckpt");
    std::fs::write(&path, &file).expect("the scratch journal is written");
    let n = small_board(&file).unwrap_or(MAX_N);
    let shard = field_u32(&file, 52)
        .zip(field_u32(&file, 56))
        .and_then(|(index, count)| Shard::new(index, count).ok());
    let options = CountOptions::new(1, strategy(&file));
    let mut control = RunControl::default().with_journal(&path);
    if let Some(shard) = shard {
        control = control.with_shard(shard);
    }
    let prepared = match Prepared::new(n, &options, &control) {
        Ok(prepared) => prepared,
        Err(error) => {
            assert!(!messages(&error).is_empty());
            return;
        }
    };
    let tasks = prepared.plan().tasks().len();
    assert!(
        prepared.resumed().len() <= tasks,
        "more tasks resumed than planned"
    );
    match prepared.run(&control) {
        Ok(run) => {
            assert!(run.counts.tasks <= tasks, "more tasks counted than planned");
            if shard.is_none_or(|s| s.is_whole()) {
                // A journal's records may be altered (their checksums recomputed): a wrong
                // total is possible, and the known table tells it.
                let wrong = Mismatch::of(n, run.counts.total, run.counts.unique);
                let known = Known::of(n).expect("small boards are known");
                assert_eq!(wrong.is_none(), run.counts.total == known.total);
            }
        }
        Err(error) => assert!(!messages(&error).is_empty()),
    }
}

/// `merge FILE…` on the input's journals (in `dir`; up to eight, separated by [`SEPARATOR`]). An
/// input whose header names a board above [`MAX_N`] is not merged (the merge would build its
/// plan).
pub fn merge(dir: &Path, data: &[u8]) {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let mut paths: Vec<PathBuf> = Vec::new();
    let mut rest = rest;
    while paths.len() < MAX_FILES {
        let (part, next) = match rest.windows(SEPARATOR.len()).position(|w| w == SEPARATOR) {
            Some(at) => (&rest[..at], Some(&rest[at + SEPARATOR.len()..])),
            None => (rest, None),
        };
        let mut file = part.to_vec();
        fix_checksums(mode, &mut file);
        if large_board(&file) {
            return;
        }
        let path = dir.join(format!("shard{}.ckpt", paths.len()));
        std::fs::write(&path, &file).expect("the scratch journal is written");
        paths.push(path);
        match next {
            Some(next) => rest = next,
            None => break,
        }
    }
    match journal::merge(&paths) {
        Ok(merged) => {
            assert!(merged.n <= MAX_N, "a merge of a board no input names");
            assert!(merged.journals <= paths.len());
            if let Err(wrong) = merged.check_known() {
                assert!(!wrong.to_string().is_empty());
            }
        }
        Err(error) => assert!(!messages(&error).is_empty()),
    }
}
