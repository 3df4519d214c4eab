//! `nqueens estimate`: the total and the cost of a count, from a random sample of its plan (the
//! model behind every other command's figures too: `budget`).

use std::io::{IsTerminal, Write};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::format::{table_row, write_table};
use nqueens::estimation::{
    Budget, Estimate, EstimateOptions, EstimateProgress, StopReason, estimate_with,
};
use nqueens::{Plan, RunControl, TaskOutcome, Watcher};

use serde::Serialize;

use super::long_run::{FINISHING_SAMPLES, Interrupt};
use crate::args::EstimateArgs;
use nqueens_ui::failure::{Failure, Outcome};
use nqueens_ui::human::{approximately, duration, grouped};
use nqueens_ui::progress::{self, Notices, Steps};
use nqueens_ui::{human, output};

pub fn run(args: &EstimateArgs, out: &mut dyn Write) -> Result<Outcome, Failure> {
    // The budget counts from here: building the plan spends it too.
    let started = Instant::now();
    // A bad interval for the progress lines is refused before anything is sampled.
    args.progress.apply().map_err(Failure::Usage)?;
    let budget = match (args.samples, args.seconds) {
        (Some(k), _) => Budget::Samples(k),
        // Positive and finite (the parser refuses the rest), and at least a nanosecond.
        (None, Some(s)) => Budget::Time(Duration::from_secs_f64(s).max(Duration::from_nanos(1))),
        (None, None) => Budget::for_board(args.n),
    };
    let options = EstimateOptions::new(budget)
        .with_seed(args.seed)
        .with_threads(args.threads)
        .with_kernel(args.kernel)
        .with_early_stop(!args.full_budget);
    let result = estimate_on_terminal(args.n, &options, started)?;
    args.format
        .write_report(out, &result, |out| write_table(out, &lines(&result)))?;
    if result.stopped == StopReason::Stopped {
        // Written whole, marked stopped; said after it, as an interrupted count says.
        output::message(format_args!(
            "nqueens: interrupted: the estimate rests on the {} drawn before it",
            human::plural(grouped(result.samples), "sample")
        ));
        return Ok(Outcome::Interrupted);
    }
    Ok(Outcome::Success)
}

/// Estimates the `n`-board under a progress bar on stderr (only on a terminal, and not under
/// `--quiet`): the budget used, the samples drawn and the interval of the total so far.
///
/// The first interrupt stops the estimate after the running samples, once a round of them is
/// whole (before that it ends the process: nothing would be kept), and the estimate of the
/// samples drawn is written, marked stopped; the second ends the process at once.
fn estimate_on_terminal(
    n: u32,
    options: &EstimateOptions,
    started: Instant,
) -> Result<Estimate, Failure> {
    let interrupt = Interrupt::install_saying(FINISHING_SAMPLES, "sample");
    // The bar counts the samples drawn, or the seconds of a time budget.
    let of = match options.budget {
        Budget::Samples(k) => k,
        Budget::Time(time) => time.as_secs_f64().ceil() as u64,
        // A budget this build does not know: a bar of no length.
        _ => 0,
    };
    let steps = Steps::on_terminal(&format!("n = {n}"), of);
    let mut watching = Watching {
        n,
        budget: options.budget,
        started,
        interrupt: &interrupt,
        bar: None,
        report: &|_| {},
    };
    let run = |watching: &Watching<'_>| {
        let control = RunControl::default()
            .with_stop(interrupt.flag())
            .with_watcher(watching);
        estimate_with(n, options, &control)
    };
    if !steps.is_visible() {
        if nqueens_ui::output::is_quiet() || std::io::stderr().is_terminal() {
            return Ok(run(&watching)?);
        }
        // A log (stderr not a terminal): a plain line now and then.
        let every = progress::log_interval().unwrap_or(progress::LOG_EVERY);
        let next = Mutex::new(every);
        let report = |p: &EstimateProgress| {
            let mut next = next.lock().unwrap_or_else(|e| e.into_inner());
            if p.elapsed >= *next {
                *next = p.elapsed + every;
                eprint!("{}", log_line(n, options, p));
            }
        };
        watching.report = &report;
        return Ok(run(&watching)?);
    }
    interrupt.board(Some(steps.notices()));
    watching.bar = Some(steps.notices());
    steps.doing("sizing the sample");
    let report = |p: &EstimateProgress| {
        let total = running_total(p);
        match options.budget {
            Budget::Samples(_) => {
                steps.set(p.samples_done, of);
                steps.doing(format!("samples{total}"));
            }
            Budget::Time(_) => {
                steps.set(p.elapsed.as_secs(), of);
                if p.samples == 0 {
                    steps.doing("s, sizing the sample");
                } else {
                    steps.doing(format!(
                        "s, {} of {}{total}",
                        grouped(p.samples_done),
                        human::plural(p.samples, "sample")
                    ));
                }
            }
            _ => {}
        }
    };
    watching.report = &report;
    let result = run(&watching);
    interrupt.board(None);
    steps.finish();
    Ok(result?)
}

/// What the estimate tells the command: the plan built (a warning when it spent the whole time
/// budget), and each round of samples (from then on an interrupt keeps them; `report` shows
/// them).
struct Watching<'a> {
    n: u32,
    budget: Budget,
    started: Instant,
    interrupt: &'a Interrupt,
    /// The progress bar, when one is drawn: the warning goes above it.
    bar: Option<Notices>,
    report: &'a (dyn Fn(&EstimateProgress) + Sync),
}

