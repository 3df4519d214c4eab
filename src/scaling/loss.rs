//! Where the lost efficiency of a thread count goes: the loss breakdown.
//!
//! The definitions are in [`Loss`]'s documentation.

use crate::engine::run::RunReport;

/// The lost efficiency of one thread count, split into where it went; each part is a share of
/// the run's worker-seconds (`threads × median wall time`), and the five add up to
/// `1 − efficiency`. A part can be slightly negative, where the run did better than the
/// one-thread run in it (noise, or a task faster on a warmer cache).
///
/// A run of `T` workers lasting `W_T` seconds (wall clock, from the start of the run to its end)
/// has `T·W_T` worker-seconds. Each worker `w` starts its first task at `f_w` and ends its last at
/// `l_w` (offsets from the run's start), searched for `b_w` seconds in all, and `L = max l_w` is
/// when the last task of the run ends. A worker that searched nothing is taken to start and end at
/// the earliest first start of the others. Every worker-second is in one of four parts:
///
/// - *outside* the tasks: `Σ f_w + T·(W_T − L)`, before a worker's first task (starting the run,
///   waking the pool) and after the last task of the run (collecting the results);
/// - *tail*: `Σ (L − l_w)`, workers idle while another still counts;
/// - *between* tasks: `Σ (l_w − f_w − b_w)`, taking the next task and reporting the last;
/// - *busy*: `Σ b_w`, the tasks' own times.
///
/// With the one-thread run's `W_1` (whose tail is zero), the efficiency is
/// `E = W_1 ÷ (T·W_T)` and the lost worker-seconds `T·W_T − W_1` split exactly into
/// `(outside_T − outside_1) + tail_T + (between_T − between_1) + (busy_T − busy_1)`. Divided by
/// `T·W_T`, these are the shares of a `Loss`: *serial*, *imbalance*, *unexplained* and
/// *slowdown*, which add up to `1 − E`. Each thread count's parts are those of its median run
/// (the mean of the two middle runs for an even number), the run whose wall time the speedup
/// uses, so the sum holds for the reported efficiency; `unexplained` is computed as what remains
/// of `1 − E`, which is the time between tasks beyond the one-thread run's, plus rounding.
///
/// A worker that other programs keep off its CPU takes longer over its tasks, so on a busy
/// machine the busy part grows with CPU time the run never received. That time is its own part,
/// *other programs*, taken out of *slowdown*: a run whose CPU share (CPU time received ÷ asked
/// for) is `s` lost `1 − s` of its worker-seconds to other programs, less the tail, where idle
/// workers ask for no CPU (`imbalance × min(T, logical CPUs) ÷ T`), and never below zero; the
/// part is that share beyond the one-thread run's (its own lost share × `E`, in the units of the
/// `T`-thread run). Without a measured CPU share it is zero, and slowdown keeps it.
///
/// ```
/// use nqueens::scaling::study::{measure, StudyOptions};
/// use nqueens::Strategy;
/// let options = StudyOptions::new(vec![2]).with_strategy(Strategy::Mirror).with_repeat(1);
/// let study = measure(9, &options, &nqueens::RunControl::default()).unwrap();
/// for point in &study.runs {
///     let loss = point.loss.unwrap();
///     assert!((loss.total() - (1.0 - point.efficiency)).abs() < 1e-9);
/// }
/// assert_eq!(study.runs[0].loss.unwrap().total(), 0.0); // one thread loses nothing to itself
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct Loss {
    /// Worker-time outside the tasks (before each worker's first task, after the run's last)
    /// beyond the one-thread run's: starting and ending the run, waking the pool.
    pub serial: f64,
    /// Worker-time idle at the tail while other workers still count.
    pub imbalance: f64,
    /// Worker-time other programs took: the CPU time the workers asked for and did not
    /// receive, beyond the one-thread run's (zero where the CPU share was not measured, and in
    /// results saved before it was a part of its own, where the reader splits it off
    /// `slowdown`).
    #[cfg_attr(feature = "serde", serde(default))]
    pub other_programs: f64,
    /// The tasks' summed time beyond the one-thread run's, less what other programs took: each
    /// busy worker slower than one alone (clock, SMT, shared caches and memory).
    pub slowdown: f64,
    /// What remains of `1 − efficiency`: the time between a worker's tasks (taking and
    /// reporting them) beyond the one-thread run's, and rounding.
    pub unexplained: f64,
}

