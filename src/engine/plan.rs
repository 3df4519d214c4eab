//! Decomposition of one board into independent, weighted subtrees.
//!
//! A [`Plan`] for board side `n` is a list of [`Task`]s such that
//! `total = Σ task.weight × task.count(n)`. Every strategy gives the same totals; they differ in
//! how much of the search tree they visit.
//!
//! # The `symmetric` strategy (the default)
//!
//! Pre-places the four border queens (top and bottom row, left and right column), keeps one
//! constellation per class under the 8 symmetries of the square with weight 2, 4 or 8, and
//! counts each class's inner board with a kernel that skips the rows already filled. About a
//! sixth of the full tree's nodes are visited (a third of `mirror`'s). See
//! [`super::symmetric`] for the method and [`super::inner_kernel`] for the kernel. Boards below
//! 4 or wider than [`super::inner_kernel::MAX_INNER_N`] use the `mirror` tasks.
//!
//! # The `mirror` strategy
//!
//! Reflecting a solution left-to-right (column `c` ↦ `n − 1 − c`) gives another solution, and
//! never the same one when `n ≥ 2` (the first-row queen would have to sit on the middle column
//! *and* every other queen too). So:
//!
//! * **First-row queen in the left half** (`c < n/2`), weight 2: each such solution stands for
//!   itself and its mirror image, whose first-row queen is in the right half.
//! * **Odd `n`, first-row queen in the middle column**: the mirror image also has its first-row
//!   queen in the middle, so the first row cannot tell the pair apart. The second-row queen can: it
//!   is never in the middle column (that column is taken), so it is in the left half for exactly one
//!   of the pair. Middle first queen with second queen in the left half, weight 2.
//! * `n = 0` (one empty placement) and `n = 1` (one queen, its own mirror image) are single tasks
//!   of weight 1.
//!
//! These roots are then expanded row by row — every task replaced by its children, a child whose
//! next row has no free square dropped since it has no completion — until there are at least
//! `min_tasks` tasks (see [`default_min_tasks`]) or only a few rows are left to search. Each task
//! carries a [`TaskId`]: the columns of its pre-placed queens, row by row, which names it the same
//! way on every run, whatever the thread count. Tasks are returned largest-first by a cheap size
//! estimate so that a list scheduler finishes with small tasks.

use std::fmt;
use std::str::FromStr;

use super::inner_kernel::{self, InnerBoard};
use super::kernel::{self, State};
use super::lane_kernel;
use crate::Error;

/// Version of the task decomposition. Anything that records per-task results (checkpoints,
/// shards) must refuse results recorded under another version.
pub const PLAN_VERSION: u32 = 1;

/// The most queens a [`TaskId`] can name.
pub const MAX_ID_LEN: usize = 16;

/// How a board is split into tasks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, clap::ValueEnum, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Strategy {
    /// Border queens pre-placed, one constellation per symmetry class (weight 2, 4 or 8), inner
    /// rows searched by a kernel that skips filled rows (the fastest).
    #[default]
    Symmetric,
    /// First-row queen over the left half (weight 2), prefixes expanded a few rows deeper.
    Mirror,
}

impl Strategy {
    /// The strategy's name as the command line and the output formats spell it.
    ///
    /// ```
    /// assert_eq!(nqueens::Strategy::Mirror.name(), "mirror");
    /// assert_eq!(nqueens::Strategy::default().name(), "symmetric");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Strategy::Symmetric => "symmetric",
            Strategy::Mirror => "mirror",
        }
    }
}

impl fmt::Display for Strategy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Which kernel counts the tasks. Every kernel gives the same count for every task; the choice
/// only changes the speed (and lets a count be checked by an independent implementation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, clap::ValueEnum, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kernel {
    /// The lane kernel where the CPU has AVX-512 (F and VPOPCNTDQ), the depth-first kernels
    /// elsewhere.
    #[default]
    Auto,
    /// The AVX-512 lane kernel (an error on a CPU without it).
    Lanes,
    /// The portable depth-first kernels (row by row for `mirror`, row-skipping for
    /// `symmetric`).
    DepthFirst,
}

