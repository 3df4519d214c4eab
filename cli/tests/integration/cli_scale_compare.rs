//! `nqueens scale` with several kernels, and `scale --compare` of saved results: the table, JSON,
//! CSV and plot of the comparison, and the files it refuses.

use std::path::PathBuf;

use predicates::prelude::*;
use serde_json::Value;

use crate::util::{
    self, busy_fixture, nqueens, older_fixture, quiet_fixture, scale_compare, stdout_of,
};

/// Two saved results made by the tool here: `kernels.json` with two kernels of n = 10 measured
/// together, and `small.json` of n = 9 with another thread list.
struct Saved {
    dir: tempfile::TempDir,
}

impl Saved {
    fn make() -> Saved {
        let dir = tempfile::tempdir().unwrap();
        let kernels = stdout_of(&[
            "scale",
            "10",
            "-t",
            "1,2",
            "-r",
            "1",
            "-f",
            "json",
            "--kernel",
            "depth-first,portable-lanes",
            "--strategy",
            "mirror",
        ]);
        std::fs::write(dir.path().join("kernels.json"), kernels).unwrap();
        let small = stdout_of(&["scale", "9", "-t", "2", "-r", "1", "-f", "json"]);
        std::fs::write(dir.path().join("small.json"), small).unwrap();
        Saved { dir }
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    /// `scale --compare` of the named files, then `extra`: its stdout and stderr.
    fn compare(&self, names: &[&str], extra: &[&str]) -> (String, String) {
        scale_compare(names.iter().map(|n| self.path(n)), extra)
    }
}

#[test]
fn several_kernels_are_measured_as_one_series_each() {
    let saved = Saved::make();
    let text = std::fs::read_to_string(saved.path("kernels.json")).unwrap();
    let v: Value = serde_json::from_str(&text).unwrap();
    let series = v.as_array().expect("an array of series, one per kernel");
    let kernels: Vec<&str> = series
        .iter()
        .map(|s| s["run"]["kernel"].as_str().unwrap())
        .collect();
    assert_eq!(kernels, ["depth-first", "portable-lanes"]);
    for s in series {
        assert_eq!(s["kernel"], s["run"]["kernel"]);
        assert_eq!(
            (s["n"].as_u64(), s["strategy"].as_str()),
            (Some(10), Some("mirror"))
        );
        assert_eq!(s["total"], 724);
        let run = &s["run"];
        assert_eq!(run["version"], env!("CARGO_PKG_VERSION"));
        assert!(run["date"].as_str().unwrap().ends_with('Z'));
        assert!(run["os"].as_str().unwrap().contains(std::env::consts::ARCH));
        let (logical, physical) = (
            run["logical"].as_u64().unwrap(),
            run["physical"].as_u64().unwrap(),
        );
        assert_eq!(run["smt"], logical > physical);
        let headline = &s["headline"];
        assert_eq!(headline["solutions"], 724);
        let rate = headline["solutions_per_second"].as_f64().unwrap();
        let seconds = headline["seconds"].as_f64().unwrap();
        // Each written to six significant digits.
        assert!((rate * seconds - 724.0).abs() < 724.0 * 1e-5, "{headline}");
        assert!(s["model_leaves_out"].as_str().unwrap().contains("SMT"));
        for point in s["runs"].as_array().unwrap() {
            let threads = point["threads"].as_u64().unwrap();
            assert_eq!(point["shares_core"], threads > physical, "{point}");
        }
    }
    // The human table ends with the two side by side.
    let table = stdout_of(&[
        "scale",
        "9",
        "-t",
        "2",
        "-r",
        "1",
        "--kernel",
        "depth-first,portable-lanes",
    ]);
    assert!(
        table.contains("n = 9, strategy symmetric, kernel depth-first"),
        "{table}"
    );
    assert!(
        table.contains("n = 9, strategy symmetric, kernel portable-lanes"),
        "{table}"
    );
    assert!(table.contains("compared:\n  A: "), "{table}");
    assert!(table.contains("it leaves out SMT"), "{table}");
}

#[test]
fn the_comparison_table_lines_up_every_series_by_thread_count() {
    let saved = Saved::make();
    let (table, stderr) = saved.compare(&["kernels.json", "small.json"], &[]);
    let names: Vec<&str> = table
        .lines()
        .filter_map(|l| l.strip_prefix("  ")?.split_once(": ").map(|(id, _)| id))
        .filter(|id| id.chars().all(|c| c.is_ascii_uppercase()))
        .collect();
    assert_eq!(names, ["A", "B", "C"], "{table}");
    assert!(
        table.contains("depth-first kernel, mirror, n = 10 ("),
        "{table}"
    );
    assert!(
        table.contains("portable-lanes kernel, mirror, n = 10 ("),
        "{table}"
    );
    assert!(table.contains("kernels.json"), "{table}");
    assert!(table.contains("solutions/s with"), "{table}");
    // The rows: by thread count, the series in turn (C too has a 1-thread row: one thread is
    // always measured).
    let rows: Vec<(String, String)> = table
        .lines()
        .filter(|l| l.starts_with("|  "))
        .map(|l| {
            let cells: Vec<&str> = l.trim_matches('|').split_whitespace().collect();
            (cells[0].to_string(), cells[1].to_string())
        })
        .collect();
    let want: Vec<(String, String)> = [
        ("1", "A"),
        ("1", "B"),
        ("1", "C"),
        ("2", "A"),
        ("2", "B"),
        ("2", "C"),
    ]
    .iter()
    .map(|&(t, s)| (t.to_string(), s.to_string()))
    .collect();
    assert_eq!(rows, want, "{table}");
    for heading in [
        "threads",
        "run",
        "median",
        "speedup",
        "efficiency",
        "shares core",
    ] {
        assert!(table.contains(heading), "{heading} in {table}");
    }
    // n and strategy differ: allowed, flagged; then what the series' runs knew of themselves
    // (these boards take milliseconds: said once, of the first series, naming the others; the
    // table says it of each).
    let warnings: Vec<&str> = stderr.lines().collect();
    assert_eq!(warnings.len(), 2, "{stderr}");
    assert!(
        warnings[1].contains("depth-first kernel, mirror, n = 10: the fastest timed run took "),
        "{stderr}"
    );
    let short = table
        .lines()
        .filter(|l| l.starts_with("     warning: the fastest timed run took "))
        .count();
    assert_eq!(short, 3, "{table}");
    // The line on stderr names the others as short too.
    assert!(
        warnings[1].ends_with("; the runs of B, C are as short (see the table)"),
        "{stderr}"
    );
    assert!(
        warnings[0].starts_with(
            "nqueens: warning: the runs differ in n (10, 9) and strategy (mirror, symmetric): "
        ),
        "{stderr}"
    );
}

#[test]
fn the_comparison_as_json_and_csv_names_each_series_and_flags_differences() {
    let saved = Saved::make();
    let (json, _) = saved.compare(&["kernels.json", "small.json"], &["-f", "json"]);
    let v: Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["differs_in"], serde_json::json!(["n", "strategy"]));
    let series = v["series"].as_array().unwrap();
    let ids: Vec<&str> = series.iter().map(|s| s["id"].as_str().unwrap()).collect();
    assert_eq!(ids, ["A", "B", "C"]);
    assert_eq!(series[2]["n"], 9);
    assert!(
        series[1]["label"]
            .as_str()
            .unwrap()
            .contains("portable-lanes kernel")
    );
    assert!(
        series[0]["file"]
            .as_str()
            .unwrap()
            .ends_with("kernels.json")
    );
    assert!(
        series[0]["headline"]["solutions_per_second"]
            .as_f64()
            .unwrap()
            > 0.0
    );
    let table = v["table"].as_array().unwrap();
    assert_eq!(table.len(), 6);
    for row in table {
        assert_eq!(row["differs"], "n strategy");
        assert!(row["speedup"].as_f64().unwrap() > 0.0);
        let threads = row["threads"].as_u64().unwrap();
        let physical = row["physical_cores"].as_u64().unwrap();
        assert_eq!(row["shares_core"], threads > physical);
    }

