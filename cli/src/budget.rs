//! The one cost model of the tool: how long the engine needs for a board, with the kernel that
//! will run, on this CPU, and the messages built on it. Every note on a long count and every
//! refusal of work over `--max-seconds` (`count`, `verify`, `scale`) takes its figure from
//! [`engine_cost`], which is what `nqueens estimate` reports for the same board: the library's
//! estimator ([`nqueens::estimate`]), run once per board, kernel and thread count in a process
//! with [`SAMPLES`] probes and seed [`SEED`] (so `nqueens estimate N --samples 200 --seed 1`
//! draws the same probes), each probe timed by its thread's processor clock.
//!
//! Boards the estimator does not sample are scaled from one it does by their solutions (the
//! cost per solution changes little with n: 1.2e-8 to 1.5e-8 core-seconds from n = 16 to 27 with
//! one kernel): boards beyond [`Estimator::MAX_N`] from that board, and of several boards all
//! but the largest from the largest, so that several boards cost one estimate.
//!
//! The textbook algorithms have their own models (`Algorithm::estimated_seconds`); their
//! refusals are written the same way ([`refuse_if_over`]).

use std::collections::HashMap;
use std::sync::{LazyLock, Mutex};

use nqueens::estimate::{Budget, EstimateOptions, Estimator};
use nqueens::{CountOptions, Kernel, known};

use super::{Failure, human, output};

/// A count estimated to take longer than this (wall-clock seconds) is announced before it
/// starts.
pub const ANNOUNCE_SECONDS: f64 = 3600.0;

/// Probes of the estimate behind every figure: about 0.2 core-seconds, an interval of about
/// ±10% at n = 27.
pub const SAMPLES: u64 = 200;

/// The seed of those probes.
pub const SEED: u64 = 1;

/// What a piece of engine work is estimated to cost.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cost {
    /// Wall-clock seconds on the threads it runs on.
    pub wall: f64,
    /// Core-seconds (one thread's processor time, all threads summed).
    pub core: f64,
    /// The 95% interval of `core`, when the model gives one.
    pub core_interval: Option<(f64, f64)>,
}

impl Cost {
    /// Work of `seconds` on one thread, with no interval (the textbook algorithms' models).
    pub fn single_thread(seconds: f64) -> Cost {
        Cost {
            wall: seconds,
            core: seconds,
            core_interval: None,
        }
    }

    /// `self` times `factor` (a share of the work, or repeated runs).
    pub fn scaled(self, factor: f64) -> Cost {
        Cost {
            wall: self.wall * factor,
            core: self.core * factor,
            core_interval: self
                .core_interval
                .map(|(low, high)| (low * factor, high * factor)),
        }
    }

    /// `self` and then `other`: times and intervals added (an interval only when both have
    /// one).
    pub fn plus(self, other: Cost) -> Cost {
        Cost {
            wall: self.wall + other.wall,
            core: self.core + other.core,
            core_interval: self
                .core_interval
                .zip(other.core_interval)
                .map(|((a, b), (c, d))| (a + c, b + d)),
        }
    }

    /// The same work on `threads` threads: the core time spread over no more threads than the
    /// machine has CPUs.
    pub fn on_threads(self, threads: usize) -> Cost {
        let parallel = threads.clamp(1, num_cpus::get().max(1)) as f64;
        Cost {
            wall: self.core / parallel,
            ..self
        }
    }

    /// How the cost reads in a message: `about 55.6 years (111 years of core time, 95%: 99.1
    /// years to 123 years)`, or `about 1 h 02 min` when the core time is the wall time and no
    /// interval is known.
    pub fn describe(&self) -> String {
        let wall = human::duration(self.wall);
        let core = human::duration(self.core);
        match self.core_interval {
            Some((low, high)) => format!(
                "about {wall} ({core} of core time, 95%: {} to {})",
                human::duration(low),
                human::duration(high)
            ),
            None if core != wall => format!("about {wall} ({core} of core time)"),
            None => format!("about {wall}"),
        }
    }
}

