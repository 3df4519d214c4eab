//! Turns parsed arguments into work and output: one module per subcommand.
//!
//! Handlers write to the `out` they are given and return an [`Outcome`]; they never exit the
//! process or print errors themselves, so `main` alone decides exit codes.

pub mod args;
mod budget;
mod compare;
mod completions;
mod count;
mod escape;
mod estimate;
mod format;
mod human;
mod known;
mod list;
mod long_run;
mod man;
mod merge;
pub mod output;
mod pin;
mod progress;
mod render;
mod scale;
mod shard;
mod signals;
mod solve;
mod threads;
pub mod usage;
mod verify;
mod watch;

use std::io::{self, Write};

use args::{Cli, Command};

/// How a command ended when it did not fail.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Everything asked for was done (exit 0).
    Success,
    /// The command ran but found a negative answer, e.g. a count mismatch (exit 1).
    Negative,
    /// An interrupt stopped the command; what was lost or kept is already on stderr (exit 130).
    Interrupted,
}

/// Why a command failed.
#[derive(Debug, thiserror::Error)]
pub enum Failure {
    /// Input the user can fix (exit 2).
    #[error("{0}")]
    Usage(String),
    /// Writing the output failed.
    #[error("cannot write output: {0}")]
    Io(#[from] io::Error),
    /// A file named on the command line (a journal, a plot, a manual page) could not be read,
    /// written or used; the message names it (exit 1).
    #[error("{0}")]
    File(String),
    /// A search gave up after the time it was allowed without finding what it looked for
    /// (exit 1).
    #[error("{0}")]
    GaveUp(String),
    /// The command ran and found a wrong answer, e.g. two algorithms disagreeing (exit 1).
    #[error("{0}")]
    Wrong(String),
    /// The engine refused or failed.
    #[error("{0}")]
    Engine(#[from] nqueens::Error),
}

impl Failure {
    /// The process exit code for this failure.
    pub fn exit_code(&self) -> u8 {
        match self {
            Failure::Usage(_) | Failure::Engine(nqueens::Error::BoardTooLarge { .. }) => 2,
            Failure::Engine(nqueens::Error::ZeroThreads) => 2,
            Failure::Engine(nqueens::Error::Estimate(_)) => 2,
            #[cfg(feature = "gpu")]
            Failure::Engine(nqueens::Error::Gpu(_)) => 2,
            _ => 1,
        }
    }

    /// Whether this is a closed output pipe, which ends the program quietly.
    pub fn is_broken_pipe(&self) -> bool {
        matches!(self, Failure::Io(e) if e.kind() == io::ErrorKind::BrokenPipe)
    }
}

/// Whether the command also leaves a file behind (a journal, a plot), so that it is worth
/// running with nowhere to write its results.
pub fn writes_a_file(cli: &Cli) -> bool {
    match &cli.command {
        Command::Count(args) => args.checkpoint.is_some(),
        Command::Scale(args) => args.plot.is_some(),
        Command::Man(args) => args.dir.is_some(),
        _ => false,
    }
}

/// Runs the parsed command, writing its results to `out`.
pub fn run(cli: Cli, out: &mut dyn Write) -> Result<Outcome, Failure> {
    let outcome = match cli.command {
        Command::Count(args) => count::run(&args, out)?,
        Command::Known(args) => known::run(&args, out)?,
        Command::Verify(args) => verify::run(&args, out)?,
        Command::Compare(args) => compare::run(&args, out)?,
        Command::Scale(args) => scale::run(&args, out)?,
        Command::Solve(args) => solve::run(&args, out)?,
        Command::List(args) => list::run(&args, out)?,
        Command::Merge(args) => merge::run(&args, out)?,
        Command::Estimate(args) => estimate::run(&args, out)?,
        Command::Completions(args) => completions::run(&args, out)?,
        Command::Man(args) => man::run(&args, out)?,
        Command::Watch(args) => watch::run(&args, out)?,
    };
    out.flush()?;
    Ok(outcome)
}
