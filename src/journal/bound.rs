//! The most solutions a task can have: a recorded count above it cannot be the task's.

use super::Damage;
use super::format::Record;
use crate::engine::plan::{Plan, Subproblem, Task};
use crate::known::Known;

/// Checks that `record`, the record of the task at `position` in `plan`, gives it no more
/// solutions than it can have ([`most_solutions`]): the one check of a resume and a merge.
pub(crate) fn check(plan: &Plan, position: usize, record: &Record) -> Result<(), Damage> {
    let task = plan.task(position).ok_or(Damage::NotInPlan(record.id))?;
    let most = most_solutions(&task);
    if record.count > most {
        return Err(Damage::Implausible {
            id: record.id,
            count: record.count,
            most,
        });
    }
    Ok(())
}

/// The most solutions `task` can count (unweighted), cheaply bounded: no more than the ways to
/// give each of its free rows a queen in a free column ((free rows)!), nor than the board's
/// known total over the task's weight.
pub(crate) fn most_solutions(task: &Task) -> u64 {
    let n = task.n();
    let free = u64::from(match task.subproblem {
        Subproblem::Rows(state) => n.saturating_sub(state.row),
        Subproblem::Inner(board) => board.free_rows().count_ones(),
    });
    let permutations = (2..=free)
        .try_fold(1u64, u64::checked_mul)
        .unwrap_or(u64::MAX);
    let known = Known::of(n)
        .map(|known| known.total / u128::from(task.weight.max(1)))
        .map_or(u64::MAX, |most| u64::try_from(most).unwrap_or(u64::MAX));
    permutations.min(known)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::plan::{Plan, Strategy};

    #[test]
    fn every_task_s_count_is_within_its_bound_and_the_bound_is_tight_somewhere() {
        for strategy in [Strategy::Mirror, Strategy::Symmetric] {
            for n in 4..=11 {
                let plan = Plan::new(n, strategy, 64).unwrap();
                for task in plan.tasks() {
                    let count = task.count(n).unwrap();
                    assert!(count <= most_solutions(&task), "n = {n}, task {}", task.id);
                }
            }
        }
        // The 1-board's one task: one solution, the most it can have.
        let plan = Plan::new(1, Strategy::Mirror, 1).unwrap();
        assert_eq!(most_solutions(&plan.task(0).unwrap()), 1);
    }
}
