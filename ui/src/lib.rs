//! What the parts of the `nqueens` command share to speak to their user, below all of them: it
//! knows none of the commands, and the command's handlers, its `watch` view and its scaling plot
//! are built on it.
//!
//! - [`escape`]: text from outside the program, made safe for a terminal, a table or a file;
//! - [`human`]: numbers, sizes and durations as people read them;
//! - [`signals`]: the process's one handler of SIGINT, SIGTERM and SIGHUP;
//! - [`failure`]: how a command ends ([`failure::Outcome`], [`failure::Failure`]) and its exit
//!   code;
//! - [`output`]: messages on stderr and output files written all or nothing;
//! - [`progress`]: the progress bar of a long count, and its lines without a terminal;
//! - [`series`]: how a scaling series is labelled and its losses shown, in tables and plots.
//!
//! Each module imports only modules above it in this list.

#![warn(missing_docs)]

pub mod escape;
pub mod failure;
pub mod human;
pub mod output;
pub mod progress;
pub mod series;
pub mod signals;
