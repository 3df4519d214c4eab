//! The `symmetric` plan: pre-place the border queens, search one board per symmetry class.
//!
//! Every solution has exactly one queen in each border line: the top row, the bottom row, the
//! left column and the right column. Call their positions a **constellation**
//! `(i, j, k, l)`: the top queen at `(0, i)`, the bottom one at `(n−1, j)`, the left one at
//! `(k, 0)` and the right one at `(l, n−1)`. At most one queen can sit on a corner (any two corners
//! share a line), which gives two kinds:
//!
//! * **No corner queen** (`1 ≤ i, j, k, l ≤ n−2`). The 8 symmetries of the square map border
//!   queens to border queens, so they act on constellations, and a symmetry `g` maps the
//!   solutions with constellation `c` one-to-one onto those with `g(c)`. Only the canonical
//!   constellation of each orbit (the smallest `(i, j, k, l)` among its images) is searched, with
//!   weight = orbit size = 8 / (symmetries fixing it). No reflection fixes a valid constellation
//!   (it would put two border queens on one diagonal), so the weight is 8, 4 (fixed by the half
//!   turn) or 2 (fixed by the quarter turn).
//! * **A corner queen.** Turning the board moves it to each corner in turn, so the corner
//!   solutions are 4 × those with a queen at `(0, 0)`. Those come in pairs swapped by the
//!   diagonal mirror, which exchanges the bottom queen's column `j` with the right queen's row
//!   `l` (never equal: `(n−1, j)` and `(j, n−1)` share a ↙ anti-diagonal). So only `j < l` is
//!   searched, with weight 8; it is written `(0, j, 0, l)`.
//!
//! Each constellation is searched in whichever of its 8 orientations leaves the fewest free rows
//! near the top (the count does not depend on the orientation) by
//! the kernels ([`crate::engine::kernel`]), which step over the rows that already hold a queen.
//! Where more tasks are wanted than there are constellations, each is split further by placing
//! the queen of its first free row (the task id then names that column too). Task ids are the
//! constellation `i.j.k.l` followed by those columns: the same on every run.
//!
//! Boards below 4 and above [`MAX_JOB_N`] fall back to the `mirror` decomposition: the former
//! have no room for a border, the latter do not fit the kernels' 32-bit lanes.

use std::cmp::Reverse;

use super::{Held, MAX_ID_LEN, Subproblem, Task, TaskId, TaskRule};
use crate::board::Symmetry;
use crate::engine::kernel::{InnerBoard, MAX_JOB_N};

/// A square `(row, column)`.
type Square = (u32, u32);

/// Border queens of one symmetry class: top `(0, i)`, bottom `(n−1, j)`, left `(k, 0)`, right
/// `(l, n−1)`. A corner class has `i = k = 0` (the corner queen is both top and left).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Constellation {
    /// Column of the top-row queen.
    pub i: u32,
    /// Column of the bottom-row queen.
    pub j: u32,
    /// Row of the left-column queen.
    pub k: u32,
    /// Row of the right-column queen.
    pub l: u32,
}

impl Constellation {
    /// Whether the queen at `(0, 0)` is both the top and the left queen.
    pub fn is_corner(&self) -> bool {
        self.i == 0 && self.k == 0
    }

    #[cfg(test)]
    /// The distinct queens of this constellation on the `n`-board (3 for a corner class, else 4).
    pub fn queens(&self, n: u32) -> Vec<Square> {
        let (queens, len) = self.queen_array(n);
        queens[..len].to_vec()
    }

    /// [`Constellation::queens`] without allocating: the squares and how many there are.
    fn queen_array(&self, n: u32) -> ([Square; 4], usize) {
        let m = n - 1;
        if self.is_corner() {
            ([(0, 0), (m, self.j), (self.l, m), (0, 0)], 3)
        } else {
            ([(0, self.i), (m, self.j), (self.k, 0), (self.l, m)], 4)
        }
    }

    /// The columns of the top and the bottom queen of a constellation with no corner queen in
    /// each orientation, in the order of [`SYMMETRIES`], on the board of side `m + 1`. Worked
    /// out from `Symmetry::image` (a test checks them): for example the quarter turn
    /// (r, c) ↦ (c, m − r) takes the left queen (k, 0) to the top row's column m − k and the
    /// right queen (l, m) to the bottom row's column m − l.
    fn ends(&self, m: u32) -> [(u32, u32); 8] {
        let Constellation { i, j, k, l } = *self;
        [
            (i, j),
            (m - k, m - l),
            (m - j, m - i),
            (l, k),
            (m - i, m - j),
            (m - l, m - k),
            (j, i),
            (k, l),
        ]
    }

