//! `nqueens scale` end to end: output formats, the plot file, and refused input.

use crate::util::{self, nqueens, progress_every, stdout_of};
use predicates::prelude::*;
use serde_json::Value;

/// The one study of `scale --format json` (one strategy, one kernel): an array of one record,
/// as every command writes an array of records that name their n.
fn one_study(text: &str) -> Value {
    let studies: Vec<Value> = serde_json::from_str(text).unwrap();
    assert_eq!(studies.len(), 1, "{text}");
    assert!(studies[0]["n"].is_u64(), "{text}");
    studies.into_iter().next().unwrap()
}

#[test]
fn json_is_an_array_of_one_study_with_machine_runs_and_model() {
    let text = stdout_of(&[
        "scale",
        "9",
        "--threads",
        "2",
        "--repeat",
        "2",
        "-f",
        "json",
    ]);
    let v = one_study(&text);
    assert_eq!(v["n"], 9);
    assert_eq!(v["complete"], true);
    assert_eq!(v["strategy"], "symmetric");
    // The kernel that ran, never "auto".
    let kernel = v["kernel"].as_str().unwrap();
    assert!(
        nqueens::Kernel::ALL
            .iter()
            .skip(1)
            .any(|k| k.name() == kernel),
        "{kernel}"
    );
    let logical = v["machine"]["logical"].as_u64().unwrap();
    let physical = v["machine"]["physical"].as_u64().unwrap();
    assert!(logical >= physical && physical >= 1);
    let runs = v["runs"].as_array().unwrap();
    let threads: Vec<u64> = runs
        .iter()
        .map(|r| r["threads"].as_u64().unwrap())
        .collect();
    assert_eq!(threads, [1, 2], "one thread is always measured");
    for run in runs {
        for key in [
            "median_seconds",
            "min_seconds",
            "max_seconds",
            "speedup",
            "efficiency",
        ] {
            assert!(run[key].as_f64().unwrap() > 0.0, "{key} in {run}");
        }
        let (min, median, max) = (
            run["min_seconds"].as_f64().unwrap(),
            run["median_seconds"].as_f64().unwrap(),
            run["max_seconds"].as_f64().unwrap(),
        );
        assert!(min <= median && median <= max, "{run}");
        let efficiency = run["speedup"].as_f64().unwrap() / run["threads"].as_f64().unwrap();
        // Both written to six significant digits.
        assert!((run["efficiency"].as_f64().unwrap() - efficiency).abs() < 1e-5 * efficiency);
    }
    assert_eq!(runs[0]["speedup"], 1.0);
    let workers: Vec<u64> = v["model"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["threads"].as_u64().unwrap())
        .collect();
    assert_eq!(workers, [1, 2, 4, 8, 16, 32, 64, 128, 256]);
    assert!(v["model"][0]["efficiency"].as_f64().unwrap() > 0.99);
}

