//! Memory bounded by the work done, not by the board asked for: a count refused by its cost is
//! refused without its plan being made (the estimate behind the refusal keeps the plan's task
//! ids alone), and a large plan, counted or sampled, holds its tasks by id.

use std::process::Stdio;
use std::time::{Duration, Instant};

use crate::util;

/// Runs `nqueens` with `args` to its end (killed after two minutes): its exit code, its stderr
/// and its peak resident memory in MB, as `wait4` reports it for that process alone (not for
/// the other tests' processes).
#[cfg(target_os = "linux")]
fn run_measured(args: &[&str]) -> (i32, String, f64) {
    run_measured_until(args, None)
}

/// [`run_measured`], interrupted (SIGINT) once `progress` lines of `count --progress-seconds`
/// have been written on stderr, when it is given.
#[cfg(target_os = "linux")]
#[expect(
    clippy::zombie_processes,
    reason = "waited for by `wait4`, which gives its resource usage"
)]
fn run_measured_until(args: &[&str], progress: Option<usize>) -> (i32, String, f64) {
    let mut child = util::nqueens_process()
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id() as libc::pid_t;
    let mut err = child.stderr.take().unwrap();
    let mut before = String::new();
    if let Some(lines) = progress {
        use std::io::{BufRead, BufReader};
        let mut reader = BufReader::new(err);
        while before.matches("tasks (").count() < lines {
            let mut line = String::new();
            if reader.read_line(&mut line).unwrap() == 0 {
                break;
            }
            before.push_str(&line);
        }
        // SAFETY: `pid` is our own child, not yet waited for.
        assert_eq!(unsafe { libc::kill(pid, libc::SIGINT) }, 0);
        err = reader.into_inner();
    }
    let stderr = util::read_rest_on_a_thread(err);
    let started = Instant::now();
    let mut status = 0;
    // SAFETY: `rusage` is plain integers and `timeval`s, for which all zeros is a value.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    loop {
        // SAFETY: `status` and `usage` are valid for writes; `pid` is our own child, not yet
        // waited for (std's `Child` is never waited on here).
        let done = unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, &mut usage) };
        assert!(done >= 0, "wait4: {}", std::io::Error::last_os_error());
        if done == pid {
            break;
        }
        if started.elapsed() > Duration::from_secs(120) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("nqueens {args:?} ran past two minutes");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    assert!(
        libc::WIFEXITED(status),
        "nqueens {args:?} ended by a signal"
    );
    let stderr = before + &stderr.recv_timeout(Duration::from_secs(10)).unwrap();
    // Linux gives `ru_maxrss` in kB.
    let peak = usage.ru_maxrss as f64 / 1024.0;
    (libc::WEXITSTATUS(status), stderr, peak)
}

#[cfg(target_os = "linux")]
#[test]
fn a_count_refused_by_its_cost_is_refused_before_its_plan_is_made() {
    // The symmetric plan of n = 32 holds 2.26 million tasks of 80 bytes: 180 MB, and twice
    // that while it is put in order. The refusal rests on an estimate that keeps 17 bytes a
    // task.
    for (n, bound) in [("32", 100.0), ("28", 60.0)] {
        let (code, stderr, peak) = run_measured(&["count", n, "--max-seconds", "1", "-t", "1"]);
        assert_eq!(code, 2, "{stderr}");
        assert!(
            stderr.starts_with(&format!(
                "nqueens: error: counting n = {n} on 1 thread would need"
            )),
            "{stderr}"
        );
        assert!(
            peak < bound,
            "n = {n}: {peak:.1} MB at the peak (at most {bound} MB)"
        );
    }
}

#[cfg(target_os = "linux")]
#[test]
fn a_count_of_the_largest_plan_holds_its_tasks_by_id() {
    // n = 32: 2.26 million tasks, 180 MB held whole (540 MB at the peak, as once made); held
    // by id, 38 MB. Interrupted after its second progress line: the plan made, the workers
    // searching, the progress bar's sizes and the journal's index of ids made.
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("n32.ckpt");
    let journal = journal.to_str().unwrap();
    for args in [
        &["count", "32", "-t", "1", "--progress-seconds", "1"][..],
        &[
            "count",
            "32",
            "-t",
            "1",
            "--progress-seconds",
            "1",
            "--checkpoint",
            journal,
        ],
    ] {
        let (code, stderr, peak) = run_measured_until(args, Some(2));
        assert_eq!(code, 130, "{args:?}: {stderr}");
        assert!(
            stderr.contains("n = 32: 0 of 2,257,528 tasks"),
            "{args:?}: {stderr}"
        );
        assert!(peak < 100.0, "{args:?}: {peak:.1} MB at the peak");
    }
}

#[cfg(target_os = "linux")]
#[test]
fn an_estimate_of_the_largest_plan_makes_it_once() {
    // The estimate's watcher is told the plan the samples are drawn from (it was a second
    // plan, made whole: 221 MB at the peak).
    let (code, stderr, peak) = run_measured(&[
        "estimate",
        "32",
        "--samples",
        "200",
        "--progress-seconds",
        "1",
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert!(peak < 100.0, "{peak:.1} MB at the peak");
}
