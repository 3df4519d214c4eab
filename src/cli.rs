//! Every command-line argument: subcommands, flags, value parsing and validation.
//!
//! Nothing here computes; [`crate::app`] turns the parsed arguments into work.

use clap::{Args, Parser, Subcommand};

use nqueens::classic::Algorithm;
use nqueens::engine::kernel::MAX_N;
use nqueens::export::Format;
use nqueens::known::MAX_KNOWN_N;
use nqueens::{Kernel, Strategy};

/// Counts the solutions of the N-Queens puzzle as fast as the CPU allows.
#[derive(Debug, Parser)]
#[command(
    name = "nqueens",
    version,
    about,
    long_about = "Counts the solutions of the N-Queens puzzle (n queens on an n x n board, no two \
                  sharing a row, column or diagonal) with a bitboard engine on all cores.",
    after_help = "Examples:\n  \
                  nqueens count 16                    count the 16 x 16 board on every core\n  \
                  nqueens count 4..=14 --format csv   a range of boards, as CSV\n  \
                  nqueens verify --max 14             check the engine against the known counts\n  \
                  nqueens known                       print the known counts (OEIS)\n  \
                  nqueens solve 8                     draw the first solution\n  \
                  nqueens list 8 --unique             every solution, one per symmetry class\n  \
                  nqueens compare 10                  the textbook algorithms, side by side\n  \
                  nqueens scale 16 --plot s.svg       thread scaling, measured and modelled"
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
                      nqueens count 4..=16 --format json\n  \
                      nqueens count 16 --strategy mirror\n  \
                      nqueens count 20 --checkpoint n20.ckpt   (rerun it to resume)\n  \
                      nqueens count 10 --algorithm attack")]
    Count(CountArgs),
    /// Print the known counts (OEIS A000170 total, A002562 unique).
    #[command(after_help = "Examples:\n  nqueens known\n  nqueens known --max 20 --format csv")]
    Known(KnownArgs),
    /// Count every board from 0 to --max and compare with the known counts.
    #[command(after_help = "Examples:\n  nqueens verify\n  nqueens verify --max 16 --threads 2")]
    Verify(VerifyArgs),
    /// Run the textbook algorithms on one board and compare their work and speed.
    #[command(after_help = COMPARE_EXAMPLES)]
    Compare(CompareArgs),
    /// Measure how the count speeds up with more threads, and model bigger machines.
    #[command(
        long_about = "Counts one board with each thread count (one untimed warm-up run, then \
                      --repeat timed runs) and reports the median, fastest and slowest time, the \
                      speedup over one thread and the parallel efficiency (speedup / threads). \
                      Every run's total is checked against the others and against the known \
                      table. A load-balance model replays the one-thread task times on 1, 2, 4, \
                      ..., 256 identical workers with the same largest-first list scheduling and \
                      predicts the speedup a bigger machine would give (no memory-bandwidth or \
                      other shared-resource limits are modelled).",
        after_help = "Examples:\n  \
                      nqueens scale 16\n  \
                      nqueens scale 17 --threads 1,2 --repeat 5 --plot scaling.svg\n  \
                      nqueens scale 15 --threads 1,2,4,8,max --format json"
    )]
    Scale(ScaleArgs),
    /// Print one solution: the first in lexicographic order, or a constructed one for large n.
    #[command(
        long_about = "Prints one solution of the n x n board as a board and its column list (the \
                      column of each row's queen, from row 0, numbered from 0). Up to n = 30 it is \
                      the first solution in lexicographic order, found by backtracking; above 30, \
                      or with --construct, it comes from a closed-form construction valid for \
                      every n >= 4, checked before it is printed. Boards wider than 64 are not \
                      drawn: a note and the column list are printed instead. n = 2 and 3 have no \
                      solution: that is said (JSON: \"columns\": null) and the exit code is 1.",
        after_help = "Examples:\n  \
                      nqueens solve 8                          board and columns 0 4 7 5 2 6 1 3\n  \
                      nqueens solve 8 --all-symmetries --unicode\n  \
                      nqueens solve 12 --coordinates\n  \
                      nqueens solve 1000000 --format columns   a million queens, instantly"
    )]
    Solve(SolveArgs),
    /// Stream every solution of a board in lexicographic order.
    #[command(
        long_about = "Streams every solution of the n x n board (n up to 64) in lexicographic order \
                      of the column lists, in constant memory. --unique keeps one canonical \
                      representative (the least of its 8 images under the rotations and \
                      reflections of the square) per class. Listing is exponential in n: above \
                      n = 20 a --limit is required.",
        after_help = "Examples:\n  \
                      nqueens list 8 | head -3\n  \
                      nqueens list 8 --unique --format board --unicode\n  \
                      nqueens list 14 | wc -l                  prints 365596\n  \
                      nqueens list 27 --limit 5 --format json"
    )]
    List(ListArgs),
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
    /// Which kernel counts the tasks; the counts are the same with each, so a count can be
    /// checked by an independent implementation.
    #[arg(long, default_value_t = Kernel::default(), value_parser = kernel_parser())]
    pub kernel: Kernel,
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
    /// Record every finished task in FILE; rerunning the same command with the same FILE
    /// resumes where it stopped (one n only). Example: --checkpoint n20.ckpt
    #[arg(long, value_name = "FILE")]
    pub checkpoint: Option<std::path::PathBuf>,
    /// Draw no progress bar (it is drawn on stderr only when stderr is a terminal).
    #[arg(short, long)]
    pub quiet: bool,
    /// Count with one textbook algorithm (matrix, array, attack or bitmask; see `nqueens
    /// compare`) on a single thread instead of the engine; it splits nothing, so --threads and
    /// --strategy do not apply.
    #[arg(long, value_name = "NAME", value_parser = parse_algorithm,
          conflicts_with_all = ["threads", "strategy", "kernel", "checkpoint"])]
    pub algorithm: Option<Algorithm>,
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
    parse_side(
        text,
        MAX_N,
        &format!("the largest board is {MAX_N} x {MAX_N}"),
    )
}

