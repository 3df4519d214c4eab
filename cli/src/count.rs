//! `nqueens count`: count one or more boards and report totals, time and throughput.

use std::io::Write;

use nqueens::known::Mismatch;
use nqueens::{CountOptions, CountRun};
use nqueens_ui::failure::{Failure, Outcome};
use nqueens_ui::human::{self, grouped};
use nqueens_ui::output;
use serde::Serialize;

use super::long_run::{Interrupt, LongRun};
use super::pin;
use super::session::{
    Session, TIME_WIDTH, announce_long_counts, column_widths, differs, note_unique_left_out,
    options, refuse_boards_over, resolve_kernel,
};
use crate::args::CountArgs;
use crate::counted::Counted;
use crate::format::{Format, RecordStream, TableRow, write_records};

/// A count that may resume from a journal: its table gives this run's wall time, the core time
/// of every run of the count (`core time`: their search time summed) and the share of the tasks
/// resumed; the strategy and the rate (of this run's part only) are left to JSON and CSV, so
/// that the table fits 100 columns.
#[derive(Debug, Clone, Serialize)]
#[serde(transparent)]
struct Resumable(Counted);

impl TableRow for Resumable {
    fn headings() -> Vec<&'static str> {
        vec![
            "n",
            "total",
            "unique",
            "wall time",
            "core time",
            "resumed",
            "threads",
            "kernel",
        ]
    }

    fn cells(&self) -> Vec<String> {
        let record = &self.0;
        let counts = &record.run.counts;
        let core_time = record.all_runs_core_time.flatten();
        vec![
            counts.n.to_string(),
            grouped(counts.total),
            counts.unique.map_or("-".to_string(), grouped),
            human::duration(record.seconds()),
            core_time.map_or(human::NONE.to_string(), human::duration),
            resumed_cell(record.run.resumed_tasks, counts.tasks),
            counts.threads.to_string(),
            record.kernel_cell(),
        ]
    }
}

/// The least widths of a resumed count's table for `boards` ([`Resumable`]), from those of a
/// count's ([`column_widths`]).
fn resumable_widths(boards: &[u32], options: &CountOptions) -> Vec<usize> {
    let count = column_widths(boards, options);
    vec![
        count[0],
        count[1],
        count[2],
        TIME_WIDTH,
        TIME_WIDTH,
        "resumed".len(),
        count[5],
        count[7],
    ]
}

/// The `resumed` cell of a count that took `resumed` of its `tasks` from a journal: `no`,
/// `all`, or the share of the tasks (`0.0458 %`, `36.2 %`, never `100 %` short of all).
fn resumed_cell(resumed: usize, tasks: usize) -> String {
    if resumed == 0 {
        return "no".to_string();
    }
    if resumed >= tasks {
        return "all".to_string();
    }
    human::share((resumed as f64 / tasks as f64).min(0.999))
}

pub fn run(args: &CountArgs, out: &mut dyn Write) -> Result<Outcome, Failure> {
    // A bad interval for the progress lines is refused before anything is counted.
    args.progress.apply().map_err(Failure::Usage)?;
    if let Some(algorithm) = args.algorithm {
        let limit = args.max_seconds.unwrap_or(crate::args::DAY_SECONDS);
        return super::textbook::count_with(algorithm, &args.boards.0, limit, args.format, out);
    }
    let mut options = options(&args.engine);
    resolve_kernel(&mut options)?;
    // The boards' cost, estimated once where --max-seconds weighs it, and handed on to the
    // notes on a long count.
    let cost = match args.max_seconds {
        Some(limit) => Some(refuse_boards_over(&args.boards.0, &options, limit)?),
        None => None,
    };
    // Refused before any warning about the threads.
    let placement = pin::placement(args.pin, options.threads)?;
    super::threads::warn_if_oversubscribed(options.threads);
    let interrupt = Interrupt::install();
    let mut long_run = LongRun::new(args)?;
    if let Some(placement) = &placement {
        long_run.pool = Some(pin::pool(placement, options.threads)?);
    }
    if !long_run.announce {
        // One board is announced once its journal is accepted, net of the resumed tasks.
        announce_long_counts(&args.boards.0, &options, cost);
    }
    let pinned = placement.map(|p| p.describe(options.threads));
    let record = |mut record: Counted| {
        record.pin.clone_from(&pinned);
        record
    };
    let session = Session {
        options,
        long_run,
        interrupt,
        // One board's cost is the boards' cost (several are announced together, not each).
        cost,
    };
    if args.checkpoint.is_some() {
        let widths = resumable_widths(&args.boards.0, &session.options);
        stream(args, &session, out, &widths, |r| Resumable(record(r)))
    } else {
        let widths = column_widths(&args.boards.0, &session.options);
        stream(args, &session, out, &widths, record)
    }
}

