//! Adding up shard journals into the total of a board.
//!
//! [`merge`] reads the journals of a sharded count ([`super::shard`], [`crate::journal`])
//! and returns the board's total and unique counts, or refuses. It refuses everything that could
//! make a wrong number: an unreadable or damaged journal, journals of different boards, plans or
//! shardings, a plan this build does not make, a record that is not a task of the plan or of its
//! journal's shard, and one task recorded with two different counts. Identical records of the
//! same task (a shard run twice) are fine. When tasks are missing it names the incomplete shards
//! and gives no total.

use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};

use super::shard::Shard;
use super::{Damage, Header, JournalError, read};
use crate::engine::plan::fingerprint::hex;
use crate::engine::plan::{DEFAULT_MIN_TASKS, PLAN_VERSION, Plan, Strategy, TaskId};
use crate::names::{Named, UnknownName};

/// The result of a successful merge.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Merged {
    /// Board side.
    pub n: u32,
    /// The plan's strategy.
    pub strategy: Strategy,
    /// The plan's fingerprint.
    pub fingerprint: u64,
    /// Tasks in the plan (every one of them recorded).
    pub tasks: usize,
    /// How many shards the plan was split into.
    pub shards: u32,
    /// Journals read.
    pub journals: usize,
    /// All solutions.
    pub total: u128,
    /// Solutions distinct under the 8 symmetries, from the total ([`crate::engine::unique`]).
    pub unique: u128,
}

/// A shard that lacks tasks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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
            write!(f, "shard {} (nothing recorded)", self.shard)
        } else {
            write!(
                f,
                "shard {} ({} of {} tasks missing)",
                self.shard, self.missing, self.tasks
            )
        }
    }
}

/// Why journals cannot be merged.
#[derive(Debug, thiserror::Error)]
pub enum MergeError {
    /// No journal was given.
    #[error("no journals to merge")]
    NoJournals,
    /// A journal cannot be read or is damaged.
    #[error("{0}")]
    Journal(#[from] JournalError),
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
    /// A record that does not belong where it is: a task of no plan or of another shard.
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
    /// Tasks are missing: the named shards are incomplete.
    #[error(
        "incomplete: {} of {count} shards lack tasks: {}; run them (again) and merge again; no total",
        .missing.len(),
        .missing.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ")
    )]
    Incomplete {
        /// The shard count.
        count: u32,
        /// The incomplete shards.
        missing: Vec<Missing>,
    },
    /// Deriving the unique count failed.
    #[error("{0}")]
    Engine(#[from] crate::Error),
}

/// How the plan a journal names differs from the plans this build makes.
#[derive(Debug, thiserror::Error)]
pub enum PlanDifference {
    /// Another plan version.
    #[error("it was counted under plan version {0}, this nqueens makes version {PLAN_VERSION}")]
    Version(u32),
    /// A strategy this build does not know.
    #[error("its strategy '{}' is unknown", .0.name)]
    Strategy(UnknownName),
    /// A board this build cannot plan.
    #[error("its board cannot be planned ({0})")]
    Board(crate::Error),
    /// Another task list.
    #[error(
        "it was counted under plan {} ({counted_tasks} tasks), this nqueens makes plan {} \
         ({made_tasks} tasks)",
        hex(*.counted), hex(*.made)
    )]
    Tasks {
        /// The fingerprint in the journal.
        counted: u64,
        /// The task count in the journal.
        counted_tasks: u64,
        /// The fingerprint of the plan this build makes.
        made: u64,
        /// That plan's task count.
        made_tasks: usize,
    },
}

