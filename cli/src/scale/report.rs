//! The results of a measured study in the three output formats.

use std::io::{self, Write};

use serde::Serialize;

use nqueens::scaling::Loss;
use nqueens::scaling::check::Holdout;
use nqueens::scaling::series::Series;
use nqueens::scaling::study::Study;
use nqueens::{Kernel, Strategy};

use super::{compare, points, shares_core, signed_percent, solutions_per_second};
use crate::format::{Format, TableRow, table_row, write_table};
use nqueens_ui::human::{self, percent};

/// Writes the studies to `out` in `format` and flushes them, so that they are out before the
/// plot is attempted: one study as one object (JSON), several as `{"series": [...]}`.
pub fn write_results(
    out: &mut dyn Write,
    format: Format,
    studies: &[Study],
) -> Result<(), nqueens_ui::failure::Failure> {
    let for_people = |out: &mut dyn Write| -> io::Result<()> {
        // Said once, above every study; stderr has the whole warning.
        if studies
            .iter()
            .any(|study| super::has_busy(&study.warnings()))
        {
            writeln!(out, "{}\n", super::busy_line("these runs"))?;
        }
        for (i, study) in studies.iter().enumerate() {
            if i > 0 {
                writeln!(out)?;
            }
            write_human(out, study)?;
        }
        if studies.len() > 1 {
            writeln!(out)?;
            let series: Vec<Series> = studies.iter().map(Series::of).collect();
            compare::write_side_by_side(out, &series)?;
        }
        Ok(())
    };
    let rows = || -> Vec<CsvRow> { studies.iter().flat_map(csv_rows).collect() };
    // JSON: an array of the studies, one record per (strategy, kernel), as every command
    // writes an array of records that name their n.
    format.write_document(out, &studies, rows, for_people)?;
    out.flush()?;
    Ok(())
}

/// A measured thread count in the human table, with the model's prediction beside it.
struct MeasuredRow {
    threads: usize,
    median: f64,
    min: f64,
    max: f64,
    speedup: f64,
    efficiency: f64,
    cpu_share: Option<f64>,
    shares_core: bool,
    bound_speedup: Option<f64>,
    with_losses_speedup: Option<f64>,
}

table_row!(MeasuredRow, |record| {
    "threads" => record.threads,
    "median" => human::duration(record.median),
    "min" => human::duration(record.min),
    "max" => human::duration(record.max),
    "speedup" => human::speedup(record.speedup),
    "efficiency" => percent(record.efficiency),
    "CPU share" => record.cpu_share.map_or_else(|| "-".to_string(), percent),
    "shares core" => shares_core(record.shares_core),
    "bound speedup" => record.bound_speedup.map_or_else(|| "-".to_string(), human::speedup),
    "with losses speedup" => record
        .with_losses_speedup
        .map_or_else(|| "-".to_string(), human::speedup),
});

/// Where a measured thread count's lost efficiency went, in the human table.
struct LossRow {
    threads: usize,
    lost: f64,
    loss: Loss,
}

impl TableRow for LossRow {
    fn headings() -> Vec<&'static str> {
        let parts = nqueens_ui::series::loss_headings(false);
        ["threads", "lost"].into_iter().chain(parts).collect()
    }

    fn cells(&self) -> Vec<String> {
        let (shown, _) = nqueens_ui::series::shown_loss(self.loss);
        let parts = shown.parts().map(|(_, part)| points(part));
        [self.threads.to_string(), points(self.lost.max(0.0))]
            .into_iter()
            .chain(parts)
            .collect()
    }
}

/// A modelled worker count in the human table.
struct ModelRow {
    workers: usize,
    predicted: f64,
    speedup: f64,
    efficiency: f64,
    with_losses: Option<f64>,
    with_losses_speedup: Option<f64>,
    losses_from: Option<usize>,
}

