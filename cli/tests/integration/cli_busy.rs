//! Busy machines and short runs, said once: the busy-machine warning once on stderr and as a
//! column, the CPU share's absence explained, no gain shown as a loss, the short-run floor and
//! the repeat count chosen for a short board, and `count`'s note on a busy machine.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::util::{busy_fixture, quiet_fixture, scale_compare, stdout_of, the_line};

/// The busy fixture saved twice more under other names in `dir`, with `edit` applied.
fn busy_copies(dir: &Path, edit: impl Fn(&mut Value)) -> Vec<PathBuf> {
    let mut value: Value =
        serde_json::from_str(&std::fs::read_to_string(busy_fixture()).unwrap()).unwrap();
    edit(&mut value);
    ["a.json", "b.json"]
        .iter()
        .map(|name| {
            let path = dir.join(name);
            std::fs::write(&path, value.to_string()).unwrap();
            path
        })
        .collect()
}

#[test]
fn a_busy_machine_is_said_once_on_stderr_and_as_a_column_per_row() {
    let dir = tempfile::tempdir().unwrap();
    let mut files = busy_copies(dir.path(), |_| {});
    files.push(quiet_fixture());
    let (table, stderr) = scale_compare(files.clone(), &[]);
    let busy = the_line(&stderr, |l| l.contains("other programs"));
    assert!(
        busy.starts_with(
            "nqueens: warning: other programs were using the CPUs: runs received as little as \
             50.5 % of the CPU time they asked for (2 threads, A: "
        ),
        "{stderr}"
    );
    // One short line on stdout, and no warning under each series.
    let said: Vec<&str> = table
        .lines()
        .filter(|l| l.contains("busy machine") || l.contains("other programs were"))
        .collect();
    assert_eq!(
        said,
        [
            "busy machine: other programs took CPU time from the runs of A, B (CPU share under 80.0 %)"
        ],
        "{table}"
    );
    // CSV and JSON: a column, not a sentence.
    let (csv, _) = scale_compare(files.clone(), &["-f", "csv"]);
    assert!(!csv.contains("other programs"), "{csv}");
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    assert!(!header.contains(&"warnings"), "{csv}");
    let busy_at = header
        .iter()
        .position(|c| *c == "busy")
        .expect("a busy column");
    let mut reader = csv::Reader::from_reader(csv.as_bytes());
    let flags: Vec<(String, String)> = reader
        .records()
        .map(|r| {
            let r = r.unwrap();
            (r[0].to_string(), r[busy_at].to_string())
        })
        .collect();
    assert!(
        flags.contains(&("2".to_string(), "true".to_string())),
        "{csv}"
    );
    assert!(
        flags.contains(&("1".to_string(), "false".to_string())),
        "{csv}"
    );
    let (json, _) = scale_compare(files.clone(), &["-f", "json"]);
    let v: Value = serde_json::from_str(&json).unwrap();
    let rows = v["table"].as_array().unwrap();
    assert!(rows.iter().all(|r| r.get("warnings").is_none()), "{json}");
    assert!(rows.iter().any(|r| r["busy"] == true), "{json}");
}

#[test]
fn no_gain_is_shown_as_a_loss() {
    let (table, _) = scale_compare([quiet_fixture()], &[]);
    let row = table
        .lines()
        .find(|l| l.trim_start_matches('|').trim_start().starts_with("2 "))
        .unwrap();
    assert!(!row.contains("-1.9") && !row.contains("-0.0"), "{table}");
    assert!(
        table.contains("a part below 0 (the thread count did better there than the 1-thread run: timer noise) is shown as 0.0"),
        "{table}"
    );
    let (csv, _) = scale_compare([quiet_fixture()], &["-f", "csv"]);
    let mut reader = csv::Reader::from_reader(csv.as_bytes());
    let header = reader.headers().unwrap().clone();
    for record in reader.records() {
        let record = record.unwrap();
        for (name, value) in header.iter().zip(record.iter()) {
            if name.starts_with("loss_") && !value.is_empty() {
                assert!(
                    value.parse::<f64>().unwrap() >= 0.0,
                    "{name} {value}: {csv}"
                );
            }
        }
    }
}

#[test]
fn a_missing_cpu_share_is_explained() {
    let dir = tempfile::tempdir().unwrap();
    let files = busy_copies(dir.path(), |v| {
        v["runs"][1].as_object_mut().unwrap().remove("cpu_share");
    });
    let (table, _) = scale_compare(files[..1].to_vec(), &[]);
    assert!(table.contains("|       2     A   11.8 s"), "{table}");
    assert!(
        table.contains("CPU share -: not in the saved result: its runs took under 0.25 s in all"),
        "{table}"
    );
}

#[test]
fn runs_of_a_tenth_of_a_second_are_too_short_to_trust() {
    let dir = tempfile::tempdir().unwrap();
    let files = busy_copies(dir.path(), |v| {
        for (run, seconds) in v["runs"].as_array_mut().unwrap().iter_mut().zip([0.2, 0.1]) {
            run["median_seconds"] = seconds.into();
            run["min_seconds"] = seconds.into();
            run["max_seconds"] = seconds.into();
            run["cpu_share"] = 0.99.into();
            // The fixture's breakdown is of its own times: these times lose nothing.
            run.as_object_mut().unwrap().remove("loss");
        }
    });
    let (_, stderr) = scale_compare(files[..1].to_vec(), &[]);
    assert!(
        stderr.contains(
            "the fastest timed run took 100 ms (2 threads): runs under 250 ms measure start-up \
             costs"
        ),
        "{stderr}"
    );
}

/// The `repeat` of `scale` with `args`, read from its JSON.
fn repeat_of(args: &[&str]) -> u64 {
    let json = stdout_of(&[&["scale", "10", "-t", "1,2", "-f", "json"], args].concat());
    let v: Value = serde_json::from_str(&json).unwrap();
    v[0]["repeat"].as_u64().unwrap()
}

#[test]
fn a_short_board_gets_more_timed_runs_unless_repeat_is_given() {
    assert_eq!(repeat_of(&[]), 15);
    assert_eq!(repeat_of(&["-r", "2"]), 2);
    let help = stdout_of(&["scale", "--help"]);
    assert!(
        help.contains("[default: 3, more for a short board]"),
        "{help}"
    );
}

#[test]
#[cfg(target_os = "linux")]
fn count_notes_a_busy_machine_as_scale_does() {
    // A spinning loop and the count on one CPU: the count gets about half of it.
    let Ok(mut hog) = std::process::Command::new("taskset")
        .args(["-c", "0", "sh", "-c", "while :; do :; done"])
        .spawn()
    else {
        eprintln!("no taskset: skipped");
        return;
    };
    let out = std::process::Command::new("taskset")
        .args(["-c", "0"])
        .arg(env!("CARGO_BIN_EXE_nqueens"))
        .args(["count", "17", "-t", "1"])
        .output();
    let _ = hog.kill();
    let _ = hog.wait();
    let out = out.unwrap();
    assert!(out.status.success(), "{out:?}");
    let stderr = String::from_utf8(out.stderr).unwrap();
    let note = the_line(&stderr, |l| l.contains("other programs"));
    assert!(
        note.starts_with("nqueens: note: other programs were using the CPUs: the count received ")
            && note.contains("of the CPU time its 1 thread asked for"),
        "{stderr}"
    );
}
