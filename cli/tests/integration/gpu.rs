//! The `gpu` kernels (feature `gpu`): every board up to 16 against the table with both plans,
//! a sharded count merged, an interrupted count resumed, the refusals when there is no
//! adapter, and a command without an adapter that runs as without the feature. (Random jobs of
//! n = 20..=32 against the depth-first search: the library's tests.)
//!
//! On a machine without a Vulkan adapter the tests that need one print "skipped: no GPU
//! adapter" and pass, unless `NQUEENS_REQUIRE_GPU=1` (set by `.ci/run`, which installs Mesa's
//! software Vulkan) makes that a failure.

use std::sync::atomic::{AtomicBool, Ordering};

use nqueens::gpu::{self, GpuError};
use nqueens::journal::Shard;
use nqueens::{
    CountOptions, Kernel, RunControl, Strategy, TaskOutcome, Watcher, count, count_with, known,
};

use crate::util::{nqueens_process, stderr, the_line, usage_error_in};

/// Whether a GPU adapter is here; says so on stderr when not (a failure where
/// `NQUEENS_REQUIRE_GPU=1`).
fn gpu_here() -> bool {
    match gpu::check() {
        Ok(_) => true,
        Err(GpuError::NoAdapter) => {
            assert!(
                !std::env::var("NQUEENS_REQUIRE_GPU").is_ok_and(|v| v == "1"),
                "NQUEENS_REQUIRE_GPU=1 but there is no GPU adapter (apt-get install \
                 mesa-vulkan-drivers libvulkan1 for a software one)"
            );
            eprintln!("skipped: no GPU adapter (NQUEENS_REQUIRE_GPU=1 makes this a failure)");
            false
        }
        Err(e) => panic!("the GPU is here but failed: {e}"),
    }
}

/// An `nqueens` process whose Mesa drivers stay quiet (they complain on stderr when
/// `XDG_RUNTIME_DIR` is unset, which would break the one-line checks).
fn quiet_nqueens(dir: &std::path::Path) -> std::process::Command {
    let mut command = nqueens_process();
    command.env("XDG_RUNTIME_DIR", dir);
    command
}

/// A Vulkan driver manifest that does not exist: pointing the loader's driver paths at it
/// hides every driver (Mesa's lavapipe included), as on a machine without a GPU.
const NO_DRIVER: &str = "/nonexistent/icd.json";

/// An `nqueens` process that finds no GPU adapter.
fn without_a_driver(dir: &std::path::Path) -> std::process::Command {
    let mut command = quiet_nqueens(dir);
    command
        .env("VK_ICD_FILENAMES", NO_DRIVER)
        .env("VK_DRIVER_FILES", NO_DRIVER);
    command
}

fn options(kernel: Kernel, strategy: Strategy) -> CountOptions {
    CountOptions::new(2, strategy).with_kernel(kernel)
}

#[test]
fn the_gpu_kernels_give_the_table_up_to_16_with_both_plans() {
    if !gpu_here() {
        return;
    }
    for strategy in [Strategy::Symmetric, Strategy::Mirror] {
        for n in 1..=16 {
            for kernel in [Kernel::GpuOnly, Kernel::Gpu] {
                // The GPU beside the CPU: where both take a share of the tasks.
                if kernel == Kernel::Gpu && !(12..=14).contains(&n) {
                    continue;
                }
                let counts = count(n, &options(kernel, strategy)).unwrap();
                assert_eq!(
                    (Some(counts.total), counts.unique, counts.kernel),
                    (
                        known::Known::of(n).map(|k| k.total),
                        known::Known::of(n).map(|k| k.unique),
                        kernel
                    ),
                    "n={n} {strategy} {kernel}"
                );
            }
        }
    }
}

#[test]
fn shards_counted_on_the_gpu_merge_to_the_table() {
    if !gpu_here() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let mut files = Vec::new();
    for k in 0..3 {
        let file = dir.path().join(format!("n12-{k}of3.ckpt"));
        let out = quiet_nqueens(dir.path())
            .args([
                "count", "12", "--kernel", "gpu-only", "--quiet", "--format", "json",
            ])
            .args(["--shard", &format!("{k}/3"), "--checkpoint"])
            .arg(&file)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", stderr(&out));
        files.push(file);
    }
    let out = quiet_nqueens(dir.path())
        .args(["merge", "--format", "json"])
        .args(&files)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let merged: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let merged = if merged.is_array() {
        merged[0].clone()
    } else {
        merged
    };
    assert_eq!(merged["total"], 14_200, "{merged}");
}

/// Raises the stop flag once `after` tasks are done.
struct StopAfter<'a> {
    stop: &'a AtomicBool,
    after: usize,
    done: std::sync::atomic::AtomicUsize,
}

impl Watcher for StopAfter<'_> {
    fn task_done(&self, _: &TaskOutcome) {
        if self.done.fetch_add(1, Ordering::Relaxed) + 1 >= self.after {
            self.stop.store(true, Ordering::Relaxed);
        }
    }
}

