//! Decomposition of one board into independent, weighted subtrees.
//!
//! A [`Plan`] for board size `n` is a list of [`Task`]s such that
//! `total = Σ task.weight × task.count(n)`. Every strategy gives the same totals; they differ in
//! how much of the search tree they visit.
//!
//! # The `symmetric` strategy (the default)
//!
//! Pre-places the four border queens (top and bottom row, left and right column), keeps one
//! constellation per class under the 8 symmetries of the square with weight 2, 4 or 8, and
//! counts each class's inner board with a kernel that skips the rows already filled. About a
//! sixth of the full tree's nodes are visited (a third of `mirror`'s). See
//! [`symmetric`] for the method and [`super::kernel`] for the kernels. Boards below 4 or wider
//! than [`super::kernel::MAX_JOB_N`] use the `mirror` tasks.
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
//! `min_tasks` tasks (see [`Plan::DEFAULT_MIN_TASKS`]) or only a few rows are left to search. Each task
//! carries a [`TaskId`]: the columns of its pre-placed queens, row by row, which names it the same
//! way on every run, whatever the thread count. Tasks are returned largest-first by a cheap size
//! estimate so that a list scheduler finishes with small tasks.

use std::fmt;
use std::str::FromStr;

use std::sync::atomic::AtomicBool;

use super::kernel::{self, InnerBoard, Selected, State};
use crate::error::Error;
pub use crate::ids::{MAX_ID_LEN, Strategy, TaskId};
pub use fingerprint::Fingerprint;

pub mod fingerprint;
pub mod mirror;
#[cfg(test)]
mod search_order;
pub mod symmetric;

impl Strategy {
    /// The strategy's name as the command line and the output formats spell it.
    ///
    /// ```
    /// assert_eq!(nqueens::Strategy::Mirror.name(), "mirror");
    /// assert_eq!(nqueens::Strategy::default().name(), "symmetric");
    /// ```
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Strategy::Symmetric => "symmetric",
            Strategy::Mirror => "mirror",
        }
    }
}

impl fmt::Display for Strategy {
    /// The name, padded to the formatter's width (`{:<10}`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.name())
    }
}

// Written as its name, read back as `FromStr` reads it (in any case).
#[cfg(feature = "serde")]
crate::serde_util::as_text!(Strategy);

// Written as `3.0.5`, as the journal's messages name it.
#[cfg(feature = "serde")]
crate::serde_util::as_text!(TaskId);

impl TaskId {
    /// An id from a list of columns; `None` when longer than 16 columns.
    #[must_use]
    pub fn from_columns(cols: &[u8]) -> Option<TaskId> {
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
    #[must_use]
    pub fn columns(&self) -> &[u8] {
        &self.cols[..self.len as usize]
    }

    /// This id with one more column appended.
    pub(crate) fn child(&self, col: u8) -> TaskId {
        let mut id = *self;
        id.cols[id.len as usize] = col;
        id.len += 1;
        id
    }
}

impl TaskId {
    /// Writes the columns joined by `.` (`-` for the empty id).
    fn write_to(&self, out: &mut impl fmt::Write) -> fmt::Result {
        if self.len == 0 {
            return out.write_str("-");
        }
        for (i, c) in self.columns().iter().enumerate() {
            if i > 0 {
                out.write_str(".")?;
            }
            write!(out, "{c}")?;
        }
        Ok(())
    }
}

impl fmt::Display for TaskId {
    /// The columns joined by `.` (`-` for the empty id), padded to the formatter's width.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if f.width().is_none() && f.precision().is_none() {
            return self.write_to(f);
        }
        let mut text = String::new();
        self.write_to(&mut text)?;
        f.pad(&text)
    }
}

impl FromStr for TaskId {
    type Err = Error;

    /// Reads `-` or columns joined by dots, as `Display` writes them.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidTaskId`] for anything else, or more than 16 columns.
    ///
    /// ```
    /// use nqueens::{Error, TaskId};
    /// assert_eq!("3.0.5".parse::<TaskId>().unwrap().to_string(), "3.0.5");
    /// let error = "3.x".parse::<TaskId>().unwrap_err();
    /// assert!(matches!(&error, Error::InvalidTaskId(text) if text == "3.x"));
    /// assert_eq!(error.to_string(), "'3.x' is not a task id (`-` or up to 16 columns joined by dots)");
    /// ```
    fn from_str(s: &str) -> Result<TaskId, Error> {
        if s == "-" {
            return Ok(TaskId::default());
        }
        let cols: Vec<u8> = s
            .split('.')
            .map(|p| p.parse::<u8>())
            .collect::<Result<_, _>>()
            .map_err(|_| Error::InvalidTaskId(s.to_string()))?;
        TaskId::from_columns(&cols).ok_or_else(|| Error::InvalidTaskId(s.to_string()))
    }
}

/// The search a task performs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Subproblem {
    /// Complete a board whose first `state.row` rows hold queens.
    Rows(State),
    /// Complete a board with pre-placed queens on any rows (the `symmetric` plan's border).
    Inner(InnerBoard),
}

impl Subproblem {
    /// Counts this subproblem's solutions (unweighted) with the fastest kernel this CPU has;
    /// `None` when it is not a partial board of the `n`-board.
    ///
    /// ```
    /// use nqueens::search::State;
    /// use nqueens::search::Subproblem;
    /// assert_eq!(Subproblem::Rows(State::EMPTY).count(8), Some(92));
    /// assert_eq!(Subproblem::Rows(State::EMPTY).count(65), None);
    /// ```
    #[must_use]
    pub fn count(&self, n: u32) -> Option<u64> {
        let auto = kernel::Kernel::fastest_cpu();
        self.count_on(n, auto, None)
    }

