//! The measured times of one thread count: what a study reports of each, and what the model
//! check ([`super::check`]) compares its predictions with.

use std::time::Duration;

use super::loss::{Loss, taken_by_others};

/// The measured times of one thread count.
///
/// ```
/// use nqueens::scaling::study::{measure, StudyOptions};
/// use nqueens::{Kernel, Strategy};
/// let options = StudyOptions::new(vec![2]).with_strategy(Strategy::Mirror).with_repeat(1);
/// let study = measure(8, &options, &nqueens::RunControl::default()).unwrap();
/// let (one, two) = (&study.runs[0], &study.runs[1]);
/// assert_eq!((one.threads, one.speedup), (1, 1.0));
/// assert_eq!(two.speedup, one.median.as_secs_f64() / two.median.as_secs_f64());
/// assert_eq!(two.efficiency, two.speedup / 2.0);
/// assert!(two.min <= two.median && two.median <= two.max);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct MeasuredPoint {
    /// Worker threads.
    pub threads: usize,
    /// Median wall-clock time of the timed runs (the mean of the two middle ones for an even
    /// number); serialized as `median_seconds`, in seconds.
    #[cfg_attr(
        feature = "serde",
        serde(rename = "median_seconds", with = "crate::serde_util::seconds")
    )]
    pub median: Duration,
    /// Fastest timed run; serialized as `min_seconds`, in seconds.
    #[cfg_attr(
        feature = "serde",
        serde(rename = "min_seconds", with = "crate::serde_util::seconds")
    )]
    pub min: Duration,
    /// Slowest timed run; serialized as `max_seconds`, in seconds.
    #[cfg_attr(
        feature = "serde",
        serde(rename = "max_seconds", with = "crate::serde_util::seconds")
    )]
    pub max: Duration,
    /// One-thread median ÷ this median (recomputed from the medians where a series is read
    /// back: [`Series::validated`](super::series::Series::validated)).
    #[cfg_attr(feature = "serde", serde(default))]
    pub speedup: f64,
    /// `speedup ÷ threads`.
    #[cfg_attr(feature = "serde", serde(default))]
    pub efficiency: f64,
    /// CPU time the runs (the warm-up run included) received ÷ CPU time they asked for
    /// (measured as the process's CPU time); `None` where the process CPU time cannot be read or
    /// the runs were too short to judge (under 0.25 s in all).
    pub cpu_share: Option<f64>,
    /// More threads than physical cores: some of them shared a core (SMT, or time-slicing
    /// beyond the logical CPUs), so less than ideal speedup is expected.
    #[cfg_attr(feature = "serde", serde(default))]
    pub shares_core: bool,
    /// Where the lost efficiency (`1 − efficiency`) went, measured in the median run against the
    /// one-thread median run; `None` in results saved before it was measured.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub loss: Option<Loss>,
}

impl MeasuredPoint {
    /// The point of `threads` threads whose timed runs took `median` (their median), `min` at
    /// the fastest and `max` at the slowest, `speedup` times faster
    /// than one thread; its efficiency is `speedup ÷ threads`. It has no CPU share, no loss
    /// breakdown and no shared core: set those fields where they are known.
    ///
    /// ```
    /// use nqueens::scaling::study::MeasuredPoint;
    /// use std::time::Duration;
    /// let ms = Duration::from_millis;
    /// let point = MeasuredPoint::new(4, ms(500), ms(450), ms(600), 3.0);
    /// assert_eq!((point.threads, point.median, point.efficiency), (4, ms(500), 0.75));
    /// assert_eq!((point.cpu_share, point.shares_core, point.loss), (None, false, None));
    /// ```
    #[must_use]
    pub fn new(
        threads: usize,
        median: Duration,
        min: Duration,
        max: Duration,
        speedup: f64,
    ) -> MeasuredPoint {
        MeasuredPoint {
            threads,
            median,
            min,
            max,
            speedup,
            efficiency: super::stats::efficiency(speedup, threads),
            cpu_share: None,
            shares_core: false,
            loss: None,
        }
    }
}

/// Books the CPU time other programs took as its own part of each loss breakdown
/// ([`Loss::other_programs`]) where `split(index)` says so, taking it out of the slowdown, from
/// each point's CPU share on a machine of `logical` logical CPUs against the one-thread point's;
/// returns the share of each point's worker-time that other programs took.
pub(crate) fn split_other_programs(
    runs: &mut [MeasuredPoint],
    logical: usize,
    split: impl Fn(usize) -> bool,
) -> Vec<f64> {
    let taken: Vec<f64> = runs
        .iter()
        .map(|p| {
            let imbalance = p.loss.map_or(0.0, |l| l.imbalance);
            taken_by_others(p.cpu_share, imbalance, p.threads, logical)
        })
        .collect();
    let at_one = runs
        .iter()
        .position(|p| p.threads == 1)
        .map_or(0.0, |i| taken[i]);
    for (i, (point, &taken)) in runs.iter_mut().zip(&taken).enumerate() {
        if split(i) {
            point.loss = point
                .loss
                .map(|l| l.with_other_programs(taken, at_one, point.efficiency));
        }
    }
    taken
}
