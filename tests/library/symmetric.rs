//! The symmetric plan and unique counts against the known table and against the mirror plan.

use nqueens::{
    CountOptions, Plan, Prepared, RunControl, Strategy, count, known, unique_from_total,
};

#[test]
fn unique_counts_equal_the_table_for_n_0_to_15() {
    for n in 0..=15 {
        let counts = count(n, &CountOptions::new(2, Strategy::Symmetric)).unwrap();
        let want = known::lookup(n).unwrap();
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
            known::unique(n).unwrap()
        );
    }
}

#[test]
fn symmetric_plans_have_thousands_of_tasks_from_n_16() {
    let plan = Plan::new(16, Strategy::Symmetric, 4096).unwrap();
    assert!(plan.tasks().len() >= 4096, "{}", plan.tasks().len());
}