    let (csv, _) = saved.compare(&["kernels.json", "small.json"], &["-f", "csv"]);
    let mut lines = csv.lines();
    assert_eq!(
        lines.next().unwrap(),
        "threads,series,label,n,strategy,kernel,cpu,logical_cpus,physical_cores,median_seconds,\
         min_seconds,max_seconds,speedup,efficiency,cpu_share,busy,shares_core,differs,\
         short_runs,complete,loss_serial,loss_imbalance,loss_other_programs,loss_slowdown,loss_unexplained,\
         model_error,model_error_lumped"
    );
    let rows: Vec<&str> = lines.collect();
    assert_eq!(rows.len(), 6, "{csv}");
    assert!(rows.iter().all(|r| r.contains(",n strategy,")), "{csv}");

    // One file of two kernels of one board: nothing differs.
    let (json, stderr) = saved.compare(&["kernels.json"], &["-f", "json"]);
    let v: Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["differs_in"], serde_json::json!([]));
    assert_eq!(v["series"].as_array().unwrap().len(), 2);
    assert!(!stderr.contains("differ"), "{stderr}");
}

/// `scale --compare` of the busy and the clean study, then `extra`: stdout and stderr.
fn compare_busy_and_clean(extra: &[&str]) -> (String, String) {
    scale_compare([busy_fixture(), quiet_fixture()], extra)
}

