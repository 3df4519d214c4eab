//! `--pin`: the workers of `count` and `scale` placed on chosen CPUs, recorded in the results,
//! and refused where they cannot be.

use serde_json::Value;

use crate::util::{self, stdout_of};

/// The CPUs this process may run on (its affinity mask, which `--pin` places workers on).
fn allowed() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

#[cfg(target_os = "linux")]
#[test]
fn a_pinned_count_records_its_placement_and_counts_right() {
    let threads = allowed().min(2).to_string();
    let text = stdout_of(&[
        "count", "12", "-t", &threads, "--pin", "cores", "-f", "json",
    ]);
    let v: Value = serde_json::from_str(&text).unwrap();
    let record = &v[0];
    assert_eq!(record["total"], 14_200);
    let pin = record["pin"].as_str().expect("the placement is recorded");
    assert!(pin.starts_with("cores: "), "{pin}");
    assert_eq!(
        pin["cores: ".len()..].split(',').count(),
        allowed().min(2),
        "{pin}"
    );
    // Unpinned, nothing is recorded.
    let text = stdout_of(&["count", "12", "-f", "json"]);
    assert!(!text.contains("\"pin\""), "{text}");
}

#[cfg(target_os = "linux")]
#[test]
fn a_pinned_study_records_its_placement_in_the_run() {
    let text = stdout_of(&[
        "scale", "10", "-t", "1", "-r", "1", "--pin", "siblings", "-f", "json",
    ]);
    let v: Value = serde_json::from_str(&text).unwrap();
    let pin = v[0]["run"]["pin"]
        .as_str()
        .expect("the placement is recorded");
    assert!(pin.starts_with("siblings: "), "{pin}");
    let table = stdout_of(&["scale", "10", "-t", "1", "-r", "1", "--pin", "cores"]);
    assert!(table.contains("; threads pinned (cores: "), "{table}");
}

#[cfg(target_os = "linux")]
#[test]
fn more_threads_than_cpus_to_pin_them_on_are_refused_in_one_line() {
    let too_many = (allowed() + 1).to_string();
    for args in [
        vec!["count", "10", "-t", &too_many, "--pin", "cores"],
        vec![
            "scale", "10", "-t", &too_many, "-r", "1", "--pin", "siblings",
        ],
    ] {
        let err = util::usage_error(&args);
        assert!(
            err.contains(&format!(
                "{too_many} threads, but this process may run on only"
            )),
            "{err}"
        );
    }
}

#[test]
fn an_unknown_placement_is_a_usage_error() {
    let err = util::usage_error(&["count", "10", "--pin", "everywhere"]);
    assert!(err.contains("everywhere"), "{err}");
}

#[cfg(not(target_os = "linux"))]
#[test]
fn pinning_is_refused_off_linux() {
    let err = util::usage_error(&["count", "10", "--pin", "cores"]);
    assert!(err.contains("--pin needs Linux"), "{err}");
}