    /// The images of a constellation with no corner queen under the 8 symmetries of the square
    /// of side `m + 1`, in no particular order: the left-right mirror maps `(i, j, k, l)` to
    /// `(m−i, m−j, l, k)`, the top-bottom mirror to `(j, i, m−k, m−l)` and the transpose to
    /// `(k, l, i, j)`; the first two generate a group of four, and the transpose times that
    /// group is the other four.
    fn images(&self, m: u32) -> [Constellation; 8] {
        let at = |i, j, k, l| Constellation { i, j, k, l };
        let four = |c: Constellation| {
            let Constellation { i, j, k, l } = c;
            [
                c,
                at(m - i, m - j, l, k),
                at(j, i, m - k, m - l),
                at(m - j, m - i, m - l, m - k),
            ]
        };
        let [a, b, c, d] = four(*self);
        let [e, f, g, h] = four(at(self.k, self.l, self.i, self.j));
        [a, b, c, d, e, f, g, h]
    }
}

/// The 8 symmetries of the square in the order the plan tries them: the 4 rotations, then the
/// mirror image followed by each rotation. The order breaks ties in [`oriented_queens`], so it
/// fixes each class's orientation (and with it each task's search) from run to run.
const SYMMETRIES: [Symmetry; 8] = [
    Symmetry::Identity,
    Symmetry::Rot90,
    Symmetry::Rot180,
    Symmetry::Rot270,
    Symmetry::FlipColumns,
    Symmetry::AntiTranspose,
    Symmetry::FlipRows,
    Symmetry::Transpose,
];

/// Every canonical constellation of the `n`-board with its weight, corner classes first, then
/// the others in increasing `(i, j, k, l)` order. Weights times class counts sum to the total.
pub fn constellations(n: u32) -> Vec<(Constellation, u64)> {
    let mut out = Vec::new();
    if n < 4 {
        return out;
    }
    let m = n - 1;
    // A corner class's queens (0, 0), (m, j) and (l, m) never attack each other when
    // 0 < j < l < m: they hold distinct rows and columns, and a shared diagonal would need
    // j = m, l = m or l = j.
    for j in 1..m {
        for l in j + 1..m {
            out.push((Constellation { i: 0, j, k: 0, l }, 8));
        }
    }
    // Four queens (0, i), (m, j), (k, 0) and (l, m) off the corners share a line only in
    // these cases: the top and bottom ones a column (i = j), the left and right ones a row
    // (k = l), and the diagonals top-left (k = i), top-right (l = m − i), bottom-left
    // (k = m − j) and bottom-right (l = j).
    for i in 1..m {
        for j in (1..m).filter(|&j| j != i) {
            for k in (1..m).filter(|&k| k != i && k != m - j) {
                for l in (1..m).filter(|&l| l != k && l != m - i && l != j) {
                    let c = Constellation { i, j, k, l };
                    if let Some(weight) = class_weight(n, &c) {
                        out.push((c, weight));
                    }
                }
            }
        }
    }
    out
}

/// Ranks orientations: the bottom queen's distance to a corner, whether it is left of the
/// middle, and the top queen's distance to a corner (reversed); smallest first.
type OrientationKey = (u32, bool, Reverse<u32>);

#[cfg(test)]
/// The queens of `c` in an orientation that is cheap to search: the queen closest to a corner
/// goes to the bottom row, right of the middle (its long diagonal then crosses every row and
/// prunes from the first one), then the top queen as far from a corner as possible. Ties go to
/// the first symmetry in order, so the choice is deterministic. Measured on n = 13 and 14, this
/// visits about 35% fewer nodes than the canonical orientation and within 10% of the best
/// orientation chosen per class by trial.
///
/// ```
/// use nqueens::search::{oriented_queens, Constellation};
/// let c = Constellation { i: 1, j: 3, k: 4, l: 2 };
/// let queens = oriented_queens(7, &c);
/// assert_eq!(queens.len(), 4);
/// // The queen nearest a corner (distance 1) now sits in the bottom row, right of the middle.
/// assert!(queens.contains(&(6, 5)));
/// ```
pub fn oriented_queens(n: u32, c: &Constellation) -> Vec<Square> {
    let (queens, len) = oriented(n, c);
    queens[..len].to_vec()
}

