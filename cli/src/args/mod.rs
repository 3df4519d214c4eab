//! Every command-line argument: the top [`Cli`] and its subcommands ([`Command`]) here, each
//! command's arguments in a file of its own, the groups several commands share in `common`, the
//! value parsers in `parse` and the `--version` text in `version`.
//!
//! Nothing here computes; [`crate::app`] turns the parsed arguments into work.

/// The command that installs a build with the GPU kernels, from a clone of the repository
/// (the README's): the command is the `cli` package, so `--path .` would find no binary.
macro_rules! gpu_install {
    () => {
        "cargo install --locked --path cli --features gpu"
    };
}

mod common;
mod compare;
mod completions;
mod count;
mod estimate;
mod known;
mod list;
mod man;
mod merge;
mod parse;
mod scale;
mod solve;
mod verify;
mod version;
mod watch;

use std::ffi::OsString;

use clap::{ColorChoice, Parser, Subcommand};

use compare::COMPARE_EXAMPLES;
use parse::looks_negative;
use version::asks_version;
use watch::WATCH_EXAMPLES;

pub use common::{EngineArgs, ProgressArgs};
pub use compare::CompareArgs;
pub use completions::CompletionsArgs;
pub use count::CountArgs;
pub use estimate::EstimateArgs;
pub use known::KnownArgs;
pub use list::ListArgs;
pub use man::ManArgs;
pub use merge::MergeArgs;
pub use parse::{DAY_SECONDS, beyond_known, parse_boards};
pub use scale::ScaleArgs;
pub use solve::SolveArgs;
pub use verify::VerifyArgs;
pub use version::long_version;
pub use watch::WatchArgs;

/// Parses the process's arguments (`args`, the program's name first). Every argument that takes
/// a value accepts a negative number, so that `-1` is refused with the reason a value parser
/// gives rather than as an unknown flag ([`accept_hyphen_values`] does the same for values such
/// as `-5..=3`); `--version` also names the kernels this machine runs ([`long_version`]). An
/// argument that is not UTF-8 is clap's [`clap::error::ErrorKind::InvalidUtf8`] wherever it is
/// (only paths may be any bytes).
pub fn parse(args: &[OsString]) -> Result<Cli, clap::Error> {
    use clap::FromArgMatches;
    let mut command = command();
    if asks_version(args) {
        command = command.long_version(long_version());
    }
    let is_number = |a: &OsString| a.to_str().is_some_and(|a| a[1..].parse::<f64>().is_ok());
    if args
        .iter()
        .skip(1)
        .any(|a| looks_negative(a) && !is_number(a))
    {
        command = accept_hyphen_values(command);
    }
    let matches = command
        .color(color_choice(args))
        .try_get_matches_from(args)?;
    let cli = Cli::from_arg_matches(&matches)?;
    check(&cli).map_err(|why| parse::refusal(clap::error::ErrorKind::ArgumentConflict, why))?;
    Ok(cli)
}

/// Checks what clap cannot: how the values of one command's arguments go together, once, before
/// any command runs. What needs a board's plan, the machine or a file is checked by the command.
fn check(cli: &Cli) -> Result<(), String> {
    match &cli.command {
        Command::Count(args) => args.check(),
        Command::Compare(args) => args.check(),
        Command::Solve(args) => args.style.check(args.format),
        Command::List(args) => args.check(),
        _ => Ok(()),
    }
}

/// The `--color` the arguments give (the last one wins; `--color WHEN` or `--color=WHEN`), read
/// before they are parsed, so that a parse error and the help are coloured by it too; `auto`
/// when none is given, or none is valid (the parse then refuses it).
pub fn color_choice(args: &[OsString]) -> ColorChoice {
    use clap::ValueEnum;
    let mut choice = ColorChoice::Auto;
    let mut words = args.iter().skip(1).map(|a| a.to_str());
    while let Some(word) = words.next() {
        let value = match word {
            Some("--") => break,
            Some("--color") => words.next().flatten(),
            Some(word) => word.strip_prefix("--color="),
            None => None,
        };
        if let Some(parsed) = value.and_then(|v| ColorChoice::from_str(v, true).ok()) {
            choice = parsed;
        }
    }
    choice
}

