//! How files named by a user are opened: one policy for every reader and writer (journals,
//! saved results, plots, manual pages).
//!
//! - **Regular files only.** A directory, a FIFO, a socket, a device or a pseudo-file of the
//!   kernel (`/proc`, `/sys`, debugfs, tracefs, securityfs, cgroups: files that look regular but
//!   may wait for ever or never end) is refused in one line ([`Refusal::NotAFile`]). The path is
//!   looked at before it is opened (so a device is never opened), every open is non-blocking (a
//!   FIFO swapped in between cannot make it wait) and the opened file is looked at again; the
//!   non-blocking mode is cleared once the file is known to be regular.
//! - **No link followed where a file is written.** A file written in place (a journal) is opened
//!   with `O_NOFOLLOW` and created with `O_EXCL`, so a symbolic link at its path — dangling or
//!   not — is refused ([`Refusal::Link`]), never followed; a file replaced by a rename is
//!   refused when a link stands at its path ([`check_replace`]). Reading follows links: it
//!   changes nothing.
//! - **No other user's link on the way.** Where a file is written, a symbolic link among the
//!   directories of its path (as the path is resolved: the targets of links included) is
//!   followed only when it belongs to this user or to root ([`Refusal::ForeignLink`];
//!   [`check_directory`]): another user's link, planted in `/tmp` (`/tmp/lnk` → a directory of
//!   theirs), would lead the file into a directory of their choosing. The directory is opened
//!   once, each component relative to the last without following, a link judged as it is
//!   opened ([`Directory`]), and the file is opened, created and renamed relative to it: a
//!   directory of the path swapped for a link meanwhile leads nothing astray. A directory that
//!   is missing is created the same way, each component relative to the last
//!   ([`Directory::create_all`]).
//! - **Ownership judged up front as the write will judge it.** [`check_replace`] refuses what
//!   the final rename would refuse or should not do: a file without write permission for anyone
//!   ([`Refusal::ReadOnly`]), another user's file this user may not write
//!   ([`Refusal::NotWritable`]: a rename in a directory open to all would replace it all the
//!   same), and another user's file in a sticky directory that is not this user's either
//!   ([`Refusal::Sticky`]: the rename would fail with "Operation not permitted" after the work).
//!
//! Size caps stay with each reader (a journal is read no further than its plan's records, a
//! saved result no further than its cap). The `nqueens` library opens its journals by these
//! rules and the `nqueens` command every file it reads or writes; a program that reads and
//! writes files its users name can use them for its own.
#![deny(missing_docs)]
#![warn(missing_debug_implementations)]
#![warn(
    clippy::missing_errors_doc,
    clippy::missing_panics_doc,
    clippy::must_use_candidate,
    clippy::return_self_not_must_use
)]

use std::ffi::{OsStr, OsString};
use std::fmt;
use std::fs::{self, File, Metadata, OpenOptions};
use std::io::{self, ErrorKind};
use std::path::{Path, PathBuf};

/// Why a path was not opened, created or replaced.
///
/// Each displays as the reason, for a caller to put after the path: `it is a FIFO, not a
/// regular file`.
#[derive(Debug)]
#[non_exhaustive]
pub enum Refusal {
    /// The operating system's error (a missing file, no permission, a full disk, …).
    Io(io::Error),
    /// The path names something other than a regular file: what it is, with its article
    /// (`a FIFO`).
    NotAFile(&'static str),
    /// A symbolic link stands where a file is written or created: it is not followed.
    Link,
    /// The file has no write permission for anyone: it is not replaced, even by root.
    ReadOnly,
    /// Another user's file that this user may not write.
    NotWritable {
        /// Its owner.
        owner: Owner,
    },
    /// A symbolic link among the directories of the path that belongs to neither this user nor
    /// root: it is not followed where a file is written.
    ForeignLink {
        /// The link, as reached while the path was resolved.
        link: PathBuf,
        /// Its owner.
        owner: Owner,
    },
    /// Another user's file in a sticky directory that is not this user's either: only the
    /// file's owner (or the directory's) may replace it.
    Sticky {
        /// The file's owner.
        owner: Owner,
        /// The directory.
        dir: PathBuf,
    },
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::Io(e) => write!(f, "{e}"),
            Refusal::NotAFile(what) => write!(f, "it is {what}, not a regular file"),
            Refusal::Link => f.write_str(
                "it is a symbolic link, which is not followed where a file is written \
                 (name the file itself, or remove the link)",
            ),
            Refusal::ReadOnly => f.write_str("the file is read-only"),
            Refusal::NotWritable { owner } => {
                write!(f, "it belongs to {owner} and you may not write it")
            }
            Refusal::ForeignLink { link, owner } => write!(
                f,
                "{} is a symbolic link that belongs to {owner}, which is not followed where a \
                 file is written (name the directory it leads to)",
                link.display()
            ),
            Refusal::Sticky { owner, dir } => write!(
                f,
                "it belongs to {owner}, and in the sticky directory {} only its owner may \
                 replace it",
                dir.display()
            ),
        }
    }
}

impl std::error::Error for Refusal {}

impl From<io::Error> for Refusal {
    fn from(e: io::Error) -> Refusal {
        Refusal::Io(e)
    }
}

/// The owner of a file: a user id, shown with its name where the system knows it
/// (`nobody (uid 65534)`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Owner {
    /// The user id.
    pub uid: u32,
}

impl fmt::Display for Owner {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match user_name(self.uid) {
            Some(name) => write!(f, "{name} (uid {})", self.uid),
            None => write!(f, "uid {}", self.uid),
        }
    }
}

