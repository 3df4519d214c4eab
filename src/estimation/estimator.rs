//! The estimator ([`Estimator`]): a random sample of one plan's work drawn in whole stratified
//! rounds, within a number of samples or a time budget, stopping early when a count is cheaper.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use super::clock::thread_seconds;
use super::options::{Budget, EstimateOptions, StopReason};
use super::probe::Sampler;
use super::result::{Estimate, time};
use super::stats::{self, StratifiedSums, group_bounds};
use super::walls::{self, Walls};
use super::{EstimateError, EstimateProgress};
use crate::count::{RunControl, Watcher, count_with};
use crate::engine::kernel::Kernel;
use crate::engine::plan::Strategy;
use crate::engine::pool::{Workers, check_threads, spread};
use crate::error::Error;
use crate::known;

/// Mixed into the seed of the pilot runs, so that they draw other numbers than the sample.
const PILOT_STREAM: u64 = 0x9170_5eed;

/// Mixed into the seed (with the round number) for the rounds of a time budget.
const ROUND_STREAM: u64 = 0x9a55_5eed_0f0f;

/// The rounds a time budget is drawn in, about: the last one ends within about this fraction
/// of the budget after its end.
const ROUNDS_PER_BUDGET: f64 = 32.0;

/// The groups of strata per round of a sample, at least (until there are [`MAX_ROUNDS`]).
const GROUPS_PER_ROUND: u64 = 128;

/// The most rounds a sample is drawn in.
const MAX_ROUNDS: u64 = 512;

/// The chunks a round is cut into, at most: enough for the workers to share a round evenly,
/// few enough that a round's sums take a fixed amount of memory and that a chunk of a large
/// round holds many samples (the thread's processor clock is read twice a chunk).
const MAX_CHUNKS: u64 = 64;

/// The fewest groups of strata in a chunk (at most one read of the processor clock per four
/// samples, and at most 64 × 512 chunks a draw).
const MIN_CHUNK_GROUPS: u64 = 4;

/// The free rows a sample leaves for the exact count on the `n`-board: its exact count takes
/// about a millisecond with the AVX2 kernel (measured: n = 20 at 14 rows 1.1 ms, n = 25 at
/// 15 rows 1.1 ms, n = 30 at 16 rows 2.1 ms). Below n = 20 the plan's tasks are smaller than
/// that and samples count whole tasks.
pub(crate) fn default_free_rows(n: u32) -> u32 {
    match n {
        0..=22 => 14,
        23..=29 => 15,
        _ => 16,
    }
}

/// What an estimate reads of its [`RunControl`], with the instant its budget started.
#[derive(Clone, Copy, Default)]
pub(super) struct Control<'a> {
    pub(super) stop: Option<&'a AtomicBool>,
    pub(super) watcher: Option<&'a dyn Watcher>,
    pub(super) pool: Option<&'a rayon::ThreadPool>,
    pub(super) started: Option<Instant>,
}

