//! A record copied from the 24-board's journal into the 23-board's: refused before anything is
//! counted (the count would take days). A test binary of its own: the two plans it makes (some
//! 100 MB at the peak) would otherwise stay in the memory of the integration tests' process,
//! which every process it starts inherits until it runs the command (and the peak memory the
//! tests of `cli_memory` measure would include it).

use std::collections::HashSet;
use std::fs;
use std::process::Stdio;
use std::time::Duration;

use nqueens::TaskId;
use nqueens::journal::Header;

#[allow(dead_code)]
#[path = "integration/util.rs"]
mod util;

use util::command_plan as plan;
use util::{
    HEADER_LEN, RECORD_LEN, failure_in, journal_holding, nqueens_process, read_rest_on_a_thread,
};

#[test]
fn a_large_board_s_foreign_record_is_refused_before_anything_is_counted() {
    let dir = tempfile::tempdir().unwrap();
    let (n23, n24) = (plan(23), plan(24));
    let ids23: HashSet<TaskId> = n23.tasks().map(|task| task.id).collect();
    // A task of both plans, recorded by the 24-board's journal with a count of 999 999 999.
    let shared = n24
        .tasks()
        .map(|task| task.id)
        .find(|id| ids23.contains(id))
        .unwrap();
    let donor = dir.path().join("n24.ckpt");
    journal_holding(&donor, &Header::for_plan(&n24), &[(shared, 999_999_999)]);
    let foreign = fs::read(&donor).unwrap()[HEADER_LEN..HEADER_LEN + RECORD_LEN].to_vec();
    // The 23-board's journal: two records of its own around the foreign one (a damaged last
    // record would be taken for a torn write and counted again).
    let journal = dir.path().join("n23.ckpt");
    let own: Vec<(TaskId, u64)> = n23
        .tasks()
        .map(|task| (task.id, 1))
        .filter(|(id, _)| *id != shared)
        .take(2)
        .collect();
    journal_holding(&journal, &Header::for_plan(&n23), &own);
    let mut bytes = fs::read(&journal).unwrap();
    let at = HEADER_LEN + RECORD_LEN;
    bytes.splice(at..at, foreign);
    fs::write(&journal, &bytes).unwrap();

    // The resume is refused before the count starts (which would take days): a guard against
    // a count that starts, not a measurement.
    let mut child = nqueens_process()
        .args(["count", "23", "--threads", "1", "--checkpoint"])
        .arg(&journal)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stderr = read_rest_on_a_thread(child.stderr.take().unwrap());
    let stdout = read_rest_on_a_thread(child.stdout.take().unwrap());
    let within = Duration::from_secs(120);
    let text = stderr.recv_timeout(within);
    if text.is_err() {
        let _ = child.kill();
    }
    let status = child.wait().unwrap();
    let text = text.unwrap_or_else(|_| panic!("the count of the 23-board started"));
    let out = std::process::Output {
        status,
        stdout: stdout.recv().unwrap().into_bytes(),
        stderr: text.into_bytes(),
    };
    let line = failure_in(&out);
    assert!(line.contains(&journal.display().to_string()), "{line}");
    assert!(line.contains(&format!("at byte {at}:")), "{line}");
    assert!(line.contains("from another journal"), "{line}");
    assert_eq!(fs::read(&journal).unwrap(), bytes);
}