/// Opens the regular file at `path` to read it (a link is followed).
///
/// # Errors
///
/// [`Refusal::NotAFile`] when `path` (or the link it is) leads to something other than a regular
/// file, found before or after it is opened; [`Refusal::Io`] when it cannot be looked at or opened
/// (a missing file, no permission).
pub fn open_read(path: &Path) -> Result<File, Refusal> {
    match fs::metadata(path) {
        Ok(meta) => regular(&meta)?,
        Err(e) => return Err(Refusal::Io(e)),
    }
    let file = options(false)
        .open(path)
        .map_err(|e| refusal_of(path, e, false))?;
    settle(&file)?;
    Ok(file)
}

/// Opens the regular file at `path` to read and write it in place, never through a symbolic
/// link, nor through another user's link among its directories ([`Directory::of`], race-free);
/// creates it (new, with `O_EXCL`) when it is missing. Returns the file and whether this call
/// created it.
///
/// # Errors
///
/// [`Refusal::ForeignLink`] for another user's link among its directories, [`Refusal::Link`] for a
/// symbolic link at `path`, [`Refusal::NotAFile`] for something other than a regular file there,
/// and [`Refusal::Io`] when it cannot be looked at, opened or created.
pub fn open_update(path: &Path) -> Result<(File, bool), Refusal> {
    let (dir, name) = Directory::of(path)?;
    dir.open_update(name)
}

/// Checks up front that the file at `path` may be replaced by renaming a new file over it, as
/// the rename will judge it (a missing path, or a missing directory, may be): no other user's
/// link among its directories ([`check_directory`]), not a link, a regular file, writable by
/// someone, and — for a user other than root — writable by this user and, in a sticky
/// directory, this user's or in a directory of this user's. Whether the directory takes new
/// files is the caller's to try. [`Directory::check_replace`] checks a file of a directory
/// opened once, as the rename in it ([`Directory::rename`]) will find it.
///
/// # Errors
///
/// [`Refusal::ForeignLink`] for another user's link among its directories, [`Refusal::Link`] or
/// [`Refusal::NotAFile`] for a link or something other than a regular file at `path`,
/// [`Refusal::ReadOnly`] for a file no one may write, [`Refusal::NotWritable`] for another user's
/// file this user may not write, [`Refusal::Sticky`] for another user's file in another user's
/// sticky directory, and [`Refusal::Io`] when the path or its directory cannot be looked at.
pub fn check_replace(path: &Path) -> Result<(), Refusal> {
    match Directory::of(path) {
        Ok((dir, name)) => dir.check_replace(name),
        Err(Refusal::Io(e)) if e.kind() == ErrorKind::NotFound => Ok(()),
        Err(refused) => Err(refused),
    }
}

/// Checks that the directory `dir`, where a file is to be written, is reached through no
/// symbolic link of another user: every link met while `dir` is resolved (each of its
/// components, and the components of each link's target in its place) must belong to this user
/// or to root ([`Refusal::ForeignLink`]). A relative `dir` is resolved from the working
/// directory, which is not looked at. A component that is missing or cannot be looked at ends
/// the check: the write that follows fails on its own. Nothing is refused where files have no
/// owners. A check only: what is then written there is to be written through
/// [`Directory::open`], which holds the directory it checked.
///
/// # Errors
///
/// [`Refusal::ForeignLink`] for the first link on the way that belongs to neither this user nor
/// root.
pub fn check_directory(dir: &Path) -> Result<(), Refusal> {
    match Directory::open(dir) {
        Err(refused @ Refusal::ForeignLink { .. }) => Err(refused),
        _ => Ok(()),
    }
}

/// A directory where files are written, opened once by the rule of [`check_directory`] and held:
/// what is opened, created, checked, renamed or removed in it afterwards is named relative to
/// it, so that a directory of its path swapped for a link meanwhile cannot lead a file
/// elsewhere.
///
/// On Linux the directory is held open: its path is resolved with `openat2` and
/// `RESOLVE_NO_SYMLINKS` where the kernel has it and the path has no link; otherwise one
/// component at a time, each opened relative to the last without following (`O_NOFOLLOW`), a
/// link opened itself, its owner judged and its target resolved in its place. Files in it are
/// opened with `openat` (`O_NOFOLLOW`, `O_EXCL` where created) and renamed with `renameat`.
/// Elsewhere the path is checked and then used.
#[derive(Debug)]
pub struct Directory {
    /// The directory's path, as named.
    path: PathBuf,
    /// The directory, held open (without read access: `O_PATH`).
    #[cfg(any(target_os = "linux", target_os = "android"))]
    fd: std::os::fd::OwnedFd,
}

impl Directory {
    /// Opens the directory `dir` where files are to be written, by the rule of
    /// [`check_directory`]: no other user's link on the way.
    ///
    /// # Errors
    ///
    /// [`Refusal::ForeignLink`] for the first link on the way that belongs to neither this user
    /// nor root, and [`Refusal::Io`] when a component is missing, is not a directory or cannot
    /// be searched (on Linux; elsewhere these errors come with the files opened in it).
    pub fn open(dir: &Path) -> Result<Directory, Refusal> {
        Directory::opened(dir, false)
    }

    /// Opens the directory `dir` where files are to be written as [`Directory::open`] does,
    /// creating each missing component on the way, as `mkdir -p` does: the directories of the
    /// path named, never those of a link's target (a link leads only to what exists).
    ///
    /// On Linux each component is created relative to the directory opened before it
    /// (`mkdirat`) and then opened as any other, without following: a link planted there
    /// meanwhile (a racing creator's directory is taken as it is) is judged by the rule, never
    /// created through. Elsewhere the path is checked and then created.
    ///
    /// # Errors
    ///
    /// [`Refusal::ForeignLink`] for the first link on the way that belongs to neither this user
    /// nor root, and [`Refusal::Io`] when a component cannot be created, is not a directory or
    /// cannot be searched, or a link on the way leads nowhere.
    pub fn create_all(dir: &Path) -> Result<Directory, Refusal> {
        Directory::opened(dir, true)
    }

