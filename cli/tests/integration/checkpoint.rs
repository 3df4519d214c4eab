//! Long-run recovery: `nqueens count --checkpoint` killed, damaged, refused and resumed.
//!
//! The runs that are stopped partway watch the journal grow (each finished task appends one
//! record) instead of sleeping for fixed times, so they hold on a slow or loaded machine.
#![cfg(unix)]

use std::fs;
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::thread::sleep;
use std::time::Duration;

use crate::util::{HEADER_LEN, RECORD_LEN, reseal_records};

use crate::util::{
    failure_in, first_line_then_rest_on_a_thread, nqueens_process, read_until, send, stderr, stop,
};

/// A board big enough (thousands of tasks, seconds of work on one thread) to be stopped partway.
const N: u32 = 17;
const N_TOTAL: u64 = 95_815_104;

/// Records tagged `tag` in the journal at `path` (0 while it does not exist).
fn tagged(path: &Path, tag: u8) -> u64 {
    let bytes = fs::read(path).unwrap_or_default();
    let body = bytes.get(HEADER_LEN..).unwrap_or_default();
    body.chunks_exact(RECORD_LEN)
        .filter(|record| record[0] == tag)
        .count() as u64
}

/// Full task records in the journal at `path` (0 while it does not exist); its time records
/// (tag `S`) are not counted.
fn records(path: &Path) -> u64 {
    tagged(path, b'T')
}

/// Time records in the journal at `path`.
fn time_records(path: &Path) -> u64 {
    tagged(path, b'S')
}

/// A long count with a journal at `file`, sent `signal` once it has recorded 50 tasks, and
/// what it wrote.
fn stopped_long_count(file: &Path, signal: &str) -> std::process::Output {
    let mut child = start_long_count(file);
    wait_for_records(&mut child, file, 50);
    send(&child, signal);
    child.wait_with_output().unwrap()
}

/// Starts a one-thread count of the N-board with a journal, quietly, as JSON.
fn start_long_count(file: &Path) -> Child {
    nqueens_process()
        .args([
            "count",
            &N.to_string(),
            "--threads",
            "1",
            "--format",
            "json",
        ])
        .arg("--checkpoint")
        .arg(file)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Waits until the journal holds at least `k` records; the count must still be running then.
fn wait_for_records(child: &mut Child, file: &Path, k: u64) {
    while records(file) < k {
        if let Some(status) = child.try_wait().unwrap() {
            panic!("the count ended ({status}) before its journal held {k} records");
        }
        sleep(Duration::from_millis(5));
    }
}

/// Runs `nqueens count <n> --checkpoint <file> --format json` to the end: (total, resumed, tasks).
fn count_json(n: u32, file: &Path) -> (u64, u64, u64) {
    let out = nqueens_process()
        .args([
            "count",
            &n.to_string(),
            "--format",
            "json",
            "--threads",
            "2",
        ])
        .arg("--checkpoint")
        .arg(file)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    parse_json(&out)
}

fn parse_json(out: &Output) -> (u64, u64, u64) {
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let field = |name: &str| json[0][name].as_u64().unwrap();
    (field("total"), field("resumed_tasks"), field("tasks"))
}

/// Checks that the journal at `path` holds every one of `tasks` task records, whole records
/// only, and the time of at least one run.
fn assert_full_journal(path: &Path, tasks: u64) {
    let len = fs::metadata(path).unwrap().len();
    assert!(
        (len - HEADER_LEN as u64).is_multiple_of(RECORD_LEN as u64),
        "{len} bytes"
    );
    assert_eq!(records(path), tasks);
    assert!(time_records(path) >= 1);
}

#[test]
fn a_count_killed_partway_resumes_to_the_exact_total() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("n15.ckpt");
    let mut child = start_long_count(&file);
    wait_for_records(&mut child, &file, 100);
    child.kill().unwrap(); // SIGKILL: no chance to flush or clean up
    child.wait().unwrap();
    let kept = records(&file);

    let (total, resumed, tasks) = count_json(N, &file);
    assert_eq!(total, N_TOTAL);
    assert!(kept < tasks, "the count finished before it was killed");
    assert_eq!(resumed, kept);
    assert_full_journal(&file, tasks);
}

