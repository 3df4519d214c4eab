//! Records that belong to another journal: copied from a neighbouring board's journal, from
//! another shard's or plan's, or with a count no task could have. A resume and a merge refuse
//! each in one line naming the journal and the record, before anything is counted, and leave
//! the journal as it was. (A large board's case is a test binary of its own,
//! `tests/large_board_journal.rs`, as the plans it makes would swell this one's memory.)

use std::fs;
use std::path::Path;

use nqueens::TaskId;
use nqueens::journal::Header;

use crate::util::command_plan as plan;
use crate::util::{HEADER_LEN, RECORD_LEN, failure_in, journal_holding, nqueens_process};

/// `nqueens count N [ARGS] --checkpoint FILE`, to its end.
fn count(n: u32, args: &[&str], file: &Path) -> std::process::Output {
    nqueens_process()
        .args(["count", &n.to_string(), "--threads", "2", "--quiet"])
        .args(args)
        .arg("--checkpoint")
        .arg(file)
        .output()
        .unwrap()
}

/// The task records of a journal's bytes: where each starts, its id's bytes (length and
/// columns) and its count.
fn task_records(bytes: &[u8]) -> Vec<(usize, Vec<u8>, u64)> {
    bytes[HEADER_LEN..]
        .chunks_exact(RECORD_LEN)
        .enumerate()
        .filter(|(_, record)| record[0] == b'T')
        .map(|(i, record)| {
            let count = u64::from_le_bytes(record[18..26].try_into().unwrap());
            (HEADER_LEN + i * RECORD_LEN, record[1..18].to_vec(), count)
        })
        .collect()
}

/// Checks a refusal of `journal`'s record at byte `offset`: one line naming both, exit code 1.
#[track_caller]
fn refused(out: &std::process::Output, journal: &Path, offset: usize, why: &str) {
    let line = failure_in(out);
    assert!(line.contains(&journal.display().to_string()), "{line}");
    assert!(line.contains(&format!("at byte {offset}:")), "{line}");
    assert!(line.contains(why), "{line}");
}

#[test]
fn a_record_copied_from_a_neighbouring_board_s_journal_is_refused_by_resume_and_merge() {
    let dir = tempfile::tempdir().unwrap();
    let shard = |k: u32| dir.path().join(format!("s{k}.ckpt"));
    for k in 0..2 {
        let out = count(14, &["--shard", &format!("{k}/2")], &shard(k));
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let donor = dir.path().join("c15.ckpt");
    assert!(count(15, &[], &donor).status.success());
    // A record of shard 0 (not its last: a damaged last record is taken for a torn write and
    // counted again) replaced by the 15-board's record of the same task, with another count.
    let mut bytes = fs::read(shard(0)).unwrap();
    let donor_bytes = fs::read(&donor).unwrap();
    let theirs = task_records(&donor_bytes);
    let mine = task_records(&bytes);
    let last = mine.last().unwrap().0;
    let (at, from) = mine
        .iter()
        .filter(|(at, ..)| *at != last)
        .find_map(|(at, id, count)| {
            let other = theirs.iter().find(|(_, i, c)| i == id && c != count)?;
            Some((*at, other.0))
        })
        .expect("a task of shard 0 of the 14-board is a task of the 15-board's plan");
    bytes[at..at + RECORD_LEN].copy_from_slice(&donor_bytes[from..from + RECORD_LEN]);
    fs::write(shard(0), &bytes).unwrap();

    let why = "from another journal";
    refused(
        &count(14, &["--shard", "0/2"], &shard(0)),
        &shard(0),
        at,
        why,
    );
    let merged = nqueens_process()
        .arg("merge")
        .args([shard(0), shard(1)])
        .output()
        .unwrap();
    refused(&merged, &shard(0), at, why);
    assert_eq!(
        fs::read(shard(0)).unwrap(),
        bytes,
        "the journal is left as it was"
    );
}

#[test]
fn a_record_of_another_shard_s_journal_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let (whole, half) = (dir.path().join("whole.ckpt"), dir.path().join("half.ckpt"));
    assert!(count(12, &[], &whole).status.success());
    assert!(count(12, &["--shard", "0/2"], &half).status.success());
    // The whole count's first record moved into shard 0's journal, ahead of its own records:
    // the same task, the same count, but written to another journal.
    let whole_bytes = fs::read(&whole).unwrap();
    let mut bytes = fs::read(&half).unwrap();
    let (at, id, _) = task_records(&bytes)[0].clone();
    let (from, ..) = task_records(&whole_bytes)
        .into_iter()
        .find(|(_, i, _)| *i == id)
        .unwrap();
    bytes[at..at + RECORD_LEN].copy_from_slice(&whole_bytes[from..from + RECORD_LEN]);
    fs::write(&half, &bytes).unwrap();
    let out = count(12, &["--shard", "0/2"], &half);
    refused(&out, &half, at, "from another journal");
}

#[test]
fn a_count_no_task_could_have_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let plan = plan(12);
    let tasks: Vec<TaskId> = plan.tasks().map(|task| task.id).take(2).collect();
    // Written for this very journal (its checksum holds), with a count beyond the board's
    // total of 14 200.
    let journal = dir.path().join("n12.ckpt");
    journal_holding(
        &journal,
        &Header::for_plan(&plan),
        &[(tasks[0], 1), (tasks[1], 1_000_000)],
    );
    let bytes = fs::read(&journal).unwrap();
    let at = HEADER_LEN + RECORD_LEN;
    let why = format!("task {} is recorded with 1000000 solutions", tasks[1]);
    refused(&count(12, &[], &journal), &journal, at, &why);
    let merged = nqueens_process()
        .arg("merge")
        .arg(&journal)
        .output()
        .unwrap();
    refused(&merged, &journal, at, &why);
    assert_eq!(fs::read(&journal).unwrap(), bytes);
}