impl Watcher for Watching<'_> {
    fn start(&self, _: &Plan, _: &[TaskOutcome]) {
        if let Some(line) = plan_over_budget(self.n, self.budget, self.started.elapsed()) {
            match &self.bar {
                Some(bar) => bar.above(|| output::warning(line)),
                None => output::warning(line),
            }
        }
    }

    fn sampled(&self, progress: &EstimateProgress) {
        self.interrupt.task_finished();
        (self.report)(progress);
    }
}

/// The warning when building the plan (`built`) spent the whole time budget: the estimate then
/// rests on one short pilot run.
fn plan_over_budget(n: u32, budget: Budget, built: Duration) -> Option<String> {
    let Budget::Time(time) = budget else {
        return None;
    };
    (built >= time).then(|| {
        let enough = (10.0 * built.as_secs_f64()).ceil();
        format!(
            "building the plan of n = {n} took {} of the {} budget: the estimate rests on one \
             short pilot run; give --budget-seconds {} or more for a narrower interval",
            duration(built.as_secs_f64()),
            duration(time.as_secs_f64()),
            human::number(enough)
        )
    })
}

/// A progress line for a log: `nqueens: n = 28: 12.0 s of 1 min 00 s, 4,512 samples, total
/// 2.57 × 10¹⁸ ±0.91 %`.
fn log_line(n: u32, options: &EstimateOptions, p: &EstimateProgress) -> String {
    let of = match options.budget {
        Budget::Time(time) => format!(" of {}", duration(time.as_secs_f64())),
        _ => String::new(),
    };
    format!(
        "nqueens: n = {n}: {}{of}, {}{}\n",
        duration(p.elapsed.as_secs_f64()),
        human::plural(grouped(p.samples_done), "sample"),
        running_total(p)
    )
}

/// The total estimated so far, as the bar and the log lines show it: `, total 2.57 × 10⁶ ±0.91 %`
/// (nothing before there are two samples).
fn running_total(p: &EstimateProgress) -> String {
    match p.total {
        Some((total, low, high)) => format!(
            ", total {} ±{}",
            approximately(total),
            human::with_percent_sign(&human::number(
                100.0 * (high - low) / 2.0 / total.abs().max(1.0)
            ))
        ),
        None => String::new(),
    }
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
            human::plural(grouped(e.tasks), "task"),
            e.kernel
        ),
    );
    if e.stopped == StopReason::Counted {
        counted_lines(e, &mut add);
    } else {
        sampled_lines(e, &mut add);
    }
    add("stopped".into(), e.stopped.to_string());
    add(
        "wall time of the estimate".into(),
        duration(e.elapsed.as_secs_f64()),
    );
    lines
}

/// The lines of a board counted exactly: the count, then the known total, if any, and whether
/// the count matches it; its unique count and the core time the count took.
fn counted_lines(e: &Estimate, add: &mut dyn FnMut(String, String)) {
    add(
        "total".into(),
        format!("{} (counted exactly)", grouped(e.estimate_total as u128)),
    );
    if let Some(known) = e.known_total {
        let agrees = if known as f64 == e.estimate_total {
            "the count matches it"
        } else {
            "the count differs"
        };
        add(
            "known total".into(),
            format!("{} ({agrees})", grouped(known)),
        );
    }
    add("unique".into(), grouped(e.estimate_unique as u128));
    add(
        "core time of the count".into(),
        format!(
            "{} ({} of wall time on {})",
            duration(e.core_time.as_secs_f64()),
            duration(e.wall_time.as_secs_f64()),
            human::plural(e.threads, "thread")
        ),
    );
}

/// The lines of a sampled board: the estimate with its interval, then the known total, if any,
/// and how the estimate compares with it; the unique count and a full count's cost with their
/// intervals, the modelled wall times, the largest task, the sample and the work it covered.
fn sampled_lines(e: &Estimate, add: &mut dyn FnMut(String, String)) {
    add(
        "total".into(),
        format!(
            "{} (95 %: {} to {}, ±{})",
            approximately(e.estimate_total),
            approximately(e.total_low),
            approximately(e.total_high),
            human::share(e.total_relative_half_width)
        ),
    );
    if let Some(known) = e.known_total {
        let off = (e.estimate_total / known as f64 - 1.0) * 100.0;
        let held = e.total_low <= known as f64 && known as f64 <= e.total_high;
        add(
            "known total".into(),
            format!(
                "{} (estimate {}, {} the interval)",
                grouped(known),
                human::signed_percent(off, 2),
                if held { "inside" } else { "outside" }
            ),
        );
    }
    add(
        "unique (total / 8)".into(),
        format!(
            "{} (95 %: {} to {})",
            approximately(e.estimate_unique),
            approximately(e.unique_low),
            approximately(e.unique_high)
        ),
    );
    add(
        "core time of a count".into(),
        format!(
            "{} (95 %: {} to {})",
            duration(e.core_time.as_secs_f64()),
            duration(e.core_time_low.as_secs_f64()),
            duration(e.core_time_high.as_secs_f64())
        ),
    );
    add(
        format!("wall time on {}", human::plural(e.threads, "thread")),
        duration(e.wall_time.as_secs_f64()),
    );
    for (cores, secs) in [
        (64, e.wall_time_64.as_secs_f64()),
        (1024, e.wall_time_1024.as_secs_f64()),
        (10_000, e.wall_time_10000.as_secs_f64()),
    ] {
        add(
            format!("wall time on {}", human::plural(grouped(cores), "core")),
            duration(secs),
        );
    }
    add(
        "largest task".into(),
        format!(
            "{} of the work (size estimate)",
            human::share(e.largest_task_share)
        ),
    );
    add(
        "sample".into(),
        format!(
            "{} samples, seed {}, {} free rows each",
            grouped(e.samples),
            e.seed,
            e.free_rows
        ),
    );
    add("work covered".into(), human::share(e.covered_fraction));
}
