//! Numbers as people read them: one cost for the same work in every command, grouped digits,
//! tables that fit resumed rows, and short journal refusals with the next step.

use std::time::Duration;

use crate::util::{
    busy_fixture, first_line_then_kill, nqueens_process, scale_compare, stdout_of, usage_error,
};

/// Seconds in a year, as the tool counts them.
const YEAR: f64 = 365.25 * 86_400.0;

/// The core time a cost message names (`… (111 years of core time, 95 %: …`), in seconds; the
/// figure of a board as large as 27 is in years on any machine.
fn core_seconds(message: &str) -> f64 {
    let before = message
        .split(" years of core time")
        .next()
        .filter(|head| head.len() < message.len())
        .unwrap_or_else(|| panic!("no core time in {message}"));
    let figure = before.rsplit('(').next().unwrap().replace(',', "");
    figure
        .parse::<f64>()
        .unwrap_or_else(|_| panic!("{message}"))
        * YEAR
}

/// `verify 27`'s refusal, one line on stderr.
fn verify_refusal(extra: &[&str]) -> String {
    usage_error(&[&["verify", "27", "--threads", "1"], extra].concat())
}

/// The note `count 27` prints before it starts (the count itself is stopped at once).
fn count_note() -> String {
    first_line_then_kill(
        nqueens_process().args(["count", "27", "--threads", "1"]),
        Duration::from_secs(300),
    )
    .expect("count 27 says what it costs before it starts")
}

/// Rounds of the three commands in [`count_verify_and_estimate_give_one_cost_for_one_board`].
const ROUNDS: usize = 5;

/// How far a timed figure may stray from another process's timing of the same samples: the
/// three commands draw the same 200 samples (the same seed), so their figures differ only by
/// how fast each process ran them. On a machine busy with other tests a single run strays by a
/// third, and the median of five alternating runs by a fifth (measured with two spinning
/// processes on two cores). A command with a model of its own is further out: the portable
/// lanes cost about ten times the SIMD lanes, and a board more or less about eight times.
const TIMING_SPREAD: f64 = 1.5;

/// The same work costs the same in `count`, `verify` and `estimate`: the figures of the first
/// two are the estimate's for the same samples. The samples are timed, in separate processes, so
/// the commands are run in alternating rounds and their medians compared, within
/// [`TIMING_SPREAD`]; an attempt that misses is made again (up to three times). The messages'
/// own intervals are checked to hold their points.
#[test]
fn count_verify_and_estimate_give_one_cost_for_one_board() {
    const ATTEMPTS: usize = 3;
    let mut misses = Vec::new();
    for _ in 0..ATTEMPTS {
        match one_cost_for_one_board() {
            Ok(()) => return,
            Err(miss) => misses.push(miss),
        }
    }
    panic!("a figure too far from the estimate's in every attempt: {misses:#?}");
}

/// The median of `figures`.
fn median(figures: &[f64]) -> f64 {
    let mut sorted = figures.to_vec();
    sorted.sort_by(f64::total_cmp);
    sorted[sorted.len() / 2]
}

/// The core time a cost message names, checked to lie inside the 95 % interval it gives
/// (`… (111 years of core time, 95 %: 99.1 years to 123 years)`).
fn core_seconds_inside_interval(message: &str) -> f64 {
    let core = core_seconds(message);
    let (low, high) = message
        .split("95 %: ")
        .nth(1)
        .and_then(|interval| interval.split_once(" to "))
        .unwrap_or_else(|| panic!("no interval in {message}"));
    let years = |text: &str| {
        text.split(" years")
            .next()
            .unwrap()
            .trim()
            .replace(',', "")
            .parse::<f64>()
            .unwrap_or_else(|_| panic!("{message}"))
            * YEAR
    };
    assert!(years(low) < core && core < years(high), "{message}");
    core
}

/// One attempt of [`count_verify_and_estimate_give_one_cost_for_one_board`]: the messages'
/// shape is asserted, and a median figure too far from the estimate's is returned as the miss.
fn one_cost_for_one_board() -> Result<(), String> {
    let (mut estimates, mut verifies, mut counts) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..ROUNDS {
        let out = nqueens_process()
            .args(["estimate", "27", "--samples", "200", "--seed", "1"])
            .args(["--threads", "1", "--format", "json"])
            .output()
            .unwrap();
        assert!(out.status.success());
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let core = json[0]["core_time"].as_f64().unwrap();
        let low = json[0]["core_time_low"].as_f64().unwrap();
        let high = json[0]["core_time_high"].as_f64().unwrap();
        assert!(low < core && core < high, "{json}");
        estimates.push(core);

        let refusal = verify_refusal(&[]);
        assert!(
            refusal.starts_with("nqueens: error: verifying n = 27 on 1 thread would need about "),
            "{refusal}"
        );
        let note = count_note();
        assert!(
            note.starts_with("nqueens: warning: counting n = 27 on 1 thread needs about "),
            "{note}"
        );
        assert!(note.contains("it starts anyway"), "{note}");
        verifies.push(core_seconds_inside_interval(&refusal));
        counts.push(core_seconds_inside_interval(&note));
    }
    let estimate = median(&estimates);
    for (what, figures) in [("verify", verifies), ("count", counts)] {
        let ratio = median(&figures) / estimate;
        if !(1.0 / TIMING_SPREAD..=TIMING_SPREAD).contains(&ratio) {
            return Err(format!(
                "{what}: median {ratio:.3} times the estimate's median {estimate} ({figures:?})"
            ));
        }
    }
    Ok(())
}

