//! `nqueens estimate`: its JSON, table and CSV, and bad input refused in one line.

use crate::util::{nqueens, stdout_of, usage_error};

fn json_of(args: &[&str]) -> serde_json::Value {
    let out = nqueens().args(args).output().unwrap();
    assert!(out.status.success(), "{out:?}");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    v[0].clone()
}

#[test]
fn json_has_every_field_and_repeats_with_the_seed() {
    let one = json_of(&[
        "estimate",
        "12",
        "--samples",
        "400",
        "--seed",
        "9",
        "--threads",
        "1",
        "--format",
        "json",
    ]);
    for field in [
        "n",
        "strategy",
        "kernel",
        "seed",
        "samples",
        "total",
        "total_low",
        "total_high",
        "unique",
        "core_time",
        "core_time_low",
        "core_time_high",
        "wall_time",
        "wall_time_10000",
        "largest_task_share",
        "covered_fraction",
        "known_total",
    ] {
        assert!(!one[field].is_null(), "{field} missing: {one}");
    }
    assert_eq!(one["known_total"], 14200);
    assert_eq!(one["samples"], 400);
    let two = json_of(&[
        "estimate",
        "12",
        "--samples",
        "400",
        "--seed",
        "9",
        "--threads",
        "2",
        "--format",
        "json",
    ]);
    assert_eq!(one["total"], two["total"]);
    assert_eq!(one["total_high"], two["total_high"]);
}

#[test]
fn the_table_and_csv_name_the_estimate() {
    let text = stdout_of(&["estimate", "11", "--samples", "100"]);
    assert!(
        text.contains("known total") && text.contains("2,680"),
        "{text}"
    );
    let text = stdout_of(&["estimate", "11", "--seconds", "0.2", "--format", "csv"]);
    assert!(text.starts_with("n,strategy,kernel,seed,samples"), "{text}");
    assert_eq!(text.lines().count(), 2);
}

#[test]
fn bad_input_gets_one_line_and_exit_2() {
    for args in [
        &["estimate", "3"][..],
        &["estimate", "33"],
        &["estimate", "x"],
        &["estimate", "12", "--seconds", "0"],
        &["estimate", "12", "--seconds", "-1"],
        &["estimate", "12", "--samples", "0"],
        &["estimate", "12", "--samples", "1"],
        &["estimate", "12", "--threads", "0"],
        &["estimate", "12", "--samples", "10", "--seconds", "1"],
    ] {
        usage_error(args);
    }
}

#[test]
fn an_interval_never_goes_below_zero() {
    // Two samples: an interval wide enough that its normal lower end fell below 0 (seed 4 gave
    // a total from -21.7 million, and every seed a negative time).
    for seed in ["1", "4"] {
        let v = json_of(&[
            "estimate",
            "16",
            "--samples",
            "2",
            "--seed",
            seed,
            "-f",
            "json",
        ]);
        for field in ["total_low", "unique_low", "core_time_low"] {
            let low = v[field].as_f64().unwrap();
            assert!(low >= 0.0, "seed {seed}: {field} = {low}");
        }
    }
}

/// A board whose count is cheaper than the budget left is counted, and says so: the total is
/// exact, its interval a point, and the table names why it stopped.
#[test]
fn a_small_board_is_counted_exactly_and_says_so() {
    for (n, known) in [("14", 365_596u64), ("17", 95_815_104)] {
        let e = json_of(&["estimate", n, "--threads", "2", "--format", "json"]);
        assert_eq!(e["stopped"], "counted", "{e}");
        assert_eq!(e["total"], known, "{e}");
        assert_eq!(e["total_low"], e["total_high"], "{e}");
        assert_eq!(e["covered_fraction"], 1.0, "{e}");
    }
    let table = stdout_of(&["estimate", "12", "--threads", "1"]);
    assert!(table.contains("14,200 (counted exactly)"), "{table}");
    assert!(
        table.contains("counted exactly: cheaper than sampling"),
        "{table}"
    );
    assert!(table.contains("the count matches it"), "{table}");
}

