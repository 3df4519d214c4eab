//! One strategy and kernel measured on one machine, as a comparison lines it up beside others:
//! made from a study ([`Series::of`]) or, with the `serde` feature, read back from a saved one
//! (what [`Study`] serializes to, also as saved by earlier versions) and checked
//! ([`Series::validated`]).

use crate::engine::kernel::MAX_N;
pub use crate::error::study::InvalidSeries;
use crate::known;
use crate::scaling::Machine;
use crate::scaling::check::{Holdout, leave_one_out};
use crate::scaling::info::Headline;
use crate::scaling::measured::split_other_programs;
use crate::scaling::model::ModelPoint;
use crate::scaling::stats;
use crate::scaling::study::{MeasuredPoint, Study, StudyWarning, warnings_of};

/// One strategy and kernel measured on one machine: what a comparison of studies shows of each.
///
/// The strategy and kernel are kept as their names, so that a series saved by another version
/// (one that knew other kernels, say) is compared all the same.
///
/// With the `serde` feature a series deserializes from what a [`Study`] serializes to, under
/// the same field names, and from what earlier versions saved (without the loss breakdown, the
/// CPU's name, the total or the model with losses): deserialize it, then check it with
/// [`Series::validated`], which also recomputes what the measurements determine.
///
/// ```
/// use nqueens::scaling::series::Series;
/// use nqueens::scaling::Machine;
/// let mut series = Series::new(12, "mirror", "depth-first", Machine::new(4, 2));
/// series.run.cpu = Some("Some CPU".into());
/// assert_eq!((series.machine.logical, series.machine.physical, series.repeat), (4, 2, 1));
/// assert!(series.runs.is_empty() && series.headline.is_none());
/// ```
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct Series {
    /// Where the series was read from, as its reader names it (a file, say); `None` for a series
    /// made here ([`Series::of`], [`Series::new`]) until its owner names one. Not serialized.
    #[cfg_attr(feature = "serde", serde(skip))]
    pub source: Option<String>,
    /// Board size.
    pub n: u32,
    /// The strategy's name.
    pub strategy: String,
    /// The name of the kernel that ran.
    pub kernel: String,
    /// The machine it ran on.
    pub machine: Machine,
    /// Timed runs per thread count (read as 1 where a saved study lacks it).
    #[cfg_attr(feature = "serde", serde(default = "one"))]
    pub repeat: usize,
    /// Untimed warm-up runs per thread count before the timed ones (read as 1 where a saved
    /// study lacks it: studies made before the number could be chosen had one).
    #[cfg_attr(feature = "serde", serde(default = "one"))]
    pub warmup: usize,
    /// Whether its study finished: `false` for one stopped before it did, whose runs are those
    /// that finished ([`Study::complete`]; read as `true` where a saved study lacks it).
    #[cfg_attr(feature = "serde", serde(default = "yes"))]
    pub complete: bool,
    /// The measured thread counts, ascending.
    pub runs: Vec<MeasuredPoint>,
    /// The model's predictions, ascending (empty where a saved study has none, or `null`).
    #[cfg_attr(
        feature = "serde",
        serde(default, deserialize_with = "crate::serde_util::null_as_default")
    )]
    pub model: Vec<ModelPoint>,
    /// The board's total, where it was recorded (the known table's total is checked against
    /// it, and stands in for it where it was not).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub total: Option<u128>,
    /// The best measured throughput; [`Series::validated`] recomputes it from the runs and the
    /// total.
    #[cfg_attr(feature = "serde", serde(default))]
    pub headline: Option<Headline>,
    /// Where and when it ran, as far as it was recorded.
    #[cfg_attr(feature = "serde", serde(default))]
    pub run: Recorded,
}

/// What a [`Series`] keeps of where and when its study ran ([`RunInfo`](super::RunInfo)), each
/// where it was recorded: older results have none of it.
///
/// ```
/// use nqueens::scaling::series::Recorded;
/// let recorded = Recorded::default();
/// assert_eq!((recorded.cpu, recorded.date, recorded.version), (None, None, None));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct Recorded {
    /// The CPU's model name.
    #[cfg_attr(feature = "serde", serde(default))]
    pub cpu: Option<String>,
    /// When it was measured (RFC 3339).
    #[cfg_attr(feature = "serde", serde(default))]
    pub date: Option<String>,
    /// The version of this crate that measured it.
    #[cfg_attr(feature = "serde", serde(default))]
    pub version: Option<String>,
}

/// A series' field at `field` is wrong: `problem`.
fn invalid<T>(field: impl Into<String>, problem: impl Into<String>) -> Result<T, InvalidSeries> {
    Err(InvalidSeries {
        field: field.into(),
        problem: problem.into(),
    })
}

/// A number as a message shows it: plain, or in exponent form where it is very large or small.
fn shown(x: f64) -> String {
    if x != 0.0 && !(1e-4..1e9).contains(&x.abs()) {
        format!("{x:e}")
    } else {
        format!("{x}")
    }
}

/// Checks that the whole number at `field` is in `min..=max`.
fn whole_in(field: &str, value: usize, min: usize, max: usize) -> Result<(), InvalidSeries> {
    if (min..=max).contains(&value) {
        Ok(())
    } else {
        invalid(field, format!("is {value}, outside {min} to {max}"))
    }
}

