//! How a command ends: [`Outcome`] when it ran, [`Failure`] when it did not, and the exit code of
//! each. Every module of the command returns these, so this one sits below them all: it imports
//! only [`human`], which imports nothing of the command.

use std::io;

use crate::human;

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
    /// An interrupt stopped a count: what was lost or kept, to say on stderr before the command
    /// ends as [`Outcome::Interrupted`] (exit 130) with what it wrote closed.
    #[error("{0}")]
    Interrupted(String),
    /// The engine refused or failed: its message and those of the errors below it, on one line
    /// ([`human::error_chain`]).
    #[error("{}", human::error_chain(.0))]
    Engine(nqueens::Error),
}

/// The library's refusals and failures.
impl From<nqueens::Error> for Failure {
    fn from(error: nqueens::Error) -> Failure {
        Failure::Engine(error)
    }
}

impl Failure {
    /// The process exit code for this failure.
    pub fn exit_code(&self) -> u8 {
        match self {
            Failure::Usage(_) | Failure::Engine(nqueens::Error::BoardTooLarge { .. }) => 2,
            Failure::Engine(nqueens::Error::ZeroThreads)
            | Failure::Engine(nqueens::Error::TooManyThreads { .. }) => 2,
            Failure::Engine(nqueens::Error::Estimate(_)) => 2,
            #[cfg(feature = "gpu")]
            Failure::Engine(nqueens::Error::Gpu(_)) => 2,
            Failure::Interrupted(_) => 130,
            _ => 1,
        }
    }

    /// Whether this is a closed output pipe, which ends the program quietly.
    pub fn is_broken_pipe(&self) -> bool {
        matches!(self, Failure::Io(e) if e.kind() == io::ErrorKind::BrokenPipe)
    }
}
