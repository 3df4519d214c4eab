//! The arguments of `nqueens solve`.

use clap::Args;

use crate::render::{BoardStyleArgs, SolutionFormat};

use super::parse::parse_solve_n;

/// Arguments of `nqueens solve`.
#[derive(Debug, Args)]
pub struct SolveArgs {
    /// Board size, 0 to 100000000.
    #[arg(value_name = "N", value_parser = parse_solve_n)]
    pub n: u32,
    /// Also print the solution's 8 images under the symmetries of the square.
    ///
    /// The images under the rotations and reflections of the square come in the order identity,
    /// rot90, rot180, rot270, flip-columns, flip-rows, transpose, anti-transpose (one line each
    /// with --format columns), and the canonical form among them is named.
    #[arg(long)]
    pub all_symmetries: bool,
    /// Use the closed-form construction even for n <= 30.
    ///
    /// It is always used above 30.
    #[arg(long)]
    pub construct: bool,
    /// Output format.
    #[arg(short, long, value_enum, default_value_t = SolutionFormat::Board)]
    pub format: SolutionFormat,
    #[command(flatten)]
    pub style: BoardStyleArgs,
}
