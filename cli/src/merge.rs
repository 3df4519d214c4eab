//! `nqueens merge`: the total of a board from its shard journals.

use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use crate::format::{Format, table_row, write_records, write_table};

use nqueens::journal::{JournalError, MergeError, Merged, Missing, Shard, Spent, merge};
use nqueens::{Error, Strategy};

use super::long_run::{journal_name, shell_quote};
use crate::args::MergeArgs;
use nqueens_ui::escape;
use nqueens_ui::failure::{Failure, Outcome};
use nqueens_ui::human::{self, error_chain, grouped};
use nqueens_ui::output;

// A merged board, as every output format reports it: the library's `Merged`, whose serde
// names and values are the JSON and CSV fields.
table_row!(Merged, |merged| {
    "n" => merged.n,
    "total" => grouped(merged.total),
    "unique" => merged.unique.map_or("-".to_string(), grouped),
    "strategy" => merged.strategy,
    "tasks" => grouped(merged.tasks),
    "shards" => merged.shards,
    "core time" => human::duration(merged.core_time.as_secs_f64()),
    "fingerprint" => merged.fingerprint,
});

/// One merged journal in the table under the merge: its shard and the time its runs recorded.
struct PartRow {
    shard: Shard,
    spent: Option<Spent>,
}

table_row!(PartRow, |row| {
    "shard" => row.shard,
    "runs" => row.spent.map_or_else(|| "-".to_string(), |s| s.runs.to_string()),
    "wall time" => row
        .spent
        .map_or_else(|| "-".to_string(), |s| human::duration(s.wall_time.as_secs_f64())),
    "core time" => row
        .spent
        .map_or_else(|| "-".to_string(), |s| human::duration(s.core_time.as_secs_f64())),
});

