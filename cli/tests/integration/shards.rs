//! Sharded counts on one machine: every shard of a few splits merged back to the known totals,
//! resumed shards, and every refusal of `nqueens merge` and `--shard`.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use crate::util::{HEADER_LEN, RECORD_LEN};
use nqueens::TaskOutcome;
use nqueens::journal::Shard;
use nqueens::journal::{Header, Journal};
use nqueens::{CountOptions, RunControl, Watcher, count_with, known};
use nqueens::{Plan, Strategy, TaskId};
use proptest::prelude::*;

use crate::util::{failure_in, nqueens_process, stderr, usage_error_in};

fn json(out: &Output) -> serde_json::Value {
    assert!(out.status.success(), "{}", stderr(out));
    serde_json::from_slice::<serde_json::Value>(&out.stdout).unwrap()[0].clone()
}

/// Runs shard `k/m` of the `n`-board into `dir/n{n}-{k}of{m}.ckpt`; returns its JSON and path.
fn shard(dir: &Path, n: u32, k: u32, m: u32, extra: &[&str]) -> (serde_json::Value, PathBuf) {
    let file = dir.join(format!("n{n}-{k}of{m}.ckpt"));
    let out = nqueens_process()
        .args(["count", &n.to_string(), "--shard", &format!("{k}/{m}")])
        .args(["--format", "json", "--threads", "2", "--quiet"])
        .args(extra)
        .arg("--checkpoint")
        .arg(&file)
        .output()
        .unwrap();
    (json(&out), file)
}

fn all_shards(dir: &Path, n: u32, m: u32) -> Vec<PathBuf> {
    (0..m).map(|k| shard(dir, n, k, m, &[]).1).collect()
}

fn merge(files: &[PathBuf]) -> Output {
    nqueens_process()
        .args(["merge", "--format", "json"])
        .args(files)
        .output()
        .unwrap()
}

use crate::util::command_plan as plan;

/// A journal for shard `shard` of the `n`-board holding exactly `records`.
fn forged(path: &Path, n: u32, shard: Shard, records: &[(TaskId, u64)]) {
    crate::util::journal_holding(path, &Header::for_shard(&plan(n), shard), records);
}

#[test]
fn every_shard_of_several_splits_merges_to_the_known_counts() {
    let n = 11;
    for m in [1, 2, 3, 8] {
        let dir = tempfile::tempdir().unwrap();
        let mut partial_sum = 0;
        let mut files = Vec::new();
        for k in 0..m {
            let (record, file) = shard(dir.path(), n, k, m, &[]);
            if m == 1 {
                // Shard 0/1 is the whole count, printed as one.
                assert_eq!(
                    record["unique"].as_u64().map(u128::from),
                    known::Known::of(n).map(|k| k.unique)
                );
            } else {
                assert_eq!(record["partial"], true);
                assert_eq!(record["shard"], format!("{k}/{m}"));
            }
            partial_sum += record["total"].as_u64().unwrap();
            files.push(file);
        }
        assert_eq!(
            Some(u128::from(partial_sum)),
            known::Known::of(n).map(|k| k.total),
            "m={m}"
        );
        let merged = json(&merge(&files));
        assert_eq!(
            merged["total"].as_u64().map(u128::from),
            known::Known::of(n).map(|k| k.total)
        );
        assert_eq!(
            merged["unique"].as_u64().map(u128::from),
            known::Known::of(n).map(|k| k.unique)
        );
        assert_eq!(merged["shards"], m);
    }
}

#[test]
fn the_plan_and_its_fingerprint_do_not_depend_on_the_thread_count() {
    let fingerprint = |threads: &str| {
        let out = nqueens_process()
            .args(["count", "12", "--format", "json", "--threads", threads])
            .output()
            .unwrap();
        let record = json(&out);
        (record["fingerprint"].clone(), record["tasks"].clone())
    };
    let one = fingerprint("1");
    assert_eq!(one.0.as_str().unwrap().len(), 16);
    assert_eq!(one, fingerprint("3"));
    // The most threads a command takes on a 2-CPU machine; the library goes beyond 256 (where
    // the old plan changed).
    assert_eq!(one, fingerprint("64"));
    assert_eq!(one.0, plan(12).fingerprint().to_string().as_str());
}

