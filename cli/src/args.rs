//! Every command-line argument: subcommands, flags, value parsing and validation.
//!
//! Nothing here computes; [`crate::app`] turns the parsed arguments into work.

use std::ffi::{OsStr, OsString};

use clap::{Args, ColorChoice, Parser, Subcommand};

use crate::format::Format;
use crate::human;
use crate::names::Named;
use crate::render::{BoardStyleArgs, SolutionFormat};
use nqueens::classic::Algorithm;
use nqueens::journal::{ShardError, ShardSpec};
use nqueens::known::Known;
use nqueens::{Kernel, Plan, Strategy};

/// The command that installs a build with the GPU kernels, from a clone of the repository
/// (the README's): the command is the `cli` package, so `--path .` would find no binary.
macro_rules! gpu_install {
    () => {
        "cargo install --locked --path cli --features gpu"
    };
}

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
    Cli::from_arg_matches(&matches)
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

/// Whether the arguments ask for `--version` (only then is its text made, and the GPU adapters
/// looked for).
fn asks_version(args: &[OsString]) -> bool {
    args.iter()
        .skip(1)
        .take_while(|a| *a != "--")
        .any(|a| a == "--version" || a == "-V")
}

/// The text `nqueens --version` prints after the name: the version, the kernels this machine
/// runs (and the one `--kernel auto` picks), the kernels its CPU cannot run, and with the `gpu`
/// feature the GPU adapters found, the one the GPU kernels use first (without any, the GPU
/// kernels are named apart, as needing one).
pub fn long_version() -> String {
    fn names(kernels: impl Iterator<Item = Kernel>) -> String {
        kernels.map(Kernel::name).collect::<Vec<_>>().join(" ")
    }
    let available = Kernel::available();
    let mut text = format!(
        "{}\nkernels: {}",
        env!("CARGO_PKG_VERSION"),
        names(available.iter().copied())
    );
    if let Ok(auto) = Kernel::Auto.resolve() {
        text.push_str(&format!(" (auto picks {auto})"));
    }
    let missing = |gpu: bool| {
        names(
            Kernel::ALL
                .iter()
                .copied()
                .filter(|k| *k != Kernel::Auto && k.uses_gpu() == gpu && !available.contains(k)),
        )
    };
    let cpu = missing(false);
    if !cpu.is_empty() {
        text.push_str(&format!("\nnot on this CPU: {cpu}"));
    }
    let gpu = missing(true);
    if !gpu.is_empty() {
        text.push_str(&format!("\nno GPU adapter for: {gpu}"));
    }
    #[cfg(feature = "gpu")]
    text.push_str(&gpu_adapters());
    #[cfg(not(feature = "gpu"))]
    text.push_str(concat!(
        "\ngpu: not in this build (",
        gpu_install!(),
        " builds the GPU kernels)"
    ));
    text
}

/// The `--version` lines of the GPU adapters: the one the GPU kernels use first.
#[cfg(feature = "gpu")]
fn gpu_adapters() -> String {
    use nqueens::gpu;
    let found = gpu::adapters();
    if found.is_empty() {
        return format!("\ngpu adapters: none ({})", gpu::GpuError::NoAdapter);
    }
    let mut text =
        String::from("\ngpu adapters (the first is used; NQUEENS_GPU_ADAPTER picks another):");
    let first = found[0].kind;
    for adapter in found {
        text.push_str(&format!("\n  {adapter}"));
    }
    let threads = num_cpus::get();
    let from = gpu::gpu_crossover(threads);
    if first == "discrete" {
        text.push_str(&format!(
            "\nauto counts on it beside the CPU from n = {from} on ({threads} threads)"
        ));
    } else {
        text.push_str(&format!(
            "\nauto counts on the CPU alone: it adds only a discrete adapter, from n = {from} on \
             ({threads} threads)"
        ));
    }
    text
}

/// `command` with `change` made to every argument of it and of its subcommands.
fn every_arg(command: clap::Command, change: fn(clap::Arg) -> clap::Arg) -> clap::Command {
    command
        .mut_args(change)
        .mut_subcommands(|sub| every_arg(sub, change))
}