#[test]
fn every_thread_count_has_a_loss_breakdown_that_adds_up_to_the_lost_efficiency() {
    let text = stdout_of(&["scale", "12", "-t", "1,2", "-r", "1", "-f", "json"]);
    let v = one_study(&text);
    let runs = v["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 2);
    for run in runs {
        let loss = &run["loss"];
        let part = |key: &str| {
            loss[key]
                .as_f64()
                .unwrap_or_else(|| panic!("no {key} in {run}"))
        };
        let sum = part("serial")
            + part("imbalance")
            + part("other_programs")
            + part("slowdown")
            + part("unexplained");
        let lost = 1.0 - run["efficiency"].as_f64().unwrap();
        assert!((sum - lost).abs() < 0.01, "{sum} against {lost} in {run}");
    }
    // One thread is the baseline: it loses nothing against itself.
    let one = &runs[0]["loss"];
    for key in [
        "serial",
        "imbalance",
        "other_programs",
        "slowdown",
        "unexplained",
    ] {
        assert!(one[key].as_f64().unwrap().abs() < 1e-9, "{one}");
    }
    assert!(runs[1]["loss"]["imbalance"].as_f64().unwrap() >= 0.0);
}

#[test]
fn the_model_is_checked_by_leaving_the_measured_two_threads_out() {
    let text = stdout_of(&["scale", "12", "-t", "1,2", "-r", "1", "-f", "json"]);
    let v = one_study(&text);
    let check = v["model_check"].as_array().expect("a model check");
    assert_eq!(check.len(), 1, "{text}");
    let c = &check[0];
    assert_eq!(
        (c["threads"].as_u64(), c["from_threads"].as_u64()),
        (Some(2), Some(1))
    );
    assert_eq!(c["lumped"], false);
    assert_eq!(c["measured_seconds"], v["runs"][1]["median_seconds"]);
    let error = c["error"].as_f64().unwrap();
    let measured = c["measured_seconds"].as_f64().unwrap();
    let ratio = c["predicted_seconds"].as_f64().unwrap() / measured;
    // The error is that of the prediction before it is rounded (each figure written to six
    // significant digits).
    assert!(
        (error - (ratio - 1.0)).abs() <= 1e-5 * ratio.max(1.0),
        "{c}"
    );
    let table = stdout_of(&["scale", "12", "-t", "1,2", "-r", "1"]);
    assert!(
        table.contains("model check, leaving each measured thread count out"),
        "{table}"
    );
}

#[test]
fn csv_has_measured_and_model_rows_under_one_header() {
    let text = stdout_of(&["scale", "8", "-t", "1,2", "-r", "1", "--format", "csv"]);
    let mut lines = text.lines();
    assert_eq!(
        lines.next().unwrap(),
        "kind,n,strategy,kernel,logical_cpus,physical_cores,threads,seconds,min_seconds,max_seconds,\
         speedup,efficiency,cpu_share,busy,shares_core,cpu,loss_serial,loss_imbalance,\
         loss_other_programs,loss_slowdown,loss_unexplained"
    );
    let kinds: Vec<&str> = lines.map(|l| l.split(',').next().unwrap()).collect();
    assert_eq!(kinds.iter().filter(|&&k| k == "measured").count(), 2);
    // Each model by its one name: the list-scheduling bound and the model with losses.
    assert_eq!(kinds.iter().filter(|&&k| k == "bound").count(), 9);
    assert_eq!(kinds.iter().filter(|&&k| k == "with-losses").count(), 9);
    assert!(!kinds.contains(&"model"), "{text}");
}

#[test]
fn the_table_names_the_machine_and_both_sections() {
    let text = stdout_of(&["scale", "8", "-t", "2", "-r", "1"]);
    assert!(text.contains("machine: "), "{text}");
    assert!(text.contains("logical CPUs"), "{text}");
    assert!(text.contains("bound speedup"), "{text}");
    assert!(text.contains("with losses speedup"), "{text}");
    assert!(text.contains("bound time"), "{text}");
    assert!(!text.contains("model speedup"), "{text}");
}

#[test]
fn the_plot_is_a_well_formed_svg_and_leaves_no_temporary_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("scaling.svg");
    nqueens()
        .args(["scale", "7", "-t", "2", "-r", "1", "-f", "json", "--plot"])
        .arg(&path)
        .assert()
        .success();
    let svg = std::fs::read_to_string(&path).unwrap();
    let doc = roxmltree::Document::parse(&svg).expect("well-formed XML");
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    let text: String = doc
        .descendants()
        .filter_map(|n| n.text())
        .collect::<Vec<_>>()
        .join(" ");
    assert!(text.contains("n = 7, symmetric"), "{text}");
    let entries: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert_eq!(entries.len(), 1, "only the plot itself is left behind");
}

/// Runs a short `scale` with `--plot PATH` and checks that PATH is then an SVG.
fn plots_an_svg_to(path: &std::path::Path) {
    nqueens()
        .args(["scale", "6", "-t", "1", "-r", "1", "-f", "csv", "--plot"])
        .arg(path)
        .assert()
        .success();
    assert!(std::fs::read_to_string(path).unwrap().contains("<svg"));
}