impl<'a> Control<'a> {
    /// The parts of `control` an estimate uses; its budget started at `started`.
    pub(super) fn of(control: &RunControl<'a>, started: Instant) -> Control<'a> {
        Control {
            stop: control.stop,
            watcher: control.watcher,
            pool: control.pool,
            started: Some(started),
        }
    }

    fn stopped(&self) -> bool {
        self.stop.is_some_and(|stop| stop.load(Ordering::Relaxed))
    }

    fn tell(&self, progress: impl FnOnce() -> EstimateProgress) {
        if let Some(watcher) = self.watcher {
            watcher.sampled(&progress());
        }
    }
}

/// How a time budget's sampling ended: its samples, or a decision to count instead.
pub(super) enum Sampled {
    Probes(Sample, StopReason),
    CountInstead(Sample),
}

/// A random sample of one plan's work, ready to estimate from.
///
/// The plan is made once, when the estimator is built (a large one held by its task ids: 17
/// bytes a task, 38 MB at n = 32, see [`Plan::tasks`](crate::Plan::tasks)), and it is the
/// plan a watcher is told. Each estimate draws its own samples.
///
/// ```
/// use nqueens::estimation::{Budget, EstimateOptions, Estimator};
/// use nqueens::Kernel;
/// let estimator = Estimator::new(10, Kernel::Auto).unwrap();
/// let options = |seed| EstimateOptions::new(Budget::Samples(100)).with_seed(seed).with_threads(1);
/// let first = estimator.estimate(&options(1)).unwrap();
/// let other = estimator.estimate(&options(2)).unwrap();
/// assert_eq!((first.seed, other.seed), (1, 2));
/// // The same seed draws the same samples.
/// assert_eq!(estimator.estimate(&options(1)).unwrap().estimate_total, first.estimate_total);
/// ```
#[derive(Clone, Debug)]
pub struct Estimator {
    n: u32,
    sampler: Sampler,
    kernel: Kernel,
    walls: Walls,
}

/// The sums of one round of samples (nothing is kept per sample).
#[derive(Clone, Copy, Debug, Default)]
#[non_exhaustive]
pub(crate) struct Sample {
    /// The samples' estimates of the total.
    pub total: StratifiedSums,
    /// The samples' estimates of the core time of a full count.
    pub cost: StratifiedSums,
    /// Processor seconds the samples' exact counts took.
    pub measured: f64,
    /// Wall-clock time of the sample.
    pub elapsed: Duration,
}

impl Sample {
    /// Adds the sums of `other` (disjoint groups of the same sample, or another sample).
    fn merge(&mut self, other: &Sample) {
        self.total.merge(&other.total);
        self.cost.merge(&other.cost);
        self.measured += other.measured;
    }
}

// The estimator samples every board the kernels' lanes hold, and no other.
const _: () = assert!(Estimator::MAX_N == crate::engine::kernel::MAX_JOB_N);

impl Estimator {
    /// The smallest board the estimator samples (the symmetric plan needs a border).
    pub const MIN_N: u32 = 4;

    /// The largest board the estimator samples (the kernels' 32-bit lanes).
    pub const MAX_N: u32 = 32;

    /// The estimator of the `n`-board's symmetric plan (n from [`Estimator::MIN_N`] to
    /// [`Estimator::MAX_N`]) whose samples are counted by `kernel`.
    ///
    /// # Errors
    ///
    /// [`Error::Estimate`] for a board outside [`Estimator::MIN_N`] to [`Estimator::MAX_N`],
    /// [`Error::KernelUnavailable`] for a kernel this CPU does not run (and, with the `gpu`
    /// feature, `Error::Gpu` for a GPU kernel without a GPU that opens).
    ///
    /// ```
    /// use nqueens::estimation::Estimator;
    /// let estimator = Estimator::new(10, nqueens::Kernel::Auto).unwrap();
    /// assert!(Estimator::new(3, nqueens::Kernel::Auto).is_err());
    /// ```
    pub fn new(n: u32, kernel: Kernel) -> Result<Estimator, Error> {
        let board = || {
            Error::Estimate(EstimateError::Board {
                n,
                min: Self::MIN_N,
                max: Self::MAX_N,
            })
        };
        if !(Self::MIN_N..=Self::MAX_N).contains(&n) {
            return Err(board());
        }
        let selected = kernel.select()?;
        // The sampler holds the plan (a large one by its tasks' ids).
        let sampler = Sampler::new(n, default_free_rows(n), selected).ok_or_else(board)?;
        Ok(Estimator {
            n,
            walls: Walls::new(sampler.probabilities()),
            sampler,
            kernel: selected.kernel(),
        })
    }