/// A large board spends its budget on samples, and so does a small one told to
/// (`--full-budget`); a fixed sample says it drew what was asked.
#[test]
fn a_large_board_spends_its_budget_and_says_so() {
    let large = json_of(&["estimate", "28", "--seconds", "1", "--format", "json"]);
    assert_eq!(large["stopped"], "budget", "{large}");
    assert!(large["samples"].as_u64().unwrap() > 0, "{large}");
    let small = json_of(&[
        "estimate",
        "12",
        "--seconds",
        "0.3",
        "--full-budget",
        "--format",
        "json",
    ]);
    assert_eq!(small["stopped"], "budget", "{small}");
    assert!(
        small["total_low"].as_f64() < small["total_high"].as_f64(),
        "{small}"
    );
    let fixed = json_of(&["estimate", "12", "--samples", "50", "--format", "json"]);
    assert_eq!(fixed["stopped"], "samples", "{fixed}");
    let both = usage_error(&["estimate", "12", "--samples", "50", "--full-budget"]);
    assert!(both.contains("--full-budget"), "{both}");
}

/// A budget that building the plan alone spends says so before the sampling starts, and still
/// gives an estimate from one pilot run.
#[test]
fn a_budget_spent_on_the_plan_is_said() {
    let out = nqueens()
        .args(["estimate", "32", "--seconds", "0.001", "--format", "json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.starts_with("nqueens: warning: building the plan of n = 32 took "),
        "{err}"
    );
    assert!(err.contains("of the 1.00 ms budget"), "{err}");
    let e: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(e[0]["stopped"], "budget", "{e}");
    assert!(e[0]["samples"].as_u64().unwrap() >= 2, "{e}");
}

/// An interrupted estimate writes the estimate of the samples drawn before it, marked stopped,
/// says so on stderr and exits 130, as an interrupted count does.
#[cfg(unix)]
#[test]
fn an_interrupted_estimate_writes_what_it_has_marked_stopped() {
    use std::process::Stdio;
    use std::time::Duration;
    let mut child = crate::util::nqueens_process()
        .args(["estimate", "16", "--samples", "100000000", "--threads", "1"])
        .args(["--format", "json"])
        .env("NQUEENS_PROGRESS_SECONDS", "0.1")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stderr = crate::util::first_line_then_rest_on_a_thread(child.stderr.take().unwrap());
    // A progress line: a round of samples is whole, so the interrupt keeps it.
    let first = stderr.recv_timeout(Duration::from_secs(60)).unwrap();
    assert!(first.contains("sample"), "{first}");
    let (out, rest) = crate::util::stop(
        child,
        "INT",
        &stderr,
        Duration::from_secs(60),
        "the estimate",
    );
    assert_eq!(out.status.code(), Some(130), "{rest}");
    assert!(
        rest.contains("stopping after the running samples"),
        "{rest}"
    );
    assert!(
        rest.contains("nqueens: interrupted: the estimate rests on"),
        "{rest}"
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let e = &v[0];
    assert_eq!(e["stopped"], "stopped", "{e}");
    let samples = e["samples"].as_u64().unwrap();
    assert!((2..100_000_000).contains(&samples), "{e}");
    let (low, high) = (
        e["total_low"].as_f64().unwrap(),
        e["total_high"].as_f64().unwrap(),
    );
    assert!(low >= 0.0 && low < high, "{e}");
}

#[test]
fn the_short_help_gives_the_time_budget_s_default_as_figures() {
    let help = crate::util::help_words(&["estimate", "-h"]);
    assert!(
        help.contains(
            "[default: 5 up to n = 16, rising by board to 60 from n = 24: --help gives each]"
        ),
        "{help}"
    );
    assert!(!help.contains("follows the board]"), "{help}");
    // The long help gives each board's default.
    let long = crate::util::help_words(&["estimate", "--help"]);
    assert!(
        long.contains("5 up to n = 16, 10 to 19, 20 to 21, 30 to 23 and 60 from 24"),
        "{long}"
    );
}
