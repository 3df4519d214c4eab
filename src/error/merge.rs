//! Why journals or runs cannot be merged ([`MergeError`]): the shards that lack tasks
//! ([`Missing`]) and how a plan differs from this build's ([`PlanDifference`]).

use std::fmt;
use std::path::PathBuf;

use super::journal::Damage;
use super::names::UnknownName;
use crate::ids::{Fingerprint, Header, MAX_N, PLAN_VERSION, Shard, Strategy, TaskId};

/// A shard that lacks tasks.
///
/// [`MergeError::Incomplete`] lists them; each displays as the shard and what it lacks.
///
/// ```
/// use nqueens::journal::{Missing, Shard};
/// let shard = Shard::new(1, 4).unwrap();
/// let partly = Missing::new(shard, 3, 10);
/// assert_eq!(partly.to_string(), "shard 1/4 (3 of 10 tasks missing)");
/// let nothing = Missing::new(shard, 10, 10);
/// assert_eq!(nothing.to_string(), "shard 1/4 (nothing recorded)");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Missing {
    /// The shard.
    pub shard: Shard,
    /// Its tasks that no journal records.
    pub missing: usize,
    /// Its tasks.
    pub tasks: usize,
}

impl fmt::Display for Missing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.missing == self.tasks {
            write!(f, "{} (nothing recorded)", self.shard.describe())
        } else {
            write!(
                f,
                "{} ({} of {} tasks missing)",
                self.shard.describe(),
                self.missing,
                self.tasks
            )
        }
    }
}

/// Why journals or runs cannot be merged, when they can be read: [`merge`](crate::journal::merge())
/// and [`Merged::from_runs`](crate::journal::Merged::from_runs) return it inside
/// [`Error::Merge`](crate::Error::Merge). A journal that cannot be read, or is damaged, is
/// [`Error::Journal`](crate::Error::Journal), as it is for a count.
///
/// ```
/// use nqueens::journal::{merge, MergeError, Shard};
/// use nqueens::{count_with, CountOptions, Error, RunControl, Strategy};
/// let name = format!("nqueens-doc-merge-error-{}", std::process::id());
/// let dir = std::env::temp_dir().join(name);
/// let _ = std::fs::remove_dir_all(&dir);
/// std::fs::create_dir_all(&dir).unwrap();
/// let no_files: [&std::path::Path; 0] = [];
/// let Err(Error::Merge(error)) = merge(&no_files) else { panic!() };
/// assert!(matches!(*error, MergeError::NoJournals));
/// assert_eq!(error.to_string(), "no journals to merge");
///
/// // Shard 0 of 2 alone: shard 1 is missing, so there is no total.
/// let file = dir.join("n8-0of2.ckpt");
/// let shard = Shard::new(0, 2).unwrap();
/// let control = RunControl::default().with_journal(&file).with_shard(shard);
/// count_with(8, &CountOptions::new(2, Strategy::Mirror), &control).unwrap();
/// let Err(Error::Merge(error)) = merge(&[&file]) else { panic!() };
/// let MergeError::Incomplete { n, strategy, count, missing } = *error else {
///     panic!("shard 1/2 is missing");
/// };
/// assert_eq!((n, strategy, count, missing.len()), (8, Strategy::Mirror, 2, 1));
/// assert_eq!(missing[0].shard, Shard::new(1, 2).unwrap());
/// assert_eq!(missing[0].missing, missing[0].tasks);
/// std::fs::remove_dir_all(&dir).unwrap();
/// ```
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum MergeError {
    /// No journal was given.
    #[error("no journals to merge")]
    NoJournals,
    /// Two journals belong to different counts.
    #[error(
        "{} and {} belong to different counts and cannot be merged: {} records {first}, {} records {second}",
        .first_path.display(), .second_path.display(), .first_path.display(), .second_path.display()
    )]
    Different {
        /// The first journal.
        first_path: PathBuf,
        /// What it records.
        first: Box<Header>,
        /// The journal that differs from it.
        second_path: PathBuf,
        /// What that one records.
        second: Box<Header>,
    },
    /// The journals were made by a plan this build does not make.
    #[error("{}: {why}; merge with the nqueens version that counted it", .path.display())]
    OtherPlan {
        /// A journal of that plan.
        path: PathBuf,
        /// How the plans differ.
        why: PlanDifference,
    },
    /// A record that does not belong where it is: a task of no plan or of another shard, or a
    /// count the task cannot have.
    #[error("{} is corrupt at byte {offset}: {damage}", .path.display())]
    Stray {
        /// The journal.
        path: PathBuf,
        /// Where the record starts.
        offset: u64,
        /// What is wrong with it.
        damage: Damage,
    },
    /// One task recorded with two different counts.
    #[error(
        "task {id} is recorded with count {first} in {} but {second} in {}: \
         one of them is wrong; recount that shard into a new file",
        .first_path.display(), .second_path.display()
    )]
    Conflict {
        /// The task.
        id: TaskId,
        /// The first count seen.
        first: u64,
        /// Where.
        first_path: PathBuf,
        /// The other count.
        second: u64,
        /// Where.
        second_path: PathBuf,
    },
    /// Tasks are missing: the named shards are incomplete (the message names the first
    /// [`MergeError::NAMED`] of them and counts the rest).
    #[error(
        "incomplete: {} of {count} shards lack tasks: {}; run them (again) and merge again; no total",
        .missing.len(),
        first_named(.missing)
    )]
    Incomplete {
        /// The board of the count.
        n: u32,
        /// The strategy of its plan.
        strategy: Strategy,
        /// The shard count.
        count: u32,
        /// The incomplete shards.
        missing: Vec<Missing>,
    },
    /// No run was given ([`Merged::from_runs`](crate::journal::Merged::from_runs)).
    #[error("no runs to merge")]
    NoRuns,
    /// Two runs belong to different counts
    /// ([`Merged::from_runs`](crate::journal::Merged::from_runs); runs are numbered from 0).
    #[error(
        "runs {first} and {second} belong to different counts and cannot be merged: \
         run {first} counted {first_count}, run {second} counted {second_count}"
    )]
    DifferentRuns {
        /// The first run.
        first: usize,
        /// What it counted.
        first_count: Box<Header>,
        /// The run that differs from it.
        second: usize,
        /// What that one counted.
        second_count: Box<Header>,
    },
    /// A run names a plan this build does not make, or a shard or task count its plan does not
    /// have ([`Merged::from_runs`](crate::journal::Merged::from_runs)).
    #[error("run {run}: {why}")]
    RunOfOtherPlan {
        /// The run.
        run: usize,
        /// How its plan differs.
        why: PlanDifference,
    },
    /// One shard counted twice with two different totals
    /// ([`Merged::from_runs`](crate::journal::Merged::from_runs)).
    #[error(
        "{} is counted with total {first} in run {first_run} but {second} in run \
         {second_run}: one of them is wrong; count it again",
        shard.describe()
    )]
    ShardConflict {
        /// The shard.
        shard: Shard,
        /// The first total seen.
        first: u128,
        /// Its run.
        first_run: usize,
        /// The other total.
        second: u128,
        /// Its run.
        second_run: usize,
    },
}

