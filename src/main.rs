//! The `nqueens` command: parse, run, map the result to an exit code.

mod app;
mod cli;

use std::io::{self, BufWriter};
use std::process::ExitCode;

use clap::Parser;
use clap::error::ErrorKind;

fn main() -> ExitCode {
    let cli = match cli::Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return usage_error(&e),
    };
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
            eprintln!("nqueens: error: {failure}");
            ExitCode::from(failure.exit_code())
        }
    }
}

/// Help and version go to stdout as clap writes them; every other parse error becomes one line
/// on stderr and exit code 2.
fn usage_error(e: &clap::Error) -> ExitCode {
    match e.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
            let _ = e.print();
            ExitCode::SUCCESS
        }
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            let _ = e.print();
            ExitCode::from(2)
        }
        _ => {
            let rendered = e.render().to_string();
            let first = rendered.lines().next().unwrap_or("invalid arguments");
            let first = first.strip_prefix("error: ").unwrap_or(first);
            eprintln!("nqueens: error: {first} (see 'nqueens --help')");
            ExitCode::from(2)
        }
    }
}