#[test]
fn a_killed_count_with_a_damaged_last_record_recounts_that_task() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("n15.ckpt");
    let mut child = start_long_count(&file);
    wait_for_records(&mut child, &file, 100);
    child.kill().unwrap();
    child.wait().unwrap();
    let mut bytes = fs::read(&file).unwrap();
    let len = bytes.len();
    // The damage lands in the last record: a whole one is lost, or a torn one (if the kill
    // cut a write short) that was never counted anyway.
    let whole_last = (len - HEADER_LEN).is_multiple_of(RECORD_LEN);
    assert_eq!(time_records(&file), 0, "a record of time within a minute");
    let kept = records(&file) - u64::from(whole_last);
    for b in &mut bytes[len - 4..] {
        *b ^= 0xa5;
    }
    fs::write(&file, &bytes).unwrap();

    let (total, resumed, tasks) = count_json(N, &file);
    assert_eq!(total, N_TOTAL);
    assert_eq!(resumed, kept);
    assert_full_journal(&file, tasks);
}

#[test]
fn a_torn_last_record_is_dropped_and_the_total_is_exact() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("n12.ckpt");
    let (_, _, tasks) = count_json(12, &file);
    // Keep 500 records and a third of the next, as a crash in the middle of a write leaves it.
    let bytes = fs::read(&file).unwrap();
    let cut = HEADER_LEN + 500 * RECORD_LEN + RECORD_LEN / 3;
    fs::write(&file, &bytes[..cut]).unwrap();

    let (total, resumed, again) = count_json(12, &file);
    assert_eq!((total, resumed, again), (14_200, 500, tasks));
    assert_full_journal(&file, tasks);
}

#[test]
fn damage_before_the_last_record_is_refused_with_the_file_and_offset() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("n12.ckpt");
    count_json(12, &file);
    let mut bytes = fs::read(&file).unwrap();
    let offset = HEADER_LEN + 5 * RECORD_LEN;
    bytes[offset + 3] ^= 0xff;
    fs::write(&file, &bytes).unwrap();

    let out = nqueens_process()
        .args(["count", "12", "--checkpoint"])
        .arg(&file)
        .output()
        .unwrap();
    let text = failure_in(&out);
    assert!(text.contains("n12.ckpt"), "{text}");
    assert!(
        text.contains(&format!("corrupt at byte {offset}")),
        "{text}"
    );
    assert_eq!(
        fs::read(&file).unwrap(),
        bytes,
        "a damaged journal is left alone"
    );
}

#[test]
fn a_file_made_for_another_n_is_refused_and_left_alone() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("n10.ckpt");
    count_json(10, &file);
    let before = fs::read(&file).unwrap();

    let out = nqueens_process()
        .args(["count", "11", "--checkpoint"])
        .arg(&file)
        .output()
        .unwrap();
    let text = failure_in(&out);
    assert!(
        text.contains("n10.ckpt") && text.contains("is for n = 10, not n = 11"),
        "{text}"
    );
    assert_eq!(fs::read(&file).unwrap(), before);
}

#[test]
fn an_unwritable_path_is_one_line_before_any_work() {
    let dir = tempfile::tempdir().unwrap();
    let not_a_dir = dir.path().join("plain-file");
    fs::write(&not_a_dir, "x").unwrap();
    // n = 30 would take years: the refusal has to come before the search starts.
    let out = nqueens_process()
        .args(["count", "30", "--checkpoint"])
        .arg(not_a_dir.join("n30.ckpt"))
        .output()
        .unwrap();
    let text = failure_in(&out);
    assert!(
        text.contains("cannot open journal") && text.contains("n30.ckpt"),
        "{text}"
    );
}

