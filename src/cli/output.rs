//! Where the command's words go: messages on stderr, and files that replace nothing they
//! should not.
//!
//! Every line for the user on stderr goes through [`message`], which never panics: when stderr
//! cannot be written (a full device, a closed pipe) the line is dropped and the command carries
//! on, so that its results on stdout and its exit code are unaffected.

use std::fmt::Display;
use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

use super::Failure;

/// Writes `line` and a newline to stderr in one write; a failed write is ignored.
pub fn message(line: impl Display) {
    let text = format!("{line}\n");
    let _ = io::stderr().lock().write_all(text.as_bytes());
}

/// `nqueens: error: {text}` on stderr.
pub fn error(text: impl Display) {
    message(format_args!("nqueens: error: {text}"));
}

/// `nqueens: warning: {text}` on stderr.
pub fn warning(text: impl Display) {
    message(format_args!("nqueens: warning: {text}"));
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

/// A file written all at once: to a temporary file beside it, then renamed over it, so a
/// failed or interrupted command never leaves a half-written file.
///
/// Only a missing path or a regular file is replaced: a directory, a symbolic link, a FIFO or
/// a device is refused, since the rename would put a regular file in its place.
pub struct ReplaceFile {
    path: PathBuf,
    what: &'static str,
    temp: tempfile::NamedTempFile,
}

impl ReplaceFile {
    /// Checks that `path` may be replaced and creates the temporary file beside it; `what`
    /// names the file in messages (`the plot`). A refusal is a one-line usage error.
    pub fn create(path: &Path, what: &'static str) -> Result<ReplaceFile, Failure> {
        check_target(path, what)?;
        let refuse =
            |why: &str| Failure::Usage(format!("cannot write {what} to {}: {why}", path.display()));
        let dir = match path.parent() {
            Some(dir) if !dir.as_os_str().is_empty() => dir,
            _ => Path::new("."),
        };
        if !dir.is_dir() {
            return Err(refuse(&format!(
                "the directory {} does not exist",
                dir.display()
            )));
        }
        let mut builder = tempfile::Builder::new();
        builder.prefix(".nqueens-").suffix(".part");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            builder.permissions(fs::Permissions::from_mode(0o644));
        }
        let temp = builder
            .tempfile_in(dir)
            .map_err(|e| refuse(&io::Error::from(e.kind()).to_string()))?;
        Ok(ReplaceFile {
            path: path.to_path_buf(),
            what,
            temp,
        })
    }

    /// Writes `bytes` and renames the file over the target, checked again first (it may have
    /// changed while the command ran): an unsuitable target is a usage error, a failed write an
    /// I/O error.
    pub fn write(mut self, bytes: &[u8]) -> Result<(), Failure> {
        check_target(&self.path, self.what)?;
        self.temp.write_all(bytes)?;
        self.temp.as_file().sync_all()?;
        self.temp.persist(&self.path).map_err(|e| {
            io::Error::new(
                e.error.kind(),
                format!("{}: {}", self.path.display(), e.error),
            )
        })?;
        Ok(())
    }
}

/// Refuses a target that is neither absent nor a writable regular file.
fn check_target(path: &Path, what: &str) -> Result<(), Failure> {
    let refuse =
        |why: &str| Failure::Usage(format!("cannot write {what} to {}: {why}", path.display()));
    let meta = match fs::symlink_metadata(path) {
        Ok(meta) => meta,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(refuse(&io::Error::from(e.kind()).to_string())),
    };
    let kind = meta.file_type();
    if kind.is_dir() {
        return Err(refuse("it is a directory"));
    }
    if kind.is_symlink() {
        return Err(refuse(
            "it is a symbolic link (name the file it points to, or remove the link)",
        ));
    }
    if !kind.is_file() {
        return Err(refuse(
            "it is not a regular file (a FIFO, a socket or a device would be replaced)",
        ));
    }
    if meta.permissions().readonly() {
        return Err(refuse("the file is read-only"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_or_regular_file_is_replaced_whole() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.svg");
        ReplaceFile::create(&path, "the plot")
            .unwrap()
            .write(b"one")
            .unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"one");
        ReplaceFile::create(&path, "the plot")
            .unwrap()
            .write(b"two")
            .unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"two");
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[cfg(unix)]
    #[test]
    fn links_and_directories_are_refused_and_left_alone() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("real.svg");
        fs::write(&target, "keep").unwrap();
        let link = dir.path().join("link.svg");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        let err = ReplaceFile::create(&link, "the plot").err().unwrap();
        assert!(
            matches!(&err, Failure::Usage(e) if e.contains("symbolic link")),
            "{err}"
        );
        let err = ReplaceFile::create(dir.path(), "the plot").err().unwrap();
        assert!(
            matches!(&err, Failure::Usage(e) if e.contains("directory")),
            "{err}"
        );
        // A link made after the check is caught before the rename.
        let late = dir.path().join("late.svg");
        let file = ReplaceFile::create(&late, "the plot").unwrap();
        std::os::unix::fs::symlink(&target, &late).unwrap();
        let refused = file.write(b"x").unwrap_err();
        assert!(
            matches!(&refused, Failure::Usage(e) if e.contains("symbolic link")),
            "{refused}"
        );
        assert!(
            fs::symlink_metadata(&late)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(fs::read(&target).unwrap(), b"keep");
    }

    #[cfg(unix)]
    #[test]
    fn a_device_is_refused() {
        let err = ReplaceFile::create(Path::new("/dev/null"), "the plot")
            .err()
            .unwrap();
        assert!(
            matches!(&err, Failure::Usage(e) if e.contains("not a regular file")),
            "{err}"
        );
    }
}
