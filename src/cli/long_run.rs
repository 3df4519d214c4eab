//! Long counts on the command line: progress bar, `--checkpoint`, and clean interrupts.
//!
//! The first SIGINT or SIGTERM raises a stop flag: workers finish the task they are on, the
//! checkpoint is synced, and the command prints how to resume (or, without a checkpoint, how
//! much work was lost) and exits with code 130. A second interrupt exits at once.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::cli::format::{RecordStream, TableRow, seconds};
use crate::cli::progress::{Notices, Progress};
use nqueens::engine::plan::Plan;
use nqueens::engine::run::TaskOutcome;
use nqueens::journal::JournalError;
use nqueens::{CountOptions, CountRun, RunControl, Watcher, count_with};
use serde::Serialize;

use super::Failure;
use super::count::announce_long_counts;
use super::output;
use crate::cli::args::CountArgs;

/// Raised by the first interrupt.
static STOP: AtomicBool = AtomicBool::new(false);

/// Whether a task of the current count has finished, so that stopping after the running tasks
/// keeps work; until then an interrupt ends the process at once.
static WORKING: AtomicBool = AtomicBool::new(false);

/// Whether a board's result has been written, so that an interrupt must let the command close
/// its output (the table's border, the JSON array) instead of ending the process at once.
static WRITTEN: AtomicBool = AtomicBool::new(false);

/// Records that a result has been written: from now on an interrupt lets the command close its
/// output.
pub fn result_written() {
    WRITTEN.store(true, Ordering::SeqCst);
}

/// The bar of the count that runs now, so that the interrupt handler prints its notices on lines
/// of their own rather than after the bar.
static BAR: Mutex<Option<Notices>> = Mutex::new(None);

/// Prints `line` on stderr clear of the progress bar; `last`: the process exits next, so the bar
/// is removed rather than redrawn below the line.
fn notice(line: &str, last: bool) {
    let bar = BAR.lock().unwrap_or_else(|e| e.into_inner()).clone();
    match bar {
        Some(bar) if last => bar.after(|| output::message(line)),
        Some(bar) => bar.above(|| output::message(line)),
        None => output::message(line),
    }
}

/// How the boards of one `count` command are run.
pub struct LongRun {
    checkpoint: Option<Journals>,
    quiet: bool,
    shard: Option<nqueens::journal::shard::Shard>,
    /// Whether each board says when it needs more than a day (one board: once the checkpoint
    /// is accepted; several boards are announced together up front).
    announce: bool,
}

impl LongRun {
    /// Checks the long-run options and installs the interrupt handler.
    pub fn new(args: &CountArgs) -> Result<LongRun, Failure> {
        if args.shard.is_some() && args.boards.0.len() != 1 {
            return Err(Failure::Usage(
                "--shard counts one board: give one n (run each board's shards separately)"
                    .to_string(),
            ));
        }
        install_interrupt_handler();
        let shard = super::shard::resolve(args)?;
        let checkpoint = match &args.checkpoint {
            Some(path) => Some(Journals::new(path, args.boards.0.len())?),
            None => None,
        };
        Ok(LongRun {
            checkpoint,
            quiet: args.quiet,
            shard,
            announce: args.boards.0.len() == 1,
        })
    }

    /// A run of boards without checkpoint, shard or progress bar (for `verify`), that an
    /// interrupt stops like a count.
    pub fn quiet() -> LongRun {
        install_interrupt_handler();
        LongRun {
            checkpoint: None,
            quiet: true,
            shard: None,
            announce: false,
        }
    }

    /// Counts the `n`-board whose record goes to `stream`; `None` when an interrupt stopped it.
    /// An interrupt or an error first closes what `stream` has written, so the output stays
    /// whole (a closed table, a closed JSON array).
    pub fn count_for<T: Serialize + TableRow>(
        &self,
        n: u32,
        options: &CountOptions,
        stream: &mut RecordStream<'_, T>,
    ) -> Result<Option<CountRun>, Failure> {
        let run = self.count(n, options);
        if !matches!(run, Ok(Some(_))) {
            stream.finish()?;
        }
        run
    }