#[test]
fn a_shard_run_twice_merges_and_a_shard_resumes_from_its_journal() {
    let dir = tempfile::tempdir().unwrap();
    let mut files = all_shards(dir.path(), 12, 4);
    // The same shard again, into another file: identical records are fine.
    let again = dir.path().join("again.ckpt");
    fs::copy(&files[2], &again).unwrap();
    files.push(again);
    assert_eq!(json(&merge(&files))["total"], 14200);

    // Stop shard 1/3 partway (as a killed job would), then run it again: it resumes.
    struct StopAfter<'a>(AtomicUsize, &'a AtomicBool);
    impl Watcher for StopAfter<'_> {
        fn task_done(&self, _: &TaskOutcome) {
            if self.0.fetch_add(1, Ordering::Relaxed) >= 20 {
                self.1.store(true, Ordering::Relaxed);
            }
        }
    }
    let file = dir.path().join("n12-1of3.ckpt");
    let stop = AtomicBool::new(false);
    let watcher = StopAfter(AtomicUsize::new(0), &stop);
    let control = RunControl::default()
        .with_journal(&file)
        .with_stop(&stop)
        .with_watcher(&watcher)
        .with_shard(Shard::new(1, 3).unwrap());
    let first = count_with(12, &CountOptions::new(1, Strategy::Symmetric), &control).unwrap();
    assert!(!first.complete);
    let mut files: Vec<PathBuf> = vec![file.clone()];
    let early = failure_in(&merge(&files));
    assert!(early.contains("shard 1/3 ("), "{early}");
    let (resumed, _) = shard(dir.path(), 12, 1, 3, &[]);
    assert_eq!(resumed["resumed_tasks"], first.searched_tasks as u64);
    files.push(shard(dir.path(), 12, 0, 3, &[]).1);
    files.push(shard(dir.path(), 12, 2, 3, &[]).1);
    assert_eq!(json(&merge(&files))["total"], 14200);
}

#[test]
fn missing_tasks_name_the_incomplete_shards_and_print_no_total() {
    let dir = tempfile::tempdir().unwrap();
    let files = all_shards(dir.path(), 10, 4);
    let text = failure_in(&merge(&[files[0].clone(), files[2].clone()]));
    assert!(text.contains("incomplete"), "{text}");
    assert!(
        text.contains("shard 1/4") && text.contains("shard 3/4"),
        "{text}"
    );
    assert!(
        !text.contains("shard 0/4") && !text.contains("shard 2/4"),
        "{text}"
    );

    // A torn last record (a crash mid-write, before the run's time record) loses one task
    // of that shard.
    let bytes = fs::read(&files[3]).unwrap();
    let mut end = bytes.len();
    while bytes[end - RECORD_LEN] == b'S' {
        end -= RECORD_LEN;
    }
    fs::write(&files[3], &bytes[..end - 7]).unwrap();
    let text = failure_in(&merge(&files));
    assert!(text.contains("shard 3/4 (1 of"), "{text}");
}