/// Checks that the time or ratio at `field` is finite, positive and in the range a series can
/// hold: a nanosecond to 31 years, a ratio as far either side of 1.
fn positive(field: &str, value: f64) -> Result<(), InvalidSeries> {
    if (1e-9..=1e9).contains(&value) {
        Ok(())
    } else {
        invalid(field, format!("is {}, outside 1e-9 to 1e9", shown(value)))
    }
}

/// Checks that the time at `field` is in the range a series can hold: a nanosecond to 31
/// years.
fn time(field: &str, value: std::time::Duration) -> Result<(), InvalidSeries> {
    if value.is_zero() {
        invalid(field, "is under a nanosecond, outside 1e-9 to 1e9")
    } else {
        positive(field, value.as_secs_f64())
    }
}

/// Checks that the share at `field` (a part of the loss breakdown) is finite; a part of the
/// breakdown can be slightly negative.
fn share(field: &str, value: f64) -> Result<(), InvalidSeries> {
    if value.is_finite() && value.abs() <= 1e9 {
        Ok(())
    } else {
        invalid(field, format!("is {}, outside -1e9 to 1e9", shown(value)))
    }
}

/// How far a saved CPU share may exceed what the machine's CPUs can give a run: the process
/// clock's 10 ms ticks, read before and after at least 0.25 s of runs, add up to 8 % to it.
const CPU_SHARE_SLACK: f64 = 0.1;

/// Checks the CPU share at `field` of a run on `threads` threads of a machine of `logical`
/// CPUs: at least 0, and at most what those CPUs can give the run, all of them busy
/// (`logical ÷ min(threads, logical)`, as [`crate::scaling::cpu::cpu_share`] divides), within
/// the clock's slack.
fn cpu_share(field: &str, value: f64, threads: usize, logical: usize) -> Result<(), InvalidSeries> {
    let most = logical as f64 / threads.min(logical).max(1) as f64;
    if value.is_nan() || value < 0.0 {
        return invalid(field, format!("is {}, below 0", shown(value)));
    }
    if value > most + CPU_SHARE_SLACK {
        let (threads, receive) = match threads {
            1 => ("1 thread".to_string(), "receives"),
            t => (format!("{t} threads"), "receive"),
        };
        return invalid(
            field,
            format!(
                "is {}, but {threads} on {logical} logical CPUs {receive} at most {} of the CPU \
                 time asked for",
                shown(value),
                shown(most)
            ),
        );
    }
    Ok(())
}

/// How far a saved loss breakdown may be off what the run's medians give: half the 0.1 point
/// (of the run's thread time) that the tables show a part to.
const LOSS_SLACK: f64 = 5e-4;

/// Checks the saved loss breakdown `loss` of run `i`, `run` (its efficiency recomputed), against
/// what its medians give, the one-thread median taking `one_seconds`: each part within what
/// [`Loss`](super::Loss)'s definition allows, and the five adding up to `1 − efficiency`, each
/// within [`LOSS_SLACK`] and a nanosecond of each median saved.
///
/// A part is a share of the run's thread time (`threads × median`): one of the run's own times
/// (at most the whole of it) less the one-thread run's (at most its whole median, which is
/// `efficiency` of the run's thread time), so from `−efficiency` to 1; the tail (imbalance) is
/// idle time of all but the last worker, from 0 to `(threads − 1) ÷ threads`; the slowdown and
/// other programs' part share the tasks' time, from `−efficiency` to 1 together. The one-thread
/// run is measured against itself: every part 0. Which part a lost share went to is only known
/// from the workers' times, which a saved study does not hold: within these bounds, the parts
/// are taken as saved.
fn loss_breakdown(
    i: usize,
    run: &MeasuredPoint,
    loss: super::Loss,
    one_seconds: f64,
) -> Result<(), InvalidSeries> {
    let efficiency = run.efficiency;
    let wall = run.median.as_secs_f64();
    let slack = LOSS_SLACK + efficiency * 1e-9 * (1.0 / one_seconds + 1.0 / wall);
    let t = run.threads as f64;
    let (low, high, tail) = match run.threads {
        1 => (0.0, 0.0, 0.0),
        _ => (-efficiency, 1.0, (t - 1.0) / t),
    };
    let bounds = [
        ("serial", loss.serial, low, high),
        ("imbalance", loss.imbalance, 0.0, tail),
        ("other_programs", loss.other_programs, low, high),
        (
            "slowdown",
            loss.slowdown,
            low - loss.other_programs,
            high - loss.other_programs,
        ),
        ("unexplained", loss.unexplained, low, high),
    ];
    let rounded = |x: f64| shown((x * 1e4).round() / 1e4 + 0.0);
    for (name, part, low, high) in bounds {
        if !(low - slack..=high + slack).contains(&part) {
            let field = format!("runs[{i}].loss.{name}");
            let part = shown(part);
            if run.threads == 1 {
                return invalid(
                    field,
                    format!("is {part}, but 1 thread loses nothing to itself: every part is 0"),
                );
            }
            return invalid(
                field,
                format!(
                    "is {part}, but this part of the loss of {} threads at efficiency {} is \
                     {} to {}",
                    run.threads,
                    rounded(efficiency),
                    rounded(low),
                    rounded(high)
                ),
            );
        }
    }
    let lost = 1.0 - efficiency;
    if (loss.total() - lost).abs() > slack {
        return invalid(
            format!("runs[{i}].loss"),
            format!(
                "has parts adding up to {}, but its medians lose {} (1 - efficiency)",
                rounded(loss.total()),
                rounded(lost)
            ),
        );
    }
    Ok(())
}

