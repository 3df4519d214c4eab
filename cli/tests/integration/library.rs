//! The library as another crate uses it, through its public API only: shards counted in memory
//! and merged, results written with serde as the command writes them, and `?` from every public
//! error type into `nqueens::Error`.

use nqueens::journal::{MergeError, Merged, PlanDifference, Shard};
use nqueens::{CountOptions, CountRun, Counts, Kernel, RunControl, Strategy, count, count_with};
use serde_json::{Map, Value};

use crate::util::stdout_of;

/// Why runs cannot be merged: the refusal inside [`nqueens::Error::Merge`].
fn refusal(merged: Result<Merged, nqueens::Error>) -> MergeError {
    match merged {
        Err(nqueens::Error::Merge(refused)) => *refused,
        other => panic!("{other:?}"),
    }
}

/// Shard `k` of `m` of the `n`-board, counted in this process.
fn count_shard(n: u32, k: u32, m: u32, strategy: Strategy) -> CountRun {
    let control = RunControl::default().with_shard(Shard::new(k, m).unwrap());
    count_with(n, &CountOptions::new(2, strategy), &control).unwrap()
}

#[test]
fn four_shards_counted_in_memory_merge_into_the_board_16_totals() {
    let runs: Vec<CountRun> = (0..4)
        .map(|k| count_shard(16, k, 4, Strategy::Symmetric))
        .collect();
    assert!(
        runs.iter()
            .all(|run| run.complete && run.counts.unique.is_none())
    );
    let merged = Merged::from_runs(&runs).unwrap();
    assert_eq!((merged.total, merged.unique), (14_772_512, Some(1_846_955)));
    assert_eq!((merged.n, merged.shards, merged.journals), (16, 4, 0));
    assert_eq!(
        (merged.tasks, merged.fingerprint),
        (runs[0].plan_tasks, runs[0].fingerprint)
    );
    // In any order, and with a shard run twice to the same total.
    let mut shuffled = vec![runs[3], runs[1], runs[0], runs[2], runs[1]];
    assert_eq!(Merged::from_runs(&shuffled).unwrap(), merged);
    shuffled.reverse();
    assert_eq!(Merged::from_runs(&shuffled).unwrap().total, 14_772_512);
    assert_eq!(
        nqueens::unique_from_total(16, merged.total).unwrap(),
        1_846_955
    );
}

#[test]
fn an_in_memory_merge_refuses_gaps_doubles_and_foreign_plans() {
    let runs: Vec<CountRun> = (0..3)
        .map(|k| count_shard(10, k, 3, Strategy::Mirror))
        .collect();
    assert_eq!(Merged::from_runs(&runs).unwrap().total, 724);

    // A gap: shard 1/3 missing, named with its task count.
    let gap = refusal(Merged::from_runs(&[runs[0], runs[2]]));
    let MergeError::Incomplete {
        n, count, missing, ..
    } = &gap
    else {
        panic!("{gap}");
    };
    assert_eq!((*n, *count, missing.len()), (10, 3, 1));
    assert_eq!(missing[0].shard, Shard::new(1, 3).unwrap());
    assert_eq!(
        (missing[0].missing, missing[0].tasks),
        (runs[1].counts.tasks, runs[1].counts.tasks)
    );
    assert!(
        gap.to_string()
            .starts_with("incomplete: 1 of 3 shards lack tasks: shard 1/3"),
        "{gap}"
    );

    // A stopped shard is a gap too, however much it counted.
    let stop = std::sync::atomic::AtomicBool::new(true);
    let control = RunControl::default()
        .with_shard(Shard::new(1, 3).unwrap())
        .with_stop(&stop);
    let stopped = count_with(10, &CountOptions::new(2, Strategy::Mirror), &control).unwrap();
    assert!(!stopped.complete);
    let error = refusal(Merged::from_runs(&[runs[0], stopped, runs[2]]));
    assert!(matches!(error, MergeError::Incomplete { .. }), "{error}");

    // A double: one shard with two totals.
    let mut wrong = runs[1];
    wrong.counts.total += 2;
    let error = refusal(Merged::from_runs(&[runs[0], runs[1], runs[2], wrong]));
    let MergeError::ShardConflict {
        shard,
        first_run,
        second_run,
        ..
    } = error
    else {
        panic!("{error}");
    };
    assert_eq!(
        (shard, first_run, second_run),
        (Shard::new(1, 3).unwrap(), 1, 3)
    );

    // Another count: another board, strategy or sharding.
    let other_board = count_shard(11, 1, 3, Strategy::Mirror);
    let other_strategy = count_shard(10, 1, 3, Strategy::Symmetric);
    let other_split = count_shard(10, 1, 4, Strategy::Mirror);
    for other in [other_board, other_strategy, other_split] {
        let error = refusal(Merged::from_runs(&[runs[0], other, runs[2]]));
        let MergeError::DifferentRuns { first, second, .. } = &error else {
            panic!("{error}");
        };
        assert_eq!((*first, *second), (0, 1));
        assert!(
            error
                .to_string()
                .starts_with("runs 0 and 1 belong to different counts")
        );
    }

    // A plan this build does not make: another fingerprint on every run.
    let foreign: Vec<CountRun> = runs
        .iter()
        .map(|run| {
            let mut run = *run;
            run.fingerprint = nqueens::Fingerprint::new(run.fingerprint.get() ^ 1);
            run
        })
        .collect();
    let error = refusal(Merged::from_runs(&foreign));
    let MergeError::RunOfOtherPlan {
        run: 0,
        why: PlanDifference::Tasks { .. },
    } = error
    else {
        panic!("{error}");
    };

    // A shard whose task count is not its shard's.
    let mut edited = runs[2];
    edited.counts.tasks += 1;
    let error = refusal(Merged::from_runs(&[runs[0], runs[1], edited]));
    assert!(matches!(
        error,
        MergeError::RunOfOtherPlan {
            run: 2,
            why: PlanDifference::ShardTasks { .. }
        }
    ));
    assert!(matches!(
        refusal(Merged::from_runs(&[])),
        MergeError::NoRuns
    ));
}

