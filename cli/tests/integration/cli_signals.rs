//! Signals a user ignored before the command started stay ignored: `nohup` (SIGHUP), a job
//! that a script starts with `&` (SIGINT), `trap '' TERM` (SIGTERM), as the guide's examples
//! run long counts.
#![cfg(unix)]

use std::io::BufRead;
use std::process::{Output, Stdio};
use std::sync::mpsc::Receiver;
use std::time::Duration;

use crate::util;

/// The total of n = 16 as the table shows it.
const TOTAL_16: &str = "14,772,512";

/// A count of about a second on one thread (more on a loaded machine), writing a progress line
/// every 0.1 s: the signal is sent once the first line shows the count under way.
const COUNT: &str = "\"$NQUEENS\" count 16 -t 1 --kernel depth-first --checkpoint \"$JOURNAL\"";

/// Runs `script` with `sh -c` (`$NQUEENS` the binary, `$JOURNAL` a journal in a fresh
/// directory); the script starts the count, writes its process id on stderr first and waits for
/// it. Once the count's first progress line shows it under way, `signal` is sent to the count.
/// Returns the output of the shell (whose exit code is the count's) and its stderr.
fn signalled_in(script: &str, signal: &str) -> (Output, String) {
    let dir = tempfile::tempdir().unwrap();
    let mut shell = std::process::Command::new("sh");
    shell
        .args(["-c", script])
        .env("NQUEENS", env!("CARGO_BIN_EXE_nqueens"))
        .env("JOURNAL", dir.path().join("n16.ckpt"))
        .env("NQUEENS_PROGRESS_SECONDS", "0.1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if let Some(dir) = util::quiet_mesa() {
        shell.env("XDG_RUNTIME_DIR", dir);
    }
    let mut child = shell.spawn().unwrap();
    let lines = lines_on_a_thread(child.stderr.take().unwrap());
    let within = Duration::from_secs(120);
    let pid = lines
        .recv_timeout(within)
        .expect("the script names the count");
    let pid = pid.trim().to_string();
    assert!(pid.parse::<u32>().is_ok(), "{pid}");
    let mut stderr = String::new();
    loop {
        let line = lines.recv_timeout(within).unwrap_or_else(|_| {
            let _ = child.kill();
            panic!("no progress line: {stderr}")
        });
        stderr.push_str(&line);
        if line.starts_with("nqueens: n = 16: ") {
            break;
        }
    }
    let sent = std::process::Command::new("kill")
        .args([format!("-{signal}"), pid])
        .status()
        .unwrap();
    assert!(sent.success());
    // The rest of stderr comes when the count ends (a guard against a hang, not a measurement).
    loop {
        match lines.recv_timeout(within) {
            Ok(line) => stderr.push_str(&line),
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => break,
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                let _ = child.kill();
                panic!("the count did not end: {stderr}");
            }
        }
    }
    (child.wait_with_output().unwrap(), stderr)
}

/// Sends each line of `stream` as it is read, until the stream ends.
fn lines_on_a_thread(stream: impl std::io::Read + Send + 'static) -> Receiver<String> {
    let (send, receive) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut stream = std::io::BufReader::new(stream);
        loop {
            let mut line = String::new();
            match stream.read_line(&mut line) {
                Ok(0) | Err(_) => break,
                Ok(_) => {
                    if send.send(line).is_err() {
                        break;
                    }
                }
            }
        }
    });
    receive
}

/// The count ran to its end: exit 0, the right total, no interruption.
fn finished(out: &Output, stderr: &str) {
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}{stderr}");
    assert!(stdout.contains(TOTAL_16), "{stdout}");
    assert!(!stderr.contains("interrupted"), "{stderr}");
}

/// The count stopped on the signal, as it does where nothing was ignored.
fn interrupted(out: &Output, stderr: &str) {
    assert_eq!(out.status.code(), Some(130), "{stderr}");
    assert!(stderr.contains("nqueens: interrupted"), "{stderr}");
}

#[test]
fn a_count_under_nohup_keeps_counting_through_a_hangup() {
    let (out, stderr) = signalled_in(&format!("nohup {COUNT} & echo $! >&2; wait $!"), "HUP");
    finished(&out, &stderr);
    // Without nohup, the same hangup stops it: the signal came while it counted.
    let (out, stderr) = signalled_in(&format!("{COUNT} & echo $! >&2; wait $!"), "HUP");
    interrupted(&out, &stderr);
}

#[test]
fn a_background_job_of_a_script_keeps_counting_through_an_interrupt() {
    // `sh -c` has no job control: the job it starts with `&` ignores SIGINT (and SIGQUIT).
    let (out, stderr) = signalled_in(&format!("{COUNT} & echo $! >&2; wait $!"), "INT");
    finished(&out, &stderr);
    // Where the script lets the job have SIGINT, it stops it.
    let (out, stderr) = signalled_in(&format!("echo $$ >&2; exec {COUNT}"), "INT");
    interrupted(&out, &stderr);
}

#[test]
fn a_terminate_signal_ignored_by_the_script_stays_ignored() {
    let (out, stderr) = signalled_in(&format!("trap '' TERM; echo $$ >&2; exec {COUNT}"), "TERM");
    finished(&out, &stderr);
    let (out, stderr) = signalled_in(&format!("echo $$ >&2; exec {COUNT}"), "TERM");
    interrupted(&out, &stderr);
}

/// A signal that comes as soon as the handler is installed (the process's signal mask shows
/// SIGINT or SIGTERM caught), before the command has set what an interrupt does, ends the
/// command as interrupted (exit 130), never by the signal's default action. A signal in the
/// moments before the program runs (while the system loads it) cannot be handled by it: that
/// window is not tested.
#[cfg(target_os = "linux")]
#[test]
fn a_signal_as_soon_as_the_handler_is_installed_ends_the_command_as_interrupted() {
    use std::os::unix::process::ExitStatusExt;
    let caught = |pid: u32, signal: i32| {
        let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
        status
            .lines()
            .find_map(|l| l.strip_prefix("SigCgt:"))
            .and_then(|mask| u64::from_str_radix(mask.trim(), 16).ok())
            .is_some_and(|mask| mask & (1 << (signal - 1)) != 0)
    };
    let dir = tempfile::tempdir().unwrap();
    for (i, signal) in [libc::SIGINT, libc::SIGTERM]
        .repeat(10)
        .into_iter()
        .enumerate()
    {
        let mut child = util::nqueens_process()
            .args([
                "count",
                "16",
                "-t",
                "1",
                "--kernel",
                "depth-first",
                "--checkpoint",
            ])
            .arg(dir.path().join(format!("n16-{i}.ckpt")))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let start = std::time::Instant::now();
        while !caught(child.id(), signal) {
            assert!(start.elapsed() < Duration::from_secs(60), "no handler");
            // A command that ended first (a refused argument, say) never installs one.
            if let Some(status) = child.try_wait().unwrap() {
                panic!("ended before its handler was seen: {status}");
            }
            std::thread::yield_now();
        }
        let pid = libc::pid_t::try_from(child.id()).unwrap();
        // SAFETY: `kill` with the process id of a child not yet waited for, and a signal number.
        assert_eq!(unsafe { libc::kill(pid, signal) }, 0);
        let status = child.wait().unwrap();
        assert_eq!(status.signal(), None, "killed by signal {signal}");
        assert_eq!(status.code(), Some(130), "signal {signal}");
    }
}