/// What a saved study or series lacking `repeat` or `warmup` had: one timed run (and one
/// warm-up) per thread count.
#[cfg(feature = "serde")]
pub(super) fn one() -> usize {
    1
}

/// Whether a saved study or series lacking `complete` finished: saved before studies could
/// stop, so it did.
#[cfg(feature = "serde")]
pub(super) fn yes() -> bool {
    true
}

impl Series {
    /// The most CPUs, threads and workers a series may name.
    ///
    /// ```
    /// assert_eq!(nqueens::scaling::series::Series::MAX_COUNT, 1 << 20);
    /// ```
    pub const MAX_COUNT: usize = 1 << 20;

    /// The most timed runs (and warm-up runs) per thread count a series may name.
    ///
    /// ```
    /// assert_eq!(nqueens::scaling::series::Series::MAX_REPEAT, 1000);
    /// ```
    pub const MAX_REPEAT: usize = 1000;

    /// A series of board `n` with the strategy and kernel of these names on `machine`: one timed
    /// run per thread count, nothing measured or modelled yet, nothing else recorded.
    ///
    /// ```
    /// use nqueens::scaling::series::Series;
    /// use nqueens::scaling::Machine;
    /// let series = Series::new(8, "symmetric", "avx2", Machine::new(2, 2));
    /// assert_eq!((series.n, series.strategy.as_str(), series.kernel.as_str()), (8, "symmetric", "avx2"));
    /// assert_eq!((series.source, series.run.cpu, series.total), (None, None, None));
    /// ```
    pub fn new(
        n: u32,
        strategy: impl Into<String>,
        kernel: impl Into<String>,
        machine: Machine,
    ) -> Series {
        Series {
            source: None,
            n,
            strategy: strategy.into(),
            kernel: kernel.into(),
            machine,
            repeat: 1,
            warmup: 1,
            complete: true,
            runs: Vec::new(),
            model: Vec::new(),
            total: None,
            headline: None,
            run: Recorded::default(),
        }
    }

    /// What the series' runs say about their own worth, as [`Study::warnings`] says of a study:
    /// a busy machine, runs too short to mean much. A saved study carries what its runs knew.
    ///
    /// ```
    /// use nqueens::scaling::series::Series;
    /// use nqueens::scaling::study::{MeasuredPoint, StudyWarning};
    /// use nqueens::scaling::Machine;
    /// use std::time::Duration;
    /// let mut series = Series::new(16, "mirror", "avx2", Machine::new(2, 2));
    /// let two = Duration::from_secs(2);
    /// let mut one = MeasuredPoint::new(1, two, two, two, 1.0);
    /// one.cpu_share = Some(0.393);
    /// series.runs.push(one);
    /// assert_eq!(series.warnings(), [StudyWarning::BusyMachine { starved: vec![(1, 0.393)] }]);
    /// ```
    #[must_use]
    pub fn warnings(&self) -> Vec<StudyWarning> {
        warnings_of(&self.runs)
    }

    /// The model checked against the runs, as [`Study::leave_one_out`] checks a study's: each
    /// measured thread count above one predicted from the smaller ones; empty where the runs
    /// carry no loss breakdown or the model no prediction with losses (results saved before they
    /// were measured).
    ///
    /// ```
    /// use nqueens::scaling::series::Series;
    /// use nqueens::scaling::study::{measure, StudyOptions};
    /// use nqueens::{RunControl, Strategy};
    /// let options = StudyOptions::new(vec![2]).with_strategy(Strategy::Mirror).with_repeat(1);
    /// let study = measure(10, &options, &RunControl::default()).unwrap();
    /// assert_eq!(Series::of(&study).leave_one_out(), study.leave_one_out());
    /// ```
    #[must_use]
    pub fn leave_one_out(&self) -> Vec<Holdout> {
        leave_one_out(&self.runs, &self.model)
    }

    /// The series of a study just measured.
    ///
    /// ```
    /// use nqueens::scaling::series::Series;
    /// use nqueens::scaling::study::{measure, StudyOptions};
    /// use nqueens::{RunControl, Strategy};
    /// let options = StudyOptions::new(vec![2]).with_strategy(Strategy::Mirror).with_repeat(1);
    /// let study = measure(8, &options, &RunControl::default()).unwrap();
    /// let series = Series::of(&study);
    /// assert_eq!((series.n, series.strategy.as_str()), (8, "mirror"));
    /// assert_eq!(series.kernel, study.kernel.to_string());
    /// assert_eq!((series.runs, series.headline), (study.runs, study.headline));
    /// assert_eq!((series.total, series.run.date), (Some(92), Some(study.run.date)));
    /// ```
    #[must_use]
    pub fn of(study: &Study) -> Series {
        Series {
            repeat: study.repeat,
            warmup: study.warmup,
            complete: study.complete,
            runs: study.runs.clone(),
            model: study.model.clone(),
            total: Some(study.total),
            headline: study.headline,
            run: Recorded {
                cpu: study.run.cpu.clone(),
                date: Some(study.run.date.clone()),
                version: Some(study.run.version.clone()),
            },
            ..Series::new(
                study.n,
                study.strategy.to_string(),
                study.kernel.to_string(),
                study.machine,
            )
        }
    }

