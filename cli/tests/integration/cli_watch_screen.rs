//! `nqueens watch` full screen, driven in a real terminal by tmux: the board appears, the keys
//! pause, step, step back and quit, the terminal is restored after Ctrl-C and every signal
//! (SIGTSTP gives it back until SIGCONT), and `--cast` records what was shown.
//!
//! tmux must be installed (`.ci/run` installs it). Without it they say on stderr that they
//! skipped, unless `NQUEENS_REQUIRE_TMUX=1` (set by `.ci/run`) makes that a failure
//! (docs/DEVELOPMENT.md).

use std::process::Command;
use std::thread::sleep;
use std::time::{Duration, Instant};

use crate::util::grouped;

/// Whether tmux can be run. Without it the test says on stderr that it skipped, so that
/// `cargo test` works on a machine without tmux, unless `NQUEENS_REQUIRE_TMUX=1` (set by
/// `.ci/run`) makes that a failure.
fn tmux_available() -> bool {
    let found = Command::new("tmux")
        .arg("-V")
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        assert!(
            !std::env::var("NQUEENS_REQUIRE_TMUX").is_ok_and(|v| v == "1"),
            "tmux is not installed, and NQUEENS_REQUIRE_TMUX=1 requires the full-screen tests: \
             install it (apt-get install tmux)"
        );
        eprintln!(
            "skipped: the full-screen tests of nqueens watch need tmux, which is not installed \
             (NQUEENS_REQUIRE_TMUX=1 makes this a failure)"
        );
    }
    found
}

/// A detached tmux session on its own server (its own socket, so that tests running at the
/// same time never race to start one shared server), killed when dropped.
struct Session(String);

impl Session {
    /// A 100 × 30 session running `command` in a shell.
    fn new(tag: &str, command: &str) -> Session {
        let name = format!("nqueens-{tag}-{}", std::process::id());
        let status = Command::new("tmux")
            .args(["-L", &name, "-f", "/dev/null"])
            .args(["new-session", "-d", "-x", "100", "-y", "30", "-s", &name])
            .arg(command)
            .status()
            .unwrap();
        assert!(status.success());
        Session(name)
    }

    fn keys(&self, keys: &[&str]) {
        let status = Command::new("tmux")
            .args(["-L", &self.0, "send-keys", "-t", &self.0])
            .args(keys)
            .status()
            .unwrap();
        assert!(status.success());
    }

