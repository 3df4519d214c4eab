//! `nqueens list`: streaming, counts, formats, limits, and bad input.

use std::collections::HashSet;
use std::io::{BufRead, BufReader};
use std::process::Stdio;

use nqueens::board::Placement;
use predicates::prelude::*;

use crate::util::{nqueens, nqueens_process, usage_error};

fn list(args: &[&str]) -> assert_cmd::assert::Assert {
    nqueens().arg("list").args(args).assert()
}

fn lines(assert: &assert_cmd::assert::Assert) -> Vec<Vec<u32>> {
    String::from_utf8(assert.get_output().stdout.clone())
        .unwrap()
        .lines()
        .map(|l| l.split_whitespace().map(|c| c.parse().unwrap()).collect())
        .collect()
}

#[test]
fn every_solution_is_listed_once_and_valid() {
    for n in 0..=10u32 {
        for (flag, want) in [
            (None, nqueens::known::Known::of(n).map(|k| k.total)),
            (
                Some("--unique"),
                nqueens::known::Known::of(n).map(|k| k.unique),
            ),
        ] {
            let nn = n.to_string();
            let mut args = vec![nn.as_str()];
            args.extend(flag);
            // No solution (n = 2, 3) is exit code 1 and one line on stderr, as for `solve`.
            let done = list(&args);
            let done = if want == Some(0) {
                done.code(1)
                    .stderr(predicates::str::contains("no solution"))
            } else {
                done.success()
            };
            let listed = lines(&done);
            assert_eq!(Some(listed.len() as u128), want, "n={n} {flag:?}");
            let distinct: HashSet<&Vec<u32>> = listed.iter().collect();
            assert_eq!(distinct.len(), listed.len());
            assert!(listed.windows(2).all(|w| w[0] < w[1]), "lexicographic");
            for s in &listed {
                assert!(Placement::new(s.clone()).is_solution(), "{s:?}");
            }
        }
    }
}

#[test]
fn fourteen_queens_list_365596_lines() {
    let a = list(&["14"]).success();
    let out = &a.get_output().stdout;
    assert_eq!(out.iter().filter(|&&b| b == b'\n').count(), 365_596);
}

#[test]
fn limit_stops_early_and_is_required_for_large_boards() {
    let listed = lines(&list(&["8", "--limit", "3"]).success());
    assert_eq!(listed.len(), 3);
    assert_eq!(listed[0], [0, 4, 7, 5, 2, 6, 1, 3]);
    let listed = lines(&list(&["27", "--limit", "2", "--unique"]).success());
    assert_eq!(listed.len(), 2);
    assert!(Placement::new(listed[1].clone()).is_solution());
    let a = list(&["21"]).code(2).stdout("");
    let err = String::from_utf8(a.get_output().stderr.clone()).unwrap();
    assert_eq!(err.lines().count(), 1);
    assert!(err.contains("314,666,222,712 solutions") && err.contains("--limit"));
}

#[test]
fn json_is_one_array_of_records_that_name_their_n() {
    let a = list(&["6", "--format", "json"]).success();
    let records: Vec<serde_json::Value> = serde_json::from_slice(&a.get_output().stdout).unwrap();
    assert!(records.iter().all(|r| r["n"] == 6), "{records:?}");
    let v: Vec<Vec<u32>> = records
        .iter()
        .map(|r| serde_json::from_value(r["columns"].clone()).unwrap())
        .collect();
    assert_eq!(
        v,
        [
            [1, 3, 5, 0, 2, 4],
            [2, 5, 1, 4, 0, 3],
            [3, 0, 4, 1, 5, 2],
            [4, 2, 0, 5, 3, 1]
        ]
    );
    let a = list(&["3", "--format", "json"]).code(1);
    let v: Vec<Vec<u32>> = serde_json::from_slice(&a.get_output().stdout).unwrap();
    assert!(v.is_empty());
}

#[test]
fn board_format_numbers_and_draws_each_solution() {
    list(&["4", "--format", "board", "--unicode"])
        .success()
        .stdout(
            "solution 1: 1 3 0 2\n. ♛ . .\n. . . ♛\n♛ . . .\n. . ♛ .\n\n\
             solution 2: 2 0 3 1\n. . ♛ .\n♛ . . .\n. . . ♛\n. ♛ . .\n",
        );
}

#[test]
fn a_closed_pipe_ends_the_listing_quietly() {
    let mut child = nqueens_process()
        .args(["list", "14"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut reader = BufReader::new(child.stdout.take().unwrap());
    for _ in 0..3 {
        let mut line = String::new();
        reader.read_line(&mut line).unwrap();
        let columns: Vec<u32> = line
            .split_whitespace()
            .map(|c| c.parse().unwrap())
            .collect();
        assert_eq!(columns.len(), 14);
        assert!(Placement::new(columns).is_solution());
    }
    drop(reader); // close the pipe, like `head -3`
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success(), "{:?}", output.status);
    assert!(
        output.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

#[test]
fn bad_input_is_one_line_and_exit_2() {
    for bad in [
        &["65"][..],
        &["x"],
        &["8", "--limit", "0"],
        &["8", "--limit", "-3"],
        &["8", "--format", "csv"],
    ] {
        let a = list(bad).code(2).stdout("");
        let err = String::from_utf8(a.get_output().stderr.clone()).unwrap();
        assert_eq!(err.lines().count(), 1, "{bad:?}: {err}");
        assert!(err.starts_with("nqueens: error:"), "{bad:?}");
    }
    list(&["4"]).success().stderr(predicate::str::is_empty());
}

#[test]
fn board_style_flags_without_boards_are_refused_not_ignored() {
    for args in [
        &["list", "8", "--coordinates"][..],
        &["list", "8", "--unicode", "--format", "json"],
        &["solve", "8", "--format", "columns", "--coordinates"],
    ] {
        let err = usage_error(args);
        assert!(err.contains("add --format board"), "{args:?}: {err}");
    }
    list(&["6", "--format", "board", "--coordinates"]).success();
}
