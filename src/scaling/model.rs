//! The load-balance model: the makespan of a plan's tasks on `P` identical workers.
//!
//! The tasks are handed out in the given order (the plan's, largest first), each to the worker
//! that becomes free first — the same list scheduling a run performs. Nothing else is modelled:
//! no memory-bandwidth or cache limits, no clock changes, no scheduling overhead, identical cores.
//! So the predicted speedup (`Σ task times ÷ makespan`) is what the plan's task sizes allow, an
//! upper bound for a real machine.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::time::Duration;

/// The model's prediction for one worker count.
///
/// ```
/// use nqueens::scaling::study::{measure, StudyOptions};
/// use nqueens::{Kernel, Strategy};
/// let options = StudyOptions::new(vec![2]).with_strategy(Strategy::Mirror).with_repeat(1);
/// let study = measure(8, &options, &nqueens::RunControl::default()).unwrap();
/// // One worker runs the tasks one after another.
/// assert_eq!(study.model_at(1).unwrap().predicted, study.task_time_total);
/// for point in &study.model {
///     // No number of workers beats the longest task, nor is slower than one worker.
///     assert!(point.predicted >= study.task_time_max);
///     assert!(point.predicted <= study.task_time_total);
/// }
/// assert!(study.model.windows(2).all(|pair| pair[0].workers < pair[1].workers));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct ModelPoint {
    /// Number of identical workers, the thread count modelled; serialized as `threads` (read
    /// back from `workers` too, its former name).
    #[cfg_attr(feature = "serde", serde(rename = "threads", alias = "workers"))]
    pub workers: usize,
    /// Predicted wall-clock time (the makespan); serialized as `predicted_seconds`, in seconds.
    #[cfg_attr(
        feature = "serde",
        serde(rename = "predicted_seconds", with = "crate::serde_util::seconds")
    )]
    pub predicted: Duration,
    /// Predicted speedup: `Σ task times ÷ makespan`.
    pub speedup: f64,
    /// Predicted parallel efficiency: `speedup ÷ workers`.
    #[cfg_attr(feature = "serde", serde(default))]
    pub efficiency: f64,
    /// Predicted wall-clock time with what the runs measured beside the list scheduling:
    /// `s + r × makespan`, where `s` is the time each worker spent outside the tasks (the
    /// serial part, Amdahl's) and `r` the tasks' summed time ÷ the one-thread run's (the
    /// per-thread slowdown), both at the thread count `losses_from_threads`; `None` without a
    /// measured one-thread run (and in results saved before it was modelled). Serialized as
    /// `with_losses_seconds`, in seconds.
    #[cfg_attr(
        feature = "serde",
        serde(
            rename = "with_losses_seconds",
            with = "crate::serde_util::seconds::optional",
            default,
            skip_serializing_if = "Option::is_none"
        )
    )]
    pub with_losses: Option<Duration>,
    /// The speedup of `with_losses` over its own one-worker prediction.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub with_losses_speedup: Option<f64>,
    /// The measured thread count whose serial time and slowdown `with_losses` uses: the
    /// largest measured count up to `workers`. Where it is not `workers`, those two terms are
    /// extrapolated: held at that count's values.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub losses_from_threads: Option<usize>,
}

impl ModelPoint {
    /// The prediction of `predicted` on `workers` workers, `speedup` times faster than
    /// one worker; its efficiency is `speedup ÷ workers`. It has no prediction with losses: set
    /// those fields where they are known.
    ///
    /// ```
    /// use nqueens::scaling::study::ModelPoint;
    /// use std::time::Duration;
    /// let point = ModelPoint::new(4, Duration::from_millis(250), 3.2);
    /// assert_eq!((point.workers, point.predicted.as_secs_f64(), point.efficiency), (4, 0.25, 0.8));
    /// assert_eq!(point.with_losses, None);
    /// ```
    #[must_use]
    pub fn new(workers: usize, predicted: Duration, speedup: f64) -> ModelPoint {
        ModelPoint {
            workers,
            predicted,
            speedup,
            efficiency: speedup / workers.max(1) as f64,
            with_losses: None,
            with_losses_speedup: None,
            losses_from_threads: None,
        }
    }

