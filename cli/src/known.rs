//! `nqueens known`: print the embedded table of known counts.

use std::io::Write;

use crate::format::write_records;

use super::session::lookup;

use crate::args::KnownArgs;
use nqueens_ui::failure::{Failure, Outcome};

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