/// [`oriented_queens`] without allocating: the squares and how many there are.
fn oriented(n: u32, c: &Constellation) -> ([Square; 4], usize) {
    let m = n - 1;
    let (queens, len) = c.queen_array(n);
    let ends = if c.is_corner() {
        SYMMETRIES.map(|g| {
            let image = queens.map(|q| g.image(n, q));
            let column_in = |row: u32| image[..len].iter().find(|q| q.0 == row).map_or(0, |q| q.1);
            (column_in(0), column_in(m))
        })
    } else {
        c.ends(m)
    };
    let key = |(top, bottom): (u32, u32)| -> OrientationKey {
        (
            bottom.min(m - bottom),
            bottom < m - bottom,
            Reverse(top.min(m - top)),
        )
    };
    // The first of the least keys.
    let best = (1..8).fold(0, |best, g| {
        if key(ends[g]) < key(ends[best]) {
            g
        } else {
            best
        }
    });
    let g = SYMMETRIES[best];
    (queens.map(|q| g.image(n, q)), len)
}

/// The inner board of `c` in the orientation of [`oriented_queens`].
fn oriented_board(n: u32, c: &Constellation) -> InnerBoard {
    oriented_board_checked(n, c).expect("a valid constellation fits the board")
}

/// [`oriented_board`], `None` where the queens of `c` do not fit the board or attack each other.
fn oriented_board_checked(n: u32, c: &Constellation) -> Option<InnerBoard> {
    let (queens, len) = oriented(n, c);
    InnerBoard::new(n, &queens[..len])
}

/// The tasks of the symmetric plan for `n` in `4..=MAX_JOB_N`, in plan order (see
/// [`each_task`] for the tasks and [`PlanOrder`] for their order), held whole, or by id when
/// there are more than `named_from`. `None` for other `n` (the caller falls back to another
/// plan).
///
/// The list is the only copy the plan is built in: the tasks are made once to count them by
/// size, then again, each put (or its id put) in its place (n = 32: 2.3 million tasks, 38 MB
/// of ids).
pub(super) fn symmetric_tasks(
    n: u32,
    min_tasks: usize,
    rule: TaskRule,
    named_from: usize,
) -> Option<Held> {
    symmetric_tasks_in(&PlanOrder::new(n, min_tasks, rule)?, named_from)
}

/// [`symmetric_tasks`] in `order`.
pub(super) fn symmetric_tasks_in(order: &PlanOrder, named_from: usize) -> Option<Held> {
    if order.len() > named_from {
        let mut ids = vec![TaskId::default(); order.len()];
        order.place(|at, task| ids[at] = task.id);
        return Some(Held::Named(ids));
    }
    let mut tasks: Vec<Task> = Vec::new();
    order.place(|at, task| {
        if tasks.is_empty() {
            // Every place is written once: the first task holds them until then.
            tasks = vec![task; order.len()];
        }
        tasks[at] = task;
    });
    debug_assert!(
        tasks
            .windows(2)
            .all(|w| (Reverse(w[0].size_hint), w[0].id) < (Reverse(w[1].size_hint), w[1].id)),
        "the tasks of each id length were made in increasing id order"
    );
    Some(Held::Whole(tasks))
}

