//! What a user sees in a real terminal: the progress bars of the long commands, interrupts
//! that leave whole output, and colour. The terminal is a pseudo-terminal made by `script`
//! (util-linux); without it the terminal tests print "skipped: …" on stderr.

use std::io::Read;
use std::process::Stdio;
use std::time::Duration;

use crate::util::{
    Terminal, nqueens, nqueens_process, on_terminal, progress_every, progress_lines, send,
    stdout_of,
};

/// The lines as they stay on the screen: each written line, with what a bar drew and then
/// cleared (`\r`, then erase-line) taken out.
fn lines_left(screen: &str) -> Vec<String> {
    screen
        .split('\n')
        .map(|line| {
            let line = line.trim_end_matches('\r');
            let kept = line.rsplit("\x1b[2K").next().unwrap_or(line);
            let kept = kept.rsplit('\r').next().unwrap_or(kept);
            kept.replace("\x1b[1A", "").replace("\x1b[1B", "")
        })
        .collect()
}

/// Checks that every drawing of the bar `label` starts a line: after a newline, a carriage
/// return or a cursor movement, never after other output.
fn assert_bar_starts_lines(screen: &str, label: &str) {
    let mut seen = 0;
    for (at, _) in screen.match_indices(label) {
        seen += 1;
        let before = screen[..at].chars().next_back();
        assert!(
            matches!(before, None | Some('\n' | '\r' | 'K' | 'A' | 'B')),
            "the bar continues a line: {:?}",
            &screen[at.saturating_sub(40)..at + label.len()]
        );
    }
    assert!(seen > 0, "no bar {label:?}: {screen:?}");
}

/// Interrupts `count 17..=19` once the first board's result is out, with `signal`; returns
/// the exit code and the screen.
fn interrupt_a_count(signal: &str, format: &str, first: &str) -> Option<(i32, String)> {
    let terminal = Terminal::start(&format!("count 17..=19 -t 1 -f {format}"), &[])?;
    terminal.wait_for("first result", |text| text.contains(first));
    terminal.wait_for("bar of n = 18", |text| text.contains("n = 18: "));
    std::thread::sleep(Duration::from_millis(300));
    terminal.send(signal);
    Some(terminal.finish())
}

#[test]
fn an_interrupted_table_is_closed_before_the_messages() {
    let Some((code, screen)) = interrupt_a_count("INT", "table", "| 17 ") else {
        return;
    };
    assert_eq!(code, 130, "{screen:?}");
    let lines = lines_left(&screen);
    let border = lines.iter().rposition(|l| l.starts_with("+---")).unwrap();
    let message = lines
        .iter()
        .position(|l| l.starts_with("nqueens: interrupted"))
        .unwrap();
    assert!(border < message, "{lines:#?}");
    assert!(
        lines[border..].iter().all(|l| !l.contains("tasks,")),
        "a bar is left after the table: {lines:#?}"
    );
    // The bottom border is the table's last line: no message among its rows.
    let top = lines.iter().position(|l| l.starts_with("+---")).unwrap();
    assert!(
        lines[top..=border]
            .iter()
            .all(|l| l.starts_with('+') || l.starts_with('|')),
        "{lines:#?}"
    );
}

#[test]
fn a_terminated_json_count_is_whole_and_names_no_ctrl_c() {
    let Some((code, screen)) = interrupt_a_count("TERM", "json", "\"n\": 17") else {
        return;
    };
    assert_eq!(code, 130, "{screen:?}");
    assert!(!screen.contains("Ctrl-C"), "{screen:?}");
    assert!(
        screen.contains("nqueens: interrupted: n = 18"),
        "{screen:?}"
    );
    // The bar always starts a line of its own (never after a closing brace), and the JSON on
    // the screen parses.
    assert_bar_starts_lines(&screen, "n = 18: ");
    let lines = lines_left(&screen);
    let json: String = lines
        .iter()
        .filter(|l| !l.starts_with("nqueens:"))
        .map(|l| format!("{l}\n"))
        .collect();
    let parsed: serde_json::Value = serde_json::from_str(&json).unwrap_or_else(|e| {
        panic!("{e}: {json}");
    });
    assert_eq!(parsed[0]["total"], 95815104);
}

