//! A placement of queens (one column per row), its validity check, the 8 symmetries of the
//! square and the canonical form of a solution.
//!
//! Rows and columns are numbered from 0; row 0 is the top row and column 0 the left column. A
//! placement of an `n × n` board is the list of the columns of its queens, row by row: the n = 8
//! solution `0 4 7 5 2 6 1 3` has its row-0 queen in column 0, its row-1 queen in column 4, and
//! so on.
//! ```
//! use nqueens::board::{Placement, Symmetry};
//! let eight = Placement::new(vec![0, 4, 7, 5, 2, 6, 1, 3]);
//! let solution = eight.into_solution().unwrap();
//! assert_eq!(solution.image(Symmetry::FlipColumns).columns(), &[7, 3, 0, 2, 5, 1, 6, 4]);
//! assert_eq!(solution.canonical().columns(), &[0, 4, 7, 5, 2, 6, 1, 3]);
//! ```

use std::cmp::Ordering;
use std::fmt;

pub use crate::error::board::Conflict;
pub use crate::ids::Square;

impl Square {
    /// The square in `row` and `column` (both from 0).
    ///
    /// ```
    /// use nqueens::board::Square;
    /// let square = Square::new(2, 5);
    /// assert_eq!((square.row, square.column), (2, 5));
    /// ```
    #[must_use]
    pub const fn new(row: u32, column: u32) -> Square {
        Square { row, column }
    }
}

impl fmt::Display for Square {
    /// `(row 2, column 5)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "(row {}, column {})", self.row, self.column)
    }
}

/// Checks that `columns` (one per row) places `n` non-attacking queens on the `n × n` board,
/// reading the columns once in O(n) time and O(n) bits of memory.
///
/// This is the streaming form of [`Placement::check`]: it accepts any re-readable sequence (a
/// slice, or the lazy construction of [`crate::construct`]), so a million-queen solution is
/// checked without being stored. On a conflict it reads the sequence a second time to name the
/// earlier queen.
pub(crate) fn check_columns<I>(side: u32, columns: I) -> Result<(), Conflict>
where
    I: IntoIterator<Item = u32>,
    I::IntoIter: Clone,
{
    let n = u64::from(side);
    let rows = columns.into_iter();
    let mut used_columns = BitSet::new(n);
    let mut used_diagonals = BitSet::new(2 * n);
    let mut used_anti = BitSet::new(2 * n);
    let mut found = 0u64;
    for (row, column) in rows.clone().enumerate() {
        let row = row as u64;
        found = row + 1;
        if row >= n {
            continue; // counted, reported below
        }
        let queen = Square {
            row: row as u32,
            column,
        };
        let c = u64::from(column);
        if c >= n {
            return Err(Conflict::OffBoard { queen, n: side });
        }
        let diagonal = row + n - 1 - c; // row - column + (n - 1), in 0..2n-1
        let anti = row + c; // in 0..2n-1
        if used_columns.insert(c) || used_diagonals.insert(diagonal) || used_anti.insert(anti) {
            return Err(explain(rows, queen));
        }
    }
    if found != n {
        return Err(Conflict::RowCount { n: side, found });
    }
    Ok(())
}

/// The conflict between `second` and the earlier queen it meets, found by re-reading the rows.
fn explain(rows: impl Iterator<Item = u32>, second: Square) -> Conflict {
    let earlier: Vec<Square> = rows
        .take(second.row as usize)
        .enumerate()
        .map(|(row, column)| Square {
            row: row as u32,
            column,
        })
        .collect();
    let diff = |s: &Square| i64::from(s.row) - i64::from(s.column);
    let sum = |s: &Square| u64::from(s.row) + u64::from(s.column);
    if let Some(&first) = earlier.iter().find(|s| s.column == second.column) {
        Conflict::Column { first, second }
    } else if let Some(&first) = earlier.iter().find(|s| diff(s) == diff(&second)) {
        Conflict::Diagonal { first, second }
    } else {
        let first = *earlier
            .iter()
            .find(|s| sum(s) == sum(&second))
            .expect("a conflict was detected on one of the three lines");
        Conflict::AntiDiagonal { first, second }
    }
}

/// A fixed-size set of small integers, one bit each.
struct BitSet(Vec<u64>);