table_row!(ModelRow, |record| {
    "threads" => record.workers,
    "bound time" => human::duration(record.predicted),
    "bound speedup" => human::speedup(record.speedup),
    "bound efficiency" => percent(record.efficiency),
    "with losses time" => record.with_losses.map_or_else(|| "-".to_string(), human::duration),
    "with losses speedup" => record
        .with_losses_speedup
        .map_or_else(|| "-".to_string(), human::speedup),
    "losses of" => losses_of(record.workers, record.losses_from),
});

/// Which measured thread count the model's serial part and slowdown come from: `2 threads`, or
/// `2 threads (held)` where they are extrapolated to more workers.
fn losses_of(workers: usize, from: Option<usize>) -> String {
    match from {
        None => "-".to_string(),
        Some(t) if t == workers => human::plural(t, "thread"),
        Some(t) => format!("{} (held)", human::plural(t, "thread")),
    }
}

/// The machine line of the table: CPU name, counts, SMT.
fn machine_line(study: &Study) -> String {
    let cpu = study.run.cpu.as_deref().unwrap_or("CPU model not reported");
    let smt = if study.run.smt { "SMT on" } else { "no SMT" };
    let pinned = study
        .run
        .pin
        .as_ref()
        .map_or_else(String::new, |pin| format!("; threads pinned ({pin})"));
    format!(
        "machine: {cpu}, {}, {}, {smt}; {}, nqueens {}, {}{pinned}",
        human::plural(study.machine.logical, "logical CPU"),
        human::plural(study.machine.physical, "physical core"),
        study.run.os,
        study.run.version,
        study.run.date
    )
}

/// One study for people: its header, the measured thread counts, where their lost efficiency
/// went, the two models and the model check.
fn write_human(out: &mut dyn Write, study: &Study) -> io::Result<()> {
    write_header(out, study)?;
    write_measured(out, study)?;
    write_losses(out, study)?;
    write_model(out, study)?;
    let check = study.leave_one_out();
    if !check.is_empty() {
        writeln!(out)?;
        write_model_check(out, &check)?;
    }
    Ok(())
}

/// What the study is (board, strategy, kernel, runs), whether it was stopped, the machine and
/// the best throughput, then a blank line.
fn write_header(out: &mut dyn Write, study: &Study) -> io::Result<()> {
    writeln!(
        out,
        "n = {}, strategy {}, kernel {}: {}, {} per thread count after {}",
        study.n,
        study.strategy,
        study.kernel,
        human::plural(study.tasks, "task"),
        human::plural(study.repeat, "timed run"),
        match study.warmup {
            0 => "no warm-up".to_string(),
            1 => "one warm-up".to_string(),
            w => format!("{w} warm-ups"),
        }
    )?;
    if !study.complete {
        writeln!(
            out,
            "stopped before it finished: each thread count shown rests on its timed runs that \
             finished"
        )?;
    }
    writeln!(out, "{}", machine_line(study))?;
    if let Some(h) = study.headline {
        writeln!(
            out,
            "best: {} with {} ({} per core; {} solutions in {})",
            solutions_per_second(h.solutions_per_second),
            human::plural(h.threads, "thread"),
            solutions_per_second(h.solutions_per_second_per_core),
            human::grouped(h.solutions),
            human::duration(h.median.as_secs_f64())
        )?;
    }
    writeln!(out)
}

/// The measured thread counts: their times, speedups, CPU shares and the models beside them.
fn write_measured(out: &mut dyn Write, study: &Study) -> io::Result<()> {
    writeln!(
        out,
        "measured: wall-clock seconds; speedup and efficiency against the 1-thread median; CPU \
         share = CPU time received / asked for; shares core: more threads than the {}; bound \
         and with losses: the two models below",
        human::plural(study.machine.physical, "physical core")
    )?;
    let measured: Vec<MeasuredRow> = study
        .runs
        .iter()
        .map(|p| {
            let model = study.model_at(p.threads);
            MeasuredRow {
                threads: p.threads,
                median: p.median.as_secs_f64(),
                min: p.min.as_secs_f64(),
                max: p.max.as_secs_f64(),
                speedup: p.speedup,
                efficiency: p.efficiency,
                cpu_share: p.cpu_share,
                shares_core: p.shares_core,
                bound_speedup: model.map(|m| m.speedup),
                with_losses_speedup: model.and_then(|m| m.with_losses_speedup),
            }
        })
        .collect();
    write_table(out, &measured)?;
    if measured.iter().any(|row| row.cpu_share.is_none()) {
        writeln!(out, "{}", super::NO_CPU_SHARE)?;
    }
    writeln!(out)
}

