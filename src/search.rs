//! The search beneath [`count`](crate::count()): the plan's subproblems, one board's completions
//! counted by one kernel, and the symmetric plan's pieces — for benchmarks, experiments and
//! counters of your own.
//!
//! A [`Plan`] splits a board into weighted [`Task`](crate::Task)s; each task's
//! [`Subproblem`] is a row prefix ([`State`]) or a board with pre-placed queens on any rows
//! ([`InnerBoard`]). Any [`Kernel`] counts either ([`Subproblem::count_with`]), and
//! [`Subproblem::nodes`] says how much searching that takes; [`State::completions`] counts a row
//! prefix on the calling thread, without vector lanes, and [`Plan::count`] counts every task of a
//! plan.
//!
//! [`Kernel`]: crate::Kernel
//!
//! ```
//! use nqueens::search::{State, Subproblem};
//! use nqueens::{Kernel, Plan, Strategy};
//!
//! // Every completion of the empty 8-board: the total.
//! assert_eq!(State::EMPTY.completions(8), Some(92));
//!
//! // The same total from the plan's tasks, each counted by the depth-first kernel.
//! let plan = Plan::new(8, Strategy::Mirror, 16).unwrap();
//! let total: u64 = plan
//!     .tasks()
//!     .map(|task| {
//!         let count = task.subproblem.count_with(8, Kernel::DepthFirst).unwrap();
//!         task.weight * count.expect("a task of the 8-board")
//!     })
//!     .sum();
//! assert_eq!(total, 92);
//! # let _ = Subproblem::Rows(State::EMPTY);
//! ```

pub use crate::engine::kernel::{InnerBoard, State};
pub use crate::engine::plan::Subproblem;

use crate::count::Counts;
use crate::engine::kernel::Kernel;
use crate::engine::plan::Plan;
use crate::engine::pool::check_threads;
use crate::engine::run::{RunOptions, TaskOutcome, run};
use crate::error::Error;

impl Plan {
    /// Counts every task of this plan ([`Plan::new`], [`Plan::split_large`]) on `threads`
    /// workers of the process's pool with `kernel`: the run beneath [`count`](crate::count()),
    /// without the journal, the shards or the unique count.
    ///
    /// # Errors
    ///
    /// [`Error::KernelUnavailable`] for a kernel this CPU does not run (and, with the `gpu` feature,
    /// `Error::Gpu` for a GPU kernel without a GPU that opens); [`Error::TooManyThreads`] for more
    /// threads than [`max_threads`](crate::max_threads) allows, [`Error::ThreadPool`] when the worker
    /// threads cannot start; [`Error::Overflow`] for a total beyond `u128`.
    ///
    /// It returns the count's record, as [`count`](crate::count()) writes it but without the
    /// unique count (`None`: a plan made by hand may be any board's part), and every task's
    /// outcome in plan order: its count, weight, search time and start.
    ///
    /// ```
    /// use nqueens::{Kernel, Plan, Strategy};
    /// let plan = Plan::new(10, Strategy::Mirror, 64).unwrap();
    /// let (counts, outcomes) = plan.count(2, Kernel::Auto).unwrap();
    /// assert_eq!((counts.total, counts.unique), (724, None));
    /// assert_eq!((counts.tasks, outcomes.len()), (plan.tasks().len(), plan.tasks().len()));
    /// assert_ne!(counts.kernel, Kernel::Auto);
    /// ```
    pub fn count(
        &self,
        threads: usize,
        kernel: Kernel,
    ) -> Result<(Counts, Vec<TaskOutcome>), Error> {
        check_threads(threads)?;
        let options = RunOptions {
            kernel: kernel.select()?,
            ..RunOptions::with_threads(threads)
        };
        let report = run(self, &options)?;
        let counts = Counts {
            n: self.n(),
            total: report.total,
            unique: None,
            wall_time: report.elapsed,
            threads: report.threads,
            strategy: self.strategy(),
            kernel: report.kernel,
            tasks: self.tasks().len(),
        };
        Ok((counts, report.outcomes))
    }
}