/// More shards than tasks: `count` refuses the split, so no journal of it is written, and a
/// header that names one anyway (forged, its checksum recomputed) is refused as damage by
/// `merge` and by `count`, in one short line, before anything is allocated by the shard count.
#[test]
fn a_journal_of_more_shards_than_tasks_is_refused_by_merge_as_by_count() {
    let dir = tempfile::tempdir().unwrap();
    assert_eq!(plan(10).tasks().len(), 958);
    let written = dir.path().join("written.ckpt");
    let header = Header::for_shard(&plan(10), Shard::new(0, 1000).unwrap());
    assert!(Journal::open(&written, &header).is_err());
    assert!(!written.exists());
    for count in [959, 1000, u32::MAX] {
        let file = dir.path().join(format!("n10-0of{count}.ckpt"));
        let shard = Shard::new(1, 2).unwrap();
        fs::write(&file, crafted_header(10, shard, 56, &count.to_le_bytes())).unwrap();
        let why = format!(
            "is corrupt at byte 52: the header names {count} shards, more than its plan's 958 \
             tasks"
        );
        let text = failure_in(&merge(std::slice::from_ref(&file)));
        assert!(text.contains(&why), "{text}");
        assert!(text.len() < 300, "{text}");
        let shard = format!("1/{count}");
        let out = nqueens_process()
            .args(["count", "10", "--shard", &shard, "--checkpoint"])
            .arg(&file)
            .output()
            .unwrap();
        let text = usage_error_in(&out);
        assert!(
            text.contains(&format!(
                "{count} shards are more than the plan's 958 tasks"
            )),
            "{text}"
        );
    }
}

#[test]
fn journals_of_different_boards_plans_or_splits_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let a = shard(dir.path(), 10, 0, 2, &[]).1;
    let other_board = shard(dir.path(), 11, 1, 2, &[]).1;
    let other_split = shard(dir.path(), 10, 1, 3, &[]).1;
    let other_strategy = shard(dir.path(), 10, 1, 2, &["--strategy", "mirror"]).1;
    for other in [other_board, other_split, other_strategy] {
        let text = failure_in(&merge(&[a.clone(), other]));
        assert!(text.contains("different counts"), "{text}");
    }
    // A journal whose header names a plan this build does not make.
    let forged_plan = dir.path().join("forged-plan.ckpt");
    let mut header = Header::for_shard(&plan(10), Shard::WHOLE);
    header.fingerprint = nqueens::Fingerprint::new(0xdead_beef);
    drop(Journal::open(&forged_plan, &header).unwrap());
    let text = failure_in(&merge(&[forged_plan]));
    assert!(text.contains("00000000deadbeef"), "{text}");
}

#[test]
fn conflicting_stray_and_damaged_records_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let files = all_shards(dir.path(), 10, 2);
    let p = plan(10);
    let first_of = |k| {
        p.task(Shard::new(k, 2).unwrap().positions(&p)[0])
            .unwrap()
            .id
    };
    let (in_shard_0, in_shard_1) = (first_of(0), first_of(1));
    let half = Shard::new(0, 2).unwrap();

    let conflict = dir.path().join("conflict.ckpt");
    forged(&conflict, 10, half, &[(in_shard_0, 123_456)]);
    let text = failure_in(&merge(&[files[0].clone(), files[1].clone(), conflict]));
    assert!(text.contains(&format!("task {in_shard_0}")), "{text}");
    assert!(
        text.contains("123456") && text.contains("conflict.ckpt"),
        "{text}"
    );

    let stray = dir.path().join("stray.ckpt");
    forged(
        &stray,
        10,
        half,
        &[(TaskId::from_columns(&[9, 9, 9]).unwrap(), 1)],
    );
    let text = failure_in(&merge(&[stray]));
    assert!(
        text.contains("not in the plan") && text.contains("byte 64"),
        "{text}"
    );

    let wrong_shard = dir.path().join("wrong-shard.ckpt");
    forged(&wrong_shard, 10, half, &[(in_shard_1, 1)]);
    let text = failure_in(&merge(&[wrong_shard]));
    assert!(text.contains("not in shard 0/2"), "{text}");

    let mut bytes = fs::read(&files[1]).unwrap();
    bytes[HEADER_LEN + RECORD_LEN + 3] ^= 1;
    let damaged = dir.path().join("damaged.ckpt");
    fs::write(&damaged, &bytes).unwrap();
    let text = failure_in(&merge(&[files[0].clone(), damaged]));
    let offset = HEADER_LEN + RECORD_LEN;
    assert!(
        text.contains(&format!("corrupt at byte {offset}")),
        "{text}"
    );

    let notes = dir.path().join("notes.txt");
    fs::write(&notes, "not a journal\n").unwrap();
    let text = failure_in(&merge(&[files[0].clone(), notes]));
    assert!(text.contains("not an nqueens journal"), "{text}");
    // Merging writes nothing, and does not say it would.
    assert!(!text.contains("overwrite"), "{text}");

    let text = failure_in(&merge(&[dir.path().join("absent.ckpt")]));
    assert!(text.contains("absent.ckpt"), "{text}");
}

