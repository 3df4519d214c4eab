//! `nqueens watch --cast FILE` without a terminal: the view drawn off-screen at `--size`, one
//! frame per step on the recording's clock, ending with the search.

use std::path::Path;
use std::process::{Output, Stdio};

use serde_json::Value;

use crate::util::{grouped, nqueens_process, usage_error};

/// Runs `nqueens watch ARGS --cast CAST` with no terminal (standard input from /dev/null,
/// standard output a pipe).
fn record(args: &[&str], cast: &Path) -> Output {
    nqueens_process()
        .arg("watch")
        .args(args)
        .arg("--cast")
        .arg(cast)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .output()
        .unwrap()
}

/// The header and the events (`[time, "o", text]`, checked) of an asciicast v2 file, its
/// times checked never to go back.
fn read_cast(cast: &Path) -> (Value, Vec<(f64, String)>) {
    let text = std::fs::read_to_string(cast).unwrap();
    let mut lines = text.lines();
    let header: Value = serde_json::from_str(lines.next().unwrap()).unwrap();
    assert_eq!(header["version"], 2, "{header}");
    let mut events: Vec<(f64, String)> = Vec::new();
    for line in lines {
        let event: Value = serde_json::from_str(line).unwrap();
        let fields = event.as_array().unwrap();
        assert_eq!(fields.len(), 3, "{line}");
        assert_eq!(fields[1], "o", "{line}");
        let time = fields[0].as_f64().unwrap();
        if let Some((last, _)) = events.last() {
            assert!(time >= *last, "the times go back: {line}");
        }
        events.push((time, fields[2].as_str().unwrap().to_string()));
    }
    (header, events)
}

/// The screen after replaying `events` on a `width × height` terminal.
fn replay(events: &[(f64, String)], width: u16, height: u16) -> String {
    let size = |v: u16| std::num::NonZero::new(v).unwrap();
    let mut terminal = vt100::Parser::new(size(height), size(width), 0);
    for (_, text) in events {
        terminal.process(text.as_bytes());
    }
    terminal.screen().contents()
}

/// The first event after which the replayed screen (80 x 24) shows `text`.
fn first_showing(events: &[(f64, String)], text: &str) -> usize {
    let size = |v: u16| std::num::NonZero::new(v).unwrap();
    let mut terminal = vt100::Parser::new(size(24), size(80), 0);
    events
        .iter()
        .position(|(_, data)| {
            terminal.process(data.as_bytes());
            terminal.screen().contents().contains(text)
        })
        .unwrap_or_else(|| panic!("{text:?} is never shown"))
}

#[test]
fn without_a_terminal_the_recording_is_drawn_off_screen_and_ends_with_the_search() {
    let dir = tempfile::tempdir().unwrap();
    let cast = dir.path().join("x.cast");
    let output = record(&["6", "--size", "80x24"], &cast);
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    assert!(output.stdout.is_empty(), "{output:?}");
    let (header, events) = read_cast(&cast);
    assert_eq!(
        (header["width"].as_u64(), header["height"].as_u64()),
        (Some(80), Some(24))
    );
    // The 6 x 6 board with array: 1050 steps, a frame each at 5 steps per second, between the
    // empty board (at 0) and the end (one step after the last).
    assert!(events.len() > 1050, "{} events", events.len());
    let (end, text) = events.last().unwrap();
    assert_eq!(*end, 1051.0 / 5.0);
    assert!(
        text.contains("finished"),
        "the last event is not the end: {text:?}"
    );
    let screen = replay(&events, 80, 24);
    assert!(screen.contains("array · 6 x 6"), "{screen}");
    assert!(screen.contains(" finished "), "{screen}");
    assert!(
        screen.contains("done: every column of row 0 was tried"),
        "{screen}"
    );
    assert!(screen.contains("solutions 4 of 4"), "{screen}");
    // Halfway, the view of a step still running.
    let half = events.iter().position(|(t, _)| *t >= 100.0).unwrap();
    let screen = replay(&events[..=half], 80, 24);
    assert!(screen.contains(" 5 steps/s "), "{screen}");
    assert!(screen.contains("step            500"), "{screen}");
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert_eq!(
        stderr.trim_end(),
        format!(
            "nqueens: wrote {} (1,050 steps, 3 min 30 s at 5 steps/s, {} bytes)",
            cast.display(),
            grouped(std::fs::metadata(&cast).unwrap().len())
        )
    );
}