/// Parses a board side from 0 to `max`; `limit` says why a larger one is refused.
fn parse_side(text: &str, max: u32, limit: &str) -> Result<u32, String> {
    let n: u32 = text.trim().parse().map_err(|_| {
        format!("'{text}' is not a board size (expected a whole number 0 to {max})")
    })?;
    if n > max {
        return Err(format!("n = {n} is too large: {limit}"));
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

/// The `--kernel` parser: a kernel name, refused when this CPU cannot run it.
fn kernel_parser() -> impl clap::builder::TypedValueParser<Value = Kernel> {
    use clap::builder::TypedValueParser;
    clap::builder::EnumValueParser::<Kernel>::new()
        .try_map(|kernel: Kernel| kernel.check().map(|()| kernel).map_err(|e| e.to_string()))
}

const COMPARE_EXAMPLES: &str = "Examples:\n  \
    nqueens compare 10                          all four algorithms\n  \
    nqueens compare 14 --algorithms attack,bitmask\n  \
    nqueens compare 12 --format json\n\n\
    Counters (identical for every run of an algorithm):\n  \
    nodes            queens placed (conflict-free partial boards of 1..n queens)\n  \
    candidates       squares examined for the next queen, n per extended board\n  \
    diagonal checks  candidates that reached the diagonal test (matrix and bitmask\n                   \
    test everything at once, so for them it equals candidates)\n\n\
    time is the plain search, instrumented the search that produced the counters; a search\n\
    shorter than 0.2 s is repeated and its fastest run shown. speedup is relative to the\n\
    slowest algorithm's time.";

/// Arguments of `nqueens compare`.
#[derive(Debug, Args)]
pub struct CompareArgs {
    /// Board size, 0 to 64 (the slow algorithms are refused where they would take minutes).
    #[arg(value_name = "N", value_parser = parse_n)]
    pub n: u32,
    /// Algorithms to run, comma separated, in the order given: matrix, array, attack, bitmask
    /// [default: all four].
    #[arg(short, long, value_name = "NAMES", value_delimiter = ',', value_parser = parse_algorithm,
          default_values_t = Algorithm::ALL, hide_default_value = true)]
    pub algorithms: Vec<Algorithm>,
    /// Refuse to start when the slowest selected algorithm is estimated to need longer than
    /// this (both of its runs together).
    #[arg(long, value_name = "SECONDS", default_value_t = 60.0, value_parser = parse_seconds)]
    pub max_seconds: f64,
    /// Output format.
    #[arg(short, long, value_enum, default_value_t = Format::Table)]
    pub format: Format,
}

/// Parses an algorithm name, listing the choices when it is unknown.
pub fn parse_algorithm(text: &str) -> Result<Algorithm, String> {
    use clap::ValueEnum;
    Algorithm::from_str(text.trim(), false).map_err(|_| {
        let names: Vec<&str> = Algorithm::ALL.iter().map(|a| a.name()).collect();
        format!("unknown algorithm (choose from {})", names.join(", "))
    })
}

