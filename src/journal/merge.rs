//! Adding up shard journals into the total of a board.
//!
//! [`merge`] reads the journals of a sharded count ([`super::shard`], [`crate::journal`])
//! and returns the board's total and unique counts, or refuses. It refuses everything that could
//! make a wrong number: an unreadable or damaged journal, journals of different boards, plans or
//! shardings, a plan this build does not make, a record that is not a task of the plan or of its
//! journal's shard, and one task recorded with two different counts. Identical records of the
//! same task (a shard run twice) are fine. When tasks are missing it names the incomplete shards
//! and gives no total.

use std::path::Path;
use std::time::Duration;

use super::bound;
use super::shard::Shard;
use super::{Damage, Header, Spent, read, read_header};
use crate::engine::plan::{Fingerprint, Plan, Strategy, default_plan};
use crate::error::Error;
pub use crate::error::merge::{MergeError, Missing, PlanDifference};
use crate::names::Named;

/// The result of a successful merge.
///
/// ```
/// use nqueens::journal::{merge, Shard};
/// use nqueens::{count_with, CountOptions, RunControl, Strategy};
/// let name = format!("nqueens-doc-merged-{}", std::process::id());
/// let dir = std::env::temp_dir().join(name);
/// let _ = std::fs::remove_dir_all(&dir);
/// std::fs::create_dir_all(&dir).unwrap();
/// let options = CountOptions::new(2, Strategy::Mirror);
/// let mut files = Vec::new();
/// let mut runs = Vec::new();
/// for k in 0..2 {
///     let file = dir.join(format!("n8-{k}of2.ckpt"));
///     let shard = Shard::new(k, 2).unwrap();
///     let control = RunControl::default().with_journal(&file).with_shard(shard);
///     runs.push(count_with(8, &options, &control).unwrap());
///     files.push(file);
/// }
/// let merged = merge(&files).unwrap();
/// assert_eq!((merged.n, merged.strategy), (8, Strategy::Mirror));
/// assert_eq!((merged.fingerprint, merged.tasks), (runs[0].fingerprint, runs[0].plan_tasks));
/// assert_eq!((merged.shards, merged.journals), (2, 2));
/// assert_eq!(merged.total, runs[0].counts.total + runs[1].counts.total);
/// assert_eq!((merged.total, merged.unique), (92, Some(12)));
/// std::fs::remove_dir_all(&dir).unwrap();
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct Merged {
    /// Board size.
    pub n: u32,
    /// All solutions.
    pub total: u128,
    /// Solutions distinct under the 8 symmetries, from the total ([`crate::unique_from_total`]):
    /// there for every board up to [`Counts::UNIQUE_MAX_N`](crate::Counts::UNIQUE_MAX_N), since a merge adds up
    /// a whole board, and `None` above it, where the searches it needs are beyond reach (as
    /// [`Counts::unique`](crate::Counts::unique), which also lacks it for a part of a board).
    pub unique: Option<u128>,
    /// The plan's strategy.
    pub strategy: Strategy,
    /// Tasks in the plan (every one of them recorded).
    pub tasks: usize,
    /// How many shards the plan was split into.
    pub shards: u32,
    /// Journals read (0 for a merge of runs in memory, [`Merged::from_runs`]).
    pub journals: usize,
    /// The plan's fingerprint.
    pub fingerprint: Fingerprint,
    /// Each journal's shard and the time its runs recorded (`None` for a journal of an older
    /// format, without time records), in shard order (a merge of runs: each run's own); empty
    /// where a saved record lacks them.
    /// Serialized as one object per journal: `{"shard": "1/4", "runs": 1, "wall_time": 12.5,
    /// "core_time": 24.8}` (seconds; `null` without time records).
    #[cfg_attr(feature = "serde", serde(default, with = "parts"))]
    pub parts: Vec<(Shard, Option<Spent>)>,
    /// The core time of the parts, summed: what the whole count cost in worker time (the
    /// parts' [`Spent::core_time`]).
    #[cfg_attr(feature = "serde", serde(default, with = "crate::serde_util::seconds"))]
    pub core_time: Duration,
}

impl Missing {
    /// `shard`, of whose `tasks` tasks `missing` are recorded nowhere.
    ///
    /// ```
    /// use nqueens::journal::{Missing, Shard};
    /// let missing = Missing::new(Shard::new(1, 4).unwrap(), 3, 10);
    /// assert_eq!((missing.missing, missing.tasks), (3, 10));
    /// ```
    #[must_use]
    pub const fn new(shard: Shard, missing: usize, tasks: usize) -> Missing {
        Missing {
            shard,
            missing,
            tasks,
        }
    }
}

