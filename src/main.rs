//! The `nqueens` command: parse, run, map the result to an exit code.

#![deny(clippy::undocumented_unsafe_blocks)]

mod cli;

use std::ffi::OsString;
use std::io::{self, BufWriter, Write};
use std::process::ExitCode;

use clap::error::ErrorKind;

use cli::output;

fn main() -> ExitCode {
    let args: Vec<OsString> = std::env::args_os().collect();
    output::set_color(cli::args::color_choice(&args));
    let parsed = cli::args::parse(&args);
    // Results, help and version all go to stdout: with none to write to, nothing is done.
    let prints = match &parsed {
        Ok(cli) => !cli::writes_a_file(cli),
        Err(e) => matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion),
    };
    if prints && output::stdout_was_closed() {
        output::error("standard output is closed: there is nowhere to write the results");
        return ExitCode::from(1);
    }
    let cli = match parsed {
        Ok(cli) => cli,
        Err(e) => return usage_error(e, &args),
    };
    output::set_quiet(cli.quiet);
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    match cli::run(cli, &mut out) {
        Ok(cli::Outcome::Success) => ExitCode::SUCCESS,
        Ok(cli::Outcome::Negative) => ExitCode::from(1),
        Ok(cli::Outcome::Interrupted) => ExitCode::from(130),
        Err(failure) if failure.is_broken_pipe() => ExitCode::SUCCESS,
        Err(failure) => {
            // Drop what is buffered: a failed command prints no half-written results.
            std::mem::forget(out.into_parts());
            output::error(&failure);
            ExitCode::from(failure.exit_code())
        }
    }
}

/// Help and version go to stdout as clap writes them (a failed write is an error, exit 1);
/// every other parse error becomes one line on stderr and exit code 2 (`args`: the arguments
/// parsed, the program's name first).
fn usage_error(e: clap::Error, args: &[OsString]) -> ExitCode {
    match e.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => match print_to_stdout(&e) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
            Err(e) => {
                output::error(format_args!("cannot write output: {e}"));
                ExitCode::from(1)
            }
        },
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            let _ = e.print();
            ExitCode::from(2)
        }
        _ => {
            output::error(cli::usage::one_line(e, args));
            ExitCode::from(2)
        }
    }
}

/// Writes clap's help or version text to stdout and flushes it, reporting a failed write.
fn print_to_stdout(e: &clap::Error) -> io::Result<()> {
    e.print()?;
    io::stdout().flush()
}