impl Kernel {
    /// The kernel's name as the command line spells it.
    ///
    /// ```
    /// assert_eq!(nqueens::Kernel::DepthFirst.name(), "depth-first");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Kernel::Auto => "auto",
            Kernel::Lanes => "lanes",
            Kernel::DepthFirst => "depth-first",
        }
    }

    /// `Ok` when this CPU can run the kernel: always, except [`Kernel::Lanes`] without AVX-512.
    ///
    /// ```
    /// assert!(nqueens::Kernel::DepthFirst.check().is_ok());
    /// assert_eq!(
    ///     nqueens::Kernel::Lanes.check().is_ok(),
    ///     nqueens::engine::lane_kernel::available()
    /// );
    /// ```
    pub fn check(self) -> Result<(), Error> {
        if self == Kernel::Lanes && !lane_kernel::available() {
            return Err(Error::KernelUnavailable);
        }
        Ok(())
    }
}

impl fmt::Display for Kernel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A deterministic task name: the columns of the queens the task pre-places, in order.
///
/// Displayed as the columns joined by dots (`3.0.5`); the empty id (the whole board) is `-`.
///
/// ```
/// use nqueens::engine::plan::TaskId;
/// let id = TaskId::from_cols(&[3, 0, 5]).unwrap();
/// assert_eq!(id.to_string(), "3.0.5");
/// assert_eq!("3.0.5".parse::<TaskId>().unwrap(), id);
/// assert_eq!(TaskId::default().to_string(), "-");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TaskId {
    len: u8,
    cols: [u8; MAX_ID_LEN],
}

impl TaskId {
    /// An id from a list of columns; `None` when longer than [`MAX_ID_LEN`].
    pub fn from_cols(cols: &[u8]) -> Option<TaskId> {
        if cols.len() > MAX_ID_LEN {
            return None;
        }
        let mut id = TaskId {
            len: cols.len() as u8,
            cols: [0; MAX_ID_LEN],
        };
        id.cols[..cols.len()].copy_from_slice(cols);
        Some(id)
    }

    /// The columns this id names.
    pub fn cols(&self) -> &[u8] {
        &self.cols[..self.len as usize]
    }

    /// This id with one more column appended.
    fn child(&self, col: u8) -> TaskId {
        let mut id = *self;
        id.cols[id.len as usize] = col;
        id.len += 1;
        id
    }
}

impl fmt::Display for TaskId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.len == 0 {
            return f.write_str("-");
        }
        for (i, c) in self.cols().iter().enumerate() {
            if i > 0 {
                f.write_str(".")?;
            }
            write!(f, "{c}")?;
        }
        Ok(())
    }
}

impl FromStr for TaskId {
    type Err = String;

    fn from_str(s: &str) -> Result<TaskId, String> {
        if s == "-" {
            return Ok(TaskId::default());
        }
        let cols: Vec<u8> = s
            .split('.')
            .map(|p| p.parse::<u8>().map_err(|_| format!("bad task id '{s}'")))
            .collect::<Result<_, _>>()?;
        TaskId::from_cols(&cols).ok_or_else(|| format!("task id '{s}' is too long"))
    }
}

/// The search a task performs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Subproblem {
    /// Complete a board whose first `state.row` rows hold queens.
    Rows(State),
    /// Complete a board with pre-placed queens on any rows (the `symmetric` plan's border).
    Inner(InnerBoard),
}

impl Subproblem {
    /// Counts this subproblem's solutions (unweighted) with the fastest kernel this CPU has.
    pub fn count(&self, n: u32) -> u64 {
        self.count_with(n, Kernel::Auto)
    }

    /// Counts this subproblem's solutions (unweighted) with `kernel`. [`Kernel::Lanes`] falls
    /// back to the depth-first kernels where the lane kernel does not apply (a CPU without
    /// AVX-512, which [`Kernel::check`] reports, or fewer than four free rows).
    pub fn count_with(&self, n: u32, kernel: Kernel) -> u64 {
        let in_lanes = match *self {
            _ if kernel == Kernel::DepthFirst => None,
            Subproblem::Rows(state) => lane_kernel::count_lanes_rows(n, state),
            Subproblem::Inner(board) => lane_kernel::count_lanes(&board),
        };
        in_lanes.unwrap_or_else(|| match *self {
            Subproblem::Rows(state) => kernel::count_completions(n, state),
            Subproblem::Inner(board) => inner_kernel::count_inner_dfs::<false>(&board, &mut 0),
        })
    }
}

