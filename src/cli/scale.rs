//! `nqueens scale`: the thread-scaling study, its load-balance model and an optional SVG plot.

use std::io::{self, IsTerminal, Write};

use crate::cli::format::{CsvWriter, Format, table_row, write_all, write_table};
use nqueens::scaling::study::{self, Progress, Study, StudyError, StudyOptions};
use nqueens::scaling::{Load, Machine};

use crate::cli::plot;
use nqueens::{Kernel, Strategy};
use serde::Serialize;

use super::output;
use super::{Failure, Outcome, budget, words};
use crate::cli::args::ScaleArgs;

pub fn run(args: &ScaleArgs, out: &mut dyn Write) -> Result<Outcome, Failure> {
    let machine = Machine::detect();
    let requested = args
        .threads
        .as_ref()
        .map_or_else(|| machine.default_thread_counts(), |l| l.0.clone());
    let threads = study::thread_counts(&requested);
    let runs = f64::from(args.repeat) + 1.0;
    let secs: f64 = threads
        .iter()
        .map(|&t| runs * budget::engine_seconds(args.n, t))
        .sum();
    budget::refuse_if_over(
        &format!(
            "scale {} ({} of each thread count)",
            args.n,
            words::plural(runs, "run")
        ),
        secs,
        args.max_seconds,
        &format!(
            "choose a smaller n, fewer --threads or --repeat, or {}",
            budget::raise_max_seconds(args.max_seconds)
        ),
    )?;
    // Refuse an unwritable plot path before spending minutes on the runs.
    if let Some(path) = &args.plot {
        output::check_replaceable(path, "the plot")?;
    }
    warn_about_load(&machine, &threads);

    let options = StudyOptions {
        strategy: args.strategy,
        kernel: args.kernel,
        threads,
        repeat: args.repeat as usize,
        model_up_to: args.model_up_to,
    };
    let show_progress = io::stderr().is_terminal();
    let mut progress = |p: Progress| {
        if show_progress {
            let run = match p.run {
                0 => "warm-up".to_string(),
                k => format!("run {k} of {}", p.repeat),
            };
            output::status(format_args!(
                "\r\x1b[Kmeasuring n = {}: {} thread(s), {run}",
                args.n, p.threads
            ));
        }
    };
    let measured = study::measure(args.n, &options, &mut progress);
    if show_progress {
        output::status("\r\x1b[K");
    }
    let study = match measured {
        Ok(study) => study,
        Err(StudyError::Mismatch(mismatch)) => {
            output::error(mismatch);
            return Ok(Outcome::Negative);
        }
        Err(StudyError::Engine(e)) => return Err(e.into()),
        Err(e @ StudyError::NoRuns) => return Err(Failure::Usage(e.to_string())),
    };

    let warnings: Vec<String> = [busy_machine_warning(&study), short_run_warning(&study)]
        .into_iter()
        .flatten()
        .collect();
    for warning in &warnings {
        output::warning(warning);
    }
    // The results first: a plot that cannot be written loses none of them.
    let printed = write_results(out, args.format, &study);
    if let Some(path) = &args.plot {
        let options = plot::PlotOptions {
            model_up_to: args.model_up_to,
            warnings,
        };
        let svg = plot::render_svg(&study, &options)
            .map_err(|e| Failure::File(format!("cannot draw the plot: {e}")))?;
        output::replace_files(&[(path, svg.as_bytes())], "the plot")?;
    }
    printed?;
    Ok(Outcome::Success)
}

/// Writes the results to `out` in `format` and flushes them, so that they are out before the
/// plot is attempted.
fn write_results(out: &mut dyn Write, format: Format, study: &Study) -> Result<(), Failure> {
    match format {
        Format::Table => write_human(out, study)?,
        Format::Json => {
            serde_json::to_writer_pretty(&mut *out, study).map_err(io::Error::from)?;
            writeln!(out)?;
        }
        Format::Csv => write_all(CsvWriter::new(out), &csv_rows(study))?,
    }
    out.flush()?;
    Ok(())
}

fn warn_about_load(machine: &Machine, threads: &[usize]) {
    for &t in threads {
        match machine.load(t) {
            Some(Load::Oversubscribed) => output::warning(format_args!(
                "{t} threads exceed the {} (oversubscribed): the \
                 system time-slices them, so the speedup cannot grow",
                words::plural(machine.logical, "logical CPU")
            )),
            Some(Load::SharesCores) => output::warning(format_args!(
                "{t} threads exceed the {}: some threads share a \
                 core, so expect less than ideal speedup",
                words::plural(machine.physical, "physical core")
            )),
            None => {}
        }
    }
}

