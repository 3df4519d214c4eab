//! Shell completions, the manual pages and `--version`'s list of kernels.

use crate::util::{failure, nqueens, stdout_of, usage_error};

use std::collections::BTreeSet;
use std::path::Path;

/// Every subcommand of `src/cli/args.rs` (clap adds `help`).
const SUBCOMMANDS: [&str; 12] = [
    "count",
    "known",
    "verify",
    "compare",
    "watch",
    "scale",
    "solve",
    "list",
    "merge",
    "estimate",
    "completions",
    "man",
];

/// The words of `text`: runs of letters, digits, `-` and `_`.
fn words(text: &str) -> BTreeSet<String> {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_'))
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect()
}

/// Asserts that `text` has every subcommand as a word of its own.
fn assert_names_every_subcommand(what: &str, text: &str) {
    let words = words(text);
    for name in SUBCOMMANDS {
        assert!(words.contains(name), "{what} does not name {name}");
    }
}

#[test]
fn the_subcommand_list_is_the_one_help_shows() {
    let help = stdout_of(&["--help"]);
    let listed: BTreeSet<&str> = help
        .lines()
        .skip_while(|line| *line != "Commands:")
        .skip(1)
        .take_while(|line| !line.is_empty())
        // A wrapped description is indented deeper than the command names.
        .filter(|line| line.starts_with("  ") && !line.starts_with("   "))
        .filter_map(|line| line.split_whitespace().next())
        .collect();
    let expected: BTreeSet<&str> = SUBCOMMANDS.into_iter().chain(["help"]).collect();
    assert_eq!(listed, expected, "{help}");
}

#[test]
fn completion_scripts_name_every_subcommand() {
    for (shell, marker) in [
        ("bash", "complete -F"),
        ("zsh", "#compdef nqueens"),
        ("fish", "complete -c nqueens"),
    ] {
        let script = stdout_of(&["completions", shell]);
        assert!(script.contains(marker), "{shell}: no '{marker}'");
        assert_names_every_subcommand(shell, &script);
    }
    for shell in ["elvish", "powershell"] {
        let script = stdout_of(&["completions", shell]);
        assert_names_every_subcommand(shell, &script);
    }
}

#[test]
fn an_unknown_shell_is_a_usage_error() {
    let err = usage_error(&["completions", "nosuchshell"]);
    assert!(err.contains("nosuchshell"), "{err}");
    usage_error(&["completions"]);
    usage_error(&["completions", "bash", "zsh"]);
}

#[test]
fn the_new_commands_have_examples() {
    for command in ["completions", "man"] {
        let help = stdout_of(&[command, "--help"]);
        assert!(
            help.contains("Examples:"),
            "{command} --help has no example"
        );
    }
}

/// Asserts that `page` looks like a roff manual page.
fn assert_roff(what: &str, page: &str) {
    assert!(
        page.starts_with(".ie") || page.starts_with(".TH"),
        "{what} is not roff: {}",
        page.lines().next().unwrap_or_default()
    );
    assert!(page.contains("\n.TH "), "{what} has no .TH line");
}

#[test]
fn the_manual_page_is_roff_and_names_every_subcommand() {
    let page = stdout_of(&["man"]);
    assert_roff("nqueens man", &page);
    assert!(page.contains(".TH nqueens 1"), "{page}");
    assert!(page.contains("Counts the solutions of the N"), "{page}");
    // The SUBCOMMANDS section refers to each command's own page.
    for name in SUBCOMMANDS {
        let reference = format!("\nnqueens\\-{name}(1)\n");
        assert!(
            page.contains(&reference),
            "the manual page does not name {name}"
        );
    }
    // The examples keep their lines and columns.
    assert!(
        page.contains("\n.SH EXAMPLES\n.nf\n  nqueens count 16 "),
        "{page}"
    );
    // The page is the same on every machine: no CPU-dependent kernel list.
    assert!(!page.contains("not on this CPU"), "{page}");
}

#[test]
fn man_dir_writes_one_page_per_command() {
    let dir = tempfile::tempdir().unwrap();
    // A regular file already there is replaced, and keeps its mode.
    std::fs::write(dir.path().join("nqueens-count.1"), "old").unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let private = std::fs::Permissions::from_mode(0o600);
        std::fs::set_permissions(dir.path().join("nqueens-count.1"), private).unwrap();
    }
    let listed = stdout_of(&["man", "--dir", dir.path().to_str().unwrap()]);
    let mut names = vec!["nqueens.1".to_string()];
    names.extend(SUBCOMMANDS.iter().map(|s| format!("nqueens-{s}.1")));
    let mut found: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|entry| entry.unwrap().file_name().into_string().unwrap())
        .collect();
    found.sort();
    names.sort();
    assert_eq!(found, names);
    assert_eq!(listed.lines().count(), names.len(), "{listed}");
    for name in &names {
        let path = dir.path().join(name);
        assert!(listed.contains(path.to_str().unwrap()), "{listed}");
        let page = std::fs::read_to_string(&path).unwrap();
        assert_roff(name, &page);
    }
    let count = std::fs::read_to_string(dir.path().join("nqueens-count.1")).unwrap();
    assert!(count.contains("\\-\\-checkpoint"), "{count}");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let meta = std::fs::metadata(dir.path().join("nqueens-count.1")).unwrap();
        assert_eq!(meta.permissions().mode() & 0o777, 0o600);
    }
}

