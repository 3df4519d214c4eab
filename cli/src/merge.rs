//! `nqueens merge`: the total of a board from its shard journals.

use std::io::Write;

use crate::format::fingerprint as hex;
use crate::format::{table_row, write_records};

use nqueens::journal::{JournalError, MergeError, Merged, merge};

use super::escape;
use super::human::{error_chain, grouped};
use super::{Failure, Outcome, output};
use crate::args::MergeArgs;

// A merged board, as every output format reports it: the library's `Merged`, whose serde
// names and values are the JSON and CSV fields.
table_row!(Merged, |merged| {
    "n" => merged.n,
    "total" => grouped(merged.total),
    "unique" => merged.unique.map_or("-".to_string(), grouped),
    "strategy" => merged.strategy,
    "tasks" => grouped(merged.tasks),
    "shards" => merged.shards,
    "fingerprint" => hex(merged.fingerprint),
});

/// Merges the journals; every refusal is a one-line error and exit code 1, and so is a total
/// that differs from the known one (printed all the same).
pub fn run(args: &MergeArgs, out: &mut dyn Write) -> Result<Outcome, Failure> {
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

/// What to do when merged journals add up to a count that differs from the known one.
const WRONG_JOURNAL_ADVICE: &str = "a journal holds a wrong count (damaged or altered); \
                                    count the shards again into new files and merge those";

/// What to do with a damaged journal among those merged.
const DAMAGED_ADVICE: &str = "count that shard again into a new file and merge with it instead";

/// Why the journals cannot be merged, in one line with the next step: journals of different
/// counts name only the fields that differ, a damaged journal says what to do.
fn why(error: &MergeError) -> String {
    match error {
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
        MergeError::Journal(JournalError::Corrupt { .. }) | MergeError::Stray { .. } => {
            format!("{error}; {DAMAGED_ADVICE}")
        }
        other => error_chain(other),
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
        });
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
        let text = why(&MergeError::Journal(JournalError::Corrupt {
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