    /// [`Directory::open`], or with `create` [`Directory::create_all`].
    fn opened(dir: &Path, create: bool) -> Result<Directory, Refusal> {
        #[cfg(any(target_os = "linux", target_os = "android"))]
        let opened = Directory {
            path: dir.to_path_buf(),
            fd: at::open_directory(dir, create)?,
        };
        #[cfg(not(any(target_os = "linux", target_os = "android")))]
        let opened = {
            check_directory_by_path(dir)?;
            if create {
                fs::create_dir_all(dir)?;
            }
            Directory {
                path: dir.to_path_buf(),
            }
        };
        Ok(opened)
    }

    /// Opens the directory of the file at `path` ([`Directory::open`] of [`directory_of`]) and
    /// gives the file's name in it.
    ///
    /// # Errors
    ///
    /// As [`Directory::open`]; and, for a path that names no file of a directory (empty, or
    /// ending in `/` or `..`), [`Refusal::NotAFile`] where it leads to a directory, or the
    /// error of opening it as one.
    pub fn of(path: &Path) -> Result<(Directory, &OsStr), Refusal> {
        let bytes = path.as_os_str().as_encoded_bytes();
        let name = path.file_name().filter(|_| !bytes.ends_with(b"/"));
        let Some(name) = name else {
            if bytes.is_empty() {
                return Err(Refusal::Io(ErrorKind::NotFound.into()));
            }
            Directory::open(path)?;
            return Err(Refusal::NotAFile("a directory"));
        };
        Ok((Directory::open(directory_of(path))?, name))
    }

    /// The directory's path, as named when it was opened.
    #[must_use]
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Opens the regular file `name` of this directory as [`open_update`] does: to read and
    /// write it in place, never through a link, created (new) when missing. Returns the file
    /// and whether this call created it.
    ///
    /// # Errors
    ///
    /// As [`open_update`]'s.
    pub fn open_update(&self, name: &OsStr) -> Result<(File, bool), Refusal> {
        match self.symlink_metadata(name) {
            Ok(meta) => regular_or_link(&meta)?,
            Err(e) if e.kind() == ErrorKind::NotFound => {}
            Err(e) => return Err(Refusal::Io(e)),
        }
        let opened = match self.open_at(name, None) {
            Ok(file) => (file, false),
            Err(e) if e.kind() == ErrorKind::NotFound => match self.open_at(name, Some(0o666)) {
                Ok(file) => (file, true),
                // Created by another process in between (open that one), or a link put there
                // (refused by the open without following).
                Err(e) if e.kind() == ErrorKind::AlreadyExists => {
                    let file = self
                        .open_at(name, None)
                        .map_err(|e| self.refusal_of(name, e))?;
                    (file, false)
                }
                Err(e) => return Err(self.refusal_of(name, e)),
            },
            Err(e) => return Err(self.refusal_of(name, e)),
        };
        settle(&opened.0)?;
        Ok(opened)
    }

