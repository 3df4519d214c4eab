//! One flag per kind of thing: the count limit (`--limit`), the refusal threshold
//! (`--max-seconds`), the time budget (`--budget-seconds`), `-a/--algorithm`,
//! `--progress-seconds` and `scale --warmup`; the former spellings still work, hidden from help.

use crate::util::{self, nqueens, stdout_of, usage_error, usage_error_of};

/// The words of `command --help`.
fn help_words(command: &str) -> Vec<String> {
    stdout_of(&[command, "--help"])
        .split(|c: char| c.is_whitespace() || c == ',' || c == '(' || c == ')' || c == ';')
        .map(str::to_string)
        .collect()
}

/// The algorithm column of `compare 8 -f csv` with `args`.
fn compared(args: &[&str]) -> Vec<String> {
    let mut all = vec!["compare", "8", "-f", "csv"];
    all.extend_from_slice(args);
    stdout_of(&all)
        .lines()
        .skip(1)
        .map(|line| line.split(',').next().unwrap().to_string())
        .collect()
}

#[test]
fn each_renamed_flag_works_under_its_new_and_its_former_name() {
    // watch: the count limit is --limit, as list's.
    let json = |flag: &str| stdout_of(&["watch", "4", "-f", "json", flag, "3"]);
    let new = json("--limit");
    // Three steps, then the line that ends them.
    assert_eq!(new.lines().count(), 4, "{new}");
    assert_eq!(new, json("--max-steps"));
    // estimate: the time budget is --budget-seconds.
    let budget = |flag: &str| {
        let csv = stdout_of(&["estimate", "10", flag, "0.5", "-t", "1", "-f", "csv"]);
        csv.lines()
            .nth(1)
            .unwrap()
            .split(',')
            .nth(8)
            .unwrap()
            .to_string()
    };
    assert_eq!(budget("--budget-seconds"), "724");
    assert_eq!(budget("--seconds"), "724");
    assert!(
        usage_error(&["estimate", "12", "--budget-seconds", "1", "--samples", "10"])
            .contains("--budget-seconds"),
    );
    // compare: -a/--algorithm takes the list; --algorithms is its former spelling.
    for spelling in ["-a", "--algorithm", "--algorithms"] {
        assert_eq!(
            compared(&[spelling, "bitmask,attack"]),
            ["bitmask", "attack"],
            "{spelling}"
        );
    }
    // count: one algorithm under every spelling.
    for spelling in ["-a", "--algorithm", "--algorithms"] {
        let csv = stdout_of(&["count", "8", spelling, "bitmask", "-f", "csv"]);
        assert!(csv.lines().nth(1).unwrap().starts_with("8,92,"), "{csv}");
    }
}

#[test]
fn the_help_and_the_completions_name_each_flag_once_by_its_new_name() {
    for (command, shown, hidden) in [
        ("watch", "--limit", "--max-steps"),
        ("estimate", "--budget-seconds", "--seconds"),
        ("compare", "--algorithm", "--algorithms"),
        ("count", "--algorithm", "--algorithms"),
        ("scale", "--warmup", "--warm-up"),
    ] {
        let words = help_words(command);
        assert!(words.iter().any(|w| w == shown), "{command}: no {shown}");
        assert!(!words.iter().any(|w| w == hidden), "{command}: {hidden}");
    }
    for command in ["count", "verify", "estimate", "scale"] {
        let words = help_words(command);
        assert!(words.iter().any(|w| w == "--progress-seconds"), "{command}");
    }
    let script = stdout_of(&["completions", "bash"]);
    let words: Vec<&str> = script.split_whitespace().collect();
    for former in ["--max-steps", "--seconds", "--algorithms"] {
        assert!(!words.contains(&former), "{former}");
    }
    for new in [
        "--limit",
        "--budget-seconds",
        "--algorithm",
        "--warmup",
        "--progress-seconds",
    ] {
        assert!(words.contains(&new), "{new}");
    }
    let man = stdout_of(&["man"]);
    for former in [r"\-\-max\-steps", r"\-\-seconds\fR", r"\-\-algorithms"] {
        assert!(!man.contains(former), "{former}");
    }
    for new in [r"\-\-limit\fR", r"\-\-budget\-seconds", r"\-\-warmup"] {
        assert!(man.contains(new), "{new}");
    }
    // Each time flag says its kind.
    let help = stdout_of(&["count", "--help"]);
    assert!(help.contains("A refusal threshold"), "{help}");
    let help = stdout_of(&["estimate", "--help"]);
    assert!(help.contains("A budget: "), "{help}");
    let help = stdout_of(&["list", "--help"]);
    assert!(help.contains("A wait for progress"), "{help}");
    assert!(help.contains("A count limit"), "{help}");
    let help = stdout_of(&["verify", "--help"]);
    assert!(help.contains("not a limit on the work"), "{help}");
}

