//! The names and pieces of a plan: the strategies' names, the task ids (written `3.0.5` and read
//! back), the search a task performs ([`Subproblem`]) and the task itself ([`Task`]).

use std::fmt;
use std::str::FromStr;
use std::sync::atomic::AtomicBool;

use crate::engine::kernel::{self, InnerBoard, Selected, State};
use crate::error::Error;
use crate::ids::{MAX_ID_LEN, Strategy, TaskId};

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
    pub(super) n: u32,
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