impl BitSet {
    fn new(len: u64) -> BitSet {
        BitSet(vec![0; len.div_ceil(64) as usize])
    }

    /// Adds `i`; returns whether it was already there.
    fn insert(&mut self, i: u64) -> bool {
        let (word, bit) = ((i / 64) as usize, 1u64 << (i % 64));
        let seen = self.0[word] & bit != 0;
        self.0[word] |= bit;
        seen
    }
}

/// Queens on a square board, one per row, given by their columns.
///
/// Any list of columns is a placement; [`Placement::check`] says whether it is a solution and
/// [`Placement::into_solution`] turns it into a [`Solution`], the type the symmetries work on.
/// ```
/// use nqueens::board::Placement;
/// let p = Placement::new(vec![1, 3, 0, 2]);
/// assert_eq!(p.n(), 4);
/// assert!(p.check().is_ok());
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(transparent)
)]
pub struct Placement {
    columns: Vec<u32>,
}

impl Placement {
    /// The placement with the queen of row `r` in column `columns[r]`; the board size is the
    /// number of rows.
    #[must_use]
    pub fn new(columns: Vec<u32>) -> Placement {
        Placement { columns }
    }

    /// The board size (the number of rows; at most `u32::MAX` is reported).
    #[must_use]
    pub fn n(&self) -> u32 {
        u32::try_from(self.columns.len()).unwrap_or(u32::MAX)
    }

    /// The column of each row's queen.
    #[must_use]
    pub fn columns(&self) -> &[u32] {
        &self.columns
    }

    /// The queens, row by row.
    /// ```
    /// use nqueens::board::{Placement, Square};
    /// let squares: Vec<Square> = Placement::new(vec![1, 0]).squares().collect();
    /// assert_eq!(squares[1], Square::new(1, 0));
    /// ```
    pub fn squares(&self) -> impl Iterator<Item = Square> + '_ {
        self.columns
            .iter()
            .enumerate()
            .map(|(row, &column)| Square {
                row: row as u32,
                column,
            })
    }

    /// `Ok` when no two queens attack each other and all stand on the board; otherwise the first
    /// conflict (see [`Conflict`] for which one is first). O(n) time.
    ///
    /// # Errors
    ///
    /// The first [`Conflict`]: a queen off the board, or two queens that attack each other.
    ///
    /// ```
    /// use nqueens::board::Placement;
    /// let err = Placement::new(vec![0, 4, 7, 5, 2, 6, 1, 1]).check().unwrap_err();
    /// assert_eq!(
    ///     err.to_string(),
    ///     "the queens at (row 6, column 1) and (row 7, column 1) share column 1"
    /// );
    /// ```
    pub fn check(&self) -> Result<(), Conflict> {
        check_columns(self.n(), self.columns.iter().copied())
    }

    /// Whether this placement is a solution.
    #[must_use]
    pub fn is_solution(&self) -> bool {
        self.check().is_ok()
    }

    /// This placement as a [`Solution`], or the first conflict that stops it being one.
    ///
    /// # Errors
    ///
    /// The first [`Conflict`], as [`Placement::check`] finds it.
    pub fn into_solution(self) -> Result<Solution, Conflict> {
        self.check()?;
        Ok(Solution(self))
    }
}

impl From<Solution> for Placement {
    fn from(solution: Solution) -> Placement {
        solution.0
    }
}