    /// Counts this subproblem's solutions (unweighted) with `kernel` on the calling thread:
    /// `Ok(None)` when it is not a partial board of the `n`-board. A GPU kernel counts a single
    /// subproblem on its CPU kernel (the GPU counts whole runs, in batches).
    ///
    /// # Errors
    ///
    /// [`Error::KernelUnavailable`](crate::Error::KernelUnavailable) when this CPU does not run
    /// `kernel`.
    ///
    /// ```
    /// use nqueens::search::{InnerBoard, Subproblem};
    /// use nqueens::Kernel;
    /// let board = Subproblem::Inner(InnerBoard::new(10, &[(0, 1)]).unwrap());
    /// for kernel in Kernel::available_lanes() {
    ///     assert_eq!(board.count_with(10, kernel).unwrap(), Some(48));
    /// }
    /// assert_eq!(board.count_with(11, Kernel::DepthFirst).unwrap(), None);
    /// ```
    pub fn count_with(&self, n: u32, kernel: kernel::Kernel) -> Result<Option<u64>, Error> {
        let selected = kernel.select()?.cpu_kernel();
        Ok(self.count_on(n, selected, None))
    }

    /// The search nodes (queens placed) the depth-first search visits to count this
    /// subproblem: the work its count takes, whatever the kernel; `None` when it is not a
    /// partial board of the `n`-board.
    ///
    /// ```
    /// use nqueens::search::{State, Subproblem};
    /// // The 4-board: 2 solutions, found among 16 placed queens.
    /// let whole = Subproblem::Rows(State::EMPTY);
    /// assert_eq!(whole.nodes(4), Some(16));
    /// assert!(whole.nodes(8).unwrap() > whole.nodes(6).unwrap());
    /// assert_eq!(whole.nodes(65), None);
    /// ```
    #[must_use]
    pub fn nodes(&self, n: u32) -> Option<u64> {
        let job = match self {
            Subproblem::Rows(state) => kernel::Job::from_rows(n, *state)?,
            Subproblem::Inner(board) if board.n() == n => board.job(),
            Subproblem::Inner(_) => return None,
        };
        let mut nodes = 0;
        kernel::count_job::<true>(&job, &mut nodes);
        Some(nodes)
    }

    /// Counts this subproblem's solutions (unweighted) with `kernel`; `None` when `stop` was
    /// raised before it finished, or when it is not a partial board of the `n`-board.
    pub(crate) fn count_on(
        &self,
        n: u32,
        kernel: Selected,
        stop: Option<&AtomicBool>,
    ) -> Option<u64> {
        match self {
            Subproblem::Rows(state) => kernel.count_rows(n, *state, stop),
            Subproblem::Inner(board) if board.n() == n => kernel.count_inner(board, stop),
            Subproblem::Inner(_) => None,
        }
    }
}

/// One independent piece of the search.
///
/// The tasks of the smallest `mirror` plan of the 8-board place the first-row queen in one of
/// the four left columns; each stands for its mirror image as well (weight 2):
///
/// ```
/// use nqueens::{Plan, Strategy, Task};
/// let plan = Plan::new(8, Strategy::Mirror, 1).unwrap();
/// let mut tasks: Vec<(String, u64, u64)> = plan
///     .tasks()
///     .map(|task: Task| (task.id.to_string(), task.weight, task.count(8).unwrap()))
///     .collect();
/// tasks.sort();
/// let expected = [("0", 2, 4), ("1", 2, 8), ("2", 2, 16), ("3", 2, 18)];
/// assert_eq!(tasks, expected.map(|(id, weight, count)| (id.to_string(), weight, count)));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Task {
    /// Deterministic name, the same on every run of the same plan.
    pub id: TaskId,
    /// How many solutions each solution of this subproblem stands for.
    pub weight: u64,
    /// What to search: the partial board this task completes ([`crate::search`]).
    pub subproblem: Subproblem,
    /// A cheap estimate of the task's size, used only to order tasks largest-first.
    pub size_hint: u64,
    /// The board size of the plan that holds the task.
    n: u32,
}

impl Task {
    /// Counts this task's solutions, unweighted, with the fastest kernel this CPU has (a
    /// count runs it with the kernel it selected once for the board); `None` when `n` is not the
    /// board of the task's plan ([`Task::n`]).
    ///
    /// ```
    /// use nqueens::{Plan, Strategy};
    /// let plan = Plan::new(10, Strategy::Symmetric, 1).unwrap();
    /// let task = plan.task(0).unwrap();
    /// assert!(task.count(10).is_some());
    /// assert_eq!(task.count(11), None);
    /// // A mirror task's first rows would fit another board too; it is still refused.
    /// let mirror = Plan::new(12, Strategy::Mirror, 1).unwrap().task(0).unwrap();
    /// assert_eq!((mirror.count(8), mirror.count(40)), (None, None));
    /// ```
    #[must_use]
    pub fn count(&self, n: u32) -> Option<u64> {
        if n != self.n {
            return None;
        }
        self.subproblem.count(n)
    }