/// The whole command-line definition as [`parse`] reads it (less the CPU-dependent
/// `--version` text): the source of the completion scripts and the manual pages. Every value
/// name is read in any case (`--format JSON`, `--kernel AVX2`).
pub fn command() -> clap::Command {
    use clap::CommandFactory;
    every_arg(Cli::command(), |arg| {
        if arg.get_action().takes_values() {
            arg.allow_negative_numbers(true).ignore_case(true)
        } else {
            arg
        }
    })
}

/// `command` with `change` made to every argument of it and of its subcommands.
fn every_arg(command: clap::Command, change: fn(clap::Arg) -> clap::Arg) -> clap::Command {
    command
        .mut_args(change)
        .mut_subcommands(|sub| every_arg(sub, change))
}

/// Lets every argument that takes one value take a value starting with `-`. Clap reads `-1/4`
/// or `-5..=3` (unlike `-1`, not a number) as flags and suggests `-- -1`; [`parse`] uses this
/// when such an argument is present, so that the value parser names the real problem (a board
/// size or shard cannot be negative). Not always: a positional argument that takes hyphen
/// values would also take a mistyped `--flag` before it.
fn accept_hyphen_values(command: clap::Command) -> clap::Command {
    every_arg(command, |arg| {
        if matches!(arg.get_action(), clap::ArgAction::Set) {
            arg.allow_hyphen_values(true)
        } else {
            arg
        }
    })
}

