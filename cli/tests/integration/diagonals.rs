//! One name for each diagonal direction everywhere: a ↘ diagonal keeps `row − column`, a ↙
//! anti-diagonal keeps `row + column`. Every line `watch` names (JSON events, narration) and
//! every conflict the library reports is checked here against the squares themselves.

use nqueens::board::{Conflict, Placement};
use serde_json::Value;

use crate::util::nqueens;

/// The line two distinct squares share, computed from the squares: `column`, `diagonal` (↘,
/// the same row − column) or `anti-diagonal` (↙, the same row + column).
fn geometric(a: (i64, i64), b: (i64, i64)) -> Option<&'static str> {
    if a.1 == b.1 {
        Some("column")
    } else if a.0 - a.1 == b.0 - b.1 {
        Some("diagonal")
    } else if a.0 + a.1 == b.0 + b.1 {
        Some("anti-diagonal")
    } else {
        None
    }
}

fn square(value: &Value) -> (i64, i64) {
    (value[0].as_i64().unwrap(), value[1].as_i64().unwrap())
}

/// A rejection (`row`, `col`, `line`, `by`) names a placed queen on the line it names, and the
/// first line they share (the column before the diagonals).
fn check_rejection(context: &str, queens: &[i64], rejection: &Value) -> (i64, i64, String) {
    let (row, col) = (
        rejection["row"].as_i64().unwrap(),
        rejection["col"].as_i64().unwrap(),
    );
    let by = square(&rejection["by"]);
    assert_eq!(
        queens.get(by.0 as usize),
        Some(&by.1),
        "{context}: {rejection}"
    );
    let line = rejection["line"].as_str().unwrap();
    assert_eq!(
        geometric(by, (row, col)),
        Some(line),
        "{context}: {rejection}"
    );
    (row, col, line.to_string())
}

#[test]
fn every_line_watch_names_is_the_line_the_squares_share() {
    for algorithm in ["matrix", "array", "attack", "bitmask"] {
        for n in 1..=8 {
            let output = nqueens()
                .args(["watch", &n.to_string(), "-a", algorithm])
                .args(["--format", "json", "--max-steps", "0"])
                .output()
                .unwrap();
            assert!(output.status.success(), "{output:?}");
            let mut queens: Vec<i64> = Vec::new();
            let mut rejections = 0;
            for text in String::from_utf8(output.stdout).unwrap().lines() {
                let event: Value = serde_json::from_str(text).unwrap();
                let context = format!("{algorithm} n={n}");
                let narration = event["narration"].as_str().unwrap_or("");
                match event["event"].as_str().unwrap() {
                    "reject" => {
                        let (row, col, line) = check_rejection(&context, &queens, &event);
                        let named = match line.as_str() {
                            "column" => "along its ↓ column".to_string(),
                            "diagonal" => {
                                format!("along a ↘ diagonal (row − column = {})", row - col)
                            }
                            _ => format!("along a ↙ anti-diagonal (row + column = {})", row + col),
                        };
                        assert!(narration.contains(&named), "{context}: {narration}");
                        rejections += 1;
                    }
                    "place" => {
                        let col = event["col"].as_i64().unwrap();
                        for rejected in event["rejected"].as_array().into_iter().flatten() {
                            check_rejection(&context, &queens, rejected);
                            rejections += 1;
                        }
                        queens.push(col);
                    }
                    "backtrack" => {
                        queens.pop();
                        // The rejections of the row below, whose queens are those left.
                        let below: Vec<i64> = queens.clone();
                        for rejected in event["rejected"].as_array().into_iter().flatten() {
                            let mut with = below.clone();
                            with.push(event["col"].as_i64().unwrap());
                            check_rejection(&context, &with, rejected);
                            rejections += 1;
                        }
                    }
                    _ => {}
                }
            }
            assert!(
                n < 2 || rejections > 0,
                "{algorithm} n={n}: no rejection seen"
            );
        }
    }
}

/// The constant a conflict message gives, and its line: `share a ↘ diagonal (row − column =
/// -1)`.
fn named_line(message: &str) -> Option<(&'static str, i64)> {
    for (name, words) in [
        ("diagonal", "share a ↘ diagonal (row − column = "),
        ("anti-diagonal", "share a ↙ anti-diagonal (row + column = "),
    ] {
        if let Some(at) = message.find(words) {
            let rest = &message[at + words.len()..];
            return Some((name, rest.trim_end_matches(')').parse().unwrap()));
        }
    }
    None
}

/// Every placement of n ≤ 6 (every column list) and a sample of 7 and 8: the conflict's
/// variant, message and constant agree with the two squares it names.
#[test]
fn every_conflict_names_the_line_its_two_queens_share() {
    let mut checked = 0;
    for n in 1..=8u32 {
        let total = (n as u64).pow(n);
        let stride = if n <= 6 { 1 } else { 7919 };
        let mut index = 0;
        while index < total {
            let mut columns = Vec::with_capacity(n as usize);
            let mut rest = index;
            for _ in 0..n {
                columns.push((rest % u64::from(n)) as u32);
                rest /= u64::from(n);
            }
            index += stride;
            let Err(conflict) = Placement::new(columns).check() else {
                continue;
            };
            let message = conflict.to_string();
            let (first, second, name) = match conflict {
                Conflict::Column { first, second } => (first, second, "column"),
                Conflict::Diagonal { first, second } => (first, second, "diagonal"),
                Conflict::AntiDiagonal { first, second } => (first, second, "anti-diagonal"),
                other => panic!("{other:?}"),
            };
            let a = (i64::from(first.row), i64::from(first.column));
            let b = (i64::from(second.row), i64::from(second.column));
            assert_eq!(geometric(a, b), Some(name), "{message}");
            if name != "column" {
                let (said, k) = named_line(&message).unwrap_or_else(|| panic!("{message}"));
                assert_eq!(said, name, "{message}");
                let expected = if name == "diagonal" {
                    a.0 - a.1
                } else {
                    a.0 + a.1
                };
                assert_eq!(k, expected, "{message}");
            }
            checked += 1;
        }
    }
    assert!(checked > 40_000, "{checked}");
}