/// The 8 symmetries of the square (the dihedral group of order 8).
///
/// The group has no other element, so this enum is exhaustive on purpose: a `match` may name
/// all eight without a `_` arm.
///
/// With rows counted down and columns to the right from 0 on an `n × n` board, each maps the
/// square `(r, c)` to:
///
/// | symmetry         | image                    |
/// |------------------|--------------------------|
/// | `Identity`       | `(r, c)`                 |
/// | `Rot90`          | `(c, n-1-r)` (clockwise) |
/// | `Rot180`         | `(n-1-r, n-1-c)`         |
/// | `Rot270`         | `(n-1-c, r)`             |
/// | `FlipColumns`    | `(r, n-1-c)` (left↔right)|
/// | `FlipRows`       | `(n-1-r, c)` (top↔bottom)|
/// | `Transpose`      | `(c, r)` (in the ↘ diagonal `r − c = 0`) |
/// | `AntiTranspose`  | `(n-1-c, n-1-r)` (in the ↙ anti-diagonal `r + c = n − 1`) |
/// ```
/// use nqueens::board::Symmetry;
/// assert_eq!(Symmetry::ALL.len(), 8);
/// assert_eq!(Symmetry::Rot90.to_string(), "rot90");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
pub enum Symmetry {
    /// Leaves every square in place.
    Identity,
    /// A quarter turn clockwise.
    Rot90,
    /// A half turn.
    Rot180,
    /// A quarter turn anticlockwise.
    Rot270,
    /// Reflection in the vertical axis: columns reversed.
    FlipColumns,
    /// Reflection in the horizontal axis: rows reversed.
    FlipRows,
    /// Reflection in the main ↘ diagonal (top-left to bottom-right, `row − column = 0`).
    Transpose,
    /// Reflection in the main ↙ anti-diagonal (top-right to bottom-left, `row + column = n − 1`).
    AntiTranspose,
}

impl Symmetry {
    /// All eight, identity first.
    pub const ALL: [Symmetry; 8] = [
        Symmetry::Identity,
        Symmetry::Rot90,
        Symmetry::Rot180,
        Symmetry::Rot270,
        Symmetry::FlipColumns,
        Symmetry::FlipRows,
        Symmetry::Transpose,
        Symmetry::AntiTranspose,
    ];

    /// The short name: `identity`, `rot90`, `rot180`, `rot270`, `flip-columns`, `flip-rows`,
    /// `transpose`, `anti-transpose`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Symmetry::Identity => "identity",
            Symmetry::Rot90 => "rot90",
            Symmetry::Rot180 => "rot180",
            Symmetry::Rot270 => "rot270",
            Symmetry::FlipColumns => "flip-columns",
            Symmetry::FlipRows => "flip-rows",
            Symmetry::Transpose => "transpose",
            Symmetry::AntiTranspose => "anti-transpose",
        }
    }

    /// Writes the image of the permutation `src` (row → column) into `dst`.
    ///
    /// `src` must hold each of `0..src.len()` exactly once, as every solution does; `dst` must
    /// be as long as `src`.
    pub(crate) fn apply(self, src: &[u32], dst: &mut [u32]) {
        debug_assert_eq!(src.len(), dst.len());
        let Some(last) = (src.len() as u32).checked_sub(1) else {
            return; // the empty board is its own image
        };
        for (r, &c) in src.iter().enumerate() {
            let (row, column) = self.image(last + 1, (r as u32, c));
            dst[row as usize] = column;
        }
    }

    /// The image of the square `(row, column)` of the `n`-board, or `None` when the square is
    /// not on it (the empty board has no square).
    /// ```
    /// use nqueens::board::Symmetry;
    /// assert_eq!(Symmetry::Rot90.map_square(8, (0, 1)), Some((1, 7)));
    /// assert_eq!(Symmetry::Transpose.map_square(8, (0, 1)), Some((1, 0)));
    /// assert_eq!(Symmetry::Rot90.map_square(0, (0, 0)), None);
    /// assert_eq!(Symmetry::Rot90.map_square(8, (8, 0)), None);
    /// ```
    #[must_use]
    pub fn map_square(self, n: u32, (r, c): (u32, u32)) -> Option<(u32, u32)> {
        (r < n && c < n).then(|| self.image(n, (r, c)))
    }

    /// The image of the square `(row, column)` of the `n`-board, which must be on it.
    #[inline]
    pub(crate) fn image(self, n: u32, (r, c): (u32, u32)) -> (u32, u32) {
        let last = n - 1;
        match self {
            Symmetry::Identity => (r, c),
            Symmetry::Rot90 => (c, last - r),
            Symmetry::Rot180 => (last - r, last - c),
            Symmetry::Rot270 => (last - c, r),
            Symmetry::FlipColumns => (r, last - c),
            Symmetry::FlipRows => (last - r, c),
            Symmetry::Transpose => (c, r),
            Symmetry::AntiTranspose => (last - c, last - r),
        }
    }
}

impl fmt::Display for Symmetry {
    /// The name, padded to the formatter's width.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.name())
    }
}