    /// This estimator with samples that descend to `free_rows` free rows instead of
    /// the default (to test the descent on boards where the default does not descend).
    #[cfg(test)]
    pub(crate) fn with_free_rows(self, free_rows: u32) -> Estimator {
        Estimator {
            sampler: self.sampler.with_free_rows(free_rows),
            ..self
        }
    }

    /// The free rows each sample leaves for its exact count.
    #[cfg(test)]
    pub(crate) fn free_rows(&self) -> u32 {
        self.sampler.free_rows()
    }

    /// Draws samples `0..samples` under `seed` on `threads` workers.
    #[cfg(test)]
    pub(crate) fn sample(&self, samples: u64, seed: u64, threads: usize) -> Result<Sample, Error> {
        let control = Control::default();
        let before = Progress::since(Instant::now());
        let (sample, _) = self.sample_observed(samples, seed, threads, &control, &before)?;
        Ok(sample)
    }

    /// [`Estimator::sample`], telling `control` how far it is after each round (with the
    /// samples of `before` counted in) and stopping at its stop flag.
    ///
    /// The `samples / 2` groups of neighbouring strata (pairs, the last a triple for an odd
    /// count) are dealt to the rounds in turn, so the samples of the first rounds are spread
    /// over every stratum, and the running estimate the progress reports is one of the whole
    /// total; each round is cut into chunks of whole groups, which the workers draw and sum,
    /// and the chunks' sums are added in chunk order: the same sums, to the bit, on any thread
    /// count. Nothing is kept per sample. Every round is drawn, or the stop flag was raised:
    /// then the sums are those of the rounds drawn whole before it was seen (`true` says so;
    /// none, when it was raised during the first).
    fn sample_observed(
        &self,
        samples: u64,
        seed: u64,
        threads: usize,
        control: &Control<'_>,
        before: &Progress,
    ) -> Result<(Sample, bool), Error> {
        if samples < 2 {
            return Err(Error::Estimate(EstimateError::TooFewSamples {
                samples,
                min: 2,
            }));
        }
        let groups = samples / 2;
        let rounds = (groups / GROUPS_PER_ROUND).clamp(1, MAX_ROUNDS);
        let stop = control.stop;
        let workers = Workers::for_run(threads, false, control.pool)?;
        let sample = workers.run(|width| {
            let started = Instant::now();
            let mut sample = Sample::default();
            for round in 0..rounds {
                // This round's groups: round, round + rounds, round + 2 × rounds, …
                let count = (groups - round).div_ceil(rounds);
                let per_chunk = count.div_ceil(MAX_CHUNKS).max(MIN_CHUNK_GROUPS);
                let chunk = |c: u64| {
                    let first = c * per_chunk;
                    let last = (first + per_chunk).min(count);
                    self.chunk(
                        seed,
                        samples,
                        (first..last).map(|j| round + j * rounds),
                        stop,
                    )
                };
                let chunks = count.div_ceil(per_chunk);
                // The workers take the next chunk in turn; the sums are added in chunk order.
                let next = AtomicU64::new(0);
                let taken = spread(width, || {
                    let mut mine = Vec::new();
                    loop {
                        let c = next.fetch_add(1, Ordering::Relaxed);
                        if c >= chunks {
                            break mine;
                        }
                        mine.push((c, chunk(c)));
                    }
                });
                let mut numbered: Vec<(u64, Sample)> = taken.concat();
                numbered.sort_unstable_by_key(|&(c, _)| c);
                let sums: Vec<Sample> = numbered.into_iter().map(|(_, sum)| sum).collect();
                if control.stopped() {
                    // This round's chunks may be cut short: only the whole rounds count.
                    return (sample, true);
                }
                for part in &sums {
                    sample.merge(part);
                }
                sample.elapsed = started.elapsed();
                control.tell(|| before.with(&sample, samples));
            }
            (sample, false)
        });
        Ok(sample)
    }

