//! Opening a journal for a count: the file checked against the count's header, and every record
//! checked to name a task of the plan, with no more solutions than the task can have.

use std::collections::HashMap;
use std::path::Path;

use super::bound;
use super::{Damage, Header, Journal, JournalError, Spent};
use crate::engine::plan::{Plan, TaskId};

/// A journal opened for a count: the file, the tasks it records and their counts, and the time
/// its runs recorded (`None` for a journal of an older format that holds tasks).
pub(crate) type Opened = (Journal, HashMap<TaskId, u64>, Option<Spent>);

/// Opens the journal `header` describes and checks that every record names a task of `plan`
/// (the tasks to count: the whole plan or one shard of it) and gives it no more solutions than
/// it can have.
pub(crate) fn open(path: &Path, plan: &Plan, header: &Header) -> Result<Opened, JournalError> {
    let (journal, replay) = Journal::open(path, header)?;
    let in_plan = plan.id_index();
    let mut recorded = HashMap::with_capacity(replay.records.len());
    for record in &replay.records {
        let corrupt = |damage: Damage| JournalError::Corrupt {
            path: path.to_path_buf(),
            offset: record.offset,
            damage,
        };
        let Some(p) = in_plan.position(&record.id) else {
            return Err(corrupt(Damage::NotInPlan(record.id)));
        };
        bound::check(plan, p, record).map_err(corrupt)?;
        if let Some(old) = recorded.insert(record.id, record.count)
            && old != record.count
        {
            return Err(corrupt(Damage::RecordedTwice(record.id)));
        }
    }
    Ok((journal, recorded, replay.spent))
}