/// Parses a positive number of seconds.
pub fn parse_seconds(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(s) if s > 0.0 && s.is_finite() => Ok(s),
        _ => Err(format!("'{text}' is not a positive number of seconds")),
    }
}

/// Arguments of `nqueens scale`.
#[derive(Debug, Args)]
pub struct ScaleArgs {
    /// Board side (0 to 64).
    #[arg(value_name = "N", value_parser = parse_n)]
    pub n: u32,
    /// Thread counts to measure: a list such as 1,2,4,8, where `max` stands for every logical
    /// CPU [default: the powers of two below the logical CPU count, and that count]. One thread is
    /// always measured too: it is the baseline of every speedup and of the model.
    #[arg(short = 't', long, value_name = "LIST", value_parser = parse_thread_list)]
    pub threads: Option<ThreadList>,
    /// Timed runs per thread count, after one untimed warm-up run.
    #[arg(short = 'r', long, value_name = "K", default_value_t = 3,
          value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub repeat: u32,
    /// How the board is split into independent tasks.
    #[arg(long, value_enum, default_value_t = Strategy::default())]
    pub strategy: Strategy,
    /// Which kernel counts the tasks (to compare their scaling).
    #[arg(long, default_value_t = Kernel::default(), value_parser = kernel_parser())]
    pub kernel: Kernel,
    /// Output format [possible values: table, json, csv]. table: the measured and the modelled
    /// counts as two tables under a machine header. json: one object with n, strategy, machine
    /// {logical, physical}, runs (threads, median_seconds, min_seconds, max_seconds, speedup,
    /// efficiency, cpu_share) and model (workers, predicted_seconds, speedup, efficiency). csv:
    /// one row per measured thread count (kind = measured, seconds = the median) and per
    /// modelled worker count (kind = model, seconds = the prediction; min, max and cpu_share
    /// empty). cpu_share is the CPU time the runs received / asked for: well below 1 on a busy
    /// machine.
    #[arg(short, long, value_enum, default_value_t = Format::Table, hide_possible_values = true)]
    pub format: Format,
    /// Also draw speedup against threads (measured, ideal, model) into this SVG file.
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<std::path::PathBuf>,
}

/// A list of distinct worker-thread counts, in the order given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ThreadList(pub Vec<usize>);

/// The most threads one run of `nqueens scale` may ask for.
pub const MAX_SCALE_THREADS: usize = 4096;

/// Parses `1,2,4,8` (`max` = every logical CPU, and may coincide with a listed count); refuses
/// zero, a count written twice, and anything else.
pub fn parse_thread_list(text: &str) -> Result<ThreadList, String> {
    parse_thread_list_for(text, num_cpus::get())
}

fn parse_thread_list_for(text: &str, logical: usize) -> Result<ThreadList, String> {
    let mut list: Vec<usize> = Vec::new();
    let mut written: Vec<usize> = Vec::new();
    for item in text.split(',') {
        let item = item.trim();
        let threads = match item {
            "max" => logical,
            _ => {
                let t = item.parse::<usize>().map_err(|_| {
                    format!("'{item}' is not a thread count (expected a list such as 1,2,4 or max)")
                })?;
                // A count written out twice is a typo; `max` may equal a written count
                // (1,2,max on two CPUs).
                if written.contains(&t) {
                    return Err(format!("the thread count {t} is listed twice"));
                }
                written.push(t);
                t
            }
        };
        if threads == 0 {
            return Err("a thread count must be at least 1".to_string());
        }
        if threads > MAX_SCALE_THREADS {
            return Err(format!(
                "{threads} threads is too many (at most {MAX_SCALE_THREADS})"
            ));
        }
        if !list.contains(&threads) {
            list.push(threads);
        }
    }
    Ok(ThreadList(list))
}

/// The largest board `nqueens solve` accepts.
pub const SOLVE_MAX_N: u32 = 100_000_000;

/// The largest board `nqueens list` prints in full; larger boards need `--limit`.
pub const LIST_UNLIMITED_MAX_N: u32 = 20;

/// How a solution is printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum SolutionFormat {
    /// The board as a grid of `Q` and `.` (with its column list for `solve`).
    Board,
    /// The columns on one line, separated by spaces.
    Columns,
    /// JSON: an object for `solve`, a streamed array of column arrays for `list`.
    Json,
}

/// How boards are drawn.
#[derive(Debug, Args)]
pub struct BoardStyleArgs {
    /// Draw queens as the Unicode chess queen (♛) instead of Q.
    #[arg(long)]
    pub unicode: bool,
    /// Number the rows and columns of drawn boards (from 0, as in the column list).
    #[arg(long)]
    pub coordinates: bool,
}