    /// Checks that the file `name` of this directory may be replaced by renaming a new file
    /// over it, as [`check_replace`] does (a missing file may be).
    ///
    /// # Errors
    ///
    /// As [`check_replace`]'s, but for [`Refusal::ForeignLink`], judged when the directory was
    /// opened.
    pub fn check_replace(&self, name: &OsStr) -> Result<(), Refusal> {
        let meta = match self.symlink_metadata(name) {
            Ok(meta) => meta,
            Err(e) if e.kind() == ErrorKind::NotFound => return Ok(()),
            Err(e) => return Err(Refusal::Io(e)),
        };
        regular_or_link(&meta)?;
        if meta.permissions().readonly() {
            return Err(Refusal::ReadOnly);
        }
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            let me = effective_uid();
            if me != 0 && meta.uid() != me {
                let owner = Owner { uid: meta.uid() };
                if !self.writable(name) {
                    return Err(Refusal::NotWritable { owner });
                }
                let (dir_mode, dir_uid) = self.mode_and_owner()?;
                if dir_mode & STICKY != 0 && dir_uid != me {
                    return Err(Refusal::Sticky {
                        owner,
                        dir: self.path.clone(),
                    });
                }
            }
        }
        Ok(())
    }

    /// The metadata of `name` in this directory, not following a link.
    ///
    /// # Errors
    ///
    /// The system's, when it cannot be looked at (a missing file, no permission).
    pub fn symlink_metadata(&self, name: &OsStr) -> io::Result<Metadata> {
        #[cfg(any(target_os = "linux", target_os = "android"))]
        return at::symlink_metadata(&self.fd, name);
        #[cfg(not(any(target_os = "linux", target_os = "android")))]
        fs::symlink_metadata(self.path.join(name))
    }

    /// Creates a new, empty regular file in this directory, to read and write, under a name
    /// of its own (`{prefix}{random}{suffix}`, created with `O_EXCL`, never through a link),
    /// with the permission bits `mode` less the umask (on Unix). Returns the file and its name.
    ///
    /// # Errors
    ///
    /// The system's, when the file cannot be created (no permission, a full disk).
    pub fn create_temporary(
        &self,
        prefix: &str,
        suffix: &str,
        mode: u32,
    ) -> io::Result<(File, OsString)> {
        use std::hash::{BuildHasher, Hasher};
        /// Names tried before giving up: each is new and unpredictable, so a clash is rare.
        const TRIES: u32 = 100;
        let mut last = io::Error::from(ErrorKind::AlreadyExists);
        for attempt in 0..TRIES {
            // A randomly seeded hash of the process, the attempt and the time.
            let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
            hasher.write_u32(std::process::id());
            hasher.write_u32(attempt);
            if let Ok(now) = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH) {
                hasher.write_u128(now.as_nanos());
            }
            let name = OsString::from(format!("{prefix}{:016x}{suffix}", hasher.finish()));
            match self.open_at(&name, Some(mode)) {
                Ok(file) => return Ok((file, name)),
                Err(e) if e.kind() == ErrorKind::AlreadyExists => last = e,
                Err(e) => return Err(e),
            }
        }
        Err(last)
    }

    /// Renames the file `from` of this directory to `to` in it, replacing what `to` is (a link
    /// there is replaced, never followed).
    ///
    /// # Errors
    ///
    /// The system's, when it cannot be renamed.
    pub fn rename(&self, from: &OsStr, to: &OsStr) -> io::Result<()> {
        #[cfg(any(target_os = "linux", target_os = "android"))]
        return Ok(rustix::fs::renameat(&self.fd, from, &self.fd, to)?);
        #[cfg(not(any(target_os = "linux", target_os = "android")))]
        fs::rename(self.path.join(from), self.path.join(to))
    }

    /// Removes the file `name` of this directory.
    ///
    /// # Errors
    ///
    /// The system's, when it cannot be removed.
    pub fn remove_file(&self, name: &OsStr) -> io::Result<()> {
        #[cfg(any(target_os = "linux", target_os = "android"))]
        return Ok(rustix::fs::unlinkat(
            &self.fd,
            name,
            rustix::fs::AtFlags::empty(),
        )?);
        #[cfg(not(any(target_os = "linux", target_os = "android")))]
        fs::remove_file(self.path.join(name))
    }

    /// Opens `name` in this directory to read and write, never through a link and never
    /// waiting; with `create`, creates it new (`O_EXCL`) with those permission bits.
    fn open_at(&self, name: &OsStr, create: Option<u32>) -> io::Result<File> {
        #[cfg(any(target_os = "linux", target_os = "android"))]
        return at::open_file(&self.fd, name, create);
        #[cfg(not(any(target_os = "linux", target_os = "android")))]
        {
            let mut options = options(true);
            if let Some(_mode) = create {
                options.create_new(true);
                #[cfg(unix)]
                std::os::unix::fs::OpenOptionsExt::mode(&mut options, _mode);
            }
            options.open(self.path.join(name))
        }
    }

    /// The refusal for a failed open of `name` without following: a link is refused with "too
    /// many levels of symbolic links", and a directory or socket fails with its own error; each
    /// is named as what it is.
    fn refusal_of(&self, name: &OsStr, error: io::Error) -> Refusal {
        match self.symlink_metadata(name) {
            Ok(meta) if meta.file_type().is_symlink() => Refusal::Link,
            Ok(meta) if !meta.is_file() => Refusal::NotAFile(kind(&meta)),
            _ => Refusal::Io(error),
        }
    }

    /// Whether this process may write the file `name` of this directory, as the system judges
    /// it (effective ids, groups, access control lists).
    #[cfg(unix)]
    fn writable(&self, name: &OsStr) -> bool {
        #[cfg(any(target_os = "linux", target_os = "android"))]
        return rustix::fs::accessat(
            &self.fd,
            name,
            rustix::fs::Access::WRITE_OK,
            rustix::fs::AtFlags::EACCESS,
        )
        .is_ok();
        #[cfg(not(any(target_os = "linux", target_os = "android")))]
        writable(&self.path.join(name))
    }

    /// The directory's mode and owner.
    #[cfg(unix)]
    fn mode_and_owner(&self) -> io::Result<(u32, u32)> {
        #[cfg(any(target_os = "linux", target_os = "android"))]
        {
            let stat = rustix::fs::fstat(&self.fd)?;
            Ok((stat.st_mode, stat.st_uid))
        }
        #[cfg(not(any(target_os = "linux", target_os = "android")))]
        {
            use std::os::unix::fs::MetadataExt;
            let meta = fs::metadata(&self.path)?;
            Ok((meta.mode(), meta.uid()))
        }
    }
}

/// Puts the components of `path` on the stack of a walk, the first on top (popped next): a
/// walk's own path, then a link's target in the link's place.
#[cfg(unix)]
fn push_components(pending: &mut Vec<PathBuf>, path: &Path) {
    let parts: Vec<PathBuf> = path
        .components()
        .map(|c| PathBuf::from(c.as_os_str()))
        .collect();
    pending.extend(parts.into_iter().rev());
}

/// Paths resolved relative to directories held open (Linux): [`Directory`]'s.
#[cfg(any(target_os = "linux", target_os = "android"))]
mod at {
    use std::ffi::OsStr;
    use std::fs::{File, Metadata};
    use std::io;
    use std::os::fd::OwnedFd;
    use std::os::unix::ffi::OsStrExt;
    use std::path::{Component, Path, PathBuf};

    use rustix::fs::{
        CWD, FileType, Mode, OFlags, ResolveFlags, fstat, mkdirat, openat, openat2, readlinkat,
    };
    use rustix::io::Errno;

    use super::{Owner, Refusal, effective_uid};

    /// How a directory on the way is held: to resolve names in, never through a link.
    const DIRECTORY: OFlags = OFlags::PATH
        .union(OFlags::DIRECTORY)
        .union(OFlags::NOFOLLOW)
        .union(OFlags::CLOEXEC);

    /// How a component of the path is opened: itself, a link included.
    const ITSELF: OFlags = OFlags::PATH.union(OFlags::NOFOLLOW).union(OFlags::CLOEXEC);

    /// Links followed before the walk gives up, as the system's own limit.
    const MAX_LINKS: usize = 40;

