//! `nqueens scale`: the thread-scaling study of one or several kernels and strategies, its
//! load-balance model and an optional SVG plot; with `--compare`, saved results side by side.

mod compare;
mod report;
pub(crate) mod saved;

use std::io::Write;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use nqueens::estimation::cost::Cost;
use nqueens::scaling::series::Series;
use nqueens::scaling::study::{self, Study, StudyError, StudyOptions, StudyProgress, StudyWarning};
use nqueens::scaling::{Load, Loss, Machine};
use nqueens::{CountOptions, Kernel, RunControl, Strategy, Watcher};

use super::long_run::{DROPPING_TASKS, Interrupt};
use super::{budget, pin};
use crate::args::ScaleArgs;
use nqueens_ui::failure::{Failure, Outcome};
use nqueens_ui::human;
use nqueens_ui::output;
use nqueens_ui::progress::Steps;

pub fn run(args: &ScaleArgs, out: &mut dyn Write) -> Result<Outcome, Failure> {
    match args.n {
        None => compare::run(args, out),
        Some(n) => measure(n, args, out),
    }
}

/// Measures the `n`-board as `args` ask: the study planned and its cost checked, the pools
/// pinned, the runs under the bar and the interrupt, then the results and the plot.
fn measure(n: u32, args: &ScaleArgs, out: &mut dyn Write) -> Result<Outcome, Failure> {
    // A bad interval for the progress lines is refused before anything is measured.
    args.progress.apply().map_err(Failure::Usage)?;
    let machine = Machine::detect();
    let variants = variants(&args.strategy, &args.kernel)?;
    let options = planned(n, args, &machine, &variants)?;
    let threads = options.thread_counts();
    // Refuse an unwritable plot path before spending minutes on the runs.
    if let Some(path) = &args.plot {
        output::check_replaceable(path, "the plot")?;
    }
    let most = threads.iter().copied().max().unwrap_or(1);
    let placement = pin::placement(args.pin, most)?;
    warn_about_load(&machine, &threads);
    // One pinned pool per thread count, built before any run.
    let pinned: Vec<Arc<rayon::ThreadPool>> = match &placement {
        None => Vec::new(),
        Some(placement) => threads
            .iter()
            .map(|&t| pin::pool(placement, t))
            .collect::<Result<_, _>>()?,
    };
    let pools: Vec<&rayon::ThreadPool> = pinned.iter().map(|pool| &**pool).collect();
    let Some(mut studies) = run_studies(n, &options, &variants, &pools)? else {
        return Ok(Outcome::Negative);
    };
    let stopped = studies.iter().any(|study| !study.complete);
    // A pair stopped before its first timed run finished has nothing to show.
    studies.retain(|study| !study.runs.is_empty());
    if studies.is_empty() {
        output::message("nqueens: interrupted before any timed run finished; nothing is lost");
        return Ok(Outcome::Interrupted);
    }
    if let Some(placement) = &placement {
        for study in &mut studies {
            study.run.pin = Some(placement.describe(most));
        }
    }
    write_out(out, args, &studies)?;
    if stopped {
        // Written whole, marked stopped; said after it, as an interrupted count says.
        output::message(interrupted_message(&studies, threads.len(), variants.len()));
        return Ok(Outcome::Interrupted);
    }
    Ok(Outcome::Success)
}

/// The study's options for the `n`-board as `args` ask (the repeat count chosen where they
/// give none), refused when its runs are estimated above `--max-seconds`.
fn planned(
    n: u32,
    args: &ScaleArgs,
    machine: &Machine,
    variants: &[(Strategy, Kernel)],
) -> Result<StudyOptions, Failure> {
    let requested = args
        .threads
        .as_ref()
        .map_or_else(|| machine.default_thread_counts(), |l| l.0.clone());
    let options = StudyOptions::new(requested)
        .with_strategy(variants[0].0)
        .with_kernel(variants[0].1)
        .with_warmup(args.warmup as usize)
        .with_model_up_to(args.model_up_to);
    let threads = options.thread_counts();
    let repeat = match args.repeat {
        Some(repeat) => repeat,
        None => default_repeat(n, &threads, variants),
    };
    let options = options.with_repeat(repeat as usize);
    let runs = f64::from(repeat) + f64::from(args.warmup);
    let cost = study_cost(n, &threads, variants, runs)?;
    let each = if variants.len() == 1 {
        String::new()
    } else {
        format!(", {} kernel and strategy pairs", variants.len())
    };
    budget::refuse_cost_over(
        &format!(
            "scale {n} ({} of each thread count{each})",
            human::plural(runs, "run")
        ),
        cost,
        args.max_seconds,
        &format!(
            "choose a smaller n, fewer --threads, --repeat, --warmup, kernels or strategies, or {}",
            budget::raise_max_seconds(args.max_seconds)
        ),
    )?;
    Ok(options)
}