#[test]
fn a_busy_run_beside_a_clean_one_shows_its_cpu_share_and_warning_in_the_table() {
    let (table, stderr) = compare_busy_and_clean(&[]);
    let busy_warning = "other programs were using the CPUs: runs received as little as 50.5 % of \
                        the CPU time they asked for (2 threads, A: Intel Core i5-7200U, 2 \
                        cores: avx2 kernel, symmetric, n = 17; under 80.0 % is a busy \
                        machine), so the measured times, speedups and efficiencies are those of \
                        this busy machine, not the machine's";
    // Once on stderr, naming the series; on stdout one short line above the series.
    assert!(!table.contains("warning:"), "{table}");
    assert!(
        table.starts_with(
            "busy machine: other programs took CPU time from the runs of A (CPU share under \
             80.0 %)\n"
        ),
        "{table}"
    );
    let stderr_lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(stderr_lines.len(), 2, "{stderr}"); // the boards differ, and the busy machine
    assert!(
        stderr_lines[1].starts_with(&format!("nqueens: warning: {busy_warning}")),
        "{stderr}"
    );
    // The CPU share and the lost CPU time as "other programs", not "slowdown".
    let header = table.lines().find(|l| l.starts_with("| threads")).unwrap();
    let heading = |name: &str| {
        header
            .find(name)
            .unwrap_or_else(|| panic!("{name}: {table}"))
    };
    assert!(heading("CPU share") < heading("other programs"), "{table}");
    assert!(heading("other programs") < heading("slowdown"), "{table}");
    let row = table
        .lines()
        .find(|l| l.split_whitespace().take(3).eq(["|", "2", "A"]))
        .unwrap_or_else(|| panic!("{table}"));
    assert!(row.contains("50.5 %"), "{row}");
    // 50.5 % of the CPU at 2 threads, 99 % at 1 (half as long in 2 threads' units), 0.1 at the
    // tail: 100 - 50.5 - 0.1 - 1 x 0.5 = 48.9 points taken by other programs, 49.7 - 48.9 =
    // 0.8 left of the slowdown.
    let cells: Vec<&str> = row.split_whitespace().collect();
    let after_share = &cells[cells.iter().position(|&c| c == "50.5").unwrap()..];
    assert_eq!(
        after_share[..8],
        ["50.5", "%", "-", "0.1", "0.1", "48.9", "0.8", "0.1"],
        "{row}"
    );
}