/// Where each measured thread count's lost efficiency went, where the runs measured it.
fn write_losses(out: &mut dyn Write, study: &Study) -> io::Result<()> {
    let losses: Vec<LossRow> = study
        .runs
        .iter()
        .filter_map(|p| {
            Some(LossRow {
                threads: p.threads,
                lost: 1.0 - p.efficiency,
                loss: p.loss?,
            })
        })
        .collect();
    if !losses.is_empty() {
        writeln!(
            out,
            "lost efficiency (100 % - efficiency, points of the run's thread time) by where it \
             went, against the 1-thread run: serial = outside the tasks (starting and ending \
             the run); imbalance = idle while other threads still count; other programs = CPU \
             time asked for and not received (from the CPU share); slowdown = the tasks' summed \
             time beyond 1 thread's, less other programs' (clock, SMT, caches); unexplained = \
             the rest (between tasks)"
        )?;
        write_table(out, &losses)?;
        if losses
            .iter()
            .any(|row| row.lost < 0.0 || nqueens_ui::series::shown_loss(row.loss).1)
        {
            writeln!(out, "{}", super::CLIPPED_NOTE)?;
        }
        writeln!(out)?;
    }
    Ok(())
}

/// The list-scheduling bound and the model with losses, what each leaves out and its table.
fn write_model(out: &mut dyn Write, study: &Study) -> io::Result<()> {
    writeln!(
        out,
        "bound (list-scheduling bound): the 1-thread task times (sum {}, largest {}) replayed \
         largest-first on identical threads, nothing else, so no machine beats it; it leaves \
         out {}",
        human::duration(study.task_time_total.as_secs_f64()),
        human::duration(study.task_time_max.as_secs_f64()),
        study.model_leaves_out
    )?;
    if study.model.iter().any(|m| m.with_losses.is_some()) {
        writeln!(
            out,
            "with losses (model with measured losses): the bound's makespan x the measured \
             slowdown (task time on the CPU summed at the thread count / at 1 thread, without \
             what other programs took) + the measured serial time (each thread's time outside \
             the tasks), both from the largest measured thread count up to the modelled \
             count; (held) marks those two terms extrapolated, held at that count's values"
        )?;
    }
    let model: Vec<ModelRow> = study
        .model
        .iter()
        .map(|m| ModelRow {
            workers: m.workers,
            predicted: m.predicted.as_secs_f64(),
            speedup: m.speedup,
            efficiency: m.efficiency,
            with_losses: m.with_losses.map(|w| w.as_secs_f64()),
            with_losses_speedup: m.with_losses_speedup,
            losses_from: m.losses_from_threads,
        })
        .collect();
    write_table(out, &model)
}

/// A measured thread count predicted by the model without it, in the human table.
struct CheckRow(Holdout);

table_row!(CheckRow, |record| {
    "threads" => record.0.threads,
    "from" => human::plural(record.0.from_threads, "thread"),
    "predicted" => human::duration(record.0.predicted.as_secs_f64()),
    "measured" => human::duration(record.0.measured.as_secs_f64()),
    "error" => signed_percent(record.0.error),
});