#[test]
fn a_piped_interrupted_count_closes_its_json_and_exits_130() {
    let mut child = nqueens_process()
        .args(["count", "17..=19", "-t", "1", "-f", "json"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut first = Vec::new();
    let mut byte = [0];
    // The first record is written whole but for its closing brace.
    while !String::from_utf8_lossy(&first).contains("fingerprint") {
        assert_eq!(stdout.read(&mut byte).unwrap(), 1);
        first.push(byte[0]);
    }
    std::thread::sleep(Duration::from_millis(300));
    send(&child, "TERM");
    let mut rest = String::new();
    stdout.read_to_string(&mut rest).unwrap();
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(130));
    let json = format!("{}{rest}", String::from_utf8_lossy(&first));
    let parsed: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(parsed.as_array().unwrap().len(), 1);
    let err = String::from_utf8(output.stderr).unwrap();
    assert!(!err.contains("Ctrl-C"), "{err}");
    assert!(err.contains("send SIGTERM again"), "{err}");
}

#[test]
fn long_commands_draw_a_bar_on_a_terminal_and_clear_it() {
    let commands = [
        ("verify 16 -t 1", "n = 16: ", "tasks,"),
        ("compare 10 -a bitmask,array", "n = 10: ", "/4 "),
        ("estimate 16 --samples 40000 -t 1", "n = 16: ", " samples"),
    ];
    for (args, label, inside) in commands {
        let Some((code, screen)) = on_terminal(args, &[]) else {
            return;
        };
        assert_eq!(code, 0, "{args}: {screen:?}");
        assert!(
            screen
                .split(['\n', '\r'])
                .any(|l| l.contains(label) && l.contains(inside)),
            "{args}: no bar: {screen:?}"
        );
        let lines = lines_left(&screen);
        assert!(
            lines.iter().all(|l| !l.contains(label)),
            "{args}: a bar is left: {lines:#?}"
        );
    }
}

#[test]
fn no_bar_when_stderr_is_not_a_terminal_or_with_quiet() {
    for args in [
        &["verify", "12"][..],
        &["compare", "9", "-a", "bitmask"],
        &["estimate", "12", "--samples", "2000"],
    ] {
        let out = nqueens().args(args).assert().success().get_output().clone();
        // verify ends with its one-line summary, no bar.
        let expected: &[u8] = if args[0] == "verify" {
            b"nqueens: 1 of 1 board matches the known counts\n"
        } else {
            b""
        };
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.stderr, expected, "{args:?}: {stderr:?}");
    }
    let Some((_, screen)) = on_terminal("verify 14 -q", &[]) else {
        return;
    };
    assert!(!screen.contains("tasks,"), "{screen:?}");
}

#[test]
fn list_shows_a_spinner_while_it_waits_and_an_interrupt_closes_its_json() {
    let Some(terminal) = Terminal::start("list 38 --limit 1 -f json", &[]) else {
        return;
    };
    terminal.wait_for("spinner", |text| text.contains("searching for solution 1"));
    terminal.send("INT");
    let (code, screen) = terminal.finish();
    assert_eq!(code, 130, "{screen:?}");
    let lines = lines_left(&screen);
    assert!(lines.iter().all(|l| !l.contains("searching")), "{lines:#?}");
    let json: String = lines
        .iter()
        .filter(|l| !l.starts_with("nqueens:"))
        .map(|l| format!("{l}\n"))
        .collect();
    let parsed: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(parsed, serde_json::json!([]));
    assert!(screen.contains("nqueens: interrupted after 0 solutions"));
}

const RED_ERROR: &str = "\x1b[1m\x1b[31merror:\x1b[0m";

#[test]
fn color_always_paints_the_error_prefix_and_never_does_not() {
    let err = |args: &[&str], env: Option<(&str, &str)>| {
        let mut command = nqueens();
        command.args(args).env_remove("NO_COLOR");
        if let Some((key, value)) = env {
            command.env(key, value);
        }
        let out = command.assert().code(2).get_output().clone();
        String::from_utf8(out.stderr).unwrap()
    };
    let painted = err(&["count", "x", "--color", "always"], None);
    assert!(
        painted.starts_with(&format!("nqueens: {RED_ERROR} ")),
        "{painted:?}"
    );
    assert!(err(&["--color=always", "count", "x"], None).contains(RED_ERROR));
    for plain in [
        err(&["count", "x", "--color", "never"], None),
        err(&["count", "x"], None),
        err(&["count", "x"], Some(("NO_COLOR", "1"))),
    ] {
        assert!(!plain.contains('\x1b'), "{plain:?}");
        assert!(plain.starts_with("nqueens: error: "), "{plain:?}");
    }
    let refused = err(&["count", "8", "--color", "sometimes"], None);
    assert!(
        refused.contains("possible values: auto, always, never"),
        "{refused}"
    );
}

#[test]
fn the_help_is_coloured_as_asked() {
    assert!(stdout_of(&["--color", "always", "--help"]).contains('\x1b'));
    assert!(stdout_of(&["count", "--help", "--color=always"]).contains('\x1b'));
    assert!(!stdout_of(&["--help"]).contains('\x1b'));
    assert!(stdout_of(&["--help"]).contains("--color <WHEN>"));
}

#[test]
fn on_a_terminal_auto_colours_unless_no_color_is_set() {
    let Some((_, screen)) = on_terminal("count x", &[]) else {
        return;
    };
    assert!(screen.contains(RED_ERROR), "{screen:?}");
    let (_, plain) = on_terminal("count x", &[("NO_COLOR", "1")]).unwrap();
    assert!(!plain.contains('\x1b'), "{plain:?}");
    // An empty NO_COLOR does not count (no-color.org).
    let (_, empty) = on_terminal("count x", &[("NO_COLOR", "")]).unwrap();
    assert!(empty.contains(RED_ERROR), "{empty:?}");
    let (_, never) = on_terminal("--color never count x", &[]).unwrap();
    assert!(!never.contains('\x1b'), "{never:?}");
    let (_, help) = on_terminal("--help", &[]).unwrap();
    assert!(help.contains('\x1b'), "{help:?}");
}