/// Runs the study of every pair of `variants` on `pools` (where pinned) under the bar and the
/// interrupt; `None` when a run's total was wrong (said on stderr).
fn run_studies(
    n: u32,
    options: &StudyOptions,
    variants: &[(Strategy, Kernel)],
    pools: &[&rayon::ThreadPool],
) -> Result<Option<Vec<Study>>, Failure> {
    let threads = options.thread_counts();
    // One step per run: every thread count's warm-up and timed runs, for every pair.
    let runs_in_all = (threads.len() * (options.repeat + options.warmup) * variants.len()) as u64;
    let steps = Steps::logged(&format!("n = {n}"), runs_in_all, "run");
    // The first interrupt stops the study, its run under way dropped, once a timed run has
    // finished (before that it ends the process: nothing would be kept), and what was measured
    // is written, marked stopped; the second ends the process at once.
    let interrupt = Interrupt::install_saying(DROPPING_TASKS, "timed run");
    interrupt.board(Some(steps.notices()));
    let watching = Watching {
        steps: &steps,
        interrupt: &interrupt,
        last: Mutex::new(None),
    };
    let control = RunControl::default()
        .with_stop(interrupt.flag())
        .with_watcher(&watching)
        .with_pools(pools);
    let counts: Vec<CountOptions> = variants
        .iter()
        .map(|&(strategy, kernel)| options.count.with_strategy(strategy).with_kernel(kernel))
        .collect();
    let measured = study::measure_together(n, options, &counts, &control);
    interrupt.board(None);
    steps.finish();
    match measured {
        Ok(studies) => Ok(Some(studies)),
        Err(nqueens::Error::Study(refused)) => match *refused {
            mismatch @ StudyError::Mismatch { .. } => {
                output::error(mismatch);
                Ok(None)
            }
            other => Err(Failure::Usage(other.to_string())),
        },
        Err(e) => Err(e.into()),
    }
}

/// The warnings on stderr, then the results in `args`' format and the plot where asked for:
/// the results first, so that a plot that cannot be written loses none of them.
fn write_out(out: &mut dyn Write, args: &ScaleArgs, studies: &[Study]) -> Result<(), Failure> {
    let series: Vec<Series> = studies.iter().map(Series::of).collect();
    let warnings = warnings(&series);
    for warning in &warnings {
        output::warning(warning);
    }
    let printed = report::write_results(out, args.format, studies);
    if let Some(path) = &args.plot {
        let options = nqueens_plot::PlotOptions {
            model_up_to: args.model_up_to,
            warnings,
        };
        nqueens_plot::write(path, &series, &options)?;
    }
    printed
}

/// What the study tells the command: each run as it starts (the bar, and from the first
/// finished timed run on, that an interrupt keeps what was measured).
struct Watching<'a> {
    steps: &'a Steps,
    interrupt: &'a Interrupt,
    /// The run under way.
    last: Mutex<Option<StudyProgress>>,
}

impl Watcher for Watching<'_> {
    fn measuring(&self, p: &StudyProgress) {
        let mut last = self.last.lock().unwrap_or_else(|e| e.into_inner());
        // The run before this one has finished.
        if let Some(finished) = last.replace(*p) {
            self.steps.step();
            if finished.run > 0 {
                self.interrupt.task_finished();
            }
        }
        self.steps.doing(progress_line(p));
    }
}

/// What an interrupted study tells the user: what its results rest on. `studies` are those
/// with a finished timed run, of `threads` thread counts and `pairs` kernel and strategy pairs.
fn interrupted_message(studies: &[Study], threads: usize, pairs: usize) -> String {
    let measured = studies.iter().map(|s| s.runs.len()).max().unwrap_or(0);
    let of_pairs = if pairs > 1 {
        format!(
            ", {} of the {pairs} kernel and strategy pairs",
            studies.len()
        )
    } else {
        String::new()
    };
    format!(
        "nqueens: interrupted: the results rest on the timed runs finished before it \
         ({measured} of the {threads} thread counts{of_pairs})"
    )
}

