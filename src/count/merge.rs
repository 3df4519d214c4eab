//! Adding up the runs of a count's shards ([`Merged::from_runs`]): the journals' merge
//! ([`crate::journal::merge`]) done on runs in memory.

use crate::count::CountRun;
use crate::engine::plan::Plan;
use crate::error::Error;
use crate::journal::merge::{incomplete, made_plan, merged, same_count};
use crate::journal::{Header, MergeError, Merged, Missing, PlanDifference, Shard};

impl Merged {
    /// Adds up the runs of the shards of one count, made in this process or read back (with the
    /// `serde` feature), as [`merge`](crate::journal::merge) adds up their journals: it refuses
    /// runs of different counts ([`MergeError::DifferentRuns`]), a plan this build does not make
    /// ([`MergeError::RunOfOtherPlan`]), a shard counted twice with two totals
    /// ([`MergeError::ShardConflict`]; the same total twice is fine) and gaps: shards without a
    /// complete run ([`MergeError::Incomplete`], naming them). `journals` is 0.
    ///
    /// # Errors
    ///
    /// [`Error::Merge`] with the [`MergeError`] that says why the runs cannot be merged, and
    /// [`Error::Overflow`] or [`Error::Inconsistent`] when they do not add up to a board's total.
    ///
    /// ```
    /// use nqueens::journal::{Merged, MergeError, Shard};
    /// use nqueens::{count_with, CountOptions, Error, RunControl, Strategy};
    /// let options = CountOptions::new(2, Strategy::Symmetric);
    /// let runs: Vec<_> = (0..4)
    ///     .map(|k| {
    ///         let control = RunControl::default().with_shard(Shard::new(k, 4).unwrap());
    ///         count_with(12, &options, &control).unwrap()
    ///     })
    ///     .collect();
    /// assert!(runs.iter().all(|run| run.counts.unique.is_none()));
    /// let merged = Merged::from_runs(&runs).unwrap();
    /// assert_eq!((merged.total, merged.unique, merged.shards), (14_200, Some(1_787), 4));
    ///
    /// // Shard 3/4 missing: no total.
    /// let Err(Error::Merge(error)) = Merged::from_runs(&runs[..3]) else { panic!() };
    /// let MergeError::Incomplete { missing, .. } = *error else {
    ///     panic!("shard 3/4 is missing");
    /// };
    /// assert_eq!(missing[0].shard, Shard::new(3, 4).unwrap());
    /// ```
    pub fn from_runs(runs: &[CountRun]) -> Result<Merged, Error> {
        let Some(first) = runs.first() else {
            return Err(MergeError::NoRuns.into());
        };
        if let Some((second, run)) = runs
            .iter()
            .enumerate()
            .find(|(_, r)| !same_count(&counted(first), &counted(r)))
        {
            return Err(MergeError::DifferentRuns {
                first: 0,
                first_count: Box::new(counted(first)),
                second,
                second_count: Box::new(counted(run)),
            }
            .into());
        }
        let (n, strategy, count) = (first.counts.n, first.counts.strategy, first.shard.count());
        let plan = made_plan(n, strategy, first.fingerprint, first.plan_tasks as u64)
            .map_err(|why| MergeError::RunOfOtherPlan { run: 0, why })?;
        // No more shards than tasks, as a count splits its plan.
        first.shard.for_plan(&plan)?;
        let planned = Shard::tasks_per_shard(plan.tasks().len(), count);
        let (totals, finished) = shard_totals(runs, &planned, count)?;
        let missing = missing_shards(&totals, &finished, &planned, count);
        if !missing.is_empty() {
            return Err(incomplete(&plan, count, missing).into());
        }
        let mut total: u128 = 0;
        for (t, _) in totals.into_iter().flatten() {
            total = total.checked_add(t).ok_or(Error::Overflow)?;
        }
        let parts = runs
            .iter()
            .map(|run| (run.shard, Some(run.spent())))
            .collect();
        Ok(merged(&plan, first.fingerprint, count, 0, total)?.with_parts(parts))
    }
}

/// What `run` counted, as a journal's header names it: runs merge when these are the same
/// count's.
fn counted(run: &CountRun) -> Header {
    Header {
        plan_version: Plan::VERSION,
        n: run.counts.n,
        strategy: run.counts.strategy.name().to_string(),
        tasks: run.plan_tasks as u64,
        fingerprint: run.fingerprint,
        shard: run.shard,
    }
}

/// A shard's total from a complete run, and which run (`None`: no run of it completed).
type ShardTotal = Option<(u128, usize)>;

/// The totals of a count's shards (`planned`: each one's tasks) from its `runs`: per shard, the
/// total of a complete run and which run, and the most tasks any incomplete run finished. Refuses
/// a run of a shard or task count the plan does not have, and a shard counted with two totals.
fn shard_totals(
    runs: &[CountRun],
    planned: &[usize],
    count: u32,
) -> Result<(Vec<ShardTotal>, Vec<usize>), MergeError> {
    let mut totals: Vec<ShardTotal> = vec![None; planned.len()];
    let mut finished = vec![0usize; planned.len()];
    for (j, run) in runs.iter().enumerate() {
        let k = run.shard.index() as usize;
        let tasks = planned.get(k).copied().unwrap_or(0);
        if run.shard.index() >= count || run.counts.tasks != tasks {
            let why = PlanDifference::ShardTasks {
                shard: run.shard,
                tasks: run.counts.tasks,
                planned: tasks,
            };
            return Err(MergeError::RunOfOtherPlan { run: j, why });
        }
        if !run.complete {
            let done =
                (run.resumed_tasks.saturating_add(run.searched_tasks)).min(tasks.saturating_sub(1));
            finished[k] = finished[k].max(done);
            continue;
        }
        match totals[k] {
            None => totals[k] = Some((run.counts.total, j)),
            Some((total, _)) if total == run.counts.total => {}
            Some((total, first_run)) => {
                return Err(MergeError::ShardConflict {
                    shard: run.shard,
                    first: total,
                    first_run,
                    second: run.counts.total,
                    second_run: j,
                });
            }
        }
    }
    Ok((totals, finished))
}

/// The shards of `count` without a complete run's total, with how many of their `planned`
/// tasks no run `finished`.
fn missing_shards(
    totals: &[ShardTotal],
    finished: &[usize],
    planned: &[usize],
    count: u32,
) -> Vec<Missing> {
    (0..planned.len())
        .filter(|&k| totals[k].is_none())
        // Every index is below `count` (there are at most `count` shards that hold tasks).
        .filter_map(|k| {
            Some(Missing::new(
                Shard::new(k as u32, count).ok()?,
                planned[k] - finished[k],
                planned[k],
            ))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::journal::ShardError;
    use crate::{CountOptions, RunControl, Strategy, count_with};

    #[test]
    fn runs_of_more_shards_than_tasks_are_refused_as_a_count_refuses_them() {
        let options = CountOptions::new(1, Strategy::Mirror);
        let mut run = count_with(8, &options, &RunControl::default()).unwrap();
        let tasks = run.plan_tasks;
        run.shard = Shard::new(0, tasks as u32 + 1).unwrap();
        let Err(Error::Shard(why)) = Merged::from_runs(&[run]) else {
            panic!("a run of more shards than tasks is merged");
        };
        assert!(
            matches!(why, ShardError::MoreShardsThanTasks { tasks: t, .. } if t == tasks),
            "{why}"
        );
    }
}
