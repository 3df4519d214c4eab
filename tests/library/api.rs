//! The library as another crate uses it: code that compiles whichever features are on, the
//! threads a count reports, the worker threads the library keeps, a `Debug` on every type,
//! refused thread counts, one time type and one unique type across results, and options read
//! from partial JSON, and names that pad to a width.

use nqueens::journal::Shard;
use nqueens::{
    CountOptions, Kernel, RunControl, Strategy, count, count_with, known, release_pools,
};

/// A `match` on a kernel with a `_` arm, and `Kernel::ALL` as a slice: what compiles with and
/// without the `gpu` feature (the test suite runs with both).
#[test]
fn code_on_kernels_compiles_whichever_features_are_on() {
    fn describe(kernel: Kernel) -> &'static str {
        match kernel {
            Kernel::Auto => "the fastest",
            Kernel::DepthFirst => "the reference",
            Kernel::PortableLanes => "plain Rust",
            _ => "another",
        }
    }
    let all: &[Kernel] = Kernel::ALL;
    assert_eq!(all[0], Kernel::Auto);
    assert_eq!(describe(all[0]), "the fastest");
    assert!(all.iter().filter(|&&k| describe(k) == "another").count() >= 3);
    for kernel in Kernel::available() {
        assert!(all.contains(&kernel), "{kernel}");
    }
    // The options of a count are built without naming their fields.
    let options = CountOptions::new(1, Strategy::Mirror).with_kernel(all[all.len() - 1]);
    assert_eq!(options.threads, 1);
}

/// A shard is made by `Shard::new` (or parsed), which refuses one that does not exist, and read
/// through its accessors.
#[test]
fn a_shard_is_checked_when_made_and_read_through_accessors() {
    let shard = Shard::new(3, 8).unwrap();
    assert_eq!((shard.index(), shard.count()), (3, 8));
    assert!(Shard::new(8, 8).is_err() && Shard::new(0, 0).is_err());
    assert_eq!("3/8".parse::<Shard>().unwrap(), shard);
    assert_eq!((Shard::WHOLE.index(), Shard::WHOLE.count()), (0, 1));
}

/// `Counts::threads` is what the count ran on: at most the options' count of the pool's workers,
/// all of them for `0`.
#[test]
fn a_count_on_a_given_pool_reports_the_pool_s_threads() {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(3)
        .build()
        .unwrap();
    let control = RunControl::default().with_pool(&pool);
    for (threads, ran_on) in [(0, 3), (1, 1), (2, 2), (3, 3), (8, 3)] {
        let options = CountOptions::new(threads, Strategy::Mirror);
        for n in [8, 12] {
            let run = count_with(n, &options, &control).unwrap();
            assert_eq!(Some(run.counts.total), known::Known::of(n).map(|k| k.total));
            assert_eq!(run.counts.threads, ran_on, "n = {n}, {threads} threads");
        }
    }
}

/// Called from a worker of a pool (here inside `rayon::join`), a count runs on that pool; one
/// thread, or a board small enough for the calling thread, searches on the caller alone.
#[test]
fn a_count_called_on_a_worker_runs_on_its_pool() {
    let threads = rayon::current_num_threads().max(2);
    let options = CountOptions::new(threads, Strategy::Mirror);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    let (inside, _) = pool.install(|| rayon::join(|| count(12, &options).unwrap(), || ()));
    assert_eq!((inside.total, inside.threads), (14_200, threads));
    let outside = count(12, &options).unwrap();
    assert_eq!(outside.threads, options.threads);
    assert_eq!(count(8, &options).unwrap().threads, 1);
    let one = options.with_threads(1);
    assert_eq!(pool.install(|| count(12, &one)).unwrap().threads, 1);
}

/// Set in the process the pool test starts for itself.
const ALONE: &str = "NQUEENS_POOL_TEST_ALONE";