impl Loss {
    /// The sum of the five parts: `1 − efficiency`.
    ///
    /// ```
    /// let loss = nqueens::scaling::Loss::default();
    /// assert_eq!(loss.total(), 0.0);
    /// ```
    #[must_use]
    pub fn total(&self) -> f64 {
        self.serial + self.imbalance + self.other_programs + self.slowdown + self.unexplained
    }

    /// The names of the five parts, in order: the fields' names, in Rust and in serialized
    /// output alike.
    ///
    /// ```
    /// use nqueens::scaling::Loss;
    /// assert_eq!(Loss::NAMES, ["serial", "imbalance", "other_programs", "slowdown", "unexplained"]);
    /// ```
    pub const NAMES: [&'static str; 5] = [
        "serial",
        "imbalance",
        "other_programs",
        "slowdown",
        "unexplained",
    ];

    /// The five parts by name ([`Loss::NAMES`]), in order.
    ///
    /// ```
    /// use nqueens::scaling::Loss;
    /// let mut loss = Loss::default();
    /// loss.slowdown = 0.25;
    /// let parts = loss.parts();
    /// assert_eq!(parts[3], ("slowdown", 0.25));
    /// assert_eq!(parts.iter().map(|&(_, part)| part).sum::<f64>(), loss.total());
    /// ```
    #[must_use]
    pub fn parts(&self) -> [(&'static str, f64); 5] {
        let values = [
            self.serial,
            self.imbalance,
            self.other_programs,
            self.slowdown,
            self.unexplained,
        ];
        let mut parts = [("", 0.0); 5];
        for ((part, name), value) in parts.iter_mut().zip(Loss::NAMES).zip(values) {
            *part = (name, value);
        }
        parts
    }

    /// This breakdown with `other_programs` split off the slowdown: `taken` is the share of this
    /// run's worker-time that other programs took ([`taken_by_others`]), `taken_at_one` the
    /// one-thread run's share of its own, and `efficiency` this run's (`W₁ ÷ (T·W_T)`, which
    /// turns the one-thread share into this run's units). The total is unchanged.
    pub(crate) fn with_other_programs(
        self,
        taken: f64,
        taken_at_one: f64,
        efficiency: f64,
    ) -> Loss {
        let other_programs = taken - taken_at_one * efficiency;
        if !other_programs.is_finite() {
            return self;
        }
        Loss {
            other_programs,
            slowdown: self.slowdown + self.other_programs - other_programs,
            ..self
        }
    }
}

/// The share of a run's worker-time that other programs took: `1 − cpu_share`, less the tail
/// (`imbalance`), where idle workers ask for no CPU, scaled by the CPUs that `threads` workers
/// can keep busy on `logical` logical CPUs; never below zero, and zero without a CPU share.
pub(crate) fn taken_by_others(
    cpu_share: Option<f64>,
    imbalance: f64,
    threads: usize,
    logical: usize,
) -> f64 {
    let Some(share) = cpu_share.filter(|s| s.is_finite()) else {
        return 0.0;
    };
    let threads = threads.max(1);
    let busy_cpus = threads.min(logical.max(1)) as f64 / threads as f64;
    let imbalance = if imbalance.is_finite() {
        imbalance
    } else {
        0.0
    };
    (1.0 - share - imbalance * busy_cpus).max(0.0)
}

/// One run's worker-seconds in the four parts of the module's definition.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct WorkerTime {
    /// The run's wall time `W`, seconds.
    pub wall: f64,
    /// Outside the tasks: `Σ f_w + T·(W − L)`.
    pub outside: f64,
    /// Idle at the tail: `Σ (L − l_w)`.
    pub tail: f64,
    /// Between tasks: `Σ (l_w − f_w − b_w)`.
    pub between: f64,
    /// Searching: `Σ b_w`.
    pub busy: f64,
}