    /// The board size of the plan that holds the task.
    ///
    /// ```
    /// use nqueens::{Plan, Strategy};
    /// assert_eq!(Plan::new(9, Strategy::Mirror, 4).unwrap().task(0).unwrap().n(), 9);
    /// ```
    #[must_use]
    pub fn n(&self) -> u32 {
        self.n
    }
}

/// A board split into tasks, largest-first.
///
/// Only [`Plan::new`] makes one, and its parts can be read but not changed, so a plan always
/// counts the board it names.
///
/// ```
/// use nqueens::{Plan, Strategy};
/// let plan = Plan::new(10, Strategy::Symmetric, 64).unwrap();
/// assert_eq!((plan.n(), plan.strategy()), (10, Strategy::Symmetric));
/// // Largest first, by the planner's size estimate.
/// let hints: Vec<u64> = plan.tasks().map(|task| task.size_hint).collect();
/// assert!(hints.windows(2).all(|pair| pair[0] >= pair[1]));
/// let total: u64 = plan.tasks().map(|task| task.weight * task.count(10).unwrap()).sum();
/// assert_eq!(total, 724);
/// ```
#[derive(Clone, Debug)]
pub struct Plan {
    n: u32,
    strategy: Strategy,
    held: Held,
}

/// How a plan holds its tasks: whole, or by id where that would take too much memory.
#[derive(Clone, Debug)]
enum Held {
    /// Each task whole (80 bytes a task), read as it is: plans of up to [`NAMED_FROM`] tasks.
    Whole(Vec<Task>),
    /// A `symmetric` plan's task ids alone (17 bytes a task), each task made again from its id
    /// when it is read (about 0.1 µs, against a tenth of a second or more of search for each
    /// task of the boards whose plans are this large): plans of more than [`NAMED_FROM`] tasks,
    /// such as every default plan from n = 23 on (n = 32: 2.3 million tasks, 38 MB instead of
    /// 180 MB).
    Named(Vec<TaskId>),
}

/// The task count above which a `symmetric` plan holds its tasks by id ([`Held::Named`]).
///
/// The crate's own tests hold plans of more than 1,000 tasks by id (from n = 11 on with the
/// default task count), so that the counts, journals, shards, merges and estimates they check
/// on boards of known totals run on plans held by id; the integration tests and the examples
/// in the documentation run on plans held whole.
const NAMED_FROM: usize = if cfg!(test) { 1_000 } else { 1 << 16 };

/// The positions of a plan's tasks, found by id: 4 bytes a task (9 MB for the 2.3 million
/// tasks of n = 32, where a hash map of ids would take about 100 MB), a lookup a binary
/// search.
pub(crate) struct IdIndex<'a> {
    plan: &'a Plan,
    /// Plan positions, in increasing order of their tasks' ids.
    order: Vec<u32>,
}

impl IdIndex<'_> {
    /// The position in plan order of the task named `id`, `None` when the plan holds none.
    pub(crate) fn position(&self, id: &TaskId) -> Option<usize> {
        let found = self
            .order
            .binary_search_by(|&p| self.plan.id(p as usize).cmp(id));
        found.ok().map(|at| self.order[at] as usize)
    }
}

/// The most tasks a plan is asked for: [`Plan::new`] reads a larger `min_tasks` as this one,
/// so that no request makes a list larger than memory (the last split multiplies the tasks by
/// at most `n`: about 2.3 million tasks, 38 MB held by id, for the `symmetric` plan of n = 32
/// and 0.8 million, 64 MB, for the `mirror` plan of n = 40, the largest).
pub const MAX_MIN_TASKS: usize = 1 << 16;

/// The largest board whose default plan ([`default_plan`]) is kept once made.
const KEPT_PLAN_N: u32 = 10;

/// The default plans of small boards made so far, with their fingerprints.
type KeptPlans = Vec<((u32, Strategy), (Plan, Fingerprint))>;
static KEPT_PLANS: std::sync::Mutex<KeptPlans> = std::sync::Mutex::new(Vec::new());

/// The plan of the `n`-board with [`Plan::DEFAULT_MIN_TASKS`] and its fingerprint. The plans of small
/// boards (up to n = 10, where making the plan takes longer than the search) are made once per
/// process and copied.
pub(crate) fn default_plan(n: u32, strategy: Strategy) -> Result<(Plan, Fingerprint), Error> {
    let make = || -> Result<(Plan, Fingerprint), Error> {
        let plan = Plan::new(n, strategy, Plan::DEFAULT_MIN_TASKS)?;
        let fingerprint = plan.fingerprint();
        Ok((plan, fingerprint))
    };
    if n > KEPT_PLAN_N {
        return make();
    }
    let key = (n, strategy);
    {
        let kept = KEPT_PLANS.lock().unwrap_or_else(|p| p.into_inner());
        if let Some((_, made)) = kept.iter().find(|(k, _)| *k == key) {
            return Ok(made.clone());
        }
    }
    let made = make()?;
    let mut kept = KEPT_PLANS.lock().unwrap_or_else(|p| p.into_inner());
    if !kept.iter().any(|(k, _)| *k == key) {
        kept.push((key, made.clone()));
    }
    Ok(made)
}

/// How deep the `symmetric` plan splits its constellations, whatever the task count asked for.
///
/// From n = 23 on a whole constellation is too big a task (at n = 27 it is hours of work):
/// [`TaskRule::Large`] splits each by its first free rows until at most `n − 5` rows are free
/// (one queen more for most classes, two for the corner classes, which have a free row more),
/// about 10 to 14 tasks per class. It is chosen by `n` alone, and can be forced on any board
/// ([`Plan::split_large`]) so that it is tested on boards whose totals are known.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum TaskRule {
    /// One task per constellation, split further only to reach the task count asked for.
    Standard,
    /// Every constellation split until at most `n − 5` rows are free.
    Large,
}