/// Whether the permutation `columns` is the least of its 8 images (its own canonical form),
/// using `scratch` (at least as long) for the images. No allocation.
pub(crate) fn is_canonical(columns: &[u32], scratch: &mut [u32]) -> bool {
    let n = columns.len();
    let image = &mut scratch[..n];
    Symmetry::ALL[1..].iter().all(|&g| {
        g.apply(columns, image);
        image[..] >= *columns
    })
}

/// A placement known to be a solution: `n` queens, no two attacking.
///
/// The symmetries of the square map solutions to solutions, so they are defined here.
///
/// **Canonical form.** Placements are ordered by their column lists compared lexicographically
/// (row 0 first, smaller column first). The canonical form of a solution is the least of its 8
/// images in that order; two solutions are equivalent under the symmetries of the square exactly
/// when their canonical forms are equal.
/// ```
/// use nqueens::board::{Placement, Symmetry};
/// let s = Placement::new(vec![2, 0, 3, 1]).into_solution().unwrap();
/// assert_eq!(s.image(Symmetry::FlipColumns).columns(), &[1, 3, 0, 2]);
/// assert_eq!(s.canonical().columns(), &[1, 3, 0, 2]);
/// assert!(!s.is_canonical());
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Solution(Placement);

/// A solution is written as its columns, row by row (`[1, 3, 0, 2]`, as `nqueens solve` shows
/// them), and read back only when they are a solution.
#[cfg(feature = "serde")]
#[cfg_attr(docsrs, doc(cfg(feature = "serde")))]
impl serde::Serialize for Solution {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(s)
    }
}

#[cfg(feature = "serde")]
#[cfg_attr(docsrs, doc(cfg(feature = "serde")))]
impl<'de> serde::Deserialize<'de> for Solution {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Solution, D::Error> {
        Placement::deserialize(d)?
            .into_solution()
            .map_err(serde::de::Error::custom)
    }
}

/// The board, one line per row, `Q` for the queen and `.` for the other squares; with `{:#}`,
/// the columns of the queens, row by row.
/// ```
/// use nqueens::board::Placement;
/// let s = Placement::new(vec![1, 3, 0, 2]).into_solution().unwrap();
/// assert_eq!(s.to_string(), ". Q . .\n. . . Q\nQ . . .\n. . Q .");
/// assert_eq!(format!("{s:#}"), "1 3 0 2");
/// ```
impl fmt::Display for Solution {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.n();
        for (row, &col) in self.columns().iter().enumerate() {
            if f.alternate() {
                if row > 0 {
                    f.write_str(" ")?;
                }
                write!(f, "{col}")?;
                continue;
            }
            if row > 0 {
                f.write_str("\n")?;
            }
            for c in 0..n {
                if c > 0 {
                    f.write_str(" ")?;
                }
                f.write_str(if c == col { "Q" } else { "." })?;
            }
        }
        Ok(())
    }
}

impl Solution {
    /// Wraps columns already known to be a solution (checked in debug builds).
    pub(crate) fn from_valid(columns: Vec<u32>) -> Solution {
        let placement = Placement::new(columns);
        debug_assert!(placement.is_solution());
        Solution(placement)
    }

    /// The board size.
    #[must_use]
    pub fn n(&self) -> u32 {
        self.0.n()
    }

    /// The column of each row's queen.
    #[must_use]
    pub fn columns(&self) -> &[u32] {
        self.0.columns()
    }

    /// The solution as a plain placement.
    #[must_use]
    pub fn placement(&self) -> &Placement {
        &self.0
    }

    /// The image of this solution under `symmetry`.
    #[must_use]
    pub fn image(&self, symmetry: Symmetry) -> Solution {
        let mut columns = vec![0; self.columns().len()];
        symmetry.apply(self.columns(), &mut columns);
        Solution(Placement::new(columns))
    }

    /// The 8 images, in the order of [`Symmetry::ALL`]. Some may be equal (symmetric solutions).
    #[must_use]
    pub fn images(&self) -> [(Symmetry, Solution); 8] {
        Symmetry::ALL.map(|g| (g, self.image(g)))
    }

