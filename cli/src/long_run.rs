//! Long counts on the command line: interrupts, `--checkpoint` journals and `--shard`, and what
//! a refused or stopped count says. The flow of one board is `session::Session::board`'s.
//!
//! The first SIGINT or SIGTERM raises a stop flag: workers drop the tasks they are on (within
//! milliseconds: a resumed count searches them again), the journal is synced with the run's
//! time, and the command prints how to resume (or, without a journal, how much work was lost)
//! and exits with code 130. A second interrupt exits at once.

use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use nqueens::CountRun;
use nqueens::journal::Shard;
use nqueens::journal::{Header, HeaderField, JournalError};
use nqueens_ui::progress::Notices;

use crate::args::CountArgs;
use nqueens_ui::escape;
use nqueens_ui::failure::Failure;
use nqueens_ui::human::{duration, grouped};
use nqueens_ui::{human, output};

/// The interrupt of one command: the stop flag its first signal raises, and what the handler
/// needs to know to decide between stopping the workers and quitting at once.
#[derive(Clone)]
pub struct Interrupt(Arc<Shared>);

#[derive(Default)]
struct Shared {
    /// Raised by the first interrupt, once it has said so.
    stop: AtomicBool,
    /// Whether an interrupt has come (raised before the handler says anything).
    received: AtomicBool,
    /// Whether stopping the workers keeps work: a task of the current count has finished, or
    /// its journal will time the stopped run; until then an interrupt ends the process at once.
    working: AtomicBool,
    /// Whether a board's result has been written, so that an interrupt must let the command
    /// close its output (the table's border, the JSON array) instead of ending the process.
    written: AtomicBool,
    /// The bar of the count that runs now, so that the handler prints its notices on lines of
    /// their own rather than after the bar.
    bar: Mutex<Option<Notices>>,
    /// What the bar (or stderr) says while the workers stop: [`DROPPING_TASKS`] or
    /// [`FINISHING_SAMPLES`].
    stopping: &'static str,
    /// What an interrupt keeps once one has finished: a `task`, an estimate's `sample` or a
    /// study's `timed run`.
    kept: &'static str,
}

/// What a count's interrupt says while the workers stop: they drop the tasks they are on,
/// within milliseconds.
pub const DROPPING_TASKS: &str = "stopping: the running tasks are dropped";

/// What an estimate's interrupt says while the workers stop: they finish their samples.
pub const FINISHING_SAMPLES: &str = "stopping after the running samples";

/// The line the bar (or stderr) shows while the workers stop: `stopping`, and how to quit at
/// once (`again`).
fn stopping_line(stopping: &str, again: &str) -> String {
    format!("{stopping} ({again} to quit at once)")
}

impl Interrupt {
    /// Makes SIGINT and SIGTERM stop the count: the first raises the stop flag (or ends the
    /// process at once when nothing would be kept by waiting), the second ends it at once.
    /// Without this an interrupt simply ends the process, which loses nothing recorded.
    pub fn install() -> Interrupt {
        Interrupt::install_saying(DROPPING_TASKS, "task")
    }

    /// [`Interrupt::install`] for a command whose interrupt says `stopping` while the workers
    /// stop ([`FINISHING_SAMPLES`]: an estimate's) and keeps each `kept` (`sample`, a study's
    /// `timed run`), as the notice of an interrupt before any says.
    pub fn install_saying(stopping: &'static str, kept: &'static str) -> Interrupt {
        let interrupt = Interrupt(Arc::new(Shared {
            stopping,
            kept,
            ..Shared::default()
        }));
        let shared = Arc::clone(&interrupt.0);
        nqueens_ui::signals::on_interrupt(move || shared.interrupted());
        interrupt
    }

    /// The stop flag the workers read (a count's, inside its tasks too).
    pub fn flag(&self) -> &AtomicBool {
        &self.0.stop
    }

    /// Whether an interrupt has been received.
    pub fn is_raised(&self) -> bool {
        self.0.stop.load(Ordering::SeqCst)
    }