/// Several boards: one journal per board, named from the path; the same command resumes
/// them all, and a directory holds `nN.ckpt` files.
#[test]
fn a_checkpoint_for_several_boards_keeps_one_journal_per_board() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("many.ckpt");
    let run = || {
        let out = nqueens_process()
            .args(["count", "8..=10", "--format", "json", "--checkpoint"])
            .arg(&file)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", stderr(&out));
        serde_json::from_slice::<serde_json::Value>(&out.stdout).unwrap()
    };
    let first = run();
    for (i, n) in (8..=10).enumerate() {
        assert!(dir.path().join(format!("many-n{n}.ckpt")).exists());
        assert_eq!(first[i]["resumed_tasks"], 0);
    }
    assert!(!file.exists());
    let again = run();
    for (i, total) in [92, 352, 724].into_iter().enumerate() {
        assert_eq!(again[i]["total"], total);
        assert_eq!(again[i]["resumed_tasks"], again[i]["tasks"]);
        assert_eq!(again[i]["resumed_total"], total);
    }
    let out = nqueens_process()
        .args(["count", "8,9", "--checkpoint"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(dir.path().join("n8.ckpt").exists() && dir.path().join("n9.ckpt").exists());
}

/// A resumed count says so in its table and reports no rate for work it did not do.
#[test]
fn a_resumed_count_says_so_and_reports_only_the_searched_rate() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("n12.ckpt");
    count_json(12, &file);
    let out = nqueens_process()
        .args(["count", "12", "--checkpoint"])
        .arg(&file)
        .output()
        .unwrap();
    let table = String::from_utf8(out.stdout).unwrap();
    let row = table.lines().find(|l| l.starts_with("| 12")).unwrap();
    assert!(
        table.contains("resumed") && table.contains("core time"),
        "{table}"
    );
    assert!(row.contains(" all "), "{row}");
    assert!(!row.contains(" - "), "the compute of the first run: {row}");
}

/// A count resumed over several runs gives this run's time and the compute of every run, as
/// its journal's time records add them up; a journal of an older version, which records no
/// time, still resumes, its compute unknown.
#[test]
fn a_resumed_count_gives_the_compute_of_every_run() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("n15.ckpt");
    let out = stopped_long_count(&file, "INT");
    assert_eq!(out.status.code(), Some(130), "{}", stderr(&out));
    assert_eq!(time_records(&file), 1);
    let json = |out: &Output| -> serde_json::Value {
        assert!(out.status.success(), "{}", stderr(out));
        serde_json::from_slice::<serde_json::Value>(&out.stdout).unwrap()[0].clone()
    };
    let run = |format: &str| {
        nqueens_process()
            .args([
                "count",
                &N.to_string(),
                "--threads",
                "2",
                "--format",
                format,
            ])
            .arg("--checkpoint")
            .arg(&file)
            .output()
            .unwrap()
    };
    let second = json(&run("json"));
    assert_eq!(second["total"], N_TOTAL);
    assert_eq!(second["runs"], 2);
    let this = second["core_time"].as_f64().unwrap();
    let all = second["all_runs_core_time"].as_f64().unwrap();
    assert!(all > this && this > 0.0, "{second}");
    assert!(second["all_runs_wall_time"].as_f64().unwrap() > second["wall_time"].as_f64().unwrap());
    // A third run searches nothing: the same compute, this run's time alone in `wall_time`.
    let third = json(&run("json"));
    assert_eq!(third["runs"], 2);
    assert_eq!(third["core_time"], 0.0);
    let again = third["all_runs_core_time"].as_f64().unwrap();
    assert!((again - all).abs() <= 0.01 * all, "{again} {all}");
    // CSV has the same columns.
    let csv = String::from_utf8(run("csv").stdout).unwrap();
    assert!(
        csv.lines()
            .next()
            .unwrap()
            .ends_with(",runs,all_runs_wall_time,all_runs_core_time"),
        "{csv}"
    );

    // The same journal as an older version wrote it: format 2, no time records.
    let bytes = fs::read(&file).unwrap();
    let mut old = bytes[..HEADER_LEN].to_vec();
    old[8..12].copy_from_slice(&2u32.to_le_bytes());
    let crc = crc32fast::hash(&old[..HEADER_LEN - 4]);
    old[HEADER_LEN - 4..].copy_from_slice(&crc.to_le_bytes());
    for record in bytes[HEADER_LEN..].chunks_exact(RECORD_LEN) {
        if record[0] == b'T' {
            old.extend_from_slice(record);
        }
    }
    reseal_records(&mut old);
    fs::write(&file, &old).unwrap();
    let out = run("json");
    let resumed = json(&out);
    assert_eq!(resumed["total"], N_TOTAL);
    assert!(
        resumed["runs"].is_null() && resumed["all_runs_core_time"].is_null(),
        "{resumed}"
    );
    // Rewritten in today's format: the header, a mark that the earlier runs' time is unknown,
    // the same records sealed to the header.
    let rewritten = fs::read(&file).unwrap();
    assert_eq!(rewritten[8..12], 4u32.to_le_bytes());
    assert_eq!(rewritten.len(), old.len() + RECORD_LEN);
    let records = |b: &[u8]| -> Vec<Vec<u8>> {
        b[HEADER_LEN..]
            .chunks_exact(RECORD_LEN)
            .filter(|r| r[0] == b'T')
            .map(|r| r[..RECORD_LEN - 4].to_vec())
            .collect()
    };
    assert_eq!(records(&rewritten), records(&old));
    let table = String::from_utf8(run("table").stdout).unwrap();
    let row = table
        .lines()
        .find(|l| l.starts_with(&format!("| {N}")))
        .unwrap();
    assert!(row.contains(" - ") && row.contains(" all "), "{row}");
}