/// The timed runs of each thread count without `--repeat`: 3, or where the fastest run is
/// estimated under [`Study::SHORT_RUN`], enough for the fastest thread count's timed runs to
/// take [`REPEATED_FOR`] together (at most [`MOST_REPEATS`]): the median of a short board rests
/// on more runs. The estimate is the cost model's, of the fastest pair of `variants` on the most
/// of `threads`.
fn default_repeat(n: u32, threads: &[usize], variants: &[(Strategy, Kernel)]) -> u32 {
    const DEFAULT: u32 = 3;
    let most = threads.iter().copied().max().unwrap_or(1);
    let fastest = variants
        .iter()
        .filter_map(|&(strategy, kernel)| {
            let options = CountOptions::new(most, strategy).with_kernel(kernel);
            Cost::try_of_board(n, &options).ok()
        })
        .map(|cost| cost.wall_time)
        .min();
    match fastest {
        Some(run) if run < Study::SHORT_RUN => {
            let wanted = (REPEATED_FOR.as_secs_f64() / run.as_secs_f64().max(1e-9)).ceil();
            (wanted as u32).clamp(DEFAULT, MOST_REPEATS)
        }
        _ => DEFAULT,
    }
}

/// What the timed runs of a short board's fastest thread count take together by default.
const REPEATED_FOR: Duration = Duration::from_secs(1);

/// The most timed runs per thread count chosen by default.
const MOST_REPEATS: u32 = 15;

/// What the study costs: `runs` runs of every thread count with every (strategy, kernel) pair,
/// each pair's board estimated once (the cost model of every command) and spread over the
/// threads.
fn study_cost(
    n: u32,
    threads: &[usize],
    variants: &[(Strategy, Kernel)],
    runs: f64,
) -> Result<Cost, nqueens::Error> {
    let mut total = Cost::single_thread(std::time::Duration::ZERO);
    for &(strategy, kernel) in variants {
        let options = CountOptions::new(1, strategy).with_kernel(kernel);
        let one = Cost::try_of_board(n, &options)?;
        for &t in threads {
            total = total.plus(one.on_threads(t).scaled(runs));
        }
    }
    Ok(total)
}

/// Every strategy with every kernel, `auto` resolved to the kernel this CPU runs; a pair named
/// twice (`--kernel auto,avx512` where `auto` is AVX-512) is measured once.
fn variants(
    strategies: &[Strategy],
    kernels: &[Kernel],
) -> Result<Vec<(Strategy, Kernel)>, Failure> {
    let mut pairs: Vec<(Strategy, Kernel)> = Vec::new();
    for &strategy in strategies {
        for &kernel in kernels {
            let resolved = kernel.resolve()?;
            if !pairs.contains(&(strategy, resolved)) {
                pairs.push((strategy, resolved));
            }
        }
    }
    Ok(pairs)
}

/// What the bar of a study says while `p`'s run goes on: `2 threads, run 1 of 3`, with the
/// kernel and strategy when several pairs are measured together.
fn progress_line(p: &StudyProgress) -> String {
    let run = match p.run {
        0 => "warm-up".to_string(),
        k => format!("run {k} of {}", p.repeat),
    };
    let which = if p.variants > 1 {
        format!(
            "{} kernel, {} ({} of {}): ",
            p.kernel,
            p.strategy,
            p.variant + 1,
            p.variants
        )
    } else {
        String::new()
    };
    format!(
        "measuring {which}{}, {run}",
        human::plural(p.threads, "thread")
    )
}

fn warn_about_load(machine: &Machine, threads: &[usize]) {
    for &t in threads {
        match machine.load(t) {
            Some(Load::Oversubscribed) => output::warning(format_args!(
                "{t} threads exceed the {} (oversubscribed): the \
                 system time-slices them, so the speedup cannot grow",
                human::plural(machine.logical, "logical CPU")
            )),
            Some(Load::SharesCores) => output::warning(format_args!(
                "{t} threads exceed the {}: some threads share a \
                 core, so expect less than ideal speedup",
                human::plural(machine.physical, "physical core")
            )),
            _ => {}
        }
    }
}