    /// Opens the directory `dir` by the rule: no other user's link on the way; with `create`,
    /// each missing component of `dir` itself (not of a link's target) is created relative to
    /// the directory opened before it.
    pub(super) fn open_directory(dir: &Path, create: bool) -> Result<OwnedFd, Refusal> {
        let start = start_of(dir)?;
        // No link at all on the way and every component there, at once where the kernel can
        // (Linux 5.6). A link on the way, a missing component, an older kernel or a failure:
        // the walk follows the rule, creates what is missing, and says why it refuses.
        let no_links = ResolveFlags::NO_SYMLINKS | ResolveFlags::NO_MAGICLINKS;
        if let Ok(fd) = openat2(&start, dir, DIRECTORY, Mode::empty(), no_links) {
            return Ok(fd);
        }
        walk(start, dir, create)
    }

    /// Where the walk of `dir` starts: the root for an absolute path, else the working
    /// directory.
    fn start_of(dir: &Path) -> io::Result<OwnedFd> {
        let start = if dir.is_absolute() { "/" } else { "." };
        Ok(openat(CWD, start, DIRECTORY, Mode::empty())?)
    }

    /// Opens `dir` one component at a time from `start`, each relative to the last without
    /// following; a link is opened itself, judged by its owner and its target walked in its
    /// place. With `create`, a missing component of `dir` itself is created (`mkdirat`, as
    /// `mkdir -p`: all permission bits less the umask) and then opened as any other.
    fn walk(start: OwnedFd, dir: &Path, create: bool) -> Result<OwnedFd, Refusal> {
        let me = effective_uid();
        // The components still to walk, the next last; a link's target's go on top.
        let mut pending: Vec<PathBuf> = Vec::new();
        super::push_components(&mut pending, dir);
        // How many of `dir`'s own components are still to walk: the bottom of `pending`.
        let mut own = pending.len();
        let mut at = start;
        // Where the walk is, as a path: directories only, no link among them (but the working
        // directory), for the refusal to name the link.
        let mut shown = PathBuf::new();
        let mut links = 0;
        while let Some(part) = pending.pop() {
            let mine = pending.len() < own;
            own = own.min(pending.len());
            match part.components().next() {
                Some(Component::RootDir) => {
                    at = openat(CWD, "/", DIRECTORY, Mode::empty()).map_err(io::Error::from)?;
                    shown = PathBuf::from("/");
                }
                Some(Component::ParentDir) => {
                    at = openat(&at, "..", DIRECTORY, Mode::empty()).map_err(io::Error::from)?;
                    if shown.as_os_str().is_empty() || shown.ends_with("..") {
                        shown.push("..");
                    } else {
                        shown.pop();
                    }
                }
                Some(Component::Normal(name)) => {
                    let next = match openat(&at, name, ITSELF, Mode::empty()) {
                        Err(Errno::NOENT) if create && mine => {
                            // Created here, or by a racing creator: opened as it is now.
                            match mkdirat(&at, name, Mode::from_raw_mode(0o777)) {
                                Ok(()) | Err(Errno::EXIST) => {}
                                Err(e) => return Err(Refusal::Io(e.into())),
                            }
                            openat(&at, name, ITSELF, Mode::empty())
                        }
                        opened => opened,
                    }
                    .map_err(io::Error::from)?;
                    let stat = fstat(&next).map_err(io::Error::from)?;
                    match FileType::from_raw_mode(stat.st_mode) {
                        FileType::Directory => {
                            at = next;
                            shown.push(name);
                        }
                        FileType::Symlink => {
                            if stat.st_uid != me && stat.st_uid != 0 {
                                return Err(Refusal::ForeignLink {
                                    link: shown.join(name),
                                    owner: Owner { uid: stat.st_uid },
                                });
                            }
                            links += 1;
                            if links > MAX_LINKS {
                                return Err(Refusal::Io(io::Error::from(rustix::io::Errno::LOOP)));
                            }
                            // The link opened above, read itself: the one judged.
                            let target =
                                readlinkat(&next, "", Vec::new()).map_err(io::Error::from)?;
                            let target = OsStr::from_bytes(target.as_bytes());
                            if target.is_empty() {
                                return Err(Refusal::Io(io::ErrorKind::NotFound.into()));
                            }
                            super::push_components(&mut pending, Path::new(target));
                        }
                        _ => return Err(Refusal::Io(io::Error::from(rustix::io::Errno::NOTDIR))),
                    }
                }
                _ => {}
            }
        }
        Ok(at)
    }

    /// The metadata of `name` in the directory `dir`, not following a link.
    pub(super) fn symlink_metadata(dir: &OwnedFd, name: &OsStr) -> io::Result<Metadata> {
        File::from(openat(dir, name, ITSELF, Mode::empty())?).metadata()
    }

    /// Opens `name` in `dir` to read and write, never through a link, never waiting, never
    /// becoming a controlling terminal; with `create`, new with those permission bits.
    pub(super) fn open_file(dir: &OwnedFd, name: &OsStr, create: Option<u32>) -> io::Result<File> {
        let mut flags =
            OFlags::RDWR | OFlags::NOFOLLOW | OFlags::NONBLOCK | OFlags::NOCTTY | OFlags::CLOEXEC;
        let mut mode = Mode::empty();
        if let Some(bits) = create {
            flags |= OFlags::CREATE | OFlags::EXCL;
            mode = Mode::from_raw_mode(bits);
        }
        Ok(File::from(openat(dir, name, flags, mode)?))
    }
}