#[test]
fn a_busy_run_beside_a_clean_one_carries_its_cpu_share_and_warning_in_json_and_csv() {
    let (json, _) = compare_busy_and_clean(&["-f", "json"]);
    let v: Value = serde_json::from_str(&json).unwrap();
    let warnings = |i: usize| v["series"][i]["warnings"].as_array().unwrap().clone();
    assert_eq!(warnings(0).len(), 1, "{json}");
    assert!(
        warnings(0)[0]
            .as_str()
            .unwrap()
            .starts_with("other programs were using the CPUs: runs received as little as 50.5 %"),
        "{json}"
    );
    assert!(warnings(1).is_empty(), "{json}");
    let rows = v["table"].as_array().unwrap();
    let busy_two = rows
        .iter()
        .find(|r| r["series"] == "A" && r["threads"] == 2)
        .unwrap();
    assert_eq!(busy_two["cpu_share"], 0.505);
    assert_eq!(busy_two["busy"], true);
    let part = |key: &str| busy_two[key].as_f64().unwrap();
    assert!(
        (part("loss_other_programs") - 0.489).abs() < 1e-9,
        "{busy_two}"
    );
    assert!((part("loss_slowdown") - 0.008).abs() < 1e-9, "{busy_two}");
    let clean = rows.iter().filter(|r| r["series"] == "B");
    for row in clean {
        assert!(row["cpu_share"].as_f64().unwrap() > 0.99, "{row}");
        assert_eq!(row["busy"], false, "{row}");
        assert!(row.get("warnings").is_none(), "{row}");
    }

    let (csv, _) = compare_busy_and_clean(&["-f", "csv"]);
    let mut reader = csv::Reader::from_reader(csv.as_bytes());
    let headers = reader.headers().unwrap().clone();
    let column = |name: &str| headers.iter().position(|h| h == name).unwrap();
    let records: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    let busy = records
        .iter()
        .find(|r| &r[1] == "A" && &r[0] == "2")
        .unwrap();
    assert_eq!(&busy[column("cpu_share")], "0.505");
    assert_eq!(&busy[column("busy")], "true");
    assert!(!csv.contains("other programs"), "{csv}");
}

#[test]
fn the_comparison_plot_has_every_series_in_its_legend() {
    let saved = Saved::make();
    let plot = saved.path("compared.svg");
    saved.compare(
        &["kernels.json", "small.json"],
        &["-f", "csv", "--plot", plot.to_str().unwrap()],
    );
    let svg = std::fs::read_to_string(&plot).unwrap();
    let doc = roxmltree::Document::parse(&svg).expect("well-formed XML");
    let texts: Vec<&str> = doc
        .descendants()
        .filter(|n| n.is_text())
        .filter_map(|n| n.text())
        .map(str::trim)
        .collect();
    let title = texts
        .iter()
        .find(|t| t.starts_with("Thread scaling: "))
        .unwrap();
    assert!(title.contains("n = 10, 9"), "{title}");
    assert!(title.contains("depth-first, portable-lanes, "), "{title}");
    // The legend names what tells the series apart: kernel, strategy and n here.
    let legend: Vec<&&str> = texts
        .iter()
        .filter(|t| t.contains(" kernel, ") && !t.starts_with("warning: "))
        .collect();
    assert_eq!(legend.len(), 3, "{texts:?}");
    assert!(
        legend[0].starts_with("depth-first kernel, mirror, n = 10"),
        "{legend:?}"
    );
    assert!(legend[2].contains(", symmetric, n = 9"), "{legend:?}");
    assert!(texts.iter().any(|t| t.starts_with("ideal: ")));
    assert!(
        texts
            .iter()
            .any(|t| t.starts_with("warning: the runs differ in n"))
    );
    // Each series' points in its own colour: three fills, each in both panels and the legend.
    let mut fills: Vec<&str> = doc
        .descendants()
        .filter(|n| n.has_tag_name("circle"))
        .filter_map(|n| n.attribute("fill"))
        .collect();
    fills.sort_unstable();
    fills.dedup();
    assert_eq!(fills.len(), 3, "{fills:?}");
}

#[test]
fn the_committed_older_result_is_compared_with_a_new_one() {
    let saved = Saved::make();
    let old = older_fixture();
    let small = saved.path("small.json");
    let table = stdout_of(&[
        "scale",
        "--compare",
        old.to_str().unwrap(),
        small.to_str().unwrap(),
    ]);
    assert!(
        table.contains("A: 16 cores, CPU not recorded: avx512 kernel, symmetric, n = 18"),
        "{table}"
    );
    assert!(table.contains("|      16     A "), "{table}");
}