    /// Draws the samples of `groups` (of `samples` samples under `seed`) on this thread and
    /// sums them, or stops early (with partial sums) once `stop` is raised. The thread's
    /// processor clock is read once for the whole chunk: each sample's wall time is counted at
    /// the share of the chunk's wall time the thread was running.
    fn chunk(
        &self,
        seed: u64,
        samples: u64,
        groups: impl Iterator<Item = u64>,
        stop: Option<&AtomicBool>,
    ) -> Sample {
        let cpu_started = thread_seconds();
        let wall_started = Instant::now();
        let mut sums = Sample::default();
        let mut cost = StratifiedSums::default();
        let mut elapsed = 0.0;
        for g in groups {
            if stop.is_some_and(|stop| stop.load(Ordering::Relaxed)) {
                break;
            }
            let (mut totals, mut costs) = ([0.0; 3], [0.0; 3]);
            let range = group_bounds(g, samples);
            let m = (range.end - range.start) as usize;
            for (slot, i) in range.enumerate() {
                let probe = self.sampler.probe(seed, i, samples);
                totals[slot] = probe.total;
                costs[slot] = probe.elapsed * probe.scale;
                elapsed += probe.elapsed;
            }
            sums.total.add_group(&totals[..m]);
            cost.add_group(&costs[..m]);
        }
        let wall = wall_started.elapsed().as_secs_f64();
        let running = if wall > 0.0 {
            ((thread_seconds() - cpu_started) / wall).clamp(0.0, 1.0)
        } else {
            1.0
        };
        sums.cost = cost.scaled(running);
        sums.measured = elapsed * running;
        sums
    }

    /// The estimate of the board's total from `sample`, with no cost figures (cheap).
    pub(crate) fn total_of(sample: &Sample) -> stats::MeanEstimate {
        sample.total.estimate().expect("at least two probes")
    }

    /// Samples within `options.budget` and estimates the total, the unique count and the cost
    /// (a time budget counts from this call).
    ///
    /// # Errors
    ///
    /// [`Error::Estimate`] for a budget the estimator cannot use (too few samples for an interval,
    /// a time budget of zero); [`Error::TooManyThreads`] for more threads than
    /// [`max_threads`](crate::max_threads) allows, [`Error::ThreadPool`] when the worker threads
    /// cannot start; the errors of the exact count it makes of a small board ([`count_with`]).
    pub fn estimate(&self, options: &EstimateOptions) -> Result<Estimate, Error> {
        self.estimate_with(options, &RunControl::default())
    }

    /// [`Estimator::estimate`] under `control` (a time budget counts from this call), as
    /// [`estimate_with`](super::estimate_with) is: it stops at the control's stop flag, keeping the
    /// samples drawn, tells its watcher how the work goes, and runs on its pool.
    ///
    /// # Errors
    ///
    /// As [`Estimator::estimate`], and [`Error::Stopped`] when the stop flag is raised before
    /// two samples are drawn.
    ///
    /// ```
    /// use std::sync::Mutex;
    /// use nqueens::estimation::{Budget, EstimateOptions, EstimateProgress, Estimator};
    /// use nqueens::{RunControl, Watcher};
    /// // Told after each round of samples.
    /// struct Seen(Mutex<Vec<u64>>);
    /// impl Watcher for Seen {
    ///     fn sampled(&self, p: &EstimateProgress) {
    ///         self.0.lock().unwrap().push(p.samples_done);
    ///     }
    /// }
    /// let estimator = Estimator::new(12, nqueens::Kernel::Auto).unwrap();
    /// let options = EstimateOptions::new(Budget::Samples(1000)).with_seed(3).with_threads(1);
    /// let seen = Seen(Mutex::new(Vec::new()));
    /// let watched = estimator.estimate_with(&options, &RunControl::default().with_watcher(&seen)).unwrap();
    /// let seen = seen.0.into_inner().unwrap();
    /// assert!(seen.len() > 1 && seen.windows(2).all(|w| w[0] < w[1]));
    /// assert_eq!(seen.last(), Some(&1000));
    /// // The same estimate as without it.
    /// let plain = estimator.estimate(&options).unwrap();
    /// assert_eq!(watched.estimate_total, plain.estimate_total);
    /// ```
    pub fn estimate_with(
        &self,
        options: &EstimateOptions,
        control: &RunControl<'_>,
    ) -> Result<Estimate, Error> {
        self.estimate_controlled(options, &Control::of(control, Instant::now()))
    }

