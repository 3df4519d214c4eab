//! Where the command's words go: messages on stderr, and files that replace nothing they
//! should not.
//!
//! Every line for the user on stderr goes through [`message`], which never panics: when stderr
//! cannot be written (a full device, a closed pipe) the line is dropped and the command carries
//! on, so that its results on stdout and its exit code are unaffected.

use std::ffi::{OsStr, OsString};
use std::fmt::Display;
use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, Once};

use anstyle::{AnsiColor, Style};
use nqueens_files::{Directory, Refusal, directory_of};

use super::{escape, human};
use crate::failure::Failure;

/// Writes `line` and a newline to stderr in one write; a failed write is ignored.
pub fn message(line: impl Display) {
    let text = format!("{line}\n");
    let _ = io::stderr().lock().write_all(text.as_bytes());
}

/// `nqueens: error: {text}` on stderr, a long path or argument in it shortened
/// ([`human::shorten_words`]); `error:` in bold red where stderr takes colour ([`set_color`]).
pub fn error(text: impl Display) {
    labelled("error:", AnsiColor::Red, text);
}

/// `nqueens: warning: {text}` on stderr, shortened like [`error`]'s; `warning:` in bold yellow
/// where stderr takes colour. Nothing under `--quiet` ([`set_quiet`]).
pub fn warning(text: impl Display) {
    if !is_quiet() {
        labelled("warning:", AnsiColor::Yellow, text);
    }
}

/// A note on stderr, written like [`message`] (what a command is about to do, or is still
/// doing), unless `--quiet` ([`set_quiet`]) asked for silence.
pub fn note(line: impl Display) {
    if !is_quiet() {
        message(line);
    }
}

/// Whether `--quiet` was given: no progress bar, note or warning is shown (errors and what an
/// interrupt stopped still are).
static QUIET: AtomicBool = AtomicBool::new(false);

/// Sets `--quiet` for the whole process: [`warning`], [`note`] and every progress bar say
/// nothing.
pub fn set_quiet(quiet: bool) {
    QUIET.store(quiet, Ordering::Relaxed);
}

/// Whether `--quiet` was given ([`set_quiet`]).
pub fn is_quiet() -> bool {
    QUIET.load(Ordering::Relaxed)
}

/// `nqueens: {label} {text}`, `text` on one line with its control characters written out
/// ([`escape::text`]: a path or a string read from a file cannot send an escape sequence or
/// print a line of its own), shortened and without error numbers, `label` in bold `colour`
/// where stderr takes colour.
fn labelled(label: &str, colour: AnsiColor, text: impl Display) {
    let text = escape::text(&human::without_error_numbers(&text.to_string())).into_owned();
    let text = human::shorten_words(&text);
    let style = colour.on_default().bold();
    message(format_args!("nqueens: {} {text}", painted(label, style)));
}

/// Sets when stderr's words are coloured, for the whole process: `--color` (`auto` colours
/// only a terminal, and never where NO_COLOR is set and not empty, per no-color.org; as
/// `anstream` decides, which also honours CLICOLOR_FORCE and TERM=dumb).
pub fn set_color(choice: anstream::ColorChoice) {
    anstream::ColorChoice::write_global(choice);
}

/// Whether stderr takes colour now.
fn stderr_in_colour() -> bool {
    anstream::AutoStream::choice(&io::stderr()) != anstream::ColorChoice::Never
}

/// `word` in `style` where stderr takes colour, plain otherwise.
fn painted(word: &str, style: Style) -> String {
    if stderr_in_colour() {
        format!("{style}{word}{style:#}")
    } else {
        word.to_string()
    }
}

/// Writes `text` to stderr without a newline (a progress line redrawn in place); a failed write
/// is ignored.
pub fn status(text: impl Display) {
    let text = text.to_string();
    let mut stderr = io::stderr().lock();
    let _ = stderr.write_all(text.as_bytes());
    let _ = stderr.flush();
}