/// Runs that received much less CPU time than they asked for were slowed by other programs: the
/// warning that says so, if any.
fn busy_machine_warning(study: &Study) -> Option<String> {
    let starved: Vec<String> = study
        .runs
        .iter()
        .filter_map(|p| Some((p.threads, p.cpu_share?)))
        .filter(|&(_, share)| share < BUSY_BELOW)
        .map(|(t, share)| format!("{} got {}", threads(t), percent(share)))
        .collect();
    (!starved.is_empty()).then(|| {
        format!(
            "other programs are using the CPUs ({} of the CPU time they asked for): measured \
             times and speedups are unreliable; the model, built from each task's fastest time, \
             is less affected",
            starved.join(", ")
        )
    })
}

/// Timed runs shorter than this measure start-up costs and timer noise more than the search.
const SHORT_RUN_SECONDS: f64 = 0.05;

/// The warning about timed runs too short to mean anything, if the fastest was under
/// [`SHORT_RUN_SECONDS`], with a board whose runs are estimated to take long enough.
fn short_run_warning(study: &Study) -> Option<String> {
    let fastest = study
        .runs
        .iter()
        .filter(|p| p.min_seconds.is_finite())
        .min_by(|a, b| a.min_seconds.total_cmp(&b.min_seconds))?;
    if fastest.min_seconds >= SHORT_RUN_SECONDS {
        return None;
    }
    let larger = (study.n + 1..=nqueens::MAX_N)
        .find(|&n| budget::engine_seconds(n, fastest.threads) >= SHORT_RUN_SECONDS)
        .map_or_else(String::new, |n| format!(" such as {n}"));
    Some(format!(
        "the fastest timed run took {} ({}): runs under {:.0} ms measure start-up costs and \
         timer noise more than the search, so these speedups mean little; choose a larger \
         n{larger}",
        seconds(fastest.min_seconds),
        threads(fastest.threads),
        SHORT_RUN_SECONDS * 1e3
    ))
}

/// `1 thread`, `4 threads`.
fn threads(count: usize) -> String {
    let s = if count == 1 { "" } else { "s" };
    format!("{count} thread{s}")
}

/// A CPU share below this means the machine was busy during the runs.
const BUSY_BELOW: f64 = 0.8;

/// A measured thread count in the human table, with the model's prediction beside it.
struct MeasuredRow {
    threads: usize,
    median: f64,
    min: f64,
    max: f64,
    speedup: f64,
    efficiency: f64,
    cpu_share: Option<f64>,
    model_speedup: Option<f64>,
    model_efficiency: Option<f64>,
}

table_row!(MeasuredRow, |record| {
    "threads" => record.threads,
    "median" => seconds(record.median),
    "min" => seconds(record.min),
    "max" => seconds(record.max),
    "speedup" => times(record.speedup),
    "efficiency" => percent(record.efficiency),
    "CPU share" => record.cpu_share.map_or_else(|| "-".to_string(), percent),
    "model speedup" => record.model_speedup.map_or_else(|| "-".to_string(), times),
    "model efficiency" => record.model_efficiency .map_or_else(|| "-".to_string(), percent),
});

/// A modelled worker count in the human table.
struct ModelRow {
    workers: usize,
    predicted: f64,
    speedup: f64,
    efficiency: f64,
}

table_row!(ModelRow, |record| {
    "workers" => record.workers,
    "predicted time" => seconds(record.predicted),
    "speedup" => times(record.speedup),
    "efficiency" => percent(record.efficiency),
});

/// Seconds for people, in a unit that keeps three significant digits for short runs.
fn seconds(x: f64) -> String {
    if !x.is_finite() {
        "-".to_string()
    } else if x >= 1.0 {
        crate::cli::format::seconds(x)
    } else if x >= 1e-3 {
        format!("{:.2} ms", x * 1e3)
    } else {
        format!("{:.1} µs", x * 1e6)
    }
}

fn times(x: f64) -> String {
    if x.is_finite() {
        format!("{x:.2}x")
    } else {
        "-".to_string()
    }
}

fn percent(x: f64) -> String {
    if x.is_finite() {
        format!("{:.1} %", x * 100.0)
    } else {
        "-".to_string()
    }
}