#[cfg(unix)]
#[test]
fn a_replaced_plot_keeps_its_mode() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("private.svg");
    std::fs::write(&path, "old").unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
    plots_an_svg_to(&path);
    let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600, "the plot became {mode:o}");
}

/// The plot written by `scale` with `args` then `--plot FILE`, and its stderr.
fn plot_of(args: &[&str]) -> (String, String) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("scaling.svg");
    let out = nqueens()
        .args(args)
        .arg("--plot")
        .arg(&path)
        .assert()
        .success()
        .get_output()
        .clone();
    let svg = std::fs::read_to_string(&path).unwrap();
    (svg, String::from_utf8(out.stderr).unwrap())
}

/// Every text of the SVG, trimmed, empty ones left out.
fn svg_texts(svg: &str) -> Vec<String> {
    let doc = roxmltree::Document::parse(svg).expect("well-formed XML");
    doc.descendants()
        .filter(|n| n.is_text())
        .filter_map(|n| n.text())
        .map(|t| t.trim().to_string())
        .filter(|t| !t.is_empty())
        .collect()
}

/// The largest x tick label (x tick labels are the numbers centred under their ticks).
fn largest_x_label(svg: &str) -> f64 {
    let doc = roxmltree::Document::parse(svg).unwrap();
    doc.descendants()
        .filter(|n| n.has_tag_name("text"))
        .filter(|n| n.attribute("text-anchor") == Some("middle"))
        .filter_map(|n| n.text()?.trim().parse::<f64>().ok())
        .fold(0.0, f64::max)
}

#[test]
fn the_plot_has_one_legend_and_range_bars_in_both_panels() {
    let (svg, _) = plot_of(&["scale", "9", "-t", "2", "-r", "3", "-f", "csv"]);
    let texts = svg_texts(&svg);
    let count = |wanted: &str| texts.iter().filter(|t| *t == wanted).count();
    assert_eq!(count("measured: median of 3 timed runs"), 1, "{texts:?}");
    assert_eq!(count("bars: fastest to slowest of the 3 timed runs"), 1);
    assert_eq!(count("ideal: speedup = threads, efficiency = 100 %"), 1);
    let model = texts
        .iter()
        .filter(|t| t.starts_with("model with measured losses: "))
        .count();
    assert_eq!(model, 1, "{texts:?}");
    // The bars are the only paths in their colour: one per measured count (1 and 2 threads)
    // in each panel, and one legend entry.
    let doc = roxmltree::Document::parse(&svg).unwrap();
    // The plot's `BAR_COLOUR` (a unit test there keeps the two equal).
    let colour = "#8C1414".to_string();
    let bars = doc
        .descendants()
        .filter(|n| n.has_tag_name("polyline"))
        .filter(|n| n.attribute("stroke") == Some(colour.as_str()))
        .count();
    assert_eq!(bars, 2 * 2 + 1);
}

#[test]
fn model_up_to_widens_the_plot_and_the_model() {
    let (default, _) = plot_of(&["scale", "8", "-t", "2", "-r", "1", "-f", "csv"]);
    assert_eq!(
        largest_x_label(&default),
        8.0,
        "4 times the 2 measured threads"
    );
    let (wide, _) = plot_of(&[
        "scale",
        "8",
        "-t",
        "2",
        "-r",
        "1",
        "-f",
        "csv",
        "--model-up-to",
        "64",
    ]);
    assert_eq!(largest_x_label(&wide), 64.0);
    assert!(
        svg_texts(&wide)
            .iter()
            .any(|t| t.contains(", to 64 threads")),
        "{wide}"
    );
    let text = stdout_of(&[
        "scale",
        "8",
        "-t",
        "2",
        "-r",
        "1",
        "-f",
        "json",
        "--model-up-to",
        "1000",
    ]);
    let v = one_study(&text);
    let workers: Vec<u64> = v["model"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["threads"].as_u64().unwrap())
        .collect();
    assert_eq!(workers[workers.len() - 3..], [256, 512, 1000]);
}