    /// A board starts (`bar`: its progress bar) or ends (`None`): until a task of it finishes,
    /// an interrupt keeps nothing by waiting.
    pub fn board(&self, bar: Option<Notices>) {
        self.0.working.store(false, Ordering::SeqCst);
        *self.0.bar.lock().unwrap_or_else(|e| e.into_inner()) = bar;
    }

    /// Records that a task of the current board (what an interrupt keeps) has finished: from now
    /// on an interrupt stops the workers rather than the process. Written once per board, not
    /// once per task: a store to the flag would take its cache line, which holds the stop flag
    /// that every worker reads, from the other cores.
    pub fn task_finished(&self) {
        if !self.0.working.load(Ordering::Relaxed) {
            self.0.working.store(true, Ordering::SeqCst);
        }
    }

    /// Records that the current board's search has started with a journal, which keeps the time
    /// of a stopped run (the tasks it dropped included): from now on an interrupt stops the
    /// workers, within milliseconds, rather than the process.
    pub fn journal_timing(&self) {
        self.task_finished();
    }

    /// Records that a result has been written: from now on an interrupt lets the command close
    /// its output.
    pub fn result_written(&self) {
        self.0.written.store(true, Ordering::SeqCst);
    }
}

impl Shared {
    /// What a signal does.
    fn interrupted(&self) {
        if self.received.swap(true, Ordering::SeqCst) {
            self.notice("nqueens: interrupted again, quitting at once", true);
            std::process::exit(130);
        }
        if !self.working.load(Ordering::SeqCst) && !self.written.load(Ordering::SeqCst) {
            // No task has finished since the workers were asked for (they may still be
            // starting), and no journal times the run: nothing would be kept by waiting.
            self.notice(
                &format!(
                    "nqueens: interrupted before any {} was kept; nothing is lost",
                    self.kept
                ),
                true,
            );
            std::process::exit(130);
        }
        let again = nqueens_ui::signals::received().again();
        let stopping = stopping_line(self.stopping, again);
        // Shown in the bar, where there is one: the command closes its output (the table's
        // border, the JSON array) before it says anything on lines of its own.
        let bar = self.bar.lock().unwrap_or_else(|e| e.into_inner()).clone();
        if !bar.is_some_and(|bar| bar.show(&stopping)) {
            output::message(format_args!("nqueens: {stopping}"));
        }
        // Only now: a stopped command may end the process before a later line is written.
        self.stop.store(true, Ordering::SeqCst);
    }

    /// Prints `line` on stderr clear of the progress bar; `last`: the process exits next, so
    /// the bar is removed rather than redrawn below the line.
    fn notice(&self, line: &str, last: bool) {
        let bar = self.bar.lock().unwrap_or_else(|e| e.into_inner()).clone();
        match bar {
            Some(bar) if last => bar.after(|| output::message(line)),
            Some(bar) => bar.above(|| output::message(line)),
            None => output::message(line),
        }
    }
}

/// How the boards of one `count` command are run: where their journals go, which shard, and
/// what is said on stderr.
pub struct LongRun {
    journals: Option<Journals>,
    /// Count only this shard of each board.
    pub shard: Option<Shard>,
    /// The shard a Slurm array task chose, said once the board accepts it (`--shard slurm`).
    pub shard_note: Option<String>,
    /// Whether each board says when it needs more than a day (one board: once the journal is
    /// accepted; several boards are announced together up front).
    pub announce: bool,
    /// How to keep finished tasks across interrupts, said when a board without a journal is
    /// interrupted (a command without `--checkpoint` names another way).
    pub keep_advice: &'static str,
    /// The pool of workers placed on chosen CPUs (`--pin`), instead of the process's own.
    pub pool: Option<std::sync::Arc<rayon::ThreadPool>>,
}

/// How `count` keeps finished tasks across interrupts.
pub const KEEP_WITH_CHECKPOINT: &str = "to keep finished tasks across interrupts, add --checkpoint FILE (rerun the same command to \
     resume)";