#[test]
fn an_interrupted_gpu_count_resumes_to_the_table() {
    if !gpu_here() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("n13.ckpt");
    let options = options(Kernel::GpuOnly, Strategy::Symmetric);
    let stop = AtomicBool::new(false);
    let watcher = StopAfter {
        stop: &stop,
        after: 1,
        done: Default::default(),
    };
    let control = RunControl::default()
        .with_journal(&file)
        .with_stop(&stop)
        .with_watcher(&watcher);
    let first = count_with(13, &options, &control).unwrap();
    assert!(!first.complete, "the stop flag ended the first run");
    assert!(first.searched_tasks >= 1);
    let resumed = RunControl::default().with_journal(&file);
    let second = count_with(13, &options, &resumed).unwrap();
    assert!(second.complete);
    assert_eq!(second.resumed_tasks, first.searched_tasks);
    assert_eq!(
        (Some(second.counts.total), second.counts.unique),
        (
            known::Known::of(13).map(|k| k.total),
            known::Known::of(13).map(|k| k.unique)
        )
    );
    let share = second.gpu.expect("a GPU kernel reports its share");
    assert_eq!(share.gpu_tasks + share.cpu_tasks, second.searched_tasks);
    assert_eq!(second.shard, Shard::WHOLE);
}

#[test]
fn the_json_record_says_what_each_device_did() {
    if !gpu_here() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let out = quiet_nqueens(dir.path())
        .args([
            "count",
            "12",
            "--kernel",
            "gpu",
            "--format",
            "json",
            "--threads",
            "1",
        ])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let record: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let record = &record[0];
    assert_eq!(
        (record["total"].as_u64(), record["kernel"].as_str()),
        (Some(14_200), Some("gpu"))
    );
    let gpu = &record["gpu"];
    let tasks = gpu["gpu_tasks"].as_u64().unwrap() + gpu["cpu_tasks"].as_u64().unwrap();
    assert_eq!(tasks, record["tasks"].as_u64().unwrap());
    assert!(!record["gpu_adapter"].as_str().unwrap().is_empty());
    assert_eq!(record["gpu_stack"], "workgroup");
    let share = record["gpu_share"].as_f64().unwrap();
    assert!((0.0..=1.0).contains(&share));
    if gpu["gpu_tasks"].as_u64() > Some(0) {
        assert!(gpu["gpu_work"]["steps"].as_u64().unwrap() > 0, "{record}");
        let busy = record["gpu_busy"].as_f64().unwrap();
        assert!(busy > 0.0 && busy <= 1.0, "{record}");
    }
}

#[test]
fn the_trace_writes_a_line_per_batch_and_one_per_stream() {
    if !gpu_here() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let out = gpu_only_with(dir.path(), ("NQUEENS_GPU_TRACE", "1"), "13");
    let err = stderr(&out);
    let batches = err
        .lines()
        .filter(|l| l.starts_with("nqueens: gpu batch: "))
        .count();
    assert!(batches >= 1, "{err}");
    let stream = the_line(&err, |l| l.starts_with("nqueens: gpu stream: "));
    assert!(stream.contains(" busy "), "{err}");
    let record: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(record[0]["total"], 73_712);

    assert_refused(
        dir.path(),
        ("NQUEENS_GPU_TRACE", "yes"),
        "NQUEENS_GPU_TRACE=\"yes\": expected 1 or 0",
    );
}