/// One independent piece of the search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Task {
    /// Deterministic name, the same on every run of the same plan.
    pub id: TaskId,
    /// How many solutions each solution of this subproblem stands for.
    pub weight: u64,
    /// What to search.
    pub subproblem: Subproblem,
    /// A cheap estimate of the task's size, used only to order tasks largest-first.
    pub size_hint: u64,
}

impl Task {
    /// Counts this task's solutions, unweighted.
    pub fn count(&self, n: u32) -> u64 {
        self.subproblem.count(n)
    }

    /// Counts this task's solutions, unweighted, with `kernel`.
    pub fn count_with(&self, n: u32, kernel: Kernel) -> u64 {
        self.subproblem.count_with(n, kernel)
    }
}

/// A board split into tasks, largest-first.
#[derive(Clone, Debug)]
pub struct Plan {
    /// Board side.
    pub n: u32,
    /// The strategy that made it.
    pub strategy: Strategy,
    /// The tasks, largest (by estimate) first.
    pub tasks: Vec<Task>,
}

/// The task count the planner aims for when `threads` workers will run the plan: at least 16
/// per thread and never fewer than 4096, so the plan (and so task ids) are the same for any
/// thread count up to 256.
///
/// ```
/// assert_eq!(nqueens::engine::plan::default_min_tasks(2), 4096);
/// assert_eq!(nqueens::engine::plan::default_min_tasks(1000), 16000);
/// ```
pub fn default_min_tasks(threads: usize) -> usize {
    threads.saturating_mul(16).max(4096)
}

impl Plan {
    /// Splits the `n`-board into at least `min_tasks` tasks where the board is big enough.
    ///
    /// ```
    /// use nqueens::engine::plan::{Plan, Strategy};
    /// let plan = Plan::new(8, Strategy::Mirror, 64).unwrap();
    /// let total: u64 = plan.tasks.iter().map(|t| t.weight * t.count(8)).sum();
    /// assert_eq!(total, 92);
    /// ```
    pub fn new(n: u32, strategy: Strategy, min_tasks: usize) -> Result<Plan, Error> {
        if n > kernel::MAX_N {
            return Err(Error::BoardTooLarge { n });
        }
        let tasks = match strategy {
            Strategy::Symmetric => super::symmetric::symmetric_tasks(n, min_tasks)
                .unwrap_or_else(|| mirror_tasks(n, min_tasks)),
            Strategy::Mirror => mirror_tasks(n, min_tasks),
        };
        Ok(Plan { n, strategy, tasks })
    }
}

