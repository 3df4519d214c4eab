//! One word per quantity: no help text, table, JSON key, CSV column or stderr line of any
//! command uses a word the glossary (docs/ARCHITECTURE.md, "Glossary") retired.

use crate::util::{nqueens, stdout_of};

/// Words retired from everything a user reads, each with the glossary's word that replaced it.
/// A single word matches whole words only (`compute`, not `computed`); a phrase matches as it
/// stands.
const RETIRED: &[(&str, &str)] = &[
    ("probe", "sample"),
    ("probes", "samples"),
    ("board side", "board size"),
    ("compute", "core time"),
    ("core-seconds", "core time"),
    ("core_seconds", "core_time"),
    ("search_seconds", "core_time"),
    ("all_runs_search_seconds", "all_runs_core_time"),
    ("workers", "threads"),
    ("worker-time", "thread time"),
    ("threatened", "attacked"),
    ("instrumented_seconds", "instrumented_wall_time"),
    ("expected_total", "known_total"),
    ("expected_unique", "known_unique"),
];

/// Table headings and labels retired: a cell that is just one of these names a time or a thread
/// count the glossary names otherwise.
const RETIRED_LABELS: &[(&str, &str)] = &[
    ("time", "wall time"),
    ("took", "wall time"),
    ("compute", "core time"),
    ("workers", "threads"),
    ("elapsed", "wall time"),
];

/// The words of `text`, lower case: runs of letters, digits and `_`.
fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// The retired words and labels found in `text`, each with its replacement, for the message.
fn retired_in(text: &str) -> Vec<String> {
    let lower = text.to_lowercase();
    let words = words(text);
    let mut found: Vec<String> = RETIRED
        .iter()
        .filter(|(old, _)| {
            if old.contains(|c: char| !(c.is_alphanumeric() || c == '_')) {
                lower.contains(old)
            } else {
                words.iter().any(|w| w == old)
            }
        })
        .map(|(old, new)| format!("'{old}' (say '{new}')"))
        .collect();
    // Table cells: the text between the borders, split where two spaces or more part them.
    for line in text
        .lines()
        .filter(|l| l.starts_with('|') && l.ends_with('|'))
    {
        for cell in line.trim_matches('|').split("  ").map(str::trim) {
            if let Some((old, new)) = RETIRED_LABELS.iter().find(|(old, _)| cell == *old) {
                found.push(format!("the label '{old}' (say '{new}') in {line}"));
            }
        }
    }
    found
}

/// Runs `nqueens ARGS` in `dir`, expects success, and returns stdout and stderr together.
fn output_in(dir: &std::path::Path, args: &[&str]) -> String {
    let out = nqueens()
        .current_dir(dir)
        .args(args)
        .assert()
        .success()
        .get_output()
        .clone();
    String::from_utf8(out.stdout).unwrap() + &String::from_utf8(out.stderr).unwrap()
}

/// Every command, as `--help` and the manual name them.
const COMMANDS: &[&str] = &[
    "count",
    "verify",
    "known",
    "solve",
    "list",
    "compare",
    "watch",
    "scale",
    "merge",
    "estimate",
    "completions",
    "man",
];

#[test]
fn the_checker_finds_each_retired_word_and_label() {
    // The texts of the versions before the glossary was carried through.
    assert_eq!(retired_in("draws exactly K probes").len(), 1);
    assert_eq!(retired_in("Board side, 4 to 32.").len(), 1);
    assert_eq!(retired_in("\"all_runs_search_seconds\": 1.5").len(), 1);
    // The word, and both labels.
    assert_eq!(retired_in("| n   total   time   compute |").len(), 3);
    assert_eq!(retired_in("|   took   10.0 s |").len(), 1);
    assert_eq!(retired_in("model (workers; the bound)").len(), 1);
    // What the glossary says instead, and words that only look alike.
    for fine in [
        "draws exactly K samples",
        "| n   total   wall time   core time |",
        "the count is computed; worker threads; the fastest timed run took 3 ms",
        "\"core_time\": 1.5, \"wall_time\": 2.5",
    ] {
        assert!(
            retired_in(fine).is_empty(),
            "{fine}: {:?}",
            retired_in(fine)
        );
    }
}

