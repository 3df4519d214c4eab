//! The arguments of `nqueens list`.

use clap::Args;

use crate::render::{BoardStyleArgs, SolutionFormat};

use super::parse::{parse_limit, parse_list_n, parse_seconds};

/// Arguments of `nqueens list`.
#[derive(Debug, Args)]
pub struct ListArgs {
    /// Board side, 0 to 64 (above 20 only with --limit).
    #[arg(value_name = "N", value_parser = parse_list_n)]
    pub n: u32,
    /// Only one solution per symmetry class.
    ///
    /// One canonical representative per class of solutions equivalent under the 8 rotations
    /// and reflections of the square (n = 8: 12 of 92).
    #[arg(long)]
    pub unique: bool,
    /// Stop after K solutions (K >= 1).
    ///
    /// A count limit: the K solutions are printed, exit 0.
    #[arg(long, value_name = "K", value_parser = parse_limit)]
    pub limit: Option<u64>,
    /// Output format.
    ///
    /// columns (one solution per line), board (numbered boards separated by blank lines) or json (one array of records, {"n": N, "columns": [...]}, written as they are found).
    #[arg(short, long, value_enum, default_value_t = SolutionFormat::Columns)]
    pub format: SolutionFormat,
    #[command(flatten)]
    pub style: BoardStyleArgs,
    /// Give up (exit 1) after this long without a next solution.
    ///
    /// A wait for progress, not a refusal threshold (--max-seconds elsewhere) nor a budget:
    /// the solutions found are kept. On many boards above n = 33 the first solution in lexicographic order lies beyond any wait
    /// (`nqueens solve N` constructs one at once).
    #[arg(long, value_name = "SECONDS", default_value_t = 60.0, value_parser = parse_seconds)]
    pub give_up_after: f64,
    /// The former name of --give-up-after (it is accepted with a warning for one release).
    #[arg(long = "max-seconds", value_name = "SECONDS", value_parser = parse_seconds,
          hide = true, conflicts_with = "give_up_after")]
    pub former_give_up_after: Option<f64>,
}