impl MergeError {
    /// How many incomplete shards [`MergeError::Incomplete`] names in its message; the rest are
    /// counted (all of them are in its `missing`).
    ///
    /// ```
    /// use nqueens::journal::{MergeError, Missing, Shard};
    /// use nqueens::Strategy;
    /// let missing: Vec<Missing> = (1..1000)
    ///     .map(|k| Missing::new(Shard::new(k, 1000).unwrap(), 1, 1))
    ///     .collect();
    /// let (n, strategy, count) = (20, Strategy::Symmetric, 1000);
    /// let text = MergeError::Incomplete { n, strategy, count, missing }.to_string();
    /// assert!(text.starts_with("incomplete: 999 of 1000 shards lack tasks: shard 1/1000 ("));
    /// assert!(text.contains("shard 3/1000 (nothing recorded) and 996 more; run them"));
    /// assert!(text.len() < 250);
    /// ```
    pub const NAMED: usize = 3;
}

/// The first [`MergeError::NAMED`] incomplete shards, and how many more there are.
fn first_named(missing: &[Missing]) -> String {
    let named: Vec<String> = missing
        .iter()
        .take(MergeError::NAMED)
        .map(ToString::to_string)
        .collect();
    let mut text = named.join(", ");
    if missing.len() > MergeError::NAMED {
        text.push_str(&format!(" and {} more", missing.len() - MergeError::NAMED));
    }
    text
}

/// How the plan a journal names differs from the plans this build makes.
///
/// [`merge`](crate::journal::merge()) reports it inside [`MergeError::OtherPlan`], with the
/// journal's path.
///
/// ```
/// use nqueens::journal::PlanDifference;
/// use nqueens::{Plan, Strategy};
/// let unknown = "spiral".parse::<Strategy>().unwrap_err();
/// assert_eq!(PlanDifference::Strategy(unknown).to_string(), "its strategy 'spiral' is unknown");
/// assert_eq!(
///     PlanDifference::Board { n: 65 }.to_string(),
///     "its board cannot be planned (n = 65 is too large: the largest board is 64 x 64)"
/// );
/// ```
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum PlanDifference {
    /// Another plan version.
    #[error(
        "it was counted under plan version {0}, this nqueens makes version {current}",
        current = PLAN_VERSION
    )]
    Version(u32),
    /// A strategy this build does not know.
    #[error("its strategy '{}' is unknown", .0.name)]
    Strategy(UnknownName),
    /// A board this build cannot plan (wider than [`MAX_N`](crate::Plan::MAX_N)).
    #[error(
        "its board cannot be planned (n = {n} is too large: the largest board is {MAX_N} x {MAX_N})"
    )]
    Board {
        /// The board the journal names.
        n: u32,
    },
    /// A shard the plan does not have, or a shard's task count that is not its shard's in
    /// the plan (a run that was edited or is of another build).
    #[error(
        "its {} holds {tasks} tasks, not the {planned} of that part of the plan",
        shard.describe()
    )]
    ShardTasks {
        /// The shard.
        shard: Shard,
        /// The task count the run names.
        tasks: usize,
        /// The shard's tasks in the plan (0 for a shard the plan does not have).
        planned: usize,
    },
    /// Another task list.
    #[error(
        "it was counted under the plan with fingerprint {counted} ({counted_tasks} tasks), this \
         nqueens makes fingerprint {made} ({made_tasks} tasks)"
    )]
    Tasks {
        /// The fingerprint in the journal.
        counted: Fingerprint,
        /// The task count in the journal.
        counted_tasks: u64,
        /// The fingerprint of the plan this build makes.
        made: Fingerprint,
        /// That plan's task count.
        made_tasks: usize,
    },
}