/// Gives `each` the tasks of the symmetric plan for `n` in `4..=MAX_JOB_N`, size hints set, in
/// the order they are made (before [`PlanOrder`]): one per canonical constellation; under
/// [`TaskRule::Large`] each is split by its first free rows until at most `n − 5` rows are
/// free; then, while there are fewer than `min_tasks`, every task is split by its first free
/// row while at least six free rows remain. `false` (and no task) for other `n`.
///
/// Only the first `min_tasks` tasks are held at once (to split them further when the plan
/// turns out to have fewer): a plan of many tasks passes through without being kept here.
pub(crate) fn each_task(
    n: u32,
    min_tasks: usize,
    rule: TaskRule,
    mut each: impl FnMut(Task),
) -> bool {
    if !(4..=MAX_JOB_N).contains(&n) {
        return false;
    }
    let hinted = |mut task: Task| {
        if let Subproblem::Inner(b) = task.subproblem {
            task.size_hint = size_hint(&b);
        }
        task
    };
    // Held until there are `min_tasks`; from then on each task goes straight to `each`.
    let mut held: Vec<Task> = Vec::new();
    let mut passed = false;
    for (c, weight) in constellations(n) {
        let id = [c.i, c.j, c.k, c.l].map(|x| x as u8);
        let task = Task {
            id: TaskId::from_columns(&id).expect("four columns"),
            weight,
            subproblem: Subproblem::Inner(oriented_board(n, &c)),
            size_hint: 0,
            n,
        };
        split_deep(task, rule, &mut |task| {
            if passed {
                each(hinted(task));
            } else {
                held.push(task);
                if held.len() >= min_tasks {
                    passed = true;
                    held.drain(..).for_each(|task| each(hinted(task)));
                }
            }
        });
    }
    while held.len() < min_tasks {
        let splittable = |t: &Task| match t.subproblem {
            Subproblem::Inner(b) => {
                b.free_rows().count_ones() >= 6 && t.id.columns().len() < MAX_ID_LEN
            }
            _ => false,
        };
        if !held.iter().any(splittable) {
            break;
        }
        held = split_where(held, splittable);
    }
    held.into_iter().for_each(|task| each(hinted(task)));
    true
}

/// Gives `out` the tasks `task` stands for under `rule`: itself, or under [`TaskRule::Large`]
/// while more than `n − 5` rows are free, its children (by its first free row), each split
/// likewise, in column order. The plan's tasks are these of each constellation in turn.
fn split_deep(task: Task, rule: TaskRule, out: &mut impl FnMut(Task)) {
    let deep = match task.subproblem {
        Subproblem::Inner(b) => {
            rule == TaskRule::Large && b.free_rows().count_ones() > task.n.saturating_sub(5)
        }
        Subproblem::Rows(_) => false,
    };
    if !deep {
        return out(task);
    }
    let mut children = Vec::new();
    split_into(&task, &mut children);
    if children == [task] {
        // No free row to split by: the task is its own child.
        return out(task);
    }
    for child in children {
        split_deep(child, rule, out);
    }
}

/// The task of the symmetric plan of the `n`-board named `id` (as [`each_task`] makes it,
/// size hint set), made again from its id: the constellation's oriented board, then a queen
/// on the first free row at each further column. `None` for an id no symmetric plan of the
/// `n`-board holds (a constellation that is not canonical, a square that is not free).
pub(crate) fn task_of(n: u32, id: &TaskId) -> Option<Task> {
    let cols = id.columns();
    let [i, j, k, l, rest @ ..] = cols else {
        return None;
    };
    let [i, j, k, l] = [*i, *j, *k, *l].map(u32::from);
    let c = Constellation { i, j, k, l };
    if !(4..=MAX_JOB_N).contains(&n) || [i, j, k, l].iter().any(|&x| x >= n) {
        return None;
    }
    let weight = class_weight(n, &c)?;
    let mut board = oriented_board_checked(n, &c)?;
    for &col in rest {
        board = board.place(u32::from(col))?;
    }
    Some(Task {
        id: *id,
        weight,
        subproblem: Subproblem::Inner(board),
        size_hint: size_hint(&board),
        n,
    })
}

/// The weight of the class of `c` on the `n`-board when `c` is its canonical constellation
/// (the smallest of its images; 8 over the images equal to it), as [`constellations`] gives
/// it; `None` when it is not.
fn class_weight(n: u32, c: &Constellation) -> Option<u64> {
    let m = n - 1;
    if c.is_corner() {
        return (0 < c.j && c.j < c.l && c.l < m).then_some(8);
    }
    let Constellation { i, j, k, l } = *c;
    let inside = [i, j, k, l].iter().all(|&x| 0 < x && x < m);
    let apart = j != i && k != i && k != m - j && l != k && l != m - i && l != j;
    if !(inside && apart) {
        return None;
    }
    let mut fixed = 0;
    for image in c.images(m) {
        if image < *c {
            return None;
        }
        fixed += u64::from(image == *c);
    }
    Some(8 / fixed)
}