/// [`check_directory`] where no directory is held open: the path looked at, component by
/// component.
#[cfg(not(any(target_os = "linux", target_os = "android")))]
fn check_directory_by_path(dir: &Path) -> Result<(), Refusal> {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        use std::os::unix::fs::MetadataExt;
        use std::path::Component;
        /// Links followed before the walk gives up (the system's own limit is 40): the open
        /// that follows reports the loop.
        const MAX_LINKS: usize = 40;
        let me = effective_uid();
        // The components still to walk, the next last; a link's target's go on top.
        let mut pending: Vec<PathBuf> = Vec::new();
        push_components(&mut pending, dir);
        // Where the walk is: directories only, no link among them (but the working directory).
        let mut at = PathBuf::new();
        let mut links = 0;
        while let Some(part) = pending.pop() {
            match part.components().next() {
                Some(Component::RootDir) => at = PathBuf::from("/"),
                Some(Component::ParentDir) => {
                    let up = at.as_os_str().is_empty() || at.ends_with("..");
                    if up {
                        at.push("..");
                    } else {
                        at.pop();
                    }
                }
                Some(Component::Normal(name)) => {
                    let next = at.join(name);
                    let Ok(meta) = fs::symlink_metadata(&next) else {
                        return Ok(());
                    };
                    if !meta.file_type().is_symlink() {
                        at = next;
                        continue;
                    }
                    if meta.uid() != me && meta.uid() != 0 {
                        return Err(Refusal::ForeignLink {
                            link: next,
                            owner: Owner { uid: meta.uid() },
                        });
                    }
                    links += 1;
                    let Ok(target) = fs::read_link(&next) else {
                        return Ok(());
                    };
                    if links > MAX_LINKS || target.as_os_str().as_bytes().is_empty() {
                        return Ok(());
                    }
                    push_components(&mut pending, &target);
                }
                _ => {}
            }
        }
    }
    #[cfg(not(unix))]
    let _ = dir;
    Ok(())
}

/// The sticky bit of a mode: in such a directory only a file's owner, the directory's owner or
/// root may rename over or remove the file.
#[cfg(unix)]
const STICKY: u32 = 0o1000;

/// The owner of the file at `path` (not following a link), when it is not this user; `None`
/// for this user's file, a missing path, and where files have no owners.
#[must_use]
pub fn foreign_owner(path: &Path) -> Option<Owner> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let uid = fs::symlink_metadata(path).ok()?.uid();
        (uid != effective_uid()).then_some(Owner { uid })
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        None
    }
}

/// The directory a file at `path` is created in (`.` for a bare name).
#[must_use]
pub fn directory_of(path: &Path) -> &Path {
    match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    }
}

/// How every file is opened: to read, or to read and write (then never through a link);
/// never waiting (a FIFO without a writer would block the open for ever) and never becoming
/// a controlling terminal.
fn options(write: bool) -> OpenOptions {
    let mut options = OpenOptions::new();
    options.read(true).write(write);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        let nofollow = if write { libc::O_NOFOLLOW } else { 0 };
        options.custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY | nofollow);
    }
    options
}

/// The refusal for a failed open of `path`: the open without following refuses a link with
/// "too many levels of symbolic links", and a directory or socket fails with its own error;
/// each is named as what it is.
fn refusal_of(path: &Path, error: io::Error, nofollow: bool) -> Refusal {
    let meta = if nofollow {
        fs::symlink_metadata(path)
    } else {
        fs::metadata(path)
    };
    match meta {
        Ok(meta) if nofollow && meta.file_type().is_symlink() => Refusal::Link,
        Ok(meta) if !meta.is_file() => Refusal::NotAFile(kind(&meta)),
        _ => Refusal::Io(error),
    }
}

/// Checks the opened `file` (the path may have changed since it was looked at): a regular
/// file, not a pseudo-file of the kernel; then clears the non-blocking mode it was opened in.
fn settle(file: &File) -> Result<(), Refusal> {
    regular(&file.metadata()?)?;
    if pseudo(file) {
        return Err(Refusal::NotAFile("a pseudo-file of the kernel"));
    }
    blocking(file)?;
    Ok(())
}

/// Refuses what is not a regular file.
fn regular(meta: &Metadata) -> Result<(), Refusal> {
    if meta.is_file() {
        Ok(())
    } else {
        Err(Refusal::NotAFile(kind(meta)))
    }
}

/// Refuses a link, then what is not a regular file.
fn regular_or_link(meta: &Metadata) -> Result<(), Refusal> {
    if meta.file_type().is_symlink() {
        return Err(Refusal::Link);
    }
    regular(meta)
}

/// What something that is not a regular file is, with its article.
fn kind(meta: &Metadata) -> &'static str {
    let kind = meta.file_type();
    if kind.is_dir() {
        return "a directory";
    }
    if kind.is_symlink() {
        return "a symbolic link";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return "a FIFO";
        }
        if kind.is_char_device() || kind.is_block_device() {
            return "a device";
        }
        if kind.is_socket() {
            return "a socket";
        }
    }
    "something else"
}

/// Whether `file` lives on one of the kernel's pseudo file systems, whose "regular" files may
/// wait for ever (`/proc/kmsg`, tracefs' `trace_pipe`) or never end.
#[cfg(target_os = "linux")]
// The magic numbers and `f_type` are of different integer types on different targets.
#[allow(clippy::useless_conversion)]
fn pseudo(file: &File) -> bool {
    use std::os::fd::AsRawFd;
    let mut info = std::mem::MaybeUninit::<libc::statfs>::uninit();
    // SAFETY: fstatfs writes a `statfs` into the buffer, which is read only when it succeeded;
    // the descriptor is owned by `file`.
    if unsafe { libc::fstatfs(file.as_raw_fd(), info.as_mut_ptr()) } != 0 {
        return false;
    }
    // SAFETY: fstatfs succeeded, so the buffer is initialised.
    let kind = i64::from(unsafe { info.assume_init() }.f_type);
    [
        i64::from(libc::PROC_SUPER_MAGIC),
        i64::from(libc::SYSFS_MAGIC),
        i64::from(libc::DEBUGFS_MAGIC),
        i64::from(libc::TRACEFS_MAGIC),
        i64::from(libc::SECURITYFS_MAGIC),
        i64::from(libc::CGROUP_SUPER_MAGIC),
        i64::from(libc::CGROUP2_SUPER_MAGIC),
    ]
    .contains(&kind)
}