#[test]
fn bad_model_reaches_are_one_line_usage_errors() {
    for bad in ["0", "-4", "many", "", "1048577", "99999999999999999999999"] {
        util::usage_error(&["scale", "8", "-r", "1", "--model-up-to", bad]);
    }
}

#[test]
fn runs_too_short_to_mean_anything_are_warned_about_and_captioned() {
    let (svg, stderr) = plot_of(&["scale", "6", "-t", "2", "-r", "3", "-f", "csv"]);
    let warning = util::the_line(&stderr, |l| l.contains("choose a larger n"));
    assert!(
        warning.starts_with("nqueens: warning: the fastest timed run took "),
        "{stderr}"
    );
    assert!(warning.contains("such as "), "{stderr}");
    let caption = svg_texts(&svg)
        .into_iter()
        .skip_while(|t| !t.starts_with("warning: "))
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        caption.starts_with("warning: the fastest timed run took "),
        "{caption}"
    );
    assert!(caption.contains("choose a larger n"), "{caption}");
}

#[test]
fn an_unwritable_plot_path_is_refused_before_any_run() {
    let dir = tempfile::tempdir().unwrap();
    let directory = dir.path().join("a-directory.svg");
    std::fs::create_dir(&directory).unwrap();
    for target in [dir.path().join("missing/plot.svg"), directory] {
        let err = util::failure(&["scale", "20", "--plot", target.to_str().unwrap()]);
        assert!(
            err.starts_with("nqueens: error: cannot write the plot"),
            "{err}"
        );
    }
}

#[test]
fn a_plot_path_not_ending_in_svg_is_refused_before_any_run() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["s.png", "plot", "s.svg.txt"] {
        let path = dir.path().join(name);
        let err = util::usage_error(&["scale", "20", "--plot", path.to_str().unwrap()]);
        assert!(err.contains("does not end in .svg"), "{err}");
        assert!(err.contains("plot.svg"), "names the fix: {err}");
        assert!(!path.exists());
    }
    // Any case of the extension is SVG.
    let path = dir.path().join("S.SVG");
    plots_an_svg_to(&path);
}

#[test]
fn bad_thread_lists_are_one_line_usage_errors() {
    for bad in ["0", "1,0", "2,2", "two", "", "1,,2", "-3", "1;2"] {
        util::usage_error(&["scale", "8", "--threads", bad]);
    }
}

#[test]
fn bad_boards_and_repeats_are_usage_errors() {
    for args in [
        ["scale", "65", "-r", "1"],
        ["scale", "x", "-r", "1"],
        ["scale", "8", "-r", "0"],
    ] {
        nqueens().args(args).assert().code(2).stdout("");
    }
}

#[test]
fn more_threads_than_cpus_are_measured_with_a_warning() {
    let too_many = (num_cpus::get() + 1).to_string();
    nqueens()
        .args(["scale", "6", "-r", "1", "-f", "csv", "--threads", &too_many])
        .assert()
        .success()
        .stderr(predicate::str::contains("oversubscribed"));
}

#[test]
fn help_documents_every_option_with_examples() {
    let out = stdout_of(&["scale", "--help"]);
    for wanted in [
        "--threads",
        "--repeat",
        "--strategy",
        "--format",
        "--plot",
        "--model-up-to",
        "Examples:",
    ] {
        assert!(out.contains(wanted), "{wanted} in {out}");
    }
}