    /// This series checked, with what its measurements determine recomputed rather than taken
    /// as read: every count from 1 to [`Series::MAX_COUNT`] (boards up to the largest the
    /// engine counts, up to [`Series::MAX_REPEAT`] timed runs), no more physical cores than
    /// logical CPUs, thread counts rising and none above what the tool runs on the machine's
    /// logical CPUs ([`Machine::max_threads`]), each run's times positive and in order
    /// (fastest ≤ median ≤ slowest); each run's speedup (over the one-thread median, or the
    /// first run's without one), efficiency, shared core and the loss breakdown's part of other
    /// programs (from its CPU share, as a study books it: results saved before it was a part of
    /// its own have it in the slowdown); each loss breakdown's parts within what its efficiency
    /// allows them (0 on one thread) and adding up to `1 − efficiency`, within rounding (the
    /// split between the parts, which only the workers' times give, is taken as saved); the
    /// model's efficiencies;
    /// the total checked against the known table (which stands in for a total not recorded) and
    /// the headline from it.
    ///
    /// # Errors
    ///
    /// [`InvalidSeries`], naming the first field found wrong.
    ///
    /// ```
    /// use nqueens::scaling::series::Series;
    /// use nqueens::scaling::study::MeasuredPoint;
    /// use nqueens::scaling::Machine;
    /// use std::time::Duration;
    /// let ms = Duration::from_millis;
    /// let mut series = Series::new(10, "mirror", "depth-first", Machine::new(2, 2));
    /// series.runs.push(MeasuredPoint::new(1, ms(500), ms(400), ms(600), 1.0));
    /// // A saved speedup that the times contradict.
    /// series.runs.push(MeasuredPoint::new(2, ms(250), ms(200), ms(300), 1.5));
    /// let series = series.validated().unwrap();
    /// assert_eq!((series.runs[1].speedup, series.runs[1].efficiency), (2.0, 1.0));
    /// assert_eq!(series.headline.unwrap().solutions, 724); // from the known table
    ///
    /// let mut wrong = series.clone();
    /// wrong.runs[0].min = ms(700);
    /// let error = wrong.validated().unwrap_err();
    /// assert_eq!(error.field, "runs[0]");
    /// assert_eq!(error.to_string(), "runs[0] has its times out of order: fastest 0.7, median 0.5, slowest 0.6");
    /// ```
    pub fn validated(mut self) -> Result<Series, InvalidSeries> {
        self.check_settings()?;
        if self.runs.is_empty() {
            return invalid("runs", "is empty: no measured runs");
        }
        for (i, run) in self.runs.iter().enumerate() {
            let before = i.checked_sub(1).map(|b| self.runs[b].threads);
            check_run(i, run, before, self.machine)?;
        }
        self.derive_speedups()?;
        // The CPU time other programs took, booked as a study books it.
        split_other_programs(&mut self.runs, self.machine.logical, |_| true);
        self.check_model()?;
        self.total = self.checked_total()?;
        self.headline = self.total.and_then(|total| {
            Headline::best(
                total,
                self.runs.iter().map(|p| (p.threads, p.median)),
                self.machine.physical,
            )
        });
        Ok(self)
    }

    /// Checks the study's settings: the board, the repeats and warm-ups, the machine.
    fn check_settings(&self) -> Result<(), InvalidSeries> {
        let n_max = MAX_N as usize;
        whole_in("n", self.n as usize, 0, n_max)?;
        whole_in("repeat", self.repeat, 1, Series::MAX_REPEAT)?;
        whole_in("warmup", self.warmup, 0, Series::MAX_REPEAT)?;
        let Machine { logical, physical } = self.machine;
        whole_in("machine.logical", logical, 1, Series::MAX_COUNT)?;
        whole_in("machine.physical", physical, 1, Series::MAX_COUNT)?;
        if physical > logical {
            return invalid(
                "machine.physical",
                format!("is {physical}, above machine.logical {logical}"),
            );
        }
        Ok(())
    }

    /// Recomputes every run's speedup, efficiency and core sharing from the medians, and checks
    /// each run's loss breakdown against them. The baseline is the one-thread median, as a
    /// study's (the first run's without one).
    fn derive_speedups(&mut self) -> Result<(), InvalidSeries> {
        let baseline = self
            .runs
            .iter()
            .find(|p| p.threads == 1)
            .unwrap_or(&self.runs[0])
            .median
            .as_secs_f64();
        let physical = self.machine.physical;
        for (i, run) in self.runs.iter_mut().enumerate() {
            run.speedup = stats::speedup(baseline, run.median.as_secs_f64());
            run.efficiency = stats::efficiency(run.speedup, run.threads);
            run.shares_core = run.threads > physical;
            positive(&format!("runs[{i}].speedup"), run.speedup)?;
        }
        for (i, run) in self.runs.iter().enumerate() {
            if let Some(loss) = run.loss {
                loss_breakdown(i, run, loss, baseline)?;
            }
        }
        Ok(())
    }

