//! Hostile input: files that must not be replaced, unwritable stdout and stderr, absurd thread
//! counts, work that would run for years, and random argument vectors.

use std::ffi::{OsStr, OsString};
use std::fs::File;
use std::io::BufReader;
#[cfg(unix)]
use std::os::unix::ffi::OsStrExt;
use std::path::Path;
use std::process::{Command as Std, Stdio};
use std::time::Duration;

use crate::util;

use assert_cmd::Command;
use proptest::prelude::*;

fn nqueens() -> Command {
    let mut command = util::nqueens();
    // A guard against hangs, not a measurement.
    command.timeout(Duration::from_secs(120));
    command
}

/// Runs `args`, expects exit code 2, and returns stderr, checked to be one line without a panic.
fn usage_error(args: &[&str]) -> String {
    util::usage_error_of(&mut nqueens(), args)
}

fn failure(args: &[&str]) -> String {
    util::failure_of(&mut nqueens(), args)
}

/// `/dev/full` opened for writing, or `None` (with a note) where there is none.
fn full() -> Option<File> {
    match File::options().write(true).open("/dev/full") {
        Ok(file) => Some(file),
        Err(_) => {
            println!("note: /dev/full is absent here; the full-device checks are skipped");
            None
        }
    }
}

#[cfg(unix)]
#[test]
fn a_plot_path_that_is_not_a_regular_file_is_refused_and_left_alone() {
    use std::os::unix::fs::FileTypeExt;
    let dir = tempfile::tempdir().unwrap();
    let real = dir.path().join("real.svg");
    std::fs::write(&real, "keep").unwrap();
    let link = dir.path().join("link.svg");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    let mut targets = vec![(link.clone(), "symbolic link")];
    let fifo = dir.path().join("fifo.svg");
    let made = Std::new("mkfifo").arg(&fifo).status();
    if made.is_ok_and(|s| s.success()) {
        targets.push((fifo.clone(), "not a regular file"));
    } else {
        println!("note: mkfifo is unavailable; the FIFO case is skipped");
    }
    for (target, why) in &targets {
        let err = failure(&[
            "scale",
            "8",
            "-t",
            "1",
            "-r",
            "1",
            "--plot",
            target.to_str().unwrap(),
        ]);
        assert!(err.contains("cannot write the plot"), "{err}");
        assert!(err.contains(why), "{err}");
    }
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(std::fs::read(&real).unwrap(), b"keep");
    if fifo.exists() {
        assert!(
            std::fs::symlink_metadata(&fifo)
                .unwrap()
                .file_type()
                .is_fifo()
        );
    }
}

/// `nqueens ARGS` with files capped at `limit` bytes (`SIGXFSZ` ignored, so that a write past
/// the cap fails with "File too large" as one on a full disk fails with ENOSPC); stdout and
/// stderr are pipes, which the cap does not touch.
#[cfg(unix)]
fn with_files_capped_at(limit: u64, args: &[&std::ffi::OsStr]) -> std::process::Output {
    let mut command = util::nqueens_process();
    command.args(args);
    util::limit(&mut command, libc::RLIMIT_FSIZE, limit)
        .output()
        .unwrap()
}