    fn screen(&self) -> String {
        let out = Command::new("tmux")
            .args(["-L", &self.0, "capture-pane", "-p", "-t", &self.0])
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// tmux's `display -p FORMAT` for the pane: `#{alternate_on} #{cursor_flag}`.
    fn display(&self, format: &str) -> String {
        let out = Command::new("tmux")
            .args(["-L", &self.0, "display", "-p", "-t", &self.0, format])
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    }

    /// Waits up to 10 s for the pane to be on the alternate screen with the cursor hidden
    /// (`true`) or on the main screen with the cursor shown (`false`).
    fn wait_for_screen(&self, alternate: bool) {
        let wanted = if alternate { "1 0" } else { "0 1" };
        let started = Instant::now();
        loop {
            let state = self.display("#{alternate_on} #{cursor_flag}");
            if state == wanted {
                return;
            }
            assert!(
                started.elapsed() < Duration::from_secs(10),
                "alternate screen and cursor: {state}, wanted {wanted}:\n{}",
                self.screen()
            );
            sleep(Duration::from_millis(50));
        }
    }

    /// Waits up to 10 s for the screen to satisfy `test`; returns it.
    fn wait_for(&self, what: &str, test: impl Fn(&str) -> bool) -> String {
        let started = Instant::now();
        loop {
            let screen = self.screen();
            if test(&screen) {
                return screen;
            }
            assert!(
                started.elapsed() < Duration::from_secs(10),
                "waited in vain for {what}:\n{screen}"
            );
            sleep(Duration::from_millis(50));
        }
    }

    /// Waits as [`Session::wait_for`] for a screen that satisfies `test` and shows a step
    /// counter ([`step_on`]); returns that step.
    fn wait_for_step(&self, what: &str, test: impl Fn(&str) -> bool) -> u64 {
        let screen = self.wait_for(what, |s| test(s) && step_on(s).is_some());
        step_on(&screen).unwrap()
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = Command::new("tmux")
            .args(["-L", &self.0, "kill-server"])
            .status();
    }
}

/// The step counter on the screen, if it shows one: a screen caught half drawn may not yet,
/// so a wait goes on rather than fails.
fn step_on(screen: &str) -> Option<u64> {
    let line = screen.lines().find(|l| l.contains("step  "))?;
    line.split_whitespace().find_map(|w| w.parse().ok())
}

#[test]
fn the_board_appears_and_pause_step_back_and_quit_work() {
    if !tmux_available() {
        return;
    }
    let binary = env!("CARGO_BIN_EXE_nqueens");
    let session = Session::new(
        "keys",
        &format!("{binary} watch 6 --speed 50; echo EXITED $?; sleep 30"),
    );
    let screen = session.wait_for("the board", |s| s.contains("array · 6 x 6"));
    assert!(screen.contains("queens[row] = column"), "{screen}");
    assert!(
        screen.contains("solution 0 of 4") || screen.contains("of 4"),
        "{screen}"
    );
    session.keys(&["Space"]);
    let step = session.wait_for_step("the pause", |s| s.contains(" paused "));
    sleep(Duration::from_millis(300));
    assert_eq!(
        session.wait_for_step("the paused screen", |_| true),
        step,
        "a paused search moved"
    );
    session.keys(&["n"]);
    session.wait_for("one step", |s| step_on(s) == Some(step + 1));
    session.keys(&["Right"]);
    session.wait_for("another step", |s| step_on(s) == Some(step + 2));
    session.keys(&["b"]);
    let back = session.wait_for_step("one step back", |s| s.contains("1 step back"));
    assert_eq!(back, step + 1);
    session.keys(&["Left"]);
    session.wait_for("two steps back", |s| {
        s.contains("2 steps back") && step_on(s) == Some(step)
    });
    session.keys(&["n"]);
    session.wait_for("forward in the history", |s| s.contains("1 step back"));
    session.keys(&["a"]);
    session.wait_for("the next algorithm", |s| s.contains("attack · 6 x 6"));
    session.keys(&["q"]);
    let after = session.wait_for("the exit", |s| s.contains("EXITED 0"));
    assert!(
        !after.contains("queens[row]"),
        "the view was left on screen:\n{after}"
    );
}

#[test]
fn the_keys_overlay_holds_the_search_and_esc_closes_it() {
    if !tmux_available() {
        return;
    }
    let binary = env!("CARGO_BIN_EXE_nqueens");
    let session = Session::new(
        "overlay",
        &format!("{binary} watch 8 --speed 50; echo EXITED $?; sleep 30"),
    );
    let before = session.wait_for_step("the board", |s| {
        s.contains("array · 8 x 8") && step_on(s).is_some_and(|x| x > 0)
    });
    session.keys(&["?"]);
    session.wait_for("the keys, Ctrl-C among them", |s| {
        s.contains(" keys ") && s.contains("holds the search") && s.contains("Ctrl-C too: exit 130")
    });
    // At 50 steps a second, half a second would be some 25 steps.
    sleep(Duration::from_millis(500));
    session.keys(&["Escape"]);
    let after = session.wait_for_step("the keys closed", |s| !s.contains("holds the search"));
    assert!(
        after <= before + 5,
        "the search ran under the overlay: {before} -> {after}"
    );
    // Closed, it goes on; Esc now quits.
    session.wait_for("the search again", |s| {
        step_on(s).is_some_and(|x| x > after + 5)
    });
    session.keys(&["Escape"]);
    session.wait_for("the exit", |s| s.contains("EXITED 0"));
}

#[test]
fn ctrl_c_restores_the_terminal() {
    if !tmux_available() {
        return;
    }
    let binary = env!("CARGO_BIN_EXE_nqueens");
    let session = Session::new("ctrl-c", "bash --norc --noprofile");
    session.keys(&[
        &format!("{binary} watch 8 -a bitmask; echo EXITED $?"),
        "Enter",
    ]);
    session.wait_for("the board", |s| s.contains("bitmask · 8 x 8"));
    session.keys(&["C-c"]);
    // Ctrl-C is an interrupt: exit 130, as the manual says.
    session.wait_for("the exit", |s| s.contains("EXITED 130"));
    session.wait_for_screen(false);
    // The line discipline is back to cooked mode with echo.
    session.keys(&[
        "stty -a | tr ' ' '\\n' | grep -x -e icanon -e echo | tr '\\n' ,; echo STTY",
        "Enter",
    ]);
    // The output line, not the command line typed above (which ends with "STTY" too).
    let screen = session.wait_for("stty", |s| {
        s.lines()
            .any(|l| l.trim_end().ends_with("STTY") && !l.contains("stty"))
    });
    assert!(screen.contains("icanon,echo,STTY"), "{screen}");
}

#[test]
fn a_board_too_big_for_the_terminal_says_what_size_it_needs() {
    if !tmux_available() {
        return;
    }
    let binary = env!("CARGO_BIN_EXE_nqueens");
    let session = Session::new(
        "big",
        &format!("{binary} watch 40; echo EXITED $?; sleep 30"),
    );
    let screen = session.wait_for("the message", |s| {
        s.contains("needs a terminal of at least")
    });
    assert!(screen.contains("The 40 x 40 board"), "{screen}");
    // The largest board that fits this 100 x 30 window, not always the same example.
    let text = screen.split_whitespace().collect::<Vec<_>>().join(" ");
    let named: u32 = text
        .split("nqueens watch ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no board named: {text}"));
    assert!(text.contains("(the largest)"), "{text}");
    assert!(named > 8, "{text}");
    session.keys(&["q"]);
    session.wait_for("the exit", |s| s.contains("EXITED 0"));
    // And it fits.
    let session = Session::new(
        "fits",
        &format!("{binary} watch {named}; echo EXITED $?; sleep 30"),
    );
    session.wait_for("the board", |s| {
        s.contains(&format!("array · {named} x {named}"))
    });
    session.keys(&["q"]);
    session.wait_for("the exit", |s| s.contains("EXITED 0"));
}