impl LongRun {
    /// Checks the long-run options.
    pub fn new(args: &CountArgs) -> Result<LongRun, Failure> {
        let shard = super::shard::resolve(args)?;
        let journals = match &args.checkpoint {
            Some(path) => Some(Journals::new(path, args.boards.0.len(), shard)?),
            None => None,
        };
        Ok(LongRun {
            journals,
            shard_note: shard.and_then(|shard| super::shard::slurm_note(args, shard)),
            shard,
            announce: args.boards.0.len() == 1,
            keep_advice: KEEP_WITH_CHECKPOINT,
            pool: None,
        })
    }

    /// Boards without journal or shard (for `verify`); `keep_advice` says how to keep finished
    /// tasks across interrupts instead.
    pub fn without_journal(keep_advice: &'static str) -> LongRun {
        LongRun {
            journals: None,
            shard: None,
            shard_note: None,
            announce: false,
            keep_advice,
            pool: None,
        }
    }

    /// The journal of the `n`-board, if the boards have journals.
    pub fn journal(&self, n: u32) -> Option<PathBuf> {
        self.journals.as_ref().map(|j| j.path(n))
    }
}

/// The failure of a count: a refused journal is a file failure (exit 1; a mismatch names what
/// differs between the file and this count), a refused shard a usage error (exit 2).
pub fn failure(error: nqueens::Error) -> Failure {
    match error {
        nqueens::Error::Journal(e) if e.is_refusal() => Failure::File(refusal(&e)),
        nqueens::Error::Shard(e) => Failure::Usage(format!("--shard: {e}")),
        e => Failure::Engine(e),
    }
}

/// Where `--checkpoint PATH` keeps each board's journal: PATH itself for one board; for a
/// directory (an existing one, or a path ending in `/`, created when missing) `nN.ckpt` in it,
/// or `nN-sK-of-M.ckpt` for shard K/M (so that the shards of a board can share a directory);
/// for several boards otherwise, PATH with `-nN` before its extension (`run.ckpt` →
/// `run-n12.ckpt`). The names depend only on PATH, n and the shard, so the same command
/// resumes; PATH's bytes are kept as they are (a name need not be UTF-8).
struct Journals {
    path: PathBuf,
    directory: bool,
    several: bool,
    shard: Option<Shard>,
}

impl Journals {
    fn new(path: &Path, boards: usize, shard: Option<Shard>) -> Result<Journals, Failure> {
        let named_as_directory = path.as_os_str().as_encoded_bytes().ends_with(b"/");
        // A link is followed to a directory only where PATH says it is one (`DIR/`) and the
        // link is this user's: another user's link (planted in /tmp) would lead the journals
        // into a directory of their choosing. Without the `/`, a link is the journal's path
        // itself, which the journal refuses.
        let itself = path.components().as_path();
        if named_as_directory
            && std::fs::symlink_metadata(itself).is_ok_and(|m| m.file_type().is_symlink())
            && let Some(owner) = nqueens_files::foreign_owner(itself)
        {
            return Err(Failure::File(format!(
                "cannot keep the journals in {}: it is a symbolic link that belongs to {owner}, \
                 not to you (name the directory itself)",
                path.display()
            )));
        }
        // Nor is another user's link further up (judged again as each journal is opened): the
        // directory is opened, and what is missing of it created, one component at a time
        // relative to the last, so that no directory is created through such a link.
        if named_as_directory {
            nqueens_files::Directory::create_all(path).map_err(|why| match why {
                nqueens_files::Refusal::Io(e) => Failure::File(format!(
                    "cannot create the directory {}: {e}",
                    escape::path(path)
                )),
                why => Failure::File(format!(
                    "cannot keep the journals in {}: {why}",
                    escape::path(path)
                )),
            })?;
        }
        // A journal's own directory is not made up: a mistyped one is named instead.
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty())
            && !named_as_directory
            && !dir.is_dir()
        {
            return Err(Failure::File(format!(
                "cannot open journal {}: the directory {} does not exist (a --checkpoint \
                 path ending in / is a directory, created when missing)",
                path.display(),
                dir.display()
            )));
        }
        Ok(Journals {
            path: path.to_path_buf(),
            // `DIR/` was opened (or created) as a directory just above.
            directory: named_as_directory
                || std::fs::symlink_metadata(path).is_ok_and(|m| m.is_dir()),
            several: boards > 1,
            shard: shard.filter(|s| !s.is_whole()),
        })
    }

    /// The journal of the `n`-board.
    fn path(&self, n: u32) -> PathBuf {
        if self.directory {
            return self.path.join(journal_name(n, self.shard));
        }
        if !self.several {
            return self.path.clone();
        }
        let mut name = self.path.file_stem().unwrap_or_default().to_os_string();
        name.push(format!("-n{n}"));
        if let Some(ext) = self.path.extension() {
            name.push(".");
            name.push(ext);
        }
        self.path.with_file_name(name)
    }
}