/// Whether `arg` starts like a negative value (`-5..=3`, `-1/4`): no option of nqueens is a
/// digit, so it can only be a value.
fn looks_negative(arg: impl AsRef<OsStr>) -> bool {
    matches!(arg.as_ref().as_encoded_bytes(), [b'-', digit, ..] if digit.is_ascii_digit())
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
    /// of the work), 2 min 03 s elapsed, about 5 min 10 s left". --progress-seconds SECONDS (or
    /// else NQUEENS_PROGRESS_SECONDS=SECONDS) sets another interval (from 0.1 s to a year; any
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
                      Counts one board with each thread count (--warmup untimed warm-up runs, \
                      one by default, then --repeat timed runs) and reports the median, fastest and slowest time, the \
                      speedup over one thread and the parallel efficiency (speedup / threads); \
                      rows with more threads than physical cores are marked as sharing a core. \
                      Every run's total is checked against the others and against the known \
                      table.\n\n\
                      The results record what makes them comparable: the CPU's name, \
                      logical CPUs and physical cores, SMT, the kernel that ran, the strategy, \
                      n, the version, the date (UTC) and the OS, and a headline (solutions per \
                      second at the best thread count, and per core). --kernel a,b and \
                      --strategy a,b measure every pair in one study, interleaved: at each \
                      thread count and repetition every pair runs in turn.\n\n\
                      Two models predict bigger machines: the list-scheduling bound (\"bound\") \
                      replays the one-thread task times on 1, 2, 4, ..., 256 (or --model-up-to) \
                      identical workers with the same largest-first list scheduling; it leaves \
                      out SMT, turbo and other clock changes, memory bandwidth and caches, and \
                      scheduling overhead, so it is an upper bound. The model with measured \
                      losses (\"with losses\") adds the measured serial time and slowdown. The \
                      lost efficiency is split into serial, imbalance, other programs (CPU time \
                      asked for and not received, from the CPU share), slowdown and \
                      unexplained; a run on a busy machine says that its efficiency is not the \
                      machine's. Runs under 250 ms are too short to trust: a warning \
                      suggests a larger n. When stderr is not a terminal, a progress line is \
                      written every --progress-seconds or NQUEENS_PROGRESS_SECONDS (default 60; -q: \
                      none).\n\n\
                      --compare A.json B.json ... measures nothing: it reads saved results (of \
                      any machine; a file of several series counts as several) and prints them \
                      side by side per thread count, as a table, JSON ({differs_in, series, \
                      table}) or CSV (one row per series and thread count), with --plot one \
                      plot of them all, each series with its CPU share (a busy column) and \
                      the warnings its runs carry (a busy machine once, short runs); results that differ in n or \
                      strategy are compared with a warning and flagged (differs_in, the differs \
                      column).",
        after_long_help = "Examples:\n  \
                      nqueens scale 16\n  \
                      nqueens scale 17 --threads 1,2 --repeat 5 --plot scaling.svg\n  \
                      nqueens scale 17 --threads 1,2 --plot scaling.svg --model-up-to 1024\n  \
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
        long_about = "Samples the symmetric plan of the n x n board (4 to 32) with random probes: \
                      each draws a task, places a few queens at random and counts the rest \
                      exactly, weighted by the inverse probability of its path. Prints the \
                      estimated total and unique counts with 95 % intervals, the estimated \
                      core-seconds of a full count with this kernel on this machine, the modelled \
                      wall time on --threads and on 64, 1024 and 10000 cores, the sample size, the \
                      seed, the fraction of the work the sample did, and why it stopped. The \
                      time budget (--budget-seconds, building the plan included) follows the board, 5 s \
                      for small boards up to 60 s from n = 24; it ends early when counting the \
                      board exactly is cheaper than the time left (it then counts, and says \
                      \"counted exactly\") or when the probes have done a full count's work. \
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

/// Arguments of `nqueens completions`.
#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell to write the script for.
    #[arg(value_name = "SHELL", value_parser = shell_parser())]
    pub shell: clap_complete::Shell,
}

/// The parser of `completions SHELL`: a shell that has a script, or a refusal naming those
/// that have one (rather than a shell of a similar name: tcsh is not zsh).
fn shell_parser() -> impl clap::builder::TypedValueParser<Value = clap_complete::Shell> {
    Refusing {
        parser: clap::builder::EnumValueParser::<clap_complete::Shell>::new(),
        refuse: no_script_for,
    }
}

/// Why `value` gets no completion script: it names none of the shells that have one.
fn no_script_for(value: &str) -> Option<String> {
    use clap::ValueEnum;
    use clap_complete::Shell;
    let known = <Shell as ValueEnum>::from_str(value.trim(), true).is_ok();
    (!known).then(|| {
        let shells: Vec<String> = Shell::value_variants()
            .iter()
            .filter_map(ValueEnum::to_possible_value)
            .map(|v| v.get_name().to_string())
            .collect();
        let (last, others) = shells.split_last().expect("clap_complete has shells");
        format!(
            "there is no completion script for '{}': there are scripts for {} and {last}",
            human::shorten(value),
            others.join(", ")
        )
    })
}

/// Arguments of `nqueens man`.
#[derive(Debug, Args)]
pub struct ManArgs {
    /// Write one page per command into this directory (created when missing) instead of
    /// printing the whole manual as one page.
    #[arg(long, value_name = "DIR")]
    pub dir: Option<std::path::PathBuf>,
}

/// Arguments of `nqueens estimate`.
#[derive(Debug, Args)]
pub struct EstimateArgs {
    /// Board side, 4 to 32.
    #[arg(value_name = "N", value_parser = parse_estimate_n)]
    pub n: u32,
    /// Wall-clock budget in seconds, spent on probes, building the plan included [default: 5
    /// up to n = 16, 60 from n = 24].
    ///
    /// A budget: the sample fills it, then the estimate is written. At most 86400 (a day). Sampling ends within about a thirty-second of it after the end,
    /// or earlier when counting exactly is cheaper (then it counts) or the probes have done a
    /// full count's work. The default is 5 up to n = 16, 10 to 19, 20 to 21, 30 to 23 and 60
    /// from 24.
    #[arg(long = "budget-seconds", alias = "seconds", value_name = "S",
          value_parser = parse_budget_seconds, conflicts_with = "samples")]
    pub seconds: Option<f64>,
    /// Draw exactly K probes instead of filling a time budget: reproducible.
    ///
    /// K goes from 2 to 1000000000.
    #[arg(long, value_name = "K", value_parser = parse_samples)]
    pub samples: Option<u64>,
    /// Seed of the probes' random streams.
    #[arg(long, value_name = "X", default_value_t = 1, value_parser = parse_seed)]
    pub seed: u64,
    /// Spend the whole time budget on probes: no exact count, no early end.
    ///
    /// For studies of the estimator itself, such as how often its interval holds the known
    /// total.
    #[arg(long, conflicts_with = "samples")]
    pub full_budget: bool,
    /// Worker threads, or max: one per CPU.
    ///
    /// `max` stands for one thread per logical CPU. More than the CPUs is allowed, up to 8 per
    /// logical CPU and 64 in all; also the thread count whose wall time is modelled.
    #[arg(short = 't', visible_short_alias = 'j', long, value_name = "THREADS",
          value_parser = parse_threads, default_value = "max")]
    pub threads: usize,
    /// Which kernel counts the probes (and whose cost is estimated).
    #[arg(long, default_value_t = Kernel::default(), value_parser = kernel_parser())]
    pub kernel: Kernel,
    /// Output format.
    #[arg(short, long, value_parser = choice::<Format>(), default_value_t = Format::Table)]
    pub format: Format,
    #[command(flatten)]
    pub progress: ProgressArgs,
}

/// Parses a board side for `estimate`: 4 to 32, the boards the symmetric plan samples.
pub fn parse_estimate_n(text: &str) -> Result<u32, String> {
    use nqueens::estimate::Estimator;
    const LO: u32 = Estimator::MIN_N;
    const HI: u32 = Estimator::MAX_N;
    let n = parse_side(text, LO..=HI, u32::MAX, "")?;
    if !(LO..=HI).contains(&n) {
        // A number too large for a board size is read as u32::MAX: not shown.
        let shown = if n == u32::MAX {
            "n".to_string()
        } else {
            format!("n = {n}")
        };
        return Err(format!("{shown} cannot be estimated (boards {LO} to {HI})"));
    }
    Ok(n)
}

/// How often the progress lines are written, shared by the commands that write them (`count`,
/// `verify`, `estimate`, `scale`).
#[derive(Debug, Args)]
pub struct ProgressArgs {
    /// Seconds between the progress lines written where stderr is not a terminal [default: 60].
    ///
    /// 0.1 to 31536000 (a year). Without it the NQUEENS_PROGRESS_SECONDS variable sets the
    /// interval; given, it wins over the variable, which is then not read. On a terminal a bar
    /// is drawn instead.
    #[arg(long, value_name = "SECONDS", value_parser = crate::progress::parse_progress_seconds,
          hide_short_help = true)]
    pub progress_seconds: Option<std::time::Duration>,
}

impl ProgressArgs {
    /// Makes the interval given the one of this process's progress lines, then checks the
    /// interval in force: a bad NQUEENS_PROGRESS_SECONDS is refused (where no flag overrides
    /// it) before any work.
    pub fn apply(&self) -> Result<(), String> {
        crate::progress::set_log_interval(self.progress_seconds);
        crate::progress::log_interval().map(|_| ())
    }
}