#[test]
fn resuming_a_completed_file_searches_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("n13.ckpt");
    let (total, resumed, tasks) = count_json(13, &file);
    assert_eq!((total, resumed), (73_712, 0));
    let before = fs::read(&file).unwrap();
    assert_full_journal(&file, tasks);

    let (total, resumed, again) = count_json(13, &file);
    assert_eq!((total, resumed, again), (73_712, tasks, tasks));
    assert_eq!(fs::read(&file).unwrap(), before);
}

#[test]
fn a_journal_in_use_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("n10.ckpt");
    count_json(10, &file);
    let held = fs::File::open(&file).unwrap();
    held.try_lock().unwrap();
    let out = nqueens_process()
        .args(["count", "10", "--checkpoint"])
        .arg(&file)
        .output()
        .unwrap();
    let text = failure_in(&out);
    assert!(text.contains("in use"), "{text}");
}

#[test]
fn sigint_saves_the_work_prints_the_resume_command_and_exits_130() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("n15.ckpt");
    let out = stopped_long_count(&file, "INT");
    let text = stderr(&out);
    assert_eq!(out.status.code(), Some(130), "{text}");
    assert!(
        out.stdout.is_empty(),
        "an interrupted count prints no results"
    );
    let resume = text
        .lines()
        .find_map(|l| l.strip_prefix("nqueens: resume with: "))
        .unwrap_or_else(|| panic!("no resume command in: {text}"));
    let saved = records(&file);
    assert!(saved >= 50);

    // The printed command, run as printed, finishes the count.
    let mut words = resume.split_whitespace();
    let out = Command::new(words.next().unwrap())
        .args(words)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let (total, resumed, _) = parse_json(&out);
    assert_eq!((total, resumed), (N_TOTAL, saved));
}

#[test]
fn sigterm_stops_cleanly_too() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("n15.ckpt");
    let out = stopped_long_count(&file, "TERM");
    let text = stderr(&out);
    assert_eq!(out.status.code(), Some(130), "{text}");
    assert!(text.contains("saved in"), "{text}");
    let saved = records(&file);
    let (total, resumed, _) = count_json(N, &file);
    assert_eq!((total, resumed), (N_TOTAL, saved));
}

/// Starts `count n -t 2 --checkpoint file`, waits for its first stderr line (the cost
/// of a count for years, printed once the plan is built and the journal accepted),
/// lets the search run `search` longer, sends `signal`, and returns the finished process's
/// output with that first line in front of its stderr.
fn stop_a_board_for_years(n: u32, file: &Path, signal: &str, search: Duration) -> Output {
    let mut child = nqueens_process()
        .args(["count", &n.to_string(), "-t", "2"])
        .arg("--checkpoint")
        .arg(file)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let lines = first_line_then_rest_on_a_thread(child.stderr.take().unwrap());
    let first = lines.recv().unwrap();
    assert!(first.contains("years"), "n = {n}: {first}");
    sleep(search);
    // Without a stop inside a task, one task of these boards runs for hours: a minute is a
    // guard, scripts/stop-latency.sh measures.
    let what = format!("the count of n = {n}");
    let (out, rest) = stop(child, signal, &lines, Duration::from_secs(60), &what);
    Output {
        stderr: format!("{first}{rest}").into_bytes(),
        ..out
    }
}