#[test]
fn no_help_text_uses_a_retired_word() {
    let dir = tempfile::tempdir().unwrap();
    let mut texts = vec![
        ("--help".to_string(), output_in(dir.path(), &["--help"])),
        ("man".to_string(), output_in(dir.path(), &["man"])),
    ];
    for shell in ["bash", "zsh", "fish"] {
        texts.push((
            format!("completions {shell}"),
            output_in(dir.path(), &["completions", shell]),
        ));
    }
    for command in COMMANDS {
        for help in ["--help", "-h"] {
            texts.push((
                format!("{command} {help}"),
                output_in(dir.path(), &[command, help]),
            ));
        }
    }
    let found: Vec<String> = texts
        .iter()
        .flat_map(|(what, text)| {
            retired_in(text)
                .into_iter()
                .map(move |w| format!("{what}: {w}"))
        })
        .collect();
    assert!(found.is_empty(), "{found:#?}");
}

#[test]
fn no_output_of_any_command_uses_a_retired_word() {
    let dir = tempfile::tempdir().unwrap();
    let mut runs: Vec<Vec<&str>> = Vec::new();
    for format in ["table", "json", "csv"] {
        runs.extend([
            vec!["count", "8", "-t", "2", "-f", format],
            vec!["count", "8", "-a", "bitmask", "-f", format],
            vec!["verify", "8", "-t", "2", "-f", format],
            vec!["known", "--max", "8", "-f", format],
            vec!["compare", "6", "-f", format],
            vec![
                "scale", "8", "-t", "1,2", "-r", "1", "--warmup", "0", "-f", format,
            ],
            vec![
                "estimate",
                "10",
                "--samples",
                "200",
                "-t",
                "2",
                "-f",
                format,
            ],
        ]);
    }
    runs.extend([
        vec!["solve", "8"],
        vec!["list", "6"],
        vec!["list", "6", "-f", "json"],
        vec!["watch", "5", "--limit", "60"],
        vec!["watch", "5", "--limit", "60", "-f", "json"],
        vec!["watch", "5", "--limit", "60", "-a", "matrix"],
        vec!["estimate", "12"],
        // A count resumed from its journal has a table of its own.
        vec!["count", "8", "--checkpoint", "n8.ckpt"],
        vec!["count", "8", "--checkpoint", "n8.ckpt"],
        vec!["count", "8", "--checkpoint", "n8.ckpt", "-f", "json"],
        vec!["count", "9", "--shard", "0/2", "--checkpoint", "a.ckpt"],
        vec!["count", "9", "--shard", "1/2", "--checkpoint", "b.ckpt"],
        vec!["merge", "a.ckpt", "b.ckpt"],
        vec!["merge", "a.ckpt", "b.ckpt", "-f", "json"],
        vec!["merge", "a.ckpt", "b.ckpt", "-f", "csv"],
    ]);
    let found: Vec<String> = runs
        .iter()
        .flat_map(|args| {
            let text = output_in(dir.path(), args);
            retired_in(&text)
                .into_iter()
                .map(|w| format!("nqueens {}: {w}", args.join(" ")))
                .collect::<Vec<_>>()
        })
        .collect();
    assert!(found.is_empty(), "{found:#?}");
}

/// A study saved before the model's thread counts were named `threads` (they were `workers`)
/// is read back as one saved with the new name.
#[test]
fn a_saved_study_with_the_former_model_key_is_read_back() {
    let dir = tempfile::tempdir().unwrap();
    let saved = dir.path().join("old.json");
    let study = stdout_of(&["scale", "8", "-t", "1", "-r", "1", "-f", "json"]);
    assert!(study.contains("\"threads\": 256"), "{study}");
    std::fs::write(
        &saved,
        study.replace("\"threads\": 256", "\"workers\": 256"),
    )
    .unwrap();
    let fresh = dir.path().join("new.json");
    std::fs::write(&fresh, &study).unwrap();
    // Read as it was written: the same speedups, medians and thread counts. (The short-run
    // warning's suggested board comes from a cost measured then and there: left out.)
    let compared = stdout_of(&["scale", "--compare", saved.to_str().unwrap(), "-f", "json"]);
    let again = stdout_of(&["scale", "--compare", fresh.to_str().unwrap(), "-f", "json"]);
    assert_eq!(
        without_suggested_board(&compared.replace("old.json", "new.json")),
        without_suggested_board(&again)
    );
}

/// `text` with the board the short-run warning suggests ("a larger n such as 17") left out.
fn without_suggested_board(text: &str) -> String {
    const SUGGESTION: &str = "a larger n such as ";
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find(SUGGESTION) {
        let after = &rest[at + SUGGESTION.len()..];
        out.push_str(&rest[..at + SUGGESTION.len()]);
        rest = after.trim_start_matches(|c: char| c.is_ascii_digit());
    }
    out.push_str(rest);
    out
}