#[cfg(not(target_os = "linux"))]
fn pseudo(_file: &File) -> bool {
    false
}

/// Clears the non-blocking mode the file was opened in (it has no effect on a regular file;
/// cleared all the same, so that the file behaves as any other).
fn blocking(file: &File) -> io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::fd::AsRawFd;
        let fd = file.as_raw_fd();
        // SAFETY: fcntl on a descriptor this `File` owns, with integer arguments only.
        let flags = unsafe { libc::fcntl(fd, libc::F_GETFL) };
        if flags < 0 {
            return Err(io::Error::last_os_error());
        }
        // SAFETY: as above.
        if unsafe { libc::fcntl(fd, libc::F_SETFL, flags & !libc::O_NONBLOCK) } < 0 {
            return Err(io::Error::last_os_error());
        }
    }
    #[cfg(not(unix))]
    let _ = file;
    Ok(())
}

/// This process's effective user id.
#[cfg(unix)]
fn effective_uid() -> u32 {
    // SAFETY: geteuid has no arguments and cannot fail.
    unsafe { libc::geteuid() }
}

/// Whether this process may write the file at `path`, as the system judges it (effective ids,
/// groups, access control lists).
#[cfg(all(unix, not(any(target_os = "linux", target_os = "android"))))]
fn writable(path: &Path) -> bool {
    use std::os::unix::ffi::OsStrExt;
    let Ok(name) = std::ffi::CString::new(path.as_os_str().as_bytes()) else {
        return false;
    };
    // SAFETY: a NUL-terminated path that outlives the call; no pointer is kept.
    unsafe { libc::faccessat(libc::AT_FDCWD, name.as_ptr(), libc::W_OK, libc::AT_EACCESS) == 0 }
}

/// The name of the user `uid`, where the system's user database has one.
#[cfg(unix)]
fn user_name(uid: u32) -> Option<String> {
    let mut buffer = vec![0 as libc::c_char; 4096];
    let mut entry = std::mem::MaybeUninit::<libc::passwd>::uninit();
    let mut found: *mut libc::passwd = std::ptr::null_mut();
    // SAFETY: getpwuid_r writes an entry and strings into the buffers given, of the lengths
    // given, and sets `found` to the entry or to null; nothing is read unless it is the entry.
    let status = unsafe {
        libc::getpwuid_r(
            uid,
            entry.as_mut_ptr(),
            buffer.as_mut_ptr(),
            buffer.len(),
            &mut found,
        )
    };
    if status != 0 || found.is_null() {
        return None;
    }
    // SAFETY: the entry was filled in, and its name points into `buffer`, NUL-terminated.
    let name = unsafe { std::ffi::CStr::from_ptr(entry.assume_init().pw_name) };
    Some(name.to_string_lossy().into_owned())
}

