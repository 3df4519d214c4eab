//! The model checked against the runs: each measured thread count predicted from the others.
//!
//! The model with losses ([`ModelPoint::with_losses`]) predicts `s + r × makespan` with
//! the serial time `s` and the slowdown `r` of the largest measured thread count up to the
//! workers, held beyond it. Leaving one measured count `P` out, the same rule takes them from the
//! largest measured count below `P`, and the prediction is compared with what `P` measured: the
//! error of the model's extrapolation by one measured step.
//!
//! The model's times are those of its own one-worker run (each task's fastest time plus the
//! serial time), which on a busy machine is well under the measured one-thread median; each
//! prediction is scaled by the measured one-thread median over the model's one-worker time, so
//! that the error is the error of the predicted speedup.
//!
//! Both terms are recovered from what a study saves (so that results saved by earlier versions
//! are checked too): the one-thread run's serial time is its prediction with losses minus its
//! makespan; count `T`'s is `(serial loss × T × median wall + s₁) ÷ T` (the loss breakdown's
//! definition); its slowdown is `(with losses − s) ÷ makespan` at `T`. A result saved without
//! the breakdown is checked with the serial time folded into the slowdown (median wall ÷
//! makespan), marked [`Holdout::lumped`].

use super::measured::MeasuredPoint;
use super::model::{MeasuredTerms, ModelPoint};
use std::time::Duration;

/// One measured thread count predicted from the smaller ones.
///
/// ```
/// use nqueens::scaling::study::{measure, StudyOptions};
/// use nqueens::Strategy;
/// let options = StudyOptions::new(vec![2]).with_strategy(Strategy::Mirror).with_repeat(1);
/// let study = measure(10, &options, &nqueens::RunControl::default()).unwrap();
/// let check = study.leave_one_out();
/// assert_eq!(check.len(), 1); // 2 threads, from 1 (one thread is the baseline: never left out)
/// assert_eq!((check[0].threads, check[0].from_threads), (2, 1));
/// let c = check[0];
/// assert_eq!(c.measured, study.runs[1].median);
/// // The error is that of the prediction before it is rounded to the nanosecond.
/// let ratio = c.predicted.as_secs_f64() / c.measured.as_secs_f64();
/// assert!((c.error - (ratio - 1.0)).abs() <= 1e-9 / c.measured.as_secs_f64());
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct Holdout {
    /// The measured thread count left out.
    pub threads: usize,
    /// The measured thread count whose serial time and slowdown the prediction holds: the
    /// largest below `threads`.
    pub from_threads: usize,
    /// The model's wall-clock time for `threads` without its own measurement, in the units of
    /// the measured one-thread run (see the module's documentation); serialized as
    /// `predicted_seconds`, in seconds.
    #[cfg_attr(
        feature = "serde",
        serde(rename = "predicted_seconds", with = "crate::serde_util::seconds")
    )]
    pub predicted: Duration,
    /// What `threads` measured: the median wall-clock time; serialized as `measured_seconds`,
    /// in seconds.
    #[cfg_attr(
        feature = "serde",
        serde(rename = "measured_seconds", with = "crate::serde_util::seconds")
    )]
    pub measured: Duration,
    /// `predicted ÷ measured − 1` (of the prediction before it is rounded to the nanosecond):
    /// positive where the model predicted slower than measured.
    pub error: f64,
    /// The result has no loss breakdown (saved before it was measured): each count's serial
    /// time is folded into its slowdown, taken as its median wall ÷ its makespan.
    #[cfg_attr(feature = "serde", serde(default))]
    pub lumped: bool,
}

/// Each measured thread count but one thread predicted from the smaller ones (see the module's
/// documentation); empty where the runs carry no loss breakdown or the model no prediction with
/// losses (results saved before they were measured).
#[must_use]
pub(crate) fn leave_one_out(runs: &[MeasuredPoint], model: &[ModelPoint]) -> Vec<Holdout> {
    let at = |workers: usize| model.iter().find(|m| m.workers == workers);
    let measured = measured_terms(runs, &at);
    let lumped = measured.is_empty();
    let terms = if lumped {
        // No breakdown saved: each count's wall over its makespan, the serial time folded in.
        runs.iter()
            .filter_map(|p| {
                let slowdown = p.median.as_secs_f64() / at(p.threads)?.predicted.as_secs_f64();
                slowdown.is_finite().then_some(MeasuredTerms {
                    threads: p.threads,
                    serial_seconds: 0.0,
                    slowdown,
                })
            })
            .collect()
    } else {
        measured
    };
    // The model's times are those of its own one-worker run (the tasks' fastest times plus the
    // serial time); in the measured one-thread run's units, the error is that of the speedup.
    let scale = at(1)
        .and_then(|m| m.with_losses)
        .zip(runs.iter().find(|p| p.threads == 1))
        .map(|(modelled, one)| one.median.as_secs_f64() / modelled.as_secs_f64())
        .filter(|s| s.is_finite() && *s > 0.0 && !lumped)
        .unwrap_or(1.0);
    runs.iter()
        .filter(|p| p.threads > 1)
        .filter_map(|p| {
            let makespan = at(p.threads)?.predicted.as_secs_f64();
            let from = MeasuredTerms::held_for(&terms, p.threads - 1)?;
            let predicted = scale * from.seconds_for(makespan);
            let error = predicted / p.median.as_secs_f64() - 1.0;
            // A prediction beyond what a `Duration` holds is left out, as an infinite error is.
            let predicted = Duration::try_from_secs_f64(predicted).ok()?;
            error.is_finite().then_some(Holdout {
                threads: p.threads,
                from_threads: from.threads,
                predicted,
                measured: p.median,
                error,
                lumped,
            })
        })
        .collect()
}