#[test]
fn the_size_defaults_to_80x24_and_the_speed_sets_the_clock() {
    let dir = tempfile::tempdir().unwrap();
    let cast = dir.path().join("b.cast");
    let output = record(&["5", "-a", "bitmask", "--speed", "50", "-q"], &cast);
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    assert!(output.stderr.is_empty(), "{output:?}");
    let (header, events) = read_cast(&cast);
    assert_eq!(
        (header["width"].as_u64(), header["height"].as_u64()),
        (Some(80), Some(24))
    );
    // Step k at k / 50 s: the frames' times are the steps' (116 for 5 x 5 with bitmask).
    let times: Vec<f64> = events.iter().map(|(t, _)| *t).collect();
    assert_eq!(times[0], 0.0);
    for k in 1..=117 {
        assert!(
            times.contains(&(k as f64 / 50.0)),
            "no frame at step {k}: {times:?}"
        );
    }
    assert_eq!(*times.last().unwrap(), 117.0 / 50.0);
    let screen = replay(&events, 80, 24);
    assert!(screen.contains("bitmask · 5 x 5"), "{screen}");
    assert!(screen.contains("solutions 10 of 10"), "{screen}");
}

#[test]
fn a_solution_is_held_with_pause_on_solution_and_max_steps_cuts_the_recording() {
    let dir = tempfile::tempdir().unwrap();
    let cast = dir.path().join("s.cast");
    let output = record(&["4", "--speed", "10", "--pause-on-solution"], &cast);
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let (_, events) = read_cast(&cast);
    // The frame after the first solution comes 2 s later than a step's 0.1 s.
    let solution = first_showing(&events, "solution 1: every row has a queen");
    let gap = events[solution + 1].0 - events[solution].0;
    assert!((gap - 2.1).abs() < 1e-9, "{gap}");

    let output = record(&["8", "--max-steps", "30", "--speed", "10"], &cast);
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(
        stderr.contains("the recording stops after 30 steps"),
        "{stderr}"
    );
    let (_, events) = read_cast(&cast);
    // The last event is step 30's frame.
    assert_eq!(events.last().unwrap().0, 3.0);
    let screen = replay(&events, 80, 24);
    assert!(screen.contains("step            30"), "{screen}");
    assert!(!screen.contains(" finished "), "{screen}");
}

#[test]
fn a_size_out_of_bounds_or_too_small_for_the_board_is_a_usage_error_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let cast = dir.path().join("w.cast");
    let cast_arg = cast.to_str().unwrap();
    for size in [
        "79x24", "80x23", "1001x30", "100x401", "100", "x30", "100x", "axb", "-80x24", "100x30x2",
    ] {
        let err = usage_error(&["watch", "6", "--cast", cast_arg, "--size", size]);
        assert!(
            err.contains("80 to 1000 columns and 24 to 400 lines"),
            "{size}: {err}"
        );
    }
    // The 12 x 12 matrix grid needs 28 lines: 80x24 is refused, naming what would do.
    let err = usage_error(&["watch", "12", "-a", "matrix", "--cast", cast_arg]);
    assert!(err.contains("needs a view of at least 80x28"), "{err}");
    assert!(err.contains("--size 80x28"), "{err}");
    // --size is for a recording.
    let err = usage_error(&["watch", "6", "--size", "100x30"]);
    assert!(err.contains("--cast"), "{err}");
    assert!(!cast.exists());
    // The largest size is taken.
    let output = record(&["3", "--size", "1000x400"], &cast);
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let (header, _) = read_cast(&cast);
    assert_eq!(header["width"], 1000);
}