    /// Checks the model's predictions and recomputes their efficiencies.
    fn check_model(&mut self) -> Result<(), InvalidSeries> {
        for (i, point) in self.model.iter_mut().enumerate() {
            let at = |key: &str| format!("model[{i}].{key}");
            whole_in(&at("threads"), point.workers, 1, Series::MAX_COUNT)?;
            time(&at("predicted_seconds"), point.predicted)?;
            positive(&at("speedup"), point.speedup)?;
            if let Some(with_losses) = point.with_losses {
                time(&at("with_losses_seconds"), with_losses)?;
            }
            if let Some(speedup) = point.with_losses_speedup {
                positive(&at("with_losses_speedup"), speedup)?;
            }
            if let Some(threads) = point.losses_from_threads {
                whole_in(&at("losses_from_threads"), threads, 1, Series::MAX_COUNT)?;
            }
            point.efficiency = stats::efficiency(point.speedup, point.workers);
        }
        Ok(())
    }

    /// The board's total: the saved one, checked against the known table, else the table's.
    fn checked_total(&self) -> Result<Option<u128>, InvalidSeries> {
        match (self.total, known::Known::of(self.n).map(|k| k.total)) {
            (Some(saved), Some(known)) if saved != known => invalid(
                "total",
                format!("is {saved}, but n = {} has {known} solutions", self.n),
            ),
            (saved, known) => Ok(saved.or(known)),
        }
    }
}

/// Checks run `i` of a series on `machine` (`before`: the threads of the run before it): its
/// thread count (ascending, within what the machine runs), its times (positive and in order),
/// its CPU share and its losses' shares.
fn check_run(
    i: usize,
    run: &MeasuredPoint,
    before: Option<usize>,
    machine: Machine,
) -> Result<(), InvalidSeries> {
    let logical = machine.logical;
    let most_threads = machine.max_threads();
    let at = |key: &str| format!("runs[{i}].{key}");
    whole_in(&at("threads"), run.threads, 1, Series::MAX_COUNT)?;
    if run.threads > most_threads {
        return invalid(
            at("threads"),
            format!(
                "is {}, but a study on {logical} logical CPUs runs at most {most_threads} \
                 threads",
                run.threads
            ),
        );
    }
    if let Some(before) = before
        && run.threads <= before
    {
        return invalid(
            at("threads"),
            format!("is {}, not above {before} before it", run.threads),
        );
    }
    time(&at("median_seconds"), run.median)?;
    time(&at("min_seconds"), run.min)?;
    time(&at("max_seconds"), run.max)?;
    if !(run.min <= run.median && run.median <= run.max) {
        return invalid(
            format!("runs[{i}]"),
            format!(
                "has its times out of order: fastest {}, median {}, slowest {}",
                shown(run.min.as_secs_f64()),
                shown(run.median.as_secs_f64()),
                shown(run.max.as_secs_f64())
            ),
        );
    }
    if let Some(share) = run.cpu_share {
        cpu_share(&at("cpu_share"), share, run.threads, logical)?;
    }
    if let Some(loss) = run.loss {
        for (name, part) in loss.parts() {
            share(&format!("runs[{i}].loss.{name}"), part)?;
        }
    }
    Ok(())
}

#[cfg(all(test, feature = "serde"))]
mod tests {
    use super::*;

    /// The series of `value`, checked, or the message of what is wrong with it.
    fn read(value: serde_json::Value) -> Result<Series, String> {
        let series: Series = serde_json::from_value(value).map_err(|e| e.to_string())?;
        series.validated().map_err(|e| e.to_string())
    }

    /// A small valid saved study: n = 12, measured on 1 and 2 threads.
    fn crafted() -> serde_json::Value {
        serde_json::json!({
            "n": 12, "strategy": "symmetric", "kernel": "avx512", "repeat": 3,
            "machine": {"logical": 2, "physical": 2},
            "runs": [
                {"threads": 1, "median_seconds": 1.0, "min_seconds": 0.9, "max_seconds": 1.1,
                 "speedup": 1.0, "efficiency": 1.0, "cpu_share": 0.99},
                {"threads": 2, "median_seconds": 0.55, "min_seconds": 0.5, "max_seconds": 0.6,
                 "speedup": 1.82, "efficiency": 0.91, "cpu_share": 0.98}
            ],
            "model": [
                {"workers": 1, "predicted_seconds": 1.0, "speedup": 1.0, "efficiency": 1.0},
                {"workers": 2, "predicted_seconds": 0.5, "speedup": 2.0, "efficiency": 1.0}
            ]
        })
    }

    /// What is wrong with [`crafted`] once `pointer` holds `value`.
    fn refused(pointer: &str, value: serde_json::Value) -> String {
        let mut v = crafted();
        *v.pointer_mut(pointer).unwrap() = value;
        read(v).unwrap_err()
    }