/// The JSON object of `nqueens ARGS --format json` (one board), and its keys in the order
/// written.
fn cli_object(args: &[&str]) -> (Map<String, Value>, Vec<String>) {
    let mut all = args.to_vec();
    all.extend(["--format", "json"]);
    let text = stdout_of(&all);
    let parsed: Value = serde_json::from_str(&text).unwrap();
    let Value::Array(records) = parsed else {
        panic!("{parsed}");
    };
    let [Value::Object(record)] = &records[..] else {
        panic!("{records:?}");
    };
    (record.clone(), keys_in_order(&text))
}

/// The keys of pretty-printed JSON objects, in the order written (one per line).
fn keys_in_order(pretty: &str) -> Vec<String> {
    pretty
        .lines()
        .filter_map(|line| line.trim().strip_prefix('"')?.split_once("\":"))
        .map(|(key, _)| key.to_string())
        .collect()
}

/// The keys of `value` in the order serde writes them.
fn keys_of(value: &impl serde::Serialize) -> Vec<String> {
    keys_in_order(&serde_json::to_string_pretty(value).unwrap())
}

/// `object` without its times (`wall_time`, and `core_time` where present), different in
/// every run.
fn untimed(mut object: Map<String, Value>) -> Map<String, Value> {
    object.remove("wall_time").expect("a wall time");
    object.remove("core_time");
    object
}

/// A merge's JSON object without its times (its core time and each part's), different in every
/// run and rounded by the command.
fn merge_untimed(mut object: Map<String, Value>) -> Map<String, Value> {
    object.remove("core_time").expect("a core time");
    for part in object["parts"].as_array_mut().expect("parts") {
        let part = part.as_object_mut().expect("a part");
        part.remove("wall_time");
        part.remove("core_time");
    }
    object
}

/// The keys of a JSON object, as a set.
fn key_set(object: &Map<String, Value>) -> std::collections::BTreeSet<String> {
    object.keys().cloned().collect()
}