/// The warnings about the runs of `studies`, as said on stderr and under the plot: the
/// busy-machine warning once for them all (naming the kernel and strategy of its lowest CPU
/// share where there are several studies), then the short-run warning once (of the first study
/// short enough for one: the others say the same).
fn warnings(studies: &[Series]) -> Vec<String> {
    let several = studies.len() > 1;
    let mut starved = Vec::new();
    let mut short = None;
    for study in studies {
        for warning in study.warnings() {
            match warning {
                StudyWarning::BusyMachine { starved: counts } => {
                    let name =
                        several.then(|| format!("{} kernel, {}", study.kernel, study.strategy));
                    starved.extend(Starved::all(&counts, name));
                }
                StudyWarning::ShortRuns { threads, time } => {
                    short.get_or_insert_with(|| short_run_warning(study, threads, time));
                }
                _ => {}
            }
        }
    }
    busy_machine_warning(&starved)
        .into_iter()
        .chain(short)
        .collect()
}

/// A thread count whose runs received less than [`Study::BUSY_BELOW`] of the CPU time they
/// asked for: its CPU share and, among several series, which series it is of.
pub(crate) struct Starved {
    /// The thread count.
    pub threads: usize,
    /// Its CPU share.
    pub share: f64,
    /// The series it is of, where there are several.
    pub of: Option<String>,
}

impl Starved {
    /// The thread counts of a [`StudyWarning::BusyMachine`], `counts`, each of the series `of`.
    pub(crate) fn all(counts: &[(usize, f64)], of: Option<String>) -> Vec<Starved> {
        counts
            .iter()
            .map(|&(threads, share)| Starved {
                threads,
                share,
                of: of.clone(),
            })
            .collect()
    }
}

/// What the runs of one series say about their own worth, in words: that its study was
/// stopped, the busy-machine warning (where `busy`), then the short-run warning, each where its
/// runs call for it.
pub(crate) fn series_warnings(series: &Series, busy: bool) -> Vec<String> {
    let stopped = (!series.complete).then(|| STOPPED_WARNING.to_string());
    stopped
        .into_iter()
        .chain(
            series
                .warnings()
                .iter()
                .filter(|warning| busy || !matches!(warning, StudyWarning::BusyMachine { .. }))
                .filter_map(|warning| warning_text(series, warning)),
        )
        .collect()
}

/// What a series whose study was stopped says of its runs.
const STOPPED_WARNING: &str = "the study was stopped before it finished: each thread count \
                               rests on its timed runs that finished";

/// `warning` about the runs of `series` in words; `None` for a kind this version cannot word.
pub(crate) fn warning_text(series: &Series, warning: &StudyWarning) -> Option<String> {
    match warning {
        StudyWarning::BusyMachine { starved } => busy_machine_warning(&Starved::all(starved, None)),
        StudyWarning::ShortRuns { threads, time } => {
            Some(short_run_warning(series, *threads, *time))
        }
        _ => None,
    }
}

/// The one busy-machine warning of the runs `starved` of CPU time: the lowest CPU share among
/// them, where the columns give each; `None` where none was.
pub(crate) fn busy_machine_warning(starved: &[Starved]) -> Option<String> {
    let lowest = starved.iter().min_by(|a, b| a.share.total_cmp(&b.share))?;
    let of = lowest
        .of
        .as_ref()
        .map_or_else(String::new, |name| format!(", {name}"));
    Some(format!(
        "other programs were using the CPUs: runs received as little as {} of the CPU time \
         they asked for ({}{of}; under {} is a busy machine), so the measured times, speedups \
         and efficiencies are those of this busy machine, not the machine's; the CPU share \
         column (cpu_share) gives each thread count's, the loss breakdown books the CPU time \
         taken as \"other programs\", and the model with losses leaves it out",
        human::percent(lowest.share),
        human::plural(lowest.threads, "thread"),
        human::percent(Study::BUSY_BELOW)
    ))
}

/// Whether `warnings` hold the busy-machine warning ([`StudyWarning::BusyMachine`]).
pub(crate) fn has_busy(warnings: &[StudyWarning]) -> bool {
    warnings
        .iter()
        .any(|w| matches!(w, StudyWarning::BusyMachine { .. }))
}

