//! The `nqueens` command: parse, run, map the result to an exit code.

#![deny(clippy::undocumented_unsafe_blocks)]
#[macro_use]
pub mod args;
#[cfg(feature = "gpu")]
mod auto_gpu;
mod budget;
mod compare;
mod completions;
mod count;
mod counted;
mod cpu_share;
mod estimate;
mod format;
#[cfg(any(feature = "gpu", test))]
mod gpu_env;
mod known;
mod list;
mod long_run;
mod man;
mod merge;
mod names;
mod pin;
mod placement;
mod render;
mod scale;
mod session;
mod shard;
mod solve;
mod textbook;
mod threads;
pub mod usage;
mod verify;

// The fuzz targets on the command's parsers (fuzz/), run by the tests on their committed inputs.
#[cfg(all(test, unix))]
#[path = "../fuzz_entry/args.rs"]
mod fuzz_args;
#[cfg(test)]
#[path = "../fuzz_entry/inputs.rs"]
mod fuzz_inputs;
#[cfg(test)]
#[path = "../fuzz_entry/study.rs"]
mod fuzz_study;

use args::{Cli, Command};
use nqueens_ui::failure::{Failure, Outcome};
use nqueens_ui::{output, signals};

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

/// What `nqueens watch` asks the view to show, as the `watch` crate reads it.
fn watch_options(args: args::WatchArgs) -> nqueens_watch::Options {
    nqueens_watch::Options {
        n: args.n,
        algorithm: args.algorithm,
        speed: args.speed,
        pause_on_solution: args.pause_on_solution,
        frames: args.frames,
        format: args.format,
        max_steps: args.max_steps,
        cast: args.cast,
        size: args.size,
        html: args.html,
    }
}

/// Runs the parsed command, writing its results to `out`.
pub fn run(cli: Cli, out: &mut dyn Write) -> Result<Outcome, Failure> {
    let ran = match cli.command {
        Command::Count(args) => count::run(&args, out),
        Command::Known(args) => known::run(&args, out),
        Command::Verify(args) => verify::run(&args, out),
        Command::Compare(args) => compare::run(&args, out),
        Command::Scale(args) => scale::run(&args, out),
        Command::Solve(args) => solve::run(&args, out),
        Command::List(args) => list::run(&args, out),
        Command::Merge(args) => merge::run(&args, out),
        Command::Estimate(args) => estimate::run(&args, out),
        Command::Completions(args) => completions::run(&args, out),
        Command::Man(args) => man::run(&args, out),
        Command::Watch(args) => nqueens_watch::run(&watch_options(args), out),
    };
    let outcome = match ran {
        // What the command wrote is closed and kept: only the message is left to say.
        Err(Failure::Interrupted(why)) => {
            output::message(why);
            Outcome::Interrupted
        }
        ran => ran?,
    };
    out.flush()?;
    Ok(outcome)
}

use std::ffi::OsString;
use std::io::{self, BufWriter, Write};
use std::process::ExitCode;

use clap::error::ErrorKind;

fn main() -> ExitCode {
    #[cfg(feature = "gpu")]
    gpu_env::quiet_device_select();
    // First, so that an interrupt from the process's first moments ends the command as
    // interrupted (exit 130) rather than by the signal's default action; a handler that could
    // not be installed is reported once the arguments are read, as any refusal of the command.
    let watching = signals::start();
    let args: Vec<OsString> = std::env::args_os().collect();
    output::set_color(match args::color_choice(&args) {
        clap::ColorChoice::Always => anstream::ColorChoice::Always,
        clap::ColorChoice::Never => anstream::ColorChoice::Never,
        clap::ColorChoice::Auto => anstream::ColorChoice::Auto,
    });
    let parsed = args::parse(&args);
    // Results, help and version all go to stdout: with none to write to, nothing is done.
    let prints = match &parsed {
        Ok(cli) => !writes_a_file(cli),
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
    if let Err(why) = watching {
        output::error(why);
        return ExitCode::from(1);
    }
    #[cfg(feature = "gpu")]
    if let Err(why) = gpu_env::configure() {
        output::error(why);
        return ExitCode::from(2);
    }
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    match run(cli, &mut out) {
        Ok(Outcome::Success) => ExitCode::SUCCESS,
        Ok(Outcome::Negative) => ExitCode::from(1),
        Ok(Outcome::Interrupted) => ExitCode::from(130),
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
            output::error(usage::one_line(e, args));
            ExitCode::from(2)
        }
    }
}

/// Writes clap's help or version text to stdout and flushes it, reporting a failed write.
fn print_to_stdout(e: &clap::Error) -> io::Result<()> {
    e.print()?;
    io::stdout().flush()
}
