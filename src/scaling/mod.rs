//! Thread-scaling study and load-balance model.
//!
//! A study ([`study::measure`]) counts one board with each of several thread counts, several
//! timed runs each, and reports the median, fastest and slowest wall-clock time, the speedup over
//! one thread and the parallel efficiency (speedup ÷ threads).
//!
//! The load-balance model answers what a bigger machine would give. It takes the time
//! each task of the plan took in the one-thread runs (the fastest of the timed runs, since
//! interruptions by other processes only ever add time) and replays the run's list scheduling on
//! `P` identical workers: tasks are handed out in plan order (largest first), each to the worker
//! that becomes free first. The predicted speedup is the sum of the task times divided by the
//! predicted makespan. The model assumes identical cores and no shared-resource limits (memory
//! bandwidth, caches, turbo clocks, scheduling overhead), so it is an upper bound that only the
//! plan's task sizes limit. It uses the one-thread task times because with several threads a
//! task's time also includes the slowdown caused by the other threads.
//!
//! Each measured point also carries its loss breakdown ([`Loss`]): the lost efficiency `1 − E`
//! split into serial work, imbalance at the tail, the CPU time other programs took (from the CPU
//! share), each busy worker's slowdown against the one-thread run, and what remains unexplained
//! (its documentation defines the parts).
//!
//! The model is checked against the runs by leaving each measured thread count out and
//! predicting it from the smaller ones ([`study::Study::leave_one_out`], [`check`]).
//!
//! Each measured point also carries its CPU share: the CPU time the runs received ÷ the
//! CPU time they asked for. Well below 1 means other programs were using the machine.
//!
//! A study records what makes it comparable with another ([`RunInfo`]: the CPU's model name,
//! cores, SMT, kernel, strategy, version, date and operating system) and a [`Headline`] to quote
//! (solutions per second at the best thread count, and per core). Several kernels and strategies
//! can be measured together, interleaved ([`study::measure_together`]). What a study's runs say
//! about themselves (a busy machine, runs too short to mean much) is in
//! [`study::Study::warnings`].
//!
//! A study runs under a [`RunControl`](crate::RunControl) as a count does: its watcher is told
//! each run as it starts ([`Watcher::measuring`](crate::Watcher::measuring)), and its stop flag
//! ends the study, which returns the runs that finished, marked not
//! [`complete`](study::Study::complete).
//!
//! A [`series::Series`] is what a comparison of studies shows of each: one made from a study, or,
//! with the `serde` feature, deserialized from a saved study (also one saved by an earlier
//! version) and checked by [`series::Series::validated`], whose errors name the field that is
//! wrong and which recomputes what the measurements determine.
//!
//! The `nqueens scale` command draws the measured speedups (with the range of the timed runs), the
//! ideal line and the model's curve as an SVG picture.
//!
//! ```
//! use nqueens::scaling::study::{measure, StudyOptions};
//! use nqueens::{RunControl, Strategy};
//! let options = StudyOptions::new(vec![2]).with_strategy(Strategy::Mirror).with_repeat(1);
//! let study = measure(10, &options, &RunControl::default()).unwrap();
//! assert_eq!(study.runs.len(), 2);
//! assert_eq!(study.runs[0].speedup, 1.0);
//! // The model replays the one-thread task times on more workers: never above ideal.
//! assert!(study.model.iter().all(|m| m.speedup <= m.workers as f64 + 1e-9));
//! ```

pub mod check;
mod cpu;
mod info;
mod loss;
mod measured;
pub mod model;
pub mod series;
mod stats;
pub mod study;

pub use info::{Headline, RunInfo};
pub use loss::Loss;

/// The machine a study ran on: its CPU counts as the operating system reports them.
///
/// ```
/// use nqueens::scaling::Machine;
/// let here = Machine::detect();
/// assert_eq!(here.default_thread_counts().last(), Some(&here.logical));
/// let smt = Machine::new(16, 8);
/// assert_eq!(smt.default_thread_counts(), [1, 2, 4, 8, 16]);
/// assert_eq!(smt.load(8), None); // a core for each thread
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct Machine {
    /// Logical CPUs (hardware threads).
    pub logical: usize,
    /// Physical cores.
    pub physical: usize,
}