/// The line above a table of runs some of which were on a busy machine, naming `whose` runs
/// (`these runs`, `the runs of A, B`): said once, as stderr has the whole warning.
pub(crate) fn busy_line(whose: &str) -> String {
    format!(
        "busy machine: other programs took CPU time from {whose} (CPU share under {})",
        human::percent(Study::BUSY_BELOW)
    )
}

/// Whether a run with `cpu_share` (where measured) was on a busy machine: the `busy` column.
pub(crate) fn busy(cpu_share: Option<f64>) -> Option<bool> {
    cpu_share.map(|share| share < Study::BUSY_BELOW)
}

/// What a `-` in the CPU share column of runs measured now means.
pub(crate) const NO_CPU_SHARE: &str = "CPU share -: not measured: that thread count's runs took \
                                       under 0.25 s in all, too short for the process clock's \
                                       10 ms ticks (a larger n or --repeat gives one), or the \
                                       system has no /proc";

/// A share of the worker-time in percentage points, `0.0` and above: `12.3` (never `-0.0`); `-`
/// where it is not a number.
fn points(x: f64) -> String {
    if !x.is_finite() {
        return "-".to_string();
    }
    format!("{:.1}", x.max(0.0) * 100.0)
}

/// What the loss tables say under themselves when [`shown_loss`](nqueens_ui::series::shown_loss) set a part to 0.
pub(crate) const CLIPPED_NOTE: &str = "a part below 0 (the thread count did better there than \
                                       the 1-thread run: timer noise) is shown as 0.0, so the \
                                       parts can add up to more than lost";

/// The warning about timed runs too short to mean anything, the fastest of `series`' on
/// `threads` threads taking `time`, with a board whose runs are estimated to take long enough
/// (where the series' strategy and kernel are known here).
fn short_run_warning(series: &Series, threads: usize, time: Duration) -> String {
    let larger = series
        .strategy
        .parse::<Strategy>()
        .ok()
        .zip(series.kernel.parse::<Kernel>().ok())
        .and_then(|(strategy, kernel)| {
            let options = CountOptions::new(threads, strategy).with_kernel(kernel);
            (series.n + 1..=nqueens::Plan::MAX_N)
                .find(|&n| Cost::of_board(n, &options).wall_time >= Study::SHORT_RUN)
        })
        .map_or_else(String::new, |n| format!(" such as {n}"));
    format!(
        "the fastest timed run took {} ({}): runs under {:.0} ms measure start-up costs and \
         timer noise more than the search, so these speedups mean little; choose a larger \
         n{larger}",
        human::duration(time.as_secs_f64()),
        human::plural(threads, "thread"),
        Study::SHORT_RUN.as_secs_f64() * 1e3
    )
}

/// A signed fraction for people: `+1.9 %`, `-4.6 %` ([`human::signed_percent`]).
fn signed_percent(x: f64) -> String {
    human::signed_percent(x * 100.0, 1)
}

/// A rate of solutions for people: `1.64 M solutions/s`.
fn solutions_per_second(rate: f64) -> String {
    let rate = human::rate(rate);
    format!("{} solutions/s", rate.trim_end_matches("/s").trim_end())
}

/// The loss breakdown as a row's columns, each empty (`null`) where the row has none: `loss_`
/// and the part's name ([`Loss::NAMES`]), in their order.
/// Flattened into the rows of `scale` and `scale --compare`.
#[derive(Debug, Clone, Copy, Default, PartialEq, serde::Serialize)]
pub(crate) struct LossColumns {
    loss_serial: Option<f64>,
    loss_imbalance: Option<f64>,
    loss_other_programs: Option<f64>,
    loss_slowdown: Option<f64>,
    loss_unexplained: Option<f64>,
}

impl From<Option<Loss>> for LossColumns {
    fn from(loss: Option<Loss>) -> LossColumns {
        LossColumns {
            loss_serial: loss.map(|l| l.serial),
            loss_imbalance: loss.map(|l| l.imbalance),
            loss_other_programs: loss.map(|l| l.other_programs),
            loss_slowdown: loss.map(|l| l.slowdown),
            loss_unexplained: loss.map(|l| l.unexplained),
        }
    }
}

