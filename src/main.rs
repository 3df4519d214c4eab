//! The `nqueens` command: parse, run, map the result to an exit code.

mod app;
mod cli;

use std::io::{self, BufWriter, Write};
use std::process::ExitCode;

use clap::error::ErrorKind;

use app::output;

fn main() -> ExitCode {
    let cli = match cli::parse() {
        Ok(cli) => cli,
        Err(e) => return usage_error(&e),
    };
    if !app::writes_a_file(&cli) && output::stdout_was_closed() {
        output::error("standard output is closed: there is nowhere to write the results");
        return ExitCode::from(1);
    }
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    match app::run(cli, &mut out) {
        Ok(app::Outcome::Success) => ExitCode::SUCCESS,
        Ok(app::Outcome::Negative) => ExitCode::from(1),
        Ok(app::Outcome::Interrupted) => ExitCode::from(130),
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
/// every other parse error becomes one line on stderr and exit code 2.
fn usage_error(e: &clap::Error) -> ExitCode {
    match e.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => match print_to_stdout(e) {
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
            let rendered = e.render().to_string();
            let first = rendered.lines().next().unwrap_or("invalid arguments");
            let first = first.strip_prefix("error: ").unwrap_or(first);
            output::error(format_args!(
                "{} (see 'nqueens --help')",
                cli::shorten_long_words(first)
            ));
            ExitCode::from(2)
        }
    }
}

/// Writes clap's help or version text to stdout and flushes it, reporting a failed write.
fn print_to_stdout(e: &clap::Error) -> io::Result<()> {
    e.print()?;
    io::stdout().flush()
}
