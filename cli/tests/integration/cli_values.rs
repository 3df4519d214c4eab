//! Values checked where they enter: sizes that would reach an allocation or a loop, paths and
//! strings from files shown safely, the Slurm environment of a re-run array task, and the words
//! of the refusals.

use std::path::Path;
use std::process::Output;

use crate::util::{self, failure_in, nqueens_process, stderr, usage_error_in};

/// Checks that `text` holds no byte that a terminal would act on: no ESC, BEL, newline inside a
/// line, or other control character (a trailing newline ends each line).
fn assert_no_controls(text: &str, what: &str) {
    let bad: Vec<char> = text
        .chars()
        .filter(|&c| c != '\n' && (c.is_control() || ('\u{202a}'..='\u{202e}').contains(&c)))
        .collect();
    assert!(bad.is_empty(), "{what}: {bad:?} in {text:?}");
}

/// A file name made to retitle the terminal and clear it.
const TITLE_AND_CLEAR: &str = "\u{1b}]2;pwned\u{7}\u{1b}[2J.ckpt";

#[test]
fn a_merged_path_with_escape_sequences_is_shown_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let out = nqueens_process()
        .current_dir(dir.path())
        .args(["merge", TITLE_AND_CLEAR])
        .output()
        .unwrap();
    let text = failure_in(&out);
    assert_no_controls(&text, "merge");
    assert!(
        text.contains(r"cannot open journal \e]2;pwned\x07\e[2J.ckpt: No such file"),
        "{text}"
    );
}

#[test]
fn a_name_with_a_newline_prints_no_line_of_its_own() {
    let dir = tempfile::tempdir().unwrap();
    let name = "a\nnqueens: 92 solutions, all good.ckpt";
    let count = |n: &str| {
        nqueens_process()
            .current_dir(dir.path())
            .args(["count", n, "--shard", "0/2", "--checkpoint", name])
            .output()
            .unwrap()
    };
    assert!(count("8").status.success());
    // Resumed: the journal is named on stderr.
    let resumed = count("8");
    let text = stderr(&resumed);
    assert_no_controls(&text, "resume");
    assert!(
        text.contains(r"nqueens: a\nnqueens: 92 solutions, all good.ckpt: resuming"),
        "{text}"
    );
    // Refused for another board: the journal is named in the error.
    let text = usage_or_failure(&count("9"));
    assert!(text.contains(r"journal a\nnqueens: 92 solutions"), "{text}");
    // Merged with its other shard missing: one line, escaped.
    let out = nqueens_process()
        .current_dir(dir.path())
        .args(["merge", name])
        .output()
        .unwrap();
    let text = failure_in(&out);
    assert!(text.contains("shard 1/2"), "{text}");
    // Named twice: refused, the name escaped.
    let out = nqueens_process()
        .current_dir(dir.path())
        .args(["merge", name, name])
        .output()
        .unwrap();
    let text = usage_error_in(&out);
    let named = r"journal a\nnqueens: 92 solutions, all good.ckpt is given twice";
    assert!(text.contains(named), "{text}");
}

/// The one-line refusal of a finished command, a usage error or a failure.
fn usage_or_failure(out: &Output) -> String {
    match out.status.code() {
        Some(2) => usage_error_in(out),
        _ => failure_in(out),
    }
}

/// A saved `scale` result of n = 8 with `cpu` and `strategy` replaced.
fn crafted_result(dir: &Path, cpu: &str, strategy: &str) -> std::path::PathBuf {
    let out = util::stdout_of(&["scale", "8", "-t", "1", "-r", "1", "--format", "json", "-q"]);
    let mut value: serde_json::Value = serde_json::from_str(&out).unwrap();
    value[0]["run"]["cpu"] = cpu.into();
    value[0]["strategy"] = strategy.into();
    let path = dir.join("crafted.json");
    std::fs::write(&path, value.to_string()).unwrap();
    path
}