/// Whether standard output was closed when the program started (`>&-`).
///
/// The runtime reopens a closed standard descriptor on `/dev/null` before `main` runs, so every
/// write would seem to succeed; the descriptor is therefore looked at earlier, by a constructor
/// that runs before the runtime starts.
pub fn stdout_was_closed() -> bool {
    STDOUT_CLOSED_AT_START.load(Ordering::Relaxed)
}

/// Set before `main` when descriptor 1 was not open.
static STDOUT_CLOSED_AT_START: AtomicBool = AtomicBool::new(false);

#[cfg(target_os = "linux")]
#[used]
#[unsafe(link_section = ".init_array")]
static LOOK_AT_STDOUT: extern "C" fn() = look_at_stdout;

#[cfg(target_os = "linux")]
extern "C" fn look_at_stdout() {
    unsafe extern "C" {
        fn fcntl(fd: i32, cmd: i32, ...) -> i32;
    }
    const F_GETFD: i32 = 1;
    // SAFETY: F_GETFD only reads the descriptor's flags; a closed descriptor gives -1.
    let closed = unsafe { fcntl(1, F_GETFD) } == -1;
    STDOUT_CLOSED_AT_START.store(closed, Ordering::Relaxed);
}

/// Files written all at once: each to a temporary file beside it, synced, then renamed over it,
/// so that a failed or interrupted command never leaves a half-written file.
///
/// - Only a missing path or a regular file is replaced: a directory, a symbolic link, a FIFO or
///   a device is refused (a file failure), since the rename would put a regular file in its
///   place. Another user's file is refused up front where the rename would fail or should not
///   happen: one this user may not write, and one in a sticky directory (`/tmp`) that is not
///   this user's either ([`nqueens_files::check_replace`]).
/// - Never through another user's link, even one swapped in meanwhile: each file's directory is
///   opened once ([`nqueens_files::Directory`]), and the checks, the temporary file and the
///   rename are all made in it.
/// - All or nothing: every file is written in full before any is renamed, and a file that
///   cannot be written (a full disk) removes every temporary file and replaces nothing; the
///   error names the file (`cannot write DIR/nqueens-count.1: No space left on device`).
/// - A replaced file keeps its permission bits, and its owner and group where the user may give
///   them (as root); it is a new file all the same, so hard links to the old one keep the old
///   contents. A new file gets mode 0644 less the umask.
/// - An interrupt (SIGINT, SIGTERM, SIGHUP) removes the temporary files and ends the process
///   with exit code 130 ([`quit_interrupted`]); the renames are done under the same lock, so an
///   interrupt comes before every rename or after all of them. The handler is installed by the
///   first call here; a command's bar that quits on an interrupt
///   ([`quit_on_interrupt`](super::progress::quit_on_interrupt)) removes them alike, and `count`
///   and `verify`, whose interrupt stops gently, write no files this way.
pub fn replace_files(files: &[(&Path, &[u8])], what: &str) -> Result<(), Failure> {
    let mut places = Vec::with_capacity(files.len());
    for (path, _) in files {
        let place = Place::open(path, what)?;
        place.check(what)?;
        places.push(place);
    }
    let mut written = Vec::with_capacity(files.len());
    for (place, &(_, bytes)) in places.iter().zip(files) {
        written.push(Temp::write(place, bytes)?);
    }
    // The targets may have changed while the files were written.
    for place in &places {
        place.check(what)?;
    }
    let mut temps = temps();
    let mut renamed = Ok(());
    for temp in &mut written {
        renamed = renamed.and_then(|()| temp.rename(&mut temps));
    }
    // Unlocked before the files that were not renamed are dropped.
    drop(temps);
    drop(written);
    renamed
}

/// A file written as it is made, under the rules of [`replace_files`]: into a temporary file
/// beside `path` (buffered), synced and renamed over it by [`Stream::finish`], so that a
/// long output is never held in memory, and a failed or interrupted command (an interrupt
/// that ends the process, [`quit_interrupted`]) leaves neither a half-written file nor the old
/// one replaced. Dropped without [`Stream::finish`], it removes its temporary file.
pub struct Stream {
    /// Where it goes: its directory, opened once, and its name there.
    place: Place,
    /// The temporary file in that directory.
    temp: Temp,
    /// The buffered writes to it.
    out: io::BufWriter<fs::File>,
    /// What it is, for errors (`the recording`).
    what: String,
    /// Bytes written so far.
    written: u64,
}