    #[test]
    fn a_saved_study_is_read_back_with_its_derived_values_recomputed() {
        let s = read(crafted()).unwrap();
        assert_eq!(
            (s.n, s.strategy.as_str(), s.kernel.as_str()),
            (12, "symmetric", "avx512")
        );
        assert_eq!((s.machine, s.repeat), (Machine::new(2, 2), 3));
        // Saved before the warm-ups could be chosen: one.
        assert_eq!(s.warmup, 1);
        assert_eq!((s.source, s.run.clone()), (None, Recorded::default()));
        assert_eq!(s.runs[1].cpu_share, Some(0.98));
        // The saved speedup 1.82 is rounded: the times give 1 / 0.55.
        assert_eq!(s.runs[1].speedup, 1.0 / 0.55);
        assert_eq!(s.runs[1].efficiency, 1.0 / 0.55 / 2.0);
        assert!(s.runs.iter().all(|p| !p.shares_core && p.loss.is_none()));
        assert_eq!(s.model[1].with_losses, None);
        // The total of the known table, at the fastest median.
        let headline = s.headline.unwrap();
        assert_eq!((headline.solutions, headline.threads), (14_200, 2));
        assert_eq!(s.total, Some(14_200));
    }

    #[test]
    fn runs_that_cannot_be_of_one_study_are_refused() {
        assert_eq!(
            refused("/runs/1/threads", serde_json::json!(1)),
            "runs[1].threads is 1, not above 1 before it"
        );
        assert_eq!(
            refused("/runs/0/threads", serde_json::json!(4)),
            "runs[1].threads is 2, not above 4 before it"
        );
        assert_eq!(
            refused("/runs/0/min_seconds", serde_json::json!(1.05)),
            "runs[0] has its times out of order: fastest 1.05, median 1, slowest 1.1"
        );
    }

    #[test]
    fn an_older_busy_result_has_the_cpu_time_of_other_programs_split_off_its_slowdown() {
        let point = |threads, cpu_share, slowdown| {
            serde_json::json!({
                "threads": threads, "median_seconds": 1.0, "min_seconds": 1.0,
                "max_seconds": 1.0, "speedup": 1.0, "efficiency": 1.0 / threads as f64,
                "cpu_share": cpu_share,
                "loss": {"serial": 0.0, "imbalance": 0.0, "slowdown": slowdown, "unexplained": 0.0}
            })
        };
        let value = serde_json::json!({
            "n": 17, "strategy": "symmetric", "kernel": "avx2",
            "machine": {"logical": 2, "physical": 2},
            "runs": [point(1, 1.0, 0.0), point(2, 0.505, 0.5)]
        });
        let loss = read(value.clone()).unwrap().runs[1].loss.unwrap();
        assert!((loss.other_programs - 0.495).abs() < 1e-12, "{loss:?}");
        assert!((loss.slowdown - 0.005).abs() < 1e-12, "{loss:?}");
        assert!((loss.total() - 0.5).abs() < 1e-12, "{loss:?}");
        // A saved part is what the CPU share gives: a part that contradicts it is recomputed,
        // the total kept.
        let mut newer = value;
        newer["runs"][1]["loss"]["other_programs"] = serde_json::json!(0.1);
        newer["runs"][1]["loss"]["slowdown"] = serde_json::json!(0.4);
        let again = read(newer).unwrap().runs[1].loss.unwrap();
        assert!((again.other_programs - 0.495).abs() < 1e-12, "{again:?}");
        assert!((again.slowdown - 0.005).abs() < 1e-12, "{again:?}");
    }

    /// The loss of [`crafted`]'s two threads (1 s and 0.55 s: efficiency 1 / 1.1) split into
    /// serial 0.02, imbalance 0.03, slowdown 0.04 and what remains unexplained.
    fn with_loss(v: &mut serde_json::Value) -> f64 {
        let unexplained = 1.0 - 1.0 / 1.1 - 0.09;
        v["runs"][1]["loss"] = serde_json::json!(
            {"serial": 0.02, "imbalance": 0.03, "other_programs": 0.0, "slowdown": 0.04,
             "unexplained": unexplained}
        );
        unexplained
    }

    #[test]
    fn a_saved_loss_breakdown_is_read_back() {
        let mut v = crafted();
        let unexplained = with_loss(&mut v);
        v["runs"][0]["cpu_share"] = serde_json::Value::Null;
        v["runs"][1]["cpu_share"] = serde_json::Value::Null;
        let loss = read(v).unwrap().runs[1].loss.unwrap();
        assert_eq!((loss.serial, loss.imbalance), (0.02, 0.03));
        assert_eq!((loss.slowdown, loss.unexplained), (0.04, unexplained));
        assert_eq!(loss.other_programs, 0.0);
        let mut v = crafted();
        v["runs"][0]["loss"] = serde_json::json!({"serial": 0.0});
        assert!(
            read(v).unwrap_err().contains("missing field `imbalance`"),
            "a part missing"
        );
    }

    #[test]
    fn the_warm_ups_are_read_back_and_checked() {
        let with = |warmup: serde_json::Value| {
            let mut v = crafted();
            v["warmup"] = warmup;
            read(v)
        };
        assert_eq!(with(serde_json::json!(0)).unwrap().warmup, 0);
        assert_eq!(with(serde_json::json!(2)).unwrap().warmup, 2);
        assert_eq!(
            with(serde_json::json!(1001)).unwrap_err(),
            "warmup is 1001, outside 0 to 1000"
        );
    }

