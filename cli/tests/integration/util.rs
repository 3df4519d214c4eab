//! Helpers shared by the command-line test binaries.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Child, Output, Stdio};
use std::sync::mpsc::Receiver;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use assert_cmd::Command;

/// The journal's byte layout, as the library's `journal` module documents it: a 64-byte
/// header, then 30-byte records (the tests that damage a journal find its records by them).
pub const HEADER_LEN: usize = 64;
/// The size of one record of a journal.
pub const RECORD_LEN: usize = 30;

/// Recomputes the checksum of every whole record of a journal's bytes, as someone who may write
/// the file could: from journal format 4 on the CRC-32 of the header's bytes 0..60 and the
/// record's 0..26, before it of the record's bytes alone (the library's `journal::format::Seal`;
/// the fuzz targets' `fix_checksums` in fuzz/entry/library.rs writes the same rule: change both
/// with the format).
pub fn reseal_records(bytes: &mut [u8]) {
    let (header, records) = bytes.split_at_mut(HEADER_LEN);
    let format = u32::from_le_bytes(header[8..12].try_into().unwrap());
    for record in records.chunks_exact_mut(RECORD_LEN) {
        let mut hasher = crc32fast::Hasher::new();
        if format >= 4 {
            hasher.update(&header[..HEADER_LEN - 4]);
        }
        hasher.update(&record[..RECORD_LEN - 4]);
        record[RECORD_LEN - 4..].copy_from_slice(&hasher.finalize().to_le_bytes());
    }
}

/// The help (or other output) `args` print on stdout, its words joined by single spaces, so
/// that a phrase is found wherever the help wraps it.
pub fn help_words(args: &[&str]) -> String {
    stdout_of(args)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// The plan the command makes for the `n`-board.
pub fn command_plan(n: u32) -> nqueens::Plan {
    use nqueens::{Plan, Strategy};
    Plan::new(n, Strategy::Symmetric, Plan::DEFAULT_MIN_TASKS).unwrap()
}

/// A journal at `path` for the count `header` names, holding exactly `records`, in order, as
/// the library writes them.
pub fn journal_holding(
    path: &Path,
    header: &nqueens::journal::Header,
    records: &[(nqueens::TaskId, u64)],
) {
    let (mut journal, _) = nqueens::journal::Journal::open(path, header).unwrap();
    for &(id, count) in records {
        journal.append(id, count).unwrap();
    }
}

/// The binary under test.
pub fn nqueens() -> Command {
    let mut command = Command::cargo_bin("nqueens").unwrap();
    if let Some(dir) = quiet_mesa() {
        command.env("XDG_RUNTIME_DIR", dir);
    }
    command
}

/// The binary under test as a plain process, to spawn, signal and wait for.
pub fn nqueens_process() -> std::process::Command {
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_nqueens"));
    if let Some(dir) = quiet_mesa() {
        command.env("XDG_RUNTIME_DIR", dir);
    }
    command
}

/// With the gpu feature, a directory for `XDG_RUNTIME_DIR` where it is unset: Mesa's software
/// Vulkan driver complains on stderr without it when the adapters are listed.
pub fn quiet_mesa() -> Option<std::path::PathBuf> {
    (cfg!(feature = "gpu") && std::env::var_os("XDG_RUNTIME_DIR").is_none())
        .then(std::env::temp_dir)
}

/// A study saved by an earlier version on a 2-core machine that another program kept busy:
/// at 2 threads, 1.00x with 50.5 % of the CPU, its loss breakdown all in the slowdown.
pub fn busy_fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/scale-17-busy-2-cores.json")
}

/// An older study of a 16-core Xeon (n = 18, saved before the loss breakdown): docs/measurements'
/// file, through a link that the package turns into a copy.
pub fn older_fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/scale-18-xeon-16-cores.json")
}

/// The study of a quiet 16-core Xeon, with its loss breakdown (its 2-thread slowdown is below
/// 0: -1.9 points): docs/measurements' file, through a link that the package turns into a copy.
pub fn quiet_fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/scale-19-xeon-16-cores.json")
}

/// The one line of `text` that `matches`, asserted to be exactly one (`text` is shown when it is
/// not).
#[track_caller]
pub fn the_line(text: &str, matches: impl Fn(&str) -> bool) -> &str {
    let found: Vec<&str> = text.lines().filter(|l| matches(l)).collect();
    assert_eq!(found.len(), 1, "{text}");
    found[0]
}

/// Runs `nqueens ARGS`, expects success, and returns stdout.
pub fn stdout_of(args: &[&str]) -> String {
    let out = nqueens().args(args).assert().success().get_output().clone();
    String::from_utf8(out.stdout).unwrap()
}