impl WorkerTime {
    /// The parts of `report`'s run.
    pub fn of(report: &RunReport) -> WorkerTime {
        let secs = |d: std::time::Duration| d.as_secs_f64();
        let wall = secs(report.elapsed);
        let workers = &report.workers;
        let searched = || workers.iter().filter(|w| w.tasks > 0);
        let Some(earliest) = searched().map(|w| secs(w.first_start)).reduce(f64::min) else {
            // Nothing was searched: the whole run is outside the tasks.
            return WorkerTime {
                wall,
                outside: workers.len() as f64 * wall,
                ..WorkerTime::default()
            };
        };
        let last = searched()
            .map(|w| secs(w.last_end))
            .fold(earliest, f64::max);
        let mut time = WorkerTime {
            wall,
            outside: workers.len() as f64 * (wall - last),
            ..WorkerTime::default()
        };
        for w in workers {
            let (first, end, busy) = if w.tasks > 0 {
                (secs(w.first_start), secs(w.last_end), secs(w.busy))
            } else {
                (earliest, earliest, 0.0)
            };
            time.outside += first;
            time.tail += last - end;
            time.between += end - first - busy;
            time.busy += busy;
        }
        time
    }

    /// The median run of `runs` by wall time; the mean of the two middle runs for an even
    /// number (as the median wall time is); `None` for no runs.
    pub fn median(runs: &[WorkerTime]) -> Option<WorkerTime> {
        let mut sorted = runs.to_vec();
        sorted.sort_by(|a, b| a.wall.total_cmp(&b.wall));
        let len = sorted.len();
        match len {
            0 => None,
            _ if len % 2 == 1 => Some(sorted[len / 2]),
            _ => {
                let (a, b) = (sorted[len / 2 - 1], sorted[len / 2]);
                let mean = |x: f64, y: f64| (x + y) / 2.0;
                Some(WorkerTime {
                    wall: mean(a.wall, b.wall),
                    outside: mean(a.outside, b.outside),
                    tail: mean(a.tail, b.tail),
                    between: mean(a.between, b.between),
                    busy: mean(a.busy, b.busy),
                })
            }
        }
    }

    /// The loss of this median run of `threads` workers against `one`, the one-thread median
    /// run; `None` when a wall time is not positive.
    pub fn loss(&self, threads: usize, one: &WorkerTime) -> Option<Loss> {
        let worker_seconds = threads as f64 * self.wall;
        if !(worker_seconds > 0.0 && one.wall > 0.0) {
            return None;
        }
        let lost = 1.0 - one.wall / worker_seconds;
        let serial = (self.outside - one.outside) / worker_seconds;
        let imbalance = self.tail / worker_seconds;
        let slowdown = (self.busy - one.busy) / worker_seconds;
        Some(Loss {
            serial,
            imbalance,
            other_programs: 0.0,
            slowdown,
            unexplained: lost - serial - imbalance - slowdown,
        })
    }

