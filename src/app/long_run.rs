//! Long counts on the command line: progress bar, `--checkpoint`, and clean interrupts.
//!
//! The first SIGINT or SIGTERM raises a stop flag: workers finish the task they are on, the
//! checkpoint is synced, and the command prints how to resume (or, without a checkpoint, how
//! much work was lost) and exits with code 130. A second interrupt exits at once.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

use nqueens::engine::plan::Plan;
use nqueens::engine::run::TaskOutcome;
use nqueens::export::seconds;
use nqueens::progress::Progress;
use nqueens::{CountOptions, CountRun, RunControl, Watcher, count_with};

use super::Failure;
use crate::cli::CountArgs;

/// Raised by the first interrupt.
static STOP: AtomicBool = AtomicBool::new(false);

/// How the boards of one `count` command are run.
pub struct LongRun {
    checkpoint: Option<PathBuf>,
    quiet: bool,
}

impl LongRun {
    /// Checks the long-run options and installs the interrupt handler.
    pub fn new(args: &CountArgs) -> Result<LongRun, Failure> {
        if args.checkpoint.is_some() && args.boards.0.len() != 1 {
            return Err(Failure::Usage(
                "--checkpoint needs exactly one n (one file per board): run each board with \
                 its own file"
                    .to_string(),
            ));
        }
        // Without a handler an interrupt simply ends the process, which loses nothing recorded.
        let _ = ctrlc::set_handler(|| {
            if STOP.swap(true, Ordering::SeqCst) {
                eprintln!("nqueens: interrupted again, quitting at once");
                std::process::exit(130);
            }
            eprintln!(
                "nqueens: stopping after the running tasks (press Ctrl-C again to quit at once)"
            );
        });
        Ok(LongRun {
            checkpoint: args.checkpoint.clone(),
            quiet: args.quiet,
        })
    }

    /// Counts the `n`-board; `None` when an interrupt stopped it (the reason is on stderr).
    pub fn count(&self, n: u32, options: &CountOptions) -> Result<Option<CountRun>, Failure> {
        let progress = Progress::on_terminal(!self.quiet, &format!("n = {n}"));
        let watcher = Announce {
            progress: &progress,
            checkpoint: self.checkpoint.as_deref(),
            quiet: self.quiet,
        };
        let control = RunControl {
            checkpoint: self.checkpoint.as_deref(),
            stop: Some(&STOP),
            watcher: Some(&watcher),
        };
        let result = count_with(n, options, &control);
        progress.finish();
        let run = result.map_err(|e| match e {
            nqueens::Error::Checkpoint(c) if c.is_refusal() => Failure::Usage(c.to_string()),
            e => Failure::Engine(e),
        })?;
        if run.complete {
            return Ok(Some(run));
        }
        eprintln!("{}", interrupted_message(&run, self.checkpoint.as_deref()));
        Ok(None)
    }
}

/// Says on stderr what a checkpoint already holds, then drives the progress bar.
struct Announce<'a> {
    progress: &'a Progress,
    checkpoint: Option<&'a Path>,
    quiet: bool,
}

impl Watcher for Announce<'_> {
    fn start(&self, plan: &Plan, resumed: &[TaskOutcome]) {
        if let Some(path) = self.checkpoint
            && !self.quiet
            && !resumed.is_empty()
        {
            eprintln!(
                "nqueens: {}: resuming, {} of {} tasks already counted",
                path.display(),
                resumed.len(),
                plan.tasks.len()
            );
        }
        self.progress.start(plan, resumed);
    }

    fn task_done(&self, outcome: &TaskOutcome) {
        self.progress.task_done(outcome);
    }
}

/// What an interrupted count tells the user: how to resume, or what was lost.
fn interrupted_message(run: &CountRun, checkpoint: Option<&Path>) -> String {
    let done = run.resumed_tasks + run.searched_tasks;
    let (n, tasks) = (run.counts.n, run.counts.tasks);
    match checkpoint {
        Some(path) => format!(
            "nqueens: interrupted: n = {n}, {done} of {tasks} tasks are counted and saved in {}\n\
             nqueens: resume with: {}",
            path.display(),
            shell_command(std::env::args_os())
        ),
        None => format!(
            "nqueens: interrupted: n = {n} stopped after {done} of {tasks} tasks; their {} of \
             counting ({} elapsed) is lost\n\
             nqueens: to keep finished tasks across interrupts, add --checkpoint FILE (rerun the \
             same command to resume)",
            seconds(run.search_time.as_secs_f64()),
            seconds(run.counts.elapsed.as_secs_f64()),
        ),
    }
}

/// The command line, quoted so that a POSIX shell reads it back as the same arguments.
fn shell_command(args: impl IntoIterator<Item = OsString>) -> String {
    args.into_iter()
        .map(|a| shell_quote(&a.to_string_lossy()))
        .collect::<Vec<_>>()
        .join(" ")
}

fn shell_quote(arg: &str) -> String {
    let plain = !arg.is_empty()
        && arg
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c));
    if plain {
        arg.to_string()
    } else {
        format!("'{}'", arg.replace('\'', r"'\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nqueens::Counts;
    use std::time::Duration;

    fn interrupted() -> CountRun {
        CountRun {
            counts: Counts {
                n: 16,
                total: 1000,
                unique: 0,
                tasks: 9844,
                elapsed: Duration::from_secs(3),
            },
            complete: false,
            resumed_tasks: 100,
            searched_tasks: 23,
            search_time: Duration::from_millis(5500),
        }
    }

    #[test]
    fn arguments_are_quoted_only_when_a_shell_needs_it() {
        let args = [
            "nqueens",
            "count",
            "16",
            "--checkpoint",
            "my run's.ckpt",
            "",
        ];
        assert_eq!(
            shell_command(args.iter().map(OsString::from)),
            r"nqueens count 16 --checkpoint 'my run'\''s.ckpt' ''"
        );
    }

    #[test]
    fn without_a_checkpoint_the_lost_work_and_the_remedy_are_named() {
        let text = interrupted_message(&interrupted(), None);
        assert!(text.contains("123 of 9844 tasks"), "{text}");
        assert!(text.contains("5.500 s of counting"), "{text}");
        assert!(text.contains("--checkpoint FILE"), "{text}");
    }

    #[test]
    fn with_a_checkpoint_the_file_and_the_resume_command_are_named() {
        let text = interrupted_message(&interrupted(), Some(Path::new("n16.ckpt")));
        assert!(text.contains("saved in n16.ckpt"), "{text}");
        assert!(text.contains("resume with: "), "{text}");
    }
}