/// A bash in tmux running `nqueens watch ARGS` as its foreground job, its pid in a file; the
/// pid. Its exit status follows as `EXITED N` (spelled otherwise on the command line). The job
/// writes its own pid and then becomes the watch (`exec`): started in the background and
/// brought forward with `fg`, it could meet the terminal while still in the background and be
/// stopped (SIGTTOU) before `fg`.
fn watch_in_bash(session: &Session, args: &str, pid_file: &std::path::Path) -> String {
    let binary = env!("CARGO_BIN_EXE_nqueens");
    session.keys(&[
        &format!(
            "bash -c 'echo $$ > \"$0\"; exec \"$1\" watch {args}' '{}' '{binary}'; echo \"EXIT\"\"ED $?\"",
            pid_file.display()
        ),
        "Enter",
    ]);
    let started = Instant::now();
    loop {
        if let Ok(pid) = std::fs::read_to_string(pid_file)
            && pid.ends_with('\n')
        {
            return pid.trim().to_string();
        }
        assert!(started.elapsed() < Duration::from_secs(10), "no pid");
        sleep(Duration::from_millis(20));
    }
}

fn kill(signal: &str, pid: &str) {
    let status = Command::new("kill")
        .args([&format!("-{signal}"), pid])
        .status()
        .unwrap();
    assert!(status.success());
}