#[test]
fn the_command_writes_the_library_records_field_names() {
    let run = count_with(8, &CountOptions::default(), &RunControl::default()).unwrap();
    let Value::Object(library) = serde_json::to_value(run).unwrap() else {
        panic!("a count run is an object");
    };
    let (cli, _) = cli_object(&["count", "8"]);
    assert_eq!(key_set(&cli), key_set(&library));

    let dir = tempfile::tempdir().unwrap();
    let mut files = Vec::new();
    for k in 0..2 {
        let file = dir.path().join(format!("n8-{k}of2.ckpt"));
        let control = RunControl::default()
            .with_journal(&file)
            .with_shard(Shard::new(k, 2).unwrap());
        count_with(8, &CountOptions::default(), &control).unwrap();
        files.push(file.display().to_string());
    }
    let merged = nqueens::journal::merge(&files).unwrap();
    let Value::Object(library) = serde_json::to_value(merged).unwrap() else {
        panic!("a merge is an object");
    };
    let mut args = vec!["merge"];
    args.extend(files.iter().map(String::as_str));
    let (cli, _) = cli_object(&args);
    assert_eq!(key_set(&cli), key_set(&library));
    // The quantities a count and a merge share have one name.
    for key in ["n", "total", "unique", "strategy", "tasks", "fingerprint"] {
        assert!(library.contains_key(key), "{key}");
    }
}

#[test]
fn counts_and_runs_serialize_as_the_command_writes_them() {
    let options = CountOptions::new(2, Strategy::Symmetric).with_kernel(Kernel::DepthFirst);
    let run = count_with(12, &options, &RunControl::default()).unwrap();
    let args = [
        "count",
        "12",
        "--threads",
        "2",
        "--strategy",
        "symmetric",
        "--kernel",
        "depth-first",
    ];
    let (cli, cli_keys) = cli_object(&args);

    // CountRun: the command's object, field for field and in the same order.
    let Value::Object(whole) = serde_json::to_value(run).unwrap() else {
        panic!();
    };
    let run_keys = keys_of(&run);
    assert_eq!(run_keys, cli_keys);
    assert_eq!(
        run_keys[8..],
        [
            "resumed_tasks",
            "resumed_total",
            "fingerprint",
            "core_time",
            "plan_tasks",
            "shard",
            "complete",
            "searched_tasks"
        ]
    );
    assert_eq!(untimed(whole), untimed(cli.clone()));

    // Counts: the first eight of them.
    let Value::Object(counts) = serde_json::to_value(run.counts).unwrap() else {
        panic!();
    };
    assert_eq!(keys_of(&run.counts), cli_keys[..8]);
    let cli_counts: Map<String, Value> = cli
        .into_iter()
        .filter(|(key, _)| counts.contains_key(key))
        .collect();
    assert_eq!(untimed(counts), untimed(cli_counts));

    // Round trips.
    let text = serde_json::to_string(&run.counts).unwrap();
    assert_eq!(serde_json::from_str::<Counts>(&text).unwrap(), run.counts);
    let text = serde_json::to_string(&run).unwrap();
    assert_eq!(serde_json::from_str::<CountRun>(&text).unwrap(), run);
    let options_text = serde_json::to_string(&options).unwrap();
    assert_eq!(
        options_text,
        r#"{"threads":2,"strategy":"symmetric","kernel":"depth-first"}"#
    );
    assert_eq!(
        serde_json::from_str::<CountOptions>(&options_text).unwrap(),
        options
    );
}

#[test]
fn a_merge_serializes_as_the_command_writes_it() {
    let dir = tempfile::tempdir().unwrap();
    let options = CountOptions::new(2, Strategy::Symmetric);
    let mut runs = Vec::new();
    let mut files = Vec::new();
    for k in 0..2 {
        let file = dir.path().join(format!("n11-{k}of2.ckpt"));
        let control = RunControl::default()
            .with_journal(&file)
            .with_shard(Shard::new(k, 2).unwrap());
        runs.push(count_with(11, &options, &control).unwrap());
        files.push(file);
    }
    let from_files = nqueens::journal::merge(&files).unwrap();
    let mut args = vec!["merge".to_string()];
    args.extend(files.iter().map(|f| f.display().to_string()));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (cli, cli_keys) = cli_object(&args);
    let Value::Object(library) = serde_json::to_value(&from_files).unwrap() else {
        panic!("a merge is an object");
    };
    assert_eq!(merge_untimed(library), merge_untimed(cli));
    assert_eq!(keys_of(&from_files), cli_keys);
    // In memory: the same, but that no journal was read, and each part's time is its run's.
    let in_memory = Merged::from_runs(&runs).unwrap();
    assert_eq!((in_memory.journals, from_files.journals), (0, 2));
    let shards = |m: &Merged| m.parts.iter().map(|&(shard, _)| shard).collect::<Vec<_>>();
    assert_eq!(shards(&in_memory), shards(&from_files));
    let mut read_two = in_memory.clone();
    read_two.journals = 2;
    read_two.parts = from_files.parts.clone();
    read_two.core_time = from_files.core_time;
    assert_eq!(read_two, from_files);
    let text = serde_json::to_string(&in_memory).unwrap();
    assert_eq!(serde_json::from_str::<Merged>(&text).unwrap(), in_memory);
}

