//! The library's errors as a caller sees them: each message says its own part once, the reasons
//! below it come through `source()`, and every error a function returns goes into `Error` with
//! `?`.

use std::error::Error as _;

use nqueens::journal::{JournalError, merge};
use nqueens::{CountOptions, Counts, Error, Plan, RunControl, Strategy, count, count_with};

/// Every level's message, joined by `: ` (as `anyhow` prints an error with `{:#}`).
fn chain(error: &dyn std::error::Error) -> String {
    let mut levels = vec![error.to_string()];
    let mut below = error.source();
    while let Some(error) = below {
        levels.push(error.to_string());
        below = error.source();
    }
    levels.join(": ")
}

/// How often `part` occurs in `text`.
fn occurrences(text: &str, part: &str) -> usize {
    text.matches(part).count()
}

#[test]
fn a_merge_of_a_missing_file_names_the_system_error_once() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("n8-0of2.ckpt");
    let os_error = std::fs::File::open(&missing).unwrap_err().to_string();

    let error = merge(&[&missing]).unwrap_err();
    assert!(matches!(&error, Error::Journal(JournalError::Open { .. })));
    let line = chain(&error);
    assert_eq!(occurrences(&line, &os_error), 1, "{line}");
    assert!(line.starts_with("cannot open journal "), "{line}");
    // The system's reason is the error below, where a caller can look at its kind.
    let io = error.source().unwrap().downcast_ref::<std::io::Error>();
    assert_eq!(io.unwrap().kind(), std::io::ErrorKind::NotFound);
}

#[test]
fn a_journal_that_cannot_be_opened_is_the_same_error_from_a_count_and_a_merge() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("no-such-folder").join("n8.ckpt");
    let control = RunControl::default().with_journal(&missing);
    let counted = count_with(8, &CountOptions::new(1, Strategy::Mirror), &control).unwrap_err();
    let merged = merge(&[&missing]).unwrap_err();
    for error in [&counted, &merged] {
        let Error::Journal(JournalError::Open { path, source }) = error else {
            panic!("{error:?}");
        };
        assert_eq!(path, &missing);
        assert_eq!(source.kind(), std::io::ErrorKind::NotFound);
    }
    assert_eq!(counted.to_string(), merged.to_string());
}

#[test]
fn no_message_repeats_the_error_below_it() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("n8.ckpt");
    let errors: Vec<Error> = vec![
        merge(&[&missing]).unwrap_err(),
        count(65, &CountOptions::default()).unwrap_err(),
        Plan::new(65, Strategy::Mirror, 1).unwrap_err(),
        nqueens::board::Placement::new(vec![0, 1])
            .check()
            .unwrap_err()
            .into(),
    ];
    for error in &errors {
        let mut level: &dyn std::error::Error = error;
        while let Some(below) = level.source() {
            let (here, there) = (level.to_string(), below.to_string());
            assert!(!here.contains(&there), "{here:?} repeats {there:?}");
            level = below;
        }
    }
}

#[test]
fn a_check_against_the_known_table_goes_into_error_with_the_question_mark() {
    fn checked(counts: &Counts) -> Result<u128, Error> {
        counts.check_known()?;
        Ok(counts.total)
    }
    let mut counts = count(8, &CountOptions::new(1, Strategy::Mirror)).unwrap();
    assert_eq!(checked(&counts).unwrap(), 92);
    counts.total += 8;
    let error = checked(&counts).unwrap_err();
    assert!(matches!(error, Error::KnownMismatch(_)), "{error:?}");
    assert_eq!(
        error.to_string(),
        counts.check_known().unwrap_err().to_string()
    );
}

#[test]
fn a_board_too_large_is_one_error_from_a_plan_a_count_and_a_study() {
    use nqueens::scaling::study::{StudyOptions, measure};
    let planned = Plan::new(65, Strategy::Mirror, 1).unwrap_err();
    let counted = count(65, &CountOptions::default()).unwrap_err();
    let studied = measure(65, &StudyOptions::new(vec![1]), &RunControl::default()).unwrap_err();
    for error in [&planned, &counted, &studied] {
        assert!(matches!(error, Error::BoardTooLarge { n: 65 }), "{error:?}");
        assert_eq!(
            error.to_string(),
            "n = 65 is too large: the largest board is 64 x 64"
        );
    }
}

/// Worker threads that cannot start (here: no address space left for their stacks, in a child
/// process of this test) are [`Error::ThreadPool`], with the reason as its source.
#[cfg(target_os = "linux")]
#[test]
fn worker_threads_that_cannot_start_keep_the_reason_as_the_source() {
    const CHILD: &str = "NQUEENS_TEST_NO_THREADS";
    const NAME: &str = "errors::worker_threads_that_cannot_start_keep_the_reason_as_the_source";
    if std::env::var_os(CHILD).is_none() {
        let out = std::process::Command::new(std::env::current_exe().unwrap())
            .args(["--exact", NAME, "--nocapture", "--test-threads", "1"])
            .env(CHILD, "1")
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{stdout}{stderr}");
        assert!(
            stdout.contains("thread pool error checked"),
            "{stdout}{stderr}"
        );
        return;
    }
    // The child: the address space it has now and 1 MiB more, less than one thread's stack.
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let kib: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmSize:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap();
    let limit = (kib + 1024) * 1024;
    let limit = libc::rlimit {
        rlim_cur: limit,
        rlim_max: limit,
    };
    // SAFETY: `setrlimit` reads the struct it is given, which lives until it returns.
    assert_eq!(unsafe { libc::setrlimit(libc::RLIMIT_AS, &limit) }, 0);
    let error = count(16, &CountOptions::new(3, Strategy::Mirror)).unwrap_err();
    assert!(matches!(error, Error::ThreadPool(_)), "{error:?}");
    let source = error.source().expect("the reason is the source");
    assert!(source.is::<rayon::ThreadPoolBuildError>(), "{source:?}");
    assert!(
        chain(&error).starts_with("could not start the worker threads: "),
        "{}",
        chain(&error)
    );
    println!("thread pool error checked");
}

#[test]
fn a_header_its_reader_would_refuse_is_never_written() {
    use nqueens::journal::{Header, Journal, JournalError};
    use nqueens::{Plan, Strategy};
    let dir = std::env::temp_dir().join(format!("nqueens-bad-header-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = Header::for_plan(&Plan::new(8, Strategy::Mirror, 4).unwrap());
    let bad = [
        {
            let mut h = good.clone();
            h.n = 99;
            h
        },
        {
            let mut h = good.clone();
            h.tasks = 0;
            h
        },
        {
            let mut h = good.clone();
            h.strategy = "mir\nror".into();
            h
        },
        {
            let mut h = good.clone();
            h.strategy = "s".repeat(40);
            h
        },
    ];
    for (i, header) in bad.iter().enumerate() {
        let path = dir.join(format!("bad-{i}.ckpt"));
        let error = Journal::open(&path, header).unwrap_err();
        assert!(
            matches!(error, JournalError::BadHeader { .. }),
            "{i}: {error}"
        );
        assert!(!path.exists(), "{i}: nothing is written");
    }
    let path = dir.join("good.ckpt");
    assert!(Journal::open(&path, &good).is_ok());
    std::fs::remove_dir_all(&dir).unwrap();
}