/// `scale --compare FILE` where FILE holds `contents`: exit 1 and one line that names it.
fn refused(contents: &[u8], wanted: &str) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("result.json");
    std::fs::write(&path, contents).unwrap();
    let err = util::failure(&["scale", "--compare", path.to_str().unwrap()]);
    assert!(err.contains("result.json"), "{err}");
    assert!(err.contains(wanted), "{err}");
}

#[test]
fn foreign_damaged_and_missing_files_are_refused_in_one_line() {
    refused(br#"{"a": 1}"#, "is not a scale result (missing field `n`)");
    refused(
        b"[1, 2, 3]",
        "is not a scale result ([0] is not a JSON object)",
    );
    refused(b"[]", "is not a scale result (an empty list of studies)");
    refused(b"hello, world\n", "it is not valid JSON");
    refused(b"", "ends early");
    let saved = Saved::make();
    let whole = std::fs::read(saved.path("small.json")).unwrap();
    refused(&whole[..whole.len() / 2], "ends early (truncated?)");
    // Whole JSON, wrong inside: a run without its times.
    let mut v: Value = serde_json::from_slice(&whole).unwrap();
    v[0]["runs"][0]
        .as_object_mut()
        .unwrap()
        .remove("median_seconds");
    refused(
        v.to_string().as_bytes(),
        "([0].runs[0]: missing field `median_seconds`)",
    );
    // A count's JSON is not a scale result either.
    let count = stdout_of(&["count", "8", "-f", "json"]);
    refused(count.as_bytes(), "is not a scale result");

    // Endless input is not read at all, and a huge file not to its end.
    nqueens()
        .args(["scale", "--compare", "/dev/zero"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("a device, not a regular file"));
    let huge = saved.path("huge.json");
    std::fs::File::create(&huge)
        .and_then(|file| file.set_len(65 << 20))
        .unwrap();
    nqueens()
        .args(["scale", "--compare"])
        .arg(&huge)
        .assert()
        .code(1)
        .stderr(predicate::str::contains("larger than 64 MiB"));
    nqueens()
        .args(["scale", "--compare"])
        .arg(saved.path(""))
        .assert()
        .code(1)
        .stderr(predicate::str::starts_with("nqueens: error: cannot read "));

    let small = saved.path("small.json");
    let missing = saved.path("missing.json");
    let err = util::failure(&[
        "scale",
        "--compare",
        small.to_str().unwrap(),
        missing.to_str().unwrap(),
    ]);
    assert!(err.starts_with("nqueens: error: cannot read "), "{err}");
    assert!(err.contains("missing.json"), "{err}");
}

#[test]
fn compare_takes_no_board_and_measuring_needs_one() {
    let saved = Saved::make();
    let small = saved.path("small.json");
    let small = small.to_str().unwrap();
    for args in [
        vec!["scale"],
        vec!["scale", "--compare"],
        vec!["scale", "10", "--compare", small],
        vec!["scale", "--compare", small, "--threads", "2"],
        vec!["scale", "--compare", small, "--kernel", "depth-first"],
        vec!["scale", "--compare", small, "--plot", "c.png"],
        vec!["scale", "8", "--kernel", "depth-first,nonsense"],
    ] {
        util::usage_error(&args);
    }
}

#[test]
fn the_progress_line_names_each_kernel_in_turn_under_a_terminal() {
    // Under a pseudo-terminal stderr shows the progress.
    let (code, text) = util::on_terminal(
        "scale 9 -t 2 -r 1 -f csv --kernel depth-first,portable-lanes",
        &[],
    )
    .expect("script (util-linux) runs commands under a pseudo-terminal");
    assert_eq!(code, 0, "{text}");
    // The bar redraws its line: each run's text once, cut at the padding or escape after it.
    let mut lines: Vec<&str> = text
        .split(['\r', '\n'])
        .filter_map(|l| l.split("measuring ").nth(1))
        .map(|l| l.split(['\x1b', '\t']).next().unwrap_or("").trim_end())
        .collect();
    lines.dedup();
    let kernel = |l: &&str| l.split(", ").next().unwrap_or("").to_string();
    let kernels: Vec<String> = lines.iter().map(kernel).collect();
    // Warm-ups and the timed run, each thread count: the two kernels take turns.
    let turns = ["depth-first kernel", "portable-lanes kernel"].repeat(4);
    assert_eq!(kernels, turns, "{text}");
    assert!(
        lines[0].starts_with("depth-first kernel, symmetric (1 of 2): 1 thread, warm-up"),
        "{text}"
    );
    assert!(
        lines[7].ends_with("(2 of 2): 2 threads, run 1 of 1"),
        "{text}"
    );
}

/// A small valid saved result, made by hand: n = 12, measured on 1 and 2 threads.
fn crafted() -> Value {
    serde_json::json!({
        "n": 12, "strategy": "symmetric", "kernel": "avx512", "repeat": 3,
        "machine": {"logical": 2, "physical": 2},
        "runs": [
            {"threads": 1, "median_seconds": 1.0, "min_seconds": 0.9, "max_seconds": 1.1,
             "speedup": 1.0, "efficiency": 1.0, "cpu_share": 0.99},
            {"threads": 2, "median_seconds": 0.55, "min_seconds": 0.5, "max_seconds": 0.6,
             "speedup": 1.82, "efficiency": 0.91, "cpu_share": 0.98}
        ],
        "model": [
            {"workers": 1, "predicted_seconds": 1.0, "speedup": 1.0, "efficiency": 1.0},
            {"workers": 2, "predicted_seconds": 0.5, "speedup": 2.0, "efficiency": 1.0}
        ]
    })
}

/// `scale --compare FILE --plot FILE.svg` of `value`, with a deadline: its exit code and stderr.
fn compare_and_plot(value: &Value) -> (Option<i32>, String) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("d1.json");
    std::fs::write(&path, value.to_string()).unwrap();
    let out = nqueens()
        .arg("scale")
        .arg("--compare")
        .arg(&path)
        .arg("--plot")
        .arg(dir.path().join("d1.svg"))
        .timeout(std::time::Duration::from_secs(60))
        .output()
        .unwrap();
    (out.status.code(), util::stderr(&out))
}

#[test]
fn absurd_numbers_in_a_saved_result_are_refused_naming_the_field() {
    assert_eq!(compare_and_plot(&crafted()).0, Some(0));
    for (pointer, value, wanted) in [
        (
            "/runs/0/min_seconds",
            serde_json::json!(4e-311),
            "runs[0].min_seconds is under a nanosecond, outside 1e-9 to 1e9",
        ),
        (
            "/model/1/speedup",
            serde_json::json!(1.7e308),
            "model[1].speedup is 1.7e308",
        ),
        (
            "/runs/1/efficiency",
            serde_json::json!("high"),
            r#"runs[1].efficiency: invalid type: string "high", expected f64"#,
        ),
        (
            "/runs/1/threads",
            serde_json::json!(0),
            "runs[1].threads is 0, outside 1 to",
        ),
        (
            "/machine/logical",
            serde_json::json!(2.5),
            "machine.logical: invalid type: floating point `2.5`, expected usize",
        ),
    ] {
        let mut v = crafted();
        *v.pointer_mut(pointer).unwrap() = value;
        let (code, err) = compare_and_plot(&v);
        assert_eq!(code, Some(1), "{pointer}: {err}");
        assert!(
            err.contains("d1.json") && err.contains(wanted),
            "{pointer}: {err}"
        );
        assert_eq!(err.lines().count(), 1, "{err}");
    }
    // A saved speedup is not taken as read: the medians give it.
    for speedup in [1e-310, 1.5e308] {
        let mut v = crafted();
        v["runs"][1]["speedup"] = serde_json::json!(speedup);
        v["runs"][1]["efficiency"] = serde_json::json!(speedup / 2.0);
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("d1.json");
        std::fs::write(&path, v.to_string()).unwrap();
        let table = stdout_of(&["scale", "--compare", path.to_str().unwrap()]);
        let row = table
            .lines()
            .find(|l| l.trim_start_matches('|').trim_start().starts_with("2 "))
            .unwrap();
        // 1 / 0.55 = 1.82x, 90.9 %.
        assert!(row.contains("1.82x") && row.contains("90.9 %"), "{table}");
    }
}

#[test]
fn a_wrong_type_or_sign_is_named_not_taken_for_a_missing_key() {
    for (n, wanted) in [
        (
            serde_json::json!("12"),
            r#"n: invalid type: string "12", expected u32"#,
        ),
        (
            serde_json::json!(-1),
            "n: invalid value: integer `-1`, expected u32",
        ),
        (
            serde_json::json!(12.5),
            "n: invalid type: floating point `12.5`, expected u32",
        ),
        (
            serde_json::json!(null),
            "n: invalid type: null, expected u32",
        ),
        (serde_json::json!(65), "n is 65, outside 0 to 64"),
    ] {
        let mut v = crafted();
        v["n"] = n;
        refused(v.to_string().as_bytes(), wanted);
    }
    let mut v = crafted();
    v["runs"][0]["threads"] = serde_json::json!(-4);
    refused(
        v.to_string().as_bytes(),
        "runs[0].threads: invalid value: integer `-4`, expected usize",
    );
}

#[test]
fn the_number_of_series_is_bounded_for_the_table_and_the_plot() {
    let dir = tempfile::tempdir().unwrap();
    let many = |count: usize| {
        let path = dir.path().join(format!("s{count}.json"));
        let series: Vec<Value> = std::iter::repeat_n(crafted(), count).collect();
        std::fs::write(&path, serde_json::json!({ "series": series }).to_string()).unwrap();
        path
    };
    let svg = dir.path().join("p.svg");
    // 65 copies compare as a table, but are too many to plot.
    let sixty_five = many(65);
    let table = stdout_of(&["scale", "--compare", sixty_five.to_str().unwrap()]);
    assert!(table.contains("  BM: "), "series 65 is BM");
    let err = util::failure(&[
        "scale",
        "--compare",
        sixty_five.to_str().unwrap(),
        "--plot",
        svg.to_str().unwrap(),
    ]);
    assert!(
        err.contains("the plot draws at most 64 series, and the files hold 65"),
        "{err}"
    );
    assert!(!svg.exists());
    let sixty_four = many(64);
    nqueens()
        .args(["scale", "--compare", sixty_four.to_str().unwrap(), "--plot"])
        .arg(&svg)
        .assert()
        .success();
    // Beyond 10 000 series in all, nothing is compared.
    let five_thousand = many(5_001);
    let path = five_thousand.to_str().unwrap();
    let err = util::failure(&["scale", "--compare", path, path]);
    assert!(err.contains("more than 10000 series"), "{err}");
}

#[test]
fn a_plot_onto_one_of_the_compared_files_is_refused_and_the_file_kept() {
    let saved = Saved::make();
    // A saved result whose name ends in .svg, as the plot's must.
    let input = saved.path("small.svg");
    std::fs::copy(saved.path("small.json"), &input).unwrap();
    let before = std::fs::read(&input).unwrap();
    // The same file by its own name and by another path to it.
    let dotted = saved.dir.path().join(".").join("small.svg");
    for plot in [&input, &dotted] {
        let err = util::usage_error(&[
            "scale",
            "--compare",
            saved.path("kernels.json").to_str().unwrap(),
            input.to_str().unwrap(),
            "--plot",
            plot.to_str().unwrap(),
        ]);
        assert!(err.contains("is also an input"), "{err}");
        assert_eq!(std::fs::read(&input).unwrap(), before, "the input is kept");
    }
}

#[test]
fn control_characters_of_a_saved_result_reach_the_plot_written_out() {
    let mut value = crafted();
    value["run"] = serde_json::json!({
        "cpu": "CPU\u{1b}[31m", "date": "2026-11-24T00:00:00Z", "version": "0.1\u{1b}[2J\u{1}"
    });
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ctl.json");
    std::fs::write(&path, value.to_string()).unwrap();
    let svg = dir.path().join("ctl.svg");
    nqueens()
        .arg("scale")
        .arg("--compare")
        .arg(&path)
        .arg("--plot")
        .arg(&svg)
        .assert()
        .success();
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(
        !text.contains('\u{1b}') && !text.contains('\u{1}'),
        "raw controls in the SVG"
    );
    roxmltree::Document::parse(&text).expect("the plot is well-formed XML");
    assert!(text.contains(r"0.1\e[2J\x01"), "the version written out");
}

/// A saved run edited to claim speedup 50, efficiency 25 (2 500 %), CPU share 5 (500 %) and a
/// total of 99 999 for n = 12 (14 200 solutions) is refused, naming what its measurements or
/// the known table contradict; its speedup and efficiency alone are recomputed from the medians.
#[test]
fn a_saved_study_cannot_show_what_its_measurements_contradict() {
    let mut v = crafted();
    for run in v["runs"].as_array_mut().unwrap() {
        run["speedup"] = serde_json::json!(50.0);
        run["efficiency"] = serde_json::json!(25.0);
        run["cpu_share"] = serde_json::json!(5.0);
    }
    v["total"] = serde_json::json!(99_999);
    refused(
        v.to_string().as_bytes(),
        "runs[0].cpu_share is 5, but 1 thread on 2 logical CPUs receives at most 2",
    );
    v["runs"][0]["cpu_share"] = serde_json::json!(0.99);
    refused(
        v.to_string().as_bytes(),
        "runs[1].cpu_share is 5, but 2 threads on 2 logical CPUs receive at most 1",
    );
    v["runs"][1]["cpu_share"] = serde_json::json!(0.98);
    refused(
        v.to_string().as_bytes(),
        "total is 99999, but n = 12 has 14200 solutions",
    );
    v["total"] = serde_json::json!(14_200);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("edited.json");
    std::fs::write(&path, v.to_string()).unwrap();
    let table = stdout_of(&["scale", "--compare", path.to_str().unwrap()]);
    assert!(
        !table.contains("50.0x") && !table.contains("500.0 %"),
        "{table}"
    );
    let row = table
        .lines()
        .find(|l| l.trim_start_matches('|').trim_start().starts_with("2 "))
        .unwrap();
    // 1 / 0.55 = 1.82x, 90.9 %; the CPU share as measured.
    assert!(
        row.contains("1.82x") && row.contains("90.9 %") && row.contains("98.0 %"),
        "{row}"
    );
}

/// A study saved by the tool, edited: a part of its loss breakdown beyond what its medians allow
/// (serial 50, shown as 5 000 points lost), parts that no longer add up to what the medians
/// lose, a thread count beyond what the tool runs on the machine the study names (65 threads on
/// 2 logical CPUs, whose most is 64) is refused in one line naming the file and the field; the
/// study as saved is compared.
#[test]
fn a_saved_study_cannot_show_a_loss_or_a_thread_count_its_measurements_contradict() {
    let saved: Value = serde_json::from_str(&stdout_of(&[
        "scale", "9", "-t", "2", "-r", "1", "-f", "json",
    ]))
    .unwrap();
    let edited = |edit: &dyn Fn(&mut Value)| {
        let mut v = saved.clone();
        edit(&mut v[0]);
        v.to_string()
    };
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("saved.json");
    std::fs::write(&path, edited(&|_| {})).unwrap();
    stdout_of(&["scale", "--compare", path.to_str().unwrap()]);
    refused(
        edited(&|v| v["runs"][1]["loss"]["serial"] = serde_json::json!(50.0)).as_bytes(),
        "[0].runs[1].loss.serial is 50, but this part of the loss of 2 threads at efficiency",
    );
    refused(
        edited(&|v| {
            let loss = &mut v["runs"][1]["loss"];
            let unexplained = loss["unexplained"].as_f64().unwrap();
            loss["unexplained"] = serde_json::json!(unexplained + 0.25);
        })
        .as_bytes(),
        "[0].runs[1].loss has parts adding up to",
    );
    refused(
        edited(&|v| {
            v["machine"] = serde_json::json!({"logical": 2, "physical": 2});
            v["runs"][1]["threads"] = serde_json::json!(65);
            v["runs"][1]["cpu_share"] = Value::Null;
        })
        .as_bytes(),
        "[0].runs[1].threads is 65, but a study on 2 logical CPUs runs at most 64 threads",
    );
}
