//! A directory of a written path swapped, again and again, between a real directory and another
//! user's link to a third directory while files are opened and replaced, or directories created,
//! through that path: nothing is ever created through the link.
#![cfg(target_os = "linux")]

use std::fs;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use nqueens_files::{Directory, Refusal, open_update};
use rustix::fs::{CWD, RenameFlags, renameat_with};

/// Opens by `open` the paths `base/sw/NAME` while another thread swaps `base/sw` with a link
/// of another user's (`base/sw.link` → `victim`), for `time` or `runs` opens, or until a file
/// reaches `victim`; returns how many opens ran and how many files reached `victim`.
fn race(
    open: impl Fn(&Path) -> Result<(), Refusal>,
    time: Duration,
    runs: usize,
) -> (usize, usize) {
    use std::os::unix::fs::{lchown, symlink};
    let dir = tempfile::tempdir().unwrap();
    let (base, victim) = (dir.path().join("base"), dir.path().join("victim"));
    fs::create_dir_all(base.join("sw")).unwrap();
    fs::create_dir(&victim).unwrap();
    let link = base.join("sw.link");
    symlink(&victim, &link).unwrap();
    lchown(&link, Some(65534), Some(65534)).unwrap();
    let stop = AtomicBool::new(false);
    let mut ran = 0;
    // An unexpected failure, reported once the swapping has stopped (a panic within the scope
    // would wait for the swapper for ever).
    let mut failed = None;
    std::thread::scope(|scope| {
        scope.spawn(|| {
            while !stop.load(Ordering::Relaxed) {
                renameat_with(CWD, base.join("sw"), CWD, &link, RenameFlags::EXCHANGE).unwrap();
            }
        });
        let start = Instant::now();
        while ran < runs && start.elapsed() < time {
            let path = base.join("sw").join(format!("n6-{ran}.ckpt"));
            match open(&path) {
                Ok(()) | Err(Refusal::ForeignLink { .. }) => {}
                Err(other) => {
                    failed = Some(format!("{}: {other}", path.display()));
                    break;
                }
            }
            ran += 1;
            // One through the link is enough.
            if victim.join(format!("n6-{}.ckpt", ran - 1)).exists() {
                break;
            }
        }
        stop.store(true, Ordering::Relaxed);
    });
    if let Some(failed) = failed {
        panic!("{failed}");
    }
    (ran, fs::read_dir(&victim).unwrap().count())
}

/// Whether this process may give a link to another user (root), which the race needs; the
/// test says it is skipped otherwise.
fn may_give_links_away() -> bool {
    // SAFETY: geteuid has no arguments and cannot fail.
    let root = unsafe { libc::geteuid() } == 0;
    if !root {
        eprintln!("skipped: another user's link needs root to be made");
    }
    root
}

#[test]
fn a_journal_is_never_created_through_a_link_swapped_in_on_its_way() {
    if !may_give_links_away() {
        return;
    }
    let (ran, through) = race(
        |path| open_update(path).map(drop),
        Duration::from_secs(2),
        1_000_000,
    );
    eprintln!("{through} of {ran} opens created the file through the link");
    assert_eq!(through, 0, "{through} of {ran} opens went through the link");
}

#[test]
fn a_directory_is_never_created_through_a_link_swapped_in_on_its_way() {
    if !may_give_links_away() {
        return;
    }
    // `base/sw/NAME/sub`: two directories created below the swapped one.
    let (ran, through) = race(
        |path| Directory::create_all(&path.join("sub")).map(drop),
        Duration::from_secs(2),
        1_000_000,
    );
    eprintln!("{through} of {ran} creations went through the link");
    assert_eq!(
        through, 0,
        "{through} of {ran} creations went through the link"
    );
}
