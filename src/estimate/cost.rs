//! What counting a board costs on this machine, with the kernel that will run and on the threads
//! it runs on: the figure to weigh work by before starting it.
//!
//! [`Cost::of_board`] runs the [`Estimator`] once per board, kernel and thread count in a
//! process, with 200 probes and seed 1, each probe timed by its thread's
//! processor clock; later calls with the same board, kernel and thread count return the figure
//! already made. So the figure is the one that [`estimate`](crate::estimate::estimate) reports
//! for the same board with [`Budget::Samples`]`(200)` and that seed (which draw the same
//! probes).
//!
//! Boards the estimator does not sample are scaled from one it does by their solutions (the
//! cost per solution changes little with n): boards beyond [`Estimator::MAX_N`] from that board.
//! [`Cost::of_boards`] estimates only the largest of several boards and scales the others from
//! it, so that several boards cost one estimate.
//!
//! ```
//! use nqueens::estimate::cost::Cost;
//! use nqueens::{CountOptions, Strategy};
//!
//! let options = CountOptions::new(1, Strategy::Symmetric);
//! let cost = Cost::of_board(12, &options);
//! assert!(cost.wall > 0.0 && cost.wall < 60.0);
//! // Twice the work on one thread, and spread over more threads.
//! assert_eq!(cost.scaled(2.0).core, 2.0 * cost.core);
//! assert!(cost.on_threads(2).wall <= cost.wall);
//! ```

use std::collections::HashMap;
use std::sync::{LazyLock, Mutex, MutexGuard};

use crate::count::CountOptions;
use crate::engine::kernel::Kernel;
use crate::error::Error;
use crate::estimate::{Budget, EstimateOptions, Estimator};
use crate::known;

/// The probes of every estimate behind a [`Cost`] (what `nqueens estimate --samples 200` draws).
pub(crate) const SAMPLES: u64 = 200;

/// The seed of those probes.
pub(crate) const SEED: u64 = 1;

/// What a piece of work is estimated to cost.
///
/// ```
/// use nqueens::estimate::cost::Cost;
/// let cost = Cost::new(2.0, 4.0).with_core_interval(3.5, 4.5);
/// assert_eq!((cost.wall, cost.core, cost.core_interval), (2.0, 4.0, Some((3.5, 4.5))));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub struct Cost {
    /// Wall-clock seconds on the threads it runs on.
    pub wall: f64,
    /// Core-seconds (one thread's processor time, all threads summed).
    pub core: f64,
    /// The 95% interval of `core`, when the model gives one.
    pub core_interval: Option<(f64, f64)>,
}

impl Cost {
    /// Work of `wall` wall-clock seconds and `core` core-seconds, with no interval.
    ///
    /// ```
    /// use nqueens::estimate::cost::Cost;
    /// let cost = Cost::new(1.5, 3.0);
    /// assert_eq!((cost.wall, cost.core, cost.core_interval), (1.5, 3.0, None));
    /// ```
    #[must_use]
    pub fn new(wall: f64, core: f64) -> Cost {
        Cost {
            wall,
            core,
            core_interval: None,
        }
    }

    /// This cost with the 95% interval `low` to `high` of its core-seconds.
    ///
    /// ```
    /// use nqueens::estimate::cost::Cost;
    /// let cost = Cost::new(1.0, 2.0).with_core_interval(1.8, 2.2);
    /// assert_eq!(cost.core_interval, Some((1.8, 2.2)));
    /// ```
    #[must_use]
    pub fn with_core_interval(self, low: f64, high: f64) -> Cost {
        Cost {
            core_interval: Some((low, high)),
            ..self
        }
    }

    /// Work of `seconds` on one thread, with no interval (as a model without one gives it).
    ///
    /// ```
    /// use nqueens::estimate::cost::Cost;
    /// assert_eq!(Cost::single_thread(60.0), Cost::new(60.0, 60.0));
    /// ```
    #[must_use]
    pub fn single_thread(seconds: f64) -> Cost {
        Cost::new(seconds, seconds)
    }