impl Stream {
    /// A new stream for `path` (a refusal or a directory that takes no file: a file failure
    /// that names `what`).
    pub fn create(path: &Path, what: &str) -> Result<Stream, Failure> {
        let place = Place::open(path, what)?;
        place.check(what)?;
        let fail = |e: io::Error| refusal(path, what, &system_words(&e));
        let temp = Temp::create(&place).map_err(fail)?;
        let file = temp.file.as_ref().expect("a new temporary file");
        keep_mode_and_owner(&place.dir, &place.name, file).map_err(fail)?;
        let out = io::BufWriter::with_capacity(1 << 16, file.try_clone().map_err(fail)?);
        Ok(Stream {
            place,
            temp,
            out,
            what: what.to_string(),
            written: 0,
        })
    }

    /// Bytes written so far.
    pub fn written(&self) -> u64 {
        self.written
    }

    /// Writes what is buffered, syncs the file and renames it over its target; the size of the
    /// file in bytes. An error names the target and replaces nothing.
    pub fn finish(mut self) -> Result<u64, Failure> {
        let target = self.temp.target.clone();
        let fail = |e: io::Error| cannot_write(&target, &e);
        self.out.flush().map_err(fail)?;
        self.out.get_ref().sync_all().map_err(fail)?;
        // The target may have changed while the file was written.
        self.place.check(&self.what)?;
        let mut temps = temps();
        let renamed = self.temp.rename(&mut temps);
        drop(temps);
        renamed.map(|()| self.written)
    }
}

impl Write for Stream {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let written = self.out.write(buf)?;
        self.written += written as u64;
        Ok(written)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

/// Checks up front, before work whose result is written with [`replace_files`], that `path`
/// may be replaced and that a file can be created beside it. A refusal is a one-line file
/// failure (exit 1); `what` names the file in it (`the plot`).
pub fn check_replaceable(path: &Path, what: &str) -> Result<(), Failure> {
    let dir = directory_of(path);
    if !dir.is_dir() {
        let why = format!("the directory {} does not exist", dir.display());
        return Err(refusal(path, what, &why));
    }
    // The same checks as the write makes, in the directory it writes in.
    let place = Place::open(path, what)?;
    place.check(what)?;
    // A file created and removed at once: the directory takes new files.
    Temp::create(&place)
        .map(drop)
        .map_err(|e| refusal(path, what, &system_words(&e)))
}

/// Where a file is written: its directory, opened once by the rule ([`Directory::of`]: never
/// through another user's link), and its name in it.
struct Place {
    /// The file's path, as named.
    target: PathBuf,
    dir: Arc<Directory>,
    name: OsString,
}

impl Place {
    /// Opens the directory of `path`; another user's link on the way is a refusal naming
    /// `what`, a directory that cannot be opened the system's words.
    fn open(path: &Path, what: &str) -> Result<Place, Failure> {
        match Directory::of(path) {
            Ok((dir, name)) => Ok(Place {
                target: path.to_path_buf(),
                dir: Arc::new(dir),
                name: name.to_os_string(),
            }),
            Err(Refusal::Io(e)) => Err(cannot_write(path, &e)),
            Err(why) => Err(refusal(path, what, &why.to_string())),
        }
    }