#[test]
fn a_warning_is_painted_yellow() {
    let out = nqueens()
        .args(["count", "8", "-t", "64", "--color", "always"])
        .assert()
        .success()
        .get_output()
        .clone();
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("nqueens: \x1b[1m\x1b[33mwarning:\x1b[0m "),
        "{err:?}"
    );
}

#[test]
fn a_count_with_stderr_in_a_pipe_writes_a_plain_progress_line_now_and_then() {
    let args = ["count", "16", "-t", "1", "--kernel", "depth-first"];
    let out = progress_every("0.1", args).success().get_output().clone();
    let lines = progress_lines(&out.stderr);
    assert!(!lines.is_empty(), "no progress line");
    for line in &lines {
        let rest = line
            .strip_prefix("nqueens: n = 16: ")
            .unwrap_or_else(|| panic!("{line}"));
        let (tasks, rest) = rest
            .split_once(" tasks (")
            .unwrap_or_else(|| panic!("{line}"));
        let (done, of) = tasks.split_once(" of ").unwrap_or_else(|| panic!("{line}"));
        let number = |text: &str| text.replace(',', "").parse::<u64>().unwrap();
        assert!(number(done) <= number(of), "{line}");
        assert!(rest.contains("% of the work), "), "{line}");
        assert!(rest.contains(" s elapsed, "), "{line}");
        assert!(
            rest.ends_with(" s left") || rest.ends_with("no ETA yet"),
            "{line}"
        );
    }
    // The results are as without the lines.
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(
        stdout.contains("| 16   14,772,512   1,846,955 "),
        "{stdout}"
    );
    assert!(!stdout.contains("nqueens:"), "{stdout}");
}

#[test]
fn no_progress_line_with_quiet_or_for_a_short_count() {
    let quiet = ["count", "16", "-t", "1", "--kernel", "depth-first", "-q"];
    for args in [
        &quiet[..],
        &["count", "10"],
        &["count", "4..=11", "-f", "csv"],
    ] {
        let out = progress_every("1", args).success().get_output().clone();
        assert!(out.stderr.is_empty(), "{args:?}: {:?}", out.stderr);
        assert!(!out.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn a_bad_progress_interval_is_refused_in_one_line() {
    for bad in ["abc", "0", "-5", "1 min", "1e-9", "0.01", "inf", "1e300"] {
        let out = progress_every(bad, ["count", "10"])
            .code(2)
            .get_output()
            .clone();
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains("NQUEENS_PROGRESS_SECONDS="), "{err}");
        assert!(out.stdout.is_empty(), "{bad}");
    }
    // Blank is the default.
    progress_every(" ", ["count", "10"]).success().stderr("");
}

#[test]
fn an_estimate_with_stderr_in_a_pipe_writes_a_plain_progress_line_now_and_then() {
    let args = ["estimate", "24", "--seconds", "1.5", "-t", "1"];
    let run = |quiet: bool| {
        let quiet = if quiet { &["-q"][..] } else { &[] };
        progress_every("0.2", args.iter().chain(quiet))
            .success()
            .get_output()
            .clone()
    };
    let out = run(false);
    let lines = progress_lines(&out.stderr);
    assert!(!lines.is_empty(), "no progress line");
    for line in &lines {
        let rest = line
            .strip_prefix("nqueens: n = 24: ")
            .unwrap_or_else(|| panic!("{line}"));
        assert!(rest.contains(" of 1.50 s, "), "{line}");
        assert!(rest.contains(" samples"), "{line}");
    }
    assert!(progress_lines(&run(true).stderr).is_empty());
    let bad = progress_every("soon", args).code(2).get_output().clone();
    assert!(String::from_utf8_lossy(&bad.stderr).contains("NQUEENS_PROGRESS_SECONDS="));
}

/// `verify` writes `count`'s plain progress lines when stderr is a pipe, none under `-q`, and
/// refuses a bad interval before it counts.
#[test]
fn verify_with_stderr_in_a_pipe_writes_the_progress_lines_of_count() {
    let args = ["verify", "16", "-t", "1", "--kernel", "depth-first"];
    let out = progress_every("0.1", args).success().get_output().clone();
    let mut lines = progress_lines(&out.stderr);
    // The last line is verify's own: how many boards matched.
    assert_eq!(
        lines.pop().as_deref(),
        Some("nqueens: 1 of 1 board matches the known counts")
    );
    assert!(!lines.is_empty(), "no progress line");
    for line in &lines {
        assert!(line.starts_with("nqueens: n = 16: "), "{line}");
        assert!(
            line.contains(" tasks (") && line.contains(" elapsed, "),
            "{line}"
        );
    }
    assert!(String::from_utf8(out.stdout).unwrap().contains(" ok "));
    progress_every("0.1", args.iter().chain(&["-q"]))
        .success()
        .stderr("");
    let out = progress_every("soon", ["verify", "8"])
        .code(2)
        .get_output()
        .clone();
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("NQUEENS_PROGRESS_SECONDS=\"soon\""), "{err}");
    assert!(out.stdout.is_empty());
}