/// Worker threads and decomposition strategy, shared by the counting commands.
#[derive(Debug, Args)]
pub struct EngineArgs {
    /// Worker threads, or max: one per CPU.
    ///
    /// `max` stands for one thread per logical CPU. More than the CPUs is allowed, up to 8 per logical CPU and 64 in all.
    #[arg(short = 't', visible_short_alias = 'j', long, value_name = "THREADS",
          value_parser = parse_threads, default_value = "max")]
    pub threads: usize,
    /// How the board is split into tasks.
    #[arg(long, value_parser = choice::<Strategy>(), default_value_t = Strategy::default())]
    pub strategy: Strategy,
    /// Which kernel counts the tasks.
    ///
    /// The counts are the same with each, so a count can be checked by an independent
    /// implementation; `nqueens --version` names the kernels this machine runs.
    ///
    #[cfg_attr(
        feature = "gpu",
        doc = "gpu: the GPU and --threads CPU workers take tasks from one queue (the CPU \
               workers with the fastest CPU kernel); gpu-only: the GPU alone. The GPU is the \
               fastest adapter found (`nqueens --version` lists them; NQUEENS_GPU_ADAPTER=INDEX \
               or part of a name picks another). auto counts with gpu on a discrete adapter \
               when the CPU alone would need about 2 s or more (n = 19 and up on 16 threads, \
               18 on 2; `nqueens --version` gives this machine's board), never on an \
               integrated or software one. NQUEENS_GPU_TRACE=1 writes a line per GPU batch on \
               stderr; NQUEENS_GPU_THREADS, NQUEENS_GPU_STACK (workgroup or private) and \
               NQUEENS_GPU_LAST_ROWS (1 or 2) change how the shader runs, for measurements."
    )]
    #[cfg_attr(
        not(feature = "gpu"),
        doc = "The GPU kernels (gpu, gpu-only) are in builds with the gpu feature: cargo \
               install --locked --path cli --features gpu (from a clone of the repository)."
    )]
    #[arg(long, default_value_t = Kernel::default(), value_parser = kernel_parser())]
    pub kernel: Kernel,
}

/// Arguments of `nqueens count`.
#[derive(Debug, Args)]
pub struct CountArgs {
    /// Board sizes, 0 to 64: one n (16), an inclusive range (4..=16) or a list (8,10,12).
    #[arg(value_name = "N", value_parser = parse_boards)]
    pub boards: Boards,
    #[command(flatten)]
    pub engine: EngineArgs,
    /// Output format.
    ///
    /// JSON and CSV also give each board's plan fingerprint, what a journal supplied
    /// (resumed_tasks, resumed_total), the plan's tasks (plan_tasks, searched_tasks), shard and
    /// complete, and core_time: the searched tasks' time summed over the workers, so that
    /// wall_time - core_time / threads is the time the count spent outside its tasks (times in
    /// seconds). With --checkpoint they add runs, all_runs_wall_time and all_runs_core_time
    /// (every run of the count that its journal timed), and the table gives time (this run),
    /// compute (all runs' core time) and the share of tasks resumed.
    #[arg(short, long, value_parser = choice::<Format>(), default_value_t = Format::Table)]
    pub format: Format,
    /// Record finished tasks in FILE; the same command resumes.
    ///
    /// Every finished task is recorded; rerunning the same command resumes where it stopped. Several boards keep one journal each: FILE with -nN before its extension (run.ckpt:
    /// run-n12.ckpt), or nN.ckpt inside FILE when it is a directory (or ends in /), nN-sK-of-M.ckpt
    /// for shard K/M. Example: --checkpoint n20.ckpt
    #[arg(long, value_name = "FILE")]
    pub checkpoint: Option<std::path::PathBuf>,
    /// Place the workers on chosen CPUs (Linux).
    ///
    /// cores = one per physical core first, then their SMT siblings; siblings = SMT siblings
    /// together, core by core; none = wherever the system puts them. Only the CPUs the process may run on (taskset) are used, and no
    /// more threads than those; recorded in the results ("pin": "cores: 0,1").
    #[arg(long, value_name = "PLACEMENT", value_parser = choice::<crate::placement::Pin>(),
          default_value = "none")]
    pub pin: crate::placement::Pin,
    /// Count only shard K of M of the board's tasks, for `nqueens merge`.
    ///
    /// K/M, slurm or slurm/M. K goes from 0 to M-1 (about equal work each); the shard is recorded in --checkpoint FILE
    /// for `nqueens merge`. `slurm` takes K and M from a Slurm
    /// array task's environment (refused in an array of one task, which says nothing of M),
    /// `slurm/M` takes K = SLURM_ARRAY_TASK_ID (as when one task is run again with sbatch
    /// --array=K). The total printed is the shard's part only.
    #[arg(long, value_name = "K/M", value_parser = parse_shard_spec,
          conflicts_with = "algorithm")]
    pub shard: Option<ShardSpec>,
    /// Count with one textbook algorithm instead of the engine.
    ///
    /// It runs on one thread; `nqueens compare` runs several side by side. The algorithm splits nothing, so --threads
    /// and --strategy do not apply.
    #[arg(short, long = "algorithm", alias = "algorithms", value_name = "NAME",
          value_parser = one_algorithm_parser(),
          conflicts_with_all = ["threads", "strategy", "kernel", "checkpoint"])]
    pub algorithm: Option<Algorithm>,
    /// Refuse a count estimated to take longer than this.
    ///
    /// A refusal threshold, checked before starting: nothing is counted when the estimate is over it (exit 2); a count
    /// under it runs to its end. [default: no limit for the engine, which says when a count
    /// will take long; 86400, a day, with --algorithm]
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    pub max_seconds: Option<f64>,
    #[command(flatten)]
    pub progress: ProgressArgs,
}

/// Arguments of `nqueens merge`.
#[derive(Debug, Args)]
pub struct MergeArgs {
    /// Shard journals (every shard of the count is needed, each journal once).
    #[arg(value_name = "FILE", required = true)]
    pub files: Vec<std::path::PathBuf>,
    /// Output format.
    #[arg(short, long, value_parser = choice::<Format>(), default_value_t = Format::Table)]
    pub format: Format,
}

/// Parses `--shard`: `K/M`, `slurm` or `slurm/M`.
pub fn parse_shard_spec(text: &str) -> Result<ShardSpec, String> {
    if looks_negative(text) || text.contains("/-") {
        return Err(format!(
            "'{}' is not a shard: K and M cannot be negative (expected K/M with 0 <= K < M, for \
             example 3/8)",
            human::shorten(text)
        ));
    }
    text.parse().map_err(|e: ShardError| e.to_string())
}

/// Arguments of `nqueens known`.
#[derive(Debug, Args)]
pub struct KnownArgs {
    /// Boards to print: 16, 4..=16 or 8,10,12 [default: 0 to --max].
    ///
    /// One n (16), an inclusive range (4..=16) or a list (8,10,12).
    #[arg(value_name = "N", value_parser = parse_boards, conflicts_with = "max")]
    pub boards: Option<Boards>,
    /// Largest n to print (every n from 0 up to it).
    #[arg(long, value_name = "MAX", default_value_t = Known::MAX_N,
          value_parser = parse_max_known)]
    pub max: u32,
    /// Output format.
    #[arg(short, long, value_parser = choice::<Format>(), default_value_t = Format::Table)]
    pub format: Format,
}

/// Arguments of `nqueens verify`.
#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// Boards to count and compare: 16, 4..=16 or 8,10,12 [default: 0 to --max].
    ///
    /// One n (16), an inclusive range (4..=16) or a list (8,10,12).
    #[arg(value_name = "N", value_parser = parse_boards, conflicts_with = "max")]
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

/// The default `--max-seconds` of the commands whose work cannot have been meant when it is
/// longer: one day.
pub const DAY_SECONDS: f64 = 86_400.0;

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
        } else if let Some(hint) = range_hint(item) {
            return Err(hint);
        } else {
            boards.push(parse_n(item)?);
        }
    }
    Ok(Boards(boards))
}

