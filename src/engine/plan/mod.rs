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

use super::kernel;
use crate::error::Error;
pub use crate::ids::{MAX_ID_LEN, Strategy, TaskId};
pub use fingerprint::Fingerprint;

pub mod fingerprint;
pub mod mirror;
#[cfg(test)]
mod search_order;
pub mod symmetric;
mod task;

pub use task::{Subproblem, Task};

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
mod tests;
