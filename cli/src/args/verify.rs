//! The arguments of `nqueens verify`.

use clap::Args;

use crate::format::Format;

use super::common::{EngineArgs, ProgressArgs};
use super::parse::{
    Boards, DAY_SECONDS, choice, parse_known_boards, parse_max_known, parse_seconds,
};

/// Arguments of `nqueens verify`.
#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// Boards to count and compare: 16, 4..=16 or 8,10,12 [default: 0 to --max].
    ///
    /// One n (16), an inclusive range (4..=16) or a list (8,10,12).
    #[arg(value_name = "N", value_parser = parse_known_boards, conflicts_with = "max")]
    pub boards: Option<Boards>,
    /// Largest n to count and compare (every n from 0 up).
    ///
    /// The end of the boards' range, not a limit on the work (--max-seconds is that).
    #[arg(long, value_name = "MAX", default_value_t = 14,
          value_parser = parse_max_known)]
    pub max: u32,
    #[command(flatten)]
    pub engine: EngineArgs,
    /// Output format.
    #[arg(short, long, value_parser = choice::<Format>(), default_value_t = Format::Table)]
    pub format: Format,
    /// Refuse counts estimated to take longer than this.
    ///
    /// A refusal threshold, checked before starting (exit 2): the estimate is of all the counts together.
    #[arg(long, value_name = "SECONDS", default_value_t = DAY_SECONDS, value_parser = parse_seconds)]
    pub max_seconds: f64,
    #[command(flatten)]
    pub progress: ProgressArgs,
}