fn mirror_tasks(n: u32, min_tasks: usize) -> Vec<Task> {
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

fn prefix_task(n: u32, cols: &[u8], weight: u64) -> Task {
    let state = cols
        .iter()
        .fold(State::EMPTY, |s, &c| s.place_col(c.into()));
    debug_assert!(state.row <= n);
    Task {
        id: TaskId::from_cols(cols).expect("root ids are short"),
        weight,
        subproblem: Subproblem::Rows(state),
        size_hint: 0,
    }
}

fn mirror_roots(n: u32) -> Vec<Task> {
    match n {
        0 => return vec![prefix_task(n, &[], 1)],
        1 => return vec![prefix_task(n, &[0], 1)],
        _ => {}
    }
    let half = (n / 2) as u8;
    let mut roots: Vec<Task> = (0..half).map(|c| prefix_task(n, &[c], 2)).collect();
    if n % 2 == 1 {
        let middle = State::EMPTY.place_col(half.into());
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::known;

    fn plan_total(plan: &Plan) -> u128 {
        plan.tasks
            .iter()
            .map(|t| u128::from(t.weight) * u128::from(t.count(plan.n)))
            .sum()
    }

    #[test]
    fn mirror_plans_sum_to_the_known_totals_at_every_depth() {
        for n in 0..=12 {
            for min_tasks in [1, 8, 100, 4096] {
                let plan = Plan::new(n, Strategy::Mirror, min_tasks).unwrap();
                assert_eq!(
                    Some(plan_total(&plan)),
                    known::total(n),
                    "n={n} min={min_tasks}"
                );
            }
        }
    }

    #[test]
    fn task_sums_equal_a_plain_unsplit_search() {
        for n in 4..=11 {
            let plan = Plan::new(n, Strategy::Mirror, 500).unwrap();
            let plain = kernel::count_completions_recursive(n, State::EMPTY);
            assert_eq!(plan_total(&plan), u128::from(plain), "n={n}");
        }
    }

    #[test]
    fn ids_are_unique_and_name_the_prefix() {
        let n = 11;
        let plan = Plan::new(n, Strategy::Mirror, 2000).unwrap();
        assert!(plan.tasks.len() >= 2000, "{}", plan.tasks.len());
        let mut ids: Vec<TaskId> = plan.tasks.iter().map(|t| t.id).collect();
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), plan.tasks.len());
        for t in &plan.tasks {
            let rebuilt = prefix_task(n, t.id.cols(), t.weight);
            assert_eq!(rebuilt.subproblem, t.subproblem);
        }
    }

    #[test]
    fn plans_are_deterministic_and_largest_first() {
        let a = Plan::new(13, Strategy::Mirror, 4096).unwrap();
        let b = Plan::new(13, Strategy::Mirror, 4096).unwrap();
        assert_eq!(a.tasks, b.tasks);
        assert!(a.tasks.windows(2).all(|w| w[0].size_hint >= w[1].size_hint));
    }

    #[test]
    fn odd_boards_weight_the_middle_column_by_its_second_row() {
        let roots = mirror_roots(5);
        let ids: Vec<String> = roots.iter().map(|t| t.id.to_string()).collect();
        assert_eq!(ids, ["0", "1", "2.0"]);
        assert!(roots.iter().all(|t| t.weight == 2));
    }

    #[test]
    fn symmetric_plans_sum_to_the_known_totals_at_every_depth() {
        for n in 0..=12 {
            for min_tasks in [1, 100, 4096] {
                let plan = Plan::new(n, Strategy::Symmetric, min_tasks).unwrap();
                assert_eq!(
                    Some(plan_total(&plan)),
                    known::total(n),
                    "n={n} min={min_tasks}"
                );
            }
        }
    }

    #[test]
    fn symmetric_plans_are_deterministic_with_unique_ids_and_many_tasks() {
        let a = Plan::new(14, Strategy::Symmetric, 4096).unwrap();
        let b = Plan::new(14, Strategy::Symmetric, 4096).unwrap();
        assert_eq!(a.tasks, b.tasks);
        assert!(a.tasks.len() >= 4096, "{}", a.tasks.len());
        assert!(a.tasks.windows(2).all(|w| w[0].size_hint >= w[1].size_hint));
        let mut ids: Vec<TaskId> = a.tasks.iter().map(|t| t.id).collect();
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), a.tasks.len());
        assert!(a.tasks.iter().all(|t| [2, 4, 8].contains(&t.weight)));
    }

    #[test]
    fn symmetric_falls_back_to_mirror_where_the_border_does_not_fit() {
        for n in [0, 1, 2, 3, inner_kernel::MAX_INNER_N + 1, 64] {
            let sym = Plan::new(n, Strategy::Symmetric, 64).unwrap();
            let mirror = Plan::new(n, Strategy::Mirror, 64).unwrap();
            assert_eq!(sym.tasks, mirror.tasks, "n={n}");
        }
    }

    #[test]
    fn boards_wider_than_the_masks_are_refused() {
        assert!(Plan::new(65, Strategy::Mirror, 1).is_err());
        assert!(Plan::new(64, Strategy::Mirror, 1).is_ok());
    }

    #[test]
    fn task_ids_reject_garbage() {
        assert!("1.x".parse::<TaskId>().is_err());
        assert!("".parse::<TaskId>().is_err());
        let long = vec!["1"; MAX_ID_LEN + 1].join(".");
        assert!(long.parse::<TaskId>().is_err());
    }
}
