//! The files the tool opens, as a hostile user would arrange them: links planted where it writes,
//! FIFOs and devices where it reads, other users' files where it replaces, journals altered with
//! their checksums recomputed.

use std::path::{Path, PathBuf};
use std::process::{Command as Std, Output};
use std::time::Duration;

use crate::util;

/// `nqueens ARGS` as a plain process, with a guard against hangs (a blocking open would hang;
/// the guard is no measurement).
fn run(args: &[&std::ffi::OsStr]) -> Output {
    let mut command = util::nqueens();
    command.timeout(Duration::from_secs(60));
    command.args(args).output().unwrap()
}

/// `run` for plain text arguments.
fn run_str(args: &[&str]) -> Output {
    let args: Vec<&std::ffi::OsStr> = args.iter().map(std::ffi::OsStr::new).collect();
    run(&args)
}

fn text(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// Adds `added` to the count of the journal's first task record and recomputes the record's
/// checksum, as someone who may write the file could.
fn forge_first_record(journal: &Path, added: u64) {
    let (header, record) = (crate::util::HEADER_LEN, crate::util::RECORD_LEN);
    let mut bytes = std::fs::read(journal).unwrap();
    let first = &mut bytes[header..header + record];
    let count = u64::from_le_bytes(first[18..26].try_into().unwrap());
    first[18..26].copy_from_slice(&(count + added).to_le_bytes());
    crate::util::reseal_records(&mut bytes);
    std::fs::write(journal, bytes).unwrap();
}

/// Checks that a command ended with exit code 1, its results on stdout, and one error line on
/// stderr saying that the count is not the known one (returned).
fn flagged_as_not_known(out: &Output, total: &str) -> String {
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = util::stderr(out);
    assert_eq!(out.status.code(), Some(1), "{stdout}{stderr}");
    assert!(stdout.contains(total), "the total is not printed: {stdout}");
    let error = util::the_line(&stderr, |l| l.starts_with("nqueens: error: "));
    assert!(error.contains("is not the known 14,200"), "{error}");
    error.to_string()
}

#[test]
fn an_altered_journal_never_gives_a_wrong_total_with_exit_0() {
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("n12.ckpt");
    run_str(&["count", "12", "-q", "--checkpoint", text(&journal)]);
    forge_first_record(&journal, 1000);

    // Resumed: every task from the journal, the total printed, flagged, exit 1.
    let out = run_str(&["count", "12", "-q", "--checkpoint", text(&journal)]);
    let error = flagged_as_not_known(&out, "22,200");
    assert!(error.contains(text(&journal)), "{error}");
    let out = run_str(&[
        "count",
        "12",
        "-q",
        "-f",
        "json",
        "--checkpoint",
        text(&journal),
    ]);
    flagged_as_not_known(&out, "22200");

    // Merged, alone or as a shard among others.
    flagged_as_not_known(&run_str(&["merge", text(&journal)]), "22,200");
    let shards: Vec<PathBuf> = (0..2)
        .map(|k| dir.path().join(format!("n12-{k}of2.ckpt")))
        .collect();
    for (k, shard) in shards.iter().enumerate() {
        let spec = format!("{k}/2");
        let out = run_str(&["count", "12", "--shard", &spec, "--checkpoint", text(shard)]);
        assert!(out.status.success(), "{}", util::stderr(&out));
    }
    assert!(
        run_str(&["merge", text(&shards[0]), text(&shards[1])])
            .status
            .success()
    );
    forge_first_record(&shards[1], 1000);
    let out = run_str(&["merge", text(&shards[0]), text(&shards[1])]);
    flagged_as_not_known(&out, "22,200");
}

#[test]
fn the_library_checks_a_resumed_count_against_the_known_one() {
    use nqueens::{CountOptions, RunControl, Strategy, count_with};
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("n12.ckpt");
    let options = CountOptions::new(2, Strategy::Symmetric);
    let control = RunControl::default().with_journal(&journal);
    let run = count_with(12, &options, &control).unwrap();
    assert_eq!(run.counts.check_known(), Ok(()));
    forge_first_record(&journal, 1000);
    let resumed = count_with(12, &options, &control).unwrap();
    let wrong = resumed.counts.check_known().unwrap_err();
    assert_eq!((wrong.total, wrong.known.total), (22_200, 14_200));
    let merged = nqueens::journal::merge(&[&journal]).unwrap();
    assert_eq!(merged.check_known(), Err(wrong));
}

/// Whether the tests run as root, who can give files away and run the tool as another user;
/// `false` with a note otherwise.
#[cfg(unix)]
fn root(what: &str) -> bool {
    // SAFETY: geteuid has no arguments and cannot fail.
    let root = unsafe { libc::geteuid() } == 0;
    if !root {
        println!("note: not root; {what} is not tested");
    }
    root
}

/// The user the "other user" cases run as.
#[cfg(unix)]
const NOBODY: u32 = 65534;

/// `nqueens ARGS` run as [`NOBODY`] (with `setpriv`), or `None` with a note where that is not
/// possible here (no `setpriv`, or the binary out of that user's reach).
#[cfg(unix)]
fn as_nobody(args: &[&str]) -> Option<Output> {
    let mut command = Std::new("setpriv");
    command
        .args([
            format!("--reuid={NOBODY}"),
            format!("--regid={NOBODY}"),
            "--clear-groups".to_string(),
        ])
        .arg(env!("CARGO_BIN_EXE_nqueens"));
    let works = Std::new("setpriv")
        .args([
            &format!("--reuid={NOBODY}"),
            &format!("--regid={NOBODY}"),
            "--clear-groups",
            env!("CARGO_BIN_EXE_nqueens"),
            "--version",
        ])
        .output()
        .is_ok_and(|out| out.status.success());
    if !works {
        println!("note: cannot run the binary as uid {NOBODY} with setpriv; skipped");
        return None;
    }
    Some(command.args(args).output().unwrap())
}

/// A fresh directory with `mode` (`0o1777`: sticky, open to all).
#[cfg(unix)]
fn directory_with_mode(parent: &Path, name: &str, mode: u32) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let dir = parent.join(name);
    std::fs::create_dir(&dir).unwrap();
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(mode)).unwrap();
    dir
}