    /// Refuses a target that the final rename would refuse or should not do
    /// ([`Directory::check_replace`]), as it is now in the directory.
    fn check(&self, what: &str) -> Result<(), Failure> {
        self.dir
            .check_replace(&self.name)
            .map_err(|why| refusal(&self.target, what, &why.to_string()))
    }
}

/// `cannot write {what} to PATH: why`, a file failure.
/// Refuses (exit 2) writing `what` to `path` when it is the same file as one of `inputs`: the
/// output would replace what the command reads.
pub fn refuse_output_over_input(
    path: &Path,
    what: &str,
    inputs: &[PathBuf],
) -> Result<(), Failure> {
    let Ok(written) = std::fs::metadata(path) else {
        // Not there yet: no input is that file.
        return Ok(());
    };
    for input in inputs {
        if std::fs::metadata(input).is_ok_and(|read| same_file(&written, &read)) {
            return Err(Failure::Usage(format!(
                "{what} {} is also an input ({}): it would replace it; write it elsewhere",
                path.display(),
                input.display()
            )));
        }
    }
    Ok(())
}

/// Whether two files' metadata are of one file.
#[cfg(unix)]
fn same_file(a: &std::fs::Metadata, b: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    (a.dev(), a.ino()) == (b.dev(), b.ino())
}

/// Whether two files' metadata are of one file (elsewhere than Unix: never known to be).
#[cfg(not(unix))]
fn same_file(_: &std::fs::Metadata, _: &std::fs::Metadata) -> bool {
    false
}

fn refusal(path: &Path, what: &str, why: &str) -> Failure {
    Failure::File(format!("cannot write {what} to {}: {why}", path.display()))
}

/// `cannot write PATH: why` (the system's words for `e`, cut at its error number: what follows,
/// such as the temporary path `tempfile` adds, goes too).
fn cannot_write(path: &Path, e: &io::Error) -> Failure {
    Failure::File(format!(
        "cannot write {}: {}",
        path.display(),
        system_words(e)
    ))
}

/// The system's words for `e` (`Permission denied`, with its capital), cut at its error number
/// and without what follows (the temporary path `tempfile` adds); the kind's own words
/// (`permission denied`) only for an error that did not come from the system.
fn system_words(e: &io::Error) -> String {
    let text = match e.raw_os_error() {
        Some(code) => io::Error::from_raw_os_error(code).to_string(),
        None => e.to_string(),
    };
    match text.find(" (os error ") {
        Some(end) => text[..end].to_string(),
        None => text,
    }
}

/// A temporary file that exists now: its directory and its name there.
type TempName = (Arc<Directory>, OsString);

/// The temporary files that exist now, removed by an interrupt. The lock is held while one is
/// created or renamed, and by the interrupt until the process ends.
static TEMPS: Mutex<Vec<TempName>> = Mutex::new(Vec::new());

/// The list of [`TEMPS`], locked; the first call makes an interrupt [`quit_interrupted`].
fn temps() -> std::sync::MutexGuard<'static, Vec<TempName>> {
    static HANDLER: Once = Once::new();
    HANDLER.call_once(|| super::signals::on_interrupt(quit_interrupted));
    TEMPS.lock().unwrap_or_else(|e| e.into_inner())
}

/// Ends the process for an interrupt: removes the temporary files of [`replace_files`] (and
/// keeps their lock, so that no rename follows), says `nqueens: interrupted` and exits with
/// code 130.
pub fn quit_interrupted() {
    let mut temps = TEMPS.lock().unwrap_or_else(|e| e.into_inner());
    for (dir, name) in temps.drain(..) {
        let _ = dir.remove_file(&name);
    }
    message("nqueens: interrupted");
    std::process::exit(130);
}

/// A temporary file beside its target, removed when dropped unless renamed over the target.
struct Temp {
    /// The file it replaces: its path (for errors), its directory and its name there.
    target: PathBuf,
    dir: Arc<Directory>,
    name: OsString,
    /// The temporary file's name in the directory.
    temp: OsString,
    /// `None` once renamed.
    file: Option<fs::File>,
}

impl Temp {
    /// An empty temporary file in the directory of `place`, for its file, recorded for the
    /// interrupt handler.
    fn create(place: &Place) -> io::Result<Temp> {
        let mut temps = temps();
        let (file, temp) = place.dir.create_temporary(".nqueens-", ".part", 0o644)?;
        temps.push((Arc::clone(&place.dir), temp.clone()));
        Ok(Temp {
            target: place.target.clone(),
            dir: Arc::clone(&place.dir),
            name: place.name.clone(),
            temp,
            file: Some(file),
        })
    }

