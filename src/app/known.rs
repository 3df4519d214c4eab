//! `nqueens known`: print the embedded table of known counts.

use std::io::Write;

use nqueens::export::write_records;
use nqueens::known::TABLE;

use super::{Failure, Outcome};
use crate::cli::KnownArgs;

pub fn run(args: &KnownArgs, out: &mut dyn Write) -> Result<Outcome, Failure> {
    let rows = &TABLE[..=args.max as usize];
    write_records(out, args.format, rows)?;
    Ok(Outcome::Success)
}