#[cfg(unix)]
#[test]
fn resuming_another_users_journal_warns_and_names_the_owner() {
    if !root("resuming a journal of another user") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("n8.ckpt");
    run_str(&["count", "8", "--checkpoint", text(&journal)]);
    std::os::unix::fs::chown(&journal, Some(NOBODY), Some(NOBODY)).unwrap();
    let out = run_str(&["count", "8", "--checkpoint", text(&journal)]);
    assert!(out.status.success(), "{}", util::stderr(&out));
    let warning = util::stderr(&out);
    let warning = warning
        .lines()
        .find(|l| l.starts_with("nqueens: warning: "))
        .unwrap_or_else(|| panic!("no warning: {warning}"));
    assert!(warning.contains(text(&journal)), "{warning}");
    assert!(warning.contains(&format!("uid {NOBODY}")), "{warning}");
    // One's own journal: no warning.
    std::os::unix::fs::chown(&journal, Some(0), Some(0)).unwrap();
    let out = run_str(&["count", "8", "--checkpoint", text(&journal)]);
    assert!(!util::stderr(&out).contains("warning"));
}

#[cfg(unix)]
#[test]
fn a_link_at_any_journal_path_is_refused_and_never_followed() {
    let dir = tempfile::tempdir().unwrap();
    let elsewhere = dir.path().join("elsewhere.ckpt");
    let sub = dir.path().join("sub");
    std::fs::create_dir(&sub).unwrap();
    // Each way --checkpoint names a journal: the file, a file per board, a directory (whole
    // and sharded).
    let cases: Vec<(Vec<String>, PathBuf)> = vec![
        (
            vec!["10".into(), text(&dir.path().join("n10.ckpt")).into()],
            dir.path().join("n10.ckpt"),
        ),
        (
            vec!["8,9".into(), text(&dir.path().join("run.ckpt")).into()],
            dir.path().join("run-n8.ckpt"),
        ),
        (
            vec!["10".into(), format!("{}/", text(&sub))],
            sub.join("n10.ckpt"),
        ),
        (
            vec!["10".into(), format!("{}/", text(&sub)), "1/2".into()],
            sub.join("n10-s1-of-2.ckpt"),
        ),
    ];
    for (args, link) in cases {
        std::os::unix::fs::symlink(&elsewhere, &link).unwrap();
        let mut command = vec!["count", &args[0], "--checkpoint", &args[1]];
        if let Some(shard) = args.get(2) {
            command.extend(["--shard", shard]);
        }
        // Dangling (the target would be created), then to an empty file (written into).
        for _ in 0..2 {
            let refused = util::failure_in(&run_str(&command));
            assert!(
                refused.contains(&format!("journal {} is a symbolic link", text(&link))),
                "{refused}"
            );
            if !elsewhere.exists() {
                std::fs::write(&elsewhere, "").unwrap();
            }
        }
        assert_eq!(std::fs::read(&elsewhere).unwrap(), b"");
        assert!(
            std::fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        std::fs::remove_file(&elsewhere).unwrap();
    }
    // Reading follows a link: merge reads the journal it points to.
    let journal = dir.path().join("real.ckpt");
    run_str(&["count", "8", "--checkpoint", text(&journal)]);
    let link = dir.path().join("link-to-real.ckpt");
    std::os::unix::fs::symlink(&journal, &link).unwrap();
    assert!(run_str(&["merge", text(&link)]).status.success());
}

#[cfg(unix)]
#[test]
fn a_link_to_a_directory_leads_no_journal_astray() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("target");
    std::fs::create_dir(&target).unwrap();
    let link = dir.path().join("journals");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    // Without a `/`, the link is the journal's own path.
    let refused = util::failure_in(&run_str(&["count", "8", "--checkpoint", text(&link)]));
    assert!(refused.contains("is a symbolic link"), "{refused}");
    assert_eq!(std::fs::read_dir(&target).unwrap().count(), 0);
    // With a `/`, one's own link to a directory is followed.
    let named = format!("{}/", text(&link));
    assert!(
        run_str(&["count", "8", "--checkpoint", &named])
            .status
            .success()
    );
    assert!(target.join("n8.ckpt").is_file());
    // Another user's is not.
    if !root("another user's link to a directory") {
        return;
    }
    std::fs::remove_file(target.join("n8.ckpt")).unwrap();
    std::os::unix::fs::lchown(&link, Some(NOBODY), Some(NOBODY)).unwrap();
    let refused = util::failure_in(&run_str(&["count", "8", "--checkpoint", &named]));
    assert!(
        refused.contains("symbolic link that belongs to") && refused.contains("uid 65534"),
        "{refused}"
    );
    assert_eq!(std::fs::read_dir(&target).unwrap().count(), 0);
}