#[test]
fn a_study_with_stderr_in_a_pipe_writes_a_plain_progress_line_now_and_then() {
    let args = [
        "scale",
        "15",
        "-t",
        "2",
        "-r",
        "1",
        "--kernel",
        "depth-first",
    ];
    let out = progress_every("0.1", args).success().get_output().clone();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(!stderr.contains(['\r', '\x1b']), "{stderr:?}");
    let lines: Vec<&str> = stderr
        .lines()
        .filter(|l| l.starts_with("nqueens: n = 15: "))
        .collect();
    assert!(!lines.is_empty(), "no progress line: {stderr}");
    for line in &lines {
        let rest = line.strip_prefix("nqueens: n = 15: ").unwrap();
        let (done, rest) = rest
            .split_once(" of 4 runs done, measuring ")
            .unwrap_or_else(|| {
                panic!("{line}");
            });
        assert!(done.parse::<u64>().unwrap() <= 4, "{line}");
        assert!(
            rest.starts_with("1 thread, ") || rest.starts_with("2 threads, "),
            "{line}"
        );
        assert!(
            rest.contains("warm-up, ") || rest.contains("run 1 of 1, "),
            "{line}"
        );
        assert!(rest.ends_with(" s elapsed"), "{line}");
    }
    // Quiet: none; a bad interval: refused in one line before any run.
    let quiet = progress_every("0.1", args.iter().chain(&["-q"]))
        .success()
        .get_output()
        .clone();
    assert!(quiet.stderr.is_empty(), "{:?}", quiet.stderr);
    let refused = progress_every("soon", args).code(2).get_output().clone();
    let err = String::from_utf8(refused.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("NQUEENS_PROGRESS_SECONDS="), "{err}");
}

/// An interrupted study writes the thread counts whose timed runs finished, marked not complete,
/// says so on stderr and exits 130, as an interrupted count or estimate does.
#[cfg(unix)]
#[test]
fn an_interrupted_study_writes_what_it_measured_marked_stopped() {
    use std::io::BufRead;
    use std::process::Stdio;
    use std::time::{Duration, Instant};
    let mut child = util::nqueens_process()
        .args([
            "scale",
            "13",
            "-t",
            "2",
            "-r",
            "1000",
            "--max-seconds",
            "1e9",
        ])
        .args(["--kernel", "depth-first", "--format", "json"])
        .env("NQUEENS_PROGRESS_SECONDS", "0.1")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let (send, lines) = std::sync::mpsc::channel();
    let stderr = std::io::BufReader::new(child.stderr.take().unwrap());
    std::thread::spawn(move || {
        for line in stderr.lines().map_while(Result::ok) {
            let _ = send.send(line);
        }
    });
    // A progress line of the second round of timed runs: the first round has finished, so an
    // interrupt keeps it.
    let mut seen = String::new();
    let deadline = Instant::now() + Duration::from_secs(60);
    // (Progress lines come every 0.1 s, the least interval: a round may pass between two.)
    let round = |line: &str| -> Option<u64> {
        let (_, after) = line.split_once(", run ")?;
        after.split(' ').next()?.parse().ok()
    };
    while round(&seen).is_none_or(|run| run < 2) {
        let line = lines
            .recv_timeout(deadline.saturating_duration_since(Instant::now()))
            .unwrap_or_else(|_| panic!("no second round of timed runs: {seen}"));
        seen = line;
    }
    util::send(&child, "INT");
    let mut rest = String::new();
    while let Ok(line) = lines.recv_timeout(Duration::from_secs(60)) {
        rest.push_str(&line);
        rest.push('\n');
    }
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130), "{rest}");
    assert!(
        rest.contains("stopping: the running tasks are dropped"),
        "{rest}"
    );
    assert!(
        rest.contains(
            "nqueens: interrupted: the results rest on the timed runs finished before it \
             (2 of the 2 thread counts)"
        ),
        "{rest}"
    );
    let v = one_study(&String::from_utf8_lossy(&out.stdout));
    assert_eq!(v["complete"], false, "{v}");
    assert_eq!(v["repeat"], 1000, "{v}");
    let threads: Vec<u64> = v["runs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["threads"].as_u64().unwrap())
        .collect();
    assert_eq!(threads, [1, 2], "{v}");
    assert!(!v["model"].as_array().unwrap().is_empty(), "{v}");
}