/// The cost is that of the kernel that will run: the portable lanes cost more than the SIMD
/// lanes this CPU runs by default.
#[test]
fn the_kernel_that_will_run_sets_the_cost() {
    let out = nqueens_process()
        .args(["estimate", "12", "--samples", "2", "--format", "json"])
        .output()
        .unwrap();
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let fastest = json[0]["kernel"].as_str().unwrap().to_string();
    if fastest == "portable-lanes" || fastest == "depth-first" {
        eprintln!("skipped: this CPU runs no SIMD lane kernel");
        return;
    }
    let lanes = core_seconds(&verify_refusal(&[]));
    let portable = core_seconds(&verify_refusal(&["--kernel", "portable-lanes"]));
    assert!(
        portable > lanes,
        "portable {portable} s, {fastest} {lanes} s"
    );
}

/// Big numbers have their digits grouped in the tables, and stay plain in JSON and CSV.
#[test]
fn tables_group_digits_and_machine_formats_do_not() {
    let table = stdout_of(&["known", "27"]);
    assert!(table.contains("234,907,967,154,122,528"), "{table}");
    let csv = stdout_of(&["known", "27", "--format", "csv"]);
    assert!(csv.contains("234907967154122528"), "{csv}");
    let table = stdout_of(&["count", "12", "--threads", "2"]);
    assert!(
        table.contains("14,200") && table.contains("1,787"),
        "{table}"
    );
    let json = stdout_of(&["count", "12", "--threads", "2", "--format", "json"]);
    assert!(json.contains("\"total\": 14200"), "{json}");
}

/// Boards counted in microseconds show no rate, and speedups of runs too short to time are
/// left out rather than made up.
#[test]
fn runs_too_short_to_time_show_no_rate_or_speedup() {
    let out = nqueens_process()
        .args(["count", "0..=3", "--threads", "1"])
        .output()
        .unwrap();
    let table = String::from_utf8(out.stdout).unwrap();
    assert!(
        !table.contains("0.0 /s") && !table.contains(" 0 /s"),
        "{table}"
    );
    let out = nqueens_process().args(["compare", "3"]).output().unwrap();
    let table = String::from_utf8(out.stdout).unwrap();
    assert!(table.contains("time (ms)"), "{table}");
    for row in table.lines().filter(|l| l.contains("< 0.001")) {
        assert!(row.trim_end_matches(" |").ends_with('-'), "{row}");
    }
}

/// A table of boards resumed from their journals stays aligned: every line is as wide as the
/// border.
#[test]
fn a_table_of_resumed_boards_fits_them() {
    let dir = tempfile::tempdir().unwrap();
    let runs = format!("{}/", dir.path().join("runs").display());
    let count = || {
        let out = nqueens_process()
            .args(["count", "10..=12", "--threads", "2", "--checkpoint", &runs])
            .output()
            .unwrap();
        assert!(out.status.success());
        String::from_utf8(out.stdout).unwrap()
    };
    for table in [count(), count()] {
        let widths: Vec<usize> = table.lines().map(|l| l.chars().count()).collect();
        assert!(widths.iter().all(|&w| w == widths[0]), "{table}");
    }
    let again = count();
    assert!(again.contains(" all "), "{again}");
    assert!(again.contains("core time"), "{again}");
    for line in again.lines() {
        assert!(line.chars().count() <= 100, "{again}");
    }
}

/// Every float in CSV and JSON is a plain decimal, never exponent notation, and ratios keep
/// the digits they were measured to.
#[test]
fn csv_and_json_numbers_are_plain() {
    let csv = stdout_of(&["compare", "8", "--format", "csv"]);
    let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    assert_eq!(header[2], "total");
    let speedup = header.iter().position(|&h| h == "speedup").unwrap();
    let baseline = header.iter().position(|&h| h == "baseline").unwrap();
    for line in csv.lines().skip(1) {
        let cells: Vec<&str> = line.split(',').collect();
        assert!(!line.contains("e-") && !line.contains("e+"), "{csv}");
        assert_eq!(cells[baseline], "matrix", "{csv}");
        let digits = cells[speedup].chars().filter(char::is_ascii_digit);
        let significant = digits.skip_while(|&c| c == '0').count();
        assert!(significant <= 4, "{csv}");
    }
    assert!(csv.lines().nth(1).unwrap().contains(",1.0,matrix"), "{csv}");
    let json = stdout_of(&["estimate", "20", "--samples", "50", "--format", "json"]);
    assert!(!json.contains("e-") && !json.contains("e+"), "{json}");
    let parsed: serde_json::Value = serde_json::from_str(&json).unwrap();
    for field in ["total", "total_low", "total_high", "unique"] {
        assert!(parsed[0][field].is_u64(), "{field}: {json}");
    }
    assert!(parsed[0].get("estimate_total").is_none(), "{json}");
}