/// The refusal of a range written as other tools write one (`8-12`, `8:12`), pointing to the
/// inclusive range nqueens reads (`8..=12`); `None` for anything else.
fn range_hint(item: &str) -> Option<String> {
    let (lo, hi) = item.split_once(['-', ':'])?;
    let (lo, hi) = (
        lo.trim().parse::<u32>().ok()?,
        hi.trim().parse::<u32>().ok()?,
    );
    let (lo, hi) = (lo.min(hi), lo.max(hi));
    Some(format!(
        "'{}' is not a board size: the boards {lo} to {hi} are written {lo}..={hi}",
        human::shorten(item)
    ))
}

fn parse_n(text: &str) -> Result<u32, String> {
    parse_side(
        text,
        0..=Plan::MAX_N,
        Plan::MAX_N,
        &format!("the largest board is {n} x {n}", n = Plan::MAX_N),
    )
}

/// Parses a board side from 0 to `max`; `limit` says why a larger one is refused, `expected`
/// is the range named when the text is no number at all.
fn parse_side(
    text: &str,
    expected: std::ops::RangeInclusive<u32>,
    max: u32,
    limit: &str,
) -> Result<u32, String> {
    let text = text.trim();
    if looks_negative(text) {
        return Err("a board size cannot be negative".to_string());
    }
    let Some(n) = parse_saturating(text, u32::MAX) else {
        return Err(format!(
            "'{}' is not a board size (expected a whole number from {} to {})",
            human::shorten(text),
            expected.start(),
            expected.end()
        ));
    };
    if n > max {
        let shown = if n == u32::MAX {
            "n".to_string()
        } else {
            format!("n = {n}")
        };
        return Err(format!("{shown} is too large: {limit}"));
    }
    Ok(n)
}

/// `text` as a whole number, one too large for `T` read as `largest` (so that it is refused as
/// too large, not as no number); `None` when it is no whole number.
fn parse_saturating<T>(text: &str, largest: T) -> Option<T>
where
    T: std::str::FromStr<Err = std::num::ParseIntError>,
{
    match text.parse::<T>() {
        Ok(value) => Some(value),
        Err(e) if *e.kind() == std::num::IntErrorKind::PosOverflow => Some(largest),
        Err(_) => None,
    }
}

/// The most worker threads any command may ask for on a machine with `logical` CPUs: eight per
/// CPU, at least 64 and at most 4096 (the library's own limit, [`nqueens::max_threads`], on this
/// machine). More only slow a count down (and take long to start).
pub fn max_threads_for(logical: usize) -> usize {
    logical.saturating_mul(8).clamp(64, 4096)
}

/// Parses a worker-thread count from 1 to [`max_threads_for`] this machine's logical CPUs.
pub fn parse_threads(text: &str) -> Result<usize, String> {
    parse_threads_for(text, num_cpus::get())
}

fn parse_threads_for(text: &str, logical: usize) -> Result<usize, String> {
    let text = text.trim();
    if looks_negative(text) {
        return Err("a thread count cannot be negative".to_string());
    }
    if text == "max" {
        return Ok(logical.max(1));
    }
    match parse_saturating(text, usize::MAX) {
        Some(t) => check_threads(t, logical),
        None => Err(format!(
            "'{}' is not a thread count (expected max or a whole number 1 to {})",
            human::shorten(text),
            max_threads_for(logical)
        )),
    }
}

/// Refuses zero threads and more than [`max_threads_for`] `logical` CPUs.
fn check_threads(threads: usize, logical: usize) -> Result<usize, String> {
    let max = max_threads_for(logical);
    match threads {
        0 => Err("the thread count must be at least 1".to_string()),
        t if t > max => Err(format!(
            "too many threads: at most {max} on this machine ({}; the default is one thread \
             per CPU)",
            human::plural(logical, "logical CPU")
        )),
        t => Ok(t),
    }
}

/// The `--kernel` parser: a kernel name, refused when this CPU cannot run it. In a build
/// without the `gpu` feature the GPU kernels' names are refused with how to get them.
fn kernel_parser() -> impl clap::builder::TypedValueParser<Value = Kernel> {
    use clap::builder::TypedValueParser;
    Refusing {
        parser: choice::<Kernel>().try_map(|kernel: Kernel| {
            // A GPU kernel without an adapter is refused when the count opens the device, with
            // how to get one.
            if kernel.is_available() || kernel.uses_gpu() {
                return Ok(kernel);
            }
            let available = Kernel::available();
            Err(nqueens::Error::KernelUnavailable { kernel, available }.to_string())
        }),
        refuse: gpu_missing,
    }
}

/// Why `value` names no kernel of this build: a GPU kernel without the `gpu` feature.
fn gpu_missing(value: &str) -> Option<String> {
    let value = value.trim();
    let gpu = value.eq_ignore_ascii_case("gpu") || value.eq_ignore_ascii_case("gpu-only");
    (!cfg!(feature = "gpu") && gpu).then(|| {
        concat!(
            "the gpu kernels are in builds with the gpu feature, and this one has none: ",
            gpu_install!(),
            " (from a clone of the repository)"
        )
        .to_string()
    })
}

/// The parser of `count --algorithm`: one algorithm's name; a list is refused with the command
/// that runs several.
fn one_algorithm_parser() -> impl clap::builder::TypedValueParser<Value = Algorithm> {
    Refusing {
        parser: choice::<Algorithm>(),
        refuse: several_algorithms,
    }
}

/// Why `value` is no algorithm for `count`: a list of them, which `compare` runs.
fn several_algorithms(value: &str) -> Option<String> {
    value.contains(',').then(|| {
        format!(
            "count runs one algorithm at a time; `nqueens compare N --algorithm {}` runs \
             several side by side",
            human::shorten(value)
        )
    })
}

/// A value parser that first refuses some values with a reason of its own (`refuse` returns
/// it), then parses the rest with `parser`, whose possible values it keeps (for the help and
/// the completions).
#[derive(Clone)]
struct Refusing<P> {
    parser: P,
    refuse: fn(&str) -> Option<String>,
}

impl<P: clap::builder::TypedValueParser> clap::builder::TypedValueParser for Refusing<P> {
    type Value = P::Value;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<P::Value, clap::Error> {
        if let Some(reason) = value.to_str().and_then(self.refuse) {
            return Err(cmd
                .clone()
                .error(clap::error::ErrorKind::InvalidValue, reason));
        }
        self.parser.parse_ref(cmd, arg, value)
    }

    fn possible_values(
        &self,
    ) -> Option<Box<dyn Iterator<Item = clap::builder::PossibleValue> + '_>> {
        self.parser.possible_values()
    }
}

/// The parser of a library choice: its names as clap's possible values (listed in help, with
/// their descriptions, and suggested on a typo).
fn choice<T: Named + Send + Sync>() -> impl clap::builder::TypedValueParser<Value = T> {
    use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
    PossibleValuesParser::new(
        T::all()
            .iter()
            .map(|&v| PossibleValue::new(v.name()).help(v.description())),
    )
    .map(|name: String| T::parse_name(&name).expect("clap checked the name"))
}

