//! The arguments of `nqueens compare`.

use clap::Args;

use crate::format::Format;
use nqueens::classic::Algorithm;

use super::parse::{choice, parse_n, parse_seconds};

pub(super) const COMPARE_EXAMPLES: &str = "Examples:\n  \
    nqueens compare 10                          all four algorithms\n  \
    nqueens compare 14 --algorithm attack,bitmask\n  \
    nqueens compare 12 --format json\n\n\
    Counters (identical for every run of an algorithm):\n  \
    nodes            queens placed (conflict-free partial boards of 1..n queens)\n  \
    candidates       squares examined for the next queen, n per extended board\n  \
    diagonal checks  candidates that reached the diagonal test (matrix and bitmask\n                   \
    test everything at once, so for them it equals candidates)\n\n\
    wall time is the plain search's, instrumented the wall time of the search that produced\n\
    the counters; a search shorter than 0.2 s is repeated and its fastest run shown. The table\n\
    gives every time in one unit, named in its heading: ms while all are under a second,\n\
    else s. speedup is relative to the matrix search (1.00x; without it, the first listed of\n\
    matrix, array, attack, bitmask), named in the heading. JSON and CSV: algorithm, n, total,\n\
    nodes, candidates, diagonal_checks, wall_time, instrumented_wall_time, speedup (four\n\
    significant digits), baseline.";

/// Arguments of `nqueens compare`.
#[derive(Debug, Args)]
pub struct CompareArgs {
    /// Board size, 0 to 64 (the slow algorithms are refused where they would take minutes).
    #[arg(value_name = "N", value_parser = parse_n)]
    pub n: u32,
    /// Algorithms to run, comma separated, in the order given [default: all four].
    #[arg(short, long = "algorithm", alias = "algorithms", value_name = "NAME[,NAME...]",
          value_delimiter = ',',
          value_parser = choice::<Algorithm>(), default_values_t = Algorithm::ALL,
          hide_default_value = true)]
    pub algorithms: Vec<Algorithm>,
    /// Refuse to start when the slowest algorithm is estimated to need longer than this.
    ///
    /// A refusal threshold (exit 2). Both runs of the algorithm (plain and instrumented) count together.
    #[arg(long, value_name = "SECONDS", default_value_t = 60.0, value_parser = parse_seconds)]
    pub max_seconds: f64,
    /// Output format.
    #[arg(short, long, value_parser = choice::<Format>(), default_value_t = Format::Table)]
    pub format: Format,
}

impl CompareArgs {
    /// Refuses an algorithm listed twice in `--algorithm`.
    pub fn check(&self) -> Result<(), String> {
        for (i, algorithm) in self.algorithms.iter().enumerate() {
            if self.algorithms[..i].contains(algorithm) {
                return Err(format!(
                    "{algorithm} is listed twice in --algorithm (name each algorithm once)"
                ));
            }
        }
        Ok(())
    }
}