    /// A temporary file beside the file of `place` holding `bytes`, synced, with the mode and
    /// owner of the file it replaces; an error names the file.
    fn write(place: &Place, bytes: &[u8]) -> Result<Temp, Failure> {
        let fail = |e: io::Error| cannot_write(&place.target, &e);
        let mut temp = Temp::create(place).map_err(fail)?;
        let file = temp.file.as_mut().expect("a new temporary file");
        keep_mode_and_owner(&place.dir, &place.name, file).map_err(fail)?;
        file.write_all(bytes).map_err(fail)?;
        file.sync_all().map_err(fail)?;
        Ok(temp)
    }

    /// Renames the file over its target, in the directory it was created in; `temps`: the list
    /// of [`temps`], locked by the caller.
    fn rename(&mut self, temps: &mut Vec<TempName>) -> Result<(), Failure> {
        let Some(file) = self.file.take() else {
            return Ok(());
        };
        drop(file);
        let renamed = self.dir.rename(&self.temp, &self.name);
        if renamed.is_err() {
            // Removed now (the lock is held: not by the drop).
            let _ = self.dir.remove_file(&self.temp);
        }
        forget(temps, &self.dir, &self.temp);
        renamed.map_err(|e| cannot_write(&self.target, &e))
    }
}

/// Takes the temporary file `temp` of `dir` off the list of [`temps`].
fn forget(temps: &mut Vec<TempName>, dir: &Arc<Directory>, temp: &OsStr) {
    temps.retain(|(d, t)| !(Arc::ptr_eq(d, dir) && t == temp));
}

impl Drop for Temp {
    /// Removes the file, if it was not renamed (the list of [`temps`] must not be locked).
    fn drop(&mut self) {
        if let Some(file) = self.file.take() {
            drop(file);
            let _ = self.dir.remove_file(&self.temp);
            forget(&mut temps(), &self.dir, &self.temp);
        }
    }
}

/// Gives `file` the permission bits of the regular file `name` of `dir` it replaces, and its
/// owner and group where the user may (root any, others a group they are in); a new target
/// changes nothing.
#[cfg(unix)]
fn keep_mode_and_owner(dir: &Directory, name: &OsStr, file: &fs::File) -> io::Result<()> {
    use std::os::unix::fs::{MetadataExt, PermissionsExt, fchown};
    let old = match dir.symlink_metadata(name) {
        Ok(meta) if meta.is_file() => meta,
        // Absent (a new file), or refused by the check before the rename.
        _ => return Ok(()),
    };
    let new = file.metadata()?;
    if (old.uid(), old.gid()) != (new.uid(), new.gid())
        && fchown(file, Some(old.uid()), Some(old.gid())).is_err()
    {
        // Not allowed: the owner is the user's; the group may still be kept.
        let _ = fchown(file, None, Some(old.gid()));
    }
    // After the owner: a change of owner may clear bits.
    file.set_permissions(fs::Permissions::from_mode(old.mode() & 0o777))
}