/// Arguments of `nqueens solve`.
#[derive(Debug, Args)]
pub struct SolveArgs {
    /// Board side, 0 to 100000000.
    #[arg(value_name = "N", value_parser = parse_solve_n)]
    pub n: u32,
    /// Also print the 8 images of the solution under the rotations and reflections of the square
    /// (in the order identity, rot90, rot180, rot270, flip-columns, flip-rows, transpose,
    /// anti-transpose; one line each with --format columns) and name its canonical form.
    #[arg(long)]
    pub all_symmetries: bool,
    /// Use the closed-form construction even for n <= 30 (it is always used above 30).
    #[arg(long)]
    pub construct: bool,
    /// Output format.
    #[arg(short, long, value_enum, default_value_t = SolutionFormat::Board)]
    pub format: SolutionFormat,
    #[command(flatten)]
    pub style: BoardStyleArgs,
}

/// Arguments of `nqueens list`.
#[derive(Debug, Args)]
pub struct ListArgs {
    /// Board side, 0 to 64 (above 20 only with --limit).
    #[arg(value_name = "N", value_parser = parse_list_n)]
    pub n: u32,
    /// Only one canonical representative per class of solutions equivalent under the 8
    /// rotations and reflections of the square (n = 8: 12 of 92).
    #[arg(long)]
    pub unique: bool,
    /// Stop after K solutions (K >= 1).
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u64).range(1..))]
    pub limit: Option<u64>,
    /// Output format: columns (one solution per line), board (numbered boards separated by blank
    /// lines) or json (one array of column arrays, written as it is found).
    #[arg(short, long, value_enum, default_value_t = SolutionFormat::Columns)]
    pub format: SolutionFormat,
    #[command(flatten)]
    pub style: BoardStyleArgs,
}

/// Parses a board side for `solve`: 0 to [`SOLVE_MAX_N`].
pub fn parse_solve_n(text: &str) -> Result<u32, String> {
    let limit = format!("solve prints boards up to {SOLVE_MAX_N} x {SOLVE_MAX_N}");
    parse_side(text, SOLVE_MAX_N, &limit)
}

/// Parses a board side for `list`: 0 to 64, the widest board the search handles.
pub fn parse_list_n(text: &str) -> Result<u32, String> {
    parse_n(text)
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
    fn solve_and_list_sizes_are_bounded() {
        assert_eq!(parse_solve_n("1000000"), Ok(1_000_000));
        assert!(
            parse_solve_n("100000001")
                .unwrap_err()
                .contains("too large")
        );
        assert!(parse_solve_n("x").unwrap_err().contains("not a board size"));
        assert_eq!(parse_list_n("64"), Ok(64));
        assert!(parse_list_n("65").unwrap_err().contains("too large"));
    }

    #[test]
    fn thread_counts_start_at_one() {
        assert_eq!(parse_threads("3"), Ok(3));
        assert!(parse_threads("0").unwrap_err().contains("at least 1"));
        assert!(parse_threads("x").is_err());
    }
}

#[cfg(test)]
mod scale_tests {
    use super::*;

    #[test]
    fn thread_lists_parse_with_max_standing_for_the_logical_cpus() {
        assert_eq!(parse_thread_list_for("1,2,4,8", 2).unwrap().0, [1, 2, 4, 8]);
        assert_eq!(parse_thread_list_for("max", 6).unwrap().0, [6]);
        assert_eq!(parse_thread_list_for(" 4 , max", 16).unwrap().0, [4, 16]);
        assert_eq!(parse_thread_list_for("3", 2).unwrap().0, [3]);
        assert_eq!(parse_thread_list_for("1,2,max", 2).unwrap().0, [1, 2]);
        assert_eq!(parse_thread_list_for("max,2", 2).unwrap().0, [2]);
    }

    #[test]
    fn zero_duplicate_and_garbage_thread_lists_are_refused_in_one_line() {
        for (bad, why) in [
            ("0", "at least 1"),
            ("1,0,2", "at least 1"),
            ("2,2", "listed twice"),
            ("4,2,4", "listed twice"),
            ("x", "not a thread count"),
            ("1,,2", "not a thread count"),
            ("", "not a thread count"),
            ("-1", "not a thread count"),
            ("1.5", "not a thread count"),
            ("99999", "too many"),
        ] {
            let err = parse_thread_list_for(bad, 2).unwrap_err();
            assert!(err.contains(why), "{bad}: {err}");
            assert!(!err.contains('\n'), "{bad}: {err}");
        }
    }
}
