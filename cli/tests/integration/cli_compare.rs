//! `nqueens compare` and `nqueens count --algorithm` from the outside: formats, agreement,
//! refusals and usage errors.

use predicates::prelude::*;
use serde_json::Value;

use crate::util::{self, nqueens, usage_error};

fn json(args: &[&str]) -> Vec<Value> {
    let output = nqueens().args(args).output().unwrap();
    assert!(output.status.success(), "{output:?}");
    serde_json::from_slice::<Value>(&output.stdout)
        .unwrap()
        .as_array()
        .unwrap()
        .clone()
}

#[test]
fn json_has_one_object_per_algorithm_with_the_documented_fields() {
    let rows = json(&["compare", "6", "--format", "json"]);
    let names: Vec<&str> = rows
        .iter()
        .map(|r| r["algorithm"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["matrix", "array", "attack", "bitmask"]);
    for row in &rows {
        assert_eq!(row["n"], 6);
        assert_eq!(row["total"], 4);
        assert_eq!(row["nodes"], 152);
        // 6 squares per extended partial board: 6 * (1 + 152 - 4).
        assert_eq!(row["candidates"], 894);
        assert!(row["diagonal_checks"].as_u64().unwrap() > 0);
        assert!(row["wall_time"].as_f64().unwrap() >= 0.0);
        assert!(row["instrumented_wall_time"].as_f64().unwrap() >= 0.0);
        assert!(row["speedup"].is_number() || row["speedup"].is_null());
    }
    assert_eq!(rows[1]["diagonal_checks"], rows[2]["diagonal_checks"]);
    assert_eq!(rows[0]["diagonal_checks"], rows[0]["candidates"]);
}

#[test]
fn the_algorithms_flag_selects_and_orders() {
    let rows = json(&[
        "compare",
        "8",
        "--algorithms",
        "bitmask,attack",
        "-f",
        "json",
    ]);
    let names: Vec<&str> = rows
        .iter()
        .map(|r| r["algorithm"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["bitmask", "attack"]);
    assert!(rows.iter().all(|r| r["total"] == 92));
}

#[test]
fn an_algorithm_named_twice_is_refused() {
    for list in ["array,array", "bitmask,attack,bitmask"] {
        let err = usage_error(&["compare", "8", "--algorithms", list]);
        assert!(err.contains("listed twice"), "{err}");
    }
}

#[test]
fn counting_with_a_slow_algorithm_for_years_is_refused_up_front() {
    let err = util::usage_error_of(
        nqueens().timeout(std::time::Duration::from_secs(60)),
        &["count", "30", "--algorithm", "array"],
    );
    assert!(
        err.starts_with("nqueens: error: counting with array would need about"),
        "{err}"
    );
    assert!(err.contains("--max-seconds"), "{err}");
    nqueens()
        .args(["count", "9", "--algorithm", "array", "--max-seconds", "100"])
        .assert()
        .success()
        .stdout(predicate::str::contains("352"));
}

#[test]
fn csv_has_a_header_and_one_line_per_algorithm() {
    nqueens()
        .args(["compare", "5", "--format", "csv"])
        .assert()
        .success()
        .stdout(predicate::str::starts_with(
            "algorithm,n,total,nodes,candidates,diagonal_checks,wall_time,",
        ))
        .stdout(predicate::str::contains("\nmatrix,5,10,53,"))
        .stdout(predicate::function(|s: &str| s.lines().count() == 5));
}

#[test]
fn the_table_shows_every_algorithm_and_the_speedup() {
    nqueens()
        .args(["compare", "7"])
        .assert()
        .success()
        .stdout(predicate::str::contains("diagonal checks"))
        .stdout(predicate::str::contains("speedup"))
        .stdout(predicate::str::contains("matrix"))
        .stdout(predicate::str::contains("bitmask"))
        .stdout(predicate::str::contains("40"));
}

#[test]
fn a_comparison_that_would_take_minutes_is_refused_with_advice() {
    let err = usage_error(&["compare", "15"]);
    assert!(
        err.starts_with("nqueens: error: array for n = 15 would need about"),
        "{err}"
    );
    assert!(err.contains("--algorithm matrix"), "{err}");
}

#[test]
fn naming_faster_algorithms_lifts_the_refusal() {
    let rows = json(&[
        "compare",
        "12",
        "--algorithms",
        "attack,bitmask",
        "-f",
        "json",
    ]);
    assert!(rows.iter().all(|r| r["total"] == 14200));
}

#[test]
fn an_unknown_algorithm_is_one_line_and_exit_2() {
    for args in [
        &["compare", "8", "--algorithms", "quantum"][..],
        &["count", "8", "--algorithm", "quantum"][..],
    ] {
        let err = usage_error(args);
        assert!(err.contains("quantum"), "{err}");
    }
}

#[test]
fn bad_board_sizes_are_usage_errors() {
    for n in ["65", "x", "-3"] {
        usage_error(&["compare", n]);
    }
}

#[test]
fn count_with_an_algorithm_matches_the_known_totals() {
    for algorithm in ["matrix", "array", "attack", "bitmask"] {
        let rows = json(&["count", "4..=8", "--algorithm", algorithm, "-f", "json"]);
        let totals: Vec<u64> = rows.iter().map(|r| r["total"].as_u64().unwrap()).collect();
        assert_eq!(totals, [2, 10, 4, 40, 92], "{algorithm}");
        assert!(
            rows.iter()
                .all(|r| r["algorithm"] == algorithm && r["threads"] == 1)
        );
    }
}

#[test]
fn count_with_an_algorithm_refuses_engine_options() {
    for flag in [
        &["--threads", "2"][..],
        &["--strategy", "mirror"][..],
        &["--kernel", "depth-first"][..],
    ] {
        nqueens()
            .args(["count", "8", "--algorithm", "array"])
            .args(flag)
            .assert()
            .code(2)
            .stderr(predicate::str::contains("cannot be used with"))
            .stderr(predicate::function(|s: &str| s.lines().count() == 1));
    }
}

#[test]
fn the_help_documents_the_options_with_examples() {
    nqueens()
        .args(["compare", "--help"])
        .assert()
        .success()
        .stdout(predicate::str::contains("-a, --algorithm <NAME[,NAME...]>"))
        .stdout(predicate::str::contains("--max-seconds"))
        .stdout(predicate::str::contains("nqueens compare 10"));
    nqueens()
        .args(["count", "--help"])
        .assert()
        .success()
        .stdout(predicate::str::contains("-a, --algorithm <NAME>"))
        .stdout(predicate::str::contains("--algorithms").not());
}

#[test]
fn count_names_the_command_that_runs_several_algorithms() {
    let err = usage_error(&["count", "8", "--algorithms", "matrix,bitmask"]);
    assert!(
        err.contains("nqueens compare N --algorithm matrix,bitmask"),
        "{err}"
    );
    assert!(!err.contains("unknown algorithm"), "{err}");
}

#[test]
fn max_seconds_refuses_engine_counts_too() {
    // Without --algorithm it used to answer that --algorithms was required.
    let err = usage_error(&["count", "26", "--max-seconds", "10"]);
    assert!(err.starts_with("nqueens: error: counting n = 26"), "{err}");
    assert!(err.contains("raise --max-seconds (now 10)"), "{err}");
    nqueens()
        .args(["count", "10", "--max-seconds", "10"])
        .assert()
        .success();
}