/// Merges the journals; every refusal is a one-line error and exit code 1, and so is a total
/// that differs from the known one (printed all the same).
pub fn run(args: &MergeArgs, out: &mut dyn Write) -> Result<Outcome, Failure> {
    refuse_repeated(&args.files)?;
    let merged = merge(&args.files)
        .map_err(|e| Failure::Wrong(format!("cannot merge: {}", why(&e, &args.files))))?;
    // A journal damaged or altered with its checksums recomputed passes every other check.
    let checked = merged.check_known();
    super::session::note_unique_left_out(merged.n, merged.unique);
    let parts: Vec<PartRow> = merged
        .parts
        .iter()
        .map(|&(shard, spent)| PartRow { shard, spent })
        .collect();
    write_records(out, args.format, &[merged])?;
    if args.format == Format::Table && !parts.is_empty() {
        // Each journal's shard and time (JSON: `parts`), under the merged record.
        writeln!(
            out,
            "\nthe journals: wall time from opening each to its last time record, core time \
             the threads' time in the tasks they searched (summed above); - for a journal \
             without time records"
        )?;
        write_table(out, &parts)?;
    }
    if let Err(wrong) = checked {
        output::error(format_args!(
            "{}: {WRONG_JOURNAL_ADVICE}",
            super::session::differs(&wrong)
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

/// Where the journals of the shards a merge lacks (`missing`) are expected (`; expected: shard
/// 1/4 in n12-s1-of-4.ckpt (no such file)`): the names of the `files` given, in which one run
/// of digits is the shard's index (the one that differs between them, or `-sK-` of the names
/// `count --checkpoint DIR/` gives); then the command that counts the first of them (the
/// `n`-board, split by `strategy`), into the file expected where there is one. Empty when none
/// is missing.
fn expected_files(missing: &[Missing], files: &[PathBuf], n: u32, strategy: Strategy) -> String {
    let Some(first) = missing.first() else {
        return String::new();
    };
    let wholly: Vec<(Shard, Option<PathBuf>)> = missing
        .iter()
        .filter(|m| m.missing == m.tasks)
        .take(MergeError::NAMED)
        .map(|m| (m.shard, expected_file(files, m.shard)))
        .collect();
    let named: Vec<String> = wholly
        .iter()
        .filter_map(|(shard, path)| {
            let path = path.as_ref()?;
            let absent = std::fs::symlink_metadata(path).is_err();
            let note = if absent { " (no such file)" } else { "" };
            Some(format!("shard {shard} in {}{note}", escape::path(path)))
        })
        .collect();
    let strategy = if strategy == Strategy::default() {
        String::new()
    } else {
        format!(" --strategy {}", strategy.name())
    };
    let count = |shard: Shard, file: &str| {
        format!("nqueens count {n}{strategy} --shard {shard} --checkpoint {file}")
    };
    match wholly.first() {
        Some((shard, Some(path))) => format!(
            "; expected: {}; count it with: {}",
            named.join(", "),
            count(*shard, &shell_quote(path.as_os_str()))
        ),
        _ => format!(
            "; a shard is counted by {} (a --checkpoint directory names it n{n}-s{}-of-{}.ckpt)",
            count(first.shard, "FILE"),
            first.shard.index(),
            first.shard.count()
        ),
    }
}

/// The file shard `shard`'s journal is expected in, from the names of the journals `files`
/// given: where their names differ in one run of digits (`n12-0of4.ckpt`, `n12-2of4.ckpt`),
/// that run set to the shard's index; for one name, the `-sK-` of `count --checkpoint DIR/`'s
/// names (`n12-s0-of-4.ckpt`); `None` where the names show no such place.
fn expected_file(files: &[PathBuf], shard: Shard) -> Option<PathBuf> {
    let first = files.first()?;
    let runs = |path: &Path| -> Option<Vec<(bool, String)>> {
        let name = path.file_name()?.to_str()?;
        let mut runs: Vec<(bool, String)> = Vec::new();
        for c in name.chars() {
            let digit = c.is_ascii_digit();
            match runs.last_mut() {
                Some((d, run)) if *d == digit => run.push(c),
                _ => runs.push((digit, c.to_string())),
            }
        }
        Some(runs)
    };
    let model = runs(first)?;
    let same_shape: Vec<Vec<(bool, String)>> = files
        .iter()
        .filter(|f| f.parent() == first.parent())
        .filter_map(|f| runs(f))
        .filter(|r| {
            r.len() == model.len()
                && r.iter()
                    .zip(&model)
                    .all(|(a, b)| a.0 == b.0 && (a.0 || a.1 == b.1))
        })
        .collect();
    let differing: Vec<usize> = (0..model.len())
        .filter(|&i| model[i].0 && same_shape.iter().any(|r| r[i].1 != model[i].1))
        .collect();
    let at = match differing[..] {
        [i] => i,
        [] if same_shape.len() == 1 => {
            // One name of `count --checkpoint DIR/` ([`journal_name`]): its shard is another.
            let n = model.get(1)?.1.parse().ok()?;
            let own = Shard::new(model.get(3)?.1.parse().ok()?, shard.count()).ok()?;
            let named = first.file_name()? == journal_name(n, Some(own)).as_str();
            return named.then(|| first.with_file_name(journal_name(n, Some(shard))));
        }
        _ => return None,
    };
    let name: String = model
        .iter()
        .enumerate()
        .map(|(i, (_, text))| {
            if i == at {
                shard.index().to_string()
            } else {
                text.clone()
            }
        })
        .collect();
    Some(first.with_file_name(name))
}

/// Why the journals cannot be merged, in one line with the next step: journals of different
/// counts name only the fields that differ, a damaged journal says what to do, and missing
/// shards are named with the files their journals are expected in, from the names of the `files`
/// given ([`expected_files`]).
fn why(error: &Error, files: &[PathBuf]) -> String {
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
        MergeError::Incomplete {
            n,
            strategy,
            missing,
            ..
        } => error_chain(error) + &expected_files(missing, files, *n, *strategy),
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
        let text = why(
            &MergeError::Different {
                first_path: "a.ckpt".into(),
                first: Box::new(header(12)),
                second_path: "b.ckpt".into(),
                second: Box::new(header(13)),
            }
            .into(),
            &[],
        );
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
        let text = why(
            &Error::Journal(JournalError::Corrupt {
                path: "s1.ckpt".into(),
                offset: 184,
                damage: Damage::Record(3),
            }),
            &[],
        );
        assert_eq!(
            text,
            format!(
                "journal s1.ckpt is corrupt at byte 184: task record 3 is damaged or from another journal; {DAMAGED_ADVICE}"
            )
        );
    }
}
