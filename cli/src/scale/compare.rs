//! `nqueens scale --compare A.json B.json …`: saved results side by side, as a table, JSON or
//! CSV, and in one plot.

use std::io::{self, Write};

use serde::Serialize;

use nqueens::scaling::Loss;
use nqueens::scaling::series::Series;
use nqueens::scaling::study::StudyWarning;

use super::saved;
use super::{Starved, points, shares_core, signed_percent, solutions_per_second};
use crate::args::ScaleArgs;
use crate::format::{Format, TableRow, write_table};
use nqueens_ui::failure::{Failure, Outcome};
use nqueens_ui::human::{self, percent};
use nqueens_ui::output;
use nqueens_ui::series::Labels;

pub fn run(args: &ScaleArgs, out: &mut dyn Write) -> Result<Outcome, Failure> {
    if let Some(path) = &args.plot {
        output::refuse_output_over_input(path, "the plot", &args.compare)?;
        output::check_replaceable(path, "the plot")?;
    }
    let mut series: Vec<Series> = Vec::new();
    for path in &args.compare {
        series.extend(saved::read(path).map_err(|e| Failure::File(e.0))?);
        if series.len() > MAX_SERIES {
            return Err(Failure::File(format!(
                "the files hold more than {MAX_SERIES} series: compare fewer"
            )));
        }
    }
    if args.plot.is_some() && series.len() > nqueens_plot::MAX_SERIES {
        return Err(Failure::File(format!(
            "the plot draws at most {} series, and the files hold {}: compare fewer, or leave \
             out --plot",
            nqueens_plot::MAX_SERIES,
            series.len()
        )));
    }
    let differs = differences(&series);
    if !differs.is_empty() {
        output::warning(format_args!(
            "the runs differ in {}: their times are not of the same work, compare their \
             speedups and efficiencies rather than their times",
            differs
                .iter()
                .map(|(what, values)| format!("{what} ({values})"))
                .collect::<Vec<_>>()
                .join(" and ")
        ));
    }
    let known = known_warnings(&series);
    for warning in &known {
        output::warning(warning);
    }
    let printed = write(out, args.format, &series, &differs);
    if let Some(path) = &args.plot {
        let warnings = differs
            .iter()
            .map(|(what, values)| format!("the runs differ in {what} ({values})"))
            .chain(known)
            .collect();
        let options = nqueens_plot::PlotOptions {
            model_up_to: None,
            warnings,
        };
        nqueens_plot::write(path, &series, &options)?;
    }
    printed?;
    Ok(Outcome::Success)
}

/// What the series' runs knew of themselves, as said on stderr and under the plot: the
/// busy-machine warning once for them all (naming the series of its lowest CPU share), and the
/// short-run warning once: the first short series' own, named by its label, and the letters of
/// the other series as short (the table, JSON and CSV carry every series' own).
fn known_warnings(series: &[Series]) -> Vec<String> {
    let mut starved = Vec::new();
    let mut short = None;
    let mut also_short = Vec::new();
    for (i, s) in series.iter().enumerate() {
        for warning in s.warnings() {
            match &warning {
                StudyWarning::BusyMachine { starved: counts } => {
                    let name = format!("{}: {}", letter(i), s.label());
                    starved.extend(Starved::all(counts, Some(name)));
                }
                StudyWarning::ShortRuns { .. } if short.is_none() => {
                    short = super::warning_text(s, &warning).map(|text| (s.label(), text));
                }
                StudyWarning::ShortRuns { .. } => also_short.push(letter(i)),
                _ => {}
            }
        }
    }
    let short = short.map(|(first, text)| match &also_short[..] {
        [] => format!("{first}: {text}"),
        others => format!(
            "{first}: {text}; the runs of {} are as short (see the table)",
            others.join(", ")
        ),
    });
    super::busy_machine_warning(&starved)
        .into_iter()
        .chain(short)
        .collect()
}

/// The series (by letter) whose runs were on a busy machine.
fn busy_series(series: &[Series]) -> Vec<String> {
    series
        .iter()
        .enumerate()
        .filter(|(_, s)| super::has_busy(&s.warnings()))
        .map(|(i, _)| letter(i))
        .collect()
}

/// The most series compared at once (all files together).
pub const MAX_SERIES: usize = 10_000;

/// What the series differ in that makes their times not comparable: `("n", "10, 18")`,
/// `("strategy", "mirror, symmetric")`.
fn differences(series: &[Series]) -> Vec<(&'static str, String)> {
    let differing = |values: Vec<String>| {
        let seen = nqueens_ui::series::distinct(values);
        (seen.len() > 1).then(|| seen.join(", "))
    };
    let mut found = Vec::new();
    if let Some(ns) = differing(series.iter().map(|s| s.n.to_string()).collect()) {
        found.push(("n", ns));
    }
    if let Some(strategies) = differing(series.iter().map(|s| s.strategy.clone()).collect()) {
        found.push(("strategy", strategies));
    }
    found
}