const COMPARE_EXAMPLES: &str = "Examples:\n  \
    nqueens compare 10                          all four algorithms\n  \
    nqueens compare 14 --algorithm attack,bitmask\n  \
    nqueens compare 12 --format json\n\n\
    Counters (identical for every run of an algorithm):\n  \
    nodes            queens placed (conflict-free partial boards of 1..n queens)\n  \
    candidates       squares examined for the next queen, n per extended board\n  \
    diagonal checks  candidates that reached the diagonal test (matrix and bitmask\n                   \
    test everything at once, so for them it equals candidates)\n\n\
    time is the plain search, instrumented the search that produced the counters; a search\n\
    shorter than 0.2 s is repeated and its fastest run shown. The table gives every time in\n\
    one unit, named in its heading: ms while all are under a second, else s. speedup is\n\
    relative to the matrix search (1.00x; without it, the first listed of matrix, array,\n\
    attack, bitmask), named in the heading. JSON and CSV: algorithm, n, total, nodes,\n\
    candidates, diagonal_checks, seconds, instrumented_seconds, speedup (four significant\n\
    digits), baseline.";

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

/// Parses a positive number of seconds.
pub fn parse_seconds(text: &str) -> Result<f64, String> {
    if looks_negative(text.trim()) {
        return Err("a number of seconds cannot be negative".to_string());
    }
    match text.trim().parse::<f64>() {
        Ok(s) if s > 0.0 && s.is_finite() => Ok(s),
        _ => Err(format!(
            "'{}' is not a positive number of seconds",
            human::shorten(text)
        )),
    }
}

/// Parses the time budget of `estimate --budget-seconds`: positive, and at most a day
/// ([`DAY_SECONDS`]): the work of a sample grows with its budget, and a day's sample already
/// narrows the interval far below what a count's plan needs.
pub fn parse_budget_seconds(text: &str) -> Result<f64, String> {
    match parse_seconds(text)? {
        s if s > DAY_SECONDS => Err(format!(
            "the budget must be at most {DAY_SECONDS} seconds (a day); --samples K draws a \
             fixed number of probes instead"
        )),
        s => Ok(s),
    }
}

const WATCH_EXAMPLES: &str = "Examples:\n  \
    nqueens watch                               the 8 x 8 board, full screen\n  \
    nqueens watch 6 -a bitmask --speed 2        slower, with the bitmask's masks\n  \
    nqueens watch 6 --cast lecture.cast         record the view (asciinema play replays it)\n  \
    nqueens watch 6 --cast w.cast --size 100x30 the same, drawn off-screen (no terminal)\n  \
    nqueens watch 6 --html watch6.html          a page that replays the search in a browser\n  \
    nqueens watch 5 --frames | less             every step as a text frame\n  \
    nqueens watch 8 --format json | jq .        every step as one JSON object (jq before 1.7\n  \
                                                rounds integers above 2^53, such as a count of\n  \
                                                n = 26 or more; these stay far below)\n\n\
    Keys: space pause/resume, right or n one step, left or b one step back, + and - speed\n\
    (0.1, 0.2, 0.5, 1, 2, 5, ... 1000 steps/s), s run to the next solution, a next algorithm,\n\
    r restart, ? help, Ctrl-Z suspend, q or Esc quit (Ctrl-C, SIGINT, SIGTERM, SIGHUP: exit\n\
    130; SIGQUIT: exit 131; the terminal is restored on every way out).\n\n\
    When standard output is not a terminal, the steps are written as text frames (--frames).";

/// Arguments of `nqueens watch`.
#[derive(Debug, Args)]
pub struct WatchArgs {
    /// Board size, 1 to 64.
    ///
    /// The full-screen view needs a terminal it fits in.
    #[arg(value_name = "N", default_value_t = 8, value_parser = parse_watch_n)]
    pub n: u32,
    /// The algorithm whose search is shown.
    #[arg(short, long = "algorithm", alias = "algorithms", value_name = "NAME",
          default_value_t = Algorithm::Array, value_parser = choice::<Algorithm>())]
    pub algorithm: Algorithm,
    /// Steps per second, 0.1 to 1000.
    ///
    /// 5 on the screen and the --html page by default; frames and JSON are written without
    /// waiting unless this is given.
    #[arg(long, value_name = "STEPS_PER_SECOND", value_parser = parse_speed)]
    pub speed: Option<f64>,
    /// Pause at every solution.
    ///
    /// On the full-screen view, space resumes; a recording without a terminal holds each
    /// solution 2 s longer.
    #[arg(long)]
    pub pause_on_solution: bool,
    /// Write every step as a text frame instead of the full-screen view.
    ///
    /// A frame holds the board, the narration, the data structure and the counters.
    #[arg(long, conflicts_with = "format")]
    pub frames: bool,
    /// Write every step as one JSON object per line.
    ///
    /// Each holds event, row, col, line, by and the counters nodes, candidates,
    /// diagonal_checks and solutions; a "done" line ends them.
    #[arg(short, long, value_name = "FORMAT", value_parser = ["json"])]
    pub format: Option<String>,
    /// Stop the frames, JSON, page or off-screen recording after this many steps.
    ///
    /// A count limit: what came before is kept. By default 100000; a recording: 10 minutes of
    /// replay (3000 steps at 5 steps/s). 0: never (a page stops at 1000000, a recording at
    /// 100000; more is refused). The 8 x 8 board takes 17868 steps with matrix, array and
    /// attack, 4204 with bitmask (a step per queen).
    #[arg(long = "limit", alias = "max-steps", value_name = "STEPS", value_parser = parse_steps)]
    pub max_steps: Option<u64>,
    /// Record the view as an asciinema v2 file (asciinema play FILE replays it).
    ///
    /// On a terminal: what is shown, keys and pauses included (after the search's end no wait
    /// counts for more than a second; a player shortens any wait to 3 s). Without one (or with
    /// --size): the view drawn off-screen, a step every 1/speed seconds (a solution held 2 s
    /// more with --pause-on-solution) up to --limit, without waiting; its last event is the
    /// search's end. Either way the file is written as the frames are made, each frame only
    /// what changed (a few hundred bytes a step), and replaces FILE at the end; an interrupt
    /// keeps what was recorded. Stderr says where it went, how long and how big.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["frames", "format", "html"])]
    pub cast: Option<std::path::PathBuf>,
    /// The size of the view recorded off-screen by --cast [default: 80x24].
    ///
    /// Columns by lines, 80 to 1000 x 24 to 400; the board must fit. Given on a terminal, it
    /// records off-screen too.
    #[arg(long, value_name = "COLSxROWS", requires = "cast", value_parser = parse_cast_size)]
    pub size: Option<(u16, u16)>,
    /// Write a self-contained HTML page that replays the search instead of showing it.
    ///
    /// The page has the board, data structure, narration and counters, with play, pause,
    /// step, back and speed; stderr says where it went and how big it is. It holds the steps as
    /// a few bytes each (the 12 x 12 board's first 100000: about 0.6 MB); at most 1000000:
    /// --limit 0 stops it there (saying so), a larger --limit is refused.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["frames", "format"])]
    pub html: Option<std::path::PathBuf>,
}

