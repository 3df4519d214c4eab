//! What counting a board costs on this machine, with the kernel that will run and on the threads
//! it runs on: the figure to weigh work by before starting it.
//!
//! [`Cost::of_board`] runs the [`Estimator`] on each call, with 200 samples and seed 1, each
//! sample timed by its thread's processor clock (about 0.1 s; the samples are the same each
//! time, their times vary a little). So the figure is the one that
//! [`estimate`](crate::estimation::estimate) reports for the same board with
//! [`Budget::Samples`]`(200)` and that seed (which draw the same samples). Nothing is kept
//! between calls: a caller that weighs the same work twice (refuses it over a limit, then
//! announces it) estimates it once and hands the figure on.
//!
//! Boards the estimator does not sample are scaled from one it does by their solutions (the
//! cost per solution changes little with n): boards beyond [`Estimator::MAX_N`] from that board.
//! [`Cost::of_boards`] estimates only the largest of several boards and scales the others from
//! it, so that several boards cost one estimate.
//!
//! ```
//! use std::time::Duration;
//! use nqueens::estimation::cost::Cost;
//! use nqueens::{CountOptions, Strategy};
//!
//! let options = CountOptions::new(1, Strategy::Symmetric);
//! let cost = Cost::of_board(12, &options);
//! assert!(cost.wall_time > Duration::ZERO && cost.wall_time < Duration::from_secs(60));
//! // Twice the work on one thread, and spread over more threads.
//! assert!(cost.scaled(2.0).core_time.abs_diff(2 * cost.core_time) < Duration::from_micros(1));
//! assert!(cost.on_threads(2).wall_time <= cost.wall_time);
//! ```

use std::time::Duration;

use crate::count::CountOptions;
use crate::engine::kernel::Kernel;
use crate::error::Error;
use crate::estimation::{Budget, EstimateOptions, Estimator, time};
use crate::known;

/// The samples of every estimate behind a [`Cost`] (what `nqueens estimate --samples 200` draws).
pub(crate) const SAMPLES: u64 = 200;

/// The seed of those samples.
pub(crate) const SEED: u64 = 1;

/// What a piece of work is estimated to cost. [`Duration::MAX`] stands for a cost beyond any
/// figure (a kernel that does not run here); sums and multiples stop there.
///
/// ```
/// use std::time::Duration;
/// use nqueens::estimation::cost::Cost;
/// let s = Duration::from_secs;
/// let cost = Cost::new(s(2), s(4)).with_core_interval(s(3), s(5));
/// assert_eq!((cost.wall_time, cost.core_time), (s(2), s(4)));
/// assert_eq!(cost.core_time_interval, Some((s(3), s(5))));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub struct Cost {
    /// Wall time on the threads it runs on.
    pub wall_time: Duration,
    /// Core time: one thread's processor time, all threads summed.
    pub core_time: Duration,
    /// The 95% interval of `core_time`, when the model gives one.
    pub core_time_interval: Option<(Duration, Duration)>,
}

impl Cost {
    /// Work of `wall_time` on the clock and `core_time` summed over the threads, with no
    /// interval.
    ///
    /// ```
    /// use std::time::Duration;
    /// use nqueens::estimation::cost::Cost;
    /// let cost = Cost::new(Duration::from_secs(1), Duration::from_secs(3));
    /// assert_eq!(cost.core_time_interval, None);
    /// ```
    #[must_use]
    pub fn new(wall_time: Duration, core_time: Duration) -> Cost {
        Cost {
            wall_time,
            core_time,
            core_time_interval: None,
        }
    }

    /// This cost with the 95% interval `low` to `high` of its core time.
    #[must_use]
    pub fn with_core_interval(self, low: Duration, high: Duration) -> Cost {
        Cost {
            core_time_interval: Some((low, high)),
            ..self
        }
    }