/// The solutions of the `n`-board: the known total, or beyond the table an extrapolation with
/// the growth of its last step.
fn solutions(n: u32) -> f64 {
    if let Some(total) = known::total(n) {
        return total as f64;
    }
    let last = known::MAX_KNOWN_N;
    let (top, below) = (
        known::total(last).unwrap_or(1) as f64,
        known::total(last - 1).unwrap_or(1) as f64,
    );
    top * (top / below).powi(n.saturating_sub(last) as i32)
}

/// The estimates made so far in this process, by board, kernel and threads.
type Estimates = HashMap<(u32, Kernel, usize), Option<Cost>>;

/// The estimates made so far, locked.
fn cache() -> std::sync::MutexGuard<'static, Estimates> {
    static CACHE: LazyLock<Mutex<Estimates>> = LazyLock::new(Mutex::default);
    CACHE.lock().unwrap_or_else(|e| e.into_inner())
}

/// The estimator's figure for the `n`-board with `kernel` on `threads` threads (no more of
/// them run at once than the machine has CPUs); `None` when the board cannot be estimated or
/// the kernel does not run here.
fn estimated(n: u32, kernel: Kernel, threads: usize) -> Option<Cost> {
    let key = (n, kernel, threads);
    if let Some(cost) = cache().get(&key) {
        return *cost;
    }
    let cost = Estimator::new(n, kernel).ok().and_then(|estimator| {
        let e = estimator
            .estimate(
                &EstimateOptions::new(Budget::Samples(SAMPLES))
                    .with_seed(SEED)
                    .with_threads(threads.max(1))
                    .with_kernel(kernel),
            )
            .ok()?;
        let cpus = num_cpus::get().max(1) as f64;
        Some(Cost {
            wall: e.wall_seconds.max(e.core_seconds / cpus),
            core: e.core_seconds,
            core_interval: Some((e.core_seconds_low, e.core_seconds_high)),
        })
    });
    cache().insert(key, cost);
    cost
}

/// What counting the `n`-board with `options` costs (module documentation). Boards below
/// [`Estimator::MIN_N`] cost nothing measurable.
pub fn engine_cost(n: u32, options: &CountOptions) -> Cost {
    let sampled = n.clamp(Estimator::MIN_N, Estimator::MAX_N);
    if n < Estimator::MIN_N {
        return Cost::single_thread(0.0);
    }
    match estimated(sampled, options.kernel, options.threads) {
        Some(cost) => cost.scaled(solutions(n) / solutions(sampled)),
        None => Cost::single_thread(f64::INFINITY),
    }
}

/// What counting `boards` one after another with `options` costs: the largest estimated, the
/// others scaled from it by their solutions.
pub fn boards_cost(boards: &[u32], options: &CountOptions) -> Cost {
    let Some(&largest) = boards.iter().max() else {
        return Cost::single_thread(0.0);
    };
    let cost = engine_cost(largest, options);
    let share: f64 = boards
        .iter()
        .map(|&n| solutions(n) / solutions(largest).max(1.0))
        .sum();
    cost.scaled(share)
}

/// The advice that ends a refusal of work over `--max-seconds`: `raise --max-seconds (now 60)`,
/// the limit in a few digits however it was written.
pub fn raise_max_seconds(limit: f64) -> String {
    format!("raise --max-seconds (now {})", human::number(limit))
}

/// Refuses work estimated at `secs` wall-clock seconds when that is over `limit`: `what` names
/// the work (`verify --max 27`), `advice` says what to do instead (it should name the
/// overriding flag).
pub fn refuse_if_over(what: &str, secs: f64, limit: f64, advice: &str) -> Result<(), Failure> {
    refuse_cost_over(what, Cost::single_thread(secs), limit, advice)
}

/// Refuses work of `cost` when its wall-clock time is over `limit`, in the words of every
/// refusal: `{what} would need about …; {advice}`.
pub fn refuse_cost_over(what: &str, cost: Cost, limit: f64, advice: &str) -> Result<(), Failure> {
    if cost.wall <= limit {
        return Ok(());
    }
    Err(Failure::Usage(format!(
        "{what} would need {}; {advice}",
        cost.describe()
    )))
}