/// A stop request ends a count of the largest boards mid-task: the journal is intact and
/// readable by `merge`, which names the count incomplete rather than printing a total.
#[test]
fn one_stop_request_ends_a_count_of_the_largest_boards() {
    for (n, signal) in [(32, "INT"), (26, "TERM")] {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join(format!("n{n}.ckpt"));
        let out = stop_a_board_for_years(n, &file, signal, Duration::from_secs(2));
        let text = stderr(&out);
        assert_eq!(out.status.code(), Some(130), "n = {n}, {signal}: {text}");
        assert!(
            out.stdout.is_empty(),
            "n = {n}: an interrupted count prints no total"
        );
        assert!(
            text.contains("resume with") || text.contains("nothing is lost"),
            "n = {n}: {text}"
        );
        assert!(!text.contains("interrupted again"), "n = {n}: {text}");
        let merged = nqueens_process().arg("merge").arg(&file).output().unwrap();
        let refusal = stderr(&merged);
        assert_eq!(merged.status.code(), Some(1), "n = {n}: {refusal}");
        assert!(refusal.contains("incomplete"), "n = {n}: {refusal}");
        assert!(
            merged.stdout.is_empty(),
            "n = {n}: no total from an incomplete count"
        );
    }
}

/// An interrupt drops the running tasks at once and says so, and the journal times the stopped
/// run although none of its tasks finished (one task of n = 32 runs for hours): a resumed count
/// finds it among its earlier runs.
#[test]
fn an_interrupt_drops_the_running_tasks_and_the_journal_times_the_run() {
    use std::sync::atomic::AtomicBool;
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("n32.ckpt");
    let out = stop_a_board_for_years(32, &file, "INT", Duration::from_secs(2));
    let text = stderr(&out);
    assert_eq!(out.status.code(), Some(130), "{text}");
    assert!(
        text.contains("stopping: the running tasks are dropped"),
        "{text}"
    );
    assert!(
        text.contains("n = 32, 0 of ") && text.contains(" tasks are counted and saved in"),
        "{text}"
    );
    assert!(
        text.contains("dropped part-way, searched again on resume)"),
        "{text}"
    );
    assert!(text.contains("resume with"), "{text}");
    assert_eq!(records(&file), 0);
    // The count as the command makes it, resumed and stopped before it starts.
    let halt = AtomicBool::new(true);
    let control = nqueens::RunControl::default()
        .with_journal(&file)
        .with_stop(&halt);
    let options = nqueens::CountOptions::new(1, nqueens::Strategy::default());
    let resumed = nqueens::count_with(32, &options, &control).unwrap();
    let earlier = resumed.earlier_runs.unwrap();
    assert_eq!(earlier.runs, 1, "{earlier:?}");
    assert!(earlier.core_time > Duration::ZERO, "{earlier:?}");
    assert!(earlier.wall_time > Duration::ZERO, "{earlier:?}");
}

/// An interrupted range keeps the boards that finished: their rows were written as each board
/// ended, and the JSON array is closed, so the output parses.
#[test]
fn an_interrupted_range_keeps_its_finished_boards_in_valid_json() {
    use std::io::{BufReader, Read};
    let mut child = nqueens_process()
        .args(["count", "4..=30", "-t", "2", "--quiet", "--format", "json"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut seen = String::new();
    // n = 14 is counted in well under a second: wait for its row, then interrupt.
    read_until(&mut stdout, &mut seen, "\"n\": 14");
    send(&child, "INT");
    stdout.read_to_string(&mut seen).unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130), "{}", stderr(&out));
    let rows: serde_json::Value =
        serde_json::from_str(&seen).unwrap_or_else(|e| panic!("{e}: {seen}"));
    let rows = rows.as_array().unwrap();
    assert!(rows.len() >= 11, "{seen}");
    for row in rows {
        let n = row["n"].as_u64().unwrap() as u32;
        let known = nqueens::known::Known::of(n).unwrap();
        assert_eq!(
            row["total"].as_u64().map(u128::from),
            Some(known.total),
            "n = {n}"
        );
    }
}