    /// Counts the `n`-board; `None` when an interrupt stopped it (the reason is on stderr).
    pub fn count(&self, n: u32, options: &CountOptions) -> Result<Option<CountRun>, Failure> {
        WORKING.store(false, Ordering::SeqCst);
        if STOP.load(Ordering::SeqCst) {
            output::message(format_args!("nqueens: interrupted before n = {n} started"));
            return Ok(None);
        }
        let journal = self.checkpoint.as_ref().map(|j| j.path(n));
        let progress = Progress::on_terminal(!self.quiet, &format!("n = {n}"));
        *BAR.lock().unwrap_or_else(|e| e.into_inner()) = Some(progress.notices());
        let watcher = Announce {
            progress: &progress,
            checkpoint: journal.as_deref(),
            quiet: self.quiet,
            announce: self.announce.then_some((n, options.threads)),
            n,
            options: *options,
        };
        let control = RunControl {
            journal: journal.as_deref(),
            stop: Some(&STOP),
            watcher: Some(&watcher),
            shard: self.shard,
        };
        let result = count_with(n, options, &control);
        WORKING.store(false, Ordering::SeqCst);
        *BAR.lock().unwrap_or_else(|e| e.into_inner()) = None;
        progress.finish();
        let run = result.map_err(|e| match e {
            nqueens::Error::Journal(c) if c.is_refusal() => Failure::Usage(refusal(&c)),
            e => Failure::Engine(e),
        })?;
        if run.complete {
            return Ok(Some(run));
        }
        output::message(interrupted_message(&run, journal.as_deref()));
        Ok(None)
    }
}

/// Installs the handler of SIGINT and SIGTERM: the first raises the stop flag (or ends the
/// process at once when nothing would be kept by waiting), the second ends it at once. Without
/// a handler an interrupt simply ends the process, which loses nothing recorded.
fn install_interrupt_handler() {
    let _ = ctrlc::set_handler(|| {
        if STOP.swap(true, Ordering::SeqCst) {
            notice("nqueens: interrupted again, quitting at once", true);
            std::process::exit(130);
        }
        if !WORKING.load(Ordering::SeqCst) && !WRITTEN.load(Ordering::SeqCst) {
            // No task has finished since the workers were asked for (they may still be
            // starting): nothing would be kept by waiting.
            notice(
                "nqueens: interrupted before any task finished; nothing is lost",
                true,
            );
            std::process::exit(130);
        }
        notice(
            "nqueens: stopping after the running tasks (press Ctrl-C again to quit at once)",
            false,
        );
    });
}

/// Where `--checkpoint PATH` keeps each board's journal: PATH itself for one board; for a
/// directory (an existing one, or a path ending in `/`, created when missing) `nN.ckpt` in it;
/// for several boards otherwise, PATH with `-nN` before its extension (`run.ckpt` →
/// `run-n12.ckpt`). The names depend only on PATH and n, so the same command resumes.
struct Journals {
    path: PathBuf,
    directory: bool,
    several: bool,
}

impl Journals {
    fn new(path: &Path, boards: usize) -> Result<Journals, Failure> {
        let named_as_directory = path.as_os_str().to_string_lossy().ends_with('/');
        if named_as_directory && !path.is_dir() {
            std::fs::create_dir_all(path).map_err(|e| {
                Failure::Usage(format!(
                    "cannot create the directory {}: {e}",
                    path.display()
                ))
            })?;
        }
        Ok(Journals {
            path: path.to_path_buf(),
            directory: path.is_dir(),
            several: boards > 1,
        })
    }

    /// The journal of the `n`-board.
    fn path(&self, n: u32) -> PathBuf {
        if self.directory {
            return self.path.join(format!("n{n}.ckpt"));
        }
        if !self.several {
            return self.path.clone();
        }
        let stem = self.path.file_stem().unwrap_or_default().to_string_lossy();
        let name = match self.path.extension() {
            Some(ext) => format!("{stem}-n{n}.{}", ext.to_string_lossy()),
            None => format!("{stem}-n{n}"),
        };
        self.path.with_file_name(name)
    }
}

/// Says on stderr what a checkpoint already holds and whether the count will take more than an
/// hour, then drives the progress bar.
struct Announce<'a> {
    progress: &'a Progress,
    checkpoint: Option<&'a Path>,
    quiet: bool,
    /// The board and thread count, when a count longer than a day is to be announced.
    announce: Option<(u32, usize)>,
    /// The board and options of the count, for the estimate of its cost.
    n: u32,
    options: CountOptions,
}