    /// Work of `time` on one thread, with no interval (as a model without one gives it).
    ///
    /// ```
    /// use std::time::Duration;
    /// use nqueens::estimation::cost::Cost;
    /// let minute = Duration::from_secs(60);
    /// assert_eq!(Cost::single_thread(minute), Cost::new(minute, minute));
    /// ```
    #[must_use]
    pub fn single_thread(time: Duration) -> Cost {
        Cost::new(time, time)
    }

    /// `self` times `factor` (a share of the work, or repeated runs).
    ///
    /// ```
    /// use std::time::Duration;
    /// use nqueens::estimation::cost::Cost;
    /// let s = Duration::from_secs;
    /// let cost = Cost::new(s(1), s(2)).with_core_interval(s(1), s(3)).scaled(3.0);
    /// assert_eq!(cost, Cost::new(s(3), s(6)).with_core_interval(s(3), s(9)));
    /// assert_eq!(Cost::single_thread(Duration::MAX).scaled(2.0).wall_time, Duration::MAX);
    /// ```
    #[must_use]
    pub fn scaled(self, factor: f64) -> Cost {
        let times = |d: Duration| time(d.as_secs_f64() * factor);
        Cost {
            wall_time: times(self.wall_time),
            core_time: times(self.core_time),
            core_time_interval: self
                .core_time_interval
                .map(|(low, high)| (times(low), times(high))),
        }
    }

    /// `self` and then `other`: times and intervals added (an interval only when both have
    /// one).
    ///
    /// ```
    /// use std::time::Duration;
    /// use nqueens::estimation::cost::Cost;
    /// let s = Duration::from_secs;
    /// let a = Cost::new(s(1), s(2)).with_core_interval(s(1), s(3));
    /// let b = Cost::new(s(2), s(4)).with_core_interval(s(3), s(5));
    /// assert_eq!(a.plus(b), Cost::new(s(3), s(6)).with_core_interval(s(4), s(8)));
    /// assert_eq!(a.plus(Cost::single_thread(s(1))).core_time_interval, None);
    /// ```
    #[must_use]
    pub fn plus(self, other: Cost) -> Cost {
        Cost {
            wall_time: self.wall_time.saturating_add(other.wall_time),
            core_time: self.core_time.saturating_add(other.core_time),
            core_time_interval: self
                .core_time_interval
                .zip(other.core_time_interval)
                .map(|((a, b), (c, d))| (a.saturating_add(c), b.saturating_add(d))),
        }
    }

    /// The same work on `threads` threads: the core time spread over no more threads than the
    /// machine has logical CPUs.
    ///
    /// ```
    /// use std::time::Duration;
    /// use nqueens::estimation::cost::Cost;
    /// let s = Duration::from_secs;
    /// let cost = Cost::single_thread(s(8));
    /// assert_eq!(cost.on_threads(1).wall_time, s(8));
    /// // 4 seconds where two threads run at once, 8 on a single CPU.
    /// assert!([s(4), s(8)].contains(&cost.on_threads(2).wall_time));
    /// assert_eq!(cost.on_threads(2).core_time, s(8));
    /// ```
    #[must_use]
    pub fn on_threads(self, threads: usize) -> Cost {
        let parallel = threads.clamp(1, num_cpus::get().max(1)) as f64;
        Cost {
            wall_time: time(self.core_time.as_secs_f64() / parallel),
            ..self
        }
    }

    /// What counting the `n`-board with `options` costs here (see the [module
    /// documentation](self)): nothing for boards below [`Estimator::MIN_N`], and
    /// [`Duration::MAX`] where the kernel does not run on this CPU. The strategy of `options` is not
    /// weighed.
    ///
    /// ```
    /// use nqueens::estimation::cost::Cost;
    /// use nqueens::{CountOptions, Strategy};
    /// let options = CountOptions::new(1, Strategy::Symmetric);
    /// assert_eq!(Cost::of_board(3, &options).wall_time, std::time::Duration::ZERO);
    /// assert!(Cost::of_board(16, &options).wall_time > Cost::of_board(14, &options).wall_time);
    /// ```
    #[must_use]
    pub fn of_board(n: u32, options: &CountOptions) -> Cost {
        Cost::try_of_board(n, options).unwrap_or(Cost::single_thread(Duration::MAX))
    }