/// The names in `dir`, sorted.
fn entries(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[cfg(unix)]
#[test]
fn a_plot_that_cannot_be_written_comes_after_the_results() {
    let dir = tempfile::tempdir().unwrap();
    let plot = dir.path().join("s.svg");
    let mut args: Vec<&std::ffi::OsStr> = ["scale", "7", "-r", "1", "-t", "1,2", "-f", "csv"]
        .iter()
        .map(|a| a.as_ref())
        .collect();
    args.extend([std::ffi::OsStr::new("--plot"), plot.as_os_str()]);
    // The plot's directory is writable (checked before the runs), the plot is too big to write.
    let out = with_files_capped_at(1000, &args);
    let text = String::from_utf8_lossy(&out.stdout);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(text.starts_with("kind,n,strategy"), "{text}");
    assert_eq!(
        text.lines().filter(|l| l.starts_with("measured,")).count(),
        2
    );
    let expected = format!("nqueens: error: cannot write {}: ", plot.display());
    assert!(err.lines().last().unwrap().starts_with(&expected), "{err}");
    assert!(
        !err.contains(".part") && !err.contains("cannot write output"),
        "{err}"
    );
    assert!(entries(dir.path()).is_empty(), "{:?}", entries(dir.path()));
}

#[cfg(unix)]
#[test]
fn man_dir_on_a_disk_that_fills_partway_replaces_no_page() {
    // The pages' sizes, then a cap that only the largest exceeds.
    let scratch = tempfile::tempdir().unwrap();
    nqueens()
        .args(["man", "--dir"])
        .arg(scratch.path())
        .assert()
        .success();
    let names = entries(scratch.path());
    let sizes: Vec<u64> = names
        .iter()
        .map(|n| std::fs::metadata(scratch.path().join(n)).unwrap().len())
        .collect();
    let largest = *sizes.iter().max().unwrap();
    let dir = tempfile::tempdir().unwrap();
    for name in &names {
        std::fs::write(dir.path().join(name), "old").unwrap();
    }
    let out = with_files_capped_at(
        largest - 1,
        &["man".as_ref(), "--dir".as_ref(), dir.path().as_os_str()],
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(out.stdout.is_empty(), "{out:?}");
    assert_eq!(err.lines().count(), 1, "{err}");
    let page = &names[sizes.iter().position(|&s| s == largest).unwrap()];
    let expected = format!(
        "nqueens: error: cannot write {}: ",
        dir.path().join(page).display()
    );
    assert!(err.starts_with(&expected), "{err}");
    assert!(
        !err.contains(".part") && !err.contains("cannot write output"),
        "{err}"
    );
    // Every old page is still there, untouched, and nothing else.
    assert_eq!(entries(dir.path()), names);
    for name in &names {
        let page = std::fs::read_to_string(dir.path().join(name)).unwrap();
        assert_eq!(page, "old", "{name} was replaced");
    }
}

/// A 64 KiB tmpfs mounted on a new directory, unmounted when dropped; `None` (with a note on
/// stderr) where mounting is not allowed.
#[cfg(target_os = "linux")]
struct SmallDisk(tempfile::TempDir);

#[cfg(target_os = "linux")]
impl SmallDisk {
    fn mount() -> Option<SmallDisk> {
        let dir = tempfile::tempdir().unwrap();
        let mounted = Std::new("mount")
            .args(["-t", "tmpfs", "-o", "size=64k", "tmpfs"])
            .arg(dir.path())
            .stderr(Stdio::null())
            .status();
        if mounted.is_ok_and(|s| s.success()) {
            Some(SmallDisk(dir))
        } else {
            eprintln!(
                "skipped: a small tmpfs cannot be mounted here (needs root); the full-disk case is not tested"
            );
            None
        }
    }

    /// Fills the disk with one file.
    fn fill(&self) {
        use std::io::Write;
        let mut file = File::create(self.0.path().join("filler")).unwrap();
        let block = [0u8; 4096];
        while file.write_all(&block).is_ok() {}
    }
}

#[cfg(target_os = "linux")]
impl Drop for SmallDisk {
    fn drop(&mut self) {
        let _ = Std::new("umount").arg(self.0.path()).status();
    }
}

#[cfg(target_os = "linux")]
#[test]
fn a_full_disk_loses_no_result_and_no_page() {
    let Some(disk) = SmallDisk::mount() else {
        return;
    };
    let pages = disk.0.path().join("man1");
    std::fs::create_dir(&pages).unwrap();
    std::fs::write(pages.join("nqueens.1"), "old").unwrap();
    disk.fill();
    let plot = disk.0.path().join("s.svg");
    let out = util::nqueens_process()
        .args(["scale", "7", "-r", "1", "-t", "1,2", "--plot"])
        .arg(&plot)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(String::from_utf8_lossy(&out.stdout).contains("bound speedup"));
    let expected = format!(
        "nqueens: error: cannot write {}: No space left on device",
        plot.display()
    );
    assert_eq!(err.lines().last().unwrap(), expected, "{err}");
    let out = util::nqueens_process()
        .args(["man", "--dir"])
        .arg(&pages)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains(&format!("cannot write {}/", pages.display())),
        "{err}"
    );
    assert!(err.ends_with(": No space left on device\n"), "{err}");
    assert_eq!(entries(&pages), ["nqueens.1"]);
    assert_eq!(
        std::fs::read_to_string(pages.join("nqueens.1")).unwrap(),
        "old"
    );
    assert_eq!(entries(disk.0.path()), ["filler", "man1"]);
}

#[cfg(unix)]
#[test]
fn an_interrupted_scale_leaves_no_temporary_file() {
    let dir = tempfile::tempdir().unwrap();
    let plot = dir.path().join("s.svg");
    let mut child = util::nqueens_process()
        .args([
            "scale",
            "18",
            "-t",
            "1,64",
            "-r",
            "3",
            "--max-seconds",
            "1e9",
        ])
        .arg("--plot")
        .arg(&plot)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The warning about 64 threads comes once the plot's path is checked and the runs are about
    // to start (where 64 threads are not too many, a few seconds stand in for it).
    let receive = util::first_line_then_rest_on_a_thread(child.stderr.take().unwrap());
    let first = receive
        .recv_timeout(Duration::from_secs(5))
        .unwrap_or_default();
    let (out, rest) = util::stop(child, "INT", &receive, Duration::from_secs(60), "scale");
    assert_eq!(out.status.code(), Some(130), "{first}{rest}");
    assert!(rest.contains("nqueens: interrupted"), "{first}{rest}");
    assert!(entries(dir.path()).is_empty(), "{:?}", entries(dir.path()));
}

#[test]
fn an_unwritable_stderr_never_aborts() {
    let Some(stderr) = full() else { return };
    let out = util::nqueens_process()
        .args(["count", "65"])
        .stderr(stderr)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{:?}", out.status);
}

#[test]
fn a_closed_stderr_pipe_never_aborts() {
    let mut child = util::nqueens_process()
        .args(["count", "65"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stderr.take()); // the reader goes away before anything is written
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(2), "{status:?}");
}

#[test]
fn a_resumed_count_prints_its_result_when_its_notice_cannot_be_written() {
    let Some(stderr) = full() else { return };
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("n10.ckpt");
    let args = [
        "count",
        "10",
        "-t",
        "1",
        "--checkpoint",
        file.to_str().unwrap(),
    ];
    nqueens().args(args).assert().success();
    let out = util::nqueens_process()
        .args(args)
        .stderr(stderr)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{:?}", out.status);
    assert!(String::from_utf8_lossy(&out.stdout).contains("724"));
}

#[test]
fn every_command_on_a_full_device_fails_cleanly() {
    if full().is_none() {
        return;
    }
    let commands: [&[&str]; 12] = [
        &["count", "8", "-t", "1"],
        &["known", "--max", "8"],
        &["verify", "--max", "6", "-t", "1"],
        &["compare", "5", "-a", "bitmask"],
        &["scale", "6", "-t", "1", "-r", "1"],
        &["solve", "8"],
        &["list", "8"],
        &["completions", "bash"],
        &["completions", "fish"],
        &["man"],
        &["--help"],
        &["--version"],
    ];
    for args in commands {
        // stdout and stderr full: a write error, never a signal or a panic.
        let out = util::nqueens_process()
            .args(args)
            .stdout(full().unwrap())
            .stderr(full().unwrap())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{args:?}: {:?}", out.status);
        // stdout full only: one line that says so.
        let out = util::nqueens_process()
            .args(args)
            .stdout(full().unwrap())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{args:?}: {:?}", out.status);
        let err = String::from_utf8_lossy(&out.stderr);
        let last = err.lines().last().unwrap_or_default();
        assert!(
            last.starts_with("nqueens: error: cannot write output"),
            "{args:?}: {err}"
        );
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        // stderr full only: the results still arrive.
        let out = util::nqueens_process()
            .args(args)
            .stderr(full().unwrap())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{args:?}: {:?}", out.status);
        assert!(!out.stdout.is_empty(), "{args:?}");
    }
}

#[cfg(unix)]
#[test]
fn a_closed_stdout_is_an_error_not_an_endless_listing() {
    let bin = assert_cmd::cargo::cargo_bin!("nqueens");
    for args in ["list 20", "count 8", "--help", "--version", "count --help"] {
        let out = Command::new("sh")
            .arg("-c")
            .arg(format!("exec \"$0\" {args} >&-"))
            .arg(bin)
            .timeout(Duration::from_secs(60))
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{args}: {:?}", out.status);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("standard output is closed"), "{args}: {err}");
    }
    // A journal is worth writing even with nowhere to print the total.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("n8.ckpt");
    let out = Command::new("sh")
        .arg("-c")
        .arg("exec \"$0\" count 8 --checkpoint \"$1\" >&-")
        .arg(bin)
        .arg(&file)
        .timeout(Duration::from_secs(60))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert!(file.exists());
    // /dev/null opened for reading and writing (as Python's DEVNULL does) is not a closed stdout.
    let out = Command::new("sh")
        .arg("-c")
        .arg("exec \"$0\" count 8 1<>/dev/null")
        .arg(bin)
        .timeout(Duration::from_secs(60))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    // A redirection to /dev/null is what the user asked for.
    let status = Std::new(bin)
        .args(["count", "8"])
        .stdout(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success());
    // A pipe closed by its reader (`| head -0`) ends help quietly too.
    for args in [&["--help"][..], &["--version"], &["count", "--help"]] {
        let mut command = Std::new(bin);
        if cfg!(feature = "gpu") && std::env::var_os("XDG_RUNTIME_DIR").is_none() {
            // Mesa's software Vulkan complains without it when --version lists the adapters.
            command.env("XDG_RUNTIME_DIR", std::env::temp_dir());
        }
        let mut child = command
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{args:?}: {out:?}");
        assert!(out.stderr.is_empty(), "{args:?}: {out:?}");
    }
}

#[test]
fn every_command_bounds_the_thread_count() {
    for args in [
        &["count", "8", "--threads", "100000"][..],
        &["verify", "--max", "8", "-t", "2000"],
        &["scale", "8", "-t", "1,100000"],
        &["count", "8", "-t", "99999999999999999999999999"],
    ] {
        let err = usage_error(args);
        assert!(err.contains("too many threads: at most"), "{err}");
    }
}

#[test]
fn work_for_years_is_refused_up_front_with_the_flag_that_lifts_it() {
    for args in [
        &["verify", "--max", "27"][..],
        &["scale", "30"],
        &["scale", "30", "--plot", "never-written.svg"],
    ] {
        let err = usage_error(args);
        assert!(err.contains("would need about"), "{err}");
        assert!(err.contains("--max-seconds"), "{err}");
    }
    assert!(!Path::new("never-written.svg").exists());
    nqueens()
        .args(["verify", "--max", "8", "--max-seconds", "3600"])
        .assert()
        .success();
}

#[test]
fn a_count_for_years_is_announced_before_it_starts() {
    let line = util::first_line_then_kill(
        util::nqueens_process().args(["count", "0..=64", "-t", "1"]),
        Duration::from_secs(60),
    )
    .unwrap_or_default();
    assert!(line.starts_with("nqueens: warning: "), "{line}");
    assert!(line.contains("years"), "{line}");
}

#[test]
fn a_listing_that_finds_nothing_in_time_gives_up_with_advice() {
    let err = failure(&["list", "64", "--limit", "1", "--give-up-after", "0.5"]);
    assert!(err.contains("nqueens solve 64"), "{err}");
    assert!(err.contains("--give-up-after"), "{err}");
    nqueens()
        .args(["list", "30", "--limit", "1", "--give-up-after", "30"])
        .assert()
        .success();
    // The former name still works, with a warning that names the new one.
    let out = nqueens()
        .args(["list", "8", "--limit", "1", "--max-seconds", "30"])
        .assert()
        .success()
        .get_output()
        .clone();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--give-up-after"), "{err}");
}

#[test]
fn negative_numbers_get_a_reason() {
    for args in [
        &["count", "-1"][..],
        &["count", "8", "-t", "-1"],
        &["verify", "--max", "-1"],
        &["list", "-3"],
        &["solve", "-5"],
        &["scale", "-2"],
        &["compare", "-4"],
        &["list", "21", "--limit", "-1"],
        &["scale", "8", "-r", "-2"],
    ] {
        let err = usage_error(args);
        assert!(!err.contains("unexpected argument"), "{args:?}: {err}");
        assert!(!err.contains("invalid digit"), "{args:?}: {err}");
    }
    assert!(usage_error(&["count", "-1"]).contains("cannot be negative"));
}

/// Arguments that are not UTF-8: alone, inside a word, after a number, as a flag, as an
/// attached value.
#[cfg(unix)]
fn not_utf8() -> Vec<OsString> {
    [
        &b"\xff"[..],
        b"co\xffunt",
        b"8\xff",
        b"--\xff",
        b"-\xff",
        b"--format=\xff",
    ]
    .into_iter()
    .map(|bytes| OsStr::from_bytes(bytes).to_os_string())
    .collect()
}

/// A valid command line of each subcommand, with nothing that writes a file.
#[cfg(unix)]
const VALID: &[&[&str]] = &[
    &["count", "8", "-t", "1", "--format", "csv"],
    &["known", "8", "--format", "csv"],
    &["verify", "--max", "6", "-t", "1", "--format", "csv"],
    &["compare", "6", "-a", "bitmask", "--format", "csv"],
    &["scale", "6", "-t", "1", "-r", "1", "--format", "csv"],
    &["solve", "8", "--format", "columns"],
    &["list", "6", "--limit", "2", "--format", "json"],
    &["merge", "--format", "csv", "none.ckpt"],
    &["estimate", "8", "--samples", "10", "-t", "1"],
    &["completions", "bash"],
    // Refused: no directory can be created in a file.
    &["man", "--dir", "/dev/null/pages"],
];

/// Runs `args` in an empty directory and checks the refusal: exit code 1 or 2, nothing on
/// stdout, one line on stderr, no panic, no file written. Returns stderr.
#[cfg(unix)]
fn refused_os(args: &[OsString]) -> String {
    let dir = tempfile::tempdir().unwrap();
    let out = nqueens()
        .current_dir(dir.path())
        .args(args)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(
        matches!(out.status.code(), Some(1 | 2)),
        "{args:?}: {:?} {err}",
        out.status
    );
    assert!(out.stdout.is_empty(), "{args:?} wrote to stdout");
    assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    assert!(err.starts_with("nqueens: error: "), "{args:?}: {err}");
    assert!(!err.contains("panicked"), "{args:?}: {err}");
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        0,
        "{args:?} wrote a file"
    );
    err
}