/// Where each task of a symmetric plan goes in plan order: by size hint, largest first, then
/// by the length of the task id, ties in the order [`each_task`] makes them (a stable
/// counting sort on that small key: a hint is at most n + n², an id at most [`MAX_ID_LEN`]
/// long).
///
/// Ids order by length first, and the tasks of one id length are made in increasing id
/// order: the classes are made in that order, and a split puts a task's children, in column
/// order, where the task was. So this is the order of (hint, id), found in two passes over
/// the tasks made one at a time (n = 32, 2.3 million tasks: a comparison sort takes about
/// 0.5 s), with nothing kept per task.
pub(crate) struct PlanOrder {
    n: u32,
    min_tasks: usize,
    rule: TaskRule,
    /// The tasks of each key ([`PlanOrder::key`]).
    of_key: Vec<u32>,
    /// The place of the next task of each key.
    next: Vec<u32>,
    len: usize,
}

impl PlanOrder {
    /// The order of the symmetric plan for `n` in `4..=MAX_JOB_N` (its tasks made once and
    /// counted by key); `None` for other `n`.
    pub(crate) fn new(n: u32, min_tasks: usize, rule: TaskRule) -> Option<PlanOrder> {
        let mut of_key: Vec<u32> = Vec::new();
        let made = each_task(n, min_tasks, rule, |task| {
            let key = PlanOrder::key(&task);
            if key >= of_key.len() {
                of_key.resize(key + 1, 0);
            }
            of_key[key] += 1;
        });
        if !made {
            return None;
        }
        // Hints from the largest down, id lengths from the shortest up.
        let lengths = MAX_ID_LEN + 1;
        let mut next = vec![0u32; of_key.len()];
        let mut at = 0u32;
        for (keys, starts) in of_key.chunks(lengths).zip(next.chunks_mut(lengths)).rev() {
            for (&tasks, start) in keys.iter().zip(starts) {
                *start = at;
                at += tasks;
            }
        }
        Some(PlanOrder {
            n,
            min_tasks,
            rule,
            of_key,
            next,
            len: at as usize,
        })
    }

    /// A task's key: its size hint, then its id length.
    fn key(task: &Task) -> usize {
        task.size_hint as usize * (MAX_ID_LEN + 1) + task.id.columns().len()
    }

    /// How many tasks the plan has.
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// How many tasks have each size hint, in plan order (largest first; hints no task has left
    /// out).
    pub(crate) fn hints(&self) -> impl Iterator<Item = (u64, usize)> + '_ {
        let lengths = MAX_ID_LEN + 1;
        self.of_key
            .chunks(lengths)
            .enumerate()
            .rev()
            .map(|(hint, keys)| (hint as u64, keys.iter().map(|&k| k as usize).sum()))
            .filter(|&(_, tasks)| tasks > 0)
    }

    /// Gives `place` each task of the plan (made again) with its place in plan order.
    pub(crate) fn place(&self, mut place: impl FnMut(usize, Task)) {
        let mut next = self.next.clone();
        each_task(self.n, self.min_tasks, self.rule, |task| {
            let at = &mut next[PlanOrder::key(&task)];
            place(*at as usize, task);
            *at += 1;
        });
    }
}

/// `tasks` in order, each task that `split_it` picks replaced by its children.
fn split_where(tasks: Vec<Task>, split_it: impl Fn(&Task) -> bool) -> Vec<Task> {
    let mut out = Vec::with_capacity(tasks.len() * 2);
    for task in tasks {
        if split_it(&task) {
            split_into(&task, &mut out);
        } else {
            out.push(task);
        }
    }
    out
}

/// Appends the children of `task` to `out`: one per free square of its first free row, dead
/// ends dropped (a task without a free row is its own child).
fn split_into(task: &Task, out: &mut Vec<Task>) {
    let Subproblem::Inner(board) = task.subproblem else {
        out.push(*task);
        return;
    };
    let Some(rows) = FirstRows::of(&board) else {
        out.push(*task);
        return;
    };
    let (row, mut free) = rows.first;
    while free != 0 {
        let col = free.trailing_zeros();
        free &= free - 1;
        if rows.open_after(col) == Some(0) {
            continue;
        }
        out.push(Task {
            id: task.id.child(col as u8),
            weight: task.weight,
            subproblem: Subproblem::Inner(board.with_queen(row, col)),
            size_hint: 0,
            n: task.n,
        });
    }
}