/// The serial time and slowdown of each measured count, recovered from the loss breakdown and
/// the model with losses; empty where either was not saved.
fn measured_terms<'a>(
    runs: &[MeasuredPoint],
    at: &dyn Fn(usize) -> Option<&'a ModelPoint>,
) -> Vec<MeasuredTerms> {
    let Some(one) = at(1).filter(|m| m.losses_from_threads == Some(1)) else {
        return Vec::new();
    };
    let Some(serial_one) = one
        .with_losses
        .map(|w| w.as_secs_f64() - one.predicted.as_secs_f64())
    else {
        return Vec::new();
    };
    runs.iter()
        .filter_map(|p| {
            let point = at(p.threads).filter(|m| m.losses_from_threads == Some(p.threads))?;
            let t = p.threads as f64;
            let serial_seconds = if p.threads == 1 {
                serial_one
            } else {
                (p.loss?.serial * t * p.median.as_secs_f64() + serial_one) / t
            };
            let slowdown =
                (point.with_losses?.as_secs_f64() - serial_seconds) / point.predicted.as_secs_f64();
            slowdown.is_finite().then_some(MeasuredTerms {
                threads: p.threads,
                serial_seconds,
                slowdown,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scaling::Loss;
    use crate::scaling::model::{MeasuredTerms, add_measured_terms, predict};

    fn point(threads: usize, median_seconds: f64, serial: f64) -> MeasuredPoint {
        let median = Duration::from_secs_f64(median_seconds);
        MeasuredPoint {
            threads,
            median,
            min: median,
            max: median,
            speedup: 1.0,
            efficiency: 1.0,
            cpu_share: None,
            shares_core: false,
            loss: Some(Loss {
                serial,
                ..Loss::default()
            }),
        }
    }

    #[test]
    fn the_terms_recovered_from_a_saved_study_predict_the_left_out_count() {
        // 64 tasks of 10 ms: makespans 640, 320, 160 ms on 1, 2, 4 workers.
        let tasks = vec![Duration::from_millis(10); 64];
        let mut model = predict(&tasks, &[1, 2, 4, 8]);
        // Serial time per worker 10, 6 and 4 ms; slowdown 1, 1.05 and 1.1.
        let terms = [(1, 0.010, 1.0), (2, 0.006, 1.05), (4, 0.004, 1.1)].map(
            |(threads, serial_seconds, slowdown)| MeasuredTerms {
                threads,
                serial_seconds,
                slowdown,
            },
        );
        add_measured_terms(&mut model, 0.640, &terms);
        // Walls chosen freely; the serial loss share is what the breakdown records for them.
        let walls = [0.650, 0.345, 0.200];
        let runs: Vec<MeasuredPoint> = terms
            .iter()
            .zip(walls)
            .map(|(m, wall)| {
                let t = m.threads as f64;
                point(m.threads, wall, (m.serial_seconds * t - 0.010) / (t * wall))
            })
            .collect();
        let check = leave_one_out(&runs, &model);
        let got: Vec<(usize, usize)> = check.iter().map(|h| (h.threads, h.from_threads)).collect();
        assert_eq!(got, [(2, 1), (4, 2)]);
        assert!(check.iter().all(|h| !h.lumped));
        // 2 from 1: 10 ms + 1 x 320 ms; 4 from 2: 6 ms + 1.05 x 160 ms.
        assert!(
            (check[0].predicted.as_secs_f64() - 0.330).abs() < 1e-9,
            "{check:?}"
        );
        assert!((check[1].predicted.as_secs_f64() - (0.006 + 1.05 * 0.160)).abs() < 1e-9);
        assert!((check[0].error - (0.330 / 0.345 - 1.0)).abs() < 1e-9);
        assert_eq!(check[1].measured, Duration::from_millis(200));
        // A one-thread run twice as slow as the model's one worker (a busy machine): the
        // predictions are in its units, so the error is that of the speedup.
        let mut slow = runs.clone();
        slow[0].median = Duration::from_millis(1300);
        let check = leave_one_out(&slow, &model);
        assert!(
            (check[0].predicted.as_secs_f64() - 2.0 * 0.330).abs() < 1e-9,
            "{check:?}"
        );
    }

    #[test]
    fn results_without_the_breakdown_fold_the_serial_time_into_the_slowdown() {
        // Makespans 80, 40 and 20 ms; walls 88, 46 and 21 ms.
        let tasks = vec![Duration::from_millis(10); 8];
        let model = predict(&tasks, &[1, 2, 4]);
        let runs = [
            point(1, 0.088, 0.0),
            point(2, 0.046, 0.0),
            point(4, 0.021, 0.0),
        ];
        let check = leave_one_out(&runs, &model);
        assert!(check.iter().all(|h| h.lumped));
        // 2 from 1: 40 ms x 88/80; 4 from 2: 20 ms x 46/40.
        assert!(
            (check[0].predicted.as_secs_f64() - 0.044).abs() < 1e-9,
            "{check:?}"
        );
        assert!(
            (check[1].predicted.as_secs_f64() - 0.023).abs() < 1e-9,
            "{check:?}"
        );
        assert!(leave_one_out(&runs, &[]).is_empty());
    }
}
