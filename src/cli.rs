//! Every command-line argument: subcommands, flags, value parsing and validation.
//!
//! Nothing here computes; [`crate::app`] turns the parsed arguments into work.

use clap::{Args, Parser, Subcommand};

use nqueens::Strategy;
use nqueens::engine::kernel::MAX_N;
use nqueens::export::Format;
use nqueens::known::MAX_KNOWN_N;

/// Counts the solutions of the N-Queens puzzle as fast as the CPU allows.
#[derive(Debug, Parser)]
#[command(
    name = "nqueens",
    version,
    about,
    long_about = "Counts the solutions of the N-Queens puzzle (n queens on an n x n board, no two \
                  sharing a row, column or diagonal) with a bitboard engine on all cores.",
    after_help = "Examples:\n  \
                  nqueens count 16                  count the 16 x 16 board on every core\n  \
                  nqueens count 4..=14 --format csv  a range of boards, as CSV\n  \
                  nqueens verify --max 14            check the engine against OEIS A000170\n  \
                  nqueens known                      print the known counts"
)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Count every solution of one or more boards.
    #[command(after_help = "Examples:\n  \
                      nqueens count 16\n  \
                      nqueens count 8,10,12 --threads 1\n  \
                      nqueens count 16 --strategy mirror\n  \
                      nqueens count 4..=16 --format json")]
    Count(CountArgs),
    /// Print the known counts (OEIS A000170 total, A002562 unique).
    #[command(after_help = "Examples:\n  nqueens known\n  nqueens known --max 20 --format csv")]
    Known(KnownArgs),
    /// Count every board from 0 to --max and compare with the known counts.
    #[command(after_help = "Examples:\n  nqueens verify\n  nqueens verify --max 16 --threads 2")]
    Verify(VerifyArgs),
}

/// Worker threads and decomposition strategy, shared by the counting commands.
#[derive(Debug, Args)]
pub struct EngineArgs {
    /// Worker threads (default: every logical CPU).
    #[arg(short = 't', long, value_name = "N", value_parser = parse_threads,
          default_value_t = num_cpus::get())]
    pub threads: usize,
    /// How the board is split into independent tasks.
    #[arg(long, value_enum, default_value_t = Strategy::default())]
    pub strategy: Strategy,
}

/// Arguments of `nqueens count`.
#[derive(Debug, Args)]
pub struct CountArgs {
    /// Board sizes: one n (16), an inclusive range (4..=16) or a list (8,10,12); 0 to 64.
    #[arg(value_name = "N", value_parser = parse_boards)]
    pub boards: Boards,
    #[command(flatten)]
    pub engine: EngineArgs,
    /// Output format.
    #[arg(short, long, value_enum, default_value_t = Format::Table)]
    pub format: Format,
}

/// Arguments of `nqueens known`.
#[derive(Debug, Args)]
pub struct KnownArgs {
    /// Largest n to print.
    #[arg(long, value_name = "N", default_value_t = MAX_KNOWN_N,
          value_parser = clap::value_parser!(u32).range(0..=i64::from(MAX_KNOWN_N)))]
    pub max: u32,
    /// Output format.
    #[arg(short, long, value_enum, default_value_t = Format::Table)]
    pub format: Format,
}

/// Arguments of `nqueens verify`.
#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// Largest n to count and compare (every n from 0 up to it is checked).
    #[arg(long, value_name = "N", default_value_t = 14,
          value_parser = clap::value_parser!(u32).range(0..=i64::from(MAX_KNOWN_N)))]
    pub max: u32,
    #[command(flatten)]
    pub engine: EngineArgs,
    /// Output format.
    #[arg(short, long, value_enum, default_value_t = Format::Table)]
    pub format: Format,
}

/// A list of board sizes, in the order given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Boards(pub Vec<u32>);

/// Parses `16`, `4..=16` or `8,10,12` (items may mix: `4..=8,12`).
pub fn parse_boards(text: &str) -> Result<Boards, String> {
    let mut boards = Vec::new();
    for item in text.split(',') {
        let item = item.trim();
        if let Some((lo, hi)) = item.split_once("..=") {
            let (lo, hi) = (parse_n(lo)?, parse_n(hi)?);
            if lo > hi {
                return Err(format!("the range {item} is reversed (write {hi}..={lo})"));
            }
            boards.extend(lo..=hi);
        } else if item.contains("..") {
            return Err(format!(
                "'{item}' is not an inclusive range: write it as A..=B (for example 4..=16)"
            ));
        } else {
            boards.push(parse_n(item)?);
        }
    }
    Ok(Boards(boards))
}

fn parse_n(text: &str) -> Result<u32, String> {
    let n: u32 = text.trim().parse().map_err(|_| {
        format!("'{text}' is not a board size (expected a whole number 0 to {MAX_N})")
    })?;
    if n > MAX_N {
        return Err(format!(
            "n = {n} is too large: the largest board is {MAX_N} x {MAX_N}"
        ));
    }
    Ok(n)
}

/// Parses a worker-thread count of at least 1.
pub fn parse_threads(text: &str) -> Result<usize, String> {
    match text.trim().parse::<usize>() {
        Ok(0) => Err("the thread count must be at least 1".to_string()),
        Ok(t) => Ok(t),
        Err(_) => Err(format!(
            "'{text}' is not a thread count (expected a whole number >= 1)"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn the_command_line_definition_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn board_lists_ranges_and_singles_parse() {
        assert_eq!(parse_boards("16").unwrap().0, vec![16]);
        assert_eq!(parse_boards("4..=7").unwrap().0, vec![4, 5, 6, 7]);
        assert_eq!(parse_boards("8,10,12").unwrap().0, vec![8, 10, 12]);
        assert_eq!(parse_boards("1..=2, 9").unwrap().0, vec![1, 2, 9]);
        assert_eq!(parse_boards("0").unwrap().0, vec![0]);
        assert_eq!(parse_boards("64").unwrap().0, vec![64]);
    }

    #[test]
    fn bad_board_lists_are_refused_with_a_reason() {
        for (bad, why) in [
            ("65", "too large"),
            ("abc", "not a board size"),
            ("9..=4", "reversed"),
            ("4..9", "inclusive"),
            ("", "not a board size"),
            ("8,,9", "not a board size"),
            ("-1", "not a board size"),
        ] {
            let err = parse_boards(bad).unwrap_err();
            assert!(err.contains(why), "{bad}: {err}");
        }
    }

    #[test]
    fn thread_counts_start_at_one() {
        assert_eq!(parse_threads("3"), Ok(3));
        assert!(parse_threads("0").unwrap_err().contains("at least 1"));
        assert!(parse_threads("x").is_err());
    }
}