#[test]
fn sigtstp_gives_the_terminal_back_sigcont_takes_it_again_and_sigquit_restores_it() {
    if !tmux_available() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let session = Session::new("tstp", "bash --norc --noprofile");
    let pid = watch_in_bash(&session, "6 --speed 20", &dir.path().join("pid"));
    session.wait_for("the board", |s| s.contains("array · 6 x 6"));
    session.wait_for_screen(true);
    kill("TSTP", &pid);
    // Stopped: the shell's prompt on the main screen, the cursor shown.
    session.wait_for("the job stopped", |s| s.contains("EXITED 147"));
    session.wait_for_screen(false);
    session.keys(&["fg; echo \"EXIT\"\"ED $?\"", "Enter"]);
    session.wait_for_screen(true);
    session.wait_for("the board again", |s| s.contains("array · 6 x 6"));
    kill("QUIT", &pid);
    session.wait_for("the exit", |s| s.contains("EXITED 131"));
    session.wait_for_screen(false);
    assert!(session.screen().contains("nqueens: quit (SIGQUIT)"));
}

#[test]
fn sigint_sigterm_and_sighup_exit_130_with_the_terminal_restored() {
    if !tmux_available() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    for signal in ["INT", "TERM", "HUP"] {
        let session = Session::new(&format!("sig-{signal}"), "bash --norc --noprofile");
        let pid = watch_in_bash(&session, "5 -a attack", &dir.path().join(signal));
        session.wait_for("the board", |s| s.contains("attack · 5 x 5"));
        kill(signal, &pid);
        let screen = session.wait_for("the exit", |s| s.contains("EXITED "));
        assert!(screen.contains("EXITED 130"), "SIG{signal}:\n{screen}");
        assert!(
            screen.contains("nqueens: interrupted"),
            "SIG{signal}:\n{screen}"
        );
        session.wait_for_screen(false);
    }
}

/// A tmux session running `nqueens watch ARGS --cast CAST`, its exit status following as
/// `EXITED N`.
fn recording(name: &str, args: &str, cast: &std::path::Path) -> Session {
    let binary = env!("CARGO_BIN_EXE_nqueens");
    Session::new(
        name,
        &format!(
            "{binary} watch {args} --cast '{}'; echo EXITED $?; sleep 30",
            cast.display()
        ),
    )
}

#[test]
fn cast_records_the_view_as_asciinema_v2() {
    if !tmux_available() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let cast = dir.path().join("watch.cast");
    let session = recording("cast", "4 -a bitmask --speed 200", &cast);
    session.wait_for("the end", |s| s.contains(" finished "));
    // Looking at the end before quitting is not recorded beyond a second.
    sleep(Duration::from_millis(2500));
    session.keys(&["q"]);
    let screen = session.wait_for("the exit", |s| s.contains("EXITED 0"));
    // Stderr says where the recording went, how long and how big.
    let size = std::fs::metadata(&cast).unwrap().len();
    let wrote = format!("nqueens: wrote {} (", cast.display());
    let said = screen.replace('\n', "");
    assert!(said.contains(&wrote), "{screen}");
    assert!(
        said.contains(&format!("{} bytes)", grouped(size))),
        "{screen}"
    );
    let text = std::fs::read_to_string(&cast).unwrap();
    let mut lines = text.lines();
    let header: serde_json::Value = serde_json::from_str(lines.next().unwrap()).unwrap();
    assert_eq!(header["version"], 2);
    assert_eq!(header["width"], 100);
    assert_eq!(header["height"], 30);
    assert!(
        header["timestamp"].as_u64().unwrap() > 1_600_000_000,
        "{header}"
    );
    assert_eq!(header["idle_time_limit"], 3.0);
    // Replayed on a terminal of the header's size, the frames show the view.
    let size = |v: u16| std::num::NonZero::new(v).unwrap();
    let mut terminal = vt100::Parser::new(size(30), size(100), 0);
    let mut last = 0.0;
    let mut frames = 0;
    let mut board_seen = false;
    let mut finished_at = None;
    for line in lines {
        let event: serde_json::Value = serde_json::from_str(line).unwrap();
        let time = event[0].as_f64().unwrap();
        assert!(time >= last, "times go back: {line}");
        last = time;
        assert_eq!(event[1], "o");
        terminal.process(event[2].as_str().unwrap().as_bytes());
        board_seen |= terminal.screen().contents().contains("bitmask · 4 x 4");
        if finished_at.is_none() && terminal.screen().contents().contains(" finished ") {
            finished_at = Some(time);
        }
        frames += 1;
    }
    let finished_at = finished_at.expect("the end is recorded");
    assert!(
        last - finished_at <= 1.0,
        "{} s after the end",
        last - finished_at
    );
    // A frame per step at least (the 4 x 4 board takes a few dozen), over about their time.
    assert!(frames > 20, "{frames} frames");
    assert!(last > 0.05, "{last} s");
    assert!(board_seen);
    // The last frame: the finished search, with its counters.
    let screen = terminal.screen().contents();
    assert!(screen.contains(" finished "), "{screen}");
    assert!(screen.contains("solutions 2 of 2"), "{screen}");
    assert!(
        screen.contains("done: every column of row 0 was tried"),
        "{screen}"
    );
}