/// Says on stderr, as a warning in the words of every refusal (`{what} needs about …;
/// {remedy}`), that work of `cost` runs longer than [`ANNOUNCE_SECONDS`].
pub fn announce_if_long(what: &str, cost: Cost, remedy: &str) {
    if let Some(line) = long_work(what, cost, remedy) {
        output::warning(line);
    }
}

/// The announcement of [`announce_if_long`], if the work is long.
fn long_work(what: &str, cost: Cost, remedy: &str) -> Option<String> {
    (cost.wall > ANNOUNCE_SECONDS).then(|| format!("{what} needs {}; {remedy}", cost.describe()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::args::DAY_SECONDS as DAY;

    fn options(threads: usize, kernel: Kernel) -> CountOptions {
        CountOptions::new(threads, nqueens::Strategy::Symmetric).with_kernel(kernel)
    }

    #[test]
    fn the_limit_in_the_advice_is_short() {
        assert_eq!(raise_max_seconds(60.0), "raise --max-seconds (now 60)");
        assert_eq!(
            raise_max_seconds(1e-300),
            "raise --max-seconds (now 1e-300)"
        );
        assert_eq!(raise_max_seconds(0.5), "raise --max-seconds (now 0.5)");
    }

    #[test]
    fn the_engine_estimate_grows_with_the_board_and_shrinks_with_threads() {
        let one = options(1, Kernel::Auto);
        assert!(engine_cost(12, &one).wall < 1.0);
        assert_eq!(engine_cost(2, &one).wall, 0.0);
        assert!(engine_cost(27, &one).wall > 10.0 * DAY);
        assert!(engine_cost(30, &one).wall > engine_cost(29, &one).wall * 5.0);
        assert!(engine_cost(64, &one).wall.is_finite());
        assert!(engine_cost(20, &options(2, Kernel::Auto)).wall <= engine_cost(20, &one).wall);
    }

    #[test]
    fn the_same_board_costs_the_same_every_time() {
        let one = options(1, Kernel::Auto);
        assert_eq!(engine_cost(18, &one), engine_cost(18, &one));
        // One board alone costs what it costs among others, plus theirs.
        let several = boards_cost(&[16, 18], &one);
        assert!(several.core > engine_cost(18, &one).core);
        assert!(several.core < 1.5 * engine_cost(18, &one).core);
        assert_eq!(boards_cost(&[18], &one), engine_cost(18, &one));
    }

    #[test]
    fn the_portable_kernel_costs_more_than_the_lanes() {
        let fastest = Kernel::Auto.resolve().unwrap();
        if fastest == Kernel::PortableLanes || fastest == Kernel::DepthFirst {
            eprintln!("skipped: this CPU runs no SIMD lane kernel");
            return;
        }
        let lanes = engine_cost(20, &options(1, fastest));
        let portable = engine_cost(20, &options(1, Kernel::PortableLanes));
        assert!(portable.core > lanes.core, "{portable:?} vs {lanes:?}");
    }

    #[test]
    fn work_over_the_limit_is_refused_with_the_advice() {
        assert!(refuse_if_over("x", 10.0, 60.0, "raise --max-seconds").is_ok());
        let err = refuse_if_over("verify --max 27", 1e9, DAY, "raise --max-seconds")
            .unwrap_err()
            .to_string();
        assert_eq!(
            err,
            "verify --max 27 would need about 31.7 years; raise --max-seconds"
        );
    }

    #[test]
    fn announcements_and_refusals_read_alike() {
        let cost = Cost {
            wall: 2.0 * DAY,
            core: 4.0 * DAY,
            core_interval: Some((3.5 * DAY, 4.5 * DAY)),
        };
        assert_eq!(
            long_work("counting n = 22 on 2 threads", cost, "it starts anyway").unwrap(),
            "counting n = 22 on 2 threads needs about 2 days 0 h (4 days 0 h of core \
             time, 95%: 3 days 12 h to 4 days 12 h); it starts anyway"
        );
        let refusal = refuse_cost_over("verify of n = 22", cost, 60.0, "raise --max-seconds")
            .unwrap_err()
            .to_string();
        assert!(
            refusal.starts_with("verify of n = 22 would need about 2 days 0 h (4 days"),
            "{refusal}"
        );
        assert_eq!(long_work("x", Cost::single_thread(60.0), "y"), None);
    }
}