/// Parses a board side for `watch`: 1 to 64.
fn parse_watch_n(text: &str) -> Result<u32, String> {
    match parse_n(text)? {
        0 => Err("the 0 x 0 board has no square to watch (give 1 to 64)".to_string()),
        n => Ok(n),
    }
}

/// Parses the size of an off-screen view, `COLSxROWS`: 80 to 1000 columns (the narrowest view
/// to the widest drawn) and 24 to 400 lines.
fn parse_cast_size(text: &str) -> Result<(u16, u16), String> {
    let wrong = || {
        format!(
            "'{text}' is not a size COLSxROWS of 80 to 1000 columns and 24 to 400 lines (such \
             as 100x30)"
        )
    };
    let (cols, rows) = text.trim().split_once(['x', 'X']).ok_or_else(wrong)?;
    let number = |part: &str| part.trim().parse::<u16>().map_err(|_| wrong());
    let (cols, rows) = (number(cols)?, number(rows)?);
    if (80..=1000).contains(&cols) && (24..=400).contains(&rows) {
        Ok((cols, rows))
    } else {
        Err(wrong())
    }
}

/// Parses a number of steps per second, 0.1 to 1000.
fn parse_speed(text: &str) -> Result<f64, String> {
    if looks_negative(text.trim()) {
        return Err("a speed cannot be negative (give 0.1 to 1000 steps per second)".to_string());
    }
    match text.trim().parse::<f64>() {
        Ok(s) if (0.1..=1000.0).contains(&s) => Ok(s),
        _ => Err(format!(
            "'{text}' is not a speed from 0.1 to 1000 steps per second"
        )),
    }
}

/// Arguments of `nqueens scale`.
#[derive(Debug, Args)]
pub struct ScaleArgs {
    /// Board side (0 to 64); not with --compare.
    #[arg(value_name = "N", value_parser = parse_n, required_unless_present = "compare")]
    pub n: Option<u32>,
    /// Compare saved results instead of measuring.
    ///
    /// Reads files written by `scale N --format json`.
    ///
    /// The files may come from any machine and hold one or several series each: a table of every series side by side per thread count,
    /// or JSON, CSV, and with --plot one plot of them all. Runs that differ in n or strategy are
    /// allowed but flagged.
    #[arg(long, value_name = "FILE.json", num_args = 1.., conflicts_with_all = [
        "n", "threads", "repeat", "warmup", "strategy", "kernel", "model_up_to", "max_seconds",
        "pin"])]
    pub compare: Vec<std::path::PathBuf>,
    /// Thread counts to measure, such as 1,2,4,8 or max.
    ///
    /// `max` stands for every logical CPU [default: the powers of two below the logical CPU count, and that count]. One thread is
    /// always measured too: it is the baseline of every speedup and of the model. Each count is
    /// at most 8 per logical CPU, and 64 on any machine.
    #[arg(short = 't', visible_short_alias = 'j', long, value_name = "LIST",
          value_parser = parse_thread_list)]
    pub threads: Option<ThreadList>,
    /// Timed runs per thread count [default: 3, more for a short board].
    ///
    /// They follow the --warmup untimed runs. Without --repeat, a board whose fastest run is
    /// estimated under 250 ms (too short to trust) gets enough runs, up to 15, for the fastest
    /// thread count's timed runs to take a second together.
    #[arg(short = 'r', long, value_name = "K", value_parser = parse_repeat)]
    pub repeat: Option<u32>,
    /// Untimed warm-up runs per thread count, before the timed ones.
    ///
    /// 0 to 1000. A warm-up brings the caches, the CPU's clock and the pool's threads up before timing;
    /// its CPU time counts towards cpu_share.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = parse_warmup)]
    pub warmup: u32,
    /// How the board is split into tasks (a list measures each).
    ///
    /// A list such as mirror,symmetric measures each strategy.
    ///
    /// The strategies of a list are measured interleaved, as the kernels are.
    #[arg(long, value_name = "NAME[,NAME...]", value_delimiter = ',',
          value_parser = choice::<Strategy>(), default_value = "symmetric")]
    pub strategy: Vec<Strategy>,
    /// Kernels to measure, such as avx512,avx2.
    ///
    /// The kernels of a list are measured interleaved (every kernel and strategy in turn at each thread count and repetition, so that the
    /// machine's other load hits all alike).
    #[arg(long, value_name = "NAME[,NAME...]", value_delimiter = ',',
          value_parser = kernel_parser(), default_value = "auto")]
    pub kernel: Vec<Kernel>,
    /// Output format: table, json or csv.
    ///
    /// table: per kernel and strategy the
    /// measured and the modelled counts under a machine header (rows with more threads than
    /// physical cores marked as sharing a core), then with several a side-by-side table. json:
    /// an array of studies, one per kernel and strategy, as every command writes an array of
    /// records (scale --compare reads these files back, older ones too), each with n, strategy,
    /// kernel, machine {logical, physical}, repeat,
    /// complete (false when an interrupt stopped the study), tasks, runs
    /// (threads, median_seconds, min_seconds, max_seconds, speedup, efficiency, cpu_share,
    /// shares_core, loss {serial, imbalance, other_programs, slowdown, unexplained}: 1 -
    /// efficiency split by where it went), model (workers; the list-scheduling bound:
    /// predicted_seconds, speedup, efficiency; the model with losses: with_losses_seconds,
    /// with_losses_speedup, losses_from_threads), model_leaves_out,
    /// total, run {cpu, logical, physical, smt, kernel, strategy, n, version, date, os, pin
    /// with --pin}, headline {threads, seconds, solutions, solutions_per_second, cores,
    /// solutions_per_second_per_core} and model_check (threads, from_threads,
    /// predicted_seconds, measured_seconds, error, lumped: each measured count predicted from
    /// the smaller ones). csv: one row per measured thread count (kind = measured, seconds = the
    /// median) and per modelled worker count and model (kind = bound for the list-scheduling
    /// bound, with-losses for the model with measured losses; seconds = the prediction; min,
    /// max, cpu_share, busy and the loss_… columns empty) of each series. cpu_share is the CPU
    /// time the runs received / asked for (empty where a thread count's runs took under 0.25 s
    /// in all); busy is true below 0.8. The table and CSV show a loss part below 0 as 0.
    #[arg(short, long, value_parser = choice::<Format>(), default_value_t = Format::Table, hide_possible_values = true)]
    pub format: Format,
    /// Also plot speedup and efficiency into this SVG file.
    ///
    /// Measured with the range of the timed runs, ideal, model; one series per kernel,
    /// strategy or compared file. The name must end in .svg; a new file, or a regular file that
    /// is replaced.
    #[arg(long, value_name = "FILE.svg", value_parser = svg_path_parser())]
    pub plot: Option<std::path::PathBuf>,
    /// Model up to this many workers (1 to 1048576).
    ///
    /// The plot draws the model's curve that far
    /// [default: 4 times the largest measured thread count], and beyond 256 the model in the
    /// output goes that far too.
    #[arg(long, value_name = "THREADS", value_parser = parse_model_up_to)]
    pub model_up_to: Option<usize>,
    /// Place the workers on chosen CPUs (Linux).
    ///
    /// cores = one per physical core first, then their SMT siblings; siblings = SMT siblings
    /// together, core by core; none = wherever the system puts them. Only the CPUs the process may run on (taskset) are used, and no
    /// more threads than those; recorded in the results ("pin": "cores: 0,1").
    #[arg(long, value_name = "PLACEMENT", value_parser = choice::<crate::placement::Pin>(),
          default_value = "none")]
    pub pin: crate::placement::Pin,

    /// Refuse runs estimated to take longer than this.
    ///
    /// A refusal threshold, checked before starting (exit 2): the estimate is of all the runs together.
    #[arg(long, value_name = "SECONDS", default_value_t = DAY_SECONDS, value_parser = parse_seconds)]
    pub max_seconds: f64,
    #[command(flatten)]
    pub progress: ProgressArgs,
}