impl LossColumns {
    /// The breakdown the columns hold, none where they are empty.
    pub(crate) fn loss(&self) -> Option<Loss> {
        let mut loss = Loss::default();
        loss.serial = self.loss_serial?;
        loss.imbalance = self.loss_imbalance?;
        loss.other_programs = self.loss_other_programs?;
        loss.slowdown = self.loss_slowdown?;
        loss.unexplained = self.loss_unexplained?;
        Some(loss)
    }
}

/// Whether a measured row's threads shared a core, in the table.
fn shares_core(shares: bool) -> &'static str {
    if shares { "yes (SMT)" } else { "-" }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use nqueens::scaling::study::MeasuredPoint;

    pub(crate) fn study(n: u32, points: &[(usize, f64, Option<f64>)]) -> Study {
        // A study as its JSON reads back, the measured points set below.
        let mut study: Study = serde_json::from_value(serde_json::json!({
            "n": n,
            "strategy": "mirror",
            "kernel": "depth-first",
            "machine": { "logical": 2, "physical": 2 },
            "repeat": 3,
            "tasks": 100,
            "task_seconds_total": 1.0,
            "task_seconds_max": 0.1,
            "runs": [],
            "model": [],
            "total": 0,
            "run": {
                "cpu": "Test CPU",
                "logical": 2,
                "physical": 2,
                "smt": false,
                "kernel": "depth-first",
                "strategy": "mirror",
                "n": n,
                "version": "0.1.0",
                "date": "2026-11-24T00:00:00Z",
                "os": "linux x86_64",
            },
            "headline": null,
        }))
        .expect("a study");
        assert_eq!(study.machine, Machine::new(2, 2));
        study.runs = points
            .iter()
            .map(|&(threads, fastest, cpu_share)| {
                let time = std::time::Duration::from_secs_f64;
                let mut point = MeasuredPoint::new(
                    threads,
                    time(fastest * 1.1),
                    time(fastest),
                    time(fastest * 1.2),
                    1.0,
                );
                point.efficiency = 1.0;
                point.cpu_share = cpu_share;
                point.shares_core = threads > 2;
                point
            })
            .collect();
        study
    }

    #[test]
    fn the_loss_columns_are_named_by_the_parts() {
        let empty: Vec<String> = Loss::NAMES
            .iter()
            .map(|part| format!("\"loss_{part}\":null"))
            .collect();
        assert_eq!(
            serde_json::to_string(&LossColumns::default()).unwrap(),
            format!("{{{}}}", empty.join(","))
        );
        let mut loss = Loss::default();
        loss.serial = 0.01;
        loss.unexplained = -0.002;
        let columns = LossColumns::from(Some(loss));
        assert_eq!(columns.loss(), Some(loss));
        assert_eq!(LossColumns::from(None).loss(), None);
    }

    #[test]
    fn short_runs_are_named_with_a_larger_board() {
        let short = study(9, &[(1, 0.004, None), (2, 0.0021, None)]);
        let [StudyWarning::ShortRuns { threads, time }] = short.warnings()[..] else {
            panic!("runs of a few ms are short: {:?}", short.warnings());
        };
        let warning = short_run_warning(&Series::of(&short), threads, time);
        assert!(warning.contains("2.10 ms (2 threads)"), "{warning}");
        let suggested: u32 = warning
            .rsplit(' ')
            .next()
            .and_then(|n| n.parse().ok())
            .expect("a board is suggested");
        assert!(suggested > 9, "{warning}");
        // The fixture's strategy and kernel, whose cost the suggestion follows.
        let options = CountOptions::new(2, Strategy::Mirror).with_kernel(Kernel::DepthFirst);
        assert!(Cost::of_board(suggested, &options).wall_time >= Study::SHORT_RUN);
        assert!(!warning.contains('\n'));
    }

    #[test]
    fn the_busy_machine_warning_names_the_lowest_cpu_share_once() {
        let busy = study(16, &[(1, 1.0, Some(0.95)), (2, 0.5, Some(0.41))]);
        let [StudyWarning::BusyMachine { starved }] = &busy.warnings()[..] else {
            panic!("{:?}", busy.warnings());
        };
        let warning = warning_text(&Series::of(&busy), &busy.warnings()[0]).unwrap();
        assert_eq!(starved, &[(2, 0.41)]);
        assert!(
            warning.starts_with(
                "other programs were using the CPUs: runs received as little as 41.0 % of the \
                 CPU time they asked for (2 threads; under 80.0 % is a busy machine), so the \
                 measured times, speedups and efficiencies are those of this busy machine, not \
                 the machine's; "
            ),
            "{warning}"
        );
        let starved = |threads, share, of: Option<&str>| Starved {
            threads,
            share,
            of: of.map(str::to_string),
        };
        let lowest = busy_machine_warning(&[
            starved(1, 0.5, Some("avx2 kernel, mirror")),
            starved(4, 0.25, Some("avx512 kernel, mirror")),
        ])
        .unwrap();
        assert!(
            lowest.contains(
                "as little as 25.0 % of the CPU time they asked for (4 threads, \
                             avx512 kernel, mirror; "
            ),
            "{lowest}"
        );
        assert_eq!(busy_machine_warning(&[]), None);
    }

    #[test]
    fn a_busy_machine_and_short_runs_are_told_once_for_all_studies() {
        let mut busy = study(16, &[(1, 1.0, Some(0.5)), (2, 0.01, None)]);
        busy.kernel = Kernel::PortableLanes;
        let short = study(9, &[(1, 0.004, None), (2, 0.0021, None)]);
        let (busy, short) = (Series::of(&busy), Series::of(&short));
        let alone = warnings(std::slice::from_ref(&busy));
        assert_eq!(alone.len(), 2, "{alone:?}");
        assert!(
            alone[0].starts_with(
                "other programs were using the CPUs: runs received as little as 50.0 %"
            )
        );
        assert!(alone[1].starts_with("the fastest timed run took 10.0 ms (2 threads)"));
        let both = warnings(&[short.clone(), busy.clone(), busy.clone(), short.clone()]);
        assert_eq!(both.len(), 2, "{both:?}");
        assert!(
            both[0].contains("(1 thread, portable-lanes kernel, mirror; under 80.0 %"),
            "{both:?}"
        );
        // The first short study's.
        assert!(both[1].contains("took 2.10 ms (2 threads)"), "{both:?}");
        // Each series of a comparison says its own.
        assert_eq!(series_warnings(&busy, true), alone);
        assert_eq!(series_warnings(&short, true).len(), 1);
        // A stopped one says so first.
        let mut stopped = busy.clone();
        stopped.complete = false;
        let said = series_warnings(&stopped, true);
        assert_eq!(said[0], STOPPED_WARNING);
        assert_eq!(said[1..], alone);
    }

    #[test]
    fn pairs_named_twice_are_measured_once() {
        let auto = Kernel::Auto.resolve().unwrap();
        let pairs = variants(
            &[Strategy::Mirror, Strategy::Symmetric],
            &[Kernel::Auto, auto, Kernel::DepthFirst],
        )
        .unwrap();
        let mut want = vec![(Strategy::Mirror, auto)];
        if auto != Kernel::DepthFirst {
            want.push((Strategy::Mirror, Kernel::DepthFirst));
        }
        assert_eq!(pairs[..want.len()], want);
        assert_eq!(pairs.len(), 2 * want.len());
    }

    #[test]
    fn an_interrupted_study_says_how_much_it_measured() {
        let one = study(16, &[(1, 1.0, None), (2, 0.5, None)]);
        assert_eq!(
            interrupted_message(std::slice::from_ref(&one), 3, 1),
            "nqueens: interrupted: the results rest on the timed runs finished before it \
             (2 of the 3 thread counts)"
        );
        let two = study(16, &[(1, 1.0, None)]);
        assert_eq!(
            interrupted_message(&[one, two], 3, 4),
            "nqueens: interrupted: the results rest on the timed runs finished before it \
             (2 of the 3 thread counts, 2 of the 4 kernel and strategy pairs)"
        );
    }

    #[test]
    fn progress_names_the_kernel_only_when_several_are_measured() {
        let mut p = StudyProgress::new(2, 1, 3, Strategy::Mirror, Kernel::DepthFirst);
        assert_eq!(progress_line(&p), "measuring 2 threads, run 1 of 3");
        p.variants = 2;
        p.variant = 1;
        p.run = 0;
        assert_eq!(
            progress_line(&p),
            "measuring depth-first kernel, mirror (2 of 2): 2 threads, warm-up"
        );
    }
}