/// `A`, `B`, …, `Z`, `AA`, … : the short name of the `i`-th series in the table.
fn letter(i: usize) -> String {
    let mut name = String::new();
    let mut i = i + 1;
    while i > 0 {
        i -= 1;
        name.insert(0, char::from(b'A' + (i % 26) as u8));
        i /= 26;
    }
    name
}

fn write(
    out: &mut dyn Write,
    format: Format,
    series: &[Series],
    differs: &[(&'static str, String)],
) -> Result<(), Failure> {
    let differs_text = differs
        .iter()
        .map(|(what, _)| *what)
        .collect::<Vec<_>>()
        .join(" ");
    let json = Json {
        differs_in: differs.iter().map(|(what, _)| *what).collect(),
        series: series
            .iter()
            .enumerate()
            .map(|(i, s)| JsonSeries::of(i, s))
            .collect(),
        table: rows(series, &differs_text),
    };
    format.write_document(
        out,
        &json,
        || rows(series, &differs_text),
        |out| {
            let busy = busy_series(series);
            if !busy.is_empty() {
                let whose = format!("the runs of {}", busy.join(", "));
                writeln!(out, "{}\n", super::busy_line(&whose))?;
            }
            write_side_by_side(out, series)
        },
    )?;
    out.flush()?;
    Ok(())
}

/// The comparison as JSON: the series, what they differ in, and the side-by-side rows.
#[derive(Serialize)]
struct Json<'a> {
    differs_in: Vec<&'static str>,
    series: Vec<JsonSeries<'a>>,
    table: Vec<Row>,
}

/// One compared series in the JSON.
#[derive(Serialize)]
struct JsonSeries<'a> {
    id: String,
    label: String,
    file: Option<&'a str>,
    n: u32,
    strategy: &'a str,
    kernel: &'a str,
    cpu: Option<&'a str>,
    logical: usize,
    physical: usize,
    smt: bool,
    repeat: usize,
    date: Option<&'a str>,
    headline: Option<nqueens::scaling::Headline>,
    /// What the series' runs say about their own worth: a busy machine, runs too short.
    warnings: Vec<String>,
}

impl<'a> JsonSeries<'a> {
    fn of(i: usize, s: &'a Series) -> JsonSeries<'a> {
        JsonSeries {
            id: letter(i),
            label: s.label(),
            file: s.source.as_deref(),
            n: s.n,
            strategy: &s.strategy,
            kernel: &s.kernel,
            cpu: s.run.cpu.as_deref(),
            logical: s.machine.logical,
            physical: s.machine.physical,
            smt: s.machine.logical > s.machine.physical,
            repeat: s.repeat,
            date: s.run.date.as_deref(),
            headline: s.headline,
            warnings: super::series_warnings(s, true),
        }
    }
}

/// One measured thread count of one series, side by side with the others' at the same count.
#[derive(Debug, Serialize)]
struct Row {
    threads: usize,
    series: String,
    label: String,
    n: u32,
    strategy: String,
    kernel: String,
    cpu: String,
    logical_cpus: usize,
    physical_cores: usize,
    median_seconds: f64,
    min_seconds: f64,
    max_seconds: f64,
    speedup: f64,
    efficiency: f64,
    /// CPU time the runs received / asked for (empty where not measured).
    cpu_share: Option<f64>,
    /// Whether the CPU share says the machine was busy (empty where there is none).
    busy: Option<bool>,
    shares_core: bool,
    /// What the compared runs differ in (`n strategy`), empty when nothing.
    differs: String,
    /// Whether the series' fastest timed run was too short to mean much
    /// ([`StudyWarning::ShortRuns`]).
    short_runs: bool,
    /// Whether every run of the series' study finished (false: an interrupt stopped it).
    complete: bool,
    /// The loss breakdown (empty in results saved before it was measured), a column per part
    /// (`loss_` and each of [`Loss::NAMES`](nqueens::scaling::Loss::NAMES)), each 0 and above ([`nqueens_ui::series::shown_loss`]).
    #[serde(flatten)]
    loss: super::LossColumns,
    /// The model's error at this thread count when it is left out and predicted from the
    /// smaller ones (`predicted / measured - 1`); empty for one thread and where not measured.
    model_error: Option<f64>,
    /// The result has no loss breakdown: `model_error` folds the serial time into the slowdown.
    model_error_lumped: bool,
}

impl TableRow for Row {
    fn headings() -> Vec<&'static str> {
        let before = [
            "threads",
            "run",
            "median",
            "speedup",
            "efficiency",
            "CPU share",
            "shares core",
        ];
        let losses = nqueens_ui::series::loss_headings(true);
        before
            .into_iter()
            .chain(losses)
            .chain(["model error"])
            .collect()
    }

