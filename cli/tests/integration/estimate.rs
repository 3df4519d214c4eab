//! `nqueens estimate` and the estimator behind it: unbiased on boards whose totals are known,
//! reproducible for a fixed seed and sample count, and refusing bad input in one line.

use nqueens::Kernel;
use nqueens::estimate::Estimator;
use nqueens::internals::Z95;
use nqueens::known;

use crate::util::{nqueens, stdout_of, usage_error};

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
    let truth = known::total(n).unwrap() as f64;
    let (mean, se, coverage) = over_seeds(estimator, truth, 300, 24);
    // 300 fixed seeds: the check is deterministic; three standard errors leave room for the
    // 0.3% of seed sets an unbiased estimator would still fail by.
    assert!(
        (mean - truth).abs() <= 3.0 * se,
        "n={n} {what}: mean {mean} vs {truth}, standard error {se}"
    );
    assert!(se > 0.0, "n={n} {what}: no spread");
    // 24 probes are too few for the normal interval to hold its 95% (that is checked on large
    // samples of n = 16..=27 by scripts/estimate-validation.sh); it must still mostly hold.
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

fn json_of(args: &[&str]) -> serde_json::Value {
    let out = nqueens().args(args).output().unwrap();
    assert!(out.status.success(), "{out:?}");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    v[0].clone()
}

#[test]
fn json_has_every_field_and_repeats_with_the_seed() {
    let one = json_of(&[
        "estimate",
        "12",
        "--samples",
        "400",
        "--seed",
        "9",
        "--threads",
        "1",
        "--format",
        "json",
    ]);
    for field in [
        "n",
        "strategy",
        "kernel",
        "seed",
        "samples",
        "estimate_total",
        "total_low",
        "total_high",
        "estimate_unique",
        "core_seconds",
        "core_seconds_low",
        "core_seconds_high",
        "wall_seconds",
        "wall_seconds_10000",
        "largest_task_share",
        "covered_fraction",
        "known_total",
    ] {
        assert!(!one[field].is_null(), "{field} missing: {one}");
    }
    assert_eq!(one["known_total"], 14200);
    assert_eq!(one["samples"], 400);
    let two = json_of(&[
        "estimate",
        "12",
        "--samples",
        "400",
        "--seed",
        "9",
        "--threads",
        "2",
        "--format",
        "json",
    ]);
    assert_eq!(one["estimate_total"], two["estimate_total"]);
    assert_eq!(one["total_high"], two["total_high"]);
}

#[test]
fn the_table_and_csv_name_the_estimate() {
    let text = stdout_of(&["estimate", "11", "--samples", "100"]);
    assert!(
        text.contains("known total") && text.contains("2,680"),
        "{text}"
    );
    let text = stdout_of(&["estimate", "11", "--seconds", "0.2", "--format", "csv"]);
    assert!(text.starts_with("n,strategy,kernel,seed,samples"), "{text}");
    assert_eq!(text.lines().count(), 2);
}

#[test]
fn bad_input_gets_one_line_and_exit_2() {
    for args in [
        &["estimate", "3"][..],
        &["estimate", "33"],
        &["estimate", "x"],
        &["estimate", "12", "--seconds", "0"],
        &["estimate", "12", "--seconds", "-1"],
        &["estimate", "12", "--samples", "0"],
        &["estimate", "12", "--samples", "1"],
        &["estimate", "12", "--threads", "0"],
        &["estimate", "12", "--samples", "10", "--seconds", "1"],
    ] {
        usage_error(args);
    }
}