/// `nqueens scale --compare FILES… EXTRA…`, which succeeds: (stdout, stderr).
pub fn scale_compare(
    files: impl IntoIterator<Item = std::path::PathBuf>,
    extra: &[&str],
) -> (String, String) {
    let out = nqueens()
        .arg("scale")
        .arg("--compare")
        .args(files)
        .args(extra)
        .assert()
        .success()
        .get_output()
        .clone();
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// Runs `nqueens ARGS`, expects exit code 2 (a usage error), and returns stderr, checked to be
/// one line without a panic.
pub fn usage_error(args: &[&str]) -> String {
    usage_error_of(&mut nqueens(), args)
}

/// Runs `nqueens ARGS`, expects exit code 1 (a failure), and returns stderr, checked to be one
/// line without a panic.
pub fn failure(args: &[&str]) -> String {
    failure_of(&mut nqueens(), args)
}

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

/// The stderr of a finished command, as text.
pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Checks a finished command's refusal, a failure (exit code 1: a journal or file refused):
/// nothing on stdout, one line on stderr (returned).
pub fn failure_in(out: &Output) -> String {
    one_line_in(out, 1)
}

/// Checks a finished command's usage error (exit code 2): nothing on stdout, one line on
/// stderr (returned).
pub fn usage_error_in(out: &Output) -> String {
    one_line_in(out, 2)
}

fn one_line_in(out: &Output, code: i32) -> String {
    let text = stderr(out);
    assert_eq!(out.status.code(), Some(code), "{text}");
    assert!(
        out.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert_eq!(text.lines().count(), 1, "{text}");
    text
}

/// Sends `signal` (a name such as `INT`) to the child with the system's `kill`.
pub fn send(child: &Child, signal: &str) {
    send_to(&child.id().to_string(), signal);
}

/// Sends `signal` to the process `pid` with the system's `kill`.
fn send_to(pid: &str, signal: &str) {
    let status = std::process::Command::new("kill")
        .args([format!("-{signal}"), pid.to_string()])
        .status()
        .unwrap();
    assert!(status.success());
}

/// Sends `signal` to `child` and waits for it to end, with a guard against an ignored signal
/// (not a measurement): `stderr` (a reader thread's channel, such as
/// [`read_rest_on_a_thread`]'s) must bring the rest of its stderr within `within`, or the child
/// is killed and the test fails, naming `what`. Returns the child's output (the streams not
/// taken from it) and that rest of stderr.
pub fn stop(
    mut child: Child,
    signal: &str,
    stderr: &Receiver<String>,
    within: Duration,
    what: &str,
) -> (Output, String) {
    send(&child, signal);
    let rest = stderr.recv_timeout(within);
    if rest.is_err() {
        let _ = child.kill();
    }
    let out = child.wait_with_output().unwrap();
    let rest = rest.unwrap_or_else(|_| panic!("{what} ignored SIG{signal} for {within:?}"));
    (out, rest)
}

/// Starts `command` with stdout discarded, waits at most `within` for the first line on its
/// stderr (a guard against a silent start, not a measurement), and kills it: that line, if any.
pub fn first_line_then_kill(
    command: &mut std::process::Command,
    within: Duration,
) -> Option<String> {
    let mut child = command
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let lines = first_line_then_rest_on_a_thread(child.stderr.take().unwrap());
    let first = lines.recv_timeout(within).ok();
    let _ = child.kill();
    let _ = child.wait();
    first
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

/// The size of the files [`huge_files`] makes: far beyond the memory limit their readers are
/// tested under.
#[cfg(target_os = "linux")]
pub const HUGE: u64 = 64 << 30;

/// Two sparse files of [`HUGE`] bytes in `dir` (no disk is used): `foreign.ckpt`, all zeros,
/// and `long.ckpt`, the header of a whole journal of the 10-board followed by far more than its
/// plan's records.
#[cfg(target_os = "linux")]
pub fn huge_files(dir: &std::path::Path) -> (std::path::PathBuf, std::path::PathBuf) {
    use nqueens::journal::{Header, Journal};
    use nqueens::{Plan, Strategy};
    let foreign = dir.join("foreign.ckpt");
    std::fs::File::create(&foreign)
        .unwrap()
        .set_len(HUGE)
        .unwrap();
    let long = dir.join("long.ckpt");
    let plan = Plan::new(10, Strategy::Symmetric, Plan::DEFAULT_MIN_TASKS).unwrap();
    drop(Journal::open(&long, &Header::for_plan(&plan)).unwrap());
    std::fs::OpenOptions::new()
        .write(true)
        .open(&long)
        .unwrap()
        .set_len(HUGE)
        .unwrap();
    (foreign, long)
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

/// A command running with stdout and stderr on one pseudo-terminal.
pub struct Terminal {
    child: Child,
    screen: Arc<Mutex<Vec<u8>>>,
    pid_file: tempfile::NamedTempFile,
}

impl Terminal {
    /// Starts nqueens with `args` in a pseudo-terminal, `env` added to its environment; `None`
    /// (and a note) where `script` is missing.
    pub fn start(args: &str, env: &[(&str, &str)]) -> Option<Terminal> {
        let found = std::process::Command::new("script")
            .arg("--version")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if !found {
            eprintln!("skipped: `script` (util-linux) is needed for a pseudo-terminal");
            return None;
        }
        let pid_file = tempfile::NamedTempFile::new().unwrap();
        let line = format!(
            "echo $$ > '{}'; exec '{}' {args}",
            pid_file.path().display(),
            env!("CARGO_BIN_EXE_nqueens")
        );
        let mut command = std::process::Command::new("script");
        command
            .args(["-qfec", &line, "/dev/null"])
            .env("SHELL", "/bin/sh")
            .env_remove("NO_COLOR")
            .env_remove("CLICOLOR_FORCE")
            .env("TERM", "xterm")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        for (key, value) in env {
            command.env(key, value);
        }
        let mut child = command.spawn().unwrap();
        let screen = Arc::new(Mutex::new(Vec::new()));
        let mut stdout = child.stdout.take().unwrap();
        let copy = Arc::clone(&screen);
        std::thread::spawn(move || {
            let mut buffer = [0; 4096];
            while let Ok(read) = stdout.read(&mut buffer) {
                if read == 0 {
                    break;
                }
                copy.lock().unwrap().extend_from_slice(&buffer[..read]);
            }
        });
        Some(Terminal {
            child,
            screen,
            pid_file,
        })
    }

    /// What the terminal has received so far.
    fn text(&self) -> String {
        String::from_utf8_lossy(&self.screen.lock().unwrap()).into_owned()
    }

    /// Waits until the terminal shows what `seen` looks for (a minute at most).
    pub fn wait_for(&self, what: &str, seen: impl Fn(&str) -> bool) {
        let started = Instant::now();
        while !seen(&self.text()) {
            assert!(
                started.elapsed() < Duration::from_secs(60),
                "no {what} on the terminal: {:?}",
                self.text()
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Sends `signal` (`INT`, `TERM`) to nqueens.
    pub fn send(&self, signal: &str) {
        let pid = std::fs::read_to_string(self.pid_file.path()).unwrap();
        send_to(pid.trim(), signal);
    }

    /// Waits for the end (a minute at most): the exit code and everything the terminal showed.
    pub fn finish(mut self) -> (i32, String) {
        let started = Instant::now();
        let status = loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                break status;
            }
            if started.elapsed() > Duration::from_secs(60) {
                let _ = self.child.kill();
                panic!("nqueens did not end: {:?}", self.text());
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        // The last bytes may still be on their way from the reader thread.
        std::thread::sleep(Duration::from_millis(100));
        (status.code().unwrap_or(-1), self.text())
    }
}

/// Runs nqueens with `args` on a terminal to its end: the exit code and the screen.
pub fn on_terminal(args: &str, env: &[(&str, &str)]) -> Option<(i32, String)> {
    Terminal::start(args, env).map(Terminal::finish)
}

/// `args` run with progress lines every `interval` seconds (`NQUEENS_PROGRESS_SECONDS`), for
/// the caller to assert on.
pub fn progress_every<I, S>(interval: &str, args: I) -> assert_cmd::assert::Assert
where
    I: IntoIterator<Item = S>,
    S: AsRef<std::ffi::OsStr>,
{
    nqueens()
        .args(args)
        .env("NQUEENS_PROGRESS_SECONDS", interval)
        .assert()
}

/// The progress lines a command wrote on `stderr`, a pipe: one a line, with no terminal codes;
/// the note on a busy machine, which depends on what else the machine runs, left out.
pub fn progress_lines(stderr: &[u8]) -> Vec<String> {
    let text = String::from_utf8(stderr.to_vec()).unwrap();
    assert!(!text.contains(['\r', '\x1b']), "{text:?}");
    text.lines()
        .filter(|line| !line.starts_with("nqueens: note: other programs were using the CPUs"))
        .map(str::to_string)
        .collect()
}

/// 1234567 as 1,234,567, as the tool groups a count.
pub fn grouped(x: u64) -> String {
    let digits = x.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}
