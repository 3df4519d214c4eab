//! The estimator's samples: unbiased on boards whose totals are known, reproducible for a fixed
//! seed and sample count on any thread count, with the normal interval.

use super::Estimator;
use super::stats::Z95;
use crate::engine::kernel::Kernel;
use crate::known;

/// Mean, standard error of the mean and interval coverage of `seeds` estimates of size
/// `samples`.
fn over_seeds(estimator: &Estimator, truth: f64, seeds: u64, samples: u64) -> (f64, f64, f64) {
    let mut means = Vec::new();
    let mut held = 0;
    for seed in 0..seeds {
        let sample = estimator.sample(samples, seed, 1).unwrap();
        let m = Estimator::total_of(&sample);
        let (lo, hi) = m.interval();
        if lo <= truth && truth <= hi {
            held += 1;
        }
        means.push(m.mean);
    }
    let k = means.len() as f64;
    let mean = means.iter().sum::<f64>() / k;
    let var = means.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (k - 1.0);
    (mean, (var / k).sqrt(), f64::from(held) / k)
}

fn assert_unbiased(estimator: &Estimator, n: u32, what: &str) {
    let truth = known::Known::of(n).map(|k| k.total).unwrap() as f64;
    let (mean, se, coverage) = over_seeds(estimator, truth, 300, 24);
    // 300 fixed seeds: the check is deterministic; three standard errors leave room for the
    // 0.3% of seed sets an unbiased estimator would still fail by.
    assert!(
        (mean - truth).abs() <= 3.0 * se,
        "n={n} {what}: mean {mean} vs {truth}, standard error {se}"
    );
    assert!(se > 0.0, "n={n} {what}: no spread");
    // 24 probes are too few for the normal interval to hold its 95% (that is checked on large
    // samples of n = 16..=27 by the validation script); it must still mostly hold.
    assert!(coverage >= 0.5, "n={n} {what}: coverage {coverage}");
}

#[test]
fn whole_task_probes_are_unbiased_on_small_boards() {
    for n in [10, 12] {
        let estimator = Estimator::new(n, Kernel::Auto).unwrap();
        assert_unbiased(&estimator, n, "whole tasks");
    }
}

#[test]
fn descending_probes_are_unbiased_on_small_boards() {
    for n in [10, 12] {
        let estimator = Estimator::new(n, Kernel::Auto).unwrap().with_free_rows(3);
        assert!(estimator.free_rows() == 3);
        assert_unbiased(&estimator, n, "descent to 3 free rows");
    }
}

#[test]
fn the_same_seed_and_sample_count_give_the_same_estimate_on_any_thread_count() {
    let estimator = Estimator::new(13, Kernel::Auto).unwrap().with_free_rows(6);
    // Enough probes for several rounds and chunks, summed in one order whatever the threads.
    let totals = |seed, threads| estimator.sample(5_000, seed, threads).unwrap().total;
    let one = totals(42, 1);
    assert_eq!(one.draws, 5_000);
    assert_eq!(one, totals(42, 3));
    assert_ne!(one, totals(43, 1));
}

#[test]
fn the_interval_is_the_normal_one() {
    let estimator = Estimator::new(11, Kernel::Auto).unwrap();
    let m = Estimator::total_of(&estimator.sample(100, 5, 2).unwrap());
    let (lo, hi) = m.interval();
    assert!((hi - m.mean - Z95 * m.std_error()).abs() <= 1e-9 * m.mean);
    assert!(lo < m.mean);
}

/// A time budget read from a simulated clock that moves a millisecond for every probe drawn,
/// with budgets that end the sampling at many different points: the estimate, made of whole
/// samples only, stays unbiased and its interval holds.
#[test]
fn a_time_budget_ending_anywhere_keeps_the_estimate_unbiased() {
    use super::estimator::{Control, Sampled};
    use super::{Budget, EstimateOptions, EstimateProgress, StopReason};
    use crate::count::Watcher;
    use std::sync::atomic::{AtomicU64, Ordering};
    use std::time::{Duration, Instant};

    /// The probes drawn so far.
    struct Drawn(AtomicU64);
    impl Watcher for Drawn {
        fn sampled(&self, p: &EstimateProgress) {
            self.0.fetch_max(p.samples_done, Ordering::Relaxed);
        }
    }

    let n = 12;
    let truth = known::Known::of(n).map(|k| k.total).unwrap() as f64;
    // Probes that descend to 4 free rows: noisy enough for a biased cut to show.
    let estimator = Estimator::new(n, Kernel::Auto).unwrap().with_free_rows(4);
    let runs = 240u64;
    let (mut estimates, mut held, mut ends) = (Vec::new(), 0, std::collections::BTreeSet::new());
    for seed in 0..runs {
        // Budgets of 100 to about 3,000 probes' time: the rounds end everywhere.
        let probes = 100 + (seed * 379) % 2_900;
        let drawn = Drawn(AtomicU64::new(0));
        let control = Control {
            watcher: Some(&drawn),
            ..Control::default()
        };
        let clock = || drawn.0.load(Ordering::Relaxed) as f64 * 1e-3;
        let budget = Duration::from_secs_f64(probes as f64 * 1e-3);
        let options = EstimateOptions::new(Budget::Time(budget))
            .with_seed(seed)
            .with_threads(1)
            .with_early_stop(false);
        let sampled = estimator
            .sample_for(budget, &options, &control, Instant::now(), &clock)
            .unwrap();
        let Sampled::Probes(sample, StopReason::Budget) = sampled else {
            panic!("seed {seed}: the budget ends a sample that may not stop early");
        };
        // Whole samples only, and about as many probes as the budget holds.
        assert!(
            sample.total.draws <= probes + probes / 20 + 64,
            "seed {seed}"
        );
        ends.insert(sample.total.draws);
        let m = Estimator::total_of(&sample);
        let (low, high) = m.interval();
        held += u32::from(low <= truth && truth <= high);
        estimates.push(m.mean);
    }
    assert!(
        ends.len() > runs as usize / 2,
        "the budgets end at few points"
    );
    let k = estimates.len() as f64;
    let mean = estimates.iter().sum::<f64>() / k;
    let var = estimates.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (k - 1.0);
    let se = (var / k).sqrt();
    assert!(
        (mean - truth).abs() <= 3.0 * se,
        "mean {mean} vs {truth}, standard error {se}"
    );
    let coverage = f64::from(held) / k;
    assert!(coverage >= 0.9, "coverage {coverage}");
}