    /// [`Estimator::estimate_with`] under the parts of a control an estimate reads.
    pub(super) fn estimate_controlled(
        &self,
        options: &EstimateOptions,
        control: &Control<'_>,
    ) -> Result<Estimate, Error> {
        check_threads(options.count.threads)?;
        if let Some(watcher) = control.watcher {
            watcher.start(self.sampler.plan(), &[]);
        }
        // `0`: as many as the pool the estimate runs on has; the figures use what it gets.
        let options =
            &options.with_threads(Workers::width_for(options.count.threads, control.pool));
        let started = control.started.unwrap_or_else(Instant::now);
        let (sample, stopped) = match options.budget {
            Budget::Samples(k) => {
                let before = Progress::since(started);
                let (sample, stopped) =
                    self.sample_observed(k, options.seed, options.count.threads, control, &before)?;
                let reason = if stopped {
                    StopReason::Stopped
                } else {
                    StopReason::Samples
                };
                (sample, reason)
            }
            Budget::Time(time) => {
                let clock = || started.elapsed().as_secs_f64();
                match self.sample_for(time, options, control, started, &clock)? {
                    Sampled::Probes(sample, stopped) => (sample, stopped),
                    Sampled::CountInstead(sample) => {
                        return self.count_exactly(&sample, options, control, started);
                    }
                }
            }
        };
        // Stopped before a round of probes was whole: nothing to estimate from.
        if sample.total.draws < 2 {
            return Err(Error::Stopped);
        }
        Ok(self.summarise(&sample, options, stopped, started.elapsed()))
    }

    /// Whole rounds of samples within `budget` from `started`: pilot runs of growing size until
    /// one takes a thirtieth of the budget, then rounds of about a thirty-second of what is
    /// left, the last sized to the time left (each pilot and round a stratified draw under a
    /// stream of its own; their sums add up to the mean of all their samples, as unbiased as each).
    /// Between rounds, with [`EstimateOptions::early_stop`], it decides to count the board
    /// instead when that would take less than the time left, or stops once the samples have
    /// done the work of a full count.
    ///
    /// `clock` reads the seconds spent since `started` (the wall clock, or a simulated one in
    /// the tests).
    pub(super) fn sample_for(
        &self,
        budget: Duration,
        options: &EstimateOptions,
        control: &Control<'_>,
        started: Instant,
        clock: &dyn Fn() -> f64,
    ) -> Result<Sampled, Error> {
        let seconds = budget.as_secs_f64();
        if budget.is_zero() {
            return Err(Error::Estimate(EstimateError::NoTime));
        }
        let (seed, threads) = (options.seed, options.count.threads);
        let left = || seconds - clock();
        let mut sample = Sample::default();
        // Decides, after a whole sample, whether to end: `Some` ends.
        let decide = |sample: &Sample| -> Option<Sampled> {
            if !options.early_stop {
                return None;
            }
            let cost = sample.cost.estimate()?;
            let (_, cost_high) = cost.interval();
            if self.count_wall_seconds(cost_high, threads) < left() {
                return Some(Sampled::CountInstead(*sample));
            }
            (sample.measured >= cost.mean).then_some(Sampled::Probes(*sample, StopReason::Covered))
        };
        // Pilots of growing size until one takes a thirtieth of the budget: the rate of the
        // last one sizes the rounds.
        let mut pilot_k = 16 * threads.max(1) as u64;
        let mut per_probe = 0.0;
        for pilot in 0u64.. {
            let before = Progress::since(started).sizing().after(&sample);
            let stream = stream_of(seed, PILOT_STREAM, pilot);
            let t0 = clock();
            let (part, stopped) =
                self.sample_observed(pilot_k, stream, threads, control, &before)?;
            let took = clock() - t0;
            per_probe = took / pilot_k as f64;
            sample.merge(&part);
            if stopped {
                return Ok(Sampled::Probes(sample, StopReason::Stopped));
            }
            if let Some(end) = decide(&sample) {
                return Ok(end);
            }
            if took >= seconds / 30.0 || left() <= seconds * 0.9 {
                break;
            }
            pilot_k *= 4;
        }
        let round_k = ((left() / ROUNDS_PER_BUDGET / per_probe.max(1e-9)) as u64).max(pilot_k);
        for round in 0u64.. {
            // The last round fits what is left; none starts with less than a quarter round left.
            let fits = (left() / per_probe.max(1e-9)) as u64;
            if fits < (round_k / 4).max(2) {
                break;
            }
            let k = round_k.min(fits);
            let before = Progress::since(started).after(&sample);
            let stream = stream_of(seed, ROUND_STREAM, round);
            let t0 = clock();
            let (part, stopped) = self.sample_observed(k, stream, threads, control, &before)?;
            // The rate of the last round sizes the rest.
            per_probe = (clock() - t0) / k as f64;
            sample.merge(&part);
            if stopped {
                return Ok(Sampled::Probes(sample, StopReason::Stopped));
            }
            if let Some(end) = decide(&sample) {
                return Ok(end);
            }
        }
        Ok(Sampled::Probes(sample, StopReason::Budget))
    }

