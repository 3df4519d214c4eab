//! The measured times of one thread count: what a study reports of each, and what the model
//! check ([`super::check`]) compares its predictions with.

use super::loss::Loss;

/// The measured times of one thread count.
///
/// ```
/// use nqueens::scaling::study::{measure, StudyOptions};
/// use nqueens::{Kernel, Strategy};
/// let options = StudyOptions::new(vec![2]).with_strategy(Strategy::Mirror).with_repeat(1);
/// let study = measure(8, &options, &mut |_| {}).unwrap();
/// let (one, two) = (&study.runs[0], &study.runs[1]);
/// assert_eq!((one.threads, one.speedup), (1, 1.0));
/// assert_eq!(two.speedup, one.median_seconds / two.median_seconds);
/// assert_eq!(two.efficiency, two.speedup / 2.0);
/// assert!(two.min_seconds <= two.median_seconds && two.median_seconds <= two.max_seconds);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct MeasuredPoint {
    /// Worker threads.
    pub threads: usize,
    /// Median wall-clock seconds of the timed runs.
    pub median_seconds: f64,
    /// Fastest timed run, seconds.
    pub min_seconds: f64,
    /// Slowest timed run, seconds.
    pub max_seconds: f64,
    /// One-thread median ÷ this median.
    pub speedup: f64,
    /// `speedup ÷ threads`.
    pub efficiency: f64,
    /// CPU time the timed runs received ÷ CPU time they asked for (measured as the process's CPU time); `None`
    /// where the process CPU time cannot be read or the runs were too short to judge.
    pub cpu_share: Option<f64>,
    /// More threads than physical cores: some of them shared a core (SMT, or time-slicing
    /// beyond the logical CPUs), so less than ideal speedup is expected.
    pub shares_core: bool,
    /// Where the lost efficiency (`1 − efficiency`) went, measured in the median run against the
    /// one-thread median run; `None` in results saved before it was measured.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub loss: Option<Loss>,
}
