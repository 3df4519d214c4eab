//! The `nqueens` binary: output formats, exit codes and one-line errors.

use crate::util::{nqueens, nqueens_process, usage_error, usage_error_in};

use predicates::prelude::*;

#[test]
fn count_prints_a_table_by_default() {
    nqueens()
        .args(["count", "8", "--threads", "1"])
        .assert()
        .success()
        .stdout(predicate::str::contains("92"))
        .stdout(predicate::str::contains("total"))
        .stdout(predicate::str::contains("solutions/s"));
}

#[test]
fn count_json_is_an_array_with_the_documented_fields() {
    let out = nqueens()
        .args(["count", "4..=6", "--format", "json", "--threads", "2"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let value: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let rows = value.as_array().unwrap();
    assert_eq!(rows.len(), 3);
    let totals: Vec<u64> = rows.iter().map(|r| r["total"].as_u64().unwrap()).collect();
    assert_eq!(totals, [2, 10, 4]);
    for row in rows {
        for field in ["n", "total", "wall_time", "threads", "strategy", "unique"] {
            assert!(row.get(field).is_some(), "missing {field}: {row}");
        }
        // The threads the count ran on: boards this small are searched on the calling thread.
        assert_eq!(row["threads"], 1);
        assert_eq!(row["strategy"], "symmetric");
    }
    let single = nqueens()
        .args(["count", "8", "--format", "json"])
        .output()
        .unwrap();
    let value: serde_json::Value = serde_json::from_slice(&single.stdout).unwrap();
    assert_eq!(
        value.as_array().unwrap().len(),
        1,
        "one n is still an array"
    );
}

#[test]
fn count_csv_has_a_header_and_one_row_per_board() {
    let out = nqueens()
        .args(["count", "8,10,12", "--format", "csv", "-t", "1"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4);
    let header: Vec<&str> = lines[0].split(',').collect();
    for field in ["n", "total", "unique", "wall_time", "threads", "strategy"] {
        assert!(header.contains(&field), "missing {field} in {header:?}");
    }
    let totals: Vec<&str> = lines[1..]
        .iter()
        .map(|l| l.split(',').nth(1).unwrap())
        .collect();
    assert_eq!(totals, ["92", "724", "14200"]);
}

#[test]
fn the_empty_board_has_one_placement() {
    nqueens()
        .args(["count", "0", "--format", "csv"])
        .assert()
        .success()
        .stdout(predicate::str::contains("\n0,1,"));
}

#[test]
fn the_depth_first_kernel_gives_the_same_counts_from_the_command_line() {
    for strategy in ["mirror", "symmetric"] {
        let args = [
            "count",
            "12",
            "--format",
            "csv",
            "--strategy",
            strategy,
            "--kernel",
        ];
        nqueens()
            .args(args)
            .arg("depth-first")
            .assert()
            .success()
            .stdout(predicate::str::contains("\n12,14200,1787,"));
    }
}

#[test]
fn bad_input_is_one_line_and_exit_code_2() {
    // No such kernel.
    assert!(usage_error(&["count", "8", "--kernel", "tpu"]).contains("tpu"));
    // The GPU kernels, asked of a build without them, say how to get them.
    if !cfg!(feature = "gpu") {
        for kernel in ["gpu", "gpu-only"] {
            let error = usage_error(&["count", "8", "--kernel", kernel]);
            assert!(error.contains("--features gpu"), "{error}");
        }
        assert!(usage_error(&["scale", "8", "--kernel", "avx2,gpu"]).contains("--features gpu"));
    }
    assert!(usage_error(&["count", "65"]).contains("too large"));
    assert!(usage_error(&["count", "abc"]).contains("not a board size"));
    assert!(usage_error(&["count", "8", "--threads", "0"]).contains("at least 1"));
    assert!(usage_error(&["count", "9..=4"]).contains("reversed"));
    assert!(usage_error(&["count", "8", "--bogus"]).contains("--bogus"));
    assert!(usage_error(&["count", "8", "--format", "xml"]).contains("xml"));
    assert!(usage_error(&["count", "8", "--strategy", "magic"]).contains("magic"));
    assert!(usage_error(&["known", "--max", "99"]).contains("99"));
    assert!(usage_error(&["verify", "--max", "28"]).contains("28"));
    usage_error(&["count"]);
    usage_error(&["frobnicate"]);
}

/// A value that cannot be right is refused for what is wrong with it, in words the command's
/// own limits are written in.
#[test]
fn refusals_name_the_real_problem() {
    // Clap would read these as flags and suggest `-- -1`.
    for args in [
        &["count", "8", "--shard", "-1/4"][..],
        &["count", "8", "--shard=-1/4"],
        &["count", "8", "--shard", "1/-4"],
        &["count", "-5..=3"],
        &["verify", "-5..=3"],
        &["known", "-4,5"],
    ] {
        let err = usage_error(args);
        assert!(err.contains("cannot be negative"), "{args:?}: {err}");
        assert!(!err.contains("-- -"), "{args:?}: {err}");
    }
    // A mistyped flag before the board is still named as one.
    let err = usage_error(&["count", "--bogus", "8"]);
    assert!(err.contains("unexpected argument '--bogus'"), "{err}");
    // The range of the command, not of the integer type.
    let err = usage_error(&["estimate", "abc"]);
    assert!(err.contains("from 4 to 32"), "{err}");
    assert!(!err.contains("4294967295"), "{err}");
    // A limit in a few digits, however it was written.
    let err = usage_error(&["verify", "--max", "20", "--max-seconds", "1e-300"]);
    assert!(err.contains("(now 1e-300)"), "{err}");
    assert!(err.len() < 300, "{err}");
    // One of a thing is singular.
    let err = usage_error(&["verify", "--max", "20", "-t", "1", "--max-seconds", "1"]);
    assert!(err.contains("on 1 thread would need"), "{err}");
}

/// An error never echoes a huge path whole: its two ends are kept.
#[test]
fn a_long_path_is_shortened_in_errors() {
    let dir = tempfile::tempdir().unwrap();
    let long = format!("{}/{}", "d".repeat(4000), "run.ckpt");
    let path = dir.path().join("missing").join(&long);
    let out = nqueens()
        .args(["count", "8", "--checkpoint"])
        .arg(&path)
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("nqueens: error: "), "{err}");
    assert!(err.contains('…'), "{err}");
    assert!(err.contains("d/run.ckpt"), "{err}");
    assert!(err.len() < 400, "{} bytes: {err}", err.len());
}

#[test]
fn help_documents_every_command_with_an_example() {
    let top = nqueens().arg("--help").assert().success();
    let text = String::from_utf8(top.get_output().stdout.clone()).unwrap();
    for command in [
        "count", "known", "verify", "solve", "list", "compare", "scale",
    ] {
        assert!(text.contains(command), "{command} missing from --help");
        let sub = nqueens().args([command, "--help"]).assert().success();
        let sub = String::from_utf8(sub.get_output().stdout.clone()).unwrap();
        assert!(sub.contains("Examples:"), "{command} --help has no example");
    }
}

#[test]
fn known_prints_the_table() {
    nqueens()
        .args(["known", "--max", "8", "--format", "csv"])
        .assert()
        .success()
        .stdout(predicate::str::starts_with("n,total,unique\n0,1,1\n"))
        .stdout(predicate::str::ends_with("8,92,12\n"));
}

#[test]
fn verify_reports_ok_for_every_board_and_exits_0() {
    let out = nqueens()
        .args(["verify", "--max", "10", "--format", "json", "-t", "2"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let value: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let rows = value.as_array().unwrap();
    assert_eq!(rows.len(), 11);
    assert!(rows.iter().all(|r| r["ok"] == true));
    let table = nqueens()
        .args(["verify", "--max", "6"])
        .assert()
        .success()
        .stdout(predicate::str::contains("ok"))
        .stdout(predicate::str::contains("MISMATCH").not())
        // Each known column says which count it is, and the end says how many matched.
        .stdout(predicate::str::contains("known total"))
        .stdout(predicate::str::contains("known unique"))
        .stdout(predicate::str::contains("expected").not())
        .stderr("nqueens: 7 of 7 boards match the known counts\n");
    drop(table);
    nqueens()
        .args(["verify", "8", "-q"])
        .assert()
        .success()
        .stderr("");
}

#[test]
fn a_closed_stdout_ends_quietly() {
    use std::process::Stdio;
    let mut child = nqueens_process()
        .args(["count", "0..=13", "--format", "csv", "-t", "1"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take()); // the reader goes away before anything is written
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{:?}", out.status);
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A usage error keeps clap's content on its one line: the missing argument, the tip, and the
/// subcommand's own help.
#[test]
fn usage_errors_keep_the_argument_the_tip_and_the_subcommand_help() {
    let err = usage_error(&["count"]);
    assert!(err.contains("<N>"), "{err}");
    assert!(err.contains("'nqueens count --help'"), "{err}");
    let err = usage_error(&["cont", "8"]);
    assert!(err.contains("similar subcommand exists: 'count'"), "{err}");
    let err = usage_error(&["scale", "8", "-t", "0"]);
    assert!(err.contains("'nqueens scale --help'"), "{err}");
    let err = usage_error(&["solve", "8", "--nope"]);
    assert!(err.contains("'--nope'"), "{err}");
    assert!(err.contains("'nqueens solve --help'"), "{err}");
}

/// Totals beyond 2^53 are exact integers in the JSON text: a parser that keeps integers reads
/// them back exactly, and one that reads doubles rounds the unique count of n = 27, as the
/// guide says.
#[test]
fn json_numbers_beyond_two_to_the_53_are_exact_in_the_text() {
    let out = nqueens()
        .args(["known", "27", "--format", "json"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("\"unique\": 29363495934315694"), "{text}");
    let exact: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(exact[0]["unique"].as_u64(), Some(29_363_495_934_315_694));
    let doubles: Vec<std::collections::HashMap<String, f64>> = serde_json::from_str(&text).unwrap();
    assert_eq!(doubles[0]["unique"], 29_363_495_934_315_696.0);
    assert_ne!(doubles[0]["unique"] as u64, 29_363_495_934_315_694);
}

/// Values that do not go together are refused when the command line is read, before any command
/// runs, as clap's own refusals are: one line that points to the command's help, exit 2, no
/// journal made.
#[test]
fn values_that_do_not_go_together_are_refused_with_the_arguments() {
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("j.ckpt");
    let journal = journal.to_str().unwrap();
    let cases: [(&[&str], &str); 8] = [
        (
            &["count", "8,9", "--shard", "0/2", "--checkpoint", journal],
            "--shard counts one board",
        ),
        (&["count", "8", "--shard", "0/2"], "--checkpoint"),
        (
            &["compare", "6", "-a", "bitmask,bitmask"],
            "bitmask is listed twice in --algorithm",
        ),
        (
            &["solve", "8", "--unicode", "-f", "columns"],
            "--unicode changes how boards are drawn",
        ),
        (
            &["list", "8", "--coordinates"],
            "--coordinates changes how boards are drawn",
        ),
        (&["list", "21"], "listing every solution of n = 21"),
        (&["known", "30"], "no known count for n = 30"),
        (&["verify", "5,29"], "no known count for n = 29"),
    ];
    for (args, why) in cases {
        let out = nqueens_process().args(args).output().unwrap();
        let line = usage_error_in(&out);
        assert!(line.contains(why), "{args:?}: {line}");
        let help = format!("(see 'nqueens {} --help')", args[0]);
        assert!(line.trim_end().ends_with(&help), "{args:?}: {line}");
    }
    assert!(!std::path::Path::new(journal).exists());
}