/// The name of the `n`-board's journal in a `--checkpoint DIR/` directory: `nN.ckpt`, or
/// `nN-sK-of-M.ckpt` for shard K of M (`None`: the whole board).
pub fn journal_name(n: u32, shard: Option<Shard>) -> String {
    match shard {
        Some(shard) => format!("n{n}-s{}-of-{}.ckpt", shard.index(), shard.count()),
        None => format!("n{n}.ckpt"),
    }
}

/// What to do with a journal made for another count: use another path, and delete it only
/// when no `merge` needs it.
fn other_count_advice(found: &Header) -> String {
    if found.shard.is_whole() {
        "use another --checkpoint path, or delete it to start over".to_string()
    } else {
        format!(
            "use another --checkpoint path (keep this one: it records shard {} for nqueens merge)",
            found.shard
        )
    }
}

/// What to do with a damaged journal.
pub const DAMAGED_ADVICE: &str = "move it aside and count again (a shard's journal: count that \
                                  shard again into a new file)";

/// Why a journal was refused, in one short line with the next step: for a journal of another
/// count only the fields the user chose that differ (`n = 17, not n = 16`), or the plan's when
/// those agree; for a damaged one where and what, and what to do.
fn refusal(error: &JournalError) -> String {
    match error {
        JournalError::Mismatch {
            path,
            found,
            expected,
        } => {
            let fields = found.differing_fields(expected);
            let chosen: Vec<HeaderField> = fields
                .iter()
                .copied()
                .filter(|f| {
                    matches!(
                        f,
                        HeaderField::N | HeaderField::Strategy | HeaderField::Shard
                    )
                })
                .collect();
            // Only the plan differs: another version of nqueens made the journal.
            let plan_only = chosen.is_empty();
            let shown = if plan_only { fields } else { chosen };
            let side = |header: &Header| {
                shown
                    .iter()
                    .map(|&f| header.describe(f))
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            format!(
                "journal {} is for {}, not {}{}: {}",
                escape::path(path),
                side(found),
                side(expected),
                if plan_only {
                    " (another version of nqueens made it)"
                } else {
                    ""
                },
                other_count_advice(found)
            )
        }
        JournalError::OtherFormat { path, found } => format!(
            "journal {} is in journal format {found}, which this nqueens does not read: use \
             another --checkpoint path, or count with the version that wrote it",
            escape::path(path)
        ),
        JournalError::Corrupt {
            path,
            offset,
            damage,
        } => format!(
            "journal {} is corrupt at byte {offset}: {damage}; {DAMAGED_ADVICE}",
            escape::path(path)
        ),
        other => human::error_chain(other),
    }
}

/// What an interrupted count tells the user: how to resume, or what was lost and (`keep_advice`)
/// how to keep it; and how many running tasks the stop dropped.
pub fn interrupted_message(run: &CountRun, journal: Option<&Path>, keep_advice: &str) -> String {
    let done = grouped(run.resumed_tasks + run.searched_tasks);
    let (n, tasks) = (run.counts.n, grouped(run.counts.tasks));
    let dropped = |then: &str| match run.abandoned_tasks {
        0 => String::new(),
        k => format!(
            " ({} dropped part-way{then})",
            human::plural(k, "running task")
        ),
    };
    match journal {
        Some(path) => format!(
            "nqueens: interrupted: n = {n}, {done} of {} are counted and saved in {}{}\n\
             nqueens: resume with: {}",
            human::plural(tasks, "task"),
            escape::path(path),
            dropped(", searched again on resume"),
            shell_command(std::env::args_os())
        ),
        None => format!(
            "nqueens: interrupted: n = {n} stopped after {done} of {}{}; {} of counting \
             ({} elapsed) is lost\n\
             nqueens: {keep_advice}",
            human::plural(tasks, "task"),
            dropped(""),
            duration(run.core_time.as_secs_f64()),
            duration(run.counts.wall_time.as_secs_f64()),
        ),
    }
}

/// The command line, quoted so that a POSIX shell reads it back as the same arguments.
fn shell_command(args: impl IntoIterator<Item = OsString>) -> String {
    args.into_iter()
        .map(|a| shell_quote(&a))
        .collect::<Vec<_>>()
        .join(" ")
}

/// One argument as a shell reads it back exactly: bare when that is safe, in single quotes
/// otherwise, and as `$'…'` with `\xHH` escapes of every byte but printable ASCII when it is
/// not UTF-8 or holds a character that must not reach the terminal ([`escape::is_unsafe`]: a
/// newline, ESC, a bidirectional control) (bash, zsh, ksh and the POSIX.1-2024 shell read it;
/// U+FFFD in its place would name another file).
pub fn shell_quote(arg: &OsStr) -> String {
    let Some(arg) = arg.to_str().filter(|a| !a.chars().any(escape::is_unsafe)) else {
        let mut quoted = String::from("$'");
        for &byte in arg.as_encoded_bytes() {
            match byte {
                b'\\' | b'\'' => {
                    quoted.push('\\');
                    quoted.push(char::from(byte));
                }
                b' '..=b'~' => quoted.push(char::from(byte)),
                _ => quoted.push_str(&format!("\\x{byte:02x}")),
            }
        }
        quoted.push('\'');
        return quoted;
    };
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
    use nqueens::journal::Header;

    /// A stopped count of n = 16, as the library writes it (`CountRun` is built by counts only).
    fn interrupted() -> CountRun {
        serde_json::from_value(serde_json::json!({
            "n": 16, "total": 1000, "unique": null, "wall_time": 3.0, "threads": 2,
            "strategy": "symmetric", "kernel": "portable-lanes", "tasks": 9844,
            "resumed_tasks": 100, "resumed_total": 700, "fingerprint": "0000000000000000",
            "plan_tasks": 9844, "shard": "0/1", "complete": false, "searched_tasks": 23,
            "core_time": 5.5,
        }))
        .unwrap()
    }

    #[test]
    fn a_journal_of_another_count_names_the_one_fact_and_the_next_step() {
        let plan = nqueens::Plan::new(16, nqueens::Strategy::Symmetric, 4096).unwrap();
        let here = Header::for_plan(&plan);
        let other =
            Header::for_plan(&nqueens::Plan::new(17, nqueens::Strategy::Symmetric, 4096).unwrap());
        let mismatch = |found: Header, expected: Header| JournalError::Mismatch {
            path: PathBuf::from("runs/n16.ckpt"),
            found: Box::new(found),
            expected: Box::new(expected),
        };
        // n, tasks and the fingerprint differ; n is the one the user chose.
        let text = refusal(&mismatch(other, here.clone()));
        assert_eq!(
            text,
            "journal runs/n16.ckpt is for n = 17, not n = 16: use another --checkpoint path, \
             or delete it to start over"
        );
        assert!(text.len() < 120, "{text}");
        // Only the plan differs: made by another version.
        let mut other_plan = here.clone();
        other_plan.tasks = 16000;
        other_plan.fingerprint = nqueens::Fingerprint::new(7);
        let text = refusal(&mismatch(other_plan, here.clone()));
        assert!(
            text.contains("is for 16000 tasks, fingerprint 0000000000000007, not 4096 tasks")
                || text.contains("is for 16000 tasks"),
            "{text}"
        );
        assert!(text.contains("another version of nqueens"), "{text}");
        // A shard's journal is never to be deleted.
        let mut shard = here.clone();
        shard.shard = Shard::new(0, 2).unwrap();
        let text = refusal(&mismatch(shard, here));
        assert!(
            text.contains("is for shard 0/2, not the whole board"),
            "{text}"
        );
        assert!(
            text.contains("keep this one") && !text.contains("delete"),
            "{text}"
        );
        assert!(!text.contains('\n'), "{text}");
    }

    #[test]
    fn a_damaged_journal_says_what_to_do() {
        let text = refusal(&JournalError::Corrupt {
            path: PathBuf::from("n12.ckpt"),
            offset: 184,
            damage: nqueens::journal::Damage::Record(3),
        });
        assert_eq!(
            text,
            format!(
                "journal n12.ckpt is corrupt at byte 184: task record 3 is damaged or from another journal; {DAMAGED_ADVICE}"
            )
        );
        assert!(text.contains("count again"), "{text}");
    }

    #[test]
    fn each_board_has_its_own_journal_named_from_the_path() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("run.ckpt");
        let one = Journals::new(&file, 1, None).unwrap();
        assert_eq!(one.path(12), file);
        let several = Journals::new(&file, 3, None).unwrap();
        assert_eq!(several.path(12), dir.path().join("run-n12.ckpt"));
        let bare = Journals::new(&dir.path().join("run"), 2, None).unwrap();
        assert_eq!(bare.path(9), dir.path().join("run-n9"));
        let inside = Journals::new(dir.path(), 1, None).unwrap();
        assert_eq!(inside.path(20), dir.path().join("n20.ckpt"));
        let created = dir.path().join("journals/");
        let new_dir = Journals::new(&created, 2, None).unwrap();
        assert!(created.is_dir());
        assert_eq!(new_dir.path(8), created.join("n8.ckpt"));
    }

    #[test]
    fn each_shard_in_a_directory_has_its_own_journal() {
        let dir = tempfile::tempdir().unwrap();
        let shard = |k, m| Some(Shard::new(k, m).unwrap());
        let path = |shard| Journals::new(dir.path(), 1, shard).unwrap().path(20);
        assert_eq!(path(shard(3, 8)), dir.path().join("n20-s3-of-8.ckpt"));
        assert_eq!(path(shard(0, 1)), dir.path().join("n20.ckpt"));
        assert_ne!(path(shard(0, 2)), path(shard(1, 2)));
        // A file named by the user is the user's choice, shard or not.
        let file = dir.path().join("mine.ckpt");
        let named = Journals::new(&file, 1, shard(1, 2)).unwrap();
        assert_eq!(named.path(20), file);
    }

    #[cfg(unix)]
    #[test]
    fn names_made_from_a_path_keep_its_bytes() {
        use std::os::unix::ffi::OsStrExt;
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join(std::ffi::OsStr::from_bytes(b"r\xffn.ckpt"));
        let several = Journals::new(&file, 2, None).unwrap();
        let name = std::ffi::OsStr::from_bytes(b"r\xffn-n12.ckpt");
        assert_eq!(several.path(12), dir.path().join(name));
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

    /// A name that is not UTF-8 is quoted byte for byte, and a shell reads it back exactly.
    #[cfg(unix)]
    #[test]
    fn arguments_that_are_not_utf8_are_quoted_byte_for_byte() {
        use std::os::unix::ffi::{OsStrExt, OsStringExt};
        let odd = b"r\xff\xfe 'a\\b'\x01\xc3\xa9.ckpt".to_vec();
        let args = [
            OsString::from("nqueens"),
            OsString::from("--checkpoint"),
            OsString::from_vec(odd.clone()),
        ];
        let line = shell_command(args);
        assert_eq!(
            line,
            r"nqueens --checkpoint $'r\xff\xfe \'a\\b\'\x01\xc3\xa9.ckpt'"
        );
        let Ok(out) = std::process::Command::new("bash")
            .arg("-c")
            .arg(format!(
                "printf '%s' {}",
                shell_quote(OsStr::from_bytes(&odd))
            ))
            .output()
        else {
            println!("note: bash is unavailable; the reading back is skipped");
            return;
        };
        assert_eq!(OsStr::from_bytes(&out.stdout), OsStr::from_bytes(&odd));
    }

    /// A name with a newline, ESC or a bidirectional control is written with escapes, never
    /// sent to the terminal inside quotes, and a shell still reads it back exactly.
    #[test]
    fn arguments_with_control_characters_are_quoted_with_escapes() {
        let name = "a\nnqueens: ok\u{1b}[2J\u{202e}.ckpt";
        let quoted = shell_quote(OsStr::new(name));
        assert_eq!(quoted, r"$'a\x0anqueens: ok\x1b[2J\xe2\x80\xae.ckpt'");
        let Ok(out) = std::process::Command::new("bash")
            .arg("-c")
            .arg(format!("printf '%s' {quoted}"))
            .output()
        else {
            println!("note: bash is unavailable; the reading back is skipped");
            return;
        };
        assert_eq!(String::from_utf8_lossy(&out.stdout), name);
    }

    #[test]
    fn without_a_journal_the_lost_work_and_the_remedy_are_named() {
        let text = interrupted_message(&interrupted(), None, KEEP_WITH_CHECKPOINT);
        assert!(text.contains("123 of 9,844 tasks"), "{text}");
        assert!(
            text.contains("5.50 s of counting (3.00 s elapsed)"),
            "{text}"
        );
        assert!(text.contains("--checkpoint FILE"), "{text}");
    }

    #[test]
    fn the_running_tasks_a_stop_dropped_are_named() {
        let mut run = interrupted();
        run.abandoned_tasks = 2;
        let path = Some(Path::new("n16.ckpt"));
        let text = interrupted_message(&run, path, KEEP_WITH_CHECKPOINT);
        assert!(
            text.contains(
                "123 of 9,844 tasks are counted and saved in n16.ckpt (2 running tasks dropped \
                 part-way, searched again on resume)\n"
            ),
            "{text}"
        );
        let text = interrupted_message(&run, None, KEEP_WITH_CHECKPOINT);
        assert!(
            text.contains(
                "stopped after 123 of 9,844 tasks (2 running tasks dropped part-way); 5.50 s of \
                 counting (3.00 s elapsed) is lost"
            ),
            "{text}"
        );
        run.abandoned_tasks = 1;
        let text = interrupted_message(&run, None, KEEP_WITH_CHECKPOINT);
        assert!(text.contains("(1 running task dropped part-way)"), "{text}");
        run.abandoned_tasks = 0;
        let text = interrupted_message(&run, path, KEEP_WITH_CHECKPOINT);
        assert!(!text.contains("dropped"), "{text}");
    }

    #[test]
    fn a_count_s_workers_drop_their_tasks_and_an_estimate_s_finish_their_samples() {
        let again = "press Ctrl-C again";
        assert_eq!(
            stopping_line(DROPPING_TASKS, again),
            "stopping: the running tasks are dropped (press Ctrl-C again to quit at once)"
        );
        assert_eq!(
            stopping_line(FINISHING_SAMPLES, again),
            "stopping after the running samples (press Ctrl-C again to quit at once)"
        );
    }

    #[test]
    fn with_a_journal_the_file_and_the_resume_command_are_named() {
        let text = interrupted_message(
            &interrupted(),
            Some(Path::new("n16.ckpt")),
            KEEP_WITH_CHECKPOINT,
        );
        assert!(text.contains("saved in n16.ckpt"), "{text}");
        assert!(text.contains("resume with: "), "{text}");
    }
}
