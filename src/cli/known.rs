//! `nqueens known`: print the embedded table of known counts.

use std::io::Write;

use crate::cli::format::write_records;
use nqueens::known::{Known, MAX_KNOWN_N};

use super::{Failure, Outcome};
use crate::cli::args::KnownArgs;

pub fn run(args: &KnownArgs, out: &mut dyn Write) -> Result<Outcome, Failure> {
    let boards = match &args.boards {
        Some(boards) => boards.0.clone(),
        None => (0..=args.max).collect(),
    };
    let rows = boards
        .iter()
        .map(|&n| lookup(n))
        .collect::<Result<Vec<_>, _>>()?;
    write_records(out, args.format, &rows)?;
    Ok(Outcome::Success)
}

/// The table's row for `n`, or the usage error that names how far the table goes.
pub fn lookup(n: u32) -> Result<Known, Failure> {
    nqueens::known::lookup(n).ok_or_else(|| {
        Failure::Usage(format!(
            "no known count for n = {n}: the table goes from 0 to {MAX_KNOWN_N}"
        ))
    })
}