/// Counts the solutions of the N-Queens puzzle as fast as the CPU allows.
///
/// `-h` prints a one-screen summary of a command (each option's first sentence, no examples);
/// `--help` the whole text, with the examples.
#[derive(Debug, Parser)]
#[command(
    name = "nqueens",
    version,
    about = "Count and draw N-Queens solutions on every core, a cluster or a GPU",
    long_about = "Counts the solutions of the N-Queens puzzle (n queens on an n x n board, no two \
                  sharing a row, column or diagonal) with a bitboard engine on all cores.",
    after_long_help = "Examples:\n  \
                  nqueens count 16                    count the 16 x 16 board on every core\n  \
                  nqueens count 4..=14 --format csv   a range of boards, as CSV\n  \
                  nqueens verify --max 14             check the engine against the known counts\n  \
                  nqueens known                       print the known counts (OEIS)\n  \
                  nqueens solve 8                     draw the first solution\n  \
                  nqueens list 8 --unique             every solution, one per symmetry class\n  \
                  nqueens compare 10                  the textbook algorithms, side by side\n  \
                  nqueens scale 16 --plot s.svg       thread scaling, measured and modelled\n  \
                  nqueens estimate 24                 the total and the cost, from a sample\n  \
                  nqueens completions bash            a shell completion script\n  \
                  nqueens man | man -l -              the manual page\n\n\
                  Exit status: 0 success, 1 failure (a wrong answer, or a file that cannot be \
                  used), 2 usage error, 130 interrupted, 131 watch quit by SIGQUIT (details: \
                  nqueens man)."
)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
    /// When to colour messages and help: auto (when the stream is a terminal and NO_COLOR is
    /// unset or empty), always or never.
    #[arg(long, global = true, value_name = "WHEN", value_enum, default_value_t = ColorChoice::Auto,
          hide_short_help = true)]
    pub color: ColorChoice,
    /// Say nothing on stderr but errors.
    ///
    /// No progress bar, no notes, no warnings (an interrupt still says what it stopped). The
    /// results on stdout are the same. Given twice (-qq) it is the same.
    #[arg(short, long, global = true, overrides_with = "quiet")]
    pub quiet: bool,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Count every solution of one or more boards.
    ///
    /// While a board is counted, a progress bar is drawn on stderr when stderr is a terminal.
    /// Otherwise (a batch job's log, nohup, CI) a plain line is written to stderr every 60 s of
    /// wall time, none for a board counted sooner: "nqueens: n = 19: 1,234 of 4,321 tasks (28.6 %
    /// of the work), 2 min 03 s elapsed, about 5 min 10 s left". --progress-seconds S (or
    /// else NQUEENS_PROGRESS_SECONDS=S) sets another interval (from 0.1 s to a year; any
    /// other value is refused, exit 2). -q shows neither.
    #[command(after_long_help = "Examples:\n  \
                      nqueens count 16\n  \
                      nqueens count 8,10,12 --threads 1\n  \
                      nqueens count 4..=16 --format json\n  \
                      nqueens count 16 --strategy mirror\n  \
                      nqueens count 20 --checkpoint n20.ckpt   (rerun it to resume)\n  \
                      nqueens count 18 --shard 3/8 --checkpoint n18-3.ckpt   (then nqueens merge)\n  \
                      nqueens count 10 --algorithm attack")]
    Count(CountArgs),
    /// Print the known counts (OEIS A000170 total, A002562 unique).
    #[command(
        after_long_help = "Examples:\n  nqueens known\n  nqueens known 20..=27\n  nqueens known --max 20 --format csv"
    )]
    Known(KnownArgs),
    /// Count boards and compare them with the known counts.
    ///
    /// Counts every board from 0 to --max, or the N given. Each board's row is written as soon as it is counted. While a board is counted, a
    /// progress bar is drawn on stderr when stderr is a terminal; otherwise a plain progress
    /// line is written every 60 s, as `count` does (--progress-seconds or
    /// NQUEENS_PROGRESS_SECONDS sets another interval). -q shows neither.
    #[command(
        after_long_help = "Examples:\n  nqueens verify\n  nqueens verify --max 16 -j 2\n  nqueens verify 16..=18 --kernel depth-first"
    )]
    Verify(VerifyArgs),
    /// Compare the textbook algorithms' work and speed on one board.
    ///
    /// Runs each algorithm on the board twice, plainly and instrumented.
    #[command(after_long_help = COMPARE_EXAMPLES)]
    Compare(CompareArgs),
    /// Watch the backtracking search step by step.
    ///
    /// Full screen, or as text frames or JSON.
    #[command(after_long_help = WATCH_EXAMPLES)]
    Watch(WatchArgs),
    /// Measure thread scaling, model bigger machines, compare results.
    #[command(
        long_about = "Measures how the count speeds up with more threads, models bigger \
                      machines, and compares saved results.\n\n\
                      Counts one board at each thread count (--warmup untimed runs, then \
                      --repeat timed runs) and reports the median, fastest and slowest time, \
                      the speedup over one thread and the efficiency (speedup / threads); \
                      every run's total is checked against the known table. Two models \
                      predict bigger machines: the list-scheduling bound and the model with \
                      measured losses, which splits the lost efficiency into serial, \
                      imbalance, other programs, slowdown and unexplained. The fields, the \
                      models and their limits: docs/GUIDE.md, \"Thread scaling\".",
        after_long_help = "Examples:\n  \
                      nqueens scale 16\n  \
                      nqueens scale 17 --threads 1,2 --repeat 5 --plot scaling.svg\n  \
                      nqueens scale 15 --threads 1,2,4,8,max --format json > laptop.json\n  \
                      nqueens scale 16 --kernel avx512,avx2 --strategy mirror,symmetric\n  \
                      nqueens scale --compare laptop.json workstation.json --plot both.svg"
    )]
    Scale(ScaleArgs),
    /// Print one solution (the first in order, or a constructed one).
    #[command(
        long_about = "Prints one solution of the n x n board as a board and its column list (the \
                      column of each row's queen, from row 0, numbered from 0). Up to n = 30 it is \
                      the first solution in lexicographic order, found by backtracking; above 30, \
                      or with --construct, it comes from a closed-form construction valid for \
                      every n >= 4, checked before it is printed. Boards wider than 64 are not \
                      drawn: a note and the column list are printed instead. n = 2 and 3 have no \
                      solution: that is said (JSON: \"columns\": null) and the exit code is 1.",
        after_long_help = "Examples:\n  \
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
        after_long_help = "Examples:\n  \
                      nqueens list 8 | head -3\n  \
                      nqueens list 8 --unique --format board --unicode\n  \
                      nqueens list 14 | wc -l                  prints 365596\n  \
                      nqueens list 27 --limit 5 --format json"
    )]
    List(ListArgs),
    /// Add up the journals of a sharded count (count --shard K/M).
    #[command(
        long_about = "Reads the journals of the shards of one count and prints the \
                      board's total and unique counts like `count`. It refuses (exit 1) anything \
                      that could give a wrong number: journals of different boards, plans or \
                      shardings, a damaged journal, a record that is not a task of the plan, a \
                      task recorded twice with different counts. When tasks are missing it names \
                      the incomplete shards and prints no total. The same shard counted twice \
                      into two journals is fine; one journal named twice (under any path) is \
                      refused (exit 2).",
        after_long_help = "Examples:\n  \
                      for k in 0 1 2 3; do nqueens count 16 --shard $k/4 --checkpoint n16-$k.ckpt; done\n  \
                      nqueens merge n16-*.ckpt\n  \
                      nqueens merge n16-*.ckpt --format json"
    )]
    Merge(MergeArgs),
    /// Estimate a board's total and a full count's cost from a sample.
    #[command(
        long_about = "Draws random samples of the symmetric plan of the n x n board (4 to 32): \
                      each draws a task, places a few queens at random and counts the rest \
                      exactly, weighted by the inverse probability of its path. Prints the \
                      estimated total and unique counts with 95 % intervals, the estimated \
                      core time of a full count with this kernel on this machine, the modelled \
                      wall time on --threads and on 64, 1024 and 10000 cores, the sample size, the \
                      seed, the fraction of the work the sample did, and why it stopped. The \
                      time budget (--budget-seconds, building the plan included) follows the board, 5 s \
                      for small boards up to 60 s from n = 24; it ends early when counting the \
                      board exactly is cheaper than the time left (it then counts, and says \
                      \"counted exactly\") or when the samples have done a full count's work. \
                      The same --seed and --samples give the same totals on any thread count.",
        after_long_help = "Examples:\n  \
                      nqueens estimate 24                         a minute of sampling\n  \
                      nqueens estimate 16                         counted exactly, in a moment\n  \
                      nqueens estimate 28 --budget-seconds 20 --format json\n  \
                      nqueens estimate 20 --samples 20000 --seed 7   reproducible"
    )]
    Estimate(EstimateArgs),
    /// Print a shell completion script.
    #[command(
        long_about = "Prints the completion script of SHELL for every command, option and \
                      value name of nqueens to stdout; install it where the shell looks for \
                      completions.",
        after_long_help = "Examples:\n  \
                      nqueens completions bash > ~/.local/share/bash-completion/completions/nqueens\n  \
                      nqueens completions zsh > ~/.zfunc/_nqueens   (with fpath+=~/.zfunc)\n  \
                      nqueens completions fish > ~/.config/fish/completions/nqueens.fish"
    )]
    Completions(CompletionsArgs),
    /// Print the manual page (roff), or one page per command with --dir.
    #[command(
        long_about = "Prints the nqueens(1) manual in roff to stdout as one page: every \
                      command with all its options, and the exit statuses. With --dir DIR it writes instead one page per command into \
                      DIR, created when missing (nqueens.1, nqueens-count.1, ...), and prints \
                      the paths written; a page already there is replaced only when it is a \
                      regular file, and nothing is written when one cannot be.",
        after_long_help = "Examples:\n  \
                      nqueens man | man -l -\n  \
                      nqueens man > nqueens.1\n  \
                      nqueens man --dir ~/.local/share/man/man1"
    )]
    Man(ManArgs),
}
