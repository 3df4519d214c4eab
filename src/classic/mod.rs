//! The textbook algorithms, side by side and instrumented.
//!
//! Four ways to count every solution of the `n × n` board, from a 2-D grid to the engine's
//! bitboards, each a small module that explains its idea:
//!
//! | algorithm | state of a partial board | test of one square |
//! |---|---|---|
//! | [`Algorithm::Matrix`] | an `n × n` grid of free / queen / attacked cells, copied per queen | one cell |
//! | [`Algorithm::Array`] | the column of the queen in each placed row | the column, then the diagonals, against every placed queen |
//! | [`Algorithm::Attack`] | boolean arrays for columns and both diagonal directions | three array lookups |
//! | [`Algorithm::Bitmask`] | three `u64` masks (the engine's kernel) | a whole row with one mask operation |
//!
//! All four search in the same order — rows top to bottom, columns from 0 upward — on a single
//! thread with no symmetry tricks, so they visit exactly the same partial boards and can report
//! their work in the same terms ([`Counters`]):
//!
//! * **`solutions`** — complete boards found;
//! * **`nodes`** — queens placed: every conflict-free partial board of 1 to `n` queens, once;
//! * **`candidates`** — squares examined for the next queen: all `n` squares of the row being
//!   filled, counted once each whenever a partial board of fewer than `n` queens is extended,
//!   including the squares that fail. Every algorithm therefore reports
//!   `candidates = n × (1 + nodes − solutions)`;
//! * **`diagonal_checks`** — candidates that reached the diagonal test. [`Algorithm::Array`] and [`Algorithm::Attack`]
//!   test the column first and only then the diagonals, so they report the candidates whose
//!   column was free (`n − k` per extended board of `k` queens; the two agree exactly).
//!   [`Algorithm::Matrix`] (one look at a cell marked by every earlier queen) and [`Algorithm::Bitmask`] (one mask
//!   operation over columns and both diagonals) test everything at once, so every candidate
//!   reaches that test and they report `diagonal_checks = candidates`.
//!
//! Each algorithm is generic over an [`Observer`] that receives every step of the search as an
//! [`Event`] (a square tried, tested on the diagonals, rejected, a queen placed, a solution, a
//! queen taken back). The observer of the uninstrumented search ([`Algorithm::count`]) is zero
//! sized and does nothing, so that search is compiled as if no event had ever been written;
//! [`Counters`] counts them ([`Algorithm::count_instrumented`]), and [`Algorithm::watch`] hands
//! them to any observer (`nqueens watch` draws them).
//!
//! ```
//! use nqueens::classic::Algorithm;
//! assert_eq!(Algorithm::Attack.count(8).unwrap(), 92);
//! let c = Algorithm::Array.count_instrumented(4).unwrap();
//! assert_eq!((c.solutions, c.nodes, c.candidates, c.diagonal_checks), (2, 16, 60, 32));
//! ```

mod array;
mod attack;
mod bitmask;
mod estimate;
mod matrix;

use crate::engine::kernel::MAX_N;
use crate::error::Error;
use crate::names::{Named, from_str_by_name};

/// One of the textbook counting algorithms.
///
/// ```
/// use nqueens::classic::Algorithm;
/// for algorithm in Algorithm::ALL {
///     assert_eq!(algorithm.count(6).unwrap(), 4);
/// }
/// let bitmask: Algorithm = "bitmask".parse().unwrap();
/// assert_eq!((bitmask, bitmask.to_string()), (Algorithm::Bitmask, "bitmask".to_string()));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Algorithm {
    /// An n × n grid of free / queen / attacked cells, copied and marked per queen.
    Matrix,
    /// One column per placed row; a candidate is checked against every placed queen.
    Array,
    /// Boolean arrays for columns and both diagonal directions: O(1) tests.
    Attack,
    /// The engine's bitboard kernel: three masks, a whole row tested at once.
    Bitmask,
}

impl Named for Algorithm {
    const WHAT: &'static str = "algorithm";
    fn all() -> &'static [Self] {
        &Algorithm::ALL
    }
    fn name(self) -> &'static str {
        Algorithm::name(self)
    }
    fn description(self) -> &'static str {
        use Algorithm::*;
        match self {
            Matrix => "an n x n grid of cells, copied and marked per queen",
            Array => "one column per placed row, checked against every placed queen",
            Attack => "boolean arrays for columns and diagonals: O(1) tests",
            Bitmask => "three bitmasks, a whole row tested at once",
        }
    }
}