/// The first board size whose `symmetric` plan uses [`TaskRule::Large`].
pub const LARGE_N: u32 = 23;

impl TaskRule {
    /// The rule the plan of the `n`-board uses.
    pub(crate) fn for_board(n: u32) -> TaskRule {
        if n >= LARGE_N {
            TaskRule::Large
        } else {
            TaskRule::Standard
        }
    }
}

impl Plan {
    /// The largest board size: the `u64` masks of the search hold one bit per column.
    ///
    /// ```
    /// use nqueens::{count, CountOptions, Error, Plan};
    /// assert_eq!(Plan::MAX_N, 64);
    /// let too_wide = count(Plan::MAX_N + 1, &CountOptions::default()).unwrap_err();
    /// assert!(matches!(too_wide, Error::BoardTooLarge { n: 65 }));
    /// assert!(nqueens::enumerate::Solutions::all(Plan::MAX_N).is_ok());
    /// ```
    pub const MAX_N: u32 = crate::engine::kernel::MAX_N;

    /// Version of the task decomposition. Anything that records per-task results (journals,
    /// shards) must refuse results recorded under another version.
    ///
    /// Version 2: the task count no longer grows with the thread count
    /// ([`Plan::DEFAULT_MIN_TASKS`]).
    pub const VERSION: u32 = crate::ids::PLAN_VERSION;

    /// The task count the planner aims for by default, whatever the machine: plans (and so task
    /// ids, journals and shards) are the same on every machine and for every thread count.
    pub const DEFAULT_MIN_TASKS: usize = 4096;

    /// Splits the `n`-board into at least `min_tasks` tasks where the board is big enough.
    ///
    /// ```
    /// use nqueens::{Plan, Strategy};
    /// let plan = Plan::new(8, Strategy::Mirror, 64).unwrap();
    /// let total: u64 = plan.tasks().map(|t| t.weight * t.count(8).unwrap()).sum();
    /// assert_eq!(total, 92);
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::BoardTooLarge`] for a board wider than [`MAX_N`](crate::Plan::MAX_N).
    pub fn new(n: u32, strategy: Strategy, min_tasks: usize) -> Result<Plan, Error> {
        Plan::with_rule(n, strategy, min_tasks, TaskRule::for_board(n))
    }

    /// As [`Plan::new`], with every constellation of the `symmetric` plan split as the plans of
    /// the large boards (from n = 23 on) split them, whatever `n`: until at most `n − 5` rows are
    /// free, about 10 to 14 tasks per symmetry class (the `mirror` plan is as [`Plan::new`]
    /// makes it). For testing that split on boards whose totals are known.
    ///
    /// ```
    /// use nqueens::{Plan, Strategy};
    /// let plan = Plan::split_large(10, Strategy::Symmetric, 1).unwrap();
    /// assert!(plan.tasks().len() > Plan::new(10, Strategy::Symmetric, 1).unwrap().tasks().len());
    /// let total: u64 = plan.tasks().map(|t| t.weight * t.count(10).unwrap()).sum();
    /// assert_eq!(total, 724);
    /// ```
    ///
    /// # Errors
    ///
    /// As [`Plan::new`].
    pub fn split_large(n: u32, strategy: Strategy, min_tasks: usize) -> Result<Plan, Error> {
        Plan::with_rule(n, strategy, min_tasks, TaskRule::Large)
    }

    /// As [`Plan::new`], with the `symmetric` plan's constellations split by `rule` instead of
    /// the rule for `n` (the `mirror` plan ignores it).
    pub(crate) fn with_rule(
        n: u32,
        strategy: Strategy,
        min_tasks: usize,
        rule: TaskRule,
    ) -> Result<Plan, Error> {
        if n > kernel::MAX_N {
            return Err(Error::BoardTooLarge { n });
        }
        Ok(Plan::held_from(n, strategy, min_tasks, rule, NAMED_FROM))
    }

    /// [`Plan::with_rule`] for a board of at most [`MAX_N`](crate::Plan::MAX_N) columns, with
    /// a `symmetric` plan of more than `named_from` tasks held by id.
    fn held_from(
        n: u32,
        strategy: Strategy,
        min_tasks: usize,
        rule: TaskRule,
        named_from: usize,
    ) -> Plan {
        let min_tasks = min_tasks.min(MAX_MIN_TASKS);
        let held = match strategy {
            Strategy::Symmetric => symmetric::symmetric_tasks(n, min_tasks, rule, named_from)
                .unwrap_or_else(|| Held::Whole(mirror::mirror_tasks(n, min_tasks))),
            Strategy::Mirror => Held::Whole(mirror::mirror_tasks(n, min_tasks)),
        };
        Plan { n, strategy, held }
    }

    /// The default `symmetric` plan of the `n`-board (n from 4 to 32; `None` for another
    /// board), with how many tasks have each size hint, in plan order (largest first; a few
    /// hundred hints at most).
    pub(crate) fn symmetric_with_hints(n: u32) -> Option<(Plan, Vec<(u64, usize)>)> {
        let order = symmetric::PlanOrder::new(n, Plan::DEFAULT_MIN_TASKS, TaskRule::for_board(n))?;
        let held = symmetric::symmetric_tasks_in(&order, NAMED_FROM)?;
        let plan = Plan {
            n,
            strategy: Strategy::Symmetric,
            held,
        };
        Some((plan, order.hints().collect()))
    }

