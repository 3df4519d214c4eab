//! The `nqueens` command: parse, run, map the result to an exit code.

#![deny(clippy::undocumented_unsafe_blocks)]

mod cli;

use std::io::{self, BufWriter, Write};
use std::process::ExitCode;

use clap::error::ErrorKind;

use cli::output;

fn main() -> ExitCode {
    let cli = match cli::args::parse() {
        Ok(cli) => cli,
        Err(e) => return usage_error(&e),
    };
    if !cli::writes_a_file(&cli) && output::stdout_was_closed() {
        output::error("standard output is closed: there is nowhere to write the results");
        return ExitCode::from(1);
    }
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
            output::error(one_line(&rendered));
            ExitCode::from(2)
        }
    }
}

/// Clap's rendered error as one line: its message, the argument it names and its tip, without
/// the usage lines, and a pointer to the help of the subcommand the usage names.
fn one_line(rendered: &str) -> String {
    let mut message = String::new();
    let mut help = match subcommand_named_in(std::env::args().skip(1)) {
        Some(name) => format!("nqueens {name} --help"),
        None => "nqueens --help".to_string(),
    };
    for line in rendered.lines().map(str::trim).filter(|l| !l.is_empty()) {
        if let Some(usage) = line.strip_prefix("Usage: ") {
            let words: Vec<&str> = usage
                .split_whitespace()
                .take_while(|w| !w.starts_with(['[', '<', '-']))
                .collect();
            help = format!("{} --help", words.join(" "));
        } else if line.starts_with("For more information") {
        } else {
            let line = line.strip_prefix("error: ").unwrap_or(line);
            if !message.is_empty() {
                let glue = message.ends_with(':') || line.starts_with('[');
                message.push_str(if glue { " " } else { "; " });
            }
            message.push_str(line);
        }
    }
    if message.is_empty() {
        message.push_str("invalid arguments");
    }
    format!("{} (see '{help}')", cli::args::shorten_long_words(&message))
}

/// The subcommand the arguments name: the first one that is not an option, when it is one.
fn subcommand_named_in(mut args: impl Iterator<Item = String>) -> Option<String> {
    let first = args.find(|a| !a.starts_with('-'))?;
    cli::args::command()
        .get_subcommands()
        .any(|c| c.get_name() == first)
        .then_some(first)
}

/// Writes clap's help or version text to stdout and flushes it, reporting a failed write.
fn print_to_stdout(e: &clap::Error) -> io::Result<()> {
    e.print()?;
    io::stdout().flush()
}