/// A journal file is looked at before it is read: a FIFO is refused without waiting for a
/// writer, and a file of many gigabytes (sparse) is refused from its first bytes under a memory
/// limit far below its size, whether it is foreign or a journal longer than its plan.
#[cfg(target_os = "linux")]
#[test]
fn a_huge_or_special_file_is_refused_before_it_is_read() {
    use crate::util::{HUGE, huge_files};

    let dir = tempfile::tempdir().unwrap();
    let (foreign, long) = huge_files(dir.path());
    let fifo = dir.path().join("fifo.ckpt");
    assert!(
        Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    for (path, why) in [
        (
            &foreign,
            "is not an nqueens journal (refusing to overwrite it)",
        ),
        (&long, "more records than the plan's 958 tasks"),
        (&fifo, "is a FIFO, not a regular file"),
    ] {
        let mut count = nqueens_process();
        count.args(["count", "10", "--threads", "2", "--checkpoint"]);
        count.arg(path).stdin(Stdio::null());
        crate::util::limit(&mut count, libc::RLIMIT_AS, 2 << 30);
        let text = failure_in(&count.output().unwrap());
        assert!(text.contains(why), "{text}");
    }
    assert_eq!(fs::metadata(&foreign).unwrap().len(), HUGE);
    assert_eq!(fs::metadata(&long).unwrap().len(), HUGE);
}

/// A journal whose header cannot be written (the disk is full; here the process may write no
/// more than 32 bytes to a file) is no journal: the count is refused and the file it created is
/// gone. A file that was there before (a torn header of an earlier run) is left.
#[cfg(target_os = "linux")]
#[test]
fn a_journal_whose_header_cannot_be_written_is_not_left_behind() {
    let dir = tempfile::tempdir().unwrap();
    let new = dir.path().join("new.ckpt");
    let torn = dir.path().join("torn.ckpt");
    fs::write(&torn, b"NQJOURNL").unwrap();
    for (path, kept) in [(&new, false), (&torn, true)] {
        let mut count = nqueens_process();
        count.args(["count", "10", "--threads", "2", "--checkpoint"]);
        count.arg(path);
        crate::util::limit(&mut count, libc::RLIMIT_FSIZE, 32);
        let text = failure_in(&count.output().unwrap());
        assert!(text.contains("File too large"), "{text}");
        assert_eq!(path.exists(), kept, "{}", path.display());
    }
}

/// A library-made journal of the 40-board with every task recorded (one solution each).
fn whole_journal_of_40(file: &Path) {
    use nqueens::journal::{Header, Journal};
    use nqueens::{Plan, Strategy};
    let plan = Plan::new(40, Strategy::Mirror, nqueens::Plan::DEFAULT_MIN_TASKS).unwrap();
    let (mut journal, _) = Journal::open(file, &Header::for_plan(&plan)).unwrap();
    for task in plan.tasks() {
        journal.append(task.id, 1).unwrap();
    }
    journal.sync().unwrap();
}

#[test]
fn a_whole_journal_above_the_unique_bound_merges_and_resumes_without_a_unique_count() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("n40.ckpt");
    whole_journal_of_40(&file);
    let started = std::time::Instant::now();
    let merged = crate::util::nqueens()
        .args(["merge", "--format", "json"])
        .arg(&file)
        .timeout(Duration::from_secs(60))
        .output()
        .unwrap();
    assert!(merged.status.success(), "{}", stderr(&merged));
    let record: serde_json::Value = serde_json::from_slice(&merged.stdout).unwrap();
    let record = if record.is_array() {
        record[0].clone()
    } else {
        record
    };
    assert_eq!(record["n"], 40);
    assert!(record["unique"].is_null(), "{record}");
    assert!(
        stderr(&merged).contains("note: the unique count of n = 40 is not computed: "),
        "{}",
        stderr(&merged)
    );
    let counted = crate::util::nqueens()
        .args(["count", "40", "--strategy", "mirror", "--format", "json"])
        .arg("--checkpoint")
        .arg(&file)
        .timeout(Duration::from_secs(60))
        .output()
        .unwrap();
    assert!(counted.status.success(), "{}", stderr(&counted));
    let stdout = String::from_utf8(counted.stdout.clone()).unwrap();
    let record: serde_json::Value = serde_json::from_str(stdout.lines().next().unwrap_or_default())
        .unwrap_or_else(|_| serde_json::from_str(&stdout).unwrap());
    let record = if record.is_array() {
        record[0].clone()
    } else {
        record
    };
    assert_eq!(
        (record["n"].clone(), record["resumed_tasks"].clone()),
        (40.into(), record["tasks"].clone())
    );
    assert_eq!(record["total"], merged_total(&file));
    assert!(record["unique"].is_null(), "{record}");
    // A hang bound, not a timing claim.
    assert!(started.elapsed().as_secs() < 60, "{:?}", started.elapsed());
}

/// The merged total of the journal at `path`, as the library gives it.
fn merged_total(path: &Path) -> serde_json::Value {
    let merged = nqueens::journal::merge(&[path]).unwrap();
    assert_eq!(merged.unique, None);
    serde_json::Value::from(merged.total as u64)
}
