//! `nqueens watch` full screen, driven in a real terminal by tmux: the board appears, the keys
//! pause, step, step back and quit, and the terminal is restored after Ctrl-C.
//!
//! tmux must be installed (`.ci/run` installs it). Without it they say on stderr that they
//! skipped, unless `NQUEENS_REQUIRE_TMUX=1` (set by `.ci/run`) makes that a failure
//! (docs/DEVELOPMENT.md).

use std::process::Command;
use std::thread::sleep;
use std::time::{Duration, Instant};

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
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = Command::new("tmux")
            .args(["-L", &self.0, "kill-server"])
            .status();
    }
}

/// The step counter on the screen.
fn step_of(screen: &str) -> u64 {
    let line = screen
        .lines()
        .find(|l| l.contains("step  "))
        .unwrap_or_else(|| panic!("no step counter:\n{screen}"));
    line.split_whitespace()
        .find_map(|w| w.parse().ok())
        .unwrap_or_else(|| panic!("no step number in {line}"))
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
    let paused = session.wait_for("the pause", |s| s.contains(" paused "));
    let step = step_of(&paused);
    sleep(Duration::from_millis(300));
    assert_eq!(step_of(&session.screen()), step, "a paused search moved");
    session.keys(&["n"]);
    session.wait_for("one step", |s| step_of(s) == step + 1);
    session.keys(&["Right"]);
    session.wait_for("another step", |s| step_of(s) == step + 2);
    session.keys(&["b"]);
    let back = session.wait_for("one step back", |s| s.contains("1 step back"));
    assert_eq!(step_of(&back), step + 1);
    session.keys(&["Left"]);
    session.wait_for("two steps back", |s| {
        s.contains("2 steps back") && step_of(s) == step
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
    session.wait_for("the exit", |s| s.contains("EXITED 0"));
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
    session.keys(&["q"]);
    session.wait_for("the exit", |s| s.contains("EXITED 0"));
}