    /// The least of the 8 images (see the type's documentation for the order), with the first
    /// symmetry in [`Symmetry::ALL`] that produces it.
    #[must_use]
    pub fn canonical_with_symmetry(&self) -> (Symmetry, Solution) {
        let mut best = (Symmetry::Identity, self.clone());
        for g in &Symmetry::ALL[1..] {
            let image = self.image(*g);
            if image.cmp(&best.1) == Ordering::Less {
                best = (*g, image);
            }
        }
        best
    }

    /// The least of the 8 images: one representative per class of equivalent solutions.
    #[must_use]
    pub fn canonical(&self) -> Solution {
        self.canonical_with_symmetry().1
    }

    /// Whether this solution is its own canonical form.
    #[must_use]
    pub fn is_canonical(&self) -> bool {
        let mut scratch = vec![0; self.columns().len()];
        is_canonical(self.columns(), &mut scratch)
    }

    /// How many distinct solutions its class holds: 1 (only n ≤ 1), 2, 4 or 8.
    /// ```
    /// use nqueens::board::Placement;
    /// let s = Placement::new(vec![1, 3, 0, 2]).into_solution().unwrap();
    /// assert_eq!(s.class_size(), 2);
    /// ```
    #[must_use]
    pub fn class_size(&self) -> usize {
        let mut images: Vec<Solution> = Symmetry::ALL.iter().map(|&g| self.image(g)).collect();
        images.sort();
        images.dedup();
        images.len()
    }
}

impl TryFrom<Placement> for Solution {
    type Error = Conflict;

