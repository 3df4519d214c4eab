//! `nqueens count`: count one or more boards and report totals, time and throughput.

use std::io::Write;
use std::path::Path;

use crate::format::{Format, RecordStream, TableRow, write_records};
use nqueens::Plan;
use nqueens::Prepared;
use nqueens::TaskOutcome;
use nqueens::estimate::cost::Cost;
use nqueens::known::Mismatch;
use nqueens::{CountOptions, CountRun, Kernel, RunControl, Watcher};
use nqueens_ui::human::{self, grouped};
use nqueens_ui::progress::Progress;
use serde::Serialize;

use super::long_run::{Interrupt, LongRun, failure, interrupted_message};
use super::{budget, pin};
use crate::args::{CountArgs, EngineArgs};
use crate::counted::Counted;
use crate::cpu_share::{self, CpuClock};
use nqueens_ui::escape;
use nqueens_ui::failure::{Failure, Outcome};
use nqueens_ui::output;

/// The widest time a streamed table makes room for: every duration under a day
/// (`23 h 59 min`, `59 min 59 s`).
pub const TIME_WIDTH: usize = 11;

/// The widest rate: `999 M/s`, `1.23 G/s`.
const RATE_WIDTH: usize = 8;

/// The table columns' least widths for counting `boards` with `options`: the grouped digits of
/// the largest known total and unique count among them (26, the width of 2^64, beyond the
/// table), the widest time and rate, the names of the strategy and of the widest kernel that
/// will run ([`Kernel::for_board`] each board).
pub fn column_widths(boards: &[u32], options: &CountOptions) -> Vec<usize> {
    let digits = |x: Option<u128>| x.map_or(26, |x| grouped(x).len());
    let largest =
        |f: fn(u32) -> Option<u128>| boards.iter().map(|&n| digits(f(n))).max().unwrap_or(1);
    // A GPU kernel's cell adds its share: ` (100 % GPU, failed)`.
    let kernel_width =
        |kernel: Kernel| kernel.name().len() + if kernel.uses_gpu() { 19 } else { 0 };
    vec![
        boards
            .iter()
            .map(|n| n.to_string().len())
            .max()
            .unwrap_or(1),
        largest(|n| nqueens::known::Known::of(n).map(|k| k.total)),
        largest(|n| nqueens::known::Known::of(n).map(|k| k.unique)),
        TIME_WIDTH,
        RATE_WIDTH,
        options.threads.to_string().len(),
        options.strategy.name().len(),
        boards
            .iter()
            .map(|&n| kernel_width(options.kernel.for_board(n, options.threads)))
            .max()
            .unwrap_or(0),
    ]
}

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

/// The engine options the shared arguments ask for.
pub fn options(engine: &EngineArgs) -> CountOptions {
    CountOptions::new(engine.threads, engine.strategy).with_kernel(engine.kernel)
}

/// The kernel `options` ask for, checked once for all the boards of a command: an error when
/// the CPU lacks it (a GPU kernel opens the device here). `auto` stays `auto`: each board's count
/// resolves it, to the fastest CPU kernel or, with the `gpu` feature, to the GPU beside the CPU
/// where the library's rule says it wins ([`Kernel::select_for`]).
pub fn resolve_kernel(options: &mut CountOptions) -> Result<(), Failure> {
    if options.kernel != Kernel::Auto {
        options.kernel = options.kernel.resolve()?;
    }
    Ok(())
}

