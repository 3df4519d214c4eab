//! `-q` for every command, the hints of a mistyped command line, and an interrupt of a count
//! whose standard output is a closed pipe.

use std::process::Stdio;
use std::time::Duration;

use crate::util::{nqueens, nqueens_process, read_rest_on_a_thread, stop, usage_error};

/// Every subcommand takes `-q` and `--quiet`, before or after its arguments.
#[test]
fn every_command_takes_quiet() {
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("n6.ckpt");
    nqueens()
        .args(["count", "6", "--checkpoint"])
        .arg(&journal)
        .assert()
        .success();
    let journal = journal.to_str().unwrap();
    let pages = dir.path().join("man1");
    let pages = pages.to_str().unwrap();
    let commands: [&[&str]; 13] = [
        &["count", "6"],
        &["known", "6"],
        &["verify", "6"],
        &["compare", "6", "-a", "bitmask"],
        &["watch", "4", "--frames", "--max-steps", "2"],
        &["scale", "6", "-t", "1", "-r", "1"],
        &["solve", "6"],
        &["list", "6"],
        &["merge", journal],
        &["estimate", "8", "--samples", "20"],
        &["completions", "bash"],
        &["man"],
        &["man", "--dir", pages],
    ];
    let names = subcommands();
    for args in commands {
        assert!(names.contains(&args[0].to_string()), "{}", args[0]);
    }
    for name in &names {
        assert!(
            commands.iter().any(|args| args[0] == name),
            "{name} is not tried with -q"
        );
    }
    for args in commands {
        for quiet in ["-q", "--quiet"] {
            let out = nqueens().args(args).arg(quiet).output().unwrap();
            let err = String::from_utf8_lossy(&out.stderr);
            assert!(out.status.success(), "{args:?} {quiet}: {err}");
            assert!(err.is_empty(), "{args:?} {quiet}: {err}");
        }
        let out = nqueens().arg("-q").args(args).output().unwrap();
        assert!(out.status.success(), "-q {args:?}");
    }
}

/// `-q` hides warnings and notes as it hides the bar; errors are still said.
#[test]
fn quiet_hides_warnings_and_notes_but_not_errors() {
    // More threads than logical CPUs: a warning.
    let many = (2 * num_cpus()).to_string();
    for args in [
        &["count", "8", "-t", many.as_str()][..],
        &["list", "6", "--max-seconds", "5"],
        &["watch", "4", "--format", "json", "--max-steps", "3"],
    ] {
        let loud = nqueens().args(args).output().unwrap();
        assert!(
            String::from_utf8_lossy(&loud.stderr).starts_with("nqueens: "),
            "{args:?}: without -q something is said"
        );
        let quiet = nqueens().args(args).arg("-q").output().unwrap();
        assert_eq!(quiet.status.code(), loud.status.code(), "{args:?}");
        // A count's row holds its time; the others print the same bytes.
        if args[0] != "count" {
            assert_eq!(quiet.stdout, loud.stdout, "{args:?}");
        }
        let err = String::from_utf8_lossy(&quiet.stderr);
        assert!(err.is_empty(), "{args:?} -q: {err}");
    }
    let err = usage_error(&["count", "65", "-q"]);
    assert!(err.contains("too large"), "{err}");
    let out = nqueens().args(["solve", "3", "-q"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no solution"));
}

/// The subcommands `nqueens --help` lists (less clap's `help`).
fn subcommands() -> Vec<String> {
    let help = crate::util::stdout_of(&["--help"]);
    help.lines()
        .skip_while(|line| !line.starts_with("Commands:"))
        .skip(1)
        .take_while(|line| line.starts_with("  "))
        // A description's continuation lines are indented further.
        .filter(|line| !line.starts_with("   "))
        .filter_map(|line| line.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(str::to_string)
        .collect()
}

fn num_cpus() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}

#[test]
fn ranges_written_as_other_tools_write_them_point_to_the_inclusive_range() {
    for (args, hint) in [
        (&["count", "8-12"][..], "8..=12"),
        (&["count", "1-8"], "1..=8"),
        (&["count", "4:8"], "4..=8"),
        (&["known", "20-22"], "20..=22"),
        (&["verify", "4:8"], "4..=8"),
    ] {
        let err = usage_error(args);
        assert!(
            err.contains(&format!("are written {hint}")),
            "{args:?}: {err}"
        );
    }
}

#[test]
fn a_board_without_its_command_points_to_count() {
    let err = usage_error(&["16"]);
    assert!(err.contains("nqueens count 16"), "{err}");
    let err = usage_error(&["4..=8"]);
    assert!(err.contains("nqueens count 4..=8"), "{err}");
}

#[test]
fn unique_is_not_answered_with_quiet() {
    for command in ["count", "known", "verify"] {
        let err = usage_error(&[command, "8", "--unique"]);
        assert!(!err.contains("--quiet"), "{command}: {err}");
        assert!(err.contains("unique column"), "{command}: {err}");
        assert!(err.contains("nqueens list N --unique"), "{command}: {err}");
    }
}

#[test]
fn an_unknown_short_flag_gets_no_tip_to_pass_it_after_two_dashes() {
    let err = usage_error(&["solve", "8", "-x"]);
    assert!(!err.contains("'-- -x'"), "{err}");
}

/// A count whose standard output is a pipe its reader closed (`| head -c0`) stops on the
/// first interrupt, as one on a terminal does.
#[cfg(unix)]
#[test]
fn one_interrupt_stops_a_count_whose_output_is_a_closed_pipe() {
    for format in ["table", "json"] {
        let mut child = nqueens_process()
            .args(["count", "19", "-t", "1", "-f", format])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // The reader goes away, as `head -c0` does.
        drop(child.stdout.take());
        let stderr = read_rest_on_a_thread(child.stderr.take().unwrap());
        // Some tasks finish first, so that the interrupt has running tasks to wait for.
        std::thread::sleep(Duration::from_millis(1500));
        let what = format!("a {format} count into a closed pipe");
        let (out, rest) = stop(child, "INT", &stderr, Duration::from_secs(60), &what);
        assert_eq!(out.status.code(), Some(130), "{format}: {rest}");
        assert!(rest.contains("interrupted"), "{format}: {rest}");
        assert!(!rest.contains("interrupted again"), "{format}: {rest}");
    }
}

/// `-q` given twice, in any spelling or cluster, is the same as once (a script's alias may add
/// its own).
#[test]
fn quiet_given_twice_is_quiet() {
    for args in [
        &["-q", "-q", "count", "6"][..],
        &["count", "6", "-qq"],
        &["-q", "count", "6", "--quiet"],
        &["count", "6", "-q", "-q", "-q"],
    ] {
        let out = nqueens().args(args).output().unwrap();
        assert!(out.status.success(), "{args:?}: {:?}", out.stderr);
        assert!(out.stderr.is_empty(), "{args:?}");
        assert!(
            String::from_utf8_lossy(&out.stdout).contains(" 4 "),
            "{args:?}"
        );
    }
}