/// Placements on the next two free rows: cheap, and ranks tasks well enough. Each queen of the
/// first free row counts one, plus the squares of the next free row that neither the
/// pre-placed queens nor it attack.
fn size_hint(board: &InnerBoard) -> u64 {
    let Some(rows) = FirstRows::of(board) else {
        return 0;
    };
    let mut free = rows.first.1;
    let mut hint = 0;
    while free != 0 {
        let col = free.trailing_zeros();
        free &= free - 1;
        hint += 1 + rows
            .open_after(col)
            .map_or(0, |open| u64::from(open.count_ones()));
    }
    hint
}

/// The first two free rows of a board, as a split and a size hint read them.
struct FirstRows {
    /// The first free row and its free squares.
    first: (u32, u64),
    /// How many rows below it the next free row is, and the squares of that row that no
    /// pre-placed queen attacks; `None` when the first free row is the last.
    next: Option<(u32, u64)>,
}

impl FirstRows {
    /// The first two free rows of `board`; `None` when every row holds a queen.
    fn of(board: &InnerBoard) -> Option<FirstRows> {
        let rows = board.free_rows();
        if rows == 0 {
            return None;
        }
        let first = rows.trailing_zeros();
        let later = rows & (rows - 1);
        let next = (later != 0).then(|| {
            let second = later.trailing_zeros();
            (second - first, !board.blocked(second))
        });
        Some(FirstRows {
            first: (first, !board.blocked(first)),
            next,
        })
    }