/// Merges the shard journals at `paths` (see the module documentation).
///
/// # Errors
///
/// [`Error::Journal`](crate::Error::Journal) for a journal that cannot be read or is damaged (as a
/// count would find it), [`Error::Merge`](crate::Error::Merge) for journals that cannot be merged
/// ([`MergeError`]: none given, of different counts or of a plan this build does not make, a record
/// that belongs to no shard, a task with two counts, missing tasks), and
/// [`Error::Overflow`](crate::Error::Overflow) or
/// [`Error::Inconsistent`](crate::Error::Inconsistent) when the counts do not add up to a board's
/// total.
///
/// ```
/// use nqueens::{count_with, CountOptions, RunControl, Strategy};
/// use nqueens::journal::Shard;
/// let dir = std::env::temp_dir().join(format!("nqueens-doc-merge-{}", std::process::id()));
/// let _ = std::fs::remove_dir_all(&dir);
/// std::fs::create_dir_all(&dir).unwrap();
/// let options = CountOptions::new(2, Strategy::Symmetric);
/// let mut files = Vec::new();
/// for k in 0..3 {
///     let file = dir.join(format!("shard{k}.ckpt"));
///     let shard = Shard::new(k, 3).unwrap();
///     let control = RunControl::default().with_journal(&file).with_shard(shard);
///     count_with(10, &options, &control).unwrap();
///     files.push(file);
/// }
/// let merged = nqueens::journal::merge(&files).unwrap();
/// assert_eq!((merged.total, merged.unique), (724, Some(92)));
/// std::fs::remove_dir_all(&dir).unwrap();
/// ```
pub fn merge(paths: &[impl AsRef<Path>]) -> Result<Merged, Error> {
    // First what every file is: its header alone (one file open at a time, so that a thousand
    // shards need no thousand descriptors).
    let mut headers = Vec::with_capacity(paths.len());
    for path in paths {
        headers.push(read_header(path.as_ref())?);
    }
    let (Some(first_path), Some(first)) = (paths.first().map(AsRef::as_ref), headers.first())
    else {
        return Err(MergeError::NoJournals.into());
    };
    let different = |path: &Path, header: &Header| MergeError::Different {
        first_path: first_path.to_path_buf(),
        first: Box::new(first.clone()),
        second_path: path.to_path_buf(),
        second: Box::new(header.clone()),
    };
    for (path, header) in paths.iter().zip(&headers).skip(1) {
        if !same_count(first, header) {
            return Err(different(path.as_ref(), header).into());
        }
    }
    let plan = rebuild_plan(first_path, first)?;
    let count = first.shard.count();
    let position = plan.id_index();
    // Each task's count and the journal that gave it first.
    let mut counted: Vec<Option<(u64, usize)>> = vec![None; plan.tasks().len()];
    let mut parts = Vec::with_capacity(paths.len());
    for (j, (path, expected)) in paths.iter().zip(&headers).enumerate() {
        let path = path.as_ref();
        // The records, no more than the plan has tasks (the header's task count is the plan's).
        let (header, replay) = read(path, first.tasks)?;
        if header != *expected {
            // Replaced since its header was read.
            return Err(different(path, &header).into());
        }
        parts.push((header.shard, replay.spent));
        for record in &replay.records {
            let stray = |damage: Damage| MergeError::Stray {
                path: path.to_path_buf(),
                offset: record.offset,
                damage,
            };
            let Some(p) = position.position(&record.id) else {
                return Err(stray(Damage::NotInPlan(record.id)).into());
            };
            if !header.shard.contains(p) {
                return Err(stray(Damage::NotInShard(record.id, header.shard)).into());
            }
            bound::check(&plan, p, record).map_err(stray)?;
            match counted[p] {
                None => counted[p] = Some((record.count, j)),
                Some((c, _)) if c == record.count => {}
                Some((c, other)) => {
                    return Err(MergeError::Conflict {
                        id: record.id,
                        first: c,
                        first_path: paths[other].as_ref().to_path_buf(),
                        second: record.count,
                        second_path: path.to_path_buf(),
                    }
                    .into());
                }
            }
        }
    }
    let missing = missing_shards(&counted, count);
    if !missing.is_empty() {
        return Err(incomplete(&plan, count, missing).into());
    }
    let mut total: u128 = 0;
    for (task, c) in plan.tasks().zip(&counted) {
        let Some((c, _)) = *c else {
            // Not met: a task without a count leaves its shard missing, refused above.
            let missing = missing_shards(&counted, count);
            return Err(incomplete(&plan, count, missing).into());
        };
        total = u128::from(c)
            .checked_mul(u128::from(task.weight))
            .and_then(|w| total.checked_add(w))
            .ok_or(Error::Overflow)?;
    }
    Ok(merged(&plan, first.fingerprint, count, paths.len(), total)?.with_parts(parts))
}