/// The leave-one-out check of the model: its heading and table.
pub(super) fn write_model_check(out: &mut dyn Write, check: &[Holdout]) -> io::Result<()> {
    writeln!(
        out,
        "model check, leaving each measured thread count out: predicted with losses from the \
         largest smaller count's serial time and slowdown (as the model extrapolates), against \
         the measured median; error = predicted / measured - 1"
    )?;
    if check.iter().any(|h| h.lumped) {
        writeln!(
            out,
            "(saved without the loss breakdown: each count's serial time is folded into its \
             slowdown, taken as its median / its makespan)"
        )?;
    }
    let rows: Vec<CheckRow> = check.iter().copied().map(CheckRow).collect();
    write_table(out, &rows)
}

/// One CSV row: a measured thread count (`kind` = `measured`, `seconds` = the median) or a
/// modelled worker count, by the list-scheduling bound (`kind` = `bound`) or the model with
/// measured losses (`kind` = `with-losses`), `seconds` = the prediction, no min, max, CPU share
/// or loss breakdown.
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
    /// Whether the CPU share says the machine was busy (empty where there is none).
    busy: Option<bool>,
    shares_core: bool,
    cpu: String,
    /// A column per part (`loss_` and each of [`Loss::NAMES`](nqueens::scaling::Loss::NAMES)), each 0 and above ([`nqueens_ui::series::shown_loss`]).
    #[serde(flatten)]
    loss: super::LossColumns,
}