from_str_by_name!(Algorithm);

impl Algorithm {
    /// Every algorithm, from the 2-D board to the bitboards (the order `nqueens compare` uses).
    pub const ALL: [Algorithm; 4] = [
        Algorithm::Matrix,
        Algorithm::Array,
        Algorithm::Attack,
        Algorithm::Bitmask,
    ];

    /// The algorithm's name as the command line spells it.
    ///
    /// ```
    /// assert_eq!(nqueens::classic::Algorithm::Attack.name(), "attack");
    /// ```
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Algorithm::Matrix => "matrix",
            Algorithm::Array => "array",
            Algorithm::Attack => "attack",
            Algorithm::Bitmask => "bitmask",
        }
    }

    /// Counts the solutions of the `n × n` board, uninstrumented.
    ///
    /// Fails only for `n` above 64, the widest board any of the algorithms accepts.
    ///
    /// # Errors
    ///
    /// [`Error::BoardTooLarge`] for `n` above 64.
    ///
    /// ```
    /// use nqueens::classic::Algorithm;
    /// for algorithm in Algorithm::ALL {
    ///     assert_eq!(algorithm.count(8).unwrap(), 92);
    /// }
    /// assert!(Algorithm::Bitmask.count(65).is_err());
    /// ```
    pub fn count(self, n: u32) -> Result<u128, Error> {
        search(self, n, &mut NoProbe)
    }

    /// Counts the solutions of the `n × n` board and records the search's work.
    ///
    /// # Errors
    ///
    /// [`Error::BoardTooLarge`] for `n` above 64.
    ///
    /// ```
    /// use nqueens::classic::Algorithm;
    /// let c = Algorithm::Bitmask.count_instrumented(8).unwrap();
    /// assert_eq!(c.solutions, 92);
    /// assert_eq!(c.candidates, 8 * (1 + c.nodes - c.solutions));
    /// assert_eq!(c.diagonal_checks, c.candidates);
    /// ```
    pub fn count_instrumented(self, n: u32) -> Result<Counters, Error> {
        let mut counters = Counters::default();
        counters.solutions = search(self, n, &mut counters)?;
        Ok(counters)
    }

    /// Runs the search on the `n × n` board step by step, reporting every [`Event`] to
    /// `observer`; returns the number of solutions found (all of them unless
    /// [`Observer::stop`] ended the search early).
    ///
    /// This is the same search as [`Algorithm::count`] and [`Algorithm::count_instrumented`]:
    /// counting the events gives the [`Counters`].
    ///
    /// # Errors
    ///
    /// [`Error::BoardTooLarge`] for `n` above 64 (before any event).
    ///
    /// ```
    /// use nqueens::classic::{Algorithm, Counters, Event, Observer};
    /// let mut counters = Counters::default();
    /// assert_eq!(Algorithm::Matrix.watch(6, &mut counters).unwrap(), 4);
    /// counters.solutions = 4;
    /// assert_eq!(counters, Algorithm::Matrix.count_instrumented(6).unwrap());
    ///
    /// /// Stops at the first solution.
    /// struct First(bool);
    /// impl Observer for First {
    ///     fn event(&mut self, event: Event) {
    ///         self.0 |= event == Event::Solution;
    ///     }
    ///     fn stop(&self) -> bool {
    ///         self.0
    ///     }
    /// }
    /// assert_eq!(Algorithm::Bitmask.watch(8, &mut First(false)).unwrap(), 1);
    /// ```
    pub fn watch(self, n: u32, observer: &mut impl Observer) -> Result<u128, Error> {
        search(self, n, observer)
    }

    /// The rough time a plain (uninstrumented) search of the `n × n` board takes: enough to
    /// refuse a comparison that would run for minutes before it starts (the model and its
    /// constants are in `classic/estimate.rs`). [`Duration::MAX`](std::time::Duration::MAX)
    /// for a board far beyond reach.
    ///
    /// ```
    /// use std::time::Duration;
    /// use nqueens::classic::Algorithm;
    /// assert!(Algorithm::Matrix.estimated_time(8) < Duration::from_millis(10));
    /// assert!(Algorithm::Matrix.estimated_time(18) > Duration::from_secs(600));
    /// ```
    #[must_use]
    pub fn estimated_time(self, n: u32) -> std::time::Duration {
        crate::estimation::time(estimate::seconds(self, n))
    }

    /// The rough time an instrumented search ([`Algorithm::count_instrumented`]) of the
    /// `n × n` board takes.
    ///
    /// ```
    /// use nqueens::classic::Algorithm;
    /// let a = Algorithm::Attack;
    /// assert!(a.estimated_instrumented_time(16) > a.estimated_time(16));
    /// ```
    #[must_use]
    pub fn estimated_instrumented_time(self, n: u32) -> std::time::Duration {
        crate::estimation::time(estimate::instrumented_seconds(self, n))
    }
}

