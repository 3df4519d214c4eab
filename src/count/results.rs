//! What a count gives back.

use std::time::Duration;

use crate::Kernel;
use crate::journal::Shard;

/// The solution counts of one board.
///
/// ```
/// use nqueens::{count, CountOptions, Kernel, Strategy};
/// let counts: nqueens::Counts = count(8, &CountOptions::new(2, Strategy::Symmetric)).unwrap();
/// assert_eq!((counts.n, counts.total, counts.unique), (8, 92, Some(12)));
/// assert!(counts.tasks >= 1);
/// assert_ne!(counts.kernel, Kernel::Auto); // the kernel that ran, not the choice
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Counts {
    /// Board side.
    pub n: u32,
    /// All solutions (OEIS A000170).
    pub total: u128,
    /// Solutions distinct under the 8 symmetries of the square (OEIS A002562), from the total by
    /// Burnside's lemma; `None` when the total is not the whole board's (a
    /// stopped run, a shard).
    pub unique: Option<u128>,
    /// Number of tasks the board was split into.
    pub tasks: usize,
    /// The kernel that counted the tasks (never [`Kernel::Auto`]).
    pub kernel: Kernel,
    /// Wall-clock time of the search (planning included).
    pub elapsed: Duration,
}

/// The result of [`count_with`](crate::count_with).
///
/// ```
/// use nqueens::journal::Shard;
/// use nqueens::{count_with, CountOptions, RunControl, Strategy};
/// let options = CountOptions::new(2, Strategy::Symmetric);
/// let whole = count_with(8, &options, &RunControl::default()).unwrap();
/// assert!(whole.complete);
/// assert_eq!((whole.counts.total, whole.counts.unique), (92, Some(12)));
/// assert_eq!((whole.shard, whole.plan_tasks), (Shard::WHOLE, whole.counts.tasks));
/// assert_eq!((whole.searched_tasks, whole.resumed_tasks), (whole.counts.tasks, 0));
///
/// // One shard of two: part of the plan, part of the total, no unique count.
/// let control = RunControl { shard: Some(Shard::new(0, 2).unwrap()), ..RunControl::default() };
/// let half = count_with(8, &options, &control).unwrap();
/// assert_eq!((half.fingerprint, half.plan_tasks), (whole.fingerprint, whole.plan_tasks));
/// assert!(half.counts.tasks < half.plan_tasks && half.counts.total < 92);
/// assert_eq!(half.counts.unique, None);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CountRun {
    /// The counts. When the run is not `complete`, `total` sums only the finished tasks and
    /// `unique` is `None` (it is derived from the whole total). For a shard, `total` is the
    /// shard's part, `unique` is `None` and `tasks` is the shard's task count.
    pub counts: Counts,
    /// The plan's fingerprint ([`Plan::fingerprint`](crate::Plan::fingerprint)).
    pub fingerprint: u64,
    /// Tasks in the whole plan (more than `counts.tasks` for a shard).
    pub plan_tasks: usize,
    /// The part of the plan counted ([`Shard::WHOLE`] without a shard).
    pub shard: Shard,
    /// Whether every task finished (false when the stop flag ended the run early).
    pub complete: bool,
    /// Tasks taken from the journal instead of searched.
    pub resumed_tasks: usize,
    /// The part of `counts.total` that the tasks taken from the journal contribute (this
    /// run did not search it).
    pub resumed_total: u128,
    /// Tasks searched by this run.
    pub searched_tasks: usize,
    /// Time the workers spent searching, summed over tasks (the work an interrupt without a
    /// journal loses).
    pub search_time: Duration,
}