    /// The tasks' summed time less `taken`, the share of this run's worker-time (`threads`
    /// workers) that other programs took: the busy time the workers had the CPU for; the whole
    /// busy time where that would leave none.
    pub fn busy_on_cpu(&self, threads: usize, taken: f64) -> f64 {
        let own = self.busy - taken * threads as f64 * self.wall;
        if own > 0.0 { own } else { self.busy }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::kernel::Kernel;
    use crate::engine::run::WorkerSpan;
    use std::time::Duration;

    fn span(tasks: usize, first: u64, last: u64, busy: u64) -> WorkerSpan {
        let ms = Duration::from_millis;
        WorkerSpan {
            tasks,
            first_start: ms(first),
            last_end: ms(last),
            busy: ms(busy),
        }
    }

    fn report(wall: u64, workers: Vec<WorkerSpan>) -> RunReport {
        RunReport {
            total: 0,
            tally: Default::default(),
            outcomes: Vec::new(),
            complete: true,
            kernel: Kernel::DepthFirst,
            elapsed: Duration::from_millis(wall),
            threads: workers.len(),
            workers,
            #[cfg(feature = "gpu")]
            gpu: None,
        }
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-12
    }

    #[test]
    fn hand_computed_parts_add_up_to_the_worker_seconds() {
        // Worker 0 searches from 1 ms to 9 ms (7 ms busy, 1 ms between tasks); worker 1 from
        // 2 ms to 6 ms (4 ms busy); the run ends at 10 ms.
        let two = WorkerTime::of(&report(10, vec![span(3, 1, 9, 7), span(2, 2, 6, 4)]));
        let ms = 1e-3;
        assert!(close(two.outside, (1.0 + 2.0 + 2.0 * 1.0) * ms), "{two:?}");
        assert!(close(two.tail, 3.0 * ms), "{two:?}");
        assert!(close(two.between, 1.0 * ms), "{two:?}");
        assert!(close(two.busy, 11.0 * ms), "{two:?}");
        assert!(close(
            two.outside + two.tail + two.between + two.busy,
            2.0 * two.wall
        ));
        // The one-thread run: 1 ms before, 10 ms busy, 1 ms after.
        let one = WorkerTime::of(&report(12, vec![span(5, 1, 11, 10)]));
        let loss = two.loss(2, &one).unwrap();
        let worker_seconds = 0.020;
        assert!(close(loss.serial, (5.0 - 2.0) * ms / worker_seconds));
        assert!(close(loss.imbalance, 3.0 * ms / worker_seconds));
        assert!(close(loss.slowdown, 1.0 * ms / worker_seconds));
        assert!(close(loss.unexplained, 1.0 * ms / worker_seconds));
        assert!(close(loss.total(), 1.0 - 0.012 / worker_seconds));
    }

    #[test]
    fn cpu_time_other_programs_took_is_its_own_part_not_slowdown() {
        // Two threads at 1.00x on a busy machine: half the worker-time lost, all of it in the
        // tasks' time, with a CPU share of 50.5 % (the one-thread run had the CPU to itself).
        let raw = Loss {
            serial: 0.001,
            imbalance: 0.002,
            slowdown: 0.497,
            ..Loss::default()
        };
        let taken = taken_by_others(Some(0.505), raw.imbalance, 2, 2);
        assert!(close(taken, 0.495 - 0.002), "{taken}");
        let loss = raw.with_other_programs(taken, taken_by_others(Some(1.0), 0.0, 1, 2), 0.5);
        assert!(close(loss.other_programs, 0.493), "{loss:?}");
        assert!(close(loss.slowdown, 0.004), "{loss:?}");
        assert!(close(loss.total(), raw.total()));
        // A starved one-thread run inflates the baseline: its share is charged in T's units.
        let loss = raw.with_other_programs(0.3, taken_by_others(Some(0.6), 0.0, 1, 2), 0.8);
        assert!(close(loss.other_programs, 0.3 - 0.4 * 0.8), "{loss:?}");
        // Idle workers at the tail ask for no CPU: a quiet machine's imbalance is not others'.
        assert_eq!(taken_by_others(Some(0.9), 0.1, 4, 8), 0.0);
        // Past the logical CPUs, only those CPUs were asked for.
        assert!(close(taken_by_others(Some(0.8), 0.1, 8, 4), 0.2 - 0.05));
        assert_eq!(taken_by_others(None, 0.0, 2, 2), 0.0);
        assert_eq!(taken_by_others(Some(f64::NAN), 0.0, 2, 2), 0.0);
    }

    #[test]
    fn the_busy_time_on_the_cpu_leaves_out_what_others_took() {
        let run = WorkerTime {
            wall: 2.0,
            busy: 3.8,
            ..WorkerTime::default()
        };
        assert!(close(run.busy_on_cpu(2, 0.45), 3.8 - 0.45 * 4.0));
        assert_eq!(run.busy_on_cpu(2, 1.0), 3.8);
    }

    #[test]
    fn an_idle_worker_waits_at_the_tail_and_an_empty_run_is_all_outside() {
        let time = WorkerTime::of(&report(10, vec![span(4, 1, 8, 7), span(0, 0, 0, 0)]));
        assert!(
            close(time.outside, (1.0 + 1.0 + 2.0 * 2.0) * 1e-3),
            "{time:?}"
        );
        assert!(close(time.tail, 7.0 * 1e-3), "{time:?}");
        let empty = WorkerTime::of(&report(10, vec![span(0, 0, 0, 0); 3]));
        assert!(close(empty.outside, 0.030) && empty.busy == 0.0);
        assert_eq!(empty.loss(3, &WorkerTime::default()), None);
    }

    #[test]
    fn the_median_run_is_the_middle_one_or_the_mean_of_two() {
        let run = |wall: f64, busy: f64| WorkerTime {
            wall,
            busy,
            ..WorkerTime::default()
        };
        let median = WorkerTime::median(&[run(3.0, 30.0), run(1.0, 10.0), run(2.0, 20.0)]);
        assert_eq!(median, Some(run(2.0, 20.0)));
        let median = WorkerTime::median(&[run(4.0, 40.0), run(1.0, 10.0)]);
        assert_eq!(median, Some(run(2.5, 25.0)));
        assert_eq!(WorkerTime::median(&[]), None);
    }
}