    /// Modelled wall seconds of counting the board exactly with `threads` workers, at
    /// `core_seconds` of work (the load-balance bound, plus a part for starting and the
    /// largest task).
    fn count_wall_seconds(&self, core_seconds: f64, threads: usize) -> f64 {
        let per_thread = core_seconds / threads.max(1) as f64;
        1.25 * per_thread.max(core_seconds * self.walls.largest_share()) + 0.01
    }

    /// Counts the board exactly (what the sample so far, `pilot`, showed to be cheaper than
    /// sampling on) and reports it as an estimate with a point interval.
    fn count_exactly(
        &self,
        pilot: &Sample,
        options: &EstimateOptions,
        control: &Control<'_>,
        started: Instant,
    ) -> Result<Estimate, Error> {
        let count_options = options.count.with_kernel(self.kernel);
        let run_control = RunControl {
            stop: control.stop,
            pool: control.pool,
            ..RunControl::default()
        };
        let run = count_with(self.n, &count_options, &run_control)?;
        if !run.complete {
            // Stopped: the samples that chose the count are the estimate.
            return Ok(self.summarise(pilot, options, StopReason::Stopped, started.elapsed()));
        }
        let counts = run.counts;
        let total = counts.total as f64;
        let wall = counts.wall_time.as_secs_f64();
        let core_seconds = wall * options.count.threads as f64;
        let clusters = self.walls.on_clusters(core_seconds);
        let core_time = time(core_seconds);
        let unique = counts.unique.map_or(total / 8.0, |u| u as f64);
        Ok(Estimate {
            n: self.n,
            strategy: Strategy::Symmetric,
            kernel: self.kernel,
            seed: options.seed,
            samples: pilot.total.draws,
            threads: options.count.threads,
            tasks: self.sampler.len(),
            free_rows: self.sampler.free_rows(),
            estimate_total: total,
            total_low: total,
            total_high: total,
            total_relative_half_width: 0.0,
            estimate_unique: unique,
            unique_low: unique,
            unique_high: unique,
            // Counted: the interval is the point.
            core_time,
            core_time_low: core_time,
            core_time_high: core_time,
            wall_time: counts.wall_time,
            wall_time_64: time(clusters[0]),
            wall_time_1024: time(clusters[1]),
            wall_time_10000: time(clusters[2]),
            largest_task_share: self.walls.largest_share(),
            covered_fraction: 1.0,
            stopped: StopReason::Counted,
            elapsed: started.elapsed(),
            known_total: known::Known::of(self.n).map(|k| k.total),
        })
    }