#[test]
fn bad_shard_requests_are_usage_errors() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("x.ckpt");
    let count = |shard: &str, env: &[(&str, &str)]| {
        let mut cmd = nqueens_process();
        cmd.args(["count", "10", "--shard", shard, "--checkpoint"])
            .arg(&file);
        for var in [
            "SLURM_ARRAY_TASK_ID",
            "SLURM_ARRAY_TASK_MIN",
            "SLURM_ARRAY_TASK_COUNT",
            "SLURM_ARRAY_TASK_STEP",
        ] {
            cmd.env_remove(var);
        }
        cmd.envs(env.iter().copied()).output().unwrap()
    };
    for (shard, env, why) in [
        ("8/8", &[][..], "numbered from 0"),
        ("1/0", &[][..], "at least 1"),
        ("x", &[][..], "not a shard"),
        ("slurm", &[][..], "SLURM_ARRAY_TASK_ID"),
        (
            "slurm",
            &[
                ("SLURM_ARRAY_TASK_ID", "9"),
                ("SLURM_ARRAY_TASK_MIN", "0"),
                ("SLURM_ARRAY_TASK_COUNT", "8"),
            ][..],
            "inconsistent",
        ),
        // Every shard holds a task: n = 10 has 958.
        (
            "0/959",
            &[][..],
            "959 shards are more than the plan's 958 tasks",
        ),
        ("4294967294/4294967295", &[][..], "use at most 958 shards"),
        (
            "slurm",
            &[
                ("SLURM_ARRAY_TASK_ID", "0"),
                ("SLURM_ARRAY_TASK_MIN", "0"),
                ("SLURM_ARRAY_TASK_COUNT", "4294967295"),
            ][..],
            "4294967295 shards are more than the plan's 958 tasks (n = 10, strategy symmetric)",
        ),
    ] {
        let text = usage_error_in(&count(shard, env));
        assert!(text.contains(why), "{shard}: {text}");
    }
    assert!(!file.exists());
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        let not_utf8 = std::ffi::OsStr::from_bytes(b"\xff");
        let out = nqueens_process()
            .args(["count", "10", "--shard", "slurm", "--checkpoint"])
            .arg(&file)
            .env("SLURM_ARRAY_TASK_ID", not_utf8)
            .env("SLURM_ARRAY_TASK_MIN", "0")
            .env("SLURM_ARRAY_TASK_COUNT", "4")
            .output()
            .unwrap();
        let text = usage_error_in(&out);
        assert!(
            text.contains("SLURM_ARRAY_TASK_ID is not valid UTF-8, so not a whole number"),
            "{text}"
        );
        assert!(!file.exists());
    }
    let ok = count(
        "slurm",
        &[
            ("SLURM_ARRAY_TASK_ID", "4"),
            ("SLURM_ARRAY_TASK_MIN", "1"),
            ("SLURM_ARRAY_TASK_COUNT", "4"),
        ],
    );
    assert!(ok.status.success(), "{}", stderr(&ok));
    assert!(String::from_utf8_lossy(&ok.stdout).contains("3/4"));

    let out = nqueens_process()
        .args(["count", "10", "--shard", "0/2"])
        .output()
        .unwrap();
    assert!(usage_error_in(&out).contains("--checkpoint"));
    let out = nqueens_process().arg("merge").output().unwrap();
    assert_eq!(out.status.code(), Some(2));
}