fn csv_rows(study: &Study) -> Vec<CsvRow> {
    let row =
        |kind, threads, seconds, min, max, speedup, efficiency, cpu_share, loss: Option<Loss>| {
            CsvRow {
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
                busy: super::busy(cpu_share),
                shares_core: threads > study.machine.physical,
                cpu: study.run.cpu.clone().unwrap_or_default(),
                loss: loss
                    .map(|loss| nqueens_ui::series::shown_loss(loss).0)
                    .into(),
            }
        };
    let measured = study.runs.iter().map(|p| {
        row(
            "measured",
            p.threads,
            p.median.as_secs_f64(),
            Some(p.min.as_secs_f64()),
            Some(p.max.as_secs_f64()),
            p.speedup,
            p.efficiency,
            p.cpu_share,
            p.loss,
        )
    });
    let bound = study.model.iter().map(|m| {
        row(
            "bound",
            m.workers,
            m.predicted.as_secs_f64(),
            None,
            None,
            m.speedup,
            m.efficiency,
            None,
            None,
        )
    });
    let with_losses = study.model.iter().filter_map(|m| {
        let (with_losses, speedup) = (m.with_losses?, m.with_losses_speedup?);
        Some(row(
            "with-losses",
            m.workers,
            with_losses.as_secs_f64(),
            None,
            None,
            speedup,
            speedup / m.workers.max(1) as f64,
            None,
            None,
        ))
    });
    measured.chain(bound).chain(with_losses).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_beyond_the_physical_cores_are_marked_in_every_format() {
        let study = super::super::tests::study(16, &[(1, 1.0, None), (4, 0.5, None)]);
        let mut table = Vec::new();
        write_human(&mut table, &study).unwrap();
        let table = String::from_utf8(table).unwrap();
        let row = table
            .lines()
            .find(|l| l.trim_start_matches('|').trim_start().starts_with("4 "))
            .unwrap();
        assert!(row.contains("yes (SMT)"), "{table}");
        assert!(table.contains("it leaves out SMT"), "{table}");
        assert!(
            table.contains("machine: Test CPU, 2 logical CPUs"),
            "{table}"
        );
        let rows = csv_rows(&study);
        assert_eq!(
            rows.iter()
                .map(|r| (r.threads, r.shares_core))
                .collect::<Vec<_>>(),
            [(1, false), (4, true)]
        );
        assert!(!table.contains("busy machine"), "{table}");
    }

    /// The table of `study` as people read it.
    fn table_of(study: &Study) -> String {
        let mut table = Vec::new();
        write_human(&mut table, study).unwrap();
        String::from_utf8(table).unwrap()
    }

    #[test]
    fn a_busy_study_says_so_and_books_the_lost_cpu_as_other_programs() {
        // 1.00x at 2 threads with half the CPU: the lost half is other programs' time.
        let mut study =
            super::super::tests::study(17, &[(1, 1.0, Some(0.99)), (2, 1.0, Some(0.505))]);
        let mut loss = Loss::default();
        loss.other_programs = 0.485;
        loss.slowdown = 0.012;
        loss.imbalance = 0.003;
        study.runs[1].loss = Some(loss);
        study.runs[1].efficiency = 0.5;
        let table = table_of(&study);
        // Said once above every study, in one short line (stderr has the warning).
        assert!(!table.contains("busy machine"), "{table}");
        let mut both = Vec::new();
        write_results(&mut both, Format::Table, &[study.clone(), study.clone()]).unwrap();
        let both = String::from_utf8(both).unwrap();
        assert_eq!(
            both.lines()
                .filter(|l| l.contains("busy machine") || l.contains("other programs took"))
                .collect::<Vec<_>>(),
            ["busy machine: other programs took CPU time from these runs (CPU share under 80.0 %)"],
            "{both}"
        );
        let header = table
            .lines()
            .find(|l| l.starts_with("| threads") && l.contains("unexplained"))
            .expect("the loss table");
        let columns: Vec<&str> = header
            .split("  ")
            .map(|c| c.trim_matches(|c: char| c == '|' || c.is_whitespace()))
            .filter(|c| !c.is_empty())
            .collect();
        assert_eq!(
            columns,
            [
                "threads",
                "lost",
                "serial",
                "imbalance",
                "other programs",
                "slowdown",
                "unexplained"
            ],
            "{table}"
        );
        let row = table
            .lines()
            .skip_while(|l| !l.contains("unexplained"))
            .find(|l| l.trim_start_matches('|').trim_start().starts_with("2 "))
            .unwrap();
        let cells: Vec<&str> = row.split_whitespace().filter(|c| *c != "|").collect();
        assert_eq!(
            cells,
            ["2", "50.0", "0.0", "0.3", "48.5", "1.2", "0.0"],
            "{table}"
        );
        let csv = csv_rows(&study);
        assert_eq!(csv[1].loss.loss(), Some(loss));
        assert_eq!((csv[0].busy, csv[1].busy), (Some(false), Some(true)));
        let (columns, values) = crate::format::plain::csv_fields(&csv[1]).unwrap();
        let at = |name: &str| &values[columns.iter().position(|c| c == name).unwrap()];
        assert_eq!(
            (at("loss_other_programs"), at("loss_slowdown")),
            (&"0.485".to_string(), &"0.012".to_string())
        );
    }

    #[test]
    fn each_model_has_one_name_in_the_table_and_the_csv() {
        let mut study = super::super::tests::study(16, &[(1, 1.0, None), (2, 0.5, None)]);
        study.model = nqueens::scaling::study::ModelPoint::predict(
            &[std::time::Duration::from_millis(10); 4],
            &[1, 2, 4],
        );
        study.model[1].with_losses = Some(std::time::Duration::from_millis(25));
        study.model[1].with_losses_speedup = Some(1.6);
        let table = table_of(&study);
        assert!(!table.contains("model speedup"), "{table}");
        for name in [
            "bound speedup",
            "with losses speedup",
            "bound time",
            "bound efficiency",
            "with losses time",
        ] {
            assert!(table.contains(name), "{name}: {table}");
        }
        let kinds: Vec<(&str, usize)> = csv_rows(&study)
            .iter()
            .filter(|r| r.kind != "measured")
            .map(|r| (r.kind, r.threads))
            .collect();
        assert_eq!(
            kinds,
            [("bound", 1), ("bound", 2), ("bound", 4), ("with-losses", 2)]
        );
        let with_losses = csv_rows(&study).pop().unwrap();
        assert_eq!((with_losses.speedup, with_losses.efficiency), (1.6, 0.8));
    }
}
