//! The wall time of a count, modelled from its plan: the tasks' shares of the work replayed by
//! the load-balance model ([`makespan`]).
//!
//! List scheduling scales with the work: times `c·tⱼ` take `c` times the makespan of `tⱼ`. So
//! the makespans of the plan's shares are found once, when the estimator is built (on the
//! cluster sizes; a few tenths of a second for the 2.3 million tasks of n = 32), and any
//! estimate's wall times are those times its core-seconds.

use std::time::Duration;

use crate::scaling::model::makespans_of;

/// The cluster sizes whose wall time is reported besides the thread count.
pub(crate) const CLUSTERS: [usize; 3] = [64, 1024, 10_000];

/// The work the shares are scaled to before they become times: large enough that the smallest
/// share is many nanoseconds (n = 32: about 10⁻⁹ of the work is a millisecond).
const UNIT_SECONDS: f64 = 1e6;

/// The makespans on the [`CLUSTERS`] of the plan's tasks as times of a count of
/// [`UNIT_SECONDS`], and the largest task's share of the work. Nothing is kept per task: the
/// shares are read again where another thread count is modelled.
#[derive(Clone, Debug)]
pub(crate) struct Walls {
    clusters: [f64; 3],
    largest_share: f64,
}

/// A task's share of the work as its time in a count of [`UNIT_SECONDS`].
fn unit_time(share: f64) -> Duration {
    Duration::from_secs_f64((share * UNIT_SECONDS).max(0.0))
}

impl Walls {
    /// The model of a plan whose tasks, in hand-out order, hold these shares of the work.
    pub fn new(shares: impl ExactSizeIterator<Item = f64> + Clone) -> Walls {
        let largest_share = shares.clone().fold(0.0f64, f64::max);
        let clusters = makespans_of(shares.map(unit_time), CLUSTERS).map(|d| d.as_secs_f64());
        Walls {
            clusters,
            largest_share,
        }
    }

    /// The largest task's share of the work: with more workers than its inverse, that task
    /// alone sets the wall time.
    pub fn largest_share(&self) -> f64 {
        self.largest_share
    }

    /// Modelled wall seconds of `core_seconds` of work on the [`CLUSTERS`].
    pub fn on_clusters(&self, core_seconds: f64) -> [f64; 3] {
        let scale = core_seconds.max(0.0) / UNIT_SECONDS;
        self.clusters.map(|span| span * scale)
    }
}

/// Modelled wall seconds of `core_seconds` of work on `threads`, the tasks holding `shares` of
/// it, in hand-out order.
pub fn on_threads(
    shares: impl ExactSizeIterator<Item = f64>,
    core_seconds: f64,
    threads: usize,
) -> f64 {
    let [span] = makespans_of(shares.map(unit_time), [threads]);
    span.as_secs_f64() * core_seconds.max(0.0) / UNIT_SECONDS
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scaling::model::predict;

    #[test]
    fn the_model_scales_with_the_work() {
        let shares = [0.4, 0.3, 0.2, 0.05, 0.05];
        let walls = Walls::new(shares.iter().copied());
        let core_seconds = 40.0;
        let times: Vec<Duration> = shares
            .iter()
            .map(|s| Duration::from_secs_f64(s * core_seconds))
            .collect();
        let direct = predict(&times, &[2, CLUSTERS[0]]);
        let scaled = [
            on_threads(shares.iter().copied(), core_seconds, 2),
            walls.on_clusters(core_seconds)[0],
        ];
        assert!((scaled[0] - direct[0].predicted.as_secs_f64()).abs() < 1e-6);
        assert!((scaled[1] - direct[1].predicted.as_secs_f64()).abs() < 1e-6);
        // Two workers: 0.4 + 0.05 + 0.05 | 0.3 + 0.2 of 40 s.
        assert!((scaled[0] - 20.0).abs() < 1e-6, "{scaled:?}");
        assert_eq!(walls.on_clusters(0.0), [0.0; 3]);
        assert_eq!(on_threads(shares.iter().copied(), 0.0, 2), 0.0);
        assert_eq!(walls.largest_share(), 0.4);
    }
}