    fn cells(&self) -> Vec<String> {
        let before = [
            self.threads.to_string(),
            self.series.clone(),
            human::duration(self.median_seconds),
            human::speedup(self.speedup),
            percent(self.efficiency),
            self.cpu_share.map_or_else(|| "-".to_string(), percent),
            shares_core(self.shares_core).to_string(),
        ];
        let parts = self.loss.loss().map(|l| l.parts());
        let losses = (0..Loss::NAMES.len())
            .map(|i| parts.map_or_else(|| "-".to_string(), |parts| points(parts[i].1)));
        let error = self
            .model_error
            .map_or_else(|| "-".to_string(), signed_percent);
        before.into_iter().chain(losses).chain([error]).collect()
    }
}

/// Every series' measured thread counts, by thread count, then in the order given.
fn rows(series: &[Series], differs: &str) -> Vec<Row> {
    let mut rows: Vec<Row> = series
        .iter()
        .enumerate()
        .flat_map(|(i, s)| {
            let check = s.leave_one_out();
            let short_runs = s
                .warnings()
                .iter()
                .any(|w| matches!(w, StudyWarning::ShortRuns { .. }));
            s.runs.iter().map(move |p| Row {
                threads: p.threads,
                series: letter(i),
                label: s.label(),
                n: s.n,
                strategy: s.strategy.clone(),
                kernel: s.kernel.clone(),
                cpu: s.run.cpu.clone().unwrap_or_default(),
                logical_cpus: s.machine.logical,
                physical_cores: s.machine.physical,
                median_seconds: p.median.as_secs_f64(),
                min_seconds: p.min.as_secs_f64(),
                max_seconds: p.max.as_secs_f64(),
                speedup: p.speedup,
                efficiency: p.efficiency,
                cpu_share: p.cpu_share,
                busy: super::busy(p.cpu_share),
                shares_core: p.shares_core,
                differs: differs.to_string(),
                short_runs,
                complete: s.complete,
                loss: p
                    .loss
                    .map(|loss| nqueens_ui::series::shown_loss(loss).0)
                    .into(),
                model_error: check
                    .iter()
                    .find(|h| h.threads == p.threads)
                    .map(|h| h.error),
                model_error_lumped: check.iter().any(|h| h.lumped),
            })
        })
        .collect();
    // Stable: within a thread count the series keep their order.
    rows.sort_by_key(|r| r.threads);
    rows
}

/// The human comparison: each series named by a letter with its label, file and headline, then
/// one table with every series' times, speedups and efficiencies by thread count.
pub fn write_side_by_side(out: &mut dyn Write, series: &[Series]) -> io::Result<()> {
    writeln!(out, "compared:")?;
    for (i, s) in series.iter().enumerate() {
        let from = match (&s.source, &s.run.date) {
            (Some(file), Some(date)) => format!(" ({file}, {date})"),
            (Some(file), None) => format!(" ({file})"),
            (None, _) => String::new(),
        };
        writeln!(out, "  {}: {}{from}", letter(i), s.label())?;
        if let Some(h) = s.headline {
            writeln!(
                out,
                "     best: {} with {} ({} per core)",
                solutions_per_second(h.solutions_per_second),
                human::plural(h.threads, "thread"),
                solutions_per_second(h.solutions_per_second_per_core)
            )?;
        }
        for warning in super::series_warnings(s, false) {
            writeln!(out, "     warning: {warning}")?;
        }
    }
    writeln!(out)?;
    let rows = rows(series, "");
    if rows.iter().any(|r| r.model_error.is_some()) {
        writeln!(
            out,
            "lost: points of the thread time by where they went; model error: the model's \
             prediction of the thread count from the smaller ones / the measured median - 1{}",
            if rows.iter().any(|r| r.model_error_lumped) {
                " (where a run has no loss breakdown, its serial time folded into the slowdown)"
            } else {
                ""
            }
        )?;
    }
    write_table(out, &rows)?;
    if rows.iter().any(|r| r.cpu_share.is_none()) {
        writeln!(
            out,
            "CPU share -: not in the saved result: its runs took under 0.25 s in all, too short \
             for the process clock's 10 ms ticks, or it was measured without /proc or by a \
             version before the CPU share"
        )?;
    }
    if series.iter().flat_map(|s| &s.runs).any(|p| {
        p.loss
            .is_some_and(|loss| nqueens_ui::series::shown_loss(loss).1)
    }) {
        writeln!(out, "{}", super::CLIPPED_NOTE)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letters_name_any_number_of_series() {
        let names: Vec<String> = [0, 1, 25, 26, 27, 701, 702].map(letter).into();
        assert_eq!(names, ["A", "B", "Z", "AA", "AB", "ZZ", "AAA"]);
    }
}
