//! Sharded counts on one machine: every shard of a few splits merged back to the known totals,
//! resumed shards, and every refusal of `nqueens merge` and `--shard`.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use nqueens::engine::plan::{DEFAULT_MIN_TASKS, Plan, Strategy, TaskId};
use nqueens::engine::run::TaskOutcome;
use nqueens::journal::{HEADER_LEN, Header, Journal, RECORD_LEN};
use nqueens::journal::{Shard, select};
use nqueens::{CountOptions, RunControl, Watcher, count_with, known};

fn nqueens() -> Command {
    Command::new(env!("CARGO_BIN_EXE_nqueens"))
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn json(out: &Output) -> serde_json::Value {
    assert!(out.status.success(), "{}", stderr(out));
    serde_json::from_slice::<serde_json::Value>(&out.stdout).unwrap()[0].clone()
}

/// Runs shard `k/m` of the `n`-board into `dir/n{n}-{k}of{m}.ckpt`; returns its JSON and path.
fn shard(dir: &Path, n: u32, k: u32, m: u32, extra: &[&str]) -> (serde_json::Value, PathBuf) {
    let file = dir.join(format!("n{n}-{k}of{m}.ckpt"));
    let out = nqueens()
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
    nqueens()
        .args(["merge", "--format", "json"])
        .args(files)
        .output()
        .unwrap()
}

/// A refused merge: exit 1, nothing on stdout, one line on stderr (returned).
fn refused(out: &Output) -> String {
    let text = stderr(out);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(
        out.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert_eq!(text.lines().count(), 1, "{text}");
    text
}

/// A refused `count`: exit 2, nothing on stdout, one line on stderr (returned).
fn usage_error(out: &Output) -> String {
    let text = stderr(out);
    assert_eq!(out.status.code(), Some(2), "{text}");
    assert!(out.stdout.is_empty());
    assert_eq!(text.lines().count(), 1, "{text}");
    text
}

fn plan(n: u32) -> Plan {
    Plan::new(n, Strategy::Symmetric, DEFAULT_MIN_TASKS).unwrap()
}

/// A journal for shard `shard` of the `n`-board holding exactly `records`.
fn forged(path: &Path, n: u32, shard: Shard, records: &[(TaskId, u64)]) {
    let (mut journal, _) = Journal::open(path, &Header::for_shard(&plan(n), shard)).unwrap();
    for &(id, count) in records {
        journal.append(id, count).unwrap();
    }
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
                assert_eq!(record["unique"].as_u64().map(u128::from), known::unique(n));
            } else {
                assert_eq!(record["partial"], true);
                assert_eq!(record["shard"], format!("{k}/{m}"));
            }
            partial_sum += record["total"].as_u64().unwrap();
            files.push(file);
        }
        assert_eq!(Some(u128::from(partial_sum)), known::total(n), "m={m}");
        let merged = json(&merge(&files));
        assert_eq!(merged["total"].as_u64().map(u128::from), known::total(n));
        assert_eq!(merged["unique"].as_u64().map(u128::from), known::unique(n));
        assert_eq!(merged["shards"], m);
    }
}