#[test]
fn man_dir_creates_a_missing_directory_as_checkpoint_does() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("share/man/man1");
    let written = stdout_of(&["man", "--dir", missing.to_str().unwrap()]);
    assert!(missing.join("nqueens-count.1").is_file(), "{written}");
    let journals = dir.path().join("runs/");
    stdout_of(&["count", "6", "--checkpoint", journals.to_str().unwrap()]);
    assert!(journals.join("n6.ckpt").is_file());
}

#[test]
fn a_journal_in_a_missing_directory_is_refused_naming_the_directory() {
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("nonexistent/x.ckpt");
    let err = failure(&["count", "6", "--checkpoint", journal.to_str().unwrap()]);
    let missing = dir.path().join("nonexistent");
    assert!(
        err.contains(&format!(
            "the directory {} does not exist",
            missing.display()
        )),
        "{err}"
    );
    assert!(!missing.exists());
}

#[test]
fn man_dir_refuses_what_it_must_not_replace_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("file");
    std::fs::write(&file, "keep").unwrap();
    let err = failure(&["man", "--dir", file.to_str().unwrap()]);
    assert!(err.contains("not a directory"), "{err}");
    #[cfg(unix)]
    {
        let pages = dir.path().join("man1");
        std::fs::create_dir(&pages).unwrap();
        std::os::unix::fs::symlink(&file, pages.join("nqueens-list.1")).unwrap();
        let err = failure(&["man", "--dir", pages.to_str().unwrap()]);
        assert!(err.contains("symbolic link"), "{err}");
        // Nothing was written: the link is the only entry, and its target is untouched.
        assert_eq!(std::fs::read_dir(&pages).unwrap().count(), 1);
        assert!(!Path::new(&pages.join("nqueens.1")).exists());
        assert_eq!(std::fs::read_to_string(&file).unwrap(), "keep");
    }
}

#[test]
fn the_long_version_lists_the_kernels_of_this_cpu() {
    let version = env!("CARGO_PKG_VERSION");
    assert_eq!(stdout_of(&["-V"]), format!("nqueens {version}\n"));
    let long = stdout_of(&["--version"]);
    let mut lines = long.lines();
    assert_eq!(lines.next(), Some(format!("nqueens {version}").as_str()));
    let kernels = lines.next().unwrap_or_default();
    assert!(kernels.starts_with("kernels: "), "{long}");
    assert!(kernels.contains("depth-first"), "{long}");
    assert!(kernels.contains("portable-lanes"), "{long}");
    assert!(kernels.contains("(auto picks "), "{long}");
    let runs: Vec<&str> = kernels["kernels: ".len()..]
        .split(" (")
        .next()
        .unwrap_or_default()
        .split_whitespace()
        .collect();
    // The kernels this machine lacks: a CPU's instructions, or (with the gpu feature) an adapter.
    let rest: Vec<&str> = lines.collect();
    let lacking = |prefix: &str| -> Vec<&str> {
        rest.iter()
            .filter_map(|line| line.strip_prefix(prefix))
            .flat_map(str::split_whitespace)
            .collect()
    };
    let missing_cpu = lacking("not on this CPU: ");
    let missing_gpu = lacking("no GPU adapter for: ");
    assert!(missing_cpu.iter().all(|k| !k.starts_with("gpu")), "{long}");
    assert!(missing_gpu.iter().all(|k| k.starts_with("gpu")), "{long}");
    let missing: Vec<&str> = missing_cpu.iter().chain(&missing_gpu).copied().collect();
    // Every named kernel is listed once, on one line or the other.
    let mut all: Vec<&str> = runs.iter().chain(&missing).copied().collect();
    all.sort_unstable();
    let mut expected = vec!["avx512", "avx2", "neon", "portable-lanes", "depth-first"];
    if cfg!(feature = "gpu") {
        expected.extend(["gpu", "gpu-only"]);
    }
    expected.sort_unstable();
    assert_eq!(all, expected, "{long}");
    // A build without GPUs says so, and how to get one (the README's line).
    if !cfg!(feature = "gpu") {
        assert!(
            rest.contains(&"gpu: not in this build (cargo install --locked --path cli --features gpu builds the GPU kernels)"),
            "{long}"
        );
    }
    // The list agrees with what --kernel accepts.
    // (The GPU kernels need an adapter as well: tests/integration/gpu.rs runs them.)
    for kernel in runs.iter().filter(|k| !k.starts_with("gpu")) {
        nqueens()
            .args(["count", "6", "-t", "1", "--kernel", kernel])
            .assert()
            .success();
    }
    for kernel in &missing_cpu {
        let err = usage_error(&["count", "6", "-t", "1", "--kernel", kernel]);
        assert!(err.contains("this CPU lacks"), "{err}");
    }
    for kernel in &missing_gpu {
        let err = usage_error(&["count", "6", "-t", "1", "--kernel", kernel]);
        assert!(err.contains("no GPU adapter"), "{err}");
    }
}

