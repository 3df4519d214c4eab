//! What `count`, `verify` and `merge` share to count boards and report them: a count's
//! [`Session`] (its options, journals, shard, pool and interrupt, and the flow of one board:
//! plan, journal, notes, search under the progress bar), the engine options the arguments ask
//! for, the streamed table's column widths, the notes on long counts and on unique counts left
//! out, and the check against the known table ([`lookup`], [`differs`]).

use std::path::Path;

use nqueens::Plan;
use nqueens::Prepared;
use nqueens::TaskOutcome;
use nqueens::estimation::cost::Cost;
use nqueens::known::{Known, Mismatch};
use nqueens::{CountOptions, CountRun, Kernel, RunControl, Watcher};
use nqueens_ui::escape;
use nqueens_ui::failure::Failure;
use nqueens_ui::human::{self, grouped};
use nqueens_ui::output;
use nqueens_ui::progress::Progress;
use serde::Serialize;

use super::budget;
use super::long_run::{Interrupt, LongRun, failure, interrupted_message};
use crate::args::{EngineArgs, beyond_known};
use crate::cpu_share::{self, CpuClock};
use crate::format::{RecordStream, TableRow};

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

/// What a count needs, made once for all its boards: the engine's options, the journals, shard
/// and pool of a long run, and the interrupt that stops it. [`Session::board`] counts one board.
pub struct Session {
    /// The options every board is counted with (the kernel resolved once for all).
    pub options: CountOptions,
    /// The journals, the shard and the pool of the count.
    pub long_run: LongRun,
    /// The interrupt that stops the count (its workers drop the tasks they are on).
    pub interrupt: Interrupt,
    /// The cost of the count's boards, where it was estimated before the session began (to
    /// refuse them over `--max-seconds`): handed on to the note on a long board, which only a
    /// count of one board makes ([`LongRun::announce`]), not estimated again.
    pub cost: Option<Cost>,
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
        // Estimated before the plan is made (the estimate holds a plan of its own), once: a
        // board weighed against --max-seconds has its cost already.
        let cost = (long_run.announce && n >= LONG_FROM_N)
            .then(|| self.cost.unwrap_or_else(|| Cost::of_board(n, options)));
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

/// Refuses boards estimated to need longer than `limit` (`--max-seconds`) with `options`;
/// otherwise returns their cost, for the notes on a long count.
pub fn refuse_boards_over(
    boards: &[u32],
    options: &CountOptions,
    limit: f64,
) -> Result<Cost, Failure> {
    let cost = Cost::try_of_boards(boards, options)?;
    budget::refuse_cost_over(
        &counting(boards, options),
        cost,
        limit,
        &format!(
            "choose a smaller n or more threads, or {}",
            budget::raise_max_seconds(limit)
        ),
    )?;
    Ok(cost)
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
/// `options` ([`budget::announce_if_long`]): their `cost` where it was estimated already.
pub fn announce_long_counts(boards: &[u32], options: &CountOptions, cost: Option<Cost>) {
    if boards.iter().all(|&n| n < LONG_FROM_N) {
        return;
    }
    let cost = cost.unwrap_or_else(|| Cost::of_boards(boards, options));
    announce_long(boards, cost, options, 1.0, false);
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

/// The table's row for `n`, or the usage error that names how far the table goes.
pub fn lookup(n: u32) -> Result<Known, Failure> {
    Known::of(n).ok_or_else(|| Failure::Usage(beyond_known(n)))
}

/// What differs between a board's counts and the known ones, digits grouped: `n = 12: the
/// total 22,200 is not the known 14,200, nor the unique count 2,787 the known 1,787`.
pub fn differs(wrong: &Mismatch) -> String {
    let known = wrong.known;
    let unique = wrong.unique.filter(|&u| u != known.unique);
    let mut line = format!("n = {}: ", wrong.n);
    if wrong.total != known.total {
        line += &format!(
            "the total {} is not the known {}",
            grouped(wrong.total),
            grouped(known.total)
        );
        if let Some(unique) = unique {
            line += &format!(
                ", nor the unique count {} the known {}",
                grouped(unique),
                grouped(known.unique)
            );
        }
    } else if let Some(unique) = unique {
        line += &format!(
            "the unique count {} is not the known {}",
            grouped(unique),
            grouped(known.unique)
        );
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mismatch_names_both_counts_grouped() {
        let wrong = Mismatch::of(12, 22_200, Some(2_787)).unwrap();
        assert_eq!(
            differs(&wrong),
            "n = 12: the total 22,200 is not the known 14,200, nor the unique count 2,787 the \
             known 1,787"
        );
        let wrong = Mismatch::of(12, 14_200, Some(1_788)).unwrap();
        assert_eq!(
            differs(&wrong),
            "n = 12: the unique count 1,788 is not the known 1,787"
        );
    }
}