fn write_human(out: &mut dyn Write, study: &Study) -> io::Result<()> {
    writeln!(
        out,
        "n = {}, strategy {}, kernel {}: {}, {} per thread count after one warm-up",
        study.n,
        study.strategy,
        study.kernel,
        words::plural(study.tasks, "task"),
        words::plural(study.repeat, "timed run")
    )?;
    writeln!(
        out,
        "machine: {}, {}",
        words::plural(study.machine.logical, "logical CPU"),
        words::plural(study.machine.physical, "physical core")
    )?;
    writeln!(out)?;
    writeln!(
        out,
        "measured: wall-clock seconds; speedup and efficiency against the 1-thread median; CPU \
         share = CPU time received / asked for"
    )?;
    let measured: Vec<MeasuredRow> = study
        .runs
        .iter()
        .map(|p| {
            let model = study.model_at(p.threads);
            MeasuredRow {
                threads: p.threads,
                median: p.median_seconds,
                min: p.min_seconds,
                max: p.max_seconds,
                speedup: p.speedup,
                efficiency: p.efficiency,
                cpu_share: p.cpu_share,
                model_speedup: model.map(|m| m.speedup),
                model_efficiency: model.map(|m| m.efficiency),
            }
        })
        .collect();
    write_table(out, &measured)?;
    writeln!(out)?;
    writeln!(
        out,
        "model: the 1-thread task times (sum {}, largest {}) replayed largest-first on identical \
         workers",
        seconds(study.task_seconds_total),
        seconds(study.task_seconds_max)
    )?;
    let model: Vec<ModelRow> = study
        .model
        .iter()
        .map(|m| ModelRow {
            workers: m.workers,
            predicted: m.predicted_seconds,
            speedup: m.speedup,
            efficiency: m.efficiency,
        })
        .collect();
    write_table(out, &model)
}

/// One CSV row: a measured thread count (`kind` = `measured`, `seconds` = the median) or a
/// modelled worker count (`kind` = `model`, `seconds` = the prediction, no min, max or CPU share).
#[derive(Debug, Serialize)]
struct CsvRow {
    kind: &'static str,
    n: u32,
    strategy: Strategy,
    kernel: Kernel,
    logical_cpus: usize,
    physical_cores: usize,
    threads: usize,
    seconds: f64,
    min_seconds: Option<f64>,
    max_seconds: Option<f64>,
    speedup: f64,
    efficiency: f64,
    cpu_share: Option<f64>,
}

fn csv_rows(study: &Study) -> Vec<CsvRow> {
    let row = |kind, threads, seconds, min, max, speedup, efficiency, cpu_share| CsvRow {
        kind,
        n: study.n,
        strategy: study.strategy,
        kernel: study.kernel,
        logical_cpus: study.machine.logical,
        physical_cores: study.machine.physical,
        threads,
        seconds,
        min_seconds: min,
        max_seconds: max,
        speedup,
        efficiency,
        cpu_share,
    };
    let measured = study.runs.iter().map(|p| {
        row(
            "measured",
            p.threads,
            p.median_seconds,
            Some(p.min_seconds),
            Some(p.max_seconds),
            p.speedup,
            p.efficiency,
            p.cpu_share,
        )
    });
    let model = study.model.iter().map(|m| {
        row(
            "model",
            m.workers,
            m.predicted_seconds,
            None,
            None,
            m.speedup,
            m.efficiency,
            None,
        )
    });
    measured.chain(model).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use nqueens::scaling::study::MeasuredPoint;

    fn study(n: u32, points: &[(usize, f64, Option<f64>)]) -> Study {
        Study {
            n,
            strategy: Strategy::Mirror,
            kernel: Kernel::DepthFirst,
            machine: Machine {
                logical: 2,
                physical: 2,
            },
            repeat: 3,
            tasks: 100,
            task_seconds_total: 1.0,
            task_seconds_max: 0.1,
            runs: points
                .iter()
                .map(|&(threads, fastest, cpu_share)| MeasuredPoint {
                    threads,
                    median_seconds: fastest * 1.1,
                    min_seconds: fastest,
                    max_seconds: fastest * 1.2,
                    speedup: 1.0,
                    efficiency: 1.0,
                    cpu_share,
                })
                .collect(),
            model: vec![],
        }
    }

    #[test]
    fn short_runs_are_named_with_a_larger_board() {
        let warning = short_run_warning(&study(9, &[(1, 0.004, None), (2, 0.0021, None)]))
            .expect("runs of a few ms are short");
        assert!(warning.contains("2.10 ms (2 threads)"), "{warning}");
        let suggested: u32 = warning
            .rsplit(' ')
            .next()
            .and_then(|n| n.parse().ok())
            .expect("a board is suggested");
        assert!(suggested > 9, "{warning}");
        assert!(budget::engine_seconds(suggested, 2) >= SHORT_RUN_SECONDS);
        assert!(!warning.contains('\n'));
        assert_eq!(
            short_run_warning(&study(17, &[(1, 0.9, None), (2, 0.5, None)])),
            None
        );
        assert_eq!(short_run_warning(&study(17, &[])), None);
    }

    #[test]
    fn only_starved_runs_raise_the_cpu_share_warning() {
        let quiet = study(16, &[(1, 1.0, Some(0.99)), (2, 0.5, None)]);
        assert_eq!(busy_machine_warning(&quiet), None);
        let busy = study(16, &[(1, 1.0, Some(0.95)), (2, 0.5, Some(0.41))]);
        let warning = busy_machine_warning(&busy).unwrap();
        assert!(
            warning.contains("(2 threads got 41.0 % of the CPU time"),
            "{warning}"
        );
    }
}