/// The words a bash script offers after `OPTION` of `nqueens COMMAND`.
fn bash_offers(script: &str, command: &str, option: &str) -> Vec<String> {
    let block = script
        .split(&format!("nqueens__subcmd__{command})"))
        .nth(1)
        .unwrap_or_else(|| panic!("no {command} in the bash script"));
    let case = block
        .split(&format!("\n                {option})\n"))
        .nth(1)
        .unwrap_or_else(|| panic!("no {option} for {command}"));
    let reply = case.lines().next().unwrap_or_default();
    let words = reply
        .split("compgen -W \"")
        .nth(1)
        .unwrap_or_else(|| panic!("{command} {option} offers no words: {reply}"));
    words
        .split('"')
        .next()
        .unwrap()
        .split_whitespace()
        .map(str::to_string)
        .collect()
}

/// The kernels `nqueens --version` says this CPU runs.
fn kernels_of_this_cpu() -> Vec<String> {
    let version = stdout_of(&["--version"]);
    let line = version
        .lines()
        .find_map(|l| l.strip_prefix("kernels: "))
        .unwrap();
    line.split(" (")
        .next()
        .unwrap()
        .split_whitespace()
        .map(str::to_string)
        .collect()
}

#[test]
fn completions_offer_the_values_of_each_option() {
    let script = stdout_of(&["completions", "bash"]);
    let algorithms = ["matrix", "array", "attack", "bitmask"];
    for (command, option) in [("watch", "-a"), ("count", "-a"), ("compare", "--algorithm")] {
        assert_eq!(
            bash_offers(&script, command, option),
            algorithms,
            "{command} {option}"
        );
    }
    let mut kernels = vec!["auto".to_string()];
    kernels.extend(kernels_of_this_cpu());
    for command in ["count", "verify", "scale", "estimate"] {
        assert_eq!(
            bash_offers(&script, command, "--kernel"),
            kernels,
            "{command}"
        );
    }
    for command in ["count", "merge", "known"] {
        assert_eq!(
            bash_offers(&script, command, "--format"),
            ["table", "json", "csv"]
        );
    }
    let shells = ["bash", "elvish", "fish", "powershell", "zsh"];
    let words = script
        .split("nqueens__subcmd__completions)")
        .nth(1)
        .unwrap();
    let opts = words.lines().nth(1).unwrap_or_default();
    for shell in shells {
        assert!(opts.contains(shell), "{opts}");
    }
}

#[test]
fn a_shell_without_a_script_is_refused_with_the_shells_that_have_one() {
    let err = usage_error(&["completions", "tcsh"]);
    assert!(err.contains("no completion script for 'tcsh'"), "{err}");
    assert!(
        err.contains("there are scripts for bash, elvish, fish, powershell and zsh"),
        "{err}"
    );
    assert!(!err.contains("similar"), "{err}");
}

/// `-h` of `args` (at clap's width when there is no terminal) and `--help`.
fn short_and_long_help(args: &[&str]) -> (String, String) {
    let help = |flag: &str| {
        let out = nqueens()
            .args(args)
            .arg(flag)
            .env("COLUMNS", "100")
            .output()
            .unwrap();
        assert!(out.status.success(), "{args:?} {flag}");
        String::from_utf8(out.stdout).unwrap()
    };
    (help("-h"), help("--help"))
}

/// `-h` is a summary that fits a screen; `--help` has the whole text and the examples.
#[test]
fn short_help_fits_a_screen_and_long_help_says_more() {
    let mut commands = vec![vec![]];
    commands.extend(SUBCOMMANDS.iter().map(|c| vec![*c]));
    for args in commands {
        let (short, long) = short_and_long_help(&args);
        let lines = short.lines().count();
        assert!(lines <= 25, "{args:?} -h is {lines} lines:\n{short}");
        assert!(
            short.contains("(see more with '--help')"),
            "{args:?}: {short}"
        );
        assert!(!short.contains("Examples:"), "{args:?}: {short}");
        assert!(long.lines().count() > lines, "{args:?}");
        assert!(
            long.contains("Examples:"),
            "{args:?} --help has no examples"
        );
    }
    // The long explanations are in --help only.
    let (short, long) = short_and_long_help(&["count"]);
    assert!(
        !short.contains("NQUEENS_PROGRESS_SECONDS") && long.contains("NQUEENS_PROGRESS_SECONDS")
    );
    let (short, long) = short_and_long_help(&["scale"]);
    assert!(!short.contains("list-scheduling bound") && long.contains("list-scheduling bound"));
}