    /// The `symmetric` plan of the `n`-board with every task held whole however many there are.
    #[cfg(test)]
    pub(crate) fn whole(n: u32, min_tasks: usize, rule: TaskRule) -> Plan {
        Plan::held_from(n, Strategy::Symmetric, min_tasks, rule, usize::MAX)
    }

    /// The `symmetric` plan of the `n`-board held by id however few tasks it has (the tests'
    /// way to count, journal and shard such plans on boards whose totals are known).
    #[cfg(test)]
    pub(crate) fn named(n: u32, min_tasks: usize, rule: TaskRule) -> Plan {
        Plan::held_from(n, Strategy::Symmetric, min_tasks, rule, 0)
    }

    /// A plan of the given parts, for the crate's own plans made by hand;
    /// [`Plan::check`] is what a run trusts.
    #[cfg(test)]
    pub(crate) fn from_parts(n: u32, strategy: Strategy, tasks: Vec<Task>) -> Plan {
        Plan {
            n,
            strategy,
            held: Held::Whole(tasks),
        }
    }

    /// The plan of the tasks at `positions` (increasing) of this one, held as this one is
    /// (a shard's tasks).
    pub(crate) fn select(&self, positions: &[usize]) -> Plan {
        let held = match &self.held {
            Held::Whole(tasks) => Held::Whole(positions.iter().map(|&p| tasks[p]).collect()),
            Held::Named(ids) => Held::Named(positions.iter().map(|&p| ids[p]).collect()),
        };
        Plan {
            n: self.n,
            strategy: self.strategy,
            held,
        }
    }

    /// Board size.
    #[must_use]
    pub fn n(&self) -> u32 {
        self.n
    }

    /// The strategy that made the plan.
    #[must_use]
    pub fn strategy(&self) -> Strategy {
        self.strategy
    }

    /// The tasks, largest (by estimate) first.
    ///
    /// A large plan (more than 65,536 tasks, such as every default plan from n = 23 on) holds
    /// its tasks by id and makes each again as it is read, in about 0.1 µs: a plan takes 17
    /// bytes a task in memory rather than the 80 bytes of a [`Task`].
    ///
    /// ```
    /// use nqueens::{Plan, Strategy};
    /// let plan = Plan::new(10, Strategy::Symmetric, 64).unwrap();
    /// assert!(plan.tasks().len() >= 64);
    /// let last = plan.tasks().last().unwrap();
    /// assert_eq!(plan.task(plan.tasks().len() - 1), Some(last));
    /// ```
    #[must_use]
    pub fn tasks(&self) -> impl ExactSizeIterator<Item = Task> + DoubleEndedIterator + '_ {
        (0..self.len()).map(move |index| self.task_at(index))
    }

    /// The task at `index` in plan order (largest first), `None` past the last.
    ///
    /// ```
    /// use nqueens::{Plan, Strategy};
    /// let plan = Plan::new(8, Strategy::Mirror, 1).unwrap();
    /// assert_eq!(plan.task(0).map(|task| task.weight), Some(2));
    /// assert_eq!(plan.task(plan.tasks().len()), None);
    /// ```
    #[must_use]
    pub fn task(&self, index: usize) -> Option<Task> {
        (index < self.len()).then(|| self.task_at(index))
    }

    /// How many tasks the plan has.
    pub(crate) fn len(&self) -> usize {
        match &self.held {
            Held::Whole(tasks) => tasks.len(),
            Held::Named(ids) => ids.len(),
        }
    }

    /// The id of the task at `index` (below [`Plan::len`]), read without making the task.
    pub(crate) fn id(&self, index: usize) -> TaskId {
        match &self.held {
            Held::Whole(tasks) => tasks[index].id,
            Held::Named(ids) => ids[index],
        }
    }

    /// The plan's task ids, each with its position in plan order, for lookups by id
    /// ([`IdIndex`]).
    pub(crate) fn id_index(&self) -> IdIndex<'_> {
        let len = u32::try_from(self.len()).expect("a plan has fewer than 2³² tasks");
        let mut order: Vec<u32> = (0..len).collect();
        order.sort_unstable_by_key(|&p| self.id(p as usize));
        IdIndex { plan: self, order }
    }

    /// The task at `index`, below [`Plan::len`].
    pub(crate) fn task_at(&self, index: usize) -> Task {
        match &self.held {
            Held::Whole(tasks) => tasks[index],
            Held::Named(ids) => symmetric::task_of(self.n, &ids[index])
                .expect("a plan held by id names tasks of its own board"),
        }
    }

    /// The bytes the plan's list of tasks or ids takes.
    #[cfg(test)]
    pub(crate) fn held_bytes(&self) -> usize {
        match &self.held {
            Held::Whole(tasks) => tasks.capacity() * std::mem::size_of::<Task>(),
            Held::Named(ids) => ids.capacity() * std::mem::size_of::<TaskId>(),
        }
    }

    /// Whether the plan holds its tasks by id (see [`Plan::tasks`]).
    #[cfg(test)]
    pub(crate) fn is_named(&self) -> bool {
        matches!(self.held, Held::Named(_))
    }

    /// Checks what a run trusts: a board of at most [`MAX_N`](crate::Plan::MAX_N) columns, at least
    /// one task, and every task a partial board of this plan's `n` (queens on fewer rows than
    /// the board has, the right side for a pre-placed border).
    ///
    /// ```
    /// use nqueens::{Plan, Strategy};
    /// assert!(Plan::new(12, Strategy::Symmetric, 64).unwrap().check().is_ok());
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::BoardTooLarge`] for a board wider than [`MAX_N`](crate::Plan::MAX_N), and
    /// [`Error::InvalidPlan`] for a plan of no task or with a task of another board.
    pub fn check(&self) -> Result<(), Error> {
        if self.n > kernel::MAX_N {
            return Err(Error::BoardTooLarge { n: self.n });
        }
        let tasks: &[Task] = match &self.held {
            Held::Whole(tasks) => tasks,
            // Made from the ids of a plan of this board alone (each id is checked as its task
            // is made again).
            Held::Named(ids) if !ids.is_empty() => return Ok(()),
            Held::Named(_) => &[],
        };
        if tasks.is_empty() {
            return Err(Error::InvalidPlan {
                n: self.n,
                task: None,
            });
        }
        let foreign = tasks.iter().find(|task| {
            task.n != self.n
                || match task.subproblem {
                    Subproblem::Rows(state) => state.row > self.n,
                    Subproblem::Inner(board) => board.n() != self.n,
                }
        });
        match foreign {
            Some(task) => Err(Error::InvalidPlan {
                n: self.n,
                task: Some(task.id),
            }),
            None => Ok(()),
        }
    }

    /// The plan's name: a hash (FNV-1a, 64 bits) of the plan version (now 2), `n`, the
    /// strategy and the ordered task ids and weights. Two plans with the same
    /// fingerprint have the same tasks in the same order.
    ///
    /// ```
    /// use nqueens::{Plan, Strategy};
    /// let a = Plan::new(10, Strategy::Mirror, 64).unwrap();
    /// let b = Plan::new(10, Strategy::Mirror, 64).unwrap();
    /// assert_eq!(a.fingerprint(), b.fingerprint());
    /// assert_ne!(a.fingerprint(), Plan::new(11, Strategy::Mirror, 64).unwrap().fingerprint());
    /// ```
    #[must_use]
    pub fn fingerprint(&self) -> Fingerprint {
        fingerprint::of(self)
    }
}