pub fn run(args: &CountArgs, out: &mut dyn Write) -> Result<Outcome, Failure> {
    // A bad interval for the progress lines is refused before anything is counted.
    args.progress.apply().map_err(Failure::Usage)?;
    if let Some(algorithm) = args.algorithm {
        let limit = args.max_seconds.unwrap_or(crate::args::DAY_SECONDS);
        return super::compare::count_with(algorithm, &args.boards.0, limit, args.format, out);
    }
    let mut options = options(&args.engine);
    resolve_kernel(&mut options)?;
    if let Some(limit) = args.max_seconds {
        refuse_if_over(&args.boards.0, &options, limit)?;
    }
    // Refused before any warning about the threads.
    let placement = pin::placement(args.pin, options.threads)?;
    super::threads::warn_if_oversubscribed(options.threads);
    let interrupt = Interrupt::install();
    let mut long_run = LongRun::new(args)?;
    if let Some(placement) = &placement {
        long_run.pool = Some(pin::pool(placement, options.threads)?);
    }
    if let [_, _, ..] = args.boards.0[..] {
        // One board is announced once its journal is accepted, net of the resumed tasks.
        announce_long_counts(&args.boards.0, &options);
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

/// Says on stderr, in one line, that a whole board above [`nqueens::Counts::UNIQUE_MAX_N`] has no
/// unique count (its record shows none): the searches it needs are beyond reach.
pub fn note_unique_left_out(n: u32, unique: Option<u128>) {
    if unique.is_none() && n > nqueens::Counts::UNIQUE_MAX_N {
        output::note(format_args!(
            "nqueens: note: the unique count of n = {n} is not computed: its symmetric searches \
             are beyond reach above n = {}",
            nqueens::Counts::UNIQUE_MAX_N
        ));
    }
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
    output::error(format_args!("{}: {cause}", super::known::differs(&wrong)));
    Outcome::Negative
}

/// What a count needs, made once for all its boards: the engine's options, the journals, shard
/// and pool of a long run, and the interrupt that stops it. [`Session::board`] counts one board.
pub struct Session {
    /// The options every board is counted with (the kernel resolved once for all).
    pub options: CountOptions,
    /// The journals, the shard and the pool of the count.
    pub long_run: LongRun,
    /// The interrupt that stops the count (its workers drop the tasks they are on).
    pub interrupt: Interrupt,
}

impl Session {
    /// Counts the `n`-board whose record goes to `stream`. A failure, or an interrupt that
    /// stopped the board ([`Failure::Interrupted`], with what to tell the user), first closes
    /// what `stream` has written (the table's border, the JSON array), so that the output stays
    /// whole and the messages come after it.
    pub fn board<T: Serialize + TableRow>(
        &self,
        n: u32,
        stream: &mut RecordStream<'_, T>,
    ) -> Result<CountRun, Failure> {
        let counted = self.search(n);
        if counted.is_err() {
            stream.finish()?;
        }
        counted
    }

    /// One board, in order: the plan and the journal (a refused journal stops here), the notes
    /// on a long count, then the search under the progress bar and the interrupt.
    fn search(&self, n: u32) -> Result<CountRun, Failure> {
        let (options, long_run, interrupt) = (&self.options, &self.long_run, &self.interrupt);
        interrupt.board(None);
        if interrupt.is_raised() {
            return Err(Failure::Interrupted(format!(
                "nqueens: interrupted before n = {n} started"
            )));
        }
        let journal = long_run.journal(n);
        let progress = Progress::on_terminal(&format!("n = {n}"));
        interrupt.board(Some(progress.notices()));
        let watcher = Watching {
            progress: &progress,
            interrupt,
            journal: journal.is_some(),
        };
        let mut control = RunControl::default()
            .with_stop(interrupt.flag())
            .with_watcher(&watcher);
        if let Some(journal) = journal.as_deref() {
            control = control.with_journal(journal);
        }
        if let Some(shard) = long_run.shard {
            control = control.with_shard(shard);
        }
        if let Some(pool) = long_run.pool.as_deref() {
            control = control.with_pool(pool);
        }
        // Estimated before the plan is made: the estimate holds a plan of its own.
        let cost = (long_run.announce && n >= LONG_FROM_N).then(|| Cost::of_board(n, options));
        let mut clock = None;
        let result = Prepared::new(n, options, &control).and_then(|prepared| {
            let board = Board {
                n,
                journal: journal.as_deref(),
                cost,
            };
            announce_board(&board, options, long_run, &prepared);
            clock = Some(CpuClock::start());
            prepared.run(&control)
        });
        interrupt.board(None);
        progress.finish();
        let run = result.map_err(failure)?;
        if let Some(clock) = clock.as_ref().filter(|_| !run.counts.kernel.uses_gpu()) {
            // As a study's runs: the CPU time received ÷ asked for, said once per board (a GPU
            // count's threads wait for the device, and ask for no CPU time meanwhile).
            cpu_share::note_if_busy(clock, run.counts.threads);
        }
        if run.complete {
            return Ok(run);
        }
        Err(Failure::Interrupted(interrupted_message(
            &run,
            journal.as_deref(),
            long_run.keep_advice,
        )))
    }
}

/// A board about to be counted: its journal, and the cost of its count where it is long
/// enough to be announced ([`LONG_FROM_N`]).
struct Board<'a> {
    n: u32,
    journal: Option<&'a Path>,
    cost: Option<Cost>,
}

/// Says on stderr, once the journal is accepted and before any task is searched, that `auto`
/// chose the GPU (with the `gpu` feature), what the journal already holds and whether the rest
/// of the count will take more than an hour
/// (the board's cost, [`Cost::of_board`], net of the resumed tasks).
fn announce_board(board: &Board, options: &CountOptions, long_run: &LongRun, prepared: &Prepared) {
    let Board { n, journal, cost } = *board;
    let (plan, resumed) = (prepared.plan(), prepared.resumed());
    if let Some(note) = &long_run.shard_note {
        output::note(note);
    }
    #[cfg(feature = "gpu")]
    if options.kernel == Kernel::Auto
        && prepared.kernel().uses_gpu()
        && let Ok(adapter) = nqueens::gpu::check()
    {
        let shards = long_run.shard.map_or(1, |s| s.count());
        output::note(super::auto_gpu::chose_gpu(
            n,
            options.threads,
            shards,
            &adapter,
        ));
    }
    if let Some(path) = journal
        && let Some(owner) = nqueens_files::foreign_owner(path)
    {
        output::warning(format_args!(
            "journal {} belongs to {owner}, not to you: its records are taken as they are",
            path.display()
        ));
    }
    if let Some(path) = journal
        && !resumed.is_empty()
    {
        output::note(format_args!(
            "nqueens: {}: resuming, {} of {} already counted",
            escape::path(path),
            grouped(resumed.len()),
            human::plural(grouped(plan.tasks().len()), "task")
        ));
    }
    if let Some(cost) = cost {
        let size = |task: nqueens::Task| task.size_hint.max(1) as f64;
        let total: f64 = plan.tasks().map(size).sum();
        let done: f64 = resumed
            .iter()
            .filter_map(|o| plan.task(o.index))
            .map(size)
            .sum();
        let remaining = if total > 0.0 { 1.0 - done / total } else { 1.0 };
        announce_long(&[n], cost, options, remaining, journal.is_some());
    }
}

/// Watches a board's search: moves the progress bar, and tells the interrupt when stopping the
/// workers keeps work (a finished task, or a journal that times the stopped run).
struct Watching<'a> {
    progress: &'a Progress,
    interrupt: &'a Interrupt,
    /// Whether the board has a journal.
    journal: bool,
}

