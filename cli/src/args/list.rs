//! The arguments of `nqueens list`.

use clap::Args;

use crate::render::{BoardStyleArgs, SolutionFormat};
use nqueens::known;
use nqueens_ui::human;

use super::parse::{LIST_UNLIMITED_MAX_N, parse_limit, parse_list_n, parse_seconds};

/// Arguments of `nqueens list`.
#[derive(Debug, Args)]
pub struct ListArgs {
    /// Board size, 0 to 64 (above 20 only with --limit).
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

impl ListArgs {
    /// Refuses a full listing of a board above [`LIST_UNLIMITED_MAX_N`] (without `--limit`), and
    /// a board style where the format draws no boards.
    pub fn check(&self) -> Result<(), String> {
        if self.n > LIST_UNLIMITED_MAX_N && self.limit.is_none() {
            return Err(too_many(self.n, self.unique));
        }
        self.style.check(self.format)
    }
}

/// Why a full listing of a large board is refused.
fn too_many(n: u32, unique: bool) -> String {
    let count = if unique {
        known::Known::of(n).map(|k| k.unique)
    } else {
        known::Known::of(n).map(|k| k.total)
    };
    let size = match count {
        Some(c) => format!("{} solutions", human::grouped(c)),
        None => "more solutions than anyone has counted".to_string(),
    };
    format!(
        "listing every solution of n = {n} would print {size}; \
         add --limit K to print the first K (full listings go up to n = {LIST_UNLIMITED_MAX_N})"
    )
}
