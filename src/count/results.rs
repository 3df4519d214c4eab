//! What a count gives back.

use std::time::Duration;

use crate::engine::kernel::Kernel;
use crate::engine::plan::{Fingerprint, Strategy};
use crate::journal::{Shard, Spent};

/// The solution counts of one board.
///
/// ```
/// use nqueens::{count, CountOptions, Kernel, Strategy};
/// let counts: nqueens::Counts = count(8, &CountOptions::new(2, Strategy::Symmetric)).unwrap();
/// assert_eq!((counts.n, counts.total, counts.unique), (8, 92, Some(12)));
/// assert!(counts.tasks >= 1);
/// assert_ne!(counts.kernel, Kernel::Auto); // the kernel that ran, not the choice
/// assert_eq!(counts.strategy, Strategy::Symmetric);
/// // The threads that ran: a board this small is searched on the calling thread alone.
/// assert_eq!(counts.threads, 1);
/// let larger = count(12, &CountOptions::new(2, Strategy::Symmetric)).unwrap();
/// assert_eq!((larger.total, larger.threads), (14_200, 2));
/// ```
///
/// With the `serde` feature it is written as one object of its eight fields, under their
/// names (`wall_time` as a number of seconds):
///
/// ```
/// # #[cfg(feature = "serde")] {
/// use nqueens::{count, CountOptions, Strategy};
/// let counts = count(12, &CountOptions::new(2, Strategy::Symmetric)).unwrap();
/// let json = serde_json::to_value(&counts).unwrap();
/// let seconds = counts.wall_time.as_secs_f64();
/// let kernel = counts.kernel.name();
/// assert_eq!(json, serde_json::json!({
///     "n": 12, "total": 14_200, "unique": 1_787, "wall_time": seconds, "threads": 2,
///     "strategy": "symmetric", "kernel": kernel, "tasks": counts.tasks,
/// }));
/// assert_eq!(serde_json::from_value::<nqueens::Counts>(json).unwrap(), counts);
/// # }
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct Counts {
    /// Board size.
    pub n: u32,
    /// All solutions (OEIS A000170).
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_util::count"))]
    pub total: u128,
    /// Solutions distinct under the 8 symmetries of the square (OEIS A002562), from the total by
    /// Burnside's lemma; `None` when the total is not the whole board's (a stopped run, a
    /// shard), and for a board above [`Counts::UNIQUE_MAX_N`](crate::Counts::UNIQUE_MAX_N) unless its options
    /// ask for it ([`CountOptions::unique_above_bound`](crate::CountOptions::unique_above_bound)).
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_util::count::optional"))]
    pub unique: Option<u128>,
    /// Wall time: the clock time of the count, planning included (a number of seconds in
    /// serde's output).
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_util::seconds"))]
    pub wall_time: Duration,
    /// Worker threads the count ran on: the workers of its pool (of
    /// [`CountOptions::threads`](crate::CountOptions::threads) workers, or of the pool given in
    /// [`RunControl::pool`](crate::RunControl::pool), whose size wins), or 1 where it searched
    /// on the calling thread alone (a board up to n = 10 without a pool, one thread, or a count
    /// called from a worker of its pool: see [`RunControl::pool`](crate::RunControl::pool)).
    pub threads: usize,
    /// How the board was split into tasks.
    pub strategy: Strategy,
    /// The kernel that counted the tasks (never [`Kernel::Auto`]).
    pub kernel: Kernel,
    /// Number of tasks the board was split into (a shard's own tasks for a shard).
    pub tasks: usize,
}

impl Counts {
    /// The largest board whose unique count is computed by default: the last board of the known
    /// table ([`Known::MAX_N`](crate::known::Known::MAX_N)), whose symmetric searches take some
    /// seconds on one core (5 s at `n = 26`). Each two rows more multiply their cost by about ten
    /// (about a minute at `n = 28`, some ten minutes at `n = 30`), so above this size
    /// [`unique_from_total`](crate::unique_from_total) and the unique count's searches refuse with
    /// [`Error::UniqueBeyondReach`](crate::Error::UniqueBeyondReach), a merge leaves its unique count out, and so does a count
    /// unless its options ask for it
    /// ([`CountOptions::unique_above_bound`](crate::CountOptions::unique_above_bound)).
    ///
    /// ```
    /// use nqueens::{Counts, unique_from_total};
    /// assert_eq!(Counts::UNIQUE_MAX_N, nqueens::known::Known::MAX_N);
    /// assert!(unique_from_total(Counts::UNIQUE_MAX_N + 1, 8).is_err());
    /// ```
    pub const UNIQUE_MAX_N: u32 = crate::engine::unique::UNIQUE_MAX_N;

    /// Checks the counts against the known table ([`crate::known`]): a whole board's total and
    /// unique count, or a part's total alone (`unique` is `None`: a stopped run, a shard) is
    /// not checked. `Ok` for a board beyond the table (n > 27). A count resumed from a journal
    /// is only as right as the journal: a damaged or altered one (its checksums recomputed)
    /// gives a wrong total, which this check catches for every board the table holds.
    ///
    /// # Errors
    ///
    /// A [`Mismatch`](crate::known::Mismatch) holding the counts and the table's when they differ.
    ///
    /// ```
    /// use nqueens::{count, CountOptions, Strategy};
    /// let mut counts = count(8, &CountOptions::new(2, Strategy::Mirror)).unwrap();
    /// assert_eq!(counts.check_known(), Ok(()));
    /// counts.total += 8;
    /// let wrong = counts.check_known().unwrap_err();
    /// assert_eq!((wrong.total, wrong.known.total), (100, 92));
    ///
    /// // `?` makes it an `Error::KnownMismatch`.
    /// fn checked(counts: &nqueens::Counts) -> Result<u128, nqueens::Error> {
    ///     counts.check_known()?;
    ///     Ok(counts.total)
    /// }
    /// assert!(matches!(checked(&counts), Err(nqueens::Error::KnownMismatch(_))));
    /// ```
    pub fn check_known(&self) -> Result<(), crate::known::Mismatch> {
        let Some(unique) = self.unique else {
            return Ok(());
        };
        crate::known::Mismatch::of(self.n, self.total, Some(unique)).map_or(Ok(()), Err)
    }
}

