//! `count` and `verify` report unique counts in every format, with either strategy.

use predicates::str::contains;

use crate::util::nqueens;

#[test]
fn count_reports_unique_in_every_format() {
    for strategy in ["symmetric", "mirror"] {
        nqueens()
            .args([
                "count",
                "8",
                "--threads",
                "2",
                "--format",
                "csv",
                "--strategy",
                strategy,
            ])
            .assert()
            .success()
            .stdout(contains("n,total,unique,"))
            .stdout(contains("8,92,12,"))
            .stdout(contains(strategy));
    }
    nqueens()
        .args(["count", "10", "--format", "json"])
        .assert()
        .success()
        .stdout(contains("\"unique\": 92"))
        .stdout(contains("\"strategy\": \"symmetric\""));
    nqueens()
        .args(["count", "6"])
        .assert()
        .success()
        .stdout(contains("unique"));
}

#[test]
fn verify_checks_unique_counts_too() {
    let out = nqueens()
        .args(["verify", "--max", "11", "--format", "csv"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let mut lines = text.lines().map(|line| line.split(',').collect::<Vec<_>>());
    let header = lines.next().unwrap();
    let last = lines.next_back().unwrap();
    let field = |name: &str| last[header.iter().position(|h| *h == name).unwrap()];
    let checked = ["n", "total", "known_total", "unique", "known_unique", "ok"].map(field);
    assert_eq!(
        checked,
        ["11", "2680", "2680", "341", "341", "true"],
        "{text}"
    );
}

#[test]
fn an_unknown_strategy_is_a_usage_error() {
    nqueens()
        .args(["count", "8", "--strategy", "fastest"])
        .assert()
        .code(2)
        .stderr(contains("fastest"));
}