/// `--checkpoint DIR/` creates what is missing of DIR, nested directories included; a file on
/// the way is named, and another user's link on the way is never created through (nor by
/// `man --dir`).
#[test]
fn a_checkpoint_directory_is_created_nested_and_never_through_another_users_link() {
    let dir = tempfile::tempdir().unwrap();
    let nested = dir.path().join("runs").join("sub");
    let named = format!("{}/", text(&nested));
    let out = run_str(&["count", "6", "-q", "--checkpoint", &named]);
    assert!(out.status.success(), "{}", util::stderr(&out));
    assert!(nested.join("n6.ckpt").is_file());
    // Resumed from the directory now there.
    let out = run_str(&["count", "6", "-q", "--checkpoint", &named]);
    assert!(out.status.success(), "{}", util::stderr(&out));
    // A file on the way.
    let file = dir.path().join("file");
    std::fs::write(&file, "keep").unwrap();
    let named = format!("{}/", text(&file.join("sub")));
    let refused = util::failure_in(&run_str(&["count", "6", "--checkpoint", &named]));
    assert!(
        refused.contains(&format!("cannot create the directory {named}")),
        "{refused}"
    );
    assert_eq!(std::fs::read(&file).unwrap(), b"keep");
    #[cfg(unix)]
    {
        use std::os::unix::fs::{lchown, symlink};
        if !root("another user's link on the way to a created directory") {
            return;
        }
        let target = dir.path().join("target");
        std::fs::create_dir(&target).unwrap();
        let theirs = dir.path().join("theirs");
        symlink(&target, &theirs).unwrap();
        lchown(&theirs, Some(NOBODY), Some(NOBODY)).unwrap();
        let named = format!("{}/", text(&theirs.join("new").join("sub")));
        let refused = util::failure_in(&run_str(&["count", "6", "--checkpoint", &named]));
        assert!(
            refused.contains(&format!("cannot keep the journals in {named}"))
                && refused.contains(&format!(
                    "{} is a symbolic link that belongs to nobody (uid 65534)",
                    text(&theirs)
                )),
            "{refused}"
        );
        // Nor does `man --dir`, which creates its directory as `--checkpoint DIR/` does.
        let pages = theirs.join("share").join("man1");
        let refused = util::failure_in(&run_str(&["man", "--dir", text(&pages)]));
        assert!(
            refused.contains("cannot write the manual pages")
                && refused.contains("symbolic link that belongs to nobody (uid 65534)"),
            "{refused}"
        );
        assert_eq!(std::fs::read_dir(&target).unwrap().count(), 0);
    }
}