/// Parses a plot path: any path whose name ends in `.svg` (any case), the only format drawn.
fn svg_path_parser() -> impl clap::builder::TypedValueParser<Value = std::path::PathBuf> {
    use clap::builder::TypedValueParser;
    clap::builder::OsStringValueParser::new().try_map(|text| parse_svg_path(&text))
}

fn parse_svg_path(text: &OsStr) -> Result<std::path::PathBuf, String> {
    let path = std::path::PathBuf::from(text);
    let is_svg = path
        .extension()
        .is_some_and(|ext| ext.eq_ignore_ascii_case("svg"));
    if is_svg {
        Ok(path)
    } else {
        Err(
            "the name does not end in .svg: the plot is drawn as SVG only; name it e.g. \
             plot.svg (and for a PNG: rsvg-convert plot.svg -o plot.png)"
                .to_string(),
        )
    }
}

/// A list of distinct worker-thread counts, in the order given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ThreadList(pub Vec<usize>);

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
        if looks_negative(item) {
            return Err("a thread count cannot be negative".to_string());
        }
        let threads = match item {
            "max" => logical.max(1),
            _ => {
                let Some(t) = parse_saturating(item, usize::MAX) else {
                    return Err(format!(
                        "'{}' is not a thread count (expected a list such as 1,2,4 or max)",
                        human::shorten(item)
                    ));
                };
                // A count written out twice is a typo; `max` may equal a written count
                // (1,2,max on two CPUs).
                if written.contains(&t) {
                    return Err(format!("the thread count {t} is listed twice"));
                }
                written.push(t);
                t
            }
        };
        let threads = check_threads(threads, logical)?;
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

