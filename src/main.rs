//! The `nqueens` command: parse, run, map the result to an exit code.

#![deny(clippy::undocumented_unsafe_blocks)]

mod cli;

use std::ffi::OsString;
use std::io::{self, BufWriter, Write};
use std::process::ExitCode;

use clap::error::ErrorKind;

use cli::{output, words};

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
        Err(e) => return usage_error(&e, &args),
    };
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
fn usage_error(e: &clap::Error, args: &[OsString]) -> ExitCode {
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
        ErrorKind::InvalidUtf8 => {
            output::error(not_utf8(args));
            ExitCode::from(2)
        }
        ErrorKind::InvalidSubcommand if first_word(args).is_some_and(|a| a.to_str().is_none()) => {
            output::error(not_utf8(args));
            ExitCode::from(2)
        }
        _ => {
            let rendered = e.render().to_string();
            output::error(one_line(&rendered, args));
            ExitCode::from(2)
        }
    }
}

/// Clap's rendered error as one line: its message, the argument it names and its tip, without
/// the usage lines, and a pointer to the help of the subcommand the usage names.
fn one_line(rendered: &str, args: &[OsString]) -> String {
    let mut message = String::new();
    let mut help = help_for(args);
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
    format!("{message} (see '{help}')")
}

/// Clap's refusal of an argument that is not UTF-8, as one line naming the first such
/// argument (its odd bytes escaped) and the help to read.
fn not_utf8(args: &[OsString]) -> String {
    let help = help_for(args);
    match args.iter().skip(1).find(|a| a.to_str().is_none()) {
        Some(arg) => format!(
            "the argument '{}' is not valid UTF-8 (see '{help}')",
            words::shorten_os(arg)
        ),
        None => format!("an argument is not valid UTF-8 (see '{help}')"),
    }
}

/// The help to read for the arguments: the subcommand's they name, else the program's.
fn help_for(args: &[OsString]) -> String {
    match subcommand_named_in(args) {
        Some(name) => format!("nqueens {name} --help"),
        None => "nqueens --help".to_string(),
    }
}

/// The first argument that is not an option (`args`: the program's name first): the
/// subcommand, when there is one.
fn first_word(args: &[OsString]) -> Option<&OsString> {
    args.iter()
        .skip(1)
        .find(|a| !a.as_encoded_bytes().starts_with(b"-"))
}

/// The subcommand the arguments name (`args`: the program's name first): the first argument
/// that is not an option, when it is one.
fn subcommand_named_in(args: &[OsString]) -> Option<&str> {
    let first = first_word(args)?.to_str()?;
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
