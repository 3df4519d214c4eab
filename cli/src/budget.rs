//! The messages built on the library's cost model ([`nqueens::estimation::cost`]): how long the
//! engine needs for a board, with the kernel that will run, on this CPU. Every note on a long
//! count and every refusal of work over `--max-seconds` (`count`, `verify`, `scale`) takes its
//! figure from [`Cost::of_board`], which is what `nqueens estimate` reports for the same board
//! with `--samples 200 --seed 1`.
//!
//! The textbook algorithms have their own models (`Algorithm::estimated_time`); their
//! refusals are written the same way ([`refuse_if_over`]).

use std::time::Duration;

use nqueens::estimation::cost::Cost;

use nqueens_ui::failure::Failure;
use nqueens_ui::{human, output};

/// A count estimated to take longer than this (wall-clock seconds) is announced before it
/// starts.
pub const ANNOUNCE_SECONDS: f64 = 3600.0;

/// `time` in seconds, where [`Duration::MAX`] (a cost beyond any figure) is infinite.
pub fn seconds(time: Duration) -> f64 {
    if time == Duration::MAX {
        f64::INFINITY
    } else {
        time.as_secs_f64()
    }
}

/// `time` for people; the largest time ([`Duration::MAX`], a cost beyond any figure) as what
/// it is, a bound: `more than 585 billion years`.
fn time_text(time: Duration) -> String {
    let text = human::duration(time.as_secs_f64());
    if time == Duration::MAX {
        format!("more than {text}")
    } else {
        text
    }
}

/// How `cost` reads in a message: `about 55.6 years (111 years of core time, 95 %: 99.1 years
/// to 123 years)`, or `about 1 h 02 min` when the core time is the wall time and no interval is
/// known; a cost beyond any figure `more than 585 billion years`.
pub fn describe(cost: &Cost) -> String {
    let wall = time_text(cost.wall_time);
    let core = time_text(cost.core_time);
    let about = if cost.wall_time == Duration::MAX {
        ""
    } else {
        "about "
    };
    match cost.core_time_interval {
        Some((low, high)) => format!(
            "{about}{wall} ({core} of core time, 95 %: {} to {})",
            time_text(low),
            time_text(high)
        ),
        None if core != wall => format!("{about}{wall} ({core} of core time)"),
        None => format!("{about}{wall}"),
    }
}

/// The advice that ends a refusal of work over `--max-seconds`: `raise --max-seconds (now 60)`,
/// the limit in a few digits however it was written.
pub fn raise_max_seconds(limit: f64) -> String {
    format!("raise --max-seconds (now {})", human::number(limit))
}

/// Refuses work estimated at `time` on the clock when that is over `limit`: `what` names
/// the work (`verify --max 27`), `advice` says what to do instead (it should name the
/// overriding flag).
pub fn refuse_if_over(what: &str, time: Duration, limit: f64, advice: &str) -> Result<(), Failure> {
    refuse_cost_over(what, Cost::single_thread(time), limit, advice)
}

/// Refuses work of `cost` when its wall-clock time is over `limit`, in the words of every
/// refusal: `{what} would need about …; {advice}`.
pub fn refuse_cost_over(what: &str, cost: Cost, limit: f64, advice: &str) -> Result<(), Failure> {
    if seconds(cost.wall_time) <= limit {
        return Ok(());
    }
    Err(Failure::Usage(format!(
        "{what} would need {}; {advice}",
        describe(&cost)
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
    (seconds(cost.wall_time) > ANNOUNCE_SECONDS)
        .then(|| format!("{what} needs {}; {remedy}", describe(&cost)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::args::DAY_SECONDS as DAY;

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
    fn work_over_the_limit_is_refused_with_the_advice() {
        assert!(refuse_if_over("x", Duration::from_secs(10), 60.0, "raise --max-seconds").is_ok());
        let err = refuse_if_over(
            "verify --max 27",
            Duration::from_secs(1_000_000_000),
            DAY,
            "raise --max-seconds",
        )
        .unwrap_err()
        .to_string();
        assert_eq!(
            err,
            "verify --max 27 would need about 31.7 years; raise --max-seconds"
        );
    }

    #[test]
    fn announcements_and_refusals_read_alike() {
        let day = Duration::from_secs_f64(DAY);
        let cost =
            Cost::new(2 * day, 4 * day).with_core_interval(day.mul_f64(3.5), day.mul_f64(4.5));
        assert_eq!(
            long_work("counting n = 22 on 2 threads", cost, "it starts anyway").unwrap(),
            "counting n = 22 on 2 threads needs about 2 days 0 h (4 days 0 h of core \
             time, 95 %: 3 days 12 h to 4 days 12 h); it starts anyway"
        );
        let refusal = refuse_cost_over("verify of n = 22", cost, 60.0, "raise --max-seconds")
            .unwrap_err()
            .to_string();
        assert!(
            refusal.starts_with("verify of n = 22 would need about 2 days 0 h (4 days"),
            "{refusal}"
        );
        assert_eq!(
            long_work("x", Cost::single_thread(Duration::from_secs(60)), "y"),
            None
        );
        // A cost beyond any figure is said as the bound it is.
        let beyond = long_work("x", Cost::single_thread(Duration::MAX), "y").unwrap();
        assert!(beyond.starts_with("x needs more than "), "{beyond}");
        assert!(beyond.contains(" years"), "{beyond}");
    }
}