    /// The squares of the next free row still open once a queen stands on column `col` of the
    /// first one; `None` without a next free row.
    fn open_after(&self, col: u32) -> Option<u64> {
        let (d, open) = self.next?;
        let attacked = 1u64 << col | 1u64 << (col + d) | (1u64 << col) >> d;
        Some(open & !attacked)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::kernel::count_job;
    use crate::known;

    fn count_inner(b: &InnerBoard) -> u64 {
        count_job::<false>(&b.job(), &mut 0)
    }

    fn class_total(n: u32) -> u128 {
        constellations(n)
            .iter()
            .map(|(c, w)| {
                let b = InnerBoard::new(n, &c.queens(n)).unwrap();
                u128::from(*w) * u128::from(count_inner(&b))
            })
            .sum()
    }

    #[test]
    fn weighted_classes_sum_to_the_known_totals() {
        for n in 4..=12 {
            assert_eq!(
                Some(class_total(n)),
                known::Known::of(n).map(|k| k.total),
                "n={n}"
            );
        }
    }

    #[test]
    fn every_weight_class_appears_for_every_residue_mod_4() {
        for n in 8..=11u32 {
            let weights: Vec<u64> = constellations(n).iter().map(|&(_, w)| w).collect();
            assert!(weights.contains(&8), "n={n}");
            assert!(weights.contains(&4), "n={n}");
            // Quarter-turn symmetric classes (i, n−1−i, n−1−i, i) exist for every n; their
            // counts are zero for n ≡ 2, 3 (mod 4), where no solution has that symmetry.
            assert!(weights.contains(&2), "n={n}");
        }
    }

    #[test]
    fn the_orientation_does_not_change_a_class_count() {
        let n = 10;
        for (c, _) in constellations(n) {
            let plain = InnerBoard::new(n, &c.queens(n)).unwrap();
            let oriented = oriented_board(n, &c);
            assert_eq!(count_inner(&plain), count_inner(&oriented), "{c:?}");
        }
    }

    #[test]
    fn the_top_and_bottom_columns_of_each_orientation_are_where_the_symmetries_put_them() {
        for n in [5, 8, 11] {
            let m = n - 1;
            for (c, _) in constellations(n)
                .into_iter()
                .filter(|(c, _)| !c.is_corner())
            {
                let queens = c.queens(n);
                let found = SYMMETRIES.map(|g| {
                    let image: Vec<Square> = queens.iter().map(|&q| g.image(n, q)).collect();
                    let column_in = |row| image.iter().find(|q| q.0 == row).unwrap().1;
                    (column_in(0), column_in(m))
                });
                assert_eq!(found, c.ends(m), "n={n} {c:?}");
            }
        }
    }

    #[test]
    fn the_images_of_a_class_are_its_images_under_the_eight_symmetries() {
        for n in [6, 9, 12] {
            let m = n - 1;
            for i in 1..m {
                for j in 1..m {
                    for k in 1..m {
                        for l in 1..m {
                            let c = Constellation { i, j, k, l };
                            let queens = c.queens(n);
                            let mut by_map: Vec<Constellation> = SYMMETRIES
                                .iter()
                                .map(|g| {
                                    let image: Vec<Square> =
                                        queens.iter().map(|&q| g.image(n, q)).collect();
                                    let column_in =
                                        |row| image.iter().find(|q| q.0 == row).unwrap().1;
                                    let row_in = |col| image.iter().find(|q| q.1 == col).unwrap().0;
                                    Constellation {
                                        i: column_in(0),
                                        j: column_in(m),
                                        k: row_in(0),
                                        l: row_in(m),
                                    }
                                })
                                .collect();
                            let mut by_formula = c.images(m).to_vec();
                            by_map.sort();
                            by_formula.sort();
                            assert_eq!(by_map, by_formula, "n={n} {c:?}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn every_task_is_made_again_from_its_id_and_no_other_id_makes_one() {
        use crate::engine::plan::Plan;
        for n in (4..=13).chain([23]) {
            // Held whole (n = 23 would be held by id, its tasks made by `task_of`).
            let plan = Plan::whole(n, Plan::DEFAULT_MIN_TASKS, TaskRule::for_board(n));
            for task in plan.tasks() {
                assert_eq!(task_of(n, &task.id), Some(task), "n={n}");
            }
        }
        let n = 10;
        let id = |cols: &[u8]| TaskId::from_columns(cols).unwrap();
        let canonical = constellations(n);
        let (c, weight) = canonical[canonical.len() / 2];
        let cols = [c.i, c.j, c.k, c.l].map(|x| x as u8);
        assert_eq!(task_of(n, &id(&cols)).map(|t| t.weight), Some(weight));
        // Another image of the same class, a constellation off the board, queens that attack
        // each other, an id too short, and a queen on a square that is not free.
        let image = c
            .images(n - 1)
            .into_iter()
            .find(|&image| image != c)
            .unwrap();
        assert_eq!(
            task_of(
                n,
                &id(&[image.i, image.j, image.k, image.l].map(|x| x as u8))
            ),
            None
        );
        assert_eq!(task_of(n, &id(&[1, 2, 3, 10])), None);
        assert_eq!(task_of(n, &id(&[1, 1, 3, 4])), None);
        assert_eq!(task_of(n, &id(&[1, 2, 3])), None);
        assert_eq!(task_of(n, &id(&[0, 2, 0, 1])), None);
        let board = task_of(n, &id(&cols)).unwrap();
        let Subproblem::Inner(b) = board.subproblem else {
            panic!("an inner board");
        };
        let (_, free) = b.first_free_row().unwrap();
        let taken = (!free & ((1u64 << n) - 1)).trailing_zeros() as u8;
        let mut longer = cols.to_vec();
        longer.push(taken);
        assert_eq!(task_of(n, &id(&longer)), None);
        longer.pop();
        longer.push(free.trailing_zeros() as u8);
        assert!(task_of(n, &id(&longer)).is_some());
        assert_eq!(task_of(3, &id(&cols)), None);
        assert_eq!(task_of(MAX_JOB_N + 1, &id(&cols)), None);
    }

    #[test]
    fn symmetries_are_eight_distinct_maps() {
        let n = 7;
        let images: Vec<Square> = SYMMETRIES.iter().map(|g| g.image(n, (0, 1))).collect();
        let mut distinct = images.clone();
        distinct.sort();
        distinct.dedup();
        assert_eq!(distinct.len(), 8, "{images:?}");
    }
}

#[cfg(test)]
mod doc_examples {
    //! The examples of the crate-private items above, as tests.

    #[test]
    fn constellations_example() {
        use crate::engine::plan::symmetric::{Constellation, constellations};
        // On the 4-board: one corner class (which has no completion) and the class of the two
        // solutions, fixed by the quarter turn.
        let classes = constellations(4);
        assert_eq!(
            classes[0],
            (
                Constellation {
                    i: 0,
                    j: 1,
                    k: 0,
                    l: 2
                },
                8
            )
        );
        assert_eq!(
            classes[1],
            (
                Constellation {
                    i: 1,
                    j: 2,
                    k: 2,
                    l: 1
                },
                2
            )
        );
        assert_eq!(classes.len(), 2);
    }
}