    #[test]
    fn wrong_counts_and_ranges_name_the_field() {
        for (pointer, value, wanted) in [
            ("/n", serde_json::json!(65), "n is 65, outside 0 to 64"),
            (
                "/repeat",
                serde_json::json!(0),
                "repeat is 0, outside 1 to 1000",
            ),
            (
                "/machine/logical",
                serde_json::json!(0),
                "machine.logical is 0, outside 1 to 1048576",
            ),
            (
                "/runs/1/threads",
                serde_json::json!(0),
                "runs[1].threads is 0, outside 1 to 1048576",
            ),
            (
                "/runs/1/median_seconds",
                serde_json::json!(1e-310),
                "runs[1].median_seconds is under a nanosecond, outside 1e-9 to 1e9",
            ),
            (
                "/runs/0/min_seconds",
                serde_json::json!(-0.4),
                "-0.4 is not a number of seconds",
            ),
            (
                "/runs/0/cpu_share",
                serde_json::json!(-2e9),
                "runs[0].cpu_share is -2e9, below 0",
            ),
            (
                "/model/1/speedup",
                serde_json::json!(1.7e308),
                "model[1].speedup is 1.7e308, outside 1e-9 to 1e9",
            ),
            (
                "/runs",
                serde_json::json!([]),
                "runs is empty: no measured runs",
            ),
            (
                "/total",
                serde_json::json!(14_201),
                "total is 14201, but n = 12 has 14200 solutions",
            ),
        ] {
            let mut v = crafted();
            if v.pointer(pointer).is_none() {
                v[pointer.trim_start_matches('/')] = serde_json::Value::Null;
            }
            *v.pointer_mut(pointer).unwrap() = value;
            assert_eq!(read(v).unwrap_err(), wanted, "{pointer}");
        }
        // A model of null, like an absent one, is no model.
        let mut v = crafted();
        v["model"] = serde_json::json!(null);
        assert!(read(v).unwrap().model.is_empty());
        // A total the table does not know is taken as saved.
        let mut v = crafted();
        v["n"] = serde_json::json!(40);
        v["total"] = serde_json::json!(5);
        assert_eq!(read(v).unwrap().headline.unwrap().solutions, 5);
    }

    #[test]
    fn what_a_study_serializes_to_is_read_back() {
        use crate::scaling::study::{StudyOptions, measure};
        let options = StudyOptions::new(vec![2])
            .with_strategy(crate::engine::plan::Strategy::Mirror)
            .with_repeat(1);
        let study = measure(9, &options, &crate::count::RunControl::default()).unwrap();
        let text = serde_json::to_string(&study).unwrap();
        let series: Series = serde_json::from_str(&text).unwrap();
        let series = series.validated().unwrap();
        let made = Series::of(&study);
        // serde_json reads some floats back a unit in the last place off.
        let close = |a: f64, b: f64| a == b || (a - b).abs() <= 1e-12 * a.abs().max(b.abs());
        for (read, made) in series.runs.iter().zip(&made.runs) {
            assert_eq!((read.threads, read.speedup), (made.threads, made.speedup));
            let (read, made) = (read.loss.unwrap().parts(), made.loss.unwrap().parts());
            assert!(
                read.iter().zip(made).all(|(a, b)| close(a.1, b.1)),
                "{read:?} {made:?}"
            );
        }
        assert_eq!(series.model.len(), made.model.len());
        let without = |s: Series| Series {
            model: Vec::new(),
            runs: Vec::new(),
            ..s
        };
        assert_eq!(without(series), without(made));
    }