/// Counts the boards one after another, writing each board's record as soon as it is counted
/// in a table whose columns are at least `widths` wide (one board: a table fitted to it); an
/// interrupt or an error closes what was written.
fn stream<T: Serialize + TableRow>(
    args: &CountArgs,
    session: &Session,
    out: &mut dyn Write,
    widths: &[usize],
    wrap: impl Fn(Counted) -> T,
) -> Result<Outcome, Failure> {
    let boards = &args.boards.0;
    let mut stream = RecordStream::with_widths(out, args.format, widths);
    let mut all_known = true;
    for &n in boards {
        let run = session.board(n, &mut stream)?;
        if !run.shard.is_whole() {
            drop(stream);
            return super::shard::write(&run, args.format, out);
        }
        note_unique_left_out(n, run.counts.unique);
        let mut record = Counted::new(&run);
        if args.checkpoint.is_some() {
            record = record.with_all_runs();
        }
        let known = run.counts.check_known();
        if boards.len() == 1 && args.format == Format::Table {
            drop(stream);
            write_records(out, args.format, &[wrap(record)])?;
            return Ok(checked(known, &run, &session.long_run));
        }
        stream.write(&wrap(record))?;
        session.interrupt.result_written();
        all_known &= checked(known, &run, &session.long_run) == Outcome::Success;
    }
    stream.finish()?;
    Ok(if all_known {
        Outcome::Success
    } else {
        Outcome::Negative
    })
}

/// What the check of a counted board against the known table found
/// ([`nqueens::Counts::check_known`], done before its record is written, which it is all the
/// same): a board whose counts differ is said on stderr, in one line that names the likely
/// cause (a resumed journal, or else a fault), and the command ends with exit code 1
/// ([`Outcome::Negative`]).
fn checked(known: Result<(), Mismatch>, run: &CountRun, long_run: &LongRun) -> Outcome {
    let Err(wrong) = known else {
        return Outcome::Success;
    };
    let cause = match long_run.journal(run.counts.n) {
        Some(path) if run.resumed_tasks > 0 => format!(
            "the journal {} holds a wrong count (damaged or altered); count again into a new \
             file",
            path.display()
        ),
        _ => "the engine or this machine made an error; run nqueens verify".to_string(),
    };
    output::error(format_args!("{}: {cause}", differs(&wrong)));
    Outcome::Negative
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::RecordWriter;
    use nqueens::Strategy;
    use nqueens::{Kernel, RunControl};

    /// A resumed count's record of the `n`-board with the widest cells it can have: its known
    /// counts, times under a day at their widest, part of its tasks resumed.
    fn widest(n: u32, kernel: Kernel) -> Resumable {
        let known = nqueens::known::Known::of(n).unwrap();
        let long = std::time::Duration::from_secs_f64(3599.4);
        let mut run = nqueens::count_with(
            8,
            &CountOptions::new(1, Strategy::Symmetric),
            &RunControl::default(),
        )
        .unwrap();
        run.counts.n = n;
        run.counts.total = known.total;
        run.counts.unique = Some(known.unique);
        run.counts.wall_time = long;
        run.counts.threads = 64;
        run.counts.kernel = kernel;
        run.counts.tasks = 1_000_000;
        (run.resumed_tasks, run.resumed_total, run.core_time) = (333_333, 1, long);
        let mut record = Counted::new(&run);
        record.runs = Some(Some(2));
        record.all_runs_wall_time = Some(Some(long.as_secs_f64()));
        record.all_runs_core_time = Some(Some(long.as_secs_f64()));
        Resumable(record)
    }

    /// The lines of the streamed table of one resumed `n`-board counted with `kernel`.
    fn table(n: u32, kernel: Kernel) -> Vec<String> {
        let options = CountOptions::new(64, Strategy::Symmetric).with_kernel(kernel);
        let mut out = Vec::new();
        let widths = resumable_widths(&[n], &options);
        let mut writer = Format::Table.writer::<Resumable>(&mut out, &widths);
        writer.begin().unwrap();
        writer.record(&widest(n, kernel)).unwrap();
        writer.finish().unwrap();
        drop(writer);
        String::from_utf8(out)
            .unwrap()
            .lines()
            .map(String::from)
            .collect()
    }

    #[test]
    fn a_resumed_table_fits_100_columns_up_to_n_21_with_a_lane_kernel() {
        for (n, kernel) in [
            (21, Kernel::Avx512),
            (19, Kernel::DepthFirst),
            (16, Kernel::PortableLanes),
        ] {
            let lines = table(n, kernel);
            let width = lines[0].chars().count();
            assert!(width <= 100, "{width}: {lines:#?}");
            assert!(
                lines.iter().all(|l| l.chars().count() == width),
                "{lines:#?}"
            );
            assert!(
                lines[3].contains("33.3 %") && lines[3].contains("59 min 59 s"),
                "{lines:#?}"
            );
        }
    }

    #[test]
    fn the_resumed_cell_is_a_share_of_the_tasks() {
        assert_eq!(resumed_cell(0, 10_926), "no");
        assert_eq!(resumed_cell(5, 10_926), "0.0458 %");
        assert_eq!(resumed_cell(10_925, 10_926), "99.9 %");
        assert_eq!(resumed_cell(10_926, 10_926), "all");
    }
}