/// Runs `command` to its end, with a guard against a hang (not a measurement): a command still
/// running after two minutes is killed and the test fails.
fn without_hanging(command: &mut Command) -> Output {
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > Duration::from_secs(120) {
            child.kill().unwrap();
            child.wait().unwrap();
            panic!("{command:?} hangs");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    child.wait_with_output().unwrap()
}

#[cfg(unix)]
#[test]
fn merge_refuses_what_is_not_a_regular_file_without_opening_it_for_long() {
    let dir = tempfile::tempdir().unwrap();
    let whole = shard(dir.path(), 8, 0, 1, &[]).1;
    let fifo = dir.path().join("f.ckpt");
    let made = Command::new("mkfifo").arg(&fifo).status();
    let mut others = vec![(PathBuf::from("/dev/zero"), "a device")];
    others.push((dir.path().to_path_buf(), "a directory"));
    if made.is_ok_and(|s| s.success()) {
        others.push((fifo, "a FIFO"));
    } else {
        println!("note: mkfifo is unavailable; the FIFO case is skipped");
    }
    for (other, what) in others {
        let out = without_hanging(nqueens_process().arg("merge").arg(&whole).arg(&other));
        let text = failure_in(&out);
        assert!(
            text.contains(&format!("is {what}, not a regular file")),
            "{text}"
        );
        assert!(!text.contains("overwrite"), "{text}");
    }
}

/// A file of many gigabytes (sparse: no disk is used) is refused from its first bytes, never
/// read whole: under a memory limit far below its size, a foreign file is "not an nqueens
/// journal", and a journal header followed by more than its plan's records is corrupt.
#[cfg(target_os = "linux")]
#[test]
fn a_huge_file_is_refused_from_its_header_without_reading_it() {
    use crate::util::{HUGE, huge_files};

    let dir = tempfile::tempdir().unwrap();
    let (foreign, long) = huge_files(dir.path());
    for (file, why) in [
        (&foreign, "is not an nqueens journal"),
        (&long, "more records than"),
    ] {
        let mut merge = nqueens_process();
        merge.arg("merge").arg(file);
        crate::util::limit(&mut merge, libc::RLIMIT_AS, 1 << 30);
        let text = failure_in(&without_hanging(&mut merge));
        assert!(text.contains(why), "{text}");
    }
    assert_eq!(fs::metadata(&long).unwrap().len(), HUGE);
}

/// The bytes of a journal header of shard `shard` of the `n`-board, with one field replaced
/// (`at`: its byte offset, `value`: its new bytes) and the checksum recomputed, as a forger
/// would write it.
fn crafted_header(n: u32, shard: Shard, at: usize, value: &[u8]) -> Vec<u8> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("valid.ckpt");
    forged(&path, n, shard, &[]);
    let mut bytes = fs::read(&path).unwrap();
    assert_eq!(bytes.len(), HEADER_LEN);
    bytes[at..at + value.len()].copy_from_slice(value);
    let crc = crc32fast::hash(&bytes[..HEADER_LEN - 4]);
    bytes[HEADER_LEN - 4..].copy_from_slice(&crc.to_le_bytes());
    bytes
}

