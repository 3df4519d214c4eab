//! The textbook algorithms, side by side and instrumented.
//!
//! Four ways to count every solution of the `n × n` board, from a 2-D grid to the engine's
//! bitboards, each a small module that explains its idea:
//!
//! | algorithm | state of a partial board | test of one square |
//! |---|---|---|
//! | [`Algorithm::Matrix`] | an `n × n` grid of free / queen / threatened cells, copied per queen | one cell |
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
//! Each algorithm is generic over a probe that receives these events. The one that records
//! nothing is zero sized and does nothing, so the uninstrumented search ([`Algorithm::count`]) is compiled to the same code
//! as if the counters had never been written; [`Counters`] records them ([`Algorithm::count_instrumented`]).
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

use serde::Serialize;

use crate::Error;
use crate::engine::kernel::MAX_N;

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
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Algorithm {
    /// An n × n grid of free / queen / threatened cells, copied and marked per queen.
    Matrix,
    /// One column per placed row; a candidate is checked against every placed queen.
    Array,
    /// Boolean arrays for columns and both diagonal directions: O(1) tests.
    Attack,
    /// The engine's bitboard kernel: three masks, a whole row tested at once.
    Bitmask,
}

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

    /// Rough seconds a plain (uninstrumented) search of the `n × n` board takes: enough to
    /// refuse a comparison that would run for minutes before it starts (the model and its
    /// constants are in `classic/estimate.rs`).
    ///
    /// ```
    /// use nqueens::classic::Algorithm;
    /// assert!(Algorithm::Matrix.estimated_seconds(8) < 0.01);
    /// assert!(Algorithm::Matrix.estimated_seconds(18) > 600.0);
    /// ```
    pub fn estimated_seconds(self, n: u32) -> f64 {
        estimate::seconds(self, n)
    }

    /// Rough seconds an instrumented search ([`Algorithm::count_instrumented`]) of the `n × n` board takes.
    ///
    /// ```
    /// use nqueens::classic::Algorithm;
    /// let a = Algorithm::Attack;
    /// assert!(a.estimated_instrumented_seconds(16) > a.estimated_seconds(16));
    /// ```
    pub fn estimated_instrumented_seconds(self, n: u32) -> f64 {
        estimate::instrumented_seconds(self, n)
    }
}

impl std::fmt::Display for Algorithm {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Receives the events of a search: what a [`Counters`] records and a [`NoProbe`] ignores.
///
/// The algorithms are generic over this trait, so each probe gets its own monomorphised search
/// with no dynamic dispatch.
pub(crate) trait Probe {
    /// `count` queens were placed (each a new conflict-free partial board).
    fn nodes(&mut self, count: u64);
    /// `count` squares were examined as candidates for the next queen.
    fn candidates(&mut self, count: u64);
    /// `count` candidates reached the diagonal test.
    fn diagonal_checks(&mut self, count: u64);
}

/// The probe that records nothing: zero sized, every method empty, so it compiles away.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct NoProbe;

impl Probe for NoProbe {
    #[inline(always)]
    fn nodes(&mut self, _count: u64) {}
    #[inline(always)]
    fn candidates(&mut self, _count: u64) {}
    #[inline(always)]
    fn diagonal_checks(&mut self, _count: u64) {}
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
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
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

impl Probe for Counters {
    #[inline(always)]
    fn nodes(&mut self, count: u64) {
        self.nodes += u128::from(count);
    }
    #[inline(always)]
    fn candidates(&mut self, count: u64) {
        self.candidates += u128::from(count);
    }
    #[inline(always)]
    fn diagonal_checks(&mut self, count: u64) {
        self.diagonal_checks += u128::from(count);
    }
}

/// Runs `algorithm` on the `n × n` board with `probe` receiving its events; returns the
/// number of solutions.
pub(crate) fn search<P: Probe>(algorithm: Algorithm, n: u32, probe: &mut P) -> Result<u128, Error> {
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