/// The library keeps few idle worker threads, and `release_pools` gives them all back: after
/// counts on 40 thread counts in turn, the process holds at most the newest pool and four
/// threads per logical CPU more than before, and after the release no more than before. The
/// threads are those of `/proc/self/task` (Linux), counted in a process of the test's own so that
/// the threads of other tests do not count.
#[test]
fn the_kept_worker_threads_are_bounded_and_released() {
    if !cfg!(target_os = "linux") {
        println!("skipped: the threads of a process are counted in /proc/self/task (Linux)");
        return;
    }
    if std::env::var_os(ALONE).is_none() {
        let out = std::process::Command::new(std::env::current_exe().unwrap())
            .args([
                "api::the_kept_worker_threads_are_bounded_and_released",
                "--exact",
                "--nocapture",
                "--test-threads=1",
            ])
            .env(ALONE, "1")
            .output()
            .unwrap();
        let (stdout, stderr) = (
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr),
        );
        assert!(out.status.success(), "{stdout}{stderr}");
        assert!(stdout.contains("1 passed"), "{stdout}{stderr}");
        return;
    }
    let threads_now = || std::fs::read_dir("/proc/self/task").unwrap().count();
    // A dropped pool's threads exit shortly after: the count once it is at most `bound`, or
    // the last count after 20 s.
    let settled = |bound: usize| {
        let until = std::time::Instant::now() + std::time::Duration::from_secs(20);
        loop {
            let now = threads_now();
            if now <= bound || std::time::Instant::now() > until {
                return now;
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
    };
    let before = threads_now();
    let per_cpu = 4 * std::thread::available_parallelism().map_or(1, |n| n.get());
    // n = 11: boards up to n = 10 are searched on the calling thread, with no pool.
    let options = CountOptions::new(1, Strategy::Mirror);
    for threads in 1..=40 {
        let counts = count(11, &options.with_threads(threads)).unwrap();
        assert_eq!((counts.total, counts.threads), (2680, threads));
    }
    let kept = settled(before + 40 + per_cpu);
    assert!(
        kept <= before + 40 + per_cpu,
        "{kept} threads after the counts, {before} before ({per_cpu} kept at most beside the newest pool)"
    );
    assert!(release_pools() >= 1);
    let after = settled(before);
    println!("threads: {before} before, {kept} after the counts, {after} after the release");
    assert!(
        after <= before,
        "{after} threads after the release, {before} before"
    );
}

/// Every public type can be printed with `{:?}`, the controls and the prepared count among them.
#[test]
fn every_type_a_caller_holds_has_debug() {
    fn shown(value: &impl std::fmt::Debug) -> String {
        format!("{value:?}")
    }
    let stop = std::sync::atomic::AtomicBool::new(false);
    let watch = |_: &nqueens::TaskOutcome| {};
    let control = RunControl::default().with_stop(&stop).with_watcher(&watch);
    assert!(shown(&control).starts_with("RunControl"));
    let options = CountOptions::new(2, Strategy::Mirror);
    let prepared = nqueens::Prepared::new(8, &options, &RunControl::default()).unwrap();
    assert!(shown(&prepared).contains("n: 8"), "{prepared:?}");
    assert!(shown(&nqueens::enumerate::Solutions::all(6).unwrap()).starts_with("Solutions"));
    let estimator = nqueens::estimation::Estimator::new(8, Kernel::Auto).unwrap();
    assert!(!shown(&estimator).is_empty());
    let run = prepared.run(&RunControl::default()).unwrap();
    assert!(shown(&run).contains("total: 92"));
    assert!(!shown(&nqueens::Plan::new(8, Strategy::Mirror, 16).unwrap()).is_empty());
}

/// Thread counts beyond what the machine can use are refused before any thread starts, by a
/// count, an estimate and a study alike; the limit is the same as the tool's.
#[test]
fn absurd_thread_counts_are_refused() {
    use nqueens::estimation::{Budget, EstimateOptions, estimate};
    use nqueens::scaling::study::{StudyOptions, measure};
    let most = nqueens::max_threads();
    assert!((64..=4096).contains(&most));
    let mut absurd = vec![most + 1, usize::MAX];
    if 1000 > most {
        absurd.push(1000);
    }
    for threads in absurd {
        let too_many = |e: &nqueens::Error| matches!(e, nqueens::Error::TooManyThreads { threads: t, max } if *t == threads && *max == most);
        for n in [8, 12] {
            let options = CountOptions::new(threads, Strategy::Mirror);
            let error = count(n, &options).unwrap_err();
            assert!(too_many(&error), "{error:?}");
            assert_eq!(
                error.to_string(),
                format!("{threads} threads are too many: at most {most} on this machine")
            );
        }
        let options = EstimateOptions::new(Budget::Samples(16)).with_threads(threads);
        let error = estimate(12, &options).unwrap_err();
        assert!(too_many(&error), "{error:?}");
        let options = StudyOptions::new(vec![threads]).with_repeat(1);
        let error = measure(8, &options, &nqueens::RunControl::default()).unwrap_err();
        assert!(too_many(&error), "{error:?}");
    }
    // The most is still allowed.
    let counts = count(8, &CountOptions::new(most, Strategy::Mirror)).unwrap();
    assert_eq!(counts.total, 92);
}

/// Times are `Duration`s and unique counts `Option<u128>` in every result; serde still writes
/// times as numbers of seconds.
#[test]
fn results_share_one_time_type_and_one_unique_type() {
    use nqueens::estimation::{Budget, EstimateOptions, estimate};
    use std::time::Duration;
    let counts = count(8, &CountOptions::new(1, Strategy::Mirror)).unwrap();
    let estimated = estimate(
        10,
        &EstimateOptions::new(Budget::Samples(64))
            .with_seed(1)
            .with_threads(1),
    )
    .unwrap();
    let times: [Duration; 2] = [counts.wall_time, estimated.elapsed];
    assert!(times.iter().all(|t| *t > Duration::ZERO));
    // A time budget is a duration too.
    let budget = Budget::Time(Duration::from_millis(50));
    let options = EstimateOptions::new(budget).with_seed(1).with_threads(1);
    assert!(estimate(10, &options).unwrap().elapsed > Duration::ZERO);

    let dir = tempfile::tempdir().unwrap();
    let mut files = Vec::new();
    for k in 0..2 {
        let file = dir.path().join(format!("n8-{k}.ckpt"));
        let control = RunControl::default()
            .with_journal(&file)
            .with_shard(Shard::new(k, 2).unwrap());
        count_with(8, &CountOptions::new(1, Strategy::Mirror), &control).unwrap();
        files.push(file);
    }
    let merged = nqueens::journal::merge(&files).unwrap();
    let uniques: [Option<u128>; 2] = [counts.unique, merged.unique];
    assert_eq!(uniques, [Some(12), Some(12)]);

    #[cfg(feature = "serde")]
    {
        let json = serde_json::to_value(&estimated).unwrap();
        assert_eq!(json["seconds"], estimated.elapsed.as_secs_f64());
        assert!(json.get("elapsed").is_none());
        let back: nqueens::estimation::Estimate = serde_json::from_value(json).unwrap();
        assert_eq!(back.elapsed, estimated.elapsed);
        let json = serde_json::to_value(options).unwrap();
        assert_eq!(json["budget"], serde_json::json!({ "seconds": 0.05 }));
        let json = serde_json::to_value(&merged).unwrap();
        assert_eq!(json["unique"], 12);
    }
}

/// Kernel and strategy names are read in any case, as text and (with `serde`) as JSON.
#[test]
fn names_parse_in_any_case() {
    assert_eq!("AVX2".parse::<Kernel>().unwrap(), Kernel::Avx2);
    assert_eq!(
        " Portable-Lanes ".parse::<Kernel>().unwrap(),
        Kernel::PortableLanes
    );
    assert_eq!("MIRROR".parse::<Strategy>().unwrap(), Strategy::Mirror);
    assert!("avx".parse::<Kernel>().is_err());
    #[cfg(feature = "serde")]
    {
        let kernel: Kernel = serde_json::from_str(r#""Depth-First""#).unwrap();
        assert_eq!(kernel, Kernel::DepthFirst);
        assert_eq!(serde_json::to_string(&kernel).unwrap(), r#""depth-first""#);
        assert!(serde_json::from_str::<Kernel>(r#""avx""#).is_err());
    }
}

/// Options read from JSON take the defaults of the fields left out.
#[cfg(feature = "serde")]
#[test]
fn options_read_from_partial_json() {
    use nqueens::estimation::EstimateOptions;
    use nqueens::scaling::study::StudyOptions;
    let options: CountOptions = serde_json::from_str("{}").unwrap();
    assert_eq!(options, CountOptions::default());
    let options: CountOptions = serde_json::from_str(r#"{"threads": 2}"#).unwrap();
    assert_eq!(options, CountOptions::default().with_threads(2));
    let options: CountOptions =
        serde_json::from_str(r#"{"strategy": "Mirror", "kernel": "DEPTH-FIRST"}"#).unwrap();
    assert_eq!(
        (options.strategy, options.kernel),
        (Strategy::Mirror, Kernel::DepthFirst)
    );
    assert_eq!(options.threads, CountOptions::default().threads);
    // Written in full, read back the same.
    let written = serde_json::to_value(options).unwrap();
    assert_eq!(written["kernel"], "depth-first");
    assert_eq!(
        serde_json::from_value::<CountOptions>(written).unwrap(),
        options
    );
    let estimate: EstimateOptions = serde_json::from_str(r#"{"seed": 7}"#).unwrap();
    assert_eq!(estimate, EstimateOptions::default().with_seed(7));
    let study: StudyOptions = serde_json::from_str(r#"{"repeat": 5}"#).unwrap();
    assert_eq!(study, StudyOptions::default().with_repeat(5));
    // A study counts with the options core, whose fields left out take their defaults too.
    let study: StudyOptions =
        serde_json::from_str(r#"{"count": {"strategy": "mirror"}, "threads": [2]}"#).unwrap();
    assert_eq!(
        study,
        StudyOptions::new(vec![2]).with_strategy(Strategy::Mirror)
    );
}

/// A field the options do not know (a typo) is an error, not silently ignored.
#[cfg(feature = "serde")]
#[test]
fn options_refuse_unknown_fields() {
    use nqueens::estimation::EstimateOptions;
    use nqueens::scaling::study::StudyOptions;
    let error = serde_json::from_str::<CountOptions>(r#"{"thread": 4}"#).unwrap_err();
    assert!(
        error.to_string().contains("unknown field `thread`"),
        "{error}"
    );
    assert!(serde_json::from_str::<EstimateOptions>(r#"{"seeds": 7}"#).is_err());
    assert!(serde_json::from_str::<StudyOptions>(r#"{"repeats": 5}"#).is_err());
    // The options core a study embeds refuses its typos too.
    assert!(serde_json::from_str::<StudyOptions>(r#"{"count": {"thread": 4}}"#).is_err());
    assert!(serde_json::from_str::<StudyOptions>(r#"{"strategy": "mirror"}"#).is_err());
}

/// Names display padded and aligned as `str` does, so they line up in tables.
#[test]
fn names_honour_width_and_alignment() {
    assert_eq!(format!("{:>8}", Kernel::Avx2), "    avx2");
    assert_eq!(format!("{:<8}|", Kernel::Auto), "auto    |");
    assert_eq!(format!("{:^10}", Strategy::Mirror), "  mirror  ");
    assert_eq!(format!("{:>6}", Shard::new(3, 8).unwrap()), "   3/8");
    assert_eq!(format!("{}", Shard::new(3, 8).unwrap()), "3/8");
    let task: nqueens::TaskId = "1.4".parse().unwrap();
    assert_eq!(format!("{task:-<5}"), "1.4--");
    assert_eq!(
        format!("{:>9}", nqueens::classic::Algorithm::Bitmask),
        "  bitmask"
    );
    assert_eq!(
        format!("{:>10}", nqueens::board::Symmetry::Identity),
        "  identity"
    );
}