#[test]
fn the_plan_and_its_fingerprint_do_not_depend_on_the_thread_count() {
    let fingerprint = |threads: &str| {
        let out = nqueens()
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
    assert_eq!(
        one.0,
        nqueens::engine::plan::fingerprint::hex(plan(12).fingerprint()).as_str()
    );
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
    let control = RunControl {
        journal: Some(&file),
        stop: Some(&stop),
        watcher: Some(&watcher),
        shard: Some(Shard::new(1, 3).unwrap()),
    };
    let first = count_with(12, &CountOptions::new(1, Strategy::Symmetric), &control).unwrap();
    assert!(!first.complete);
    let mut files: Vec<PathBuf> = vec![file.clone()];
    let early = refused(&merge(&files));
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
    let text = refused(&merge(&[files[0].clone(), files[2].clone()]));
    assert!(text.contains("incomplete"), "{text}");
    assert!(
        text.contains("shard 1/4") && text.contains("shard 3/4"),
        "{text}"
    );
    assert!(
        !text.contains("shard 0/4") && !text.contains("shard 2/4"),
        "{text}"
    );

    // A torn last record (a crash mid-write) loses one task of that shard.
    let bytes = fs::read(&files[3]).unwrap();
    fs::write(&files[3], &bytes[..bytes.len() - 7]).unwrap();
    let text = refused(&merge(&files));
    assert!(text.contains("shard 3/4 (1 of"), "{text}");
}

#[test]
fn journals_of_different_boards_plans_or_splits_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let a = shard(dir.path(), 10, 0, 2, &[]).1;
    let other_board = shard(dir.path(), 11, 1, 2, &[]).1;
    let other_split = shard(dir.path(), 10, 1, 3, &[]).1;
    let other_strategy = shard(dir.path(), 10, 1, 2, &["--strategy", "mirror"]).1;
    for other in [other_board, other_split, other_strategy] {
        let text = refused(&merge(&[a.clone(), other]));
        assert!(text.contains("different counts"), "{text}");
    }
    // A journal whose header names a plan this build does not make.
    let forged_plan = dir.path().join("forged-plan.ckpt");
    let header = Header {
        fingerprint: 0xdead_beef,
        ..Header::for_shard(&plan(10), Shard::WHOLE)
    };
    drop(Journal::open(&forged_plan, &header).unwrap());
    let text = refused(&merge(&[forged_plan]));
    assert!(text.contains("00000000deadbeef"), "{text}");
}

#[test]
fn conflicting_stray_and_damaged_records_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let files = all_shards(dir.path(), 10, 2);
    let p = plan(10);
    let in_shard_0 = p.tasks[select(&p, 0, 2)[0]].id;
    let in_shard_1 = p.tasks[select(&p, 1, 2)[0]].id;
    let half = Shard::new(0, 2).unwrap();

    let conflict = dir.path().join("conflict.ckpt");
    forged(&conflict, 10, half, &[(in_shard_0, 123_456)]);
    let text = refused(&merge(&[files[0].clone(), files[1].clone(), conflict]));
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
        &[(TaskId::from_cols(&[9, 9, 9]).unwrap(), 1)],
    );
    let text = refused(&merge(&[stray]));
    assert!(
        text.contains("not in the plan") && text.contains("byte 64"),
        "{text}"
    );

    let wrong_shard = dir.path().join("wrong-shard.ckpt");
    forged(&wrong_shard, 10, half, &[(in_shard_1, 1)]);
    let text = refused(&merge(&[wrong_shard]));
    assert!(text.contains("not in shard 0/2"), "{text}");

    let mut bytes = fs::read(&files[1]).unwrap();
    bytes[HEADER_LEN + RECORD_LEN + 3] ^= 1;
    let damaged = dir.path().join("damaged.ckpt");
    fs::write(&damaged, &bytes).unwrap();
    let text = refused(&merge(&[files[0].clone(), damaged]));
    let offset = HEADER_LEN + RECORD_LEN;
    assert!(
        text.contains(&format!("corrupt at byte {offset}")),
        "{text}"
    );

    let notes = dir.path().join("notes.txt");
    fs::write(&notes, "not a journal\n").unwrap();
    let text = refused(&merge(&[files[0].clone(), notes]));
    assert!(text.contains("not an nqueens journal"), "{text}");

    let text = refused(&merge(&[dir.path().join("absent.ckpt")]));
    assert!(text.contains("absent.ckpt"), "{text}");
}

#[test]
fn bad_shard_requests_are_usage_errors() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("x.ckpt");
    let count = |shard: &str, env: &[(&str, &str)]| {
        let mut cmd = nqueens();
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
    ] {
        let text = usage_error(&count(shard, env));
        assert!(text.contains(why), "{shard}: {text}");
    }
    assert!(!file.exists());
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

    let out = nqueens()
        .args(["count", "10", "--shard", "0/2"])
        .output()
        .unwrap();
    assert!(usage_error(&out).contains("--checkpoint"));
    let out = nqueens().arg("merge").output().unwrap();
    assert_eq!(out.status.code(), Some(2));
}