impl std::fmt::Display for Algorithm {
    /// The name, padded to the formatter's width (`{:>8}`).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.pad(self.name())
    }
}

// Written as its name, read back as `FromStr` reads it (in any case).
#[cfg(feature = "serde")]
crate::serde_util::as_text!(Algorithm);

/// Which line a rejected square shares with a placed queen.
///
/// A queen placed in an earlier row attacks a square along these three lines and no other (the
/// search places one queen per row), so this enum is exhaustive on purpose: a `match` may name
/// all three without a `_` arm.
///
/// The library names the two diagonal directions one way everywhere (as
/// [`Conflict`](crate::board::Conflict) and [`Symmetry`](crate::board::Symmetry) do): along a
/// **↘ diagonal** `row − column` is constant (it runs down to the right), along a **↙
/// anti-diagonal** `row + column` is constant (it runs down to the left). Rows count from 0 at
/// the top, columns from 0 at the left.
///
/// ```
/// use nqueens::classic::Line;
/// assert_eq!(Line::shared((0, 0), (1, 1)), Some(Line::Diagonal));
/// assert_eq!(Line::shared((0, 2), (1, 1)), Some(Line::AntiDiagonal));
/// assert_eq!(Line::AntiDiagonal.to_string(), "anti-diagonal");
/// assert_eq!(Line::AntiDiagonal.arrow(), "↙");
/// assert_eq!(Line::Diagonal.equation(), "row − column");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
pub enum Line {
    /// The same column (↓).
    Column,
    /// The same `row − column`: a ↘ diagonal.
    Diagonal,
    /// The same `row + column`: a ↙ anti-diagonal.
    AntiDiagonal,
}

impl Line {
    /// The line squares `a` and `b` (`(row, column)`, distinct) share, the column first; `None`
    /// when they share none of the three (or only a row).
    #[must_use]
    pub fn shared(a: (usize, usize), b: (usize, usize)) -> Option<Line> {
        if a == b {
            None
        } else if a.1 == b.1 {
            Some(Line::Column)
        } else if a.0.wrapping_sub(a.1) == b.0.wrapping_sub(b.1) {
            Some(Line::Diagonal)
        } else if a.0 + a.1 == b.0 + b.1 {
            Some(Line::AntiDiagonal)
        } else {
            None
        }
    }

    /// The direction as an arrow: `↓`, `↘` or `↙`.
    #[must_use]
    pub fn arrow(self) -> &'static str {
        match self {
            Line::Column => "↓",
            Line::Diagonal => "↘",
            Line::AntiDiagonal => "↙",
        }
    }

    /// What stays constant along the line: `column`, `row − column` or `row + column`.
    #[must_use]
    pub fn equation(self) -> &'static str {
        match self {
            Line::Column => "column",
            Line::Diagonal => "row − column",
            Line::AntiDiagonal => "row + column",
        }
    }

    /// The constant of the line through square `(row, column)`, as [`equation`](Line::equation)
    /// names it.
    #[must_use]
    pub fn constant(self, (row, column): (usize, usize)) -> i64 {
        match self {
            Line::Column => column as i64,
            Line::Diagonal => row as i64 - column as i64,
            Line::AntiDiagonal => (row + column) as i64,
        }
    }
}

impl std::fmt::Display for Line {
    /// The name, padded to the formatter's width.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.pad(match self {
            Line::Column => "column",
            Line::Diagonal => "diagonal",
            Line::AntiDiagonal => "anti-diagonal",
        })
    }
}

