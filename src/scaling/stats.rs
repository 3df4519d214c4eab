//! The study's arithmetic: medians, speedup and parallel efficiency.

/// Median, fastest and slowest of a set of timings (seconds).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Summary {
    /// The middle value; the mean of the two middle values for an even count.
    pub median: f64,
    /// The smallest value.
    pub min: f64,
    /// The largest value.
    pub max: f64,
}

impl Summary {
    /// Summarizes `samples`; `None` when there are none.
    pub fn of(samples: &[f64]) -> Option<Summary> {
        let mut sorted = samples.to_vec();
        sorted.sort_by(f64::total_cmp);
        Some(Summary {
            median: median_of_sorted(&sorted)?,
            min: *sorted.first()?,
            max: *sorted.last()?,
        })
    }
}

/// The median of `samples`: the middle value, or the mean of the two middle ones.
#[cfg(test)]
fn median(samples: &[f64]) -> Option<f64> {
    Summary::of(samples).map(|s| s.median)
}

fn median_of_sorted(sorted: &[f64]) -> Option<f64> {
    let len = sorted.len();
    match len {
        0 => None,
        _ if len % 2 == 1 => Some(sorted[len / 2]),
        _ => Some((sorted[len / 2 - 1] + sorted[len / 2]) / 2.0),
    }
}

/// How many times faster `seconds` is than `baseline_seconds` (the one-thread time).
pub fn speedup(baseline_seconds: f64, seconds: f64) -> f64 {
    baseline_seconds / seconds
}

/// Parallel efficiency: `speedup ÷ threads`; 1.0 is ideal.
pub fn efficiency(speedup: f64, threads: usize) -> f64 {
    speedup / threads as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn medians_of_odd_and_even_counts() {
        assert_eq!(median(&[7.0]), Some(7.0));
        assert_eq!(median(&[2.0, 9.0]), Some(5.5));
        assert_eq!(median(&[9.0, 1.0, 8.0, 2.0, 5.0]), Some(5.0));
        assert_eq!(median(&[6.0, 1.0, 8.0, 2.0, 5.0, 100.0]), Some(5.5));
    }

    #[test]
    fn summaries_report_the_extremes() {
        let s = Summary::of(&[1.25, 0.75, 1.0]).unwrap();
        assert_eq!(
            s,
            Summary {
                median: 1.0,
                min: 0.75,
                max: 1.25
            }
        );
    }

    #[test]
    fn speedup_and_efficiency_on_fixed_inputs() {
        assert_eq!(speedup(8.0, 8.0), 1.0);
        assert_eq!(speedup(8.0, 2.0), 4.0);
        assert_eq!(speedup(8.0, 16.0), 0.5);
        assert_eq!(efficiency(4.0, 4), 1.0);
        assert_eq!(efficiency(1.9, 2), 0.95);
        assert_eq!(efficiency(speedup(12.0, 4.0), 4), 0.75);
    }
}

/// The documentation's examples of crate-internal items, as tests.
#[cfg(test)]
mod examples {
    #[test]
    fn of_example() {
        use crate::scaling::stats::Summary;
        let s = Summary::of(&[3.0, 1.0, 2.0, 10.0]).unwrap();
        assert_eq!((s.median, s.min, s.max), (2.5, 1.0, 10.0));
        assert!(Summary::of(&[]).is_none());
    }

    #[test]
    fn median_example() {
        use crate::scaling::stats::median;
        assert_eq!(median(&[5.0, 1.0, 3.0]), Some(3.0));
        assert_eq!(median(&[4.0, 1.0, 3.0, 2.0]), Some(2.5));
        assert_eq!(median(&[]), None);
    }

    #[test]
    fn speedup_example() {
        assert_eq!(crate::scaling::stats::speedup(10.0, 4.0), 2.5);
    }

    #[test]
    fn efficiency_example() {
        assert_eq!(crate::scaling::stats::efficiency(3.0, 4), 0.75);
    }
}