#[test]
fn strings_of_a_saved_result_reach_no_terminal_table_or_spreadsheet_raw() {
    let dir = tempfile::tempdir().unwrap();
    let file = crafted_result(
        dir.path(),
        "\u{1b}]2;pwned\u{7}\u{1b}[2JEvil\nCPU\u{202e}",
        "=HYPERLINK(\"http://x\")",
    );
    let file = file.to_str().unwrap();
    for format in ["table", "csv", "json"] {
        let out = util::nqueens()
            .args(["scale", "--compare", file, "--format", format])
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", stderr(&out));
        let text = String::from_utf8(out.stdout).unwrap();
        assert_no_controls(&text, format);
        // JSON's strings are the same as the table's, as JSON writes them.
        let text = match format {
            "json" => text.replace(r"\\", r"\").replace(r#"\""#, "\""),
            _ => text,
        };
        assert!(
            text.contains(r"\e]2;pwned\x07\e[2JEvil\nCPU\u{202E}"),
            "{text}"
        );
        assert!(text.contains("'=HYPERLINK("), "{format}: {text}");
    }
    let csv = util::stdout_of(&["scale", "--compare", file, "--format", "csv"]);
    for line in csv.lines().skip(1) {
        // No cell starts a formula: the strategy and the label are made text.
        let formula = line
            .split(',')
            .any(|cell| cell.trim_start_matches('"').starts_with(['=', '+', '@']));
        assert!(!formula, "{line}");
    }
}

#[test]
fn a_system_error_is_given_in_the_systems_words() {
    let dir = tempfile::tempdir().unwrap();
    let read_only = dir.path().join("ro");
    std::fs::create_dir(&read_only).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = |path: &Path, mode| {
            std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap()
        };
        mode(dir.path(), 0o755);
        mode(&read_only, 0o555);
        let mut command = nqueens_process();
        // SAFETY: geteuid only reads the process's effective user id.
        if unsafe { libc::geteuid() } == 0 {
            // Root writes anywhere: the refusal is seen as another user.
            let dropped = std::process::Command::new("setpriv")
                .args(["--reuid=65534", "--regid=65534", "--clear-groups", "true"])
                .status();
            if !dropped.is_ok_and(|s| s.success()) {
                println!("note: setpriv is unavailable: the read-only directory is not tried");
                return;
            }
            command = std::process::Command::new("setpriv");
            command
                .args(["--reuid=65534", "--regid=65534", "--clear-groups"])
                .arg(env!("CARGO_BIN_EXE_nqueens"));
        }
        let out = command
            .args(["man", "--dir"])
            .arg(&read_only)
            .output()
            .unwrap();
        let text = failure_in(&out);
        assert!(text.ends_with(": Permission denied\n"), "{text}");
    }
}

/// The command under test, with a guard against a hang (not a measurement).
fn guarded() -> assert_cmd::Command {
    let mut command = util::nqueens();
    command.timeout(std::time::Duration::from_secs(60));
    command
}

#[test]
fn a_sample_too_large_to_draw_is_refused_in_one_line_naming_the_limit() {
    for samples in ["18446744073709551615", "10000000000", "1000000001"] {
        let text = util::usage_error_of(&mut guarded(), &["estimate", "12", "--samples", samples]);
        assert!(
            text.contains("the number of samples must be from 2 to 1000000000"),
            "{samples}: {text}"
        );
    }
    let text = util::usage_error_of(&mut guarded(), &["estimate", "12", "--seconds", "1e300"]);
    assert!(
        text.contains("the budget must be at most 86400 seconds (a day)"),
        "{text}"
    );
}

#[test]
fn every_count_option_given_a_negative_says_it_cannot_be_negative() {
    for (args, what) in [
        (&["watch", "--max-steps", "-1"][..], "the number of steps"),
        (&["estimate", "12", "--seed", "-1"][..], "the seed"),
        (
            &["estimate", "12", "--samples", "-1"][..],
            "the number of samples",
        ),
        (&["known", "--max", "-1"][..], "the largest n"),
        (&["verify", "--max", "-1"][..], "the largest n"),
        (&["list", "8", "--limit", "-1"][..], "the limit"),
        (
            &["scale", "8", "--repeat", "-1"][..],
            "the number of timed runs",
        ),
        (
            &["scale", "8", "--model-up-to", "-1"][..],
            "the number of modelled threads",
        ),
        (&["count", "8", "--threads", "-1"][..], "a thread count"),
        (&["scale", "8", "--threads", "1,-2"][..], "a thread count"),
        (&["watch", "--speed", "-1"][..], "a speed"),
        (&["count", "-1"][..], "a board size"),
        (
            &["count", "8", "--max-seconds", "-1"][..],
            "a number of seconds",
        ),
        (
            &["estimate", "12", "--seconds", "-5"][..],
            "a number of seconds",
        ),
        (
            &["list", "8", "--give-up-after", "-1"][..],
            "a number of seconds",
        ),
    ] {
        let text = util::usage_error_of(&mut guarded(), args);
        assert!(
            text.contains(&format!("{what} cannot be negative")),
            "{args:?}: {text}"
        );
        assert!(!text.contains("invalid digit"), "{args:?}: {text}");
    }
}

#[test]
fn a_value_that_is_no_number_is_named_without_rusts_words() {
    for args in [
        &["watch", "--max-steps", "x"][..],
        &["estimate", "12", "--seed", "1.5"][..],
        &["known", "--max", "x"][..],
        &["verify", "--max", "99999999999999999999"][..],
    ] {
        let text = util::usage_error_of(&mut guarded(), args);
        for rusts in ["invalid digit", "too large to fit", "is not in 0..="] {
            assert!(!text.contains(rusts), "{args:?}: {text}");
        }
    }
}

/// `count 12 --shard SPEC --checkpoint FILE` in `dir` with the Slurm array environment `env`
/// (and no other Slurm variable).
fn slurm_count(dir: &Path, spec: &str, file: &str, env: &[(&str, &str)]) -> Output {
    let mut command = nqueens_process();
    command
        .current_dir(dir)
        .args(["count", "12", "--shard", spec, "--checkpoint", file]);
    for (name, _) in std::env::vars_os() {
        if name.to_string_lossy().starts_with("SLURM_") {
            command.env_remove(name);
        }
    }
    command.envs(env.iter().copied()).output().unwrap()
}