#[cfg(not(unix))]
fn keep_mode_and_owner(_dir: &Directory, _name: &OsStr, _file: &fs::File) -> io::Result<()> {
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `bytes` written to `path` as the only file.
    fn replace(path: &Path, bytes: &[u8]) -> Result<(), Failure> {
        replace_files(&[(path, bytes)], "the plot")
    }

    #[test]
    fn a_new_or_regular_file_is_replaced_whole() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.svg");
        check_replaceable(&path, "the plot").unwrap();
        replace(&path, b"one").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"one");
        replace(&path, b"two").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"two");
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn a_stream_replaces_its_target_only_when_finished() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.cast");
        fs::write(&path, "old").unwrap();
        let mut stream = Stream::create(&path, "the recording").unwrap();
        stream.write_all(b"new ").unwrap();
        stream.write_all(b"text").unwrap();
        assert_eq!(stream.written(), 8);
        assert_eq!(fs::read(&path).unwrap(), b"old");
        assert_eq!(stream.finish().unwrap(), 8);
        assert_eq!(fs::read(&path).unwrap(), b"new text");
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
        // Dropped unfinished: the old file stays, and no temporary file.
        let mut stream = Stream::create(&path, "the recording").unwrap();
        stream.write_all(b"half").unwrap();
        drop(stream);
        assert_eq!(fs::read(&path).unwrap(), b"new text");
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn a_file_that_cannot_be_written_replaces_none_and_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let first = dir.path().join("a.1");
        fs::write(&first, "old").unwrap();
        // Its directory is gone by the time it is written.
        let second = dir.path().join("gone").join("b.1");
        let err = replace_files(&[(&first, b"new"), (&second, b"new")], "the page").unwrap_err();
        assert!(matches!(err, Failure::File(_)), "{err:?}");
        let expected = format!(
            "cannot write {}: No such file or directory",
            second.display()
        );
        assert_eq!(err.to_string(), expected);
        assert_eq!(err.exit_code(), 1);
        assert_eq!(fs::read(&first).unwrap(), b"old");
        assert_eq!(
            fs::read_dir(dir.path()).unwrap().count(),
            1,
            "a temporary file is left"
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_replaced_file_keeps_its_permission_bits() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.svg");
        for mode in [0o600, 0o640, 0o755] {
            fs::write(&path, "old").unwrap();
            fs::set_permissions(&path, fs::Permissions::from_mode(mode)).unwrap();
            replace(&path, b"new").unwrap();
            let kept = fs::metadata(&path).unwrap().permissions().mode() & 0o7777;
            assert_eq!(kept, mode, "{kept:o} instead of {mode:o}");
            assert_eq!(fs::read(&path).unwrap(), b"new");
        }
    }

    #[cfg(unix)]
    #[test]
    fn a_replaced_file_keeps_its_owner_where_the_user_may_give_it() {
        use std::os::unix::fs::{MetadataExt, chown};
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.svg");
        fs::write(&path, "old").unwrap();
        // Only root can give a file away.
        if chown(&path, Some(65534), Some(65534)).is_err() {
            eprintln!(
                "skipped: giving a file to another owner needs root; the owner is not tested"
            );
            return;
        }
        replace(&path, b"new").unwrap();
        let meta = fs::metadata(&path).unwrap();
        assert_eq!((meta.uid(), meta.gid()), (65534, 65534));
    }

    #[cfg(unix)]
    #[test]
    fn links_and_directories_are_refused_and_left_alone() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("real.svg");
        fs::write(&target, "keep").unwrap();
        let link = dir.path().join("link.svg");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        for err in [
            check_replaceable(&link, "the plot").unwrap_err(),
            replace(&link, b"x").unwrap_err(),
        ] {
            assert!(
                matches!(&err, Failure::File(e) if e.contains("symbolic link")),
                "{err}"
            );
        }
        let err = check_replaceable(dir.path(), "the plot").unwrap_err();
        assert!(
            matches!(&err, Failure::File(e) if e.contains("directory")),
            "{err}"
        );
        // A link made after the check is caught before the rename.
        let late = dir.path().join("late.svg");
        check_replaceable(&late, "the plot").unwrap();
        std::os::unix::fs::symlink(&target, &late).unwrap();
        let refused = replace(&late, b"x").unwrap_err();
        assert!(
            matches!(&refused, Failure::File(e) if e.contains("symbolic link")),
            "{refused}"
        );
        assert!(
            fs::symlink_metadata(&late)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(fs::read(&target).unwrap(), b"keep");
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 3);
    }

    #[cfg(unix)]
    #[test]
    fn a_device_is_refused() {
        let err = check_replaceable(Path::new("/dev/null"), "the plot").unwrap_err();
        assert!(
            matches!(&err, Failure::File(e) if e.contains("not a regular file")),
            "{err}"
        );
    }
}