/// Headers with a valid checksum and a field no journal has: each is named, with the byte
/// where the field starts, in one line and exit code 1, by `merge` and by `count`.
#[test]
fn crafted_headers_with_a_valid_checksum_are_refused_by_field() {
    let dir = tempfile::tempdir().unwrap();
    let half = Shard::new(1, 2).unwrap();
    let pair = |a: u32, b: u32| [a.to_le_bytes(), b.to_le_bytes()].concat();
    for (at, value, why) in [
        (
            52,
            pair(0, 0),
            "corrupt at byte 52: the header names shard 0/0, which does not exist",
        ),
        (
            52,
            pair(5, 3),
            "corrupt at byte 52: the header names shard 5/3, which does not exist",
        ),
        (52, pair(u32::MAX, 2), "the header names shard 4294967295/2"),
        (
            16,
            65u32.to_le_bytes().to_vec(),
            "corrupt at byte 16: the header names n = 65",
        ),
        (
            16,
            u32::MAX.to_le_bytes().to_vec(),
            "n = 4294967295, beyond the largest board (64)",
        ),
        (
            20,
            b"sym\xffmetric".to_vec(),
            "byte 20: the header's strategy name is not a name",
        ),
        (
            20,
            b"\0symmetric".to_vec(),
            "the header's strategy name is not a name",
        ),
        (
            20,
            b"mirror\0x".to_vec(),
            "the header's strategy name is not a name",
        ),
        (
            36,
            0u64.to_le_bytes().to_vec(),
            "corrupt at byte 36: the header names a plan of 0 tasks",
        ),
    ] {
        let file = dir.path().join("crafted.ckpt");
        fs::write(&file, crafted_header(10, half, at, &value)).unwrap();
        let text = failure_in(&merge(std::slice::from_ref(&file)));
        assert!(text.contains(why), "{text}");
        let out = nqueens_process()
            .args(["count", "10", "--shard", "1/2", "--checkpoint"])
            .arg(&file)
            .output()
            .unwrap();
        let text = failure_in(&out);
        assert!(text.contains(why), "{text}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    /// Any header fields, with the checksum recomputed, and any records after them: a merge
    /// and a reopening for a count give a total or an error, never a panic; an error is one
    /// line.
    #[test]
    fn no_header_with_a_valid_checksum_panics_a_merge_or_a_count(
        n in prop_oneof![0u32..=11, any::<u32>()],
        strategy in prop_oneof![
            Just(b"symmetric".to_vec()),
            Just(b"mirror".to_vec()),
            proptest::collection::vec(any::<u8>(), 0..=16),
        ],
        plan_version in prop_oneof![Just(Plan::VERSION), any::<u32>()],
        tasks in proptest::option::of(any::<u64>()),
        fingerprint in proptest::option::of(any::<u64>()),
        index in prop_oneof![0u32..4, any::<u32>()],
        count in prop_oneof![0u32..5, any::<u32>()],
        records in 0usize..4,
        tail in 0usize..RECORD_LEN,
    ) {
        // Start from a real journal of shard 0/1 of the 8-board with a few records.
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("j.ckpt");
        let real = plan(8);
        let records: Vec<(TaskId, u64)> =
            real.tasks().take(records).map(|t| (t.id, 3)).collect();
        forged(&path, 8, Shard::WHOLE, &records);
        let mut bytes = fs::read(&path).unwrap();
        bytes.extend(std::iter::repeat_n(b'T', tail));
        let put = |bytes: &mut Vec<u8>, at: usize, value: &[u8]| {
            bytes[at..at + value.len()].copy_from_slice(value);
        };
        put(&mut bytes, 12, &plan_version.to_le_bytes());
        put(&mut bytes, 16, &n.to_le_bytes());
        let mut name = [0u8; 16];
        name[..strategy.len()].copy_from_slice(&strategy);
        put(&mut bytes, 20, &name);
        // By default the task count and fingerprint of the plan the header names, if any.
        let named = std::str::from_utf8(&strategy)
            .ok()
            .and_then(|s| s.parse::<Strategy>().ok())
            .and_then(|s| Plan::new(n.min(11), s, Plan::DEFAULT_MIN_TASKS).ok());
        let tasks = tasks.or(named.as_ref().map(|p| p.tasks().len() as u64)).unwrap_or(1);
        let fingerprint = fingerprint.or(named.map(|p| p.fingerprint().get())).unwrap_or(0);
        put(&mut bytes, 36, &tasks.to_le_bytes());
        put(&mut bytes, 44, &fingerprint.to_le_bytes());
        put(&mut bytes, 52, &index.to_le_bytes());
        put(&mut bytes, 56, &count.to_le_bytes());
        let crc = crc32fast::hash(&bytes[..HEADER_LEN - 4]);
        put(&mut bytes, HEADER_LEN - 4, &crc.to_le_bytes());
        fs::write(&path, &bytes).unwrap();

        if let Err(e) = nqueens::journal::merge(&[&path]) {
            prop_assert!(!e.to_string().contains('\n'), "{e}");
        }
        // A valid whole journal first: the crafted one is compared with it.
        let other = dir.path().join("other.ckpt");
        forged(&other, 8, Shard::WHOLE, &[]);
        if let Err(e) = nqueens::journal::merge(&[&other, &path]) {
            prop_assert!(!e.to_string().contains('\n'), "{e}");
        }
        if let Err(e) = Journal::open(&path, &Header::for_shard(&plan(8), Shard::WHOLE)) {
            prop_assert!(!e.to_string().contains('\n'), "{e}");
        }
    }
}

/// The shards of a board given one directory keep one journal each (`nN-sK-of-M.ckpt`) and
/// merge; a shard's journal given to another shard is refused without advice to delete it.
#[test]
fn shards_sharing_a_directory_keep_their_own_journals() {
    let dir = tempfile::tempdir().unwrap();
    let journals = format!("{}/", dir.path().join("journals").display());
    for k in 0..2 {
        let out = nqueens_process()
            .args(["count", "10", "--shard", &format!("{k}/2"), "--quiet"])
            .args(["--checkpoint", &journals])
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", stderr(&out));
    }
    let files: Vec<PathBuf> = (0..2)
        .map(|k| dir.path().join(format!("journals/n10-s{k}-of-2.ckpt")))
        .collect();
    assert_eq!(json(&merge(&files))["total"], 724);

    let out = nqueens_process()
        .args(["count", "10", "--shard", "1/2", "--checkpoint"])
        .arg(&files[0])
        .output()
        .unwrap();
    let text = failure_in(&out);
    assert!(
        text.contains("is for shard 0/2, not shard 1/2: use another --checkpoint path (keep this one: it records shard 0/2 for nqueens merge)"),
        "{text}"
    );
    assert!(!text.contains("delete"), "{text}");
}

/// A journal named twice, under the same path, another path to it or a hard link, is refused
/// in one line naming it (exit 2); two journals of the same shard are still merged.
#[test]
fn merge_refuses_a_journal_named_twice() {
    let dir = tempfile::tempdir().unwrap();
    let first = dir.path().join("s0.ckpt");
    let again = dir.path().join("again.ckpt");
    for (k, path) in [(0, &first), (1, &dir.path().join("s1.ckpt")), (0, &again)] {
        let out = nqueens_process()
            .args([
                "count",
                "8",
                "--shard",
                &format!("{k}/2"),
                "-q",
                "--checkpoint",
            ])
            .arg(path)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", stderr(&out));
    }
    let second = dir.path().join("s1.ckpt");
    // The same shard counted twice into two journals is fine.
    assert_eq!(
        json(&merge(&[first.clone(), second.clone(), again]))["total"],
        92
    );
    let dotted = dir.path().join(".").join("s0.ckpt");
    let mut twice = vec![
        (vec![first.clone(), second.clone(), first.clone()], None),
        (
            vec![first.clone(), dotted.clone(), second.clone()],
            Some(&dotted),
        ),
    ];
    #[cfg(unix)]
    let linked = dir.path().join("linked.ckpt");
    #[cfg(unix)]
    {
        fs::hard_link(&first, &linked).unwrap();
        twice.push((
            vec![first.clone(), second.clone(), linked.clone()],
            Some(&linked),
        ));
    }
    for (files, other) in twice {
        let out = nqueens_process()
            .arg("merge")
            .args(&files)
            .output()
            .unwrap();
        let text = usage_error_in(&out);
        let named = format!("the journal {} is given twice", first.display());
        assert!(text.contains(&named), "{text}");
        assert!(text.contains("name each journal once"), "{text}");
        if let Some(other) = other {
            assert!(text.contains(&other.display().to_string()), "{text}");
        }
    }
}

/// `merge` shows each shard's wall time and core time under the merged record, and their core
/// time summed in it; the JSON has them as `parts` and `core_time`.
#[test]
fn merge_shows_each_shards_wall_time_and_core_time() {
    let dir = tempfile::tempdir().unwrap();
    let files = all_shards(dir.path(), 11, 3);
    let merged = json(&merge(&files));
    let parts = merged["parts"].as_array().unwrap();
    let shards: Vec<&str> = parts.iter().map(|p| p["shard"].as_str().unwrap()).collect();
    assert_eq!(shards, ["0/3", "1/3", "2/3"], "{merged}");
    let core: f64 = parts.iter().map(|p| p["core_time"].as_f64().unwrap()).sum();
    // Each written to six significant digits.
    assert!(
        (merged["core_time"].as_f64().unwrap() / core - 1.0).abs() < 1e-4,
        "{merged}"
    );
    assert!(
        parts
            .iter()
            .all(|p| p["runs"] == 1 && p["wall_time"].as_f64().unwrap() > 0.0)
    );
    let out = nqueens_process()
        .arg("merge")
        .args(&files)
        .output()
        .unwrap();
    let table = String::from_utf8(out.stdout).unwrap();
    assert!(
        table.lines().nth(1).unwrap().contains("core time"),
        "{table}"
    );
    let header = table
        .lines()
        .find(|l| l.starts_with("| shard"))
        .unwrap_or_else(|| panic!("{table}"));
    assert!(
        header.contains("shard") && header.contains("core time"),
        "{table}"
    );
    for shard in ["0/3", "1/3", "2/3"] {
        assert!(
            table
                .lines()
                .any(|l| l.trim_start_matches("| ").trim_start().starts_with(shard)),
            "{shard}: {table}"
        );
    }
}

/// A missing shard is named with the file its journal is expected in, from the names given.
#[test]
fn a_missing_shard_names_the_file_it_is_expected_in() {
    let dir = tempfile::tempdir().unwrap();
    let files = all_shards(dir.path(), 10, 4);
    let text = failure_in(&merge(&[files[0].clone(), files[2].clone()]));
    let expected = |k: usize| files[k].display().to_string();
    // The files exist (they were only left out), and the first is counted into its file.
    assert!(
        text.contains(&format!(
            "; expected: shard 1/4 in {}, shard 3/4 in {}; count it with: nqueens count 10 \
             --shard 1/4 --checkpoint {}",
            expected(1),
            expected(3),
            expected(1)
        )),
        "{text}"
    );
    // One journal of a --checkpoint directory: its name's -sK- is the shard.
    let journals = dir.path().join("journals/");
    let out = nqueens_process()
        .args(["count", "10", "--shard", "1/2", "--quiet", "--checkpoint"])
        .arg(&journals)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let text = failure_in(&merge(&[journals.join("n10-s1-of-2.ckpt")]));
    let missing = journals.join("n10-s0-of-2.ckpt");
    assert!(
        text.contains(&format!(
            "; expected: shard 0/2 in {} (no such file); count it with: nqueens count 10 \
             --shard 0/2 --checkpoint {}",
            missing.display(),
            missing.display()
        )),
        "{text}"
    );
    // Names that show no place for the shard: how a shard is counted.
    let odd = dir.path().join("only.ckpt");
    std::fs::copy(&files[0], &odd).unwrap();
    let text = failure_in(&merge(&[odd]));
    assert!(
        text.contains("; a shard is counted by nqueens count 10 --shard 1/4 --checkpoint FILE"),
        "{text}"
    );
}