#[test]
fn values_read_back_are_checked() {
    use nqueens::board::Solution;
    use nqueens::{TaskId, TaskOutcome};
    let solution: Solution = serde_json::from_str("[1, 3, 0, 2]").unwrap();
    assert_eq!(serde_json::to_string(&solution).unwrap(), "[1,3,0,2]");
    assert!(serde_json::from_str::<Solution>("[0, 1, 2, 3]").is_err());
    assert_eq!(
        serde_json::from_str::<Shard>(r#""3/8""#).unwrap(),
        Shard::new(3, 8).unwrap()
    );
    assert!(serde_json::from_str::<Shard>(r#""8/8""#).is_err());
    let id: TaskId = serde_json::from_str(r#""3.0.5""#).unwrap();
    assert_eq!(id.to_string(), "3.0.5");
    assert!(serde_json::from_str::<TaskId>(r#""3.x""#).is_err());
    assert!(serde_json::from_str::<Kernel>(r#""avx""#).is_err());
    assert!(serde_json::from_str::<Counts>(r#"{"n": 8}"#).is_err());
    let fingerprint: nqueens::Fingerprint = serde_json::from_str(r#""3975788f6c39ee2e""#).unwrap();
    assert_eq!(fingerprint.get(), 0x3975_788f_6c39_ee2e);
    assert_eq!(
        serde_json::to_string(&fingerprint).unwrap(),
        r#""3975788f6c39ee2e""#
    );
    assert!(serde_json::from_str::<nqueens::Fingerprint>(r#""3975788f""#).is_err());
    assert!(serde_json::from_str::<nqueens::Fingerprint>("4").is_err());
    // A run read back: its counts are whole numbers of solutions.
    let run = count_with(8, &CountOptions::default(), &RunControl::default()).unwrap();
    let mut json = serde_json::to_value(run).unwrap();
    assert_eq!(
        serde_json::from_value::<CountRun>(json.clone()).unwrap(),
        run
    );
    json["total"] = serde_json::json!(-92);
    assert!(serde_json::from_value::<CountRun>(json.clone()).is_err());
    json["total"] = serde_json::json!(92.5);
    assert!(serde_json::from_value::<CountRun>(json).is_err());

    // Every kernel and strategy as the command spells it.
    for &kernel in Kernel::ALL {
        assert_eq!(serde_json::to_value(kernel).unwrap(), kernel.name());
    }
    for strategy in [Strategy::Mirror, Strategy::Symmetric] {
        assert_eq!(serde_json::to_value(strategy).unwrap(), strategy.name());
    }

    // Task outcomes, as a watcher sees them.
    let seen = std::sync::Mutex::new(Vec::new());
    let watch = |outcome: &TaskOutcome| seen.lock().unwrap().push(*outcome);
    let control = RunControl::default().with_watcher(&watch);
    count_with(8, &CountOptions::new(2, Strategy::Mirror), &control).unwrap();
    let outcomes = seen.into_inner().unwrap();
    let text = serde_json::to_string(&outcomes).unwrap();
    assert!(text.starts_with(r#"[{"index":"#), "{text}");
    assert_eq!(
        serde_json::from_str::<Vec<TaskOutcome>>(&text).unwrap(),
        outcomes
    );
}

/// Every public error type goes into `nqueens::Error` with `?`.
#[test]
fn every_public_error_converts_with_the_question_mark() {
    use nqueens::Error;
    use nqueens::board::Placement;
    use nqueens::estimation::EstimateError;
    use nqueens::journal::MergeError;
    use nqueens::journal::{Access, JournalError, ShardError};
    use nqueens::scaling::study::{StudyError, StudyOptions, measure};

    fn merge_error() -> Result<(), Error> {
        nqueens::journal::merge(&[] as &[&std::path::Path])?;
        Ok(())
    }
    fn in_memory_merge_error() -> Result<(), Error> {
        Merged::from_runs(&[])?;
        Ok(())
    }
    fn study_error() -> Result<(), Error> {
        measure(
            8,
            &StudyOptions::new(vec![1]).with_repeat(0),
            &nqueens::RunControl::default(),
        )?;
        Ok(())
    }
    fn mismatch() -> Result<(), Error> {
        Err(StudyError::Mismatch {
            n: 8,
            threads: 1,
            got: 90,
            expected: 92,
            source_name: "the table",
        })?
    }
    fn study_error_itself() -> Result<(), Error> {
        Err(StudyError::NoRuns)?
    }
    fn merge_error_itself() -> Result<(), Error> {
        Err(MergeError::NoRuns)?
    }
    fn estimate_error() -> Result<(), Error> {
        Err(EstimateError::NoTime)?
    }
    fn engine_error() -> Result<(), Error> {
        nqueens::Plan::new(65, Strategy::Mirror, 1)?;
        Ok(())
    }
    fn known_mismatch() -> Result<(), Error> {
        let mut counts = count(8, &CountOptions::new(1, Strategy::Mirror))?;
        counts.total += 8;
        counts.check_known()?;
        Ok(())
    }
    fn unknown_name() -> Result<(), Error> {
        "spiral".parse::<Strategy>()?;
        Ok(())
    }
    fn task_id_error() -> Result<(), Error> {
        "3.x".parse::<nqueens::TaskId>()?;
        Ok(())
    }
    fn shard_error() -> Result<(), Error> {
        "8/8".parse::<Shard>()?;
        Ok(())
    }
    fn journal_error() -> Result<(), Error> {
        Err(JournalError::NotAJournal {
            path: "notes.txt".into(),
            access: Access::Read,
        })?
    }
    fn conflict() -> Result<(), Error> {
        Placement::new(vec![0, 1]).check()?;
        Ok(())
    }
    fn count_error() -> Result<(), Error> {
        count(65, &CountOptions::default())?;
        Ok(())
    }

    assert!(matches!(merge_error(), Err(Error::Merge(_))));
    assert!(matches!(in_memory_merge_error(), Err(Error::Merge(_))));
    assert!(matches!(study_error(), Err(Error::Study(_))));
    assert!(matches!(mismatch(), Err(Error::Study(_))));
    assert!(matches!(study_error_itself(), Err(Error::Study(_))));
    assert!(matches!(merge_error_itself(), Err(Error::Merge(_))));
    assert!(matches!(estimate_error(), Err(Error::Estimate(_))));
    assert!(matches!(
        engine_error(),
        Err(Error::BoardTooLarge { n: 65 })
    ));
    assert!(matches!(known_mismatch(), Err(Error::KnownMismatch(_))));
    assert!(matches!(unknown_name(), Err(Error::UnknownName(_))));
    assert!(matches!(task_id_error(), Err(Error::InvalidTaskId(_))));
    assert!(matches!(
        shard_error(),
        Err(Error::Shard(ShardError::OutOfRange { .. }))
    ));
    assert!(matches!(journal_error(), Err(Error::Journal(_))));
    assert!(conflict().is_err());
    assert!(matches!(count_error(), Err(Error::BoardTooLarge { n: 65 })));
    // The messages are the errors' own.
    assert_eq!(
        merge_error().unwrap_err().to_string(),
        "no journals to merge"
    );
    assert_eq!(
        task_id_error().unwrap_err().to_string(),
        "'3.x' is not a task id (`-` or up to 16 columns joined by dots)"
    );
}

#[test]
fn runs_read_back_with_absurd_task_counts_are_refused_without_overflow() {
    use std::sync::atomic::AtomicBool;
    let stop = AtomicBool::new(true);
    let control = RunControl::default()
        .with_shard(Shard::new(0, 2).unwrap())
        .with_stop(&stop);
    let stopped = count_with(12, &CountOptions::new(1, Strategy::Mirror), &control).unwrap();
    assert!(!stopped.complete);
    let mut json = serde_json::to_value(stopped).unwrap();
    json["resumed_tasks"] = serde_json::json!(u64::MAX);
    json["searched_tasks"] = serde_json::json!(u64::MAX);
    let forged: CountRun = serde_json::from_value(json).unwrap();
    assert!(matches!(
        refusal(Merged::from_runs(&[forged])),
        MergeError::Incomplete { .. }
    ));
}
