//! `nqueens estimate`: the total and the cost of a count, from a random sample of its plan; and
//! the warning `count` prints before a count that would take more than an hour.

use std::io::Write;

use crate::cli::format::{CsvWriter, Format, JsonWriter, table_row, write_all, write_table};
use nqueens::estimate::{Budget, Estimate, EstimateOptions, EstimateProgress, Estimator};
use nqueens::{CountOptions, Strategy};
use serde::Serialize;

use super::progress::{Steps, quit_on_interrupt};
use super::{Failure, Outcome, words};
use crate::cli::args::EstimateArgs;

/// The budget when neither `--seconds` nor `--samples` is given.
pub const DEFAULT_SECONDS: f64 = 60.0;

/// The budget of the estimate `count` makes before a long count.
const WARNING_SECONDS: f64 = 1.0;

/// The smallest board whose count may take an hour here: below it `count` does not estimate.
const WARNING_MIN_N: u32 = 20;

/// A count longer than this (wall-clock seconds on the threads given) is announced.
const WARNING_WALL_SECONDS: f64 = 3600.0;

pub fn run(args: &EstimateArgs, out: &mut dyn Write) -> Result<Outcome, Failure> {
    let budget = match (args.samples, args.seconds) {
        (Some(k), _) => Budget::Samples(k),
        (None, s) => Budget::Seconds(s.unwrap_or(DEFAULT_SECONDS)),
    };
    let options = EstimateOptions {
        budget,
        seed: args.seed,
        threads: args.threads,
        kernel: args.kernel,
    };
    let result = estimate_on_terminal(args.n, &options, args.quiet)?;
    match args.format {
        Format::Table => write_table(out, &lines(&result))?,
        Format::Json => write_all(JsonWriter::new(out), std::slice::from_ref(&result))?,
        Format::Csv => write_all(CsvWriter::new(out), std::slice::from_ref(&result))?,
    }
    Ok(Outcome::Success)
}

/// Estimates the `n`-board under a progress bar on stderr (unless `quiet`, and only on a
/// terminal): the budget used, the samples drawn and the interval of the total so far.
fn estimate_on_terminal(
    n: u32,
    options: &EstimateOptions,
    quiet: bool,
) -> Result<Estimate, Failure> {
    let estimator = Estimator::new(n, options.kernel)?;
    let steps = match options.budget {
        Budget::Samples(k) => Steps::on_terminal(!quiet, &format!("n = {n}"), k),
        Budget::Seconds(s) => Steps::on_terminal(!quiet, &format!("n = {n}"), s.ceil() as u64),
    };
    if !steps.is_visible() {
        return Ok(estimator.estimate(options)?);
    }
    quit_on_interrupt(steps.notices());
    steps.doing("sizing the sample");
    let report = |p: &EstimateProgress| {
        let total = match p.total {
            Some((total, low, high)) => format!(
                ", total {} ±{}%",
                sci(total),
                words::number(100.0 * (high - low) / 2.0 / total.abs().max(1.0))
            ),
            None => String::new(),
        };
        match options.budget {
            Budget::Samples(k) => {
                steps.set(p.samples_done, k);
                steps.doing(format!("samples{total}"));
            }
            Budget::Seconds(s) => {
                steps.set(p.elapsed.as_secs(), s.ceil() as u64);
                if p.samples == 0 {
                    steps.doing("s, sizing the sample");
                } else {
                    steps.doing(format!(
                        "s, {} of {} samples{total}",
                        p.samples_done, p.samples
                    ));
                }
            }
        }
    };
    let result = estimator.estimate_observed(options, &report);
    steps.finish();
    Ok(result?)
}

/// One line of the human table: what, and its value.
#[derive(Serialize)]
struct Line {
    what: String,
    value: String,
}

table_row!(Line, |line| { "estimate" => line.what, "value" => line.value });