#[cfg(test)]
mod tests {
    use super::mirror::{mirror_roots, prefix_task};
    use super::*;
    use crate::known;

    /// The plan's tasks, in plan order.
    fn listed(plan: &Plan) -> Vec<Task> {
        plan.tasks().collect()
    }

    fn plan_total(plan: &Plan) -> u128 {
        plan.tasks()
            .map(|t| u128::from(t.weight) * u128::from(t.count(plan.n).unwrap()))
            .sum()
    }

    #[test]
    fn mirror_plans_sum_to_the_known_totals_at_every_depth() {
        for n in 0..=12 {
            for min_tasks in [1, 8, 100, 4096] {
                let plan = Plan::new(n, Strategy::Mirror, min_tasks).unwrap();
                assert_eq!(
                    Some(plan_total(&plan)),
                    known::Known::of(n).map(|k| k.total),
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
        assert!(plan.len() >= 2000, "{}", plan.len());
        let mut ids: Vec<TaskId> = plan.tasks().map(|t| t.id).collect();
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), plan.len());
        for t in plan.tasks() {
            let rebuilt = prefix_task(n, t.id.columns(), t.weight);
            assert_eq!(rebuilt.subproblem, t.subproblem);
        }
    }

    #[test]
    fn plans_are_deterministic_and_largest_first() {
        let a = Plan::new(13, Strategy::Mirror, 4096).unwrap();
        let b = Plan::new(13, Strategy::Mirror, 4096).unwrap();
        assert_eq!(listed(&a), listed(&b));
        assert!(
            listed(&a)
                .windows(2)
                .all(|w| w[0].size_hint >= w[1].size_hint)
        );
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
                    known::Known::of(n).map(|k| k.total),
                    "n={n} min={min_tasks}"
                );
            }
        }
    }

    #[test]
    fn symmetric_plans_are_deterministic_with_unique_ids_and_many_tasks() {
        let a = Plan::new(14, Strategy::Symmetric, 4096).unwrap();
        let b = Plan::new(14, Strategy::Symmetric, 4096).unwrap();
        assert_eq!(listed(&a), listed(&b));
        assert!(a.len() >= 4096, "{}", a.len());
        assert!(
            listed(&a)
                .windows(2)
                .all(|w| w[0].size_hint >= w[1].size_hint)
        );
        let mut ids: Vec<TaskId> = a.tasks().map(|t| t.id).collect();
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), a.len());
        assert!(a.tasks().all(|t| [2, 4, 8].contains(&t.weight)));
    }

    #[test]
    fn symmetric_falls_back_to_mirror_where_the_border_does_not_fit() {
        for n in [0, 1, 2, 3, kernel::MAX_JOB_N + 1, 64] {
            let sym = Plan::new(n, Strategy::Symmetric, 64).unwrap();
            let mirror = Plan::new(n, Strategy::Mirror, 64).unwrap();
            assert_eq!(listed(&sym), listed(&mirror), "n={n}");
        }
    }

    /// A hash of what the fingerprint leaves out: each task's pre-placed queens in the order
    /// the plan placed them (its orientation) and its size hint.
    fn layout_hash(plan: &Plan) -> u64 {
        let mut h = fingerprint::Fnv1a64::new();
        for task in plan.tasks() {
            match task.subproblem {
                Subproblem::Inner(board) => {
                    for (r, c) in board.queens() {
                        h.write(&[r as u8, c as u8]);
                    }
                }
                Subproblem::Rows(state) => h.write(&state.row.to_le_bytes()),
            }
            h.write(&task.size_hint.to_le_bytes());
        }
        h.finish()
    }

    #[test]
    fn plans_are_the_ones_journals_and_shards_were_written_for() {
        // (n, fingerprint, tasks, layout hash) of the default `symmetric` plans as plan
        // version 2 made them. A change here orphans every journal and shard of the board:
        // raise Plan::VERSION instead.
        const SYMMETRIC: [(u32, u64, usize, u64); 20] = [
            (4, 0xf4484e5fa1bd5590, 2, 0xda579b155be7fda4),
            (5, 0x854d32b89204a26a, 5, 0x2951e94c19593035),
            (6, 0xd14b0ac76d837ffb, 16, 0x97348a64991a7768),
            (7, 0xa1a2fcd58ecc9683, 34, 0xdd02a32cf7fcf7cf),
            (8, 0x5a18a2baef2bc28e, 78, 0x85397e88a712d31e),
            (9, 0x6fd26397e2a0b34c, 181, 0xccdebfdda968fab1),
            (10, 0x1e877769f9e95e30, 958, 0x2ef711404af584e7),
            (11, 0x689117781df91004, 4134, 0x70e91dd92a227635),
            (12, 0x3975788f6c39ee2e, 10926, 0x32cbd2c10306e693),
            (13, 0x29292081fc6999f9, 6442, 0x9834b56ab9f06f96),
            (14, 0xbfa816f78886e9b6, 11045, 0x2f535e35625284c2),
            (15, 0x9b6398ffd6cfbf48, 17794, 0x2f19c3f1bb563c30),
            (16, 0xddef3509a7dc084b, 27763, 0x25702f2232280fee),
            (17, 0x4d221e87dd76e0e1, 4319, 0x448df62de4d6562c),
            (18, 0x5c001d4b791a7d51, 5728, 0xabda96dad4a9c1b5),
            (19, 0xb4e339f9896e15a3, 7432, 0x4f47f0aa96dfc4fa),
            (20, 0x0b400c746f32434d, 9522, 0x273c348fdbbea586),
            (21, 0x58f85bb03d008dce, 11997, 0xff27f282c61bc215),
            (22, 0x5e571887347474a5, 14960, 0x541f4385a7858816),
            (23, 0xbb13d96d135bafea, 327636, 0xf101f3392c5b1758),
        ];
        const MIRROR: [(u32, u64, usize, u64); 4] = [
            (8, 0x84a5c281ffc68a87, 209, 0x2665398ae8cfce31),
            (12, 0xe9e589210e143787, 8408, 0x22764cdb23a99b21),
            (16, 0x24823ab27b66080b, 9844, 0xc764d2ceaf8abb65),
            (20, 0x4e77508d5cbcbc09, 30880, 0xfbc2cf6bd2c64239),
        ];
        let lists = [
            (Strategy::Symmetric, &SYMMETRIC[..]),
            (Strategy::Mirror, &MIRROR[..]),
        ];
        let mut found = Vec::new();
        for (strategy, expected) in lists {
            for &(n, ..) in expected {
                let plan = Plan::new(n, strategy, Plan::DEFAULT_MIN_TASKS).unwrap();
                let layout = layout_hash(&plan);
                found.push((n, plan.fingerprint().get(), plan.len(), layout));
            }
        }
        let expected: Vec<_> = SYMMETRIC.iter().chain(&MIRROR).copied().collect();
        assert_eq!(found, expected);
    }

    #[test]
    fn boards_wider_than_the_masks_are_refused() {
        assert!(Plan::new(65, Strategy::Mirror, 1).is_err());
        assert!(Plan::new(64, Strategy::Mirror, 1).is_ok());
    }

    #[test]
    fn kept_plans_are_the_plans_made_anew() {
        for n in [0, 6, 10, 11] {
            for strategy in [Strategy::Symmetric, Strategy::Mirror] {
                let fresh = Plan::new(n, strategy, Plan::DEFAULT_MIN_TASKS).unwrap();
                for _ in 0..2 {
                    let (kept, fingerprint) = default_plan(n, strategy).unwrap();
                    assert_eq!((kept.n, kept.strategy), (n, strategy));
                    assert_eq!(listed(&kept), listed(&fresh));
                    assert_eq!(fingerprint, fresh.fingerprint());
                }
            }
        }
        assert!(default_plan(65, Strategy::Mirror).is_err());
    }

    #[test]
    fn a_task_count_beyond_memory_is_capped() {
        let capped = Plan::new(20, Strategy::Mirror, usize::MAX).unwrap();
        let most = Plan::new(20, Strategy::Mirror, MAX_MIN_TASKS).unwrap();
        assert_eq!(listed(&capped), listed(&most));
        assert!(capped.tasks().len() >= MAX_MIN_TASKS);
    }

    #[test]
    fn a_plan_of_no_task_or_of_another_board_is_refused() {
        let plan = Plan::new(10, Strategy::Symmetric, 64).unwrap();
        assert!(plan.check().is_ok());
        let empty = Plan::from_parts(10, Strategy::Symmetric, Vec::new());
        assert!(matches!(
            empty.check(),
            Err(Error::InvalidPlan { n: 10, task: None })
        ));
        let foreign = Plan::from_parts(11, Strategy::Symmetric, plan.tasks().collect());
        let first = plan.task_at(0).id;
        let Err(Error::InvalidPlan { n: 11, task }) = foreign.check() else {
            panic!("a plan of another board");
        };
        assert_eq!(task, Some(first));
        let rows = Plan::new(10, Strategy::Mirror, 64).unwrap();
        let shorter = Plan::from_parts(2, Strategy::Mirror, rows.tasks().collect());
        assert!(shorter.check().is_err());
        use crate::engine::run::{RunOptions, run};
        assert!(run(&foreign, &RunOptions::with_threads(1)).is_err());
    }

    #[test]
    fn the_large_board_rule_gives_the_known_totals_on_small_boards() {
        use crate::engine::run::{RunOptions, run};
        for n in 10..=16 {
            let large = Plan::with_rule(n, Strategy::Symmetric, 1, TaskRule::Large).unwrap();
            let standard = Plan::with_rule(n, Strategy::Symmetric, 1, TaskRule::Standard).unwrap();
            assert!(large.len() > standard.len(), "n={n}");
            for t in large.tasks() {
                let Subproblem::Inner(b) = t.subproblem else {
                    panic!("a symmetric task is an inner board");
                };
                assert!(b.free_rows().count_ones() <= n - 5, "n={n} {}", t.id);
            }
            let report = run(&large, &RunOptions::with_threads(2)).unwrap();
            assert_eq!(
                Some(report.total),
                known::Known::of(n).map(|k| k.total),
                "n={n}"
            );
        }
    }

    #[test]
    fn plans_held_by_id_are_the_plans_held_whole() {
        use crate::engine::run::{RunOptions, run};
        for n in 4..=14 {
            for rule in [TaskRule::Standard, TaskRule::Large] {
                let named = Plan::named(n, Plan::DEFAULT_MIN_TASKS, rule);
                let whole = Plan::whole(n, Plan::DEFAULT_MIN_TASKS, rule);
                assert!(named.is_named() && !whole.is_named(), "n={n}");
                assert_eq!(listed(&named), listed(&whole), "n={n} {rule:?}");
                assert_eq!(named.fingerprint(), whole.fingerprint(), "n={n}");
                assert_eq!(named.task(named.len()), None);
                assert_eq!(named.tasks().next_back(), whole.tasks().last());
                assert!(named.check().is_ok());
                let report = run(&named, &RunOptions::with_threads(2)).unwrap();
                assert_eq!(
                    Some(report.total),
                    known::Known::of(n).map(|k| k.total),
                    "n={n} {rule:?}"
                );
                // A shard of each is the same shard.
                let odd: Vec<usize> = (0..named.len()).filter(|p| p % 2 == 1).collect();
                let (a, b) = (named.select(&odd), whole.select(&odd));
                assert!(a.is_named());
                assert_eq!(listed(&a), listed(&b), "n={n}");
            }
        }
    }

    #[test]
    fn large_plans_are_held_by_id_and_small_ones_whole() {
        let small = Plan::new(10, Strategy::Symmetric, Plan::DEFAULT_MIN_TASKS).unwrap();
        assert!(!small.is_named());
        let held_by_id = (11..=32).map(|n| Plan::new(n, Strategy::Symmetric, 4096).unwrap());
        assert!(held_by_id.clone().all(|plan| plan.is_named()));
        // n = 23: 327 636 tasks, 80 bytes each when whole.
        let large = Plan::new(23, Strategy::Symmetric, Plan::DEFAULT_MIN_TASKS).unwrap();
        assert!(large.is_named());
        let per_task = large.held_bytes() as f64 / large.len() as f64;
        assert!(per_task <= 17.0, "{per_task} bytes a task");
        // The mirror plans stay whole (0.8 million tasks at most, n = 40).
        assert!(
            !Plan::new(40, Strategy::Mirror, Plan::DEFAULT_MIN_TASKS)
                .unwrap()
                .is_named()
        );
    }

    #[test]
    fn an_id_index_finds_every_task_and_nothing_else() {
        for plan in [
            Plan::named(12, Plan::DEFAULT_MIN_TASKS, TaskRule::Standard),
            Plan::new(12, Strategy::Mirror, 500).unwrap(),
        ] {
            let index = plan.id_index();
            for (p, task) in plan.tasks().enumerate() {
                assert_eq!(index.position(&task.id), Some(p));
            }
            let foreign = TaskId::from_columns(&[11, 11, 11]).unwrap();
            assert_eq!(index.position(&foreign), None);
            assert_eq!(index.position(&TaskId::default()), None);
        }
    }

    #[test]
    fn task_ids_reject_garbage() {
        assert!("1.x".parse::<TaskId>().is_err());
        assert!("".parse::<TaskId>().is_err());
        let long = vec!["1"; MAX_ID_LEN + 1].join(".");
        assert!(long.parse::<TaskId>().is_err());
        assert_eq!(
            "1.x".parse::<TaskId>().unwrap_err().to_string(),
            "'1.x' is not a task id (`-` or up to 16 columns joined by dots)"
        );
        assert!(matches!(
            long.parse::<TaskId>().unwrap_err(),
            Error::InvalidTaskId(text) if text == long
        ));
    }
}
