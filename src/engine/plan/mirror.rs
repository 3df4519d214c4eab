//! The `mirror` plan: the first-row queen over the left half (weight 2), prefixes expanded a
//! few rows deeper (the method is described in [`super`]).

use super::{MAX_ID_LEN, Subproblem, Task, TaskId};
use crate::engine::kernel::State;

/// The tasks of the mirror plan for `n`: at least `min_tasks` where the board is big enough,
/// largest first.
pub(crate) fn mirror_tasks(n: u32, min_tasks: usize) -> Vec<Task> {
    let mut tasks = mirror_roots(n);
    // Keep at least three rows for the kernel: shallower tasks are all overhead.
    let max_row = n.saturating_sub(3);
    let mut depth = 1;
    while tasks.len() < min_tasks && depth < max_row {
        depth += 1;
        tasks = tasks
            .into_iter()
            .flat_map(|t| expand_below(n, t, depth))
            .collect();
    }
    for t in &mut tasks {
        t.size_hint = size_hint(n, t);
    }
    tasks.sort_by(|a, b| b.size_hint.cmp(&a.size_hint).then(a.id.cmp(&b.id)));
    tasks
}

pub(super) fn prefix_task(n: u32, cols: &[u8], weight: u64) -> Task {
    let state = cols
        .iter()
        .try_fold(State::EMPTY, |s, &c| s.place_col(c.into()))
        .expect("the planner's columns are columns of the board");
    debug_assert!(state.row <= n);
    Task {
        id: TaskId::from_columns(cols).expect("root ids are short"),
        weight,
        subproblem: Subproblem::Rows(state),
        size_hint: 0,
        n,
    }
}

pub(super) fn mirror_roots(n: u32) -> Vec<Task> {
    match n {
        0 => return vec![prefix_task(n, &[], 1)],
        1 => return vec![prefix_task(n, &[0], 1)],
        _ => {}
    }
    let half = (n / 2) as u8;
    let mut roots: Vec<Task> = (0..half).map(|c| prefix_task(n, &[c], 2)).collect();
    if n % 2 == 1 {
        let middle = State::EMPTY.place(1u64 << half);
        let free = middle.free(n);
        roots.extend(
            (0..half)
                .filter(|&c| free & (1u64 << c) != 0)
                .map(|c| prefix_task(n, &[half, c], 2)),
        );
    }
    roots
}

/// Replaces `task` by its children if it sits above row `depth`; drops children with no free
/// square on their next row (they have no completion).
fn expand_below(n: u32, task: Task, depth: u32) -> Vec<Task> {
    let Subproblem::Rows(state) = task.subproblem else {
        return vec![task];
    };
    if state.row >= depth || task.id.len as usize >= MAX_ID_LEN {
        return vec![task];
    }
    let mut free = state.free(n);
    let mut children = Vec::with_capacity(free.count_ones() as usize);
    while free != 0 {
        let bit = free & free.wrapping_neg();
        free ^= bit;
        let child = state.place(bit);
        if child.row < n && child.free(n) == 0 {
            continue;
        }
        children.push(Task {
            id: task.id.child(bit.trailing_zeros() as u8),
            weight: task.weight,
            subproblem: Subproblem::Rows(child),
            size_hint: 0,
            n: task.n,
        });
    }
    children
}

/// The number of placements two rows below the task: cheap, and ranks tasks well enough.
fn size_hint(n: u32, task: &Task) -> u64 {
    let Subproblem::Rows(state) = task.subproblem else {
        return 0;
    };
    let mut hint = 0;
    let mut free = state.free(n);
    while free != 0 {
        let bit = free & free.wrapping_neg();
        free ^= bit;
        let next = state.place(bit);
        hint += 1 + u64::from(next.free(n).count_ones());
    }
    hint
}