/// Merges the shard journals at `paths` (see the module documentation).
///
/// ```
/// use nqueens::{count_with, CountOptions, RunControl, Strategy};
/// use nqueens::journal::Shard;
/// let dir = tempfile::tempdir().unwrap();
/// let options = CountOptions::new(2, Strategy::Symmetric);
/// let mut files = Vec::new();
/// for k in 0..3 {
///     let file = dir.path().join(format!("shard{k}.ckpt"));
///     let control = RunControl {
///         journal: Some(&file),
///         shard: Some(Shard::new(k, 3).unwrap()),
///         ..RunControl::default()
///     };
///     count_with(10, &options, &control).unwrap();
///     files.push(file);
/// }
/// let merged = nqueens::journal::merge(&files).unwrap();
/// assert_eq!((merged.total, merged.unique), (724, 92));
/// ```
pub fn merge(paths: &[impl AsRef<Path>]) -> Result<Merged, MergeError> {
    let mut journals = Vec::with_capacity(paths.len());
    for path in paths {
        let path = path.as_ref();
        let (header, replay) = read(path)?;
        journals.push((path.to_path_buf(), header, replay));
    }
    let Some((first_path, first, _)) = journals.first() else {
        return Err(MergeError::NoJournals);
    };
    let same_count = |h: &Header| {
        (
            h.plan_version,
            h.n,
            &h.strategy,
            h.tasks,
            h.fingerprint,
            h.shard.count,
        ) == (
            first.plan_version,
            first.n,
            &first.strategy,
            first.tasks,
            first.fingerprint,
            first.shard.count,
        )
    };
    for (path, header, _) in &journals[1..] {
        if !same_count(header) {
            return Err(MergeError::Different {
                first_path: first_path.clone(),
                first: Box::new(first.clone()),
                second_path: path.clone(),
                second: Box::new(header.clone()),
            });
        }
    }
    let (plan, fingerprint) = rebuild_plan(first_path, first)?;
    let count = first.shard.count;
    let position: HashMap<TaskId, usize> = plan
        .tasks
        .iter()
        .enumerate()
        .map(|(p, t)| (t.id, p))
        .collect();
    let mut counted: Vec<Option<(u64, usize)>> = vec![None; plan.tasks.len()];
    for (j, (path, header, replay)) in journals.iter().enumerate() {
        for record in &replay.records {
            let stray = |damage: Damage| MergeError::Stray {
                path: path.clone(),
                offset: record.offset,
                damage,
            };
            let Some(&p) = position.get(&record.id) else {
                return Err(stray(Damage::NotInPlan(record.id)));
            };
            if !header.shard.contains(p) {
                return Err(stray(Damage::NotInShard(record.id, header.shard)));
            }
            match counted[p] {
                None => counted[p] = Some((record.count, j)),
                Some((c, _)) if c == record.count => {}
                Some((c, other)) => {
                    return Err(MergeError::Conflict {
                        id: record.id,
                        first: c,
                        first_path: journals[other].0.clone(),
                        second: record.count,
                        second_path: path.clone(),
                    });
                }
            }
        }
    }
    let missing = missing_shards(&counted, count);
    if !missing.is_empty() {
        return Err(MergeError::Incomplete { count, missing });
    }
    let mut total: u128 = 0;
    for (task, c) in plan.tasks.iter().zip(&counted) {
        let (c, _) = c.expect("every task is counted");
        total = u128::from(c)
            .checked_mul(u128::from(task.weight))
            .and_then(|w| total.checked_add(w))
            .ok_or(crate::Error::Overflow)?;
    }
    let unique = crate::engine::unique::unique_count(plan.n, total)?;
    Ok(Merged {
        n: plan.n,
        strategy: plan.strategy,
        fingerprint,
        tasks: plan.tasks.len(),
        shards: count,
        journals: journals.len(),
        total,
        unique,
    })
}

/// The plan a journal header names, as this build makes it, and its fingerprint; refused when
/// it is not the same.
fn rebuild_plan(path: &Path, header: &Header) -> Result<(Plan, u64), MergeError> {
    let other = |why: PlanDifference| MergeError::OtherPlan {
        path: path.to_path_buf(),
        why,
    };
    if header.plan_version != PLAN_VERSION {
        return Err(other(PlanDifference::Version(header.plan_version)));
    }
    let strategy =
        Strategy::parse_name(&header.strategy).map_err(|e| other(PlanDifference::Strategy(e)))?;
    let plan = Plan::new(header.n, strategy, DEFAULT_MIN_TASKS)
        .map_err(|e| other(PlanDifference::Board(e)))?;
    let fingerprint = plan.fingerprint();
    if fingerprint != header.fingerprint || plan.tasks.len() as u64 != header.tasks {
        return Err(other(PlanDifference::Tasks {
            counted: header.fingerprint,
            counted_tasks: header.tasks,
            made: fingerprint,
            made_tasks: plan.tasks.len(),
        }));
    }
    Ok((plan, fingerprint))
}

/// The shards with uncounted tasks, in shard order.
fn missing_shards(counted: &[Option<(u64, usize)>], count: u32) -> Vec<Missing> {
    let mut per_shard = vec![(0usize, 0usize); count as usize];
    for (p, c) in counted.iter().enumerate() {
        let slot = &mut per_shard[Shard::of_position(p, count) as usize];
        slot.1 += 1;
        if c.is_none() {
            slot.0 += 1;
        }
    }
    per_shard
        .into_iter()
        .enumerate()
        .filter(|(_, (missing, _))| *missing > 0)
        .map(|(k, (missing, tasks))| Missing {
            shard: Shard {
                index: k as u32,
                count,
            },
            missing,
            tasks,
        })
        .collect()
}
