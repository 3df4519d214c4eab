//! `nqueens merge`: the total of a board from its shard journals.

use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use crate::format::{table_row, write_records};

use nqueens::Error;
use nqueens::journal::{JournalError, MergeError, Merged, merge};

use super::escape;
use super::human::{error_chain, grouped};
use super::output;
use crate::args::MergeArgs;
use crate::failure::{Failure, Outcome};

// A merged board, as every output format reports it: the library's `Merged`, whose serde
// names and values are the JSON and CSV fields.
table_row!(Merged, |merged| {
    "n" => merged.n,
    "total" => grouped(merged.total),
    "unique" => merged.unique.map_or("-".to_string(), grouped),
    "strategy" => merged.strategy,
    "tasks" => grouped(merged.tasks),
    "shards" => merged.shards,
    "fingerprint" => merged.fingerprint,
});

/// Merges the journals; every refusal is a one-line error and exit code 1, and so is a total
/// that differs from the known one (printed all the same).
pub fn run(args: &MergeArgs, out: &mut dyn Write) -> Result<Outcome, Failure> {
    refuse_repeated(&args.files)?;
    let merged =
        merge(&args.files).map_err(|e| Failure::Wrong(format!("cannot merge: {}", why(&e))))?;
    // A journal damaged or altered with its checksums recomputed passes every other check.
    let checked = merged.check_known();
    super::count::note_unique_left_out(merged.n, merged.unique);
    write_records(out, args.format, &[merged])?;
    if let Err(wrong) = checked {
        output::error(format_args!(
            "{}: {WRONG_JOURNAL_ADVICE}",
            super::known::differs(&wrong)
        ));
        return Ok(Outcome::Negative);
    }
    Ok(Outcome::Success)
}

/// Refuses (exit 2) a journal named twice, under the same path or another (`./a.ckpt`, a
/// link): the command line holds a slip, perhaps a shard meant and not given. A path that
/// cannot be looked at is left to the merge, which says why.
fn refuse_repeated(files: &[PathBuf]) -> Result<(), Failure> {
    let mut seen: HashMap<FileIdentity, &Path> = HashMap::new();
    for file in files {
        let Some(identity) = identity(file) else {
            continue;
        };
        if let Some(first) = seen.insert(identity, file) {
            let named = if first.as_os_str() == file.as_os_str() {
                String::new()
            } else {
                format!(" (as {} and {})", escape::path(first), escape::path(file))
            };
            return Err(Failure::Usage(format!(
                "cannot merge: the journal {} is given twice{named}; name each journal once",
                escape::path(first)
            )));
        }
    }
    Ok(())
}

/// What tells one file from another: its device and inode on Unix (the same through any
/// path or hard link), its canonical path elsewhere.
#[cfg(unix)]
type FileIdentity = (u64, u64);
#[cfg(not(unix))]
type FileIdentity = PathBuf;

/// The identity of the file at `path`; `None` when it cannot be looked at.
fn identity(path: &Path) -> Option<FileIdentity> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let meta = std::fs::metadata(path).ok()?;
        Some((meta.dev(), meta.ino()))
    }
    #[cfg(not(unix))]
    {
        std::fs::canonicalize(path).ok()
    }
}

/// What to do when merged journals add up to a count that differs from the known one.
const WRONG_JOURNAL_ADVICE: &str = "a journal holds a wrong count (damaged or altered); \
                                    count the shards again into new files and merge those";

/// What to do with a damaged journal among those merged.
const DAMAGED_ADVICE: &str = "count that shard again into a new file and merge with it instead";

/// Why the journals cannot be merged, in one line with the next step: journals of different
/// counts name only the fields that differ, a damaged journal says what to do.
fn why(error: &Error) -> String {
    let merge = match error {
        Error::Merge(merge) => &**merge,
        Error::Journal(JournalError::Corrupt { .. }) => {
            return format!("{error}; {DAMAGED_ADVICE}");
        }
        other => return error_chain(other),
    };
    match merge {
        MergeError::Different {
            first_path,
            first,
            second_path,
            second,
        } => {
            let fields = first.differing_fields(second);
            let side = |header: &nqueens::journal::Header| {
                fields
                    .iter()
                    .map(|&f| header.describe(f))
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            format!(
                "{} and {} belong to different counts ({}, not {}): merge each count's \
                 journals apart",
                escape::path(first_path),
                escape::path(second_path),
                side(first),
                side(second)
            )
        }
        MergeError::Stray { .. } => format!("{error}; {DAMAGED_ADVICE}"),
        _ => error_chain(error),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nqueens::journal::{Damage, Header};
    use nqueens::{Plan, Strategy};

    #[test]
    fn journals_of_different_counts_name_only_what_differs() {
        let header = |n| Header::for_plan(&Plan::new(n, Strategy::Symmetric, 4096).unwrap());
        let text = why(&MergeError::Different {
            first_path: "a.ckpt".into(),
            first: Box::new(header(12)),
            second_path: "b.ckpt".into(),
            second: Box::new(header(13)),
        }
        .into());
        assert!(
            text.starts_with("a.ckpt and b.ckpt belong to different counts (n = 12, "),
            "{text}"
        );
        assert!(!text.contains("strategy"), "{text}");
        assert!(
            text.ends_with("merge each count's journals apart"),
            "{text}"
        );
    }

    #[test]
    fn a_damaged_journal_says_what_to_do() {
        let text = why(&Error::Journal(JournalError::Corrupt {
            path: "s1.ckpt".into(),
            offset: 184,
            damage: Damage::Record(3),
        }));
        assert_eq!(
            text,
            format!(
                "journal s1.ckpt is corrupt at byte 184: task record 3 is damaged; {DAMAGED_ADVICE}"
            )
        );
    }
}