    /// The worker counts the model predicts by default: 1, 2, 4, …, 256.
    ///
    /// ```
    /// use nqueens::scaling::study::ModelPoint;
    /// assert_eq!(ModelPoint::DEFAULT_WORKERS[..3], [1, 2, 4]);
    /// ```
    pub const DEFAULT_WORKERS: [usize; 9] = [1, 2, 4, 8, 16, 32, 64, 128, 256];

    /// The model's predictions for task `times` (in hand-out order, largest first as a plan
    /// hands them out) on each worker count of `workers`: the makespan of list scheduling, each
    /// task going to the worker free first, and the speedup and efficiency it gives (the
    /// speedup is `NaN` when every time is zero). No prediction with losses.
    ///
    /// ```
    /// use nqueens::scaling::study::ModelPoint;
    /// use std::time::Duration;
    /// let s = Duration::from_secs;
    /// // 5 and 4 start at once; the 3s go to whichever worker frees up first: 4+3, 5+3, 7+3.
    /// let points = ModelPoint::predict(&[s(5), s(4), s(3), s(3), s(3)], &[1, 2]);
    /// assert_eq!((points[0].predicted, points[1].predicted), (s(18), s(10)));
    /// assert_eq!((points[1].speedup, points[1].efficiency), (1.8, 0.9));
    /// ```
    #[must_use]
    pub fn predict(times: &[Duration], workers: &[usize]) -> Vec<ModelPoint> {
        predict(times, workers)
    }
}

/// What the runs of one thread count measured, for the model with losses.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct MeasuredTerms {
    /// Thread count.
    pub threads: usize,
    /// Seconds each worker spent outside the tasks, on average (the serial part).
    pub serial_seconds: f64,
    /// The tasks' summed time ÷ the one-thread run's.
    pub slowdown: f64,
}

impl MeasuredTerms {
    /// The wall time these terms give a run whose tasks' makespan is `makespan` seconds:
    /// serial part plus slowdown × makespan. A slowdown below 1 (noise, or a busy machine's
    /// CPU time booked to other programs a little more than it took) counts as 1: the model
    /// adds losses to the bound and never gains on it.
    pub fn seconds_for(&self, makespan: f64) -> f64 {
        self.serial_seconds.max(0.0) + self.slowdown.max(1.0) * makespan
    }

    /// The terms of the largest measured count up to `threads`: those the model holds for
    /// `threads` workers.
    pub fn held_for(measured: &[MeasuredTerms], threads: usize) -> Option<&MeasuredTerms> {
        measured
            .iter()
            .filter(|m| m.threads <= threads)
            .max_by_key(|m| m.threads)
    }
}

/// Adds the prediction with the measured serial part and slowdown to each of `points`, from the
/// largest measured count up to its worker count; `task_seconds` is the sum of the task times
/// the makespans were computed from. Nothing is added without a measured one-thread count.
pub(crate) fn add_measured_terms(
    points: &mut [ModelPoint],
    task_seconds: f64,
    measured: &[MeasuredTerms],
) {
    let Some(one) = measured.iter().find(|m| m.threads == 1) else {
        return;
    };
    let one_worker = one.serial_seconds + task_seconds;
    for point in points {
        let Some(m) = MeasuredTerms::held_for(measured, point.workers) else {
            continue;
        };
        let seconds = m.seconds_for(point.predicted.as_secs_f64());
        // Never negative (the serial part counts from 0, the slowdown from 1); a time beyond
        // what a `Duration` holds has no prediction.
        let Ok(with_losses) = Duration::try_from_secs_f64(seconds) else {
            continue;
        };
        point.with_losses = Some(with_losses);
        point.with_losses_speedup = Some(if seconds > 0.0 {
            one_worker / seconds
        } else {
            f64::NAN
        });
        point.losses_from_threads = Some(m.threads);
    }
}

/// The makespan of `times` (in hand-out order) on `workers` workers (at least one is assumed),
/// each task going to the worker that is free first.
#[must_use]
pub(crate) fn makespan(times: &[Duration], workers: usize) -> Duration {
    let [end] = makespans_of(times.iter().copied(), [workers]);
    end
}