/// The estimate's table writes estimated counts to three significant digits as powers of ten
/// (never padded with zeros that read as exact) beside the known total, and a comparison's
/// table has one time unit and names its baseline.
#[test]
fn tables_group_estimates_and_name_units_and_baselines() {
    let table = stdout_of(&["estimate", "20", "--samples", "50"]);
    let total = table
        .lines()
        .find(|l| l.contains(" total ") && !l.contains("known"))
        .unwrap();
    assert!(total.contains(" × 10¹⁰ (95 %: "), "{table}");
    assert!(!total.contains(",000,000"), "{table}");
    assert!(!table.contains("e10") && !table.contains("e-"), "{table}");
    assert!(table.contains("39,029,188,884"), "{table}");
    let table = stdout_of(&["compare", "8"]);
    assert!(
        table.contains("time (ms)") && table.contains("instrumented (ms)"),
        "{table}"
    );
    assert!(table.contains("speedup vs matrix"), "{table}");
    let matrix = table
        .lines()
        .find(|l| l.trim_start_matches(['|', ' ']).starts_with("matrix"))
        .unwrap();
    assert!(matrix.trim_end_matches(" |").ends_with("1.00x"), "{table}");
    assert!(!table.contains("µs"), "{table}");
}

/// Durations beyond a million years read in words.
#[test]
fn absurd_durations_read_in_words() {
    let err = String::from_utf8(
        nqueens_process()
            .args(["compare", "30"])
            .output()
            .unwrap()
            .stderr,
    )
    .unwrap();
    assert!(err.contains(" million years"), "{err}");
    assert!(!err.contains("e7"), "{err}");
}

/// A journal of the whole board is named so in a refusal, not as shard 0/1.
#[test]
fn a_whole_board_is_named_so_in_refusals() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("j.ckpt");
    let count = |extra: &[&str]| {
        nqueens_process()
            .args(["count", "10", "--threads", "1", "--quiet"])
            .args(extra)
            .arg("--checkpoint")
            .arg(&file)
            .output()
            .unwrap()
    };
    assert!(count(&[]).status.success());
    let text = String::from_utf8(count(&["--shard", "1/2"]).stderr).unwrap();
    assert!(
        text.contains("not shard 1/2") || text.contains("the whole board"),
        "{text}"
    );
    assert!(text.contains("the whole board"), "{text}");
    assert!(!text.contains("0/1"), "{text}");
}

/// A journal of another board is refused in one short line that names the board and what to
/// do (exit 1, a file failure); a damaged one names the byte and what to do.
#[test]
fn journal_refusals_are_short_and_say_what_to_do() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("j.ckpt");
    let count = |n: &str| {
        nqueens_process()
            .args(["count", n, "--threads", "2", "--quiet", "--checkpoint"])
            .arg(&file)
            .output()
            .unwrap()
    };
    assert!(count("10").status.success());
    let out = count("11");
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stderr).unwrap();
    assert!(text.contains("is for n = 10, not n = 11:"), "{text}");
    assert!(
        text.contains("use another --checkpoint path, or delete it"),
        "{text}"
    );
    assert!(text.len() < 200, "{} characters: {text}", text.len());

    let mut bytes = std::fs::read(&file).unwrap();
    let offset = crate::util::HEADER_LEN + 2 * crate::util::RECORD_LEN;
    bytes[offset + 3] ^= 0xff;
    std::fs::write(&file, &bytes).unwrap();
    let text = String::from_utf8(count("10").stderr).unwrap();
    assert!(
        text.contains(&format!("corrupt at byte {offset}")),
        "{text}"
    );
    assert!(text.contains("count again"), "{text}");
    assert_eq!(text.lines().count(), 1, "{text}");
}

/// Every percentage a command writes for people has one style: SI's, a space before the sign
/// (`0.449 %`, `95 %:`), as `scale`'s tables always did.
#[test]
fn every_percentage_reads_with_a_space_before_the_sign() {
    let estimate = stdout_of(&["estimate", "14", "--samples", "2000", "--seed", "1"]);
    let (compare, _) = scale_compare([busy_fixture()], &[]);
    for text in [&estimate, &compare] {
        assert!(text.contains(" %"), "{text}");
        let glued = text
            .as_bytes()
            .windows(2)
            .any(|w| w[0].is_ascii_digit() && w[1] == b'%');
        assert!(!glued, "a digit right before %: {text}");
    }
    assert!(estimate.contains("(95 %: "), "{estimate}");
}