impl Watcher for Announce<'_> {
    fn start(&self, plan: &Plan, resumed: &[TaskOutcome]) {
        // After the checkpoint opened, before the search: bad input is refused first.
        // The sampled estimate where it applies; the rough one of `budget` otherwise.
        let estimated = super::estimate::long_count_warning(self.n, &self.options);
        if let Some(note) = &estimated {
            output::message(format_args!("{note}"));
        }
        if let Some(path) = self.checkpoint
            && !self.quiet
            && !resumed.is_empty()
        {
            output::message(format_args!(
                "nqueens: {}: resuming, {} of {} tasks already counted",
                path.display(),
                resumed.len(),
                plan.tasks.len()
            ));
        }
        if let Some((n, threads)) = self.announce.filter(|_| estimated.is_none()) {
            let size = |index: usize| plan.tasks[index].size_hint.max(1) as f64;
            let total: f64 = (0..plan.tasks.len()).map(size).sum();
            let done: f64 = resumed.iter().map(|o| size(o.index)).sum();
            let remaining = if total > 0.0 { 1.0 - done / total } else { 1.0 };
            announce_long_counts(&[n], threads, remaining, self.checkpoint.is_some());
        }
        self.progress.start(plan, resumed);
    }

    fn task_done(&self, outcome: &TaskOutcome) {
        WORKING.store(true, Ordering::SeqCst);
        self.progress.task_done(outcome);
    }
}

/// Why a journal was refused, naming what differs between the file and this count.
fn refusal(error: &JournalError) -> String {
    let differ: Vec<String> = error
        .differences()
        .into_iter()
        .map(|(found, expected)| format!("{found} in the file, {expected} here"))
        .collect();
    if differ.is_empty() {
        return error.to_string();
    }
    format!("{error} (it differs in {})", differ.join("; "))
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
    use nqueens::journal::Header;
    use std::time::Duration;

    fn interrupted() -> CountRun {
        CountRun {
            counts: Counts {
                n: 16,
                total: 1000,
                unique: None,
                tasks: 9844,
                kernel: nqueens::Kernel::PortableLanes,
                elapsed: Duration::from_secs(3),
            },
            fingerprint: 0,
            plan_tasks: 9844,
            shard: nqueens::journal::shard::Shard::WHOLE,
            complete: false,
            resumed_tasks: 100,
            resumed_total: 700,
            searched_tasks: 23,
            search_time: Duration::from_millis(5500),
        }
    }

    #[test]
    fn a_journal_made_with_another_plan_says_what_differs() {
        let here = Header {
            plan_version: 3,
            n: 20,
            strategy: "mirror".into(),
            tasks: 4096,
            fingerprint: 7,
            shard: nqueens::journal::shard::Shard::WHOLE,
        };
        let mismatch = |found: Header, expected: Header| JournalError::Mismatch {
            path: PathBuf::from("n20.ckpt"),
            found: Box::new(found),
            expected: Box::new(expected),
        };
        let text = refusal(&mismatch(
            Header {
                tasks: 16000,
                ..here.clone()
            },
            here.clone(),
        ));
        assert!(
            text.contains("(it differs in 16000 tasks in the file, 4096 tasks here)"),
            "{text}"
        );
        let text = refusal(&mismatch(
            Header {
                n: 19,
                ..here.clone()
            },
            here,
        ));
        assert!(text.contains("n = 19 in the file, n = 20 here"), "{text}");
        assert!(!text.contains('\n'), "{text}");
    }

    #[test]
    fn each_board_has_its_own_journal_named_from_the_path() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("run.ckpt");
        let one = Journals::new(&file, 1).unwrap();
        assert_eq!(one.path(12), file);
        let several = Journals::new(&file, 3).unwrap();
        assert_eq!(several.path(12), dir.path().join("run-n12.ckpt"));
        let bare = Journals::new(&dir.path().join("run"), 2).unwrap();
        assert_eq!(bare.path(9), dir.path().join("run-n9"));
        let inside = Journals::new(dir.path(), 1).unwrap();
        assert_eq!(inside.path(20), dir.path().join("n20.ckpt"));
        let created = dir.path().join("journals/");
        let new_dir = Journals::new(&created, 2).unwrap();
        assert!(created.is_dir());
        assert_eq!(new_dir.path(8), created.join("n8.ckpt"));
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