/// One step of a search, as [`Algorithm::watch`] reports it to an [`Observer`].
///
/// Rows and columns count from 0 at the top left. For one square of the row being filled the
/// events come in this order: [`Try`](Event::Try); [`DiagonalTest`](Event::DiagonalTest) when the
/// square reaches the diagonal test; then either [`Reject`](Event::Reject) or
/// [`Place`](Event::Place). A queen on the last row is followed by [`Solution`](Event::Solution);
/// every placed queen is taken back by one [`Remove`](Event::Remove) once the rows below it have
/// been searched. Every algorithm examines the squares in the same order, so the four streams
/// differ only in their tests (which [`DiagonalTest`](Event::DiagonalTest)s appear, which
/// [`Line`] and attacker a rejection names).
///
/// The [`Counters`] are these events counted: `candidates` the tries, `diagonal_checks` the
/// diagonal tests, `nodes` the placements.
///
/// ```
/// use nqueens::classic::{Algorithm, Event, Observer};
///
/// /// The first events of a search.
/// struct First(Vec<Event>);
///
/// impl Observer for First {
///     fn event(&mut self, event: Event) {
///         self.0.push(event);
///     }
///     fn stop(&self) -> bool {
///         self.0.len() >= 4
///     }
/// }
///
/// let mut first = First(Vec::new());
/// Algorithm::Array.watch(4, &mut first).unwrap();
/// // Row 0, column 0 is free (nothing to test against yet): tried, then a queen.
/// assert_eq!(first.0[0], Event::Try { row: 0, col: 0 });
/// assert!(first.0.contains(&Event::Place { row: 0, col: 0 }));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Event {
    /// The square is examined as a candidate for the queen of its row.
    Try {
        /// Row being filled.
        row: usize,
        /// Column examined.
        col: usize,
    },
    /// The square reached the diagonal test (for [`Algorithm::Matrix`] and
    /// [`Algorithm::Bitmask`], whose one test covers everything, right after the try).
    DiagonalTest {
        /// Row being filled.
        row: usize,
        /// Column examined.
        col: usize,
    },
    /// The square is attacked.
    Reject {
        /// Row being filled.
        row: usize,
        /// Column examined.
        col: usize,
        /// The line the attack runs along, when the algorithm's test tells
        /// ([`Algorithm::Matrix`] only sees an attacked cell).
        line: Option<Line>,
        /// The attacking queen's `(row, column)`, when the algorithm's test finds it (only
        /// [`Algorithm::Array`] compares with each queen).
        by: Option<(usize, usize)>,
    },
    /// A queen is put on the square.
    Place {
        /// Row filled.
        row: usize,
        /// Its queen's column.
        col: usize,
    },
    /// The queens placed form a solution (the board is full).
    Solution,
    /// The queen of `row` is taken back: every square of the rows below it has been searched.
    Remove {
        /// Row emptied.
        row: usize,
        /// The column its queen stood in.
        col: usize,
    },
}

/// Receives the [`Event`]s of a search; every method does nothing unless overridden.
///
/// The algorithms are generic over this trait, so each observer gets its own monomorphised
/// search with no dynamic dispatch: an observer that ignores everything costs nothing, and
/// [`Counters`] is just another observer.
///
/// ```
/// use nqueens::classic::{Algorithm, Event, Observer};
///
/// /// Records the board of every solution.
/// #[derive(Default)]
/// struct Boards {
///     queens: Vec<usize>,
///     found: Vec<Vec<usize>>,
/// }
///
/// impl Observer for Boards {
///     fn event(&mut self, event: Event) {
///         match event {
///             Event::Place { col, .. } => self.queens.push(col),
///             Event::Remove { .. } => {
///                 self.queens.pop();
///             }
///             Event::Solution => self.found.push(self.queens.clone()),
///             _ => {}
///         }
///     }
/// }
///
/// for algorithm in Algorithm::ALL {
///     let mut boards = Boards::default();
///     assert_eq!(algorithm.watch(4, &mut boards).unwrap(), 2);
///     assert_eq!(boards.found, [vec![1, 3, 0, 2], vec![2, 0, 3, 1]]);
/// }
/// ```
pub trait Observer {
    /// Whether the observer wants every step. An observer that only counts the work says
    /// `false`: the bitmask search, which tests a whole row with one mask operation, then
    /// reports that work in bulk ([`Observer::tally`]) instead of square by square.
    const STEPS: bool = true;