/// A stop raised after the first round of a sample, or of a time budget's pilot runs, keeps
/// the rounds drawn whole: the estimate is `Ok`, says it stopped, and rests on them.
#[test]
fn a_stopped_estimate_keeps_its_whole_rounds() {
    use super::{Budget, EstimateOptions, EstimateProgress, StopReason};
    use crate::count::{RunControl, Watcher};
    use std::sync::Mutex;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::time::Duration;

    /// Raises the stop flag at the first report, and keeps the probes each report tells of.
    #[derive(Default)]
    struct StopAtFirst {
        stop: AtomicBool,
        reports: Mutex<Vec<u64>>,
    }
    impl Watcher for StopAtFirst {
        fn sampled(&self, p: &EstimateProgress) {
            self.reports.lock().unwrap().push(p.samples_done);
            self.stop.store(true, Ordering::Relaxed);
        }
    }

    let estimator = Estimator::new(12, Kernel::Auto).unwrap();
    let truth = known::Known::of(12).map(|k| k.total).unwrap() as f64;
    for budget in [
        Budget::Samples(1 << 20),
        Budget::Time(Duration::from_secs(3600)),
    ] {
        let options = EstimateOptions::new(budget)
            .with_threads(2)
            .with_early_stop(false);
        let watcher = StopAtFirst::default();
        let control = RunControl::default()
            .with_stop(&watcher.stop)
            .with_watcher(&watcher);
        let e = estimator.estimate_with(&options, &control).unwrap();
        assert_eq!(e.stopped, StopReason::Stopped, "{budget:?}");
        // The probes of the round the first report told of, and no more.
        let reports = watcher.reports.into_inner().unwrap();
        assert_eq!(reports.first(), Some(&e.samples), "{budget:?}");
        assert!(e.samples >= 2 && e.samples < 1 << 20, "{budget:?}");
        assert!(e.total_low <= e.estimate_total && e.estimate_total <= e.total_high);
        assert!(e.estimate_total > truth / 10.0 && e.estimate_total < truth * 10.0);
    }
}

/// An estimate given a pool draws its probes on that pool's workers, and its watcher is told
/// the plan it samples.
#[test]
fn an_estimate_runs_on_the_pool_it_is_given() {
    use super::{Budget, EstimateOptions, EstimateProgress, estimate_with};
    use crate::count::{RunControl, Watcher};
    use crate::engine::plan::Plan;
    use crate::engine::run::TaskOutcome;
    use std::sync::Mutex;

    #[derive(Default)]
    struct Threads {
        tasks: Mutex<Option<usize>>,
        names: Mutex<Vec<Option<String>>>,
    }
    impl Watcher for Threads {
        fn start(&self, plan: &Plan, resumed: &[TaskOutcome]) {
            assert!(resumed.is_empty());
            *self.tasks.lock().unwrap() = Some(plan.tasks().len());
        }
        fn sampled(&self, _: &EstimateProgress) {
            let name = std::thread::current().name().map(str::to_string);
            self.names.lock().unwrap().push(name);
        }
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .thread_name(|i| format!("estimate-pool-{i}"))
        .build()
        .unwrap();
    let watcher = Threads::default();
    let control = RunControl::default()
        .with_pool(&pool)
        .with_watcher(&watcher);
    let options = EstimateOptions::new(Budget::Samples(2000)).with_seed(5);
    let e = estimate_with(12, &options, &control).unwrap();
    // Every worker of the pool, and the figures of the same seed on any pool.
    assert_eq!(e.threads, 2);
    assert_eq!(*watcher.tasks.lock().unwrap(), Some(e.tasks));
    let names = watcher.names.into_inner().unwrap();
    assert!(!names.is_empty());
    for name in names {
        assert!(name.is_some_and(|n| n.starts_with("estimate-pool-")));
    }
    let alone = super::estimate(12, &options.with_threads(1)).unwrap();
    assert_eq!(alone.estimate_total, e.estimate_total);
}