#[test]
fn an_interrupted_view_keeps_its_recording_and_exits_130() {
    if !tmux_available() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let cast = dir.path().join("watch.cast");
    let session = recording("cast-int", "5 --speed 20", &cast);
    session.wait_for("the board", |s| s.contains("array · 5 x 5"));
    session.keys(&["C-c"]);
    let screen = session.wait_for("the exit", |s| s.contains("EXITED 130"));
    let said = screen.replace('\n', "");
    assert!(
        said.contains(&format!("nqueens: wrote {} (", cast.display())),
        "{screen}"
    );
    let text = std::fs::read_to_string(&cast).unwrap();
    let header: serde_json::Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    assert_eq!(header["version"], 2);
    assert!(text.lines().count() > 3, "{text}");
    let mut last = String::new();
    for line in text.lines().skip(1) {
        let event: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(event[1], "o");
        last = event[2].as_str().unwrap().to_string();
    }
    // The last event shows the cursor again.
    assert!(last.ends_with("\x1b[?25h"), "{last:?}");
}

#[test]
fn a_huge_window_is_drawn_within_bounds_and_the_view_goes_on() {
    if !tmux_available() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let session = Session::new("huge", "bash --norc --noprofile");
    // Two buffers of a 3000 x 3000 window would take far more memory than this allows.
    session.keys(&["ulimit -v 600000", "Enter"]);
    watch_in_bash(&session, "6 --speed 20", &dir.path().join("pid"));
    session.wait_for("the board", |s| s.contains("array · 6 x 6"));
    session.wait_for_screen(true);
    let resize = |x: &str, y: &str| {
        let status = Command::new("tmux")
            .args(["-L", &session.0, "resize-window", "-t", &session.0])
            .args(["-x", x, "-y", y])
            .status()
            .unwrap();
        assert!(status.success());
    };
    resize("3000", "3000");
    sleep(Duration::from_millis(1500));
    resize("100", "30");
    let before = session.wait_for_step("the board again", |s| s.contains("array · 6 x 6"));
    session.wait_for("the next steps", |s| step_on(s).is_some_and(|x| x > before));
    session.keys(&["q"]);
    let screen = session.wait_for("the exit", |s| s.contains("EXITED "));
    assert!(screen.contains("EXITED 0"), "{screen}");
    session.wait_for_screen(false);
}

#[test]
fn a_signal_at_the_start_on_a_terminal_that_does_not_answer_restores_it() {
    // `script`'s terminal passes the view's output on and answers no query (such as where the
    // cursor is): a signal as soon as the view took it must still give it back.
    for signal in ["TERM", "INT", "HUP"] {
        let Some(terminal) = crate::util::Terminal::start("watch 5", &[]) else {
            return;
        };
        terminal.wait_for("the alternate screen", |s| s.contains("\x1b[?1049h"));
        terminal.send(signal);
        let (code, text) = terminal.finish();
        assert_eq!(code, 130, "SIG{signal}: {text:?}");
        let after = &text[text.find("\x1b[?1049h").unwrap()..];
        assert!(after.contains("\x1b[?1049l"), "SIG{signal}: {text:?}");
        assert!(after.contains("\x1b[?25h"), "SIG{signal}: {text:?}");
        assert!(
            text.contains("nqueens: interrupted"),
            "SIG{signal}: {text:?}"
        );
    }
}