impl Machine {
    /// A machine of `logical` logical CPUs on `physical` cores (a machine other than this one:
    /// [`Machine::detect`] gives this one).
    ///
    /// ```
    /// use nqueens::scaling::Machine;
    /// let smt = Machine::new(16, 8);
    /// assert_eq!((smt.logical, smt.physical), (16, 8));
    /// ```
    #[must_use]
    pub const fn new(logical: usize, physical: usize) -> Machine {
        Machine { logical, physical }
    }

    /// The machine this program runs on.
    ///
    /// ```
    /// let machine = nqueens::scaling::Machine::detect();
    /// assert!(machine.logical >= machine.physical && machine.physical >= 1);
    /// ```
    #[must_use]
    pub fn detect() -> Machine {
        let logical = num_cpus::get().max(1);
        Machine {
            logical,
            physical: num_cpus::get_physical().clamp(1, logical),
        }
    }

    /// The most worker threads a count or a study takes on this machine: eight per logical CPU,
    /// at least 64 and at most 4096 ([`max_threads`](crate::max_threads) of the machine the
    /// program runs on). A study of this machine measured no more.
    ///
    /// ```
    /// use nqueens::scaling::Machine;
    /// assert_eq!(Machine::new(2, 2).max_threads(), 64);
    /// assert_eq!(Machine::new(32, 16).max_threads(), 256);
    /// assert_eq!(Machine::new(1024, 512).max_threads(), 4096);
    /// assert_eq!(Machine::detect().max_threads(), nqueens::max_threads());
    /// ```
    #[must_use]
    pub fn max_threads(&self) -> usize {
        crate::engine::pool::max_threads_on(self.logical)
    }

    /// How `threads` worker threads load this machine, or `None` when each gets a core of its own.
    ///
    /// ```
    /// use nqueens::scaling::{Load, Machine};
    /// let smt = Machine::new(8, 4);
    /// assert_eq!(smt.load(4), None);
    /// assert_eq!(smt.load(6), Some(Load::SharesCores));
    /// assert_eq!(smt.load(9), Some(Load::Oversubscribed));
    /// ```
    #[must_use]
    pub fn load(&self, threads: usize) -> Option<Load> {
        if threads > self.logical {
            Some(Load::Oversubscribed)
        } else if threads > self.physical {
            Some(Load::SharesCores)
        } else {
            None
        }
    }

    /// The thread counts a study measures by default on this machine: the powers of two below
    /// its logical CPUs and the count itself.
    ///
    /// ```
    /// use nqueens::scaling::Machine;
    /// let counts = |logical| Machine::new(logical, logical).default_thread_counts();
    /// assert_eq!(counts(2), [1, 2]);
    /// assert_eq!(counts(6), [1, 2, 4, 6]);
    /// assert_eq!(counts(1), [1]);
    /// ```
    #[must_use]
    pub fn default_thread_counts(&self) -> Vec<usize> {
        let logical = self.logical.max(1);
        let mut counts: Vec<usize> = std::iter::successors(Some(1usize), |&t| t.checked_mul(2))
            .take_while(|&t| t < logical)
            .collect();
        counts.push(logical);
        counts
    }
}

/// How a thread count exceeds the machine.
///
/// ```
/// use nqueens::scaling::{Load, Machine};
/// let machine = Machine::new(4, 2);
/// let note = |threads| match machine.load(threads) {
///     None => "a core each",
///     Some(Load::SharesCores) => "sharing cores",
///     Some(Load::Oversubscribed) => "time-sliced",
///     Some(_) => "loaded otherwise",
/// };
/// assert_eq!([2, 3, 5].map(note), ["a core each", "sharing cores", "time-sliced"]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
#[non_exhaustive]
pub enum Load {
    /// More threads than physical cores: some share a core (SMT), so expect less than ideal.
    SharesCores,
    /// More threads than logical CPUs: the operating system time-slices them.
    Oversubscribed,
}