#[cfg(not(unix))]
fn user_name(_uid: u32) -> Option<String> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_regular_file_is_read_and_created_once() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("j");
        let (_, created) = open_update(&path).unwrap();
        assert!(created);
        let (_, created) = open_update(&path).unwrap();
        assert!(!created);
        open_read(&path).unwrap();
        check_replace(&path).unwrap();
        check_replace(&dir.path().join("missing")).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn a_link_is_read_through_but_never_written_through() {
        let dir = tempfile::tempdir().unwrap();
        let (target, link) = (dir.path().join("target"), dir.path().join("link"));
        std::os::unix::fs::symlink(&target, &link).unwrap();
        // Dangling: neither created nor followed.
        assert!(matches!(open_update(&link), Err(Refusal::Link)));
        assert!(!target.exists());
        fs::write(&target, "keep").unwrap();
        assert!(matches!(open_update(&link), Err(Refusal::Link)));
        assert!(matches!(check_replace(&link), Err(Refusal::Link)));
        open_read(&link).unwrap();
        assert_eq!(fs::read(&target).unwrap(), b"keep");
    }

    #[cfg(unix)]
    #[test]
    fn only_this_users_or_roots_links_are_followed_on_the_way_to_a_written_file() {
        use std::os::unix::fs::{lchown, symlink};
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("target");
        fs::create_dir(&target).unwrap();
        // One's own links, a chain of them, relative and absolute, with `..` on the way.
        symlink("target", dir.path().join("rel")).unwrap();
        symlink(dir.path().join("rel"), dir.path().join("abs")).unwrap();
        let via = dir.path().join("abs").join("..").join("abs").join("j");
        open_update(&via).unwrap();
        check_replace(&via).unwrap();
        assert!(target.join("j").is_file());
        // Another user's link (only root can make one here), met directly or through one's own.
        if effective_uid() != 0 {
            return;
        }
        let theirs = dir.path().join("theirs");
        symlink(&target, &theirs).unwrap();
        lchown(&theirs, Some(65534), Some(65534)).unwrap();
        symlink(&theirs, dir.path().join("mine")).unwrap();
        for path in [theirs.join("k"), dir.path().join("mine").join("k")] {
            for refused in [open_update(&path).map(drop), check_replace(&path)] {
                let Err(Refusal::ForeignLink { link, owner }) = refused else {
                    panic!("{}: {refused:?}", path.display())
                };
                assert_eq!((link.as_path(), owner.uid), (theirs.as_path(), 65534));
            }
        }
        assert!(!target.join("k").exists());
        // Reading follows it: it changes nothing.
        fs::write(target.join("r"), "").unwrap();
        open_read(&theirs.join("r")).unwrap();
    }

    #[test]
    fn a_file_is_created_and_renamed_in_the_directory_opened() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("out");
        let (opened, name) = Directory::of(&out).unwrap();
        assert_eq!((opened.path(), name), (dir.path(), OsStr::new("out")));
        let (mut file, temp) = opened.create_temporary(".t-", ".part", 0o644).unwrap();
        std::io::Write::write_all(&mut file, b"new").unwrap();
        assert!(temp.to_str().unwrap().starts_with(".t-"));
        opened.check_replace(name).unwrap();
        opened.rename(&temp, name).unwrap();
        assert_eq!(fs::read(dir.path().join("out")).unwrap(), b"new");
        assert!(opened.symlink_metadata(name).unwrap().is_file());
        opened.remove_file(name).unwrap();
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 0);
        // What names no file of a directory.
        for path in [dir.path().join(".."), PathBuf::from("/")] {
            assert!(matches!(
                Directory::of(&path),
                Err(Refusal::NotAFile("a directory"))
            ));
        }
        let gone = dir.path().join("gone").join("out");
        let missing = Directory::of(&gone);
        assert!(matches!(missing, Err(Refusal::Io(e)) if e.kind() == ErrorKind::NotFound));
    }

    #[test]
    fn a_directory_is_created_with_what_is_missing_of_its_path() {
        let dir = tempfile::tempdir().unwrap();
        let nested = dir.path().join("a").join("b").join("..").join("c");
        let created = Directory::create_all(&nested).unwrap();
        assert_eq!(created.path(), nested);
        assert!(dir.path().join("a/b").is_dir() && dir.path().join("a/c").is_dir());
        // Files are created in it; an existing path is opened as it is.
        let (_, name) = created.create_temporary("t-", "", 0o644).unwrap();
        let again = Directory::create_all(&dir.path().join("a/c/")).unwrap();
        assert!(again.symlink_metadata(&name).unwrap().is_file());
        Directory::create_all(dir.path()).unwrap();
        // A component that is a file: nothing is created beyond it.
        fs::write(dir.path().join("f"), "").unwrap();
        for path in [dir.path().join("f"), dir.path().join("f/new")] {
            let refused = Directory::create_all(&path).unwrap_err();
            // Not a directory (Linux's walk) or one that exists (elsewhere: `mkdir -p`'s).
            let kinds = [ErrorKind::NotADirectory, ErrorKind::AlreadyExists];
            assert!(
                matches!(&refused, Refusal::Io(e) if kinds.contains(&e.kind())),
                "{}: {refused:?}",
                path.display()
            );
        }
        assert!(dir.path().join("f").is_file());
    }

    #[cfg(unix)]
    #[test]
    fn a_directory_is_created_through_no_link_but_ones_own_to_what_exists() {
        use std::os::unix::fs::{lchown, symlink};
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("target");
        fs::create_dir(&target).unwrap();
        // One's own link to a directory is followed, and what is missing created beyond it.
        symlink("target", dir.path().join("mine")).unwrap();
        Directory::create_all(&dir.path().join("mine/x/y")).unwrap();
        assert!(target.join("x/y").is_dir());
        // A link to what does not exist leads nowhere, as for `mkdir -p`: its target is not
        // made up.
        symlink("target/gone/deeper", dir.path().join("dangling")).unwrap();
        let refused = Directory::create_all(&dir.path().join("dangling/z")).unwrap_err();
        assert!(matches!(&refused, Refusal::Io(_)), "{refused:?}");
        assert!(!target.join("gone").exists());
        // Another user's link (only root can make one here) is not followed, alone or at the
        // end of one's own.
        if effective_uid() != 0 {
            return;
        }
        let theirs = dir.path().join("theirs");
        symlink(&target, &theirs).unwrap();
        lchown(&theirs, Some(65534), Some(65534)).unwrap();
        symlink(&theirs, dir.path().join("chain")).unwrap();
        for path in [
            theirs.clone(),
            theirs.join("new/deeper"),
            dir.path().join("chain/new"),
        ] {
            let refused = Directory::create_all(&path);
            let Err(Refusal::ForeignLink { link, owner }) = refused else {
                panic!("{}: {refused:?}", path.display())
            };
            assert_eq!((link.as_path(), owner.uid), (theirs.as_path(), 65534));
        }
        assert!(!target.join("new").exists());
    }

    #[cfg(unix)]
    #[test]
    fn what_is_not_a_regular_file_is_named_and_never_waited_for() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo");
        let name = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        // SAFETY: a NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o644) }, 0);
        let cases = [
            (fifo.as_path(), "a FIFO"),
            (dir.path(), "a directory"),
            (Path::new("/dev/zero"), "a device"),
        ];
        for (path, what) in cases {
            for refused in [
                open_read(path).map(drop),
                open_update(path).map(drop),
                check_replace(path),
            ] {
                let Err(Refusal::NotAFile(found)) = refused else {
                    panic!("{}: {refused:?}", path.display())
                };
                assert_eq!(found, what);
            }
        }
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_pseudo_file_of_the_kernel_is_refused() {
        let refused = open_read(Path::new("/proc/self/status")).unwrap_err();
        assert!(
            refused.to_string().contains("pseudo-file of the kernel"),
            "{refused}"
        );
    }

    #[test]
    fn a_file_without_write_permission_is_not_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("ro");
        fs::write(&path, "x").unwrap();
        let mut permissions = fs::metadata(&path).unwrap().permissions();
        permissions.set_readonly(true);
        fs::set_permissions(&path, permissions).unwrap();
        assert!(matches!(check_replace(&path), Err(Refusal::ReadOnly)));
    }

    #[cfg(unix)]
    #[test]
    fn an_owner_is_named() {
        assert_eq!(Owner { uid: 0 }.to_string(), "root (uid 0)");
        assert_eq!(Owner { uid: 4_000_000_000 }.to_string(), "uid 4000000000");
    }
}