/// The estimate as lines for people.
fn lines(e: &Estimate) -> Vec<Line> {
    let mut lines = Vec::new();
    let mut add = |what: String, value: String| lines.push(Line { what, value });
    add("n".into(), e.n.to_string());
    add(
        "plan".into(),
        format!(
            "{} ({}), kernel {}",
            e.strategy,
            words::plural(e.tasks, "task"),
            e.kernel
        ),
    );
    add(
        "total".into(),
        format!(
            "{} (95%: {} to {}, ±{:.2}%)",
            sci(e.estimate_total),
            sci(e.total_low),
            sci(e.total_high),
            100.0 * e.total_relative_half_width
        ),
    );
    if let Some(known) = e.known_total {
        let off = (e.estimate_total / known as f64 - 1.0) * 100.0;
        let held = e.total_low <= known as f64 && known as f64 <= e.total_high;
        add(
            "known total".into(),
            format!(
                "{known} (estimate {off:+.2}%, {} the interval)",
                if held { "inside" } else { "outside" }
            ),
        );
    }
    add(
        "unique (total / 8)".into(),
        format!(
            "{} (95%: {} to {})",
            sci(e.estimate_unique),
            sci(e.unique_low),
            sci(e.unique_high)
        ),
    );
    add(
        "core time of a count".into(),
        format!(
            "{} (95%: {} to {})",
            duration(e.core_seconds),
            duration(e.core_seconds_low),
            duration(e.core_seconds_high)
        ),
    );
    add(
        format!("wall time on {}", words::plural(e.threads, "thread")),
        duration(e.wall_seconds),
    );
    for (cores, secs) in [
        (64, e.wall_seconds_64),
        (1024, e.wall_seconds_1024),
        (10_000, e.wall_seconds_10000),
    ] {
        add(
            format!("wall time on {}", words::plural(cores, "core")),
            duration(secs),
        );
    }
    add(
        "largest task".into(),
        format!("{:.2e} of the work (size estimate)", e.largest_task_share),
    );
    add(
        "sample".into(),
        format!(
            "{} probes, seed {}, {} free rows each",
            e.samples, e.seed, e.free_rows
        ),
    );
    add(
        "work covered".into(),
        format!("{:.3}%", 100.0 * e.covered_fraction),
    );
    add("took".into(), duration(e.seconds));
    lines
}

/// A number in scientific notation with five significant digits.
fn sci(x: f64) -> String {
    format!("{x:.4e}")
}

/// Seconds for people, in the largest unit that keeps them above one.
pub fn duration(secs: f64) -> String {
    const UNITS: [(f64, &str); 4] = [
        (365.25 * 86_400.0, "years"),
        (86_400.0, "days"),
        (3_600.0, "h"),
        (60.0, "min"),
    ];
    for (scale, unit) in UNITS {
        if secs >= scale {
            return format!("{:.3} {unit}", secs / scale);
        }
    }
    format!("{secs:.3} s")
}

/// `secs` in hours, to three significant digits (in scientific notation from a million on).
fn hours(secs: f64) -> String {
    let h = secs / 3600.0;
    if h >= 1e6 {
        format!("{h:.2e}")
    } else {
        format!("{:.*}", if h >= 100.0 { 0 } else { 1 }, h)
    }
}

/// When a count of the `n`-board with `options` would take longer than an hour of wall time,
/// the line saying so (estimated core-hours and wall time on the threads given), from an
/// estimate of about a second. `None` for shorter counts, boards the estimator does not sample,
/// and the `mirror` strategy (whose cost it does not model).
pub fn long_count_warning(n: u32, options: &CountOptions) -> Option<String> {
    if n < WARNING_MIN_N || options.strategy != Strategy::Symmetric {
        return None;
    }
    let estimator = Estimator::new(n, options.kernel).ok()?;
    let e = estimator
        .estimate(&EstimateOptions {
            budget: Budget::Seconds(WARNING_SECONDS),
            seed: 1,
            threads: options.threads,
            kernel: options.kernel,
        })
        .ok()?;
    (e.wall_seconds > WARNING_WALL_SECONDS).then(|| {
        format!(
            "nqueens: note: n = {n} is estimated to take {} core-hours (95%: {} to {}), \
             about {} of wall time on {} (see 'nqueens estimate {n}')",
            hours(e.core_seconds),
            hours(e.core_seconds_low),
            hours(e.core_seconds_high),
            super::budget::duration(e.wall_seconds),
            words::plural(options.threads, "thread")
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hours_are_short() {
        assert_eq!(hours(3600.0 * 1.25), "1.2");
        assert_eq!(hours(3600.0 * 1234.4), "1234");
        assert_eq!(hours(3600.0 * 6.854e11), "6.85e11");
    }

    #[test]
    fn durations_pick_a_readable_unit() {
        assert_eq!(duration(12.0), "12.000 s");
        assert_eq!(duration(90.0), "1.500 min");
        assert_eq!(duration(7200.0), "2.000 h");
        assert_eq!(duration(2.0 * 365.25 * 86_400.0), "2.000 years");
    }

    #[test]
    fn small_counts_are_not_announced() {
        let options = CountOptions::new(1, Strategy::Symmetric);
        assert_eq!(long_count_warning(12, &options), None);
        assert_eq!(long_count_warning(40, &options), None);
    }
}