/// [`makespan`] of times read one at a time (none of them kept) on each worker count of
/// `workers`, in one pass over the times.
pub(crate) fn makespans_of<const K: usize>(
    times: impl ExactSizeIterator<Item = Duration>,
    workers: [usize; K],
) -> [Duration; K] {
    let tasks = times.len();
    let mut free_at: [BinaryHeap<Reverse<Duration>>; K] = workers.map(|workers| {
        std::iter::repeat_n(Reverse(Duration::ZERO), workers.clamp(1, tasks.max(1))).collect()
    });
    let mut end = [Duration::ZERO; K];
    for time in times {
        for (free_at, end) in free_at.iter_mut().zip(&mut end) {
            // The worker free first takes the task: its time moves down the heap once.
            // Never empty: it holds at least one worker.
            let Some(mut first) = free_at.peek_mut() else {
                break;
            };
            let finish = first.0 + time;
            *end = (*end).max(finish);
            first.0 = finish;
        }
    }
    end
}

/// Predicts the makespan, speedup and efficiency of `times` for each worker count in `workers`.
///
/// When every time is zero the speedup is not defined and is reported as `NaN`.
#[must_use]
pub(crate) fn predict(times: &[Duration], workers: &[usize]) -> Vec<ModelPoint> {
    let total = times.iter().sum::<Duration>().as_secs_f64();
    workers
        .iter()
        .map(|&p| {
            let span = makespan(times, p);
            let speedup = if span > Duration::ZERO {
                total / span.as_secs_f64()
            } else {
                f64::NAN
            };
            ModelPoint::new(p, span, speedup)
        })
        .collect()
}