    /// One step of the search.
    #[inline(always)]
    fn event(&mut self, event: Event) {
        let _ = event;
    }

    /// Work reported in bulk, in place of the events it stands for, by a search that can (only
    /// when [`Observer::STEPS`] is `false`): `candidates` squares tried, of which
    /// `diagonal_checks` reached the diagonal test, and `nodes` queens placed.
    #[inline(always)]
    fn tally(&mut self, candidates: u64, diagonal_checks: u64, nodes: u64) {
        let _ = (candidates, diagonal_checks, nodes);
    }

    /// Asked before every square is examined: `true` ends the search there (its queens are
    /// then not all taken back, and the count it returns is the solutions found so far).
    #[inline(always)]
    fn stop(&self) -> bool {
        false
    }
}

/// A closure is an observer told every step:
///
/// ```
/// use nqueens::classic::{Algorithm, Event};
/// let mut placed = 0;
/// let solutions = Algorithm::Array
///     .watch(6, &mut |event| {
///         if let Event::Place { .. } = event {
///             placed += 1;
///         }
///     })
///     .unwrap();
/// assert_eq!(solutions, 4);
/// assert_eq!(placed, Algorithm::Array.count_instrumented(6).unwrap().nodes);
/// ```
impl<F: FnMut(Event)> Observer for F {
    fn event(&mut self, event: Event) {
        self(event)
    }
}

/// The observer that records nothing: zero sized, every method empty, so it compiles away.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct NoProbe;

impl Observer for NoProbe {
    const STEPS: bool = false;
    #[inline(always)]
    fn event(&mut self, _event: Event) {}
    #[inline(always)]
    fn stop(&self) -> bool {
        false
    }
}

/// The work one search did, in terms every algorithm shares (see the [module docs](self)).
///
/// ```
/// use nqueens::classic::{Algorithm, Counters};
/// let c: Counters = Algorithm::Attack.count_instrumented(6).unwrap();
/// assert_eq!(c.solutions, 4);
/// assert_eq!(c.candidates, 6 * (1 + c.nodes - c.solutions));
/// assert!(c.diagonal_checks < c.candidates); // the column is tested first
/// // Every algorithm visits the same partial boards; these two also test alike.
/// assert_eq!(Algorithm::Matrix.count_instrumented(6).unwrap().nodes, c.nodes);
/// assert_eq!(Algorithm::Array.count_instrumented(6).unwrap(), c);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct Counters {
    /// Complete boards found.
    pub solutions: u128,
    /// Queens placed: conflict-free partial boards of 1 to `n` queens.
    pub nodes: u128,
    /// Squares examined for the next queen, failures included.
    pub candidates: u128,
    /// Candidates that reached the diagonal test.
    pub diagonal_checks: u128,
}

impl Observer for Counters {
    const STEPS: bool = false;

    #[inline(always)]
    fn tally(&mut self, candidates: u64, diagonal_checks: u64, nodes: u64) {
        self.candidates += u128::from(candidates);
        self.diagonal_checks += u128::from(diagonal_checks);
        self.nodes += u128::from(nodes);
    }

    #[inline(always)]
    fn event(&mut self, event: Event) {
        match event {
            Event::Try { .. } => self.candidates += 1,
            Event::DiagonalTest { .. } => self.diagonal_checks += 1,
            Event::Place { .. } => self.nodes += 1,
            Event::Reject { .. } | Event::Solution | Event::Remove { .. } => {}
        }
    }
}

/// Runs `algorithm` on the `n × n` board with `probe` receiving its events; returns the
/// number of solutions.
pub(crate) fn search<O: Observer>(
    algorithm: Algorithm,
    n: u32,
    probe: &mut O,
) -> Result<u128, Error> {
    if n > MAX_N {
        return Err(Error::BoardTooLarge { n });
    }
    Ok(match algorithm {
        Algorithm::Matrix => matrix::count(n, probe),
        Algorithm::Array => array::count(n, probe),
        Algorithm::Attack => attack::count(n, probe),
        Algorithm::Bitmask => bitmask::count(n, probe),
    })
}

#[cfg(test)]
mod tests;