    /// The estimate from `sample`.
    fn summarise(
        &self,
        sample: &Sample,
        options: &EstimateOptions,
        stopped: StopReason,
        took: Duration,
    ) -> Estimate {
        let total = Self::total_of(sample);
        let cost = sample.cost.estimate().expect("at least two probes");
        // A count and a time are never negative: an interval's lower end stops at 0.
        let (total_low, total_high) = total.interval();
        let total_low = total_low.max(0.0);
        let (cost_low, cost_high) = cost.interval();
        let cost_low = cost_low.max(0.0);
        let clusters = self.walls.on_clusters(cost.mean);
        let measured = sample.measured;
        Estimate {
            n: self.n,
            strategy: Strategy::Symmetric,
            kernel: self.kernel,
            seed: options.seed,
            samples: sample.total.draws,
            threads: options.count.threads,
            tasks: self.sampler.len(),
            free_rows: self.sampler.free_rows(),
            estimate_total: total.mean,
            total_low,
            total_high,
            total_relative_half_width: (total_high - total.mean) / total.mean.abs().max(1.0),
            estimate_unique: total.mean / 8.0,
            unique_low: total_low / 8.0,
            unique_high: total_high / 8.0,
            core_time: time(cost.mean),
            core_time_low: time(cost_low),
            core_time_high: time(cost_high),
            wall_time: time(walls::on_threads(
                self.sampler.probabilities(),
                cost.mean,
                options.count.threads,
            )),
            wall_time_64: time(clusters[0]),
            wall_time_1024: time(clusters[1]),
            wall_time_10000: time(clusters[2]),
            largest_task_share: self.walls.largest_share(),
            covered_fraction: if cost.mean > 0.0 {
                measured / cost.mean
            } else {
                1.0
            },
            stopped,
            elapsed: took,
            known_total: known::Known::of(self.n).map(|k| k.total),
        }
    }
}

/// The stream of the seed that pilot or round `index` of a time budget draws from (`kind`
/// tells pilots from rounds): every whole sample draws numbers of its own.
fn stream_of(seed: u64, kind: u64, index: u64) -> u64 {
    seed ^ kind ^ index.wrapping_add(1).wrapping_mul(0x9e37_79b9_7f4a_7c15)
}

/// What the samples before the one being drawn add to its progress reports.
#[derive(Clone, Copy, Debug)]
struct Progress {
    started: Instant,
    before: Sample,
    sizing: bool,
}

impl Progress {
    /// Nothing before, the clock from `started`.
    fn since(started: Instant) -> Progress {
        Progress {
            started,
            before: Sample::default(),
            sizing: false,
        }
    }

    /// These reports while a pilot run sizes the rounds: no sample size yet.
    fn sizing(self) -> Progress {
        Progress {
            sizing: true,
            ..self
        }
    }

    /// These reports with the samples of `before` counted in.
    fn after(self, before: &Sample) -> Progress {
        Progress {
            before: *before,
            ..self
        }
    }

    /// The progress with `sample` of `samples` samples drawn.
    fn with(&self, sample: &Sample, samples: u64) -> EstimateProgress {
        let mut all = self.before;
        all.merge(sample);
        EstimateProgress {
            samples_done: all.total.draws,
            samples: if self.sizing {
                0
            } else {
                self.before.total.draws + samples
            },
            elapsed: self.started.elapsed(),
            total: all.total.estimate().map(|m| {
                let (low, high) = m.interval();
                (m.mean, low.max(0.0), high)
            }),
        }
    }
}