/// The worker counts to model alongside measured thread counts: [`ModelPoint::DEFAULT_WORKERS`], every
/// measured count and, when `up_to` is given, the powers of two up to it and `up_to` itself;
/// ascending, without duplicates.
pub(crate) fn workers_to_model(measured: &[usize], up_to: Option<usize>) -> Vec<usize> {
    let beyond = up_to.into_iter().flat_map(|limit| {
        std::iter::successors(Some(1usize), |&p| p.checked_mul(2))
            .take_while(move |&p| p < limit)
            .chain([limit])
    });
    let mut workers: Vec<usize> = ModelPoint::DEFAULT_WORKERS
        .iter()
        .chain(measured)
        .copied()
        .chain(beyond)
        .filter(|&p| p > 0)
        .collect();
    workers.sort_unstable();
    workers.dedup();
    workers
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secs(values: &[u64]) -> Vec<Duration> {
        values.iter().map(|&v| Duration::from_secs(v)).collect()
    }

    #[test]
    fn hand_computed_schedules() {
        // Greedy list scheduling is not optimal: [5,4,3,3,3] fits in 9 on two workers
        // (5+4 | 3+3+3), but in hand-out order it takes 10 (5+3 | 4+3+3 finishes at 4+3+3 = 10).
        let t = secs(&[5, 4, 3, 3, 3]);
        assert_eq!(makespan(&t, 2), Duration::from_secs(10));
        // Three workers: 5 | 4 | 3, then the 3 -> worker free at 3 (6), then 3 -> worker at 4 (7).
        assert_eq!(makespan(&t, 3), Duration::from_secs(7));
        // One worker per task: the largest task.
        assert_eq!(makespan(&t, 5), Duration::from_secs(5));
        assert_eq!(makespan(&t, 64), Duration::from_secs(5));
        // A large task last is the classic bad case: 1,1,1,1 then 4 on two workers.
        assert_eq!(makespan(&secs(&[1, 1, 1, 1, 4]), 2), Duration::from_secs(6));
        assert_eq!(makespan(&secs(&[4, 1, 1, 1, 1]), 2), Duration::from_secs(4));
        assert_eq!(makespan(&[], 4), Duration::ZERO);
        assert_eq!(makespan(&t, 0), makespan(&t, 1));
    }

    #[test]
    fn predictions_on_hand_computed_schedules() {
        let t = secs(&[5, 4, 3, 3, 3]);
        let points = predict(&t, &[1, 2, 3, 8]);
        let got: Vec<(usize, f64, f64)> = points
            .iter()
            .map(|p| (p.workers, p.predicted.as_secs_f64(), p.speedup))
            .collect();
        assert_eq!(
            got,
            [
                (1, 18.0, 1.0),
                (2, 10.0, 1.8),
                (3, 7.0, 18.0 / 7.0),
                (8, 5.0, 3.6)
            ]
        );
        assert_eq!(points[3].efficiency, 3.6 / 8.0);
        assert!(predict(&[Duration::ZERO], &[2])[0].speedup.is_nan());
    }

    #[test]
    fn measured_terms_come_from_the_largest_measured_count_up_to_the_workers() {
        let t = secs(&[5, 4, 3, 3, 3]);
        let mut points = predict(&t, &[1, 2, 3, 8]);
        let terms = |threads, serial_seconds, slowdown| MeasuredTerms {
            threads,
            serial_seconds,
            slowdown,
        };
        add_measured_terms(&mut points, 18.0, &[terms(1, 2.0, 1.0), terms(2, 1.0, 1.1)]);
        let got: Vec<(Option<Duration>, Option<usize>)> = points
            .iter()
            .map(|p| (p.with_losses, p.losses_from_threads))
            .collect();
        let time = |seconds: f64| Some(Duration::from_secs_f64(seconds));
        assert_eq!(
            got,
            [
                (time(20.0), Some(1)),
                (time(1.0 + 1.1 * 10.0), Some(2)),
                (time(1.0 + 1.1 * 7.0), Some(2)),
                (time(1.0 + 1.1 * 5.0), Some(2))
            ]
        );
        assert_eq!(points[0].with_losses_speedup, Some(1.0));
        assert_eq!(points[3].with_losses_speedup, Some(20.0 / 6.5));
        // Without a one-thread run there is no baseline.
        let mut points = predict(&t, &[2]);
        add_measured_terms(&mut points, 18.0, &[terms(2, 1.0, 1.1)]);
        assert_eq!(points[0].with_losses, None);
    }

    #[test]
    fn the_model_with_losses_never_beats_the_bound() {
        // A busy run's slowdown can come out below 1 (other programs' CPU time booked a little
        // above what they took) and its serial time below 0: neither is a gain on the bound.
        let t = secs(&[5, 4, 3, 3, 3]);
        let mut points = predict(&t, &[1, 2, 8]);
        let terms = |threads, serial_seconds, slowdown| MeasuredTerms {
            threads,
            serial_seconds,
            slowdown,
        };
        add_measured_terms(
            &mut points,
            18.0,
            &[terms(1, 0.0, 1.0), terms(2, -0.3, 0.9)],
        );
        for p in &points {
            let with_losses = p.with_losses.unwrap();
            assert!(with_losses >= p.predicted, "{p:?}");
            assert!(p.with_losses_speedup.unwrap() <= p.speedup, "{p:?}");
        }
    }

    #[test]
    fn many_equal_tasks_scale_perfectly_until_workers_outnumber_them() {
        let t = vec![Duration::from_millis(10); 64];
        for p in [1, 2, 4, 8, 16, 32, 64] {
            assert_eq!(predict(&t, &[p])[0].efficiency, 1.0, "p={p}");
        }
        assert_eq!(predict(&t, &[128])[0].efficiency, 0.5);
    }
}

/// The documentation's examples of crate-internal items, as tests.
#[cfg(test)]
mod examples {
    #[test]
    fn makespan_example() {
        use crate::scaling::model::makespan;
        use std::time::Duration;
        let s = Duration::from_secs;
        // 5 and 4 start at once; the 3s go to whichever worker frees up first: 4+3, 5+3, 7+3.
        assert_eq!(makespan(&[s(5), s(4), s(3), s(3), s(3)], 2), s(10));
        assert_eq!(makespan(&[s(5), s(4), s(3), s(3), s(3)], 1), s(18));
    }

    #[test]
    fn predict_example() {
        use crate::scaling::model::predict;
        use std::time::Duration;
        let s = Duration::from_secs;
        let points = predict(&[s(5), s(4), s(3), s(3), s(3)], &[2]);
        assert_eq!(points[0].predicted, s(10));
        assert_eq!(points[0].speedup, 1.8);
        assert_eq!(points[0].efficiency, 0.9);
    }

    #[test]
    fn workers_to_model_example() {
        use crate::scaling::model::workers_to_model;
        assert_eq!(workers_to_model(&[1, 2, 6], None)[..5], [1, 2, 4, 6, 8]);
        assert_eq!(workers_to_model(&[1, 2], Some(1000))[8..], [256, 512, 1000]);
    }
}
