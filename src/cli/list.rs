//! `nqueens list`: stream every solution (or one per symmetry class) in lexicographic order.
//!
//! Solutions are written as they are found, from a search that holds only the current board, so
//! the listing runs in constant memory and stops as soon as the output is closed.

use std::io::Write;
use std::time::Instant;

use crate::cli::render::{Style, write_board, write_columns, write_separated};
use nqueens::enumerate::{Mode, Solutions, Step};
use nqueens::known;

use super::{Failure, Outcome, output, words};
use crate::cli::args::{LIST_UNLIMITED_MAX_N, ListArgs, SolutionFormat};

pub fn run(args: &ListArgs, out: &mut dyn Write) -> Result<Outcome, Failure> {
    let n = args.n;
    if n > LIST_UNLIMITED_MAX_N && args.limit.is_none() {
        return Err(Failure::Usage(too_many(n, args.unique)));
    }
    let mode = if args.unique { Mode::Unique } else { Mode::All };
    let mut solutions = Solutions::new(n, mode)?;
    let style = Style {
        unicode: args.style.unicode,
        coordinates: args.style.coordinates,
    };
    let limit = args.limit.unwrap_or(u64::MAX);
    let mut written = 0u64;
    if args.format == SolutionFormat::Json {
        out.write_all(b"[")?;
    }
    while written < limit {
        if !next_in_time(&mut solutions, args.max_seconds)? {
            break;
        }
        written += 1;
        let columns = solutions.columns().iter().copied();
        match args.format {
            SolutionFormat::Columns => write_columns(out, columns)?,
            SolutionFormat::Board => {
                if written > 1 {
                    out.write_all(b"\n")?;
                }
                write!(out, "solution {written}: ")?;
                write_columns(out, columns.clone())?;
                write_board(out, n, columns, &style)?;
            }
            SolutionFormat::Json => {
                out.write_all(if written == 1 { b"\n[" } else { b",\n[" })?;
                write_separated(out, columns, b",")?;
                out.write_all(b"]")?;
            }
        }
    }
    if args.format == SolutionFormat::Json {
        out.write_all(if written == 0 { b"]\n" } else { b"\n]\n" })?;
    }
    if written == 0 && limit > 0 {
        super::output::message(super::solve::no_solution(n));
        return Ok(Outcome::Negative);
    }
    Ok(Outcome::Success)
}

/// Why a full listing of a large board is refused.
fn too_many(n: u32, unique: bool) -> String {
    let count = if unique {
        known::unique(n)
    } else {
        known::total(n)
    };
    let size = match count {
        Some(c) => format!("{} solutions", super::units::grouped(c)),
        None => "more solutions than anyone has counted".to_string(),
    };
    format!(
        "listing every solution of n = {n} would print {size}; \
         add --limit K to print the first K (full listings go up to n = {LIST_UNLIMITED_MAX_N})"
    )
}

/// Search steps between two looks at the clock (a few milliseconds).
const STEPS_PER_LOOK: u64 = 1 << 22;

/// Searches for the next solution: `Ok(true)` when one is found (in `solutions.columns()`),
/// `Ok(false)` when there are no more, and a refusal when none turns up within `max_seconds`.
fn next_in_time(solutions: &mut Solutions, max_seconds: f64) -> Result<bool, Failure> {
    let started = Instant::now();
    let mut noted = false;
    loop {
        match solutions.search(STEPS_PER_LOOK) {
            Step::Found => return Ok(true),
            Step::Exhausted => return Ok(false),
            Step::Unfinished => {}
        }
        let elapsed = started.elapsed().as_secs_f64();
        if elapsed > max_seconds {
            let n = solutions.n();
            return Err(Failure::Usage(format!(
                "no further solution of n = {n} turned up within {} s of search (in \
                 lexicographic order the next one may lie years away); `nqueens solve {n}` \
                 constructs a solution at once, or raise --max-seconds",
                words::number(max_seconds)
            )));
        }
        if elapsed > NOTE_AFTER_SECONDS && !noted {
            noted = true;
            let n = solutions.n();
            output::message(format_args!(
                "nqueens: still searching n = {n} for the next solution in lexicographic order \
                 (giving up after {} s; `nqueens solve {n}` constructs one at once)",
                words::number(max_seconds)
            ));
        }
    }
}

/// A search that has found nothing for this long says so on stderr.
const NOTE_AFTER_SECONDS: f64 = 2.0;