#[test]
fn progress_seconds_is_bounded_like_its_variable_and_refused_in_one_line() {
    for command in [
        &["count", "8"][..],
        &["verify", "8"],
        &["estimate", "8"],
        &["scale", "8", "-t", "1", "-r", "1"],
    ] {
        for bad in ["0.05", "0", "-1", "31536001", "1e300", "soon", "NaN", "inf"] {
            let mut args = command.to_vec();
            let flag = format!("--progress-seconds={bad}");
            args.push(&flag);
            let err = usage_error(&args);
            assert!(err.contains("--progress-seconds"), "{args:?}: {err}");
            assert!(err.contains("from 0.1 to 31536000"), "{args:?}: {err}");
        }
        for good in ["0.1", "31536000", " 2 "] {
            let mut args = command.to_vec();
            args.extend(["--progress-seconds", good, "-q"]);
            nqueens().args(&args).assert().success();
        }
    }
}

#[test]
fn progress_seconds_wins_over_its_variable() {
    // A variable the flag overrides is not read: not even a bad one is refused.
    nqueens()
        .args(["count", "8", "--progress-seconds", "60"])
        .env("NQUEENS_PROGRESS_SECONDS", "soon")
        .assert()
        .success();
    // Without the flag it is refused, as before.
    let err = usage_error_of(
        nqueens().env("NQUEENS_PROGRESS_SECONDS", "soon"),
        &["count", "8"],
    );
    assert!(err.contains("NQUEENS_PROGRESS_SECONDS="), "{err}");
    // The flag's short interval, not the variable's hour, sets the lines of a count; and the
    // flag's hour silences what the variable's short interval would write.
    for (flag, variable, lines_written) in [("0.1", "3600", true), ("3600", "0.1", false)] {
        let out = nqueens()
            .args(["count", "16", "-t", "1", "--kernel", "depth-first"])
            .args(["--progress-seconds", flag])
            .env("NQUEENS_PROGRESS_SECONDS", variable)
            .output()
            .unwrap();
        assert!(out.status.success());
        let lines = util::progress_lines(&out.stderr);
        assert_eq!(
            lines.iter().any(|l| l.starts_with("nqueens: n = 16: ")),
            lines_written,
            "--progress-seconds {flag}, NQUEENS_PROGRESS_SECONDS={variable}: {lines:?}"
        );
    }
}

#[test]
fn scale_warmup_sets_the_untimed_runs_of_each_thread_count() {
    // The refusal counts the runs it would make: timed and warm-up.
    for (warmup, runs) in [("0", "2 runs"), ("1", "3 runs"), ("2", "4 runs")] {
        let err = usage_error(&[
            "scale",
            "20",
            "-t",
            "1",
            "-r",
            "2",
            "--warmup",
            warmup,
            "--max-seconds",
            "0.001",
        ]);
        assert!(
            err.contains(&format!("({runs} of each thread count)")),
            "--warmup {warmup}: {err}"
        );
    }
    // The study records them, and says them in its table.
    for (warmup, said) in [("0", "after no warm-up"), ("2", "after 2 warm-ups")] {
        let args = [
            "scale",
            "8",
            "-t",
            "1",
            "-r",
            "1",
            "--kernel",
            "depth-first",
        ];
        let json = stdout_of(&[&args[..], &["--warmup", warmup, "-f", "json"]].concat());
        let studies: serde_json::Value = serde_json::from_str(&json).unwrap();
        let study = &studies[0];
        assert_eq!(study["warmup"].to_string(), warmup, "{json}");
        let table = stdout_of(&[&args[..], &["--warmup", warmup]].concat());
        assert!(table.contains(said), "{table}");
    }
    let table = stdout_of(&[
        "scale",
        "8",
        "-t",
        "1",
        "-r",
        "1",
        "--kernel",
        "depth-first",
    ]);
    assert!(table.contains("after one warm-up"), "{table}");
    // The progress lines count every run: 2 thread counts x (2 warm-ups + 1 timed run).
    let out = nqueens()
        .args(["scale", "15", "-t", "2", "-r", "1", "--warmup", "2"])
        .args(["--kernel", "depth-first", "--progress-seconds", "0.1"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let lines = util::progress_lines(&out.stderr);
    let progress: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("nqueens: n = 15: "))
        .collect();
    assert!(!progress.is_empty(), "no progress line: {lines:?}");
    assert!(
        progress.iter().all(|l| l.contains(" of 6 runs done, ")),
        "{progress:?}"
    );
}

#[test]
fn bad_warmups_are_refused_in_one_line() {
    for bad in ["-1", "1001", "x", "1.5"] {
        let flag = format!("--warmup={bad}");
        let err = usage_error(&["scale", "8", "-t", "1", &flag]);
        assert!(
            err.contains("warm-up runs") || err.contains("--warmup"),
            "{bad}: {err}"
        );
    }
    let err = usage_error(&["scale", "--compare", "a.json", "--warmup", "2"]);
    assert!(err.contains("--warmup"), "{err}");
}