#[test]
fn a_recording_of_the_8x8_board_stays_small_and_replays_every_step_whole() {
    let dir = tempfile::tempdir().unwrap();
    let cast = dir.path().join("w8.cast");
    // By default, ten minutes of replay: 3000 steps at 5 steps/s, only what changed each.
    let output = record(&["8"], &cast);
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let size = std::fs::metadata(&cast).unwrap().len();
    assert!(size <= 2_000_000, "{size} bytes");
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(
        stderr.contains(
            "the recording stops after 3000 steps (10 min 00 s of replay at 5 steps/s; \
             --limit N records more, 0 up to 100000)"
        ),
        "{stderr}"
    );
    assert!(
        stderr.contains("(3,000 steps, 10 min 00 s at 5 steps/s,"),
        "{stderr}"
    );
    let (header, events) = read_cast(&cast);
    assert_eq!(header["idle_time_limit"], 3.0);
    assert_eq!(events.len(), 3001);
    let screen = replay(&events, 80, 24);
    assert!(screen.contains("step            3000"), "{screen}");
    // The whole search, every step: far less than the whole view at each step.
    let output = record(&["8", "--max-steps", "0"], &cast);
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let size = std::fs::metadata(&cast).unwrap().len();
    assert!(size <= 10_000_000, "{size} bytes");
    let (_, events) = read_cast(&cast);
    assert_eq!(events.len(), 17_870);
    let screen = replay(&events, 80, 24);
    assert!(screen.contains("solutions 92 of 92"), "{screen}");
    assert!(
        screen.contains("done: every column of row 0 was tried, 92 solutions found"),
        "{screen}"
    );
    // The log of recent steps, scrolled rather than written again, ends with the end.
    assert!(screen.contains(" 17868 done"), "{screen}");
    assert!(screen.contains(" 17867 "), "{screen}");
    // The cursor is shown again at the end, once.
    let (_, last) = events.last().unwrap();
    assert!(last.ends_with("\x1b[?25h"), "{last:?}");
    let shown = events
        .iter()
        .filter(|(_, t)| t.contains("\x1b[?25h"))
        .count();
    assert_eq!(shown, 1);
}

#[test]
fn a_recording_takes_at_most_100000_steps_and_refuses_more_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let cast = dir.path().join("big.cast");
    let cast_arg = cast.to_str().unwrap();
    for steps in ["100001", "18446744073709551615"] {
        let err = usage_error(&["watch", "8", "--cast", cast_arg, "--max-steps", steps]);
        assert_eq!(
            err.trim_end(),
            format!(
                "nqueens: error: --cast: a recording holds at most 100000 steps, not \
                 --limit {steps} (give --limit 100000 or less, or write the steps with \
                 --format json)"
            )
        );
    }
    assert!(!cast.exists());
}

#[cfg(unix)]
#[test]
fn an_interrupt_keeps_what_was_recorded_finished_and_exits_130() {
    for signal in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
        let dir = tempfile::tempdir().unwrap();
        let cast = dir.path().join("i.cast");
        std::fs::write(&cast, "old").unwrap();
        let child = nqueens_process()
            .args(["watch", "12", "--max-steps", "0", "--cast"])
            .arg(&cast)
            .env("NQUEENS_PROGRESS_SECONDS", "0.2")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // Until the recording has worked long enough to show its progress.
        let started = std::time::Instant::now();
        while std::fs::read_dir(dir.path()).unwrap().count() < 2 {
            assert!(started.elapsed().as_secs() < 60, "no temporary file");
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        std::thread::sleep(std::time::Duration::from_millis(3000));
        // SAFETY: sends a signal to the child started above.
        assert_eq!(unsafe { libc::kill(child.id() as i32, signal) }, 0);
        let output = child.wait_with_output().unwrap();
        assert_eq!(output.status.code(), Some(130), "{signal}: {output:?}");
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert!(stderr.contains("nqueens: recording "), "{stderr}");
        assert!(stderr.contains(" steps done, "), "{stderr}");
        assert!(
            stderr.contains("(interrupted)\nnqueens: wrote "),
            "{stderr}"
        );
        assert!(stderr.ends_with("\nnqueens: interrupted\n"), "{stderr}");
        // The file is whole: a header, events, the last one showing the cursor again.
        let (_, events) = read_cast(&cast);
        assert!(events.len() > 10, "{} events", events.len());
        let (_, last) = events.last().unwrap();
        assert!(last.ends_with("\x1b[?25h"), "{last:?}");
        let screen = replay(&events, 80, 24);
        assert!(screen.contains("array · 12 x 12"), "{screen}");
        // No temporary file is left.
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }
}