/// The refusal of a merge of `plan` split into `count` shards, whose shards `missing` lack
/// tasks.
pub(crate) fn incomplete(plan: &Plan, count: u32, missing: Vec<Missing>) -> MergeError {
    MergeError::Incomplete {
        n: plan.n(),
        strategy: plan.strategy(),
        count,
        missing,
    }
}

/// Whether two parts belong to one count: the same plan version, board, strategy, plan (task
/// count and fingerprint) and shard count. The one test for journals ([`merge`]) and for runs
/// ([`Merged::from_runs`], through their headers).
pub(crate) fn same_count(a: &Header, b: &Header) -> bool {
    (
        a.plan_version,
        a.n,
        &a.strategy,
        a.tasks,
        a.fingerprint,
        a.shard.count(),
    ) == (
        b.plan_version,
        b.n,
        &b.strategy,
        b.tasks,
        b.fingerprint,
        b.shard.count(),
    )
}

/// The plan of `n` with `strategy` as this build makes it ([`default_plan`]), when it is the
/// plan a part was counted with (`fingerprint`, `tasks`). The one rebuild for journals and for
/// runs.
pub(crate) fn made_plan(
    n: u32,
    strategy: Strategy,
    fingerprint: Fingerprint,
    tasks: u64,
) -> Result<Plan, PlanDifference> {
    let (plan, made) = default_plan(n, strategy).map_err(|_| PlanDifference::Board { n })?;
    if made != fingerprint || plan.tasks().len() as u64 != tasks {
        return Err(PlanDifference::Tasks {
            counted: fingerprint,
            counted_tasks: tasks,
            made,
            made_tasks: plan.tasks().len(),
        });
    }
    Ok(plan)
}

/// What a merge gives: the whole board's `total` over `plan` (whose fingerprint is
/// `fingerprint`, checked by [`made_plan`]), its unique count, from `shards` shards (read from
/// `journals` files; 0 for runs in memory). The one ending of both merges.
pub(crate) fn merged(
    plan: &Plan,
    fingerprint: Fingerprint,
    shards: u32,
    journals: usize,
    total: u128,
) -> Result<Merged, Error> {
    let unique = if plan.n() > crate::engine::unique::UNIQUE_MAX_N {
        None
    } else {
        Some(crate::engine::unique::unique_count(plan.n(), total)?)
    };
    Ok(Merged {
        n: plan.n(),
        strategy: plan.strategy(),
        fingerprint,
        tasks: plan.tasks().len(),
        shards,
        journals,
        total,
        unique,
        parts: Vec::new(),
        core_time: Duration::ZERO,
    })
}

impl Merged {
    /// This merge with its `parts`, put in shard order (a part given twice kept once), and
    /// their core time summed.
    pub(crate) fn with_parts(mut self, mut parts: Vec<(Shard, Option<Spent>)>) -> Merged {
        parts.sort_by_key(|(shard, spent)| {
            (
                shard.index(),
                spent.map(|s| (s.runs, s.wall_time, s.core_time)),
            )
        });
        parts.dedup();
        self.core_time = parts
            .iter()
            .filter_map(|(_, spent)| spent.map(|s| s.core_time))
            .fold(Duration::ZERO, Duration::saturating_add);
        self.parts = parts;
        self
    }
}

/// A merge's parts ([`Merged::parts`]): one object per journal,
/// `{"shard": "1/4", "runs": 1, "wall_time": 12.5, "core_time": 24.8}`, the three times `null`
/// for a journal without time records.
#[cfg(feature = "serde")]
mod parts {
    use std::time::Duration;

    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    use super::{Shard, Spent};

    #[derive(Serialize, Deserialize)]
    struct Part {
        shard: Shard,
        runs: Option<u32>,
        #[serde(with = "crate::serde_util::seconds::optional")]
        wall_time: Option<Duration>,
        #[serde(with = "crate::serde_util::seconds::optional")]
        core_time: Option<Duration>,
    }

