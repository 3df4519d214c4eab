//! The library's errors as a caller sees them: each message says its own part once, the reasons
//! below it come through `source()`, and every error a function returns goes into `Error` with
//! `?`.

use std::error::Error as _;

use nqueens::journal::{JournalError, MergeError, merge};
use nqueens::{CountOptions, Counts, EngineError, Error, Plan, Strategy, count};

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
    assert!(matches!(
        &error,
        MergeError::Journal(JournalError::Open { .. })
    ));
    let line = chain(&error);
    assert_eq!(occurrences(&line, &os_error), 1, "{line}");
    assert!(line.starts_with("cannot open journal "), "{line}");
    // The system's reason is the error below, where a caller can look at its kind.
    let io = error.source().unwrap().downcast_ref::<std::io::Error>();
    assert_eq!(io.unwrap().kind(), std::io::ErrorKind::NotFound);

    // The same through the library's own error.
    let error = Error::from(error);
    let line = chain(&error);
    assert_eq!(occurrences(&line, &os_error), 1, "{line}");
}

#[test]
fn no_message_repeats_the_error_below_it() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("n8.ckpt");
    let errors: Vec<Error> = vec![
        merge(&[&missing]).unwrap_err().into(),
        count(65, &CountOptions::default()).unwrap_err(),
        Plan::new(65, Strategy::Mirror, 1).unwrap_err().into(),
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
fn the_engine_error_goes_into_its_namesake() {
    fn plan(n: u32) -> Result<Plan, Error> {
        Ok(Plan::new(n, Strategy::Mirror, 1)?)
    }
    assert_eq!(
        Plan::new(65, Strategy::Mirror, 1).unwrap_err(),
        EngineError::BoardTooLarge { n: 65 }
    );
    assert!(matches!(plan(65), Err(Error::BoardTooLarge { n: 65 })));
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