/// The result of [`count_with`](crate::count_with): the [`Counts`], and what the run knows
/// beside them (the plan, the shard, the journal, the time its workers spent).
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
/// let control = RunControl::default().with_shard(Shard::new(0, 2).unwrap());
/// let half = count_with(8, &options, &control).unwrap();
/// assert_eq!((half.fingerprint, half.plan_tasks), (whole.fingerprint, whole.plan_tasks));
/// assert!(half.counts.tasks < half.plan_tasks && half.counts.total < 92);
/// assert_eq!(half.counts.unique, None);
/// ```
///
/// With the `serde` feature it is written as one flat object, each field under its name: the
/// fields of [`Counts`], then `resumed_tasks`, `resumed_total`, `fingerprint` (16 hex digits),
/// `core_time` (a number of seconds), `plan_tasks`, `shard` (`"K/M"`), `complete` and
/// `searched_tasks` (and `gpu`, an object, for a GPU kernel). `earlier_runs` and `abandoned_tasks`
/// are not written.
///
/// ```
/// # #[cfg(feature = "serde")] {
/// use nqueens::{count_with, CountOptions, RunControl, Strategy};
/// let run = count_with(8, &CountOptions::new(2, Strategy::Mirror), &RunControl::default()).unwrap();
/// let json = serde_json::to_value(&run).unwrap();
/// assert_eq!((json["total"].as_u64(), json["shard"].as_str()), (Some(92), Some("0/1")));
/// assert_eq!(json["fingerprint"], run.fingerprint.to_string());
/// assert_eq!(json["core_time"], run.core_time.as_secs_f64());
/// assert_eq!(serde_json::from_value::<nqueens::CountRun>(json).unwrap(), run);
/// # }
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct CountRun {
    /// The counts. When the run is not `complete`, `total` sums only the finished tasks and
    /// `unique` is `None` (it is derived from the whole total). For a shard, `total` is the
    /// shard's part, `unique` is `None` and `tasks` is the shard's task count. Written flat,
    /// beside the run's own fields, by serde.
    #[cfg_attr(feature = "serde", serde(flatten))]
    pub counts: Counts,
    /// Tasks taken from the journal instead of searched.
    pub resumed_tasks: usize,
    /// The part of `counts.total` that the tasks taken from the journal contribute (this
    /// run did not search it).
    pub resumed_total: u128,
    /// The plan's fingerprint ([`Plan::fingerprint`](crate::Plan::fingerprint)).
    pub fingerprint: Fingerprint,
    /// Core time: the time the workers spent searching, summed over the tasks this run
    /// searched and those a stop abandoned (the work an interrupt without a journal loses; with
    /// one, only the abandoned tasks' part); a number of seconds in serde's output.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_util::seconds"))]
    pub core_time: Duration,
    /// Tasks in the whole plan (more than `counts.tasks` for a shard).
    pub plan_tasks: usize,
    /// The part of the plan counted ([`Shard::WHOLE`] without a shard).
    pub shard: Shard,
    /// Whether every task finished (false when the stop flag ended the run early).
    pub complete: bool,
    /// Tasks searched by this run.
    pub searched_tasks: usize,
    /// Tasks a stop abandoned part-way: a raised stop flag ends the searches under way
    /// within a millisecond or so, so these tasks are not in `counts.total`, in
    /// `searched_tasks` or in the journal, and a resumed count searches them again from the
    /// start (their time is in `core_time`). At most one per worker; 0 for a run that was not
    /// stopped, or that a stop reached between tasks, and for a GPU kernel's run (a stop drops
    /// its batches in flight alike, uncounted). Not written by serde.
    #[cfg_attr(feature = "serde", serde(skip))]
    pub abandoned_tasks: usize,
    /// The time the journal's earlier runs of this count took and searched, as its time records
    /// hold it when this run began (zero runs for a new journal); `None` without a journal, or
    /// for a journal of an older format that holds tasks but no time. Not written by serde.
    #[cfg_attr(feature = "serde", serde(skip))]
    pub earlier_runs: Option<Spent>,
    /// What the GPU and the CPU each did, for a GPU kernel (`None` for a CPU kernel); with the
    /// `serde` feature an object `gpu`, left out when `None`.
    #[cfg(feature = "gpu")]
    #[cfg_attr(docsrs, doc(cfg(feature = "gpu")))]
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub gpu: Option<crate::engine::gpu_run::DeviceShare>,
}

impl CountRun {
    /// This run's time as a journal's time records hold one run: its wall time and its core
    /// time.
    ///
    /// ```
    /// use nqueens::{count_with, CountOptions, RunControl, Strategy};
    /// let run = count_with(8, &CountOptions::new(1, Strategy::Mirror), &RunControl::default()).unwrap();
    /// let spent = run.spent();
    /// assert_eq!((spent.runs, spent.wall_time, spent.core_time), (1, run.counts.wall_time, run.core_time));
    /// ```
    #[must_use]
    pub fn spent(&self) -> Spent {
        Spent::new(1, self.counts.wall_time, self.core_time)
    }
}