/// What `sbatch --array=2` sets: one task, whose id is 2.
const RERUN_OF_TASK_2: [(&str, &str); 4] = [
    ("SLURM_ARRAY_TASK_ID", "2"),
    ("SLURM_ARRAY_TASK_MIN", "2"),
    ("SLURM_ARRAY_TASK_MAX", "2"),
    ("SLURM_ARRAY_TASK_COUNT", "1"),
];

#[test]
fn a_rerun_array_task_is_refused_unless_the_shard_count_is_given() {
    let dir = tempfile::tempdir().unwrap();
    let out = slurm_count(dir.path(), "slurm", "s2.ckpt", &RERUN_OF_TASK_2);
    let text = usage_error_in(&out);
    assert!(
        text.contains("--shard slurm: SLURM_ARRAY_TASK_COUNT is 1 (SLURM_ARRAY_TASK_ID=2)"),
        "{text}"
    );
    assert!(text.contains("--shard slurm/M (shard 2 of M)"), "{text}");
    assert!(!dir.path().join("s2.ckpt").exists());

    // Given the shard count, the task id is the shard, and the shard is named.
    let out = slurm_count(dir.path(), "slurm/4", "s2.ckpt", &RERUN_OF_TASK_2);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("nqueens: --shard slurm/4: shard 2/4 (SLURM_ARRAY_TASK_ID=2)"),
        "{}",
        stderr(&out)
    );
    let table = String::from_utf8(out.stdout).unwrap();
    assert!(table.contains(" 2/4 "), "{table}");
    // It merges with the other three shards to the known total.
    for k in [0, 1, 3] {
        let file = format!("s{k}.ckpt");
        let out = slurm_count(dir.path(), &format!("{k}/4"), &file, &[]);
        assert!(out.status.success(), "{}", stderr(&out));
    }
    let out = nqueens_process()
        .current_dir(dir.path())
        .args([
            "merge", "s0.ckpt", "s1.ckpt", "s2.ckpt", "s3.ckpt", "--format", "csv",
        ])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(String::from_utf8_lossy(&out.stdout).contains("\n12,14200,1787,"));

    // A task id that is not a shard of M, and M = 0, are refused.
    let out = slurm_count(dir.path(), "slurm/2", "x.ckpt", &RERUN_OF_TASK_2);
    assert!(usage_error_in(&out).contains("SLURM_ARRAY_TASK_ID=2 is not a shard of 2"));
    let out = slurm_count(dir.path(), "slurm/0", "x.ckpt", &RERUN_OF_TASK_2);
    assert!(usage_error_in(&out).contains("at least 1"));
    assert!(!dir.path().join("x.ckpt").exists());
}

/// Every value name is read in any case: formats, kernels, strategies, placements,
/// algorithms, colours and shells.
#[test]
fn value_names_are_read_in_any_case() {
    let csv = |args: &[&str]| {
        let out = nqueens_process().args(args).output().unwrap();
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
        String::from_utf8(out.stdout).unwrap()
    };
    assert!(csv(&["count", "8", "--format", "JSON"]).contains("\"total\": 92"));
    let count = csv(&[
        "count",
        "8",
        "-f",
        "Csv",
        "--kernel",
        "Depth-First",
        "--strategy",
        "MIRROR",
        "--pin",
        "None",
        "--color",
        "NEVER",
    ]);
    assert!(count.contains("8,92,12,"), "{count}");
    assert!(count.contains(",mirror,depth-first,"), "{count}");
    assert!(csv(&["count", "8", "-a", "BitMask", "-f", "csv"]).contains(",bitmask"));
    assert!(csv(&["solve", "8", "--format", "COLUMNS"]).starts_with("0 4 7 5 2 6 1 3"));
    assert!(csv(&["completions", "BASH"]).contains("complete -F"));
}

/// One spelling per idea: `-a`/`--algorithm` names the algorithm of every command, and the
/// plural, which `compare` lists first as it takes several, is accepted everywhere.
#[test]
fn every_command_spells_the_algorithm_alike() {
    let run = |args: &[&str]| {
        let out = nqueens_process().args(args).output().unwrap();
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
        String::from_utf8(out.stdout).unwrap()
    };
    for spelling in ["-a", "--algorithm", "--algorithms"] {
        let count = run(&["count", "8", spelling, "attack", "-f", "csv"]);
        assert!(
            count.contains("8,92,") && count.contains(",attack"),
            "{count}"
        );
        let compare = run(&["compare", "6", spelling, "bitmask", "-f", "csv"]);
        assert!(compare.starts_with("algorithm,") && compare.contains("\nbitmask,6,4,"));
        let watch = run(&["watch", "4", spelling, "bitmask", "--format", "json"]);
        let watch = watch.lines().next().unwrap_or_default();
        assert!(watch.contains("\"algorithm\":\"bitmask\""), "{watch}");
    }
}
