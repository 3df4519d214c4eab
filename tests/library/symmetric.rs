//! The symmetric plan and unique counts against the known table and against the mirror plan.

use nqueens::{
    CountOptions, Plan, Prepared, RunControl, Strategy, count, known, unique_from_total,
};

#[test]
fn unique_counts_equal_the_table_for_n_0_to_15() {
    for n in 0..=15 {
        let counts = count(n, &CountOptions::new(2, Strategy::Symmetric)).unwrap();
        let want = known::Known::of(n).unwrap();
        assert_eq!(
            (counts.total, counts.unique),
            (want.total, Some(want.unique)),
            "n={n}"
        );
    }
}

#[test]
fn symmetric_and_mirror_agree_for_n_1_to_15_on_1_and_2_threads() {
    for threads in [1, 2] {
        for n in 1..=15 {
            let by = |strategy| count(n, &CountOptions::new(threads, strategy)).unwrap();
            let (sym, mirror) = (by(Strategy::Symmetric), by(Strategy::Mirror));
            assert_eq!(sym.total, mirror.total, "n={n} threads={threads}");
            assert_eq!(sym.unique, mirror.unique, "n={n} threads={threads}");
        }
    }
}

#[test]
fn a_total_counted_through_plan_and_run_gives_the_unique_count() {
    // The path a caller takes when it runs the plan itself (resuming, sharding).
    for n in [12, 13] {
        let options = CountOptions::new(2, Strategy::Symmetric);
        let control = RunControl::default();
        let run = Prepared::new(n, &options, &control)
            .unwrap()
            .run(&control)
            .unwrap();
        assert_eq!(
            unique_from_total(n, run.counts.total).unwrap(),
            known::Known::of(n).map(|k| k.unique).unwrap()
        );
    }
}

#[test]
fn symmetric_plans_have_thousands_of_tasks_from_n_16() {
    let plan = Plan::new(16, Strategy::Symmetric, 4096).unwrap();
    assert!(plan.tasks().len() >= 4096, "{}", plan.tasks().len());
}

#[test]
fn a_unique_count_beyond_the_bound_is_refused_at_once() {
    let started = std::time::Instant::now();
    let err = unique_from_total(64, 1).unwrap_err();
    assert!(
        matches!(err, nqueens::Error::UniqueBeyondReach { n: 64, max: 27 }),
        "{err:?}"
    );
    assert!(
        err.to_string()
            .starts_with("the unique count of n = 64 is beyond reach: "),
        "{err}"
    );
    let err = unique_from_total(nqueens::Counts::UNIQUE_MAX_N + 1, 8).unwrap_err();
    assert!(matches!(err, nqueens::Error::UniqueBeyondReach { .. }));
    // A hang bound, not a timing claim.
    assert!(started.elapsed().as_secs() < 10, "{:?}", started.elapsed());
}

#[test]
fn a_count_with_its_stop_flag_raised_does_not_wait_for_the_unique_searches() {
    use std::sync::atomic::AtomicBool;
    let stop = AtomicBool::new(true);
    let control = RunControl::default().with_stop(&stop);
    for options in [
        CountOptions::new(2, Strategy::Mirror),
        CountOptions::new(2, Strategy::Mirror).with_unique_above_bound(true),
    ] {
        let started = std::time::Instant::now();
        let run = nqueens::count_with(28, &options, &control).unwrap();
        assert!(!run.complete);
        assert_eq!(run.counts.unique, None);
        // A hang bound, not a timing claim (the searches alone take about a minute).
        assert!(started.elapsed().as_secs() < 10, "{:?}", started.elapsed());
    }
}

#[test]
fn a_whole_count_and_a_merge_above_the_bound_have_no_unique_count() {
    use nqueens::journal::{Header, Journal, merge};
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("n40.ckpt");
    // Every task recorded (one solution each): the count and the merge search nothing.
    let plan = Plan::new(40, Strategy::Mirror, nqueens::Plan::DEFAULT_MIN_TASKS).unwrap();
    let (mut journal, _) = Journal::open(&file, &Header::for_plan(&plan)).unwrap();
    for task in plan.tasks() {
        journal.append(task.id, 1).unwrap();
    }
    journal.sync().unwrap();
    drop(journal);
    let started = std::time::Instant::now();
    let control = RunControl::default().with_journal(&file);
    let run = nqueens::count_with(40, &CountOptions::new(2, Strategy::Mirror), &control).unwrap();
    assert!(run.complete);
    assert_eq!(run.searched_tasks, 0);
    assert!(run.counts.total >= plan.tasks().len() as u128);
    assert_eq!(run.counts.unique, None);
    let merged = merge(&[&file]).unwrap();
    assert_eq!((merged.total, merged.unique), (run.counts.total, None));
    // A hang bound, not a timing claim.
    assert!(started.elapsed().as_secs() < 10, "{:?}", started.elapsed());
}

#[test]
fn counts_up_to_the_bound_keep_their_unique_count() {
    for n in [12, 16] {
        let counts = count(n, &CountOptions::new(2, Strategy::Mirror)).unwrap();
        assert_eq!(
            counts.unique,
            Some(known::Known::of(n).unwrap().unique),
            "n={n}"
        );
    }
    assert_eq!(nqueens::Counts::UNIQUE_MAX_N, known::Known::MAX_N);
}