impl Watcher for Watching<'_> {
    fn start(&self, plan: &Plan, resumed: &[TaskOutcome]) {
        if self.journal {
            self.interrupt.journal_timing();
        }
        self.progress.start(plan, resumed);
    }

    fn task_done(&self, outcome: &TaskOutcome) {
        self.interrupt.task_finished();
        self.progress.task_done(outcome);
    }
}

/// Refuses boards estimated to need longer than `limit` (`--max-seconds`) with `options`.
fn refuse_if_over(boards: &[u32], options: &CountOptions, limit: f64) -> Result<(), Failure> {
    budget::refuse_cost_over(
        &counting(boards, options),
        Cost::try_of_boards(boards, options)?,
        limit,
        &format!(
            "choose a smaller n or more threads, or {}",
            budget::raise_max_seconds(limit)
        ),
    )
}

/// What counting `boards` with `options` is, as the budget's notes name it: `counting n = 18 on
/// 4 threads`, `counting these 3 boards on 4 threads`.
fn counting(boards: &[u32], options: &CountOptions) -> String {
    let on = human::plural(options.threads, "thread");
    match boards {
        [n] => format!("counting n = {n} on {on}"),
        _ => format!("counting these {} boards on {on}", boards.len()),
    }
}

/// The smallest board whose count may take an hour with any kernel on one thread: smaller
/// ones are not estimated before they are counted (the estimate costs about 0.1 s, 4 % of
/// n = 18 on two threads). n = 19 takes about 6 minutes with the slowest kernel, depth-first, on
/// one thread of a Zen 4 (n = 17: 7.2 s; each board about 7.5 times the last).
const LONG_FROM_N: u32 = 20;

/// Says on stderr, before anything is counted, when the boards need more than an hour with
/// `options` ([`budget::announce_if_long`]).
fn announce_long_counts(boards: &[u32], options: &CountOptions) {
    if boards.iter().all(|&n| n < LONG_FROM_N) {
        return;
    }
    announce_long(
        boards,
        Cost::of_boards(boards, options),
        options,
        1.0,
        false,
    );
}

/// [`announce_long_counts`] for boards that cost `cost` with `options`, of which `remaining` is
/// the share still to do (below 1 when a journal holds some of it); `journaled` when it does.
fn announce_long(
    boards: &[u32],
    cost: Cost,
    options: &CountOptions,
    remaining: f64,
    journaled: bool,
) {
    let cost = cost.scaled(remaining);
    let what = match boards {
        [n] if remaining < 1.0 => {
            let on = human::plural(options.threads, "thread");
            format!("the rest of n = {n} on {on}")
        }
        _ => counting(boards, options),
    };
    let remedy = if journaled {
        "it starts anyway; an interrupt keeps the finished tasks in the journal"
    } else {
        "it starts anyway; add --checkpoint FILE to keep finished tasks across interrupts"
    };
    budget::announce_if_long(&what, cost, remedy);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::RecordWriter;
    use nqueens::Strategy;

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
