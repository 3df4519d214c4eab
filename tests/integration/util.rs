//! Helpers shared by the command-line test binaries.

use std::io::Read;
use std::process::Child;
use std::sync::mpsc::Receiver;

use assert_cmd::Command;

/// Runs `command`, expects exit code 2 (a usage error), and returns stderr, checked to be one
/// line without a panic.
pub fn usage_error_of(command: &mut Command, args: &[&str]) -> String {
    one_line_error_of(command, args, 2)
}

/// Runs `command`, expects exit code 1 (a failure: a wrong answer, a file named on the command
/// line that could not be used, a search given up), and returns stderr, checked to be one line
/// without a panic.
pub fn failure_of(command: &mut Command, args: &[&str]) -> String {
    one_line_error_of(command, args, 1)
}

fn one_line_error_of(command: &mut Command, args: &[&str], code: i32) -> String {
    let out = command.args(args).assert().code(code).get_output().clone();
    assert!(out.stdout.is_empty(), "{args:?} wrote to stdout");
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    assert!(err.starts_with("nqueens: error: "), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    err
}

/// Sends `signal` (a name such as `INT`) to the child with the system's `kill`.
pub fn send(child: &Child, signal: &str) {
    let status = std::process::Command::new("kill")
        .args([format!("-{signal}"), child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
}

/// Reads `stream` on a thread and sends its first line, then, once the stream ends, the rest:
/// a test can wait for each with a guard against a hang (`recv_timeout`).
pub fn first_line_then_rest_on_a_thread(stream: impl Read + Send + 'static) -> Receiver<String> {
    let (send, receive) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut stream = std::io::BufReader::new(stream);
        let mut line = String::new();
        let _ = std::io::BufRead::read_line(&mut stream, &mut line);
        let _ = send.send(line);
        let mut rest = String::new();
        let _ = stream.read_to_string(&mut rest);
        let _ = send.send(rest);
    });
    receive
}

/// Reads the rest of `stream` on a thread: the text arrives once the stream ends, so a test
/// can wait for it with a guard against a hang (`recv_timeout`).
pub fn read_rest_on_a_thread(mut stream: impl Read + Send + 'static) -> Receiver<String> {
    let (send, receive) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut rest = String::new();
        let _ = stream.read_to_string(&mut rest);
        let _ = send.send(rest);
    });
    receive
}

/// Limits `resource` (`libc::RLIMIT_AS`, `libc::RLIMIT_FSIZE`, ...) of the command's process to
/// `bytes`, and ignores `SIGXFSZ` there so that a write past the file size limit fails with
/// `EFBIG` instead of ending the process: a full disk or a memory limit without root.
#[cfg(unix)]
pub fn limit(
    command: &mut std::process::Command,
    resource: libc::__rlimit_resource_t,
    bytes: u64,
) -> &mut std::process::Command {
    use std::os::unix::process::CommandExt;
    let limit = libc::rlimit {
        rlim_cur: bytes,
        rlim_max: bytes,
    };
    // SAFETY: between fork and exec only async-signal-safe calls, on values copied in.
    unsafe {
        command.pre_exec(move || {
            libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
            if libc::setrlimit(resource, &limit) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        })
    }
}

/// Reads `reader` line by line into `seen` until `seen` contains `wanted`; fails the test if the
/// output ends first.
pub fn read_until(reader: &mut impl std::io::BufRead, seen: &mut String, wanted: &str) {
    while !seen.contains(wanted) {
        let mut line = String::new();
        assert!(
            reader.read_line(&mut line).unwrap() > 0,
            "output ended before {wanted:?}: {seen}"
        );
        seen.push_str(&line);
    }
}
