//! Rough running times, so that work far beyond what anyone waits for is named before it starts:
//! refused (with the flag that lifts the refusal) where it cannot have been meant, announced
//! otherwise.
//!
//! The textbook algorithms have their own estimates (`Algorithm::estimated_seconds`); the engine
//! is modelled here as a rate of solutions per second per thread, which is within a small factor
//! for every board it can finish.

use nqueens::known;

use super::Failure;
use super::{output, words};

/// Seconds in a day: the default limit of commands whose work cannot have been meant when it
/// runs longer, and the point from which a count is announced as long.
pub const DAY: f64 = crate::cli::args::DAY_SECONDS;

/// Solutions per second of one engine thread, optimised build, symmetric strategy: n = 17 on
/// one thread runs at about 6e7 with the AVX-512 lane kernel and about 7e6 with the portable
/// kernels on a busy shared machine; this middle value is within a factor of 3 of both, and
/// larger boards run at about the same rate.
const ENGINE_SOLUTIONS_PER_THREAD_SECOND: f64 = 2.0e7;

/// Fixed cost of one count (planning, starting the threads), seconds.
const ENGINE_START_SECONDS: f64 = 1e-3;

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

/// Estimated seconds for the engine to count the `n`-board on `threads` threads (no more of
/// them run at once than the machine has CPUs).
pub fn engine_seconds(n: u32, threads: usize) -> f64 {
    let parallel = threads.clamp(1, num_cpus::get().max(1)) as f64;
    ENGINE_START_SECONDS + solutions(n) / (ENGINE_SOLUTIONS_PER_THREAD_SECOND * parallel)
}

/// A rough duration for people: seconds, minutes, hours, days or years.
pub fn duration(secs: f64) -> String {
    const UNITS: [(f64, &str); 4] = [
        (365.25 * DAY, "years"),
        (DAY, "days"),
        (3600.0, "hours"),
        (60.0, "minutes"),
    ];
    if secs >= 1e6 * UNITS[0].0 {
        return format!("{:.0e} years", secs / UNITS[0].0);
    }
    for (scale, unit) in UNITS {
        if secs >= 2.0 * scale {
            return format!("{:.0} {unit}", secs / scale);
        }
    }
    if secs < 1.0 {
        return words::plural(words::number(secs), "second");
    }
    words::plural(format_args!("{secs:.0}"), "second")
}

/// The advice that ends a refusal of work over `--max-seconds`: `raise --max-seconds (now 60)`,
/// the limit in a few digits however it was written.
pub fn raise_max_seconds(limit: f64) -> String {
    format!("raise --max-seconds (now {})", words::number(limit))
}

/// Refuses work estimated at `secs` seconds when that is over `limit`: `what` names the work
/// (`verify --max 27`), `advice` says what to do instead (it should name the overriding flag).
pub fn refuse_if_over(what: &str, secs: f64, limit: f64, advice: &str) -> Result<(), Failure> {
    if secs <= limit {
        return Ok(());
    }
    Err(Failure::Usage(format!(
        "{what} would need about {} (a rough estimate from measured rates); {advice}",
        duration(secs)
    )))
}

/// Says on stderr that work estimated at `secs` seconds runs longer than a day.
pub fn announce_if_long(what: &str, secs: f64, remedy: &str) {
    if secs > DAY {
        output::warning(format_args!(
            "{what} needs about {} (a rough estimate from measured rates); {remedy}",
            duration(secs)
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_naturally() {
        assert_eq!(duration(5.2), "5 seconds");
        assert_eq!(duration(1.2), "1 second");
        assert_eq!(duration(0.25), "0.25 seconds");
        assert_eq!(duration(1e-300), "1e-300 seconds");
        assert_eq!(duration(600.0), "10 minutes");
        assert_eq!(duration(3.0 * 86400.0), "3 days");
        assert_eq!(duration(1e20), "3e12 years");
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
        assert!(engine_seconds(12, 1) < 1.0);
        assert!(engine_seconds(27, 1) > 10.0 * DAY);
        assert!(engine_seconds(30, 1) > engine_seconds(29, 1) * 5.0);
        assert!(engine_seconds(64, 1).is_finite());
        assert!(engine_seconds(20, 2) <= engine_seconds(20, 1));
    }

    #[test]
    fn work_over_the_limit_is_refused_with_the_advice() {
        assert!(refuse_if_over("x", 10.0, 60.0, "raise --max-seconds").is_ok());
        let err = refuse_if_over("verify --max 27", 1e9, DAY, "raise --max-seconds")
            .unwrap_err()
            .to_string();
        assert!(err.starts_with("verify --max 27 would need about"), "{err}");
        assert!(err.ends_with("raise --max-seconds"), "{err}");
    }
}
