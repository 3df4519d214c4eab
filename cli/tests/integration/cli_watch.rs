//! `nqueens watch` without a screen: frames, JSON lines, the step cap and usage errors.

use serde_json::Value;

use crate::util::{nqueens, stdout_of, usage_error};

/// The JSON lines of `nqueens watch ARGS --format json`.
fn lines(args: &[&str]) -> Vec<Value> {
    let output = nqueens()
        .arg("watch")
        .args(args)
        .args(["--format", "json"])
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn the_final_counters_are_compares_for_every_algorithm_and_board_up_to_8() {
    for algorithm in ["matrix", "array", "attack", "bitmask"] {
        for n in 1..=8 {
            let n = n.to_string();
            let compare = nqueens()
                .args(["compare", &n, "-a", algorithm, "--format", "json"])
                .output()
                .unwrap();
            assert!(compare.status.success(), "{compare:?}");
            let compare: Value = serde_json::from_slice(&compare.stdout).unwrap();
            let expected = &compare[0];
            let watched = lines(&[&n, "-a", algorithm, "--max-steps", "0"]);
            let done = watched.last().unwrap();
            assert_eq!(done["event"], "done");
            assert_eq!(done["complete"], true);
            for key in ["nodes", "candidates", "diagonal_checks"] {
                assert_eq!(done[key], expected[key], "{algorithm} n={n} {key}");
            }
            assert_eq!(done["solutions"], expected["total"], "{algorithm} n={n}");
        }
    }
}

#[test]
fn json_has_one_step_per_line_with_the_events_of_the_search() {
    let steps = lines(&["4", "-a", "array"]);
    let events: Vec<&str> = steps.iter().map(|s| s["event"].as_str().unwrap()).collect();
    assert_eq!(events[..3], ["place", "reject", "reject"]);
    assert_eq!(steps[1]["line"], "column");
    assert_eq!(steps[1]["by"], serde_json::json!([0, 0]));
    assert_eq!(steps[2]["line"], "diagonal");
    assert_eq!(events.iter().filter(|e| **e == "solution").count(), 2);
    assert!(events.contains(&"backtrack"));
    // Step numbers count up from 1 with no gap.
    for (i, step) in steps[..steps.len() - 1].iter().enumerate() {
        assert_eq!(step["step"], i as u64 + 1);
    }
}

#[test]
fn the_step_cap_stops_the_output_and_says_so() {
    let output = nqueens()
        .args(["watch", "12", "--format", "json", "--max-steps", "50"])
        .output()
        .unwrap();
    assert!(output.status.success());
    let text = String::from_utf8(output.stdout).unwrap();
    assert_eq!(text.lines().count(), 51);
    assert!(text.lines().last().unwrap().contains("\"complete\":false"));
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(stderr.contains("stopped after 50 steps"), "{stderr}");
}

#[test]
fn frames_show_the_board_the_narration_and_the_structure() {
    // Standard output is a pipe here: frames are the default.
    let text = stdout_of(&["watch", "4", "-a", "bitmask"]);
    assert!(text.contains("--- step 1 · bitmask · 4 x 4"), "{text}");
    assert!(text.contains(" 0 [Q] x  x  x "), "{text}");
    // One step per queen: row 1's free mask holds columns 2 and 3, and the lowest gets it.
    assert!(
        text.contains(
            "row 1: free = ~(cols | ld | rd) has columns 2 3; the lowest bit left, column 2, gets \
             the queen: on to row 2"
        ),
        "{text}"
    );
    assert!(text.contains("free     0 0 1 1  ~(cols|ld|rd)"), "{text}");
    assert!(text.contains("ld    ↘  0 1 0 0  <<1 a row"), "{text}");
    assert!(text.contains("solutions 2 of 2"));
    assert!(
        text.trim_end()
            .ends_with("nodes 16 | candidates 60 | diagonal checks 60 | solutions 2 of 2")
    );
    // The array search rejects square by square, naming the line with its arrow.
    let text = stdout_of(&["watch", "4", "-a", "array"]);
    assert!(
        text.contains(
            "row 1: column 1 is attacked along a ↘ diagonal (row − column = 0) by the queen on \
             row 0 (queens[0] = 0 is on it)"
        ),
        "{text}"
    );
}

#[test]
fn bad_arguments_are_one_line_usage_errors() {
    for args in [
        &["watch", "0"][..],
        &["watch", "65"],
        &["watch", "8", "-a", "quantum"],
        &["watch", "8", "--speed", "0"],
        &["watch", "8", "--format", "csv"],
        &["watch", "8", "--frames", "--format", "json"],
    ] {
        let message = usage_error(args);
        assert!(!message.is_empty(), "{args:?}");
    }
}