#[cfg(unix)]
#[test]
fn an_argument_that_is_not_utf8_is_a_one_line_usage_error() {
    let os = |bytes: &[u8]| OsStr::from_bytes(bytes).to_os_string();
    for (args, shown) in [
        (vec![os(b"\xff")], r"'\xFF' is not valid UTF-8"),
        (
            vec![os(b"co\xffunt"), os(b"8")],
            r"'co\xFFunt' is not valid UTF-8",
        ),
        (
            vec![os(b"count"), os(b"8\xff")],
            r"'8\xFF' is not valid UTF-8",
        ),
        (
            vec![os(b"--bogus"), os(b"\xff")],
            "unexpected argument '--bogus'",
        ),
        // Found by the `args` fuzz target: a newline beside the odd byte was echoed as it is.
        (
            vec![os(b"coun\n\x89"), os(b"10")],
            r"'coun\n\x89' is not valid UTF-8",
        ),
    ] {
        let err = refused_os(&args);
        assert!(err.contains(shown), "{args:?}: {err}");
        let out = nqueens().args(&args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
    }
}

/// A byte string that is not UTF-8 in every position of a valid command line of every
/// subcommand: before the subcommand, as the subcommand, as each option's value and as each
/// positional argument, and after the last.
#[cfg(unix)]
#[test]
fn arguments_that_are_not_utf8_are_refused_in_every_position() {
    for bad in not_utf8() {
        for valid in VALID {
            let valid: Vec<OsString> = valid.iter().map(OsString::from).collect();
            for at in 0..=valid.len() {
                let mut inserted = valid.clone();
                inserted.insert(at, bad.clone());
                refused_os(&inserted);
            }
            for at in 0..valid.len() {
                // A path may be any bytes: `man --dir` creates a directory of that name.
                if valid[..2] == ["man", "--dir"] && at == 2 {
                    continue;
                }
                let mut replaced = valid.clone();
                replaced[at] = bad.clone();
                refused_os(&replaced);
            }
        }
    }
}

#[test]
fn a_huge_argument_is_not_echoed_in_full() {
    let digits = "9".repeat(100_000);
    let letters = "x".repeat(100_000);
    for args in [
        &["count", &digits][..],
        &["count", &letters],
        &["solve", &letters],
        &["count", "8", "-t", &letters],
    ] {
        let err = usage_error(args);
        assert!(err.len() < 400, "{} bytes: {}", err.len(), &err[..400]);
    }
}

/// Tokens the random argument vectors are made of: small boards only, and nothing that writes
/// files.
const TOKENS: &[&str] = &[
    "0",
    "1",
    "4",
    "6",
    "8",
    "-1",
    "65",
    "99999999999999999999999",
    "abc",
    "",
    "4..=6",
    "9..=4",
    "1,2",
    "max",
    "-t",
    "--threads",
    "2",
    "--format",
    "-f",
    "json",
    "csv",
    "table",
    "columns",
    "board",
    "--strategy",
    "mirror",
    "--kernel",
    "depth-first",
    "--limit",
    "--unique",
    "--max",
    "--algorithm",
    "--algorithms",
    "-a",
    "bitmask",
    "array,array",
    "--max-seconds",
    "--give-up-after",
    "0.5",
    "--repeat",
    "-r",
    "--quiet",
    "--all-symmetries",
    "--construct",
    "--unicode",
    "--bogus",
    "bash",
    "zsh",
    "--help",
    "-V",
    "=",
    "--",
];

const SUBCOMMANDS: &[&str] = &[
    "count",
    "known",
    "verify",
    "compare",
    "scale",
    "solve",
    "list",
    "completions",
    "man",
    "bogus",
];

/// One random argument: mostly a token of [`TOKENS`], sometimes one that is not UTF-8.
fn token() -> impl Strategy<Value = OsString> {
    let tokens = proptest::sample::select(TOKENS).prop_map(OsString::from);
    #[cfg(unix)]
    return prop_oneof![5 => tokens, 1 => proptest::sample::select(not_utf8())];
    #[cfg(not(unix))]
    tokens
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn random_arguments_never_panic_and_usage_errors_are_one_line(
        before in proptest::collection::vec(token(), 0..2),
        sub in proptest::sample::select(SUBCOMMANDS),
        rest in proptest::collection::vec(token(), 0..5),
    ) {
        let out = nqueens().args(&before).arg(sub).args(&rest).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        let code = out.status.code();
        prop_assert!(matches!(code, Some(0..=2)), "{before:?} {sub} {rest:?}: {:?} {err}", out.status);
        prop_assert!(!err.contains("panicked"), "{before:?} {sub} {rest:?}: {err}");
        if code == Some(2) && out.stdout.is_empty() {
            prop_assert_eq!(err.lines().count(), 1, "{:?} {} {:?}: {}", before, sub, rest, err);
            prop_assert!(err.starts_with("nqueens: error: "), "{before:?} {sub} {rest:?}: {err}");
        }
    }
}

#[cfg(unix)]
#[test]
fn the_first_interrupt_ends_a_run_of_boards() {
    let mut child = util::nqueens_process()
        .args(["count", "0..=64", "-t", "2"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let receive = util::first_line_then_rest_on_a_thread(child.stderr.take().unwrap());
    let warning = receive.recv().unwrap();
    assert!(warning.contains("years"), "{warning}");
    let (out, rest) = util::stop(
        child,
        "TERM",
        &receive,
        Duration::from_secs(60),
        "the count",
    );
    assert_eq!(out.status.code(), Some(130), "{rest}");
    assert!(rest.contains("nqueens: interrupted"), "{rest}");
    assert!(!rest.contains("interrupted again"), "{rest}");
}

/// An interrupted `verify` says how to keep finished tasks with a command that can: it takes no
/// --checkpoint itself.
#[cfg(unix)]
#[test]
fn an_interrupted_verify_advises_what_verify_can_do() {
    let mut child = util::nqueens_process()
        .args([
            "verify",
            "4..=27",
            "-t",
            "2",
            "--format",
            "csv",
            "--max-seconds",
            "1e12",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    // n = 17 takes seconds at most; n = 18 many times longer: interrupt while it runs.
    let mut seen = String::new();
    util::read_until(&mut stdout, &mut seen, "\n17,");
    // n = 18 starts as soon as 17 is written; on a loaded machine the signal could still come
    // first ("interrupted before n = 18 started", nothing lost, no advice): a margin, not a
    // measurement.
    std::thread::sleep(Duration::from_millis(1500));
    let receive = util::read_rest_on_a_thread(child.stderr.take().unwrap());
    let (out, rest) = util::stop(child, "INT", &receive, Duration::from_secs(120), "verify");
    assert_eq!(out.status.code(), Some(130), "{rest}");
    assert!(rest.contains("nqueens: interrupted"), "{rest}");
    assert!(!rest.contains("add --checkpoint"), "{rest}");
    assert!(rest.contains("nqueens count N --checkpoint FILE"), "{rest}");
}

/// A copy of the binary that anyone may run, run as the user `uid` (one no other process
/// uses, so that its limit counts this test's processes alone) with at most `nproc` processes
/// (RLIMIT_NPROC binds only users other than root: the command runs through `setpriv`, under
/// `prlimit`).
struct LimitedUser {
    uid: u32,
    binary: std::path::PathBuf,
    _dir: tempfile::TempDir,
}

impl LimitedUser {
    /// `None`, saying so, where the test does not run as root or `setpriv`/`prlimit` are
    /// missing.
    fn new(uid: u32) -> Option<LimitedUser> {
        let have = |tool: &str| Std::new(tool).arg("--version").output().is_ok();
        // SAFETY: geteuid has no arguments, only reads the process's effective user id and
        // cannot fail.
        if unsafe { libc::geteuid() } != 0 || !have("setpriv") || !have("prlimit") {
            eprintln!(
                "skipped: needs root, setpriv and prlimit to run the command as another user"
            );
            return None;
        }
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
        let binary = dir.path().join("nqueens");
        std::fs::copy(env!("CARGO_BIN_EXE_nqueens"), &binary).unwrap();
        Some(LimitedUser {
            uid,
            binary,
            _dir: dir,
        })
    }

    /// The command `args` with at most `nproc` processes and threads.
    fn run(&self, nproc: u32, args: &[&str]) -> std::process::Output {
        Std::new("prlimit")
            .arg(format!("--nproc={nproc}:{nproc}"))
            .arg("setpriv")
            .arg(format!("--reuid={}", self.uid))
            .args(["--regid=nogroup", "--clear-groups"])
            .arg(&self.binary)
            .args(args)
            .output()
            .unwrap()
    }
}

/// With no thread to spare (RLIMIT_NPROC of 1, as a user of its own), a command that cannot start its
/// signal-handling thread says so in one line and exits 1, where it used to abort.
#[test]
fn a_thread_that_cannot_start_is_one_line_and_exit_1() {
    let Some(user) = LimitedUser::new(61_001) else {
        return;
    };
    for args in [
        &["count", "14", "-t", "1"][..],
        &["verify", "--max", "8"],
        &["list", "8"],
        &["scale", "8", "-t", "1", "-r", "1"],
    ] {
        let out = user.run(1, args);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {out:?}");
        let err = util::stderr(&out);
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(
            err.starts_with("nqueens: error: cannot start a thread"),
            "{args:?}: {err}"
        );
    }
}

/// With threads for the command itself but none for its workers (RLIMIT_NPROC of 2, as a user
/// of its own), the cost estimate behind a limit (`verify`'s, `count --max-seconds`, `scale`'s)
/// cannot run: that is said as the failure it is (one line, exit 1), never as work too long to
/// start ("would need about -", exit 2).
#[test]
fn a_cost_estimate_whose_threads_cannot_start_is_a_failure_not_a_refusal() {
    let Some(user) = LimitedUser::new(61_002) else {
        return;
    };
    for args in [
        &["verify", "--max", "12", "-t", "2"][..],
        &["count", "14", "-t", "2", "--max-seconds", "100"],
        &["scale", "12", "-t", "1,2", "-r", "1"],
    ] {
        let out = user.run(2, args);
        let err = util::stderr(&out);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains("start"), "{args:?}: {err}");
        assert!(!err.contains("would need"), "{args:?}: {err}");
    }
}

/// A directory of a written path swapped, again and again, between a real directory and another
/// user's link to a third directory (`renameat2` exchanging the two, as another user with a
/// directory open to all can) while the command writes through that path, a journal in place
/// (`count --checkpoint`), journals in directories it creates (`count --checkpoint DIR/`) and a
/// page replaced by a rename (`watch --html`): no file or directory is ever written through the
/// link. Each command runs for a few seconds, or until a file reaches the link's directory.
#[cfg(target_os = "linux")]
#[test]
fn a_directory_swapped_for_another_users_link_never_leads_a_write_astray() {
    use rustix::fs::{CWD, RenameFlags, renameat_with};
    use std::os::unix::fs::{lchown, symlink};
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::time::Instant;
    // SAFETY: geteuid has no arguments, only reads the process's effective user id and cannot
    // fail.
    if unsafe { libc::geteuid() } != 0 {
        println!("note: not root; another user's link cannot be made, the race is not tested");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (base, victim) = (dir.path().join("lk2"), dir.path().join("victim"));
    std::fs::create_dir_all(base.join("sw")).unwrap();
    std::fs::create_dir(&victim).unwrap();
    let (real, link) = (base.join("sw"), base.join("sw.link"));
    symlink(&victim, &link).unwrap();
    lchown(&link, Some(65534), Some(65534)).unwrap();
    let stop = AtomicBool::new(false);
    let mut astray = Vec::new();
    std::thread::scope(|scope| {
        scope.spawn(|| {
            while !stop.load(Ordering::Relaxed) {
                renameat_with(CWD, &real, CWD, &link, RenameFlags::EXCHANGE).unwrap();
            }
        });
        for (what, option, name) in [
            ("count", "--checkpoint", "n6-{}.ckpt"),
            ("count", "--checkpoint", "d6-{}/sub/"),
            ("watch", "--html", "p-{}.html"),
        ] {
            let start = Instant::now();
            let (mut runs, mut wrote) = (0, 0);
            while start.elapsed() < Duration::from_secs(3) {
                let file = real.join(name.replace("{}", &runs.to_string()));
                let size = if what == "count" { "6" } else { "4" };
                // Written in the real directory, or refused for the link.
                let out = Std::new(env!("CARGO_BIN_EXE_nqueens"))
                    .args([what, size, "-q", option])
                    .arg(&file)
                    .stdin(Stdio::null())
                    .output()
                    .unwrap();
                runs += 1;
                wrote += usize::from(out.status.success());
                let err = util::stderr(&out);
                if !out.status.success() && !err.contains("symbolic link that belongs to nobody") {
                    astray.push(format!(
                        "{what} {option} {name}: run {runs} failed otherwise: {err}"
                    ));
                }
                if std::fs::read_dir(&victim).unwrap().next().is_some() {
                    break;
                }
            }
            let through = std::fs::read_dir(&victim).unwrap().count();
            if through > 0 {
                astray.push(format!(
                    "{what} {option} {name}: run {runs} wrote through the link"
                ));
                std::fs::remove_dir_all(&victim).unwrap();
                std::fs::create_dir(&victim).unwrap();
                continue;
            }
            println!("{what} {option} {name}: {runs} runs, {wrote} wrote, none through the link");
        }
        stop.store(true, Ordering::Relaxed);
    });
    assert!(astray.is_empty(), "{astray:#?}");
}