#[cfg(unix)]
#[test]
fn a_link_at_a_plot_or_a_page_is_refused_and_left_alone() {
    let dir = tempfile::tempdir().unwrap();
    let elsewhere = dir.path().join("elsewhere");
    let plot = dir.path().join("s.svg");
    let pages = directory_with_mode(dir.path(), "man", 0o755);
    let page = pages.join("nqueens-count.1");
    let saved = dir.path().join("s.json");
    let out = run_str(&["scale", "7", "-t", "1", "-r", "1", "-f", "json"]);
    std::fs::write(&saved, &out.stdout).unwrap();
    let commands: Vec<(Vec<&str>, &Path, &str)> = vec![
        (
            vec!["scale", "7", "-t", "1", "-r", "1", "--plot", text(&plot)],
            &plot,
            "the plot",
        ),
        (
            vec!["scale", "--compare", text(&saved), "--plot", text(&plot)],
            &plot,
            "the plot",
        ),
        (vec!["man", "--dir", text(&pages)], &page, "the manual page"),
    ];
    for (args, link, what) in commands {
        std::os::unix::fs::symlink(&elsewhere, link).unwrap();
        for _ in 0..2 {
            let refused = util::failure_in(&run_str(&args));
            assert!(
                refused.contains(&format!("cannot write {what} to {}", text(link))),
                "{refused}"
            );
            assert!(refused.contains("symbolic link"), "{refused}");
            std::fs::write(&elsewhere, "keep").unwrap();
        }
        assert_eq!(std::fs::read(&elsewhere).unwrap(), b"keep");
        std::fs::remove_file(link).unwrap();
        std::fs::remove_file(&elsewhere).unwrap();
    }
    // No page was written beside the link.
    assert_eq!(std::fs::read_dir(&pages).unwrap().count(), 0);
}

#[cfg(unix)]
#[test]
fn what_is_not_a_regular_file_is_refused_at_once_where_a_file_is_read() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("fifo");
    let made = Std::new("mkfifo").arg(&fifo).status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo");
    let mut paths = vec![
        (fifo.clone(), "a FIFO"),
        (PathBuf::from("/dev/zero"), "a device"),
        (dir.path().to_path_buf(), "a directory"),
    ];
    if Path::new("/proc/kmsg").exists() {
        paths.push((PathBuf::from("/proc/kmsg"), "a pseudo-file of the kernel"));
    } else {
        println!("note: no /proc/kmsg here; the kernel's pseudo-files are not tested");
    }
    for (path, what) in &paths {
        let mut commands = vec![
            vec!["scale", "--compare", text(path)],
            vec!["merge", text(path)],
        ];
        // A directory is where --checkpoint keeps the journals.
        if *what != "a directory" {
            commands.push(vec!["count", "8", "--checkpoint", text(path)]);
        }
        for args in commands {
            let refused = util::failure_in(&run_str(&args));
            assert!(
                refused.contains(&format!("{what}, not a regular file")),
                "{args:?}: {refused}"
            );
        }
    }
}