    /// `self` times `factor` (a share of the work, or repeated runs).
    ///
    /// ```
    /// use nqueens::estimate::cost::Cost;
    /// let cost = Cost::new(1.0, 2.0).with_core_interval(1.5, 2.5).scaled(3.0);
    /// assert_eq!(cost, Cost::new(3.0, 6.0).with_core_interval(4.5, 7.5));
    /// ```
    #[must_use]
    pub fn scaled(self, factor: f64) -> Cost {
        Cost {
            wall: self.wall * factor,
            core: self.core * factor,
            core_interval: self
                .core_interval
                .map(|(low, high)| (low * factor, high * factor)),
        }
    }

    /// `self` and then `other`: times and intervals added (an interval only when both have
    /// one).
    ///
    /// ```
    /// use nqueens::estimate::cost::Cost;
    /// let a = Cost::new(1.0, 2.0).with_core_interval(1.5, 2.5);
    /// let b = Cost::new(2.0, 4.0).with_core_interval(3.0, 5.0);
    /// assert_eq!(a.plus(b), Cost::new(3.0, 6.0).with_core_interval(4.5, 7.5));
    /// assert_eq!(a.plus(Cost::single_thread(1.0)).core_interval, None);
    /// ```
    #[must_use]
    pub fn plus(self, other: Cost) -> Cost {
        Cost {
            wall: self.wall + other.wall,
            core: self.core + other.core,
            core_interval: self
                .core_interval
                .zip(other.core_interval)
                .map(|((a, b), (c, d))| (a + c, b + d)),
        }
    }

    /// The same work on `threads` threads: the core time spread over no more threads than the
    /// machine has logical CPUs.
    ///
    /// ```
    /// use nqueens::estimate::cost::Cost;
    /// let cost = Cost::single_thread(8.0);
    /// assert_eq!(cost.on_threads(1).wall, 8.0);
    /// // 4 seconds where two threads run at once, 8 on a single CPU.
    /// assert!([4.0, 8.0].contains(&cost.on_threads(2).wall));
    /// assert_eq!(cost.on_threads(2).core, 8.0);
    /// ```
    #[must_use]
    pub fn on_threads(self, threads: usize) -> Cost {
        let parallel = threads.clamp(1, num_cpus::get().max(1)) as f64;
        Cost {
            wall: self.core / parallel,
            ..self
        }
    }