/// Arguments of `nqueens solve`.
#[derive(Debug, Args)]
pub struct SolveArgs {
    /// Board side, 0 to 100000000.
    #[arg(value_name = "N", value_parser = parse_solve_n)]
    pub n: u32,
    /// Also print the solution's 8 images under the symmetries of the square.
    ///
    /// The images under the rotations and reflections of the square come in the order identity, rot90, rot180, rot270, flip-columns, flip-rows, transpose,
    /// anti-transpose; one line each with --format columns) and name its canonical form.
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

/// Parses a whole number from `min` to `max`; `what` names it in the reason for a refusal.
fn parse_whole(text: &str, min: u64, max: u64, what: &str) -> Result<u64, String> {
    let text = text.trim();
    if looks_negative(text) {
        return Err(format!("{what} cannot be negative"));
    }
    // No upper end worth writing: `at least 2`, not `from 2 to 18446744073709551615`.
    let range = if max == u64::MAX && min > 0 {
        format!("at least {min}")
    } else {
        format!("from {min} to {max}")
    };
    match text.parse::<u64>() {
        Ok(k) if (min..=max).contains(&k) => Ok(k),
        Ok(_) => Err(format!("{what} must be {range}")),
        Err(e) if *e.kind() == std::num::IntErrorKind::PosOverflow && max == u64::MAX => {
            Err(format!("{what} must be at most {max}"))
        }
        Err(e) if *e.kind() == std::num::IntErrorKind::PosOverflow => {
            Err(format!("{what} must be {range}"))
        }
        Err(_) => Err(format!(
            "'{}' is not a whole number ({what} {range})",
            human::shorten(text)
        )),
    }
}

/// The most probes `estimate --samples` draws. The interval narrows only with the square root
/// of the sample: a billion probes already take over half an hour of a core on the smallest
/// board (days on the largest), and a larger count would run for years before it printed.
pub const MAX_SAMPLES: u64 = 1_000_000_000;

/// Parses `--samples K` of `estimate`: at least 2, since a spread needs two probes, and at most
/// [`MAX_SAMPLES`].
pub fn parse_samples(text: &str) -> Result<u64, String> {
    parse_whole(text, 2, MAX_SAMPLES, "the number of samples")
}

/// Parses `--seed X` of `estimate`: any whole number from 0 to 2^64 - 1.
pub fn parse_seed(text: &str) -> Result<u64, String> {
    parse_whole(text, 0, u64::MAX, "the seed")
}

/// Parses `--limit STEPS` of `watch`: any whole number (0: never stop).
pub fn parse_steps(text: &str) -> Result<u64, String> {
    parse_whole(text, 0, u64::MAX, "the number of steps")
}

/// Parses `--max MAX` of `known` and `verify`: 0 to the largest n of the known table.
pub fn parse_max_known(text: &str) -> Result<u32, String> {
    parse_whole(text, 0, u64::from(Known::MAX_N), "the largest n").map(|n| n as u32)
}

/// Parses `--limit K` of `list`: at least 1.
pub fn parse_limit(text: &str) -> Result<u64, String> {
    parse_whole(text, 1, u64::MAX, "the limit")
}

/// Parses `--repeat K` of `scale`: 1 to 1000, what a saved result may hold.
pub fn parse_repeat(text: &str) -> Result<u32, String> {
    let most = nqueens::scaling::series::Series::MAX_REPEAT as u64;
    parse_whole(text, 1, most, "the number of timed runs").map(|k| k as u32)
}

/// Parses `--warmup N` of `scale`: 0 to the most timed runs a saved result may name.
pub fn parse_warmup(text: &str) -> Result<u32, String> {
    let most = nqueens::scaling::series::Series::MAX_REPEAT as u64;
    parse_whole(text, 0, most, "the number of warm-up runs").map(|k| k as u32)
}

/// The most workers `scale --model-up-to` models: what a saved result may name, so that every
/// result made is read back.
pub const MODEL_UP_TO_MAX: u64 = nqueens::scaling::series::Series::MAX_COUNT as u64;

/// Parses `--model-up-to THREADS` of `scale`: 1 to [`MODEL_UP_TO_MAX`].
pub fn parse_model_up_to(text: &str) -> Result<usize, String> {
    parse_whole(text, 1, MODEL_UP_TO_MAX, "the number of modelled workers").map(|k| k as usize)
}

/// Parses a board side for `solve`: 0 to [`SOLVE_MAX_N`].
pub fn parse_solve_n(text: &str) -> Result<u32, String> {
    let limit = format!("solve prints boards up to {SOLVE_MAX_N} x {SOLVE_MAX_N}");
    parse_side(text, 0..=SOLVE_MAX_N, SOLVE_MAX_N, &limit)
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
        command().debug_assert();
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
            ("-1", "cannot be negative"),
            ("8-12", "the boards 8 to 12 are written 8..=12"),
            ("1-8", "written 1..=8"),
            ("4:8", "written 4..=8"),
            ("4,12 - 8", "written 8..=12"),
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
    fn thread_counts_are_bounded_in_one_place() {
        assert_eq!(max_threads_for(2), 64);
        assert_eq!(max_threads_for(32), 256);
        assert_eq!(max_threads_for(10_000), 4096);
        // The library refuses no count the command lets through.
        assert_eq!(max_threads_for(num_cpus::get()), nqueens::max_threads());
        assert_eq!(parse_threads_for("64", 2), Ok(64));
        for (bad, why) in [
            ("65", "too many threads: at most 64"),
            ("100000", "at most 64"),
            ("99999999999999999999999", "at most 64"),
            ("-1", "cannot be negative"),
        ] {
            let err = parse_threads_for(bad, 2).unwrap_err();
            assert!(err.contains(why), "{bad}: {err}");
        }
        assert!(
            parse_thread_list_for("1,65", 2)
                .unwrap_err()
                .contains("at most 64")
        );
    }

    #[test]
    fn negative_and_huge_board_sizes_get_a_reason_in_a_short_line() {
        assert!(
            parse_boards("-1")
                .unwrap_err()
                .contains("cannot be negative")
        );
        let huge = "9".repeat(100_000);
        let err = parse_boards(&huge).unwrap_err();
        assert!(
            err.contains("too large") && err.len() < 100,
            "{}",
            err.len()
        );
        let junk = "x".repeat(100_000);
        assert!(parse_boards(&junk).unwrap_err().len() < 200);
    }

    #[test]
    fn values_that_start_like_a_negative_number_are_named_negative() {
        for (bad, why) in [
            ("-5..=3", "a board size cannot be negative"),
            ("-x", "is not a board size"),
            ("-", "is not a board size"),
        ] {
            let err = parse_boards(bad).unwrap_err();
            assert!(err.contains(why), "{bad}: {err}");
        }
        for bad in ["-1/4", "1/-4", "-0/1"] {
            let err = parse_shard_spec(bad).unwrap_err();
            assert!(err.contains("cannot be negative"), "{bad}: {err}");
        }
        assert!(parse_shard_spec("1/4").is_ok());
        assert!(looks_negative("-5..=3") && looks_negative("-1"));
        assert!(!looks_negative("--bogus") && !looks_negative("-x") && !looks_negative("5"));
    }

    #[test]
    fn a_board_size_that_is_no_number_names_the_range_of_its_command() {
        let err = parse_estimate_n("abc").unwrap_err();
        assert!(err.contains("from 4 to 32"), "{err}");
        assert!(!err.contains("4294967295"), "{err}");
        assert!(parse_boards("abc").unwrap_err().contains("from 0 to 64"));
    }

    #[test]
    fn limits_and_repeats_give_a_reason() {
        assert_eq!(parse_limit("5"), Ok(5));
        assert_eq!(
            parse_limit("0").unwrap_err(),
            "the limit must be at least 1"
        );
        assert!(
            parse_limit("-1")
                .unwrap_err()
                .contains("cannot be negative")
        );
        assert!(parse_limit("x").unwrap_err().contains("not a whole number"));
        assert_eq!(parse_repeat("1000"), Ok(1000));
        assert!(parse_repeat("1001").unwrap_err().contains("1 to 1000"));
        assert_eq!(
            parse_samples("1").unwrap_err(),
            "the number of samples must be from 2 to 1000000000"
        );
        assert_eq!(parse_samples("2"), Ok(2));
        assert!(
            parse_repeat("-2")
                .unwrap_err()
                .contains("cannot be negative")
        );
    }

    #[test]
    fn every_size_that_reaches_a_loop_is_bounded() {
        assert_eq!(parse_samples("1000000000"), Ok(MAX_SAMPLES));
        for huge in [
            "1000000001",
            "10000000000",
            "18446744073709551615",
            "18446744073709551616",
        ] {
            assert_eq!(
                parse_samples(huge).unwrap_err(),
                "the number of samples must be from 2 to 1000000000",
                "{huge}"
            );
        }
        assert_eq!(parse_budget_seconds("86400"), Ok(DAY_SECONDS));
        for huge in ["86401", "1e300", "18446744073709551616"] {
            assert!(
                parse_budget_seconds(huge)
                    .unwrap_err()
                    .starts_with("the budget must be at most 86400 seconds (a day)"),
                "{huge}"
            );
        }
        assert_eq!(parse_seed("18446744073709551615"), Ok(u64::MAX));
        assert_eq!(parse_steps("0"), Ok(0));
        assert_eq!(parse_max_known("27"), Ok(27));
        assert_eq!(
            parse_max_known("28").unwrap_err(),
            "the largest n must be from 0 to 27"
        );
        assert_eq!(
            parse_max_known("99999999999999999999").unwrap_err(),
            "the largest n must be from 0 to 27"
        );
    }

    #[test]
    fn every_count_given_a_negative_says_it_cannot_be_negative() {
        for (parse, what) in [
            (
                parse_samples as fn(&str) -> Result<u64, String>,
                "the number of samples",
            ),
            (parse_seed, "the seed"),
            (parse_steps, "the number of steps"),
            (parse_limit, "the limit"),
        ] {
            for negative in ["-1", "-18446744073709551615", " -0"] {
                assert_eq!(
                    parse(negative).unwrap_err(),
                    format!("{what} cannot be negative")
                );
            }
        }
        assert_eq!(
            parse_max_known("-1").unwrap_err(),
            "the largest n cannot be negative"
        );
        assert!(
            parse_repeat("-1")
                .unwrap_err()
                .ends_with("cannot be negative")
        );
        assert!(
            parse_model_up_to("-1")
                .unwrap_err()
                .ends_with("cannot be negative")
        );
        for parse in [parse_seconds, parse_budget_seconds] {
            assert_eq!(
                parse("-1").unwrap_err(),
                "a number of seconds cannot be negative"
            );
        }
    }

    #[test]
    fn a_value_that_is_no_number_is_named_as_such() {
        for (bad, expected) in [
            (
                parse_seed("x"),
                "'x' is not a whole number (the seed from 0 to 18446744073709551615)",
            ),
            (
                parse_steps("1.5").map(|_| 0),
                "'1.5' is not a whole number (the number of steps from 0 to 18446744073709551615)",
            ),
            (
                parse_max_known("x").map(u64::from),
                "'x' is not a whole number (the largest n from 0 to 27)",
            ),
        ] {
            assert_eq!(bad.unwrap_err(), expected);
        }
        assert_eq!(
            parse_estimate_n("10000000000").unwrap_err(),
            "n cannot be estimated (boards 4 to 32)"
        );
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
            ("-1", "a thread count cannot be negative"),
            ("1,-2", "a thread count cannot be negative"),
            ("1.5", "not a thread count"),
            ("99999", "too many"),
        ] {
            let err = parse_thread_list_for(bad, 2).unwrap_err();
            assert!(err.contains(why), "{bad}: {err}");
            assert!(!err.contains('\n'), "{bad}: {err}");
        }
    }
}