    #[test]
    fn older_saved_results_are_read() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/measurements");
        let mut read_any = false;
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_none_or(|e| e != "json") {
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            let series: Series =
                serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path:?}: {e}"));
            let s = series
                .validated()
                .unwrap_or_else(|e| panic!("{path:?}: {e}"));
            assert!(!s.runs.is_empty() && s.headline.is_some(), "{path:?}");
            assert!(s.complete, "{path:?}");
            assert_eq!(s.runs[0].threads, 1, "{path:?}");
            read_any = true;
        }
        assert!(read_any);
    }

    /// A saved run edited to claim speedup 50, efficiency 25 (2 500 %), CPU share 5 (500 %)
    /// and a total of 99 999 for n = 12: the total is refused against the known table, the
    /// speedup and efficiency are recomputed from the medians, and a CPU share beyond what the
    /// machine's CPUs can give is refused.
    #[test]
    fn a_saved_run_cannot_claim_what_its_measurements_contradict() {
        let lie = |v: &mut serde_json::Value| {
            for run in v["runs"].as_array_mut().unwrap() {
                run["speedup"] = serde_json::json!(50.0);
                run["efficiency"] = serde_json::json!(25.0);
                run["cpu_share"] = serde_json::json!(5.0);
            }
            v["total"] = serde_json::json!(99_999);
        };
        let mut v = crafted();
        lie(&mut v);
        assert_eq!(
            read(v.clone()).unwrap_err(),
            "runs[0].cpu_share is 5, but 1 thread on 2 logical CPUs receives at most 2 of the \
             CPU time asked for"
        );
        v["runs"][0]["cpu_share"] = serde_json::json!(0.99);
        assert_eq!(
            read(v.clone()).unwrap_err(),
            "runs[1].cpu_share is 5, but 2 threads on 2 logical CPUs receive at most 1 of the \
             CPU time asked for"
        );
        v["runs"][1]["cpu_share"] = serde_json::json!(1.05);
        assert_eq!(
            read(v.clone()).unwrap_err(),
            "total is 99999, but n = 12 has 14200 solutions"
        );
        v["total"] = serde_json::json!(14_200);
        let series = read(v).unwrap();
        // 1 s and 0.55 s: 1.82x, 90.9 %.
        let run = &series.runs[1];
        assert!((run.speedup - 1.0 / 0.55).abs() < 1e-12, "{}", run.speedup);
        assert!(
            (run.efficiency - 0.5 / 0.55).abs() < 1e-12,
            "{}",
            run.efficiency
        );
        assert_eq!(
            (series.runs[0].speedup, series.runs[0].efficiency),
            (1.0, 1.0)
        );
        // A share within the clock's slack of the most is a measurement, taken as saved.
        assert_eq!(run.cpu_share, Some(1.05));
    }

    /// A saved part of the loss breakdown is checked against the run's medians: 50 (5 000
    /// points of its thread time) at two threads, a sum other than `1 − efficiency`, a part on
    /// one thread, which loses nothing to itself.
    #[test]
    fn a_saved_loss_breakdown_cannot_claim_what_its_medians_contradict() {
        let tampered = |pointer: &str, value: f64| {
            let mut v = crafted();
            with_loss(&mut v);
            v["runs"][0]["loss"] = serde_json::json!(
                {"serial": 0.0, "imbalance": 0.0, "slowdown": 0.0, "unexplained": 0.0}
            );
            *v.pointer_mut(pointer).unwrap() = serde_json::json!(value);
            read(v)
        };
        assert!(tampered("/runs/1/loss/serial", 0.02).is_ok());
        assert_eq!(
            tampered("/runs/1/loss/serial", 50.0).unwrap_err(),
            "runs[1].loss.serial is 50, but this part of the loss of 2 threads at efficiency \
             0.9091 is -0.9091 to 1"
        );
        assert_eq!(
            tampered("/runs/1/loss/imbalance", 0.6).unwrap_err(),
            "runs[1].loss.imbalance is 0.6, but this part of the loss of 2 threads at \
             efficiency 0.9091 is 0 to 0.5"
        );
        assert_eq!(
            tampered("/runs/1/loss/other_programs", -1.0).unwrap_err(),
            "runs[1].loss.other_programs is -1, but this part of the loss of 2 threads at \
             efficiency 0.9091 is -0.9091 to 1"
        );
        // Within the bounds, but the parts no longer add up to what the medians lose.
        assert_eq!(
            tampered("/runs/1/loss/slowdown", 0.5).unwrap_err(),
            "runs[1].loss has parts adding up to 0.5509, but its medians lose 0.0909 \
             (1 - efficiency)"
        );
        // Off by more than the tables' rounding.
        assert!(tampered("/runs/1/loss/slowdown", 0.0403).is_ok());
        assert!(tampered("/runs/1/loss/slowdown", 0.0406).is_err());
        assert_eq!(
            tampered("/runs/0/loss/serial", 0.3).unwrap_err(),
            "runs[0].loss.serial is 0.3, but 1 thread loses nothing to itself: every part is 0"
        );
    }

    /// A thread count the tool never runs on the machine the study names is refused: above
    /// [`Machine::max_threads`] of its logical CPUs (64 on 2, 128 on 16, 4096 on any number),
    /// whatever this machine allows.
    #[test]
    fn thread_counts_beyond_what_the_machine_runs_are_refused() {
        let with = |logical: usize, threads: usize| {
            let mut v = crafted();
            v["machine"] = serde_json::json!({"logical": logical, "physical": 1});
            v["runs"][1]["threads"] = serde_json::json!(threads);
            v["runs"][1]["cpu_share"] = serde_json::Value::Null;
            read(v)
        };
        assert!(with(2, 64).is_ok());
        assert_eq!(
            with(2, 65).unwrap_err(),
            "runs[1].threads is 65, but a study on 2 logical CPUs runs at most 64 threads"
        );
        assert!(with(16, 128).is_ok());
        assert_eq!(
            with(16, 129).unwrap_err(),
            "runs[1].threads is 129, but a study on 16 logical CPUs runs at most 128 threads"
        );
        assert!(with(1 << 20, 4096).is_ok());
        assert_eq!(
            with(1 << 20, 4097).unwrap_err(),
            "runs[1].threads is 4097, but a study on 1048576 logical CPUs runs at most 4096 \
             threads"
        );
        let mut v = crafted();
        v["machine"]["physical"] = serde_json::json!(4);
        assert_eq!(
            read(v).unwrap_err(),
            "machine.physical is 4, above machine.logical 2"
        );
    }

    #[test]
    fn numbers_in_messages_are_short() {
        assert_eq!(shown(0.0), "0");
        assert_eq!(shown(0.25), "0.25");
        assert_eq!(shown(-3.0), "-3");
        assert_eq!(shown(1e9), "1e9");
        assert_eq!(shown(4e-311), "4e-311");
    }
}