#[cfg(unix)]
#[test]
fn another_users_file_is_refused_up_front_where_the_rename_would_judge_it() {
    use std::os::unix::fs::chown;
    if !root("replacing another user's file") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let sticky = directory_with_mode(dir.path(), "sticky", 0o1777);
    let open = directory_with_mode(dir.path(), "open", 0o777);
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let roots = [sticky.join("root.svg"), open.join("root.svg")];
    for path in &roots {
        std::fs::write(path, "keep").unwrap();
    }
    for path in &roots {
        let Some(out) = as_nobody(&["scale", "8", "-t", "1,2", "-r", "1", "--plot", text(path)])
        else {
            return;
        };
        // Refused before anything is measured: nothing on stdout, one line.
        let refused = util::failure_in(&out);
        assert!(refused.contains("belongs to root (uid 0)"), "{refused}");
        assert!(refused.contains("you may not write it"), "{refused}");
        assert_eq!(std::fs::read(path).unwrap(), b"keep");
    }
    // Writable by all, but in a sticky directory: only its owner may rename over it.
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&roots[0], std::fs::Permissions::from_mode(0o666)).unwrap();
    }
    let out = as_nobody(&[
        "scale",
        "8",
        "-t",
        "1",
        "-r",
        "1",
        "--plot",
        text(&roots[0]),
    ])
    .unwrap();
    let refused = util::failure_in(&out);
    assert!(
        refused.contains(&format!("in the sticky directory {}", text(&sticky))),
        "{refused}"
    );
    assert_eq!(std::fs::read(&roots[0]).unwrap(), b"keep");
    // The manual pages alike: a page of root's is not replaced, and no page is written.
    let page = open.join("nqueens-count.1");
    std::fs::write(&page, "keep").unwrap();
    let refused = util::failure_in(&as_nobody(&["man", "--dir", text(&open)]).unwrap());
    assert!(
        refused.contains("cannot write the manual page to"),
        "{refused}"
    );
    assert_eq!(std::fs::read(&page).unwrap(), b"keep");
    assert!(!open.join("nqueens.1").exists());
    // One's own file in the sticky directory is replaced.
    let own = sticky.join("own.svg");
    std::fs::write(&own, "old").unwrap();
    chown(&own, Some(NOBODY), Some(NOBODY)).unwrap();
    let out = as_nobody(&["scale", "8", "-t", "1", "-r", "1", "--plot", text(&own)]).unwrap();
    assert!(out.status.success(), "{}", util::stderr(&out));
    assert!(std::fs::read_to_string(&own).unwrap().contains("<svg"));
}

/// A symbolic link of another user among the directories of a path where a file is written (a
/// journal, a plot, a page) is not followed: planted in a sticky directory open to all, it
/// would lead the file into a directory of that user's choosing. Reached through one's own link
/// too; one's own link on the way is followed.
#[cfg(unix)]
#[test]
fn another_users_link_on_the_way_to_a_written_file_is_not_followed() {
    use std::os::unix::fs::{chown, lchown, symlink};
    if !root("another user's link among the directories of a path") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let sticky = directory_with_mode(dir.path(), "tmp", 0o1777);
    let theirs = directory_with_mode(dir.path(), "theirs", 0o777);
    chown(&theirs, Some(NOBODY), Some(NOBODY)).unwrap();
    let planted = sticky.join("lnk");
    symlink(&theirs, &planted).unwrap();
    lchown(&planted, Some(NOBODY), Some(NOBODY)).unwrap();
    let mine_to_planted = dir.path().join("chain");
    symlink(&planted, &mine_to_planted).unwrap();
    for base in [&planted, &mine_to_planted] {
        let journal = base.join("n8.ckpt");
        let plot = base.join("p.svg");
        let page = base.join("p.html");
        let journals = format!("{}/sub/", text(base));
        let commands: [Vec<&str>; 4] = [
            vec!["count", "8", "--checkpoint", text(&journal)],
            vec!["count", "8", "--checkpoint", &journals],
            vec!["scale", "7", "-t", "1", "-r", "1", "--plot", text(&plot)],
            vec!["watch", "4", "--html", text(&page)],
        ];
        for args in commands {
            let refused = util::failure_in(&run_str(&args));
            assert!(
                refused.contains(&format!(
                    "{} is a symbolic link that belongs to nobody (uid 65534)",
                    text(&planted)
                )),
                "{args:?}: {refused}"
            );
        }
    }
    assert_eq!(std::fs::read_dir(&theirs).unwrap().count(), 0);
    // One's own link on the way is followed.
    let mine = dir.path().join("mine");
    symlink(&theirs, &mine).unwrap();
    let journal = mine.join("n8.ckpt");
    let out = run_str(&["count", "8", "--checkpoint", text(&journal)]);
    assert!(out.status.success(), "{}", util::stderr(&out));
    assert!(theirs.join("n8.ckpt").is_file());
}
