//! `nqueens list`: stream every solution (or one per symmetry class) in lexicographic order.
//!
//! Solutions are written as they are found, from a search that holds only the current board, so
//! the listing runs in constant memory and stops as soon as the output is closed.

use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use crate::format::RecordWriter;
use crate::render::{Style, undrawn_note};
use nqueens::enumerate::{Mode, Solutions, Step};

use crate::args::ListArgs;
use crate::render::SolutionFormat;
use nqueens_ui::failure::{Failure, Outcome};
use nqueens_ui::progress::Steps;
use nqueens_ui::{human, output};

pub fn run(args: &ListArgs, out: &mut dyn Write) -> Result<Outcome, Failure> {
    let n = args.n;
    let mode = if args.unique { Mode::Unique } else { Mode::All };
    let mut solutions = Solutions::new(n, mode)?;
    let style = Style::from_args(&args.style);
    let give_up_after = match args.former_give_up_after {
        Some(seconds) => {
            output::warning(
                "list --max-seconds is now --give-up-after (the old name goes in the next \
                 release); --max-seconds refuses work before it starts everywhere else",
            );
            seconds
        }
        None => args.give_up_after,
    };
    let limit = args.limit.unwrap_or(u64::MAX);
    let mut written = 0u64;
    if args.format == SolutionFormat::Board
        && let Some(note) = undrawn_note(n)
    {
        output::note(note);
    }
    let mut writer = args.format.writer(out, n, style);
    writer.begin()?;
    let stop = stop_on_interrupt();
    let mut interrupted = false;
    while written < limit {
        let mut waiting = Waiting {
            out: &mut writer,
            quiet: output::is_quiet(),
            // Only the JSON format leaves its last line open between solutions.
            line_open: args.format == SolutionFormat::Json,
            next: written + 1,
            stop,
        };
        match next_in_time(&mut solutions, give_up_after, &mut waiting)? {
            Next::Found => {}
            Next::Exhausted => break,
            Next::Interrupted => {
                interrupted = true;
                break;
            }
        }
        written += 1;
        writer.record(solutions.columns())?;
    }
    writer.finish()?;
    drop(writer);
    if interrupted {
        out.flush()?;
        output::message(format_args!(
            "nqueens: interrupted after {}",
            human::plural(written, "solution")
        ));
        return Ok(Outcome::Interrupted);
    }
    if written == 0 && limit > 0 {
        nqueens_ui::output::message(super::render::no_solution(n));
        return Ok(Outcome::Negative);
    }
    Ok(Outcome::Success)
}

/// Search steps between two looks at the clock (a few milliseconds).
const STEPS_PER_LOOK: u64 = 1 << 22;

/// What the search for the next solution found.
enum Next {
    /// A solution, in `solutions.columns()`.
    Found,
    /// No more solutions.
    Exhausted,
    /// An interrupt stopped the search.
    Interrupted,
}

/// What the wait for the next solution shows, and where.
struct Waiting<'a> {
    /// The solutions written so far, flushed when the wait begins to show.
    out: &'a mut dyn RecordWriter<[u32]>,
    /// Draw no spinner and say nothing of the wait (`--quiet`).
    quiet: bool,
    /// Whether the output's last line is open (a spinner on the same terminal starts below it).
    line_open: bool,
    /// The number of the solution searched for.
    next: u64,
    /// Raised by an interrupt.
    stop: &'static AtomicBool,
}

/// The first interrupt raises the flag returned, so that the listing closes its output; a
/// second ends the process at once.
fn stop_on_interrupt() -> &'static AtomicBool {
    static STOP: AtomicBool = AtomicBool::new(false);
    nqueens_ui::signals::on_interrupt(|| {
        if STOP.swap(true, Ordering::SeqCst) {
            output::message("nqueens: interrupted again, quitting at once");
            std::process::exit(130);
        }
    });
    &STOP
}

/// Searches for the next solution, and fails when none turns up within `give_up_after` seconds. A wait
/// longer than [`SPIN_AFTER_SECONDS`] shows a spinner on a terminal (the solutions so far are
/// flushed first), and one longer than [`NOTE_AFTER_SECONDS`] without a spinner says so on
/// stderr.
fn next_in_time(
    solutions: &mut Solutions,
    give_up_after: f64,
    waiting: &mut Waiting<'_>,
) -> Result<Next, Failure> {
    let started = Instant::now();
    let mut noted = false;
    let mut spinner: Option<Steps> = None;
    let n = solutions.n();
    loop {
        if waiting.stop.load(Ordering::SeqCst) {
            return Ok(Next::Interrupted);
        }
        match solutions.search(STEPS_PER_LOOK) {
            Step::Found => return Ok(Next::Found),
            Step::Exhausted => return Ok(Next::Exhausted),
            Step::Unfinished => {}
            // A step this build does not know: search on, as unfinished.
            _ => {}
        }
        let elapsed = started.elapsed().as_secs_f64();
        if elapsed > give_up_after {
            drop(spinner);
            return Err(Failure::GaveUp(format!(
                "no further solution of n = {n} turned up within {} s of search (in \
                 lexicographic order the next one may lie years away); `nqueens solve {n}` \
                 constructs a solution at once, or raise --give-up-after",
                human::number(give_up_after)
            )));
        }
        let terminal = std::io::stderr().is_terminal();
        if elapsed > SPIN_AFTER_SECONDS && spinner.is_none() && !waiting.quiet && terminal {
            waiting.out.flush()?;
            if waiting.line_open && std::io::stdout().is_terminal() {
                // The spinner starts on a line of its own, below the open one.
                output::status("\n");
            }
            let shown = Steps::spinner(&format!("n = {n}"));
            shown.doing(format!(
                "searching for solution {} (gives up after {} s; `nqueens solve {n}` is instant)",
                waiting.next,
                human::number(give_up_after)
            ));
            spinner = Some(shown);
        }
        if elapsed > NOTE_AFTER_SECONDS && !noted && spinner.is_none() {
            noted = true;
            output::note(format_args!(
                "nqueens: still searching n = {n} for the next solution in lexicographic order \
                 (giving up after {} s; `nqueens solve {n}` constructs one at once)",
                human::number(give_up_after)
            ));
        }
    }
}

/// A search that has found nothing for this long shows a spinner on a terminal.
const SPIN_AFTER_SECONDS: f64 = 0.5;

/// A search that has found nothing for this long says so on stderr.
const NOTE_AFTER_SECONDS: f64 = 2.0;
