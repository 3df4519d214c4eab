//! The arguments of `nqueens known`.

use clap::Args;

use crate::format::Format;
use nqueens::known::Known;

use super::parse::{Boards, choice, parse_known_boards, parse_max_known};

/// Arguments of `nqueens known`.
#[derive(Debug, Args)]
pub struct KnownArgs {
    /// Boards to print: 16, 4..=16 or 8,10,12 [default: 0 to --max].
    ///
    /// One n (16), an inclusive range (4..=16) or a list (8,10,12).
    #[arg(value_name = "N", value_parser = parse_known_boards, conflicts_with = "max")]
    pub boards: Option<Boards>,
    /// Largest n to print (every n from 0 up to it).
    #[arg(long, value_name = "MAX", default_value_t = Known::MAX_N,
          value_parser = parse_max_known)]
    pub max: u32,
    /// Output format.
    #[arg(short, long, value_parser = choice::<Format>(), default_value_t = Format::Table)]
    pub format: Format,
}