    /// [`Cost::of_board`], or why the estimate behind it could not be made: the kernel does
    /// not run here ([`Error::KernelUnavailable`]), or its threads could not start
    /// ([`Error::ThreadPool`]: a limit on processes, say), which a caller should report as such
    /// rather than as work too long to do.
    ///
    /// # Errors
    ///
    /// [`Error::KernelUnavailable`] for a kernel this CPU does not run; [`Error::TooManyThreads`]
    /// for more threads than [`max_threads`](crate::max_threads) allows, [`Error::ThreadPool`] when
    /// the worker threads cannot start.
    ///
    /// ```
    /// use nqueens::estimation::cost::Cost;
    /// use nqueens::{CountOptions, Strategy};
    /// let options = CountOptions::new(1, Strategy::Symmetric);
    /// assert!(Cost::try_of_board(14, &options).unwrap().core_time > std::time::Duration::ZERO);
    /// let too_many = options.with_threads(nqueens::max_threads() + 1);
    /// assert!(Cost::try_of_board(14, &too_many).is_err());
    /// ```
    pub fn try_of_board(n: u32, options: &CountOptions) -> Result<Cost, Error> {
        if n < Estimator::MIN_N {
            return Ok(Cost::single_thread(Duration::ZERO));
        }
        let sampled = n.min(Estimator::MAX_N);
        crate::engine::pool::check_threads(options.threads)?;
        let threads = crate::engine::pool::Workers::width_for(options.threads, None);
        let cost = estimated(sampled, options.kernel, threads)?;
        Ok(cost.scaled(solutions(n) / solutions(sampled)))
    }

    /// What counting `boards` one after another with `options` costs: the largest estimated
    /// ([`Cost::of_board`]), the others scaled from it by their solutions; nothing for no
    /// boards.
    ///
    /// ```
    /// use nqueens::estimation::cost::Cost;
    /// use nqueens::{CountOptions, Strategy};
    /// let options = CountOptions::new(1, Strategy::Symmetric);
    /// // n = 12 has 4 % of the solutions of n = 14: the two cost 1.04 times n = 14 alone, as
    /// // estimated by one call of `of_board(14, …)` (whose timings vary from call to call).
    /// assert!(Cost::of_boards(&[12, 14], &options).core_time > std::time::Duration::ZERO);
    /// assert_eq!(Cost::of_boards(&[], &options).wall_time, std::time::Duration::ZERO);
    /// ```
    #[must_use]
    pub fn of_boards(boards: &[u32], options: &CountOptions) -> Cost {
        Cost::try_of_boards(boards, options).unwrap_or(Cost::single_thread(Duration::MAX))
    }

    /// [`Cost::of_boards`], or why the estimate behind it could not be made (see
    /// [`Cost::try_of_board`]).
    ///
    /// # Errors
    ///
    /// As [`Cost::try_of_board`], for the first board whose estimate fails.
    pub fn try_of_boards(boards: &[u32], options: &CountOptions) -> Result<Cost, Error> {
        let Some(&largest) = boards.iter().max() else {
            return Ok(Cost::single_thread(Duration::ZERO));
        };
        let cost = Cost::try_of_board(largest, options)?;
        Ok(cost.scaled(share_of_largest(boards, largest)))
    }
}

/// The work of `boards` in units of the largest of them, `largest`: their solutions summed over
/// its solutions.
fn share_of_largest(boards: &[u32], largest: u32) -> f64 {
    boards
        .iter()
        .map(|&n| solutions(n) / solutions(largest).max(1.0))
        .sum()
}

/// The solutions of the `n`-board: the known total, or beyond the table an extrapolation with
/// the growth of its last step.
fn solutions(n: u32) -> f64 {
    if let Some(total) = known::Known::of(n).map(|k| k.total) {
        return total as f64;
    }
    let last = known::Known::MAX_N;
    let (top, below) = (
        known::Known::of(last).map(|k| k.total).unwrap_or(1) as f64,
        known::Known::of(last - 1).map(|k| k.total).unwrap_or(1) as f64,
    );
    top * (top / below).powi(n.saturating_sub(last) as i32)
}