    /// What counting the `n`-board with `options` costs here (see the [module
    /// documentation](self)): nothing for boards below [`Estimator::MIN_N`], and an infinite
    /// cost where the kernel does not run on this CPU. The strategy of `options` is not
    /// weighed.
    ///
    /// ```
    /// use nqueens::estimate::cost::Cost;
    /// use nqueens::{CountOptions, Strategy};
    /// let options = CountOptions::new(1, Strategy::Symmetric);
    /// assert_eq!(Cost::of_board(3, &options).wall, 0.0);
    /// // Made once, then the same figure every time.
    /// assert_eq!(Cost::of_board(14, &options), Cost::of_board(14, &options));
    /// assert!(Cost::of_board(16, &options).wall > Cost::of_board(14, &options).wall);
    /// ```
    #[must_use]
    pub fn of_board(n: u32, options: &CountOptions) -> Cost {
        Cost::try_of_board(n, options).unwrap_or(Cost::single_thread(f64::INFINITY))
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
    /// use nqueens::estimate::cost::Cost;
    /// use nqueens::{CountOptions, Strategy};
    /// let options = CountOptions::new(1, Strategy::Symmetric);
    /// assert_eq!(Cost::try_of_board(14, &options).unwrap(), Cost::of_board(14, &options));
    /// let too_many = options.with_threads(nqueens::max_threads() + 1);
    /// assert!(Cost::try_of_board(14, &too_many).is_err());
    /// ```
    pub fn try_of_board(n: u32, options: &CountOptions) -> Result<Cost, Error> {
        if n < Estimator::MIN_N {
            return Ok(Cost::single_thread(0.0));
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
    /// use nqueens::estimate::cost::Cost;
    /// use nqueens::{CountOptions, Strategy};
    /// let options = CountOptions::new(1, Strategy::Symmetric);
    /// let (one, two) = (Cost::of_board(14, &options), Cost::of_boards(&[12, 14], &options));
    /// assert!(two.core > one.core && two.core < 1.5 * one.core);
    /// assert_eq!(Cost::of_boards(&[14], &options), one);
    /// assert_eq!(Cost::of_boards(&[], &options).wall, 0.0);
    /// ```
    #[must_use]
    pub fn of_boards(boards: &[u32], options: &CountOptions) -> Cost {
        Cost::try_of_boards(boards, options).unwrap_or(Cost::single_thread(f64::INFINITY))
    }

    /// [`Cost::of_boards`], or why the estimate behind it could not be made (see
    /// [`Cost::try_of_board`]).
    ///
    /// # Errors
    ///
    /// As [`Cost::try_of_board`], for the first board whose estimate fails.
    pub fn try_of_boards(boards: &[u32], options: &CountOptions) -> Result<Cost, Error> {
        let Some(&largest) = boards.iter().max() else {
            return Ok(Cost::single_thread(0.0));
        };
        let cost = Cost::try_of_board(largest, options)?;
        let share: f64 = boards
            .iter()
            .map(|&n| solutions(n) / solutions(largest).max(1.0))
            .sum();
        Ok(cost.scaled(share))
    }
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

/// The estimates made so far in this process, by board, kernel and threads.
type Estimates = HashMap<(u32, Kernel, usize), Cost>;

/// The estimates made so far, locked.
fn cache() -> MutexGuard<'static, Estimates> {
    static CACHE: LazyLock<Mutex<Estimates>> = LazyLock::new(Mutex::default);
    CACHE.lock().unwrap_or_else(|e| e.into_inner())
}

/// The estimator's figure for the `n`-board with `kernel` on `threads` threads (no more of
/// them run at once than the machine has CPUs), or why it could not be made (not kept: a
/// thread that could not start may start later).
fn estimated(n: u32, kernel: Kernel, threads: usize) -> Result<Cost, Error> {
    let key = (n, kernel, threads);
    if let Some(cost) = cache().get(&key) {
        return Ok(*cost);
    }
    let e = Estimator::new(n, kernel)?.estimate(
        &EstimateOptions::new(Budget::Samples(SAMPLES))
            .with_seed(SEED)
            .with_threads(threads)
            .with_kernel(kernel),
    )?;
    let cpus = num_cpus::get().max(1) as f64;
    let core = e.core_time.as_secs_f64();
    let cost = Cost::new(e.wall_time.as_secs_f64().max(core / cpus), core).with_core_interval(
        e.core_time_low.as_secs_f64(),
        e.core_time_high.as_secs_f64(),
    );
    cache().insert(key, cost);
    Ok(cost)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::plan::Strategy;

    const DAY: f64 = 86_400.0;

    fn options(threads: usize, kernel: Kernel) -> CountOptions {
        CountOptions::new(threads, Strategy::Symmetric).with_kernel(kernel)
    }

    #[test]
    fn the_engine_estimate_grows_with_the_board_and_shrinks_with_threads() {
        let one = options(1, Kernel::Auto);
        assert!(Cost::of_board(12, &one).wall < 1.0);
        assert_eq!(Cost::of_board(2, &one).wall, 0.0);
        assert!(Cost::of_board(27, &one).wall > 10.0 * DAY);
        assert!(Cost::of_board(30, &one).wall > Cost::of_board(29, &one).wall * 5.0);
        assert!(Cost::of_board(64, &one).wall.is_finite());
        assert!(
            Cost::of_board(20, &options(2, Kernel::Auto)).wall <= Cost::of_board(20, &one).wall
        );
    }

    #[test]
    fn the_same_board_costs_the_same_every_time() {
        let one = options(1, Kernel::Auto);
        assert_eq!(Cost::of_board(18, &one), Cost::of_board(18, &one));
        // One board alone costs what it costs among others, plus theirs.
        let several = Cost::of_boards(&[16, 18], &one);
        assert!(several.core > Cost::of_board(18, &one).core);
        assert!(several.core < 1.5 * Cost::of_board(18, &one).core);
        assert_eq!(Cost::of_boards(&[18], &one), Cost::of_board(18, &one));
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
        assert!(portable.core > lanes.core, "{portable:?} vs {lanes:?}");
    }

    #[test]
    fn boards_beyond_the_table_grow_like_its_last_step() {
        let last = known::Known::MAX_N;
        let step = solutions(last) / solutions(last - 1);
        assert_eq!(solutions(8), 92.0);
        assert!((solutions(last + 2) / solutions(last) / (step * step) - 1.0).abs() < 1e-9);
    }
}