    pub(crate) fn serialize<S: Serializer>(
        parts: &[(Shard, Option<Spent>)],
        s: S,
    ) -> Result<S::Ok, S::Error> {
        s.collect_seq(parts.iter().map(|&(shard, spent)| Part {
            shard,
            runs: spent.map(|t| t.runs),
            wall_time: spent.map(|t| t.wall_time),
            core_time: spent.map(|t| t.core_time),
        }))
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(
        d: D,
    ) -> Result<Vec<(Shard, Option<Spent>)>, D::Error> {
        let parts = Vec::<Part>::deserialize(d)?;
        Ok(parts
            .into_iter()
            .map(|p| {
                let spent = match (p.runs, p.wall_time, p.core_time) {
                    (Some(runs), Some(wall), Some(core)) => Some(Spent::new(runs, wall, core)),
                    _ => None,
                };
                (p.shard, spent)
            })
            .collect())
    }
}

/// The plan a journal header names, as this build makes it; refused when it is not the same.
fn rebuild_plan(path: &Path, header: &Header) -> Result<Plan, MergeError> {
    let other = |why: PlanDifference| MergeError::OtherPlan {
        path: path.to_path_buf(),
        why,
    };
    if header.plan_version != Plan::VERSION {
        return Err(other(PlanDifference::Version(header.plan_version)));
    }
    let strategy =
        Strategy::parse_name(&header.strategy).map_err(|e| other(PlanDifference::Strategy(e)))?;
    made_plan(header.n, strategy, header.fingerprint, header.tasks).map_err(other)
}

/// The shards with uncounted tasks, in shard order. Only shards that hold tasks are looked at:
/// never more than the plan's tasks, whatever count a header names (a count above the task
/// count leaves the shards beyond them empty).
fn missing_shards(counted: &[Option<(u64, usize)>], count: u32) -> Vec<Missing> {
    let tasks = Shard::tasks_per_shard(counted.len(), count);
    let mut missing = vec![0usize; tasks.len()];
    for (p, _) in counted.iter().enumerate().filter(|(_, c)| c.is_none()) {
        missing[Shard::of_position(p, count) as usize] += 1;
    }
    tasks
        .into_iter()
        .zip(missing)
        .enumerate()
        .filter(|(_, (_, missing))| *missing > 0)
        // Every index is below `count` (there are no more shards holding tasks than `count`).
        .filter_map(|(k, (tasks, missing))| {
            Some(Missing {
                shard: Shard::new(k as u32, count).ok()?,
                missing,
                tasks,
            })
        })
        .collect()
}

impl Merged {
    /// Checks the merged total and unique count against the known table ([`crate::known`]);
    /// `Ok` for a board beyond it (n > 27). A merge is only as right as its journals: one
    /// damaged or altered (its checksums recomputed) gives a wrong total, which this check
    /// catches for every board the table holds.
    ///
    /// # Errors
    ///
    /// A [`Mismatch`](crate::known::Mismatch) holding the counts and the table's when they differ.
    ///
    /// ```
    /// use nqueens::journal::{Merged, Shard};
    /// use nqueens::{count_with, CountOptions, RunControl, Strategy};
    /// let options = CountOptions::new(2, Strategy::Mirror);
    /// let runs: Vec<_> = (0..2)
    ///     .map(|k| {
    ///         let control = RunControl::default().with_shard(Shard::new(k, 2).unwrap());
    ///         count_with(8, &options, &control).unwrap()
    ///     })
    ///     .collect();
    /// let mut merged = Merged::from_runs(&runs).unwrap();
    /// assert_eq!(merged.check_known(), Ok(()));
    /// merged.total += 8;
    /// assert_eq!(merged.check_known().unwrap_err().known.total, 92);
    /// ```
    pub fn check_known(&self) -> Result<(), crate::known::Mismatch> {
        crate::known::Mismatch::of(self.n, self.total, self.unique).map_or(Ok(()), Err)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::plan::Plan;

    #[test]
    fn a_merged_board_above_the_unique_bound_has_no_unique_count_and_returns_at_once() {
        let started = std::time::Instant::now();
        let plan = Plan::new(40, Strategy::Mirror, Plan::DEFAULT_MIN_TASKS).unwrap();
        let merged = merged(&plan, plan.fingerprint(), 1, 0, 8).unwrap();
        assert_eq!((merged.n, merged.total, merged.unique), (40, 8, None));
        // A hang bound, not a timing claim.
        assert!(started.elapsed().as_secs() < 10);
    }

    #[test]
    fn a_merged_board_up_to_the_bound_keeps_its_unique_count() {
        let plan = Plan::new(8, Strategy::Mirror, Plan::DEFAULT_MIN_TASKS).unwrap();
        let merged = merged(&plan, plan.fingerprint(), 2, 2, 92).unwrap();
        assert_eq!((merged.total, merged.unique), (92, Some(12)));
        assert!(super::merged(&plan, plan.fingerprint(), 1, 0, 93).is_err());
    }
}