/// A `gpu-only` count of `boards` in JSON with the variable `var` set: it must succeed.
fn gpu_only_with(dir: &std::path::Path, var: (&str, &str), boards: &str) -> std::process::Output {
    let out = quiet_nqueens(dir)
        .env(var.0, var.1)
        .args(["count", boards, "--kernel", "gpu-only", "--format", "json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    out
}

/// With the variable `var` set, a GPU count is refused with `message`, in one line, exit 2.
fn assert_refused(dir: &std::path::Path, var: (&str, &str), message: &str) {
    let refused = quiet_nqueens(dir)
        .env(var.0, var.1)
        .args(["count", "8", "--kernel", "gpu-only"])
        .output()
        .unwrap();
    assert_eq!(refused.status.code(), Some(2), "{}", stderr(&refused));
    assert_eq!(
        stderr(&refused).trim(),
        format!("nqueens: error: {message}")
    );
}

#[test]
fn csv_has_one_column_per_gpu_field() {
    if !gpu_here() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let out = quiet_nqueens(dir.path())
        .args(["count", "9,10", "--kernel", "gpu-only", "--format", "csv"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    assert!(
        lines[0].ends_with(
            "gpu.gpu_tasks,gpu.cpu_tasks,gpu.gpu_solutions,gpu.cpu_solutions,gpu.gpu_failed,\
             gpu.gpu_work.dispatches,gpu.gpu_work.steps,gpu.gpu_work.offered,gpu_adapter,\
             gpu_share,gpu_busy,gpu_stack,gpu_last_rows,gpu_threads"
        ),
        "{text}"
    );
    assert!(lines[2].starts_with("10,724,92,"), "{text}");
}

#[test]
fn without_an_adapter_a_gpu_count_is_refused_in_one_line_before_any_work() {
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("n12.ckpt");
    for kernel in ["gpu", "gpu-only"] {
        let out = without_a_driver(dir.path())
            .args(["count", "12", "--kernel", kernel, "--checkpoint"])
            .arg(&journal)
            .output()
            .unwrap();
        let line = usage_error_in(&out);
        assert!(line.contains("no GPU adapter"), "{line}");
        assert!(
            line.contains("apt-get install mesa-vulkan-drivers libvulkan1"),
            "{line}"
        );
        assert!(!journal.exists(), "no journal was started");
    }
}

#[test]
fn without_an_adapter_the_command_runs_as_without_the_gpu_feature() {
    let dir = tempfile::tempdir().unwrap();
    // --version lists no GPU kernel among those this machine runs, and says why.
    let out = without_a_driver(dir.path())
        .arg("--version")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let text = String::from_utf8(out.stdout).unwrap();
    let kernels = text
        .lines()
        .find_map(|l| l.strip_prefix("kernels: "))
        .unwrap_or_else(|| panic!("no kernels line: {text}"));
    assert!(!kernels.contains("gpu"), "{text}");
    let auto = kernels
        .split(" (auto picks ")
        .nth(1)
        .and_then(|rest| rest.strip_suffix(')'))
        .unwrap_or_else(|| panic!("no auto kernel: {text}"));
    assert!(
        text.lines()
            .any(|l| l == "no GPU adapter for: gpu gpu-only"),
        "{text}"
    );
    assert!(text.contains("\ngpu adapters: none ("), "{text}");
    // A count with auto runs on the CPU kernel --version names.
    let out = without_a_driver(dir.path())
        .args(["count", "10", "--format", "json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let records: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let record = if records.is_array() {
        &records[0]
    } else {
        &records
    };
    assert_eq!(
        (record["total"].as_u64(), record["kernel"].as_str()),
        (Some(724), Some(auto)),
        "{record}"
    );
    // The completion scripts offer only the kernels this machine runs.
    let out = without_a_driver(dir.path())
        .args(["completions", "bash"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let script = String::from_utf8(out.stdout).unwrap();
    assert!(script.contains("depth-first"), "{script}");
    assert!(!script.contains("gpu-only"), "{script}");
}

#[test]
fn an_adapter_name_that_matches_none_is_refused_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let out = quiet_nqueens(dir.path())
        .env("NQUEENS_GPU_ADAPTER", "no-such-adapter-anywhere")
        .args(["count", "10", "--kernel", "gpu-only"])
        .output()
        .unwrap();
    let line = usage_error_in(&out);
    assert!(
        line.contains("no-such-adapter-anywhere") || line.contains("no GPU adapter"),
        "{line}"
    );
}

#[test]
fn the_version_names_the_adapters() {
    let dir = tempfile::tempdir().unwrap();
    let out = quiet_nqueens(dir.path()).arg("--version").output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("gpu adapters"), "{text}");
    assert!(text.contains("gpu-only"), "{text}");
    if gpu_here() {
        // Where the first adapter is not discrete (llvmpipe here), auto stays on the CPU.
        let discrete = text.contains("(discrete, ");
        let line = text.lines().last().unwrap_or("");
        assert_eq!(
            line.starts_with("auto counts on it beside the CPU from n = "),
            discrete,
            "{text}"
        );
        if !discrete {
            assert!(line.starts_with("auto counts on the CPU alone"), "{text}");
        }
    }
}

#[test]
fn the_last_two_rows_in_closed_form_count_the_same() {
    if !gpu_here() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let out = gpu_only_with(dir.path(), ("NQUEENS_GPU_LAST_ROWS", "2"), "12,13");
    let records: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(records[0]["total"], 14_200);
    assert_eq!(records[1]["total"], 73_712);
    assert_eq!(records[1]["gpu_last_rows"], "2");

    assert_refused(
        dir.path(),
        ("NQUEENS_GPU_LAST_ROWS", "3"),
        "NQUEENS_GPU_LAST_ROWS=\"3\": expected 1 or 2",
    );
}

/// Without a Wayland session (`XDG_RUNTIME_DIR` unset, as in a batch job), listing the adapters
/// leaves stderr alone: Mesa's device-selection layer, which would try to connect and have
/// libwayland say that it cannot, is turned off there. A quiet GPU count writes nothing on
/// stderr, and `--version` (which lists the adapters) nothing either.
#[test]
fn without_a_session_mesa_writes_nothing_on_stderr() {
    if !gpu_here() {
        return;
    }
    for args in [
        &["count", "12", "-q", "--kernel", "gpu"][..],
        &["--version"],
    ] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_nqueens"))
            .args(args)
            .env_remove("XDG_RUNTIME_DIR")
            .env_remove("WAYLAND_DISPLAY")
            .env_remove("WAYLAND_SOCKET")
            .env_remove("NODEVICE_SELECT")
            .env_remove("MESA_VK_DEVICE_SELECT")
            .output()
            .unwrap();
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
        assert_eq!(stderr(&out), "", "{args:?}");
    }
}