/// The estimator's figure for the `n`-board with `kernel` on `threads` threads (no more of
/// them run at once than the machine has CPUs), or why it could not be made.
fn estimated(n: u32, kernel: Kernel, threads: usize) -> Result<Cost, Error> {
    let e = Estimator::new(n, kernel)?.estimate(
        &EstimateOptions::new(Budget::Samples(SAMPLES))
            .with_seed(SEED)
            .with_threads(threads)
            .with_kernel(kernel),
    )?;
    let cpus = num_cpus::get().max(1) as f64;
    let spread = time(e.core_time.as_secs_f64() / cpus);
    let cost = Cost::new(e.wall_time.max(spread), e.core_time)
        .with_core_interval(e.core_time_low, e.core_time_high);
    Ok(cost)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::plan::Strategy;

    const DAY: Duration = Duration::from_secs(86_400);

    fn options(threads: usize, kernel: Kernel) -> CountOptions {
        CountOptions::new(threads, Strategy::Symmetric).with_kernel(kernel)
    }

    #[test]
    fn the_engine_estimate_grows_with_the_board_and_shrinks_with_threads() {
        let one = options(1, Kernel::Auto);
        assert!(Cost::of_board(12, &one).wall_time < Duration::from_secs(1));
        assert_eq!(Cost::of_board(2, &one).wall_time, Duration::ZERO);
        assert!(Cost::of_board(27, &one).wall_time > 10 * DAY);
        // Beyond the table: scaled from the largest sampled board (each call times its samples
        // anew, so two calls are compared only where they differ by far more than their noise).
        assert!(Cost::of_board(30, &one).wall_time > 1000 * DAY);
        // Far beyond reach, the figure stops at the largest time rather than overflowing.
        assert!(Cost::of_board(64, &one).wall_time >= Cost::of_board(40, &one).wall_time);
        // On two threads the core time is spread over no more than the machine's CPUs.
        let two = Cost::of_board(20, &options(2, Kernel::Auto));
        assert!(
            two.wall_time >= two.core_time / num_cpus::get().max(1) as u32,
            "{two:?}"
        );
        assert!(two.wall_time > Duration::ZERO);
    }

    #[test]
    fn several_boards_cost_the_largest_scaled_by_their_solutions() {
        // n = 16 has 2 % of the solutions of n = 18: the two weigh 1.02 times n = 18 alone.
        let share = share_of_largest(&[16, 18], 18);
        let expected = (14_772_512.0 + 666_090_624.0) / 666_090_624.0;
        assert!((share - expected).abs() < 1e-12, "{share}");
        assert_eq!(share_of_largest(&[18], 18), 1.0);
        assert_eq!(
            share_of_largest(&[17, 18, 18], 18),
            2.0 + 95_815_104.0 / 666_090_624.0
        );
        let nothing = Cost::of_boards(&[], &options(1, Kernel::Auto));
        assert_eq!(nothing, Cost::single_thread(Duration::ZERO));
    }

    #[test]
    fn the_portable_kernel_costs_more_than_the_lanes() {
        let fastest = Kernel::Auto.resolve().unwrap();
        if fastest == Kernel::PortableLanes || fastest == Kernel::DepthFirst {
            eprintln!("skipped: this CPU runs no SIMD lane kernel");
            return;
        }
        let lanes = Cost::of_board(20, &options(1, fastest));
        let portable = Cost::of_board(20, &options(1, Kernel::PortableLanes));
        assert!(
            portable.core_time > lanes.core_time,
            "{portable:?} vs {lanes:?}"
        );
    }

    #[test]
    fn boards_beyond_the_table_grow_like_its_last_step() {
        let last = known::Known::MAX_N;
        let step = solutions(last) / solutions(last - 1);
        assert_eq!(solutions(8), 92.0);
        assert!((solutions(last + 2) / solutions(last) / (step * step) - 1.0).abs() < 1e-9);
    }
}
