//! The search beneath [`count`](crate::count()): the plan's subproblems, one board's completions
//! counted by one kernel, and the symmetric plan's pieces — for benchmarks, experiments and
//! counters of your own.
//!
//! A [`Plan`] splits a board into weighted [`Task`](crate::Task)s; each task's
//! [`Subproblem`] is a row prefix ([`State`]) or a board with pre-placed queens on any rows
//! ([`InnerBoard`]). A [`Selected`] kernel ([`Kernel::select`]) counts
//! either; [`count_completions`] and its plainer variants count a row prefix on the calling
//! thread, without vector lanes.
//!
//! ```
//! use nqueens::search::{State, Subproblem, count_completions};
//! use nqueens::{Kernel, Plan, Strategy};
//!
//! // Every completion of the empty 8-board: the total.
//! assert_eq!(count_completions(8, State::EMPTY), Some(92));
//!
//! // The same total from the plan's tasks, each counted by the fastest kernel of this CPU.
//! let plan = Plan::new(8, Strategy::Mirror, 16).unwrap();
//! let kernel = Kernel::Auto.select().unwrap();
//! let total: u64 = plan
//!     .tasks()
//!     .iter()
//!     .map(|task| task.weight * task.subproblem.count_with(8, kernel, None).unwrap())
//!     .sum();
//! assert_eq!(total, 92);
//! # let _ = Subproblem::Rows(State::EMPTY);
//! ```

pub use crate::engine::kernel::depth_first::count_job_until;
pub use crate::engine::kernel::job::MAX_PLACED;
pub use crate::engine::kernel::{
    InnerBoard, Job, MAX_JOB_N, Selected, State, board_mask, count_completions,
    count_completions_plain, count_completions_recursive, count_completions_until, count_job,
};
pub use crate::engine::plan::symmetric::{Constellation, constellations, oriented_queens};
pub use crate::engine::plan::{DEFAULT_MIN_TASKS, LARGE_N, PLAN_VERSION, Subproblem, TaskRule};
pub use crate::engine::unique::{
    FixedCounts, UNIQUE_MAX_N, symmetric_fixed_counts, symmetric_fixed_counts_with_stop,
};

use std::time::Duration;

use crate::engine::kernel::Kernel;
use crate::engine::plan::Plan;
use crate::engine::pool::check_threads;
use crate::engine::run::{RunOptions, TaskOutcome, run};
use crate::error::Error;

/// What [`count_plan`] counted.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct PlanCount {
    /// Σ weight × count over the plan's tasks.
    pub total: u128,
    /// The kernel that counted them (never [`Kernel::Auto`]).
    pub kernel: Kernel,
    /// Wall-clock time of the run.
    pub elapsed: Duration,
    /// Every task, in plan order: its count, weight, search time and start.
    pub outcomes: Vec<TaskOutcome>,
}

/// Counts every task of a plan you made ([`Plan::new`], [`Plan::with_rule`]) on `threads`
/// workers of the process's pool with `kernel`: the run beneath [`count`](crate::count()),
/// without the journal, the shards or the unique count.
///
/// ```
/// use nqueens::search::count_plan;
/// use nqueens::{Kernel, Plan, Strategy};
/// let plan = Plan::new(10, Strategy::Mirror, 64).unwrap();
/// let counted = count_plan(&plan, 2, Kernel::Auto).unwrap();
/// assert_eq!((counted.total, counted.outcomes.len()), (724, plan.tasks().len()));
/// ```
pub fn count_plan(plan: &Plan, threads: usize, kernel: Kernel) -> Result<PlanCount, Error> {
    check_threads(threads)?;
    let options = RunOptions {
        kernel: kernel.select()?,
        ..RunOptions::with_threads(threads)
    };
    let report = run(plan, &options)?;
    Ok(PlanCount {
        total: report.total,
        kernel: report.kernel,
        elapsed: report.elapsed,
        outcomes: report.outcomes,
    })
}