    fn try_from(placement: Placement) -> Result<Solution, Conflict> {
        placement.into_solution()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The O(n²) definition, as a reference.
    fn attacks_naive(columns: &[u32]) -> bool {
        let n = columns.len() as i64;
        columns.iter().any(|&c| i64::from(c) >= n)
            || (0..columns.len()).any(|a| {
                (a + 1..columns.len()).any(|b| {
                    let (ca, cb) = (i64::from(columns[a]), i64::from(columns[b]));
                    ca == cb || (ca - cb).abs() == (b - a) as i64
                })
            })
    }

    #[test]
    fn the_first_conflict_is_named_with_both_queens() {
        let p = Placement::new(vec![0, 4, 7, 5, 2, 6, 1, 3]);
        assert_eq!(p.check(), Ok(()));
        let q = |row, column| Square { row, column };
        assert_eq!(
            Placement::new(vec![3, 0, 3, 1]).check(),
            Err(Conflict::Column {
                first: q(0, 3),
                second: q(2, 3)
            })
        );
        assert_eq!(
            Placement::new(vec![0, 1, 3, 2]).check(),
            Err(Conflict::Diagonal {
                first: q(0, 0),
                second: q(1, 1)
            })
        );
        assert_eq!(
            Placement::new(vec![1, 0]).check(),
            Err(Conflict::AntiDiagonal {
                first: q(0, 1),
                second: q(1, 0)
            })
        );
        assert_eq!(Placement::new(vec![1, 3, 0, 2, 4]).check(), Ok(()));
        let e = Placement::new(vec![0, 5]).check().unwrap_err();
        assert_eq!(
            e.to_string(),
            "the queen of row 1 is in column 5, off the 2-column board"
        );
        let e = check_columns(8, [0u32, 4, 7]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "the placement has 3 rows but an 8 x 8 board needs 8"
        );
        let e = Placement::new(vec![2, 0, 1]).check().unwrap_err();
        assert_eq!(
            e.to_string(),
            "the queens at (row 1, column 0) and (row 2, column 1) share a ↘ diagonal (row − column = 1)"
        );
    }

    #[test]
    fn too_many_rows_are_refused() {
        assert_eq!(
            check_columns(1, [0u32, 0]),
            Err(Conflict::RowCount { n: 1, found: 2 })
        );
    }

    #[test]
    fn empty_and_single_boards_are_solutions() {
        assert!(Placement::new(vec![]).is_solution());
        let one = Placement::new(vec![0]).into_solution().unwrap();
        assert_eq!(one.canonical(), one);
        assert_eq!(one.class_size(), 1);
    }

    #[test]
    fn rotations_compose_as_a_group() {
        let s = Placement::new(vec![0, 4, 7, 5, 2, 6, 1, 3])
            .into_solution()
            .unwrap();
        let r = |x: &Solution| x.image(Symmetry::Rot90);
        assert_eq!(r(&r(&s)), s.image(Symmetry::Rot180));
        assert_eq!(r(&r(&r(&s))), s.image(Symmetry::Rot270));
        assert_eq!(r(&r(&r(&r(&s)))), s);
        // Mirror left-right, then turn clockwise: (r, c) → (r, n-1-c) → (n-1-c, n-1-r).
        assert_eq!(
            r(&s.image(Symmetry::FlipColumns)),
            s.image(Symmetry::AntiTranspose)
        );
        assert_eq!(
            s.image(Symmetry::FlipColumns).image(Symmetry::FlipRows),
            s.image(Symmetry::Rot180)
        );
        for g in Symmetry::ALL {
            assert!(s.image(g).placement().is_solution(), "{g}");
        }
        // A quarter turn clockwise takes the top-left queen to the top-right corner.
        assert_eq!(s.image(Symmetry::Rot90).columns()[0], 7);
        assert_eq!(s.class_size(), 8);
    }

    proptest! {
        #[test]
        fn the_check_agrees_with_the_pairwise_definition(
            columns in proptest::collection::vec(0u32..9, 0..9)
        ) {
            let p = Placement::new(columns.clone());
            prop_assert_eq!(p.check().is_err(), attacks_naive(&columns));
            let named = |s: Square| columns.get(s.row as usize) == Some(&s.column);
            let diff = |s: Square| i64::from(s.row) - i64::from(s.column);
            let sum = |s: Square| s.row + s.column;
            match p.check() {
                Ok(()) => {}
                Err(Conflict::OffBoard { queen, n }) => {
                    prop_assert!(named(queen) && queen.column >= n);
                }
                Err(Conflict::RowCount { .. }) => prop_assert!(false, "rows are the side"),
                Err(Conflict::Column { first, second }) => {
                    prop_assert!(named(first) && named(second) && first.row < second.row);
                    prop_assert_eq!(first.column, second.column);
                }
                Err(Conflict::Diagonal { first, second }) => {
                    prop_assert!(named(first) && named(second) && first.row < second.row);
                    prop_assert_eq!(diff(first), diff(second));
                }
                Err(Conflict::AntiDiagonal { first, second }) => {
                    prop_assert!(named(first) && named(second) && first.row < second.row);
                    prop_assert_eq!(sum(first), sum(second));
                }
            }
        }

        #[test]
        fn symmetries_of_a_permutation_are_permutations_with_the_same_canonical_form(
            columns in (1usize..12).prop_flat_map(|n| {
                Just((0..n as u32).collect::<Vec<u32>>()).prop_shuffle()
            })
        ) {
            let n = columns.len();
            let mut scratch = vec![0; n];
            let least = Symmetry::ALL
                .iter()
                .map(|&g| { let mut d = vec![0; n]; g.apply(&columns, &mut d); d })
                .min()
                .unwrap();
            for g in Symmetry::ALL {
                let mut image = vec![0; n];
                g.apply(&columns, &mut image);
                let mut sorted = image.clone();
                sorted.sort_unstable();
                prop_assert_eq!(sorted, (0..n as u32).collect::<Vec<_>>());
                let least_of_image = Symmetry::ALL
                    .iter()
                    .map(|&h| { let mut d = vec![0; n]; h.apply(&image, &mut d); d })
                    .min()
                    .unwrap();
                prop_assert_eq!(&least_of_image, &least);
                prop_assert_eq!(is_canonical(&image, &mut scratch), image == least);
            }
        }
    }
}

/// The documentation's examples of crate-internal items, as tests.
#[cfg(test)]
mod examples {
    #[test]
    fn check_columns_example() {
        use crate::board::{Conflict, check_columns};
        assert_eq!(check_columns(4, [1u32, 3, 0, 2]), Ok(()));
        assert!(matches!(
            check_columns(4, [1u32, 3, 0]),
            Err(Conflict::RowCount { found: 3, .. })
        ));
        assert!(matches!(
            check_columns(4, [1u32, 3, 0, 3]),
            Err(Conflict::Column { .. })
        ));
    }
}
