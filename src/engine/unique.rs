//! Unique (fundamental) solution counts by Burnside's lemma.
//!
//! The 8 symmetries of the square (4 rotations, 4 reflections) act on the solutions of a board.
//! Two solutions are "the same" when a symmetry maps one onto the other, so the unique count
//! (OEIS A002562) is the number of orbits, which Burnside's lemma gives as the average number of
//! solutions each symmetry leaves unchanged:
//!
//! ```text
//! unique = (T + R + P + R + F₁ + F₂ + F₃ + F₄) / 8
//! ```
//!
//! * `T`: every solution is fixed by the identity (the total, OEIS A000170);
//! * `P`: solutions fixed by the 180° turn;
//! * `R`: solutions fixed by the 90° turn, the same number as for the 270° turn;
//! * `Fᵢ`: solutions fixed by a reflection. For `n ≥ 2` there are none: a solution fixed by the
//!   left-right mirror would need every queen on the middle column, and one fixed by a diagonal
//!   mirror would need every queen on that diagonal.
//!
//! So for `n ≥ 2`, `unique = (T + P + 2R) / 8`. `n = 0` and `n = 1` have one placement each,
//! fixed by everything, and one unique solution.
//!
//! `P` and `R` come from small searches that place queens a whole orbit at a time: a queen at
//! `(r, c)` brings `(n−1−r, n−1−c)` with it for the half turn, and `(c, n−1−r)`,
//! `(n−1−r, n−1−c)`, `(n−1−c, r)` for the quarter turn. The lowest empty row is always filled
//! next, so every symmetric solution is reached exactly once. The half-turn search, by far the
//! larger, also searches one border class per orbit of the mirrors that keep its solutions
//! symmetric, and fills the rows nearest the middle first: about 1 ms at `n = 18`. These
//! searches visit only a few rows' worth of the tree and cost far less than the total they are
//! combined with, so any strategy's total can be turned into a unique count after the fact.
//!
//! They grow without bound all the same, about tenfold for every two rows: 0.5 s at `n = 24`,
//! 5 s at `n = 26`, about a minute at `n = 28`. Above [`UNIQUE_MAX_N`] they are refused
//! ([`Error::UniqueBeyondReach`]) unless asked for through
//! [`symmetric_fixed_counts_with_stop`], whose stop flag ends them early.

use std::sync::atomic::{AtomicBool, Ordering};

use super::kernel::MAX_JOB_N;
use crate::error::Error;

/// The largest board whose unique count is computed by default
/// ([`Counts::UNIQUE_MAX_N`](crate::Counts::UNIQUE_MAX_N) is its public face, with the reasons).
pub const UNIQUE_MAX_N: u32 = 27;

/// Rows still to fill from which a search looks at its stop flag: the part of the tree below
/// is small, and the flag is read at few of its nodes.
const STOP_CHECK_ROWS: usize = 5;

/// How many solutions of one board each rotation leaves unchanged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FixedCounts {
    /// Solutions unchanged by the 180° turn (`P`).
    pub half_turn: u128,
    /// Solutions unchanged by the 90° turn (`R`); the same as for the 270° turn.
    pub quarter_turn: u128,
}

/// Counts the solutions of the `n`-board that the 180° and the 90° turns leave unchanged.
///
/// Boards above [`UNIQUE_MAX_N`], whose searches would take minutes to ages, are refused with
/// [`Error::UniqueBeyondReach`]; [`symmetric_fixed_counts_with_stop`] makes them anyway. A board
/// above [`MAX_N`](crate::Plan::MAX_N) is [`Error::BoardTooLarge`].
pub fn symmetric_fixed_counts(n: u32) -> Result<FixedCounts, Error> {
    if n > UNIQUE_MAX_N && n <= super::kernel::MAX_N {
        return Err(Error::UniqueBeyondReach {
            n,
            max: UNIQUE_MAX_N,
        });
    }
    symmetric_fixed_counts_with_stop(n, &AtomicBool::new(false))
}

/// [`symmetric_fixed_counts`] for any board up to [`MAX_N`](crate::Plan::MAX_N), however long it
/// takes, ending early with [`Error::Stopped`] once `stop` is raised (the flag is read
/// every few rows of the searches, so they end within moments).
pub fn symmetric_fixed_counts_with_stop(n: u32, stop: &AtomicBool) -> Result<FixedCounts, Error> {
    if n > super::kernel::MAX_N {
        return Err(Error::BoardTooLarge { n });
    }
    let half_turn = half_turn_fixed(n, stop);
    let quarter_turn = fixed_by(n, Turn::Quarter, stop);
    // A search stopped part way counts too few: its count is dropped.
    if stop.load(Ordering::Relaxed) {
        return Err(Error::Stopped);
    }
    Ok(FixedCounts {
        half_turn,
        quarter_turn,
    })
}

/// The number of solutions distinct under the 8 symmetries, from the board's `total` (however it
/// was counted) and two small symmetric searches.
///
/// The searches are small (about 1 ms at `n = 18`, 7 ms at `n = 20`) and run on the calling
/// thread. Fails with [`Error::UniqueBeyondReach`] above [`UNIQUE_MAX_N`], and with
/// [`Error::Inconsistent`] when `total + P + 2R` is not a multiple of 8, which means `total` is
/// not the board's true total.
pub fn unique_count(n: u32, total: u128) -> Result<u128, Error> {
    if n <= 1 {
        return match total {
            1 => Ok(1),
            // The one placement, which every turn leaves unchanged.
            _ => Err(Error::Inconsistent {
                n,
                total,
                half_turn: 1,
                quarter_turn: 1,
            }),
        };
    }
    unique_from(n, total, symmetric_fixed_counts(n)?)
}

/// [`unique_count`] with the board's fixed counts already made ([`symmetric_fixed_counts`]),
/// for a count that made them while it searched.
pub(crate) fn unique_from(n: u32, total: u128, fixed: FixedCounts) -> Result<u128, Error> {
    if n <= 1 {
        return unique_count(n, total);
    }
    let orbit_sum = total
        .checked_add(fixed.half_turn)
        .and_then(|s| s.checked_add(2 * fixed.quarter_turn))
        .ok_or(Error::Overflow)?;
    if orbit_sum % 8 != 0 {
        return Err(Error::Inconsistent {
            n,
            total,
            half_turn: fixed.half_turn,
            quarter_turn: fixed.quarter_turn,
        });
    }
    Ok(orbit_sum / 8)
}

/// Counts the solutions fixed by the half turn one class of their border at a time.
///
/// Such a solution has no corner queen (a queen at `(0, 0)` brings one to `(n−1, n−1)`, on the
/// same diagonal), so it has a queen at `(0, i)` in the top row and one at `(k, 0)` in the left
/// column, with `0 < i, k < n−1`. The left-right mirror and the transpose commute with the half
/// turn, so they map these solutions onto each other, and `(i, k)` onto `(m−i, m−k)` and
/// `(k, i)` (`m = n−1`): only the least `(i, k)` of each such orbit of up to four is searched,
/// its count multiplied by the orbit's size. A class's search fills the top half's other rows
/// from the middle up (the middle row of an odd board holds the centre square), each queen
/// bringing its image under the half turn; rows near the middle, where a queen and its image
/// are close, prune the most. Boards wider than [`MAX_JOB_N`] (whose diagonals do not fit
/// 64-bit masks) take the plain orbit search. Once `stop` is raised it counts too few.
fn half_turn_fixed(n: u32, stop: &AtomicBool) -> u128 {
    if n <= 1 {
        return 1;
    }
    if n > MAX_JOB_N {
        return fixed_by(n, Turn::Half, stop);
    }
    let m = n - 1;
    let empty = HalfTurnBoard {
        n,
        rows: 0,
        cols: 0,
        down: 0,
        up: 0,
    };
    let start = if m.is_multiple_of(2) {
        match empty.place(m / 2, m / 2) {
            Some(board) => board,
            None => return 0,
        }
    } else {
        empty
    };
    // The rows of the top half, above the middle.
    let top = n / 2;
    let mut total = 0u128;
    for i in 1..m {
        for k in 1..m {
            let images = [(i, k), (m - i, m - k), (k, i), (m - k, m - i)];
            if images.iter().any(|&image| image < (i, k)) {
                continue;
            }
            let orbit = images
                .iter()
                .enumerate()
                .filter(|&(a, image)| !images[..a].contains(image))
                .count();
            let left = if k < top { (k, 0) } else { (m - k, m) };
            let Some(board) = start
                .place(0, i)
                .and_then(|board| board.place(left.0, left.1))
            else {
                continue;
            };
            let mut rows = [0u32; 32];
            let mut len = 0;
            for r in (1..top).rev().filter(|&r| r != left.0) {
                rows[len] = r;
                len += 1;
            }
            if stop.load(Ordering::Relaxed) {
                return total;
            }
            total += orbit as u128 * u128::from(board.count(&rows[..len], stop));
        }
    }
    total
}

/// A board of side at most [`MAX_JOB_N`] whose queens come in pairs swapped by the half turn:
/// `(r, c)` with `(n−1−r, n−1−c)`. Every mask is symmetric, so one square's check covers its
/// image.
#[derive(Clone, Copy)]
struct HalfTurnBoard {
    n: u32,
    rows: u64,
    cols: u64,
    /// ↘ diagonals taken, bit `c − r + n − 1`.
    down: u64,
    /// ↙ anti-diagonals taken, bit `r + c`.
    up: u64,
}

impl HalfTurnBoard {
    /// The free squares of row `r` (above the middle): those no queen attacks, less the three
    /// whose image under the half turn attacks them (same column, same ↘ or same ↙ line).
    #[inline]
    fn free(&self, r: u32) -> u64 {
        let m = self.n - 1;
        let attacked = self.cols | (self.down >> (m - r)) | (self.up >> r);
        let own_image = 1u64 << r | 1u64 << (m - r) | u64::from(m.is_multiple_of(2)) << (m / 2);
        super::kernel::board_mask(self.n) & !(attacked | own_image)
    }

    /// This board with queens on `(r, c)` and its image, unchecked.
    #[inline]
    fn with(&self, r: u32, c: u32) -> HalfTurnBoard {
        let m = self.n - 1;
        HalfTurnBoard {
            n: self.n,
            rows: self.rows | 1 << r | 1 << (m - r),
            cols: self.cols | 1 << c | 1 << (m - c),
            down: self.down | 1 << (c + m - r) | 1 << (r + m - c),
            up: self.up | 1 << (r + c) | 1 << (2 * m - r - c),
        }
    }

    /// This board with queens on `(r, c)` and its image; `None` when they attack each other or
    /// a queen already there.
    fn place(&self, r: u32, c: u32) -> Option<HalfTurnBoard> {
        let m = self.n - 1;
        let centre = 2 * r == m && 2 * c == m;
        let taken = self.rows & 1 << r != 0
            || self.cols & 1 << c != 0
            || self.down & 1 << (c + m - r) != 0
            || self.up & 1 << (r + c) != 0;
        let against_image = 2 * r == m || 2 * c == m || r == c || r + c == m;
        (!taken && (centre || !against_image)).then(|| self.with(r, c))
    }

    /// The ways to fill `rows` (each above the middle), each queen with its image; too few once
    /// `stop` is raised.
    fn count(&self, rows: &[u32], stop: &AtomicBool) -> u64 {
        let Some((&r, rest)) = rows.split_first() else {
            return 1;
        };
        if rest.len() >= STOP_CHECK_ROWS && stop.load(Ordering::Relaxed) {
            return 0;
        }
        let mut free = self.free(r);
        let mut count = 0;
        while free != 0 {
            let c = free.trailing_zeros();
            free &= free - 1;
            count += self.with(r, c).count(rest, stop);
        }
        count
    }
}

/// A rotation of the square.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Turn {
    Half,
    Quarter,
}

/// Squares attacked or taken so far: rows, columns and both diagonal families.
#[derive(Clone, Copy)]
struct Taken {
    rows: u64,
    cols: u64,
    /// ↘ diagonals `c − r + n − 1` (0 to 2n − 2): shifted right by `n − 1 − r`, the columns
    /// of row `r` that they attack.
    down: u128,
    /// ↙ anti-diagonals `r + c` (0 to 2n − 2): shifted right by `r`, the columns of row `r`
    /// that they attack.
    up: u128,
}

impl Taken {
    /// Places queens on `squares` one by one; `None` if any two attack each other or the board.
    fn place(mut self, n: u32, squares: &[(u32, u32)]) -> Option<Taken> {
        for &(r, c) in squares {
            let (row, col) = (1u64 << r, 1u64 << c);
            let down = 1u128 << (c + n - 1 - r);
            let up = 1u128 << (r + c);
            if self.rows & row != 0
                || self.cols & col != 0
                || self.down & down != 0
                || self.up & up != 0
            {
                return None;
            }
            self.rows |= row;
            self.cols |= col;
            self.down |= down;
            self.up |= up;
        }
        Some(self)
    }
}

/// The orbit of `(r, c)` under `turn`, without repeats; the number of squares is returned too.
fn orbit(n: u32, turn: Turn, (r, c): (u32, u32)) -> ([(u32, u32); 4], usize) {
    let m = n - 1;
    let squares = match turn {
        Turn::Half => [(r, c), (m - r, m - c), (r, c), (m - r, m - c)],
        Turn::Quarter => [(r, c), (c, m - r), (m - r, m - c), (m - c, r)],
    };
    let distinct = match turn {
        _ if (r, c) == (m - r, m - c) => 1,
        Turn::Half => 2,
        Turn::Quarter => 4,
    };
    (squares, distinct)
}

/// Counts the solutions fixed by `turn` by filling the lowest empty row with a whole orbit;
/// too few once `stop` is raised.
fn fixed_by(n: u32, turn: Turn, stop: &AtomicBool) -> u128 {
    if n <= 1 {
        return 1;
    }
    fn fill(n: u32, turn: Turn, taken: Taken, stop: &AtomicBool) -> u128 {
        let full = super::kernel::board_mask(n);
        if taken.rows == full {
            return 1;
        }
        if (n - taken.rows.count_ones()) as usize > 2 * STOP_CHECK_ROWS
            && stop.load(Ordering::Relaxed)
        {
            return 0;
        }
        let r = (!taken.rows).trailing_zeros();
        let mut count = 0;
        // Only the squares of row r that no queen attacks start an orbit; place() then checks
        // the orbit's other squares.
        let attacked = u128::from(taken.cols) | (taken.up >> r) | (taken.down >> (n - 1 - r));
        let mut free = full & !(attacked as u64);
        while free != 0 {
            let c = free.trailing_zeros();
            free &= free - 1;
            let (squares, len) = orbit(n, turn, (r, c));
            if let Some(next) = taken.place(n, &squares[..len]) {
                count += fill(n, turn, next, stop);
            }
        }
        count
    }
    let empty = Taken {
        rows: 0,
        cols: 0,
        down: 0,
        up: 0,
    };
    fill(n, turn, empty, stop)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::known;

    #[test]
    fn the_half_turn_count_by_border_classes_matches_the_orbit_search() {
        for n in 0..=16 {
            let go = AtomicBool::new(false);
            assert_eq!(
                half_turn_fixed(n, &go),
                fixed_by(n, Turn::Half, &go),
                "n={n}"
            );
        }
    }

    /// Every solution of the `n`-board as the column of each row, by plain backtracking.
    fn all_solutions(n: usize) -> Vec<Vec<usize>> {
        fn extend(n: usize, cols: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
            let r = cols.len();
            if r == n {
                out.push(cols.clone());
                return;
            }
            for c in 0..n {
                let safe = cols
                    .iter()
                    .enumerate()
                    .all(|(r2, &c2)| c2 != c && r - r2 != c.abs_diff(c2));
                if safe {
                    cols.push(c);
                    extend(n, cols, out);
                    cols.pop();
                }
            }
        }
        let mut out = Vec::new();
        extend(n, &mut Vec::new(), &mut out);
        out
    }

    /// The solution turned by 90°: the queen at (r, c) moves to (c, n − 1 − r).
    fn quarter(s: &[usize]) -> Vec<usize> {
        let n = s.len();
        let mut t = vec![0; n];
        for (r, &c) in s.iter().enumerate() {
            t[c] = n - 1 - r;
        }
        t
    }

    #[test]
    fn fixed_counts_match_a_brute_force_that_applies_the_rotations() {
        for n in 0..=12usize {
            let solutions = all_solutions(n);
            let half = solutions
                .iter()
                .filter(|s| quarter(&quarter(s)) == **s)
                .count();
            let quarter_fixed = solutions.iter().filter(|s| quarter(s) == **s).count();
            let fixed = symmetric_fixed_counts(n as u32).unwrap();
            assert_eq!(fixed.half_turn, half as u128, "P n={n}");
            assert_eq!(fixed.quarter_turn, quarter_fixed as u128, "R n={n}");
            assert_eq!(
                solutions.len() as u128,
                known::Known::of(n as u32).map(|k| k.total).unwrap()
            );
        }
    }

    #[test]
    fn quarter_turn_symmetric_solutions_exist_only_for_n_0_or_1_mod_4() {
        for n in 2..=16u32 {
            let fixed = symmetric_fixed_counts(n).unwrap();
            if n % 4 >= 2 {
                assert_eq!(fixed.quarter_turn, 0, "n={n}");
            }
            // A quarter-turn symmetric solution is half-turn symmetric too.
            assert!(fixed.half_turn >= fixed.quarter_turn);
        }
        assert_eq!(symmetric_fixed_counts(4).unwrap().quarter_turn, 2);
    }

    #[test]
    fn unique_counts_from_the_known_totals_match_the_table() {
        // Up to n = 23, a tenth of a second for the half-turn search (n = 26 takes 6 s).
        for n in 0..=23u32 {
            let k = known::Known::of(n).unwrap();
            assert_eq!(unique_count(n, k.total).unwrap(), k.unique, "n={n}");
        }
    }

    #[test]
    fn a_wrong_total_is_reported_not_truncated() {
        let err = unique_count(10, 725).unwrap_err();
        assert!(
            matches!(err, Error::Inconsistent { total: 725, .. }),
            "{err}"
        );
        assert!(err.to_string().contains("multiple of 8"), "{err}");
        assert!(unique_count(0, 2).is_err());
        assert!(symmetric_fixed_counts(65).is_err());
    }

    #[test]
    fn unique_counts_above_the_bound_are_refused_at_once() {
        let started = std::time::Instant::now();
        for n in [UNIQUE_MAX_N + 1, 40, 64] {
            let err = unique_count(n, 1).unwrap_err();
            let beyond = |e: &Error| match *e {
                Error::UniqueBeyondReach { n: m, max } => (m, max) == (n, UNIQUE_MAX_N),
                _ => false,
            };
            assert!(beyond(&err), "{err:?}");
            assert!(err.to_string().contains("beyond reach"), "{err}");
            assert!(beyond(&symmetric_fixed_counts(n).unwrap_err()));
        }
        assert!(matches!(
            symmetric_fixed_counts(65),
            Err(Error::BoardTooLarge { n: 65 })
        ));
        // A hang bound, not a timing claim.
        assert!(started.elapsed().as_secs() < 10);
    }

    #[test]
    fn a_raised_stop_flag_ends_the_searches_of_any_board() {
        let stop = AtomicBool::new(true);
        let started = std::time::Instant::now();
        for n in [12, 28, 40, 64] {
            assert!(
                matches!(
                    symmetric_fixed_counts_with_stop(n, &stop),
                    Err(Error::Stopped)
                ),
                "n={n}"
            );
        }
        assert!(started.elapsed().as_secs() < 10);
        // Raised while they run: a thread raises it 50 ms into the 30-board's searches.
        let stop = AtomicBool::new(false);
        let started = std::time::Instant::now();
        std::thread::scope(|s| {
            s.spawn(|| {
                std::thread::sleep(std::time::Duration::from_millis(50));
                stop.store(true, Ordering::Relaxed);
            });
            assert!(matches!(
                symmetric_fixed_counts_with_stop(30, &stop),
                Err(Error::Stopped)
            ));
        });
        assert!(started.elapsed().as_secs() < 10);
    }

    #[test]
    fn the_bound_is_the_known_table() {
        assert_eq!(UNIQUE_MAX_N, known::Known::MAX_N);
        let go = AtomicBool::new(false);
        for n in 0..=14 {
            assert_eq!(
                symmetric_fixed_counts_with_stop(n, &go).unwrap(),
                symmetric_fixed_counts(n).unwrap(),
                "n={n}"
            );
        }
    }
}

#[cfg(test)]
mod examples {
    //! The examples of the items above, as tests (the items are not public).

    #[test]
    fn unique_count_example() {
        use crate::engine::unique::unique_count;
        assert_eq!(unique_count(8, 92).unwrap(), 12);
        assert_eq!(unique_count(1, 1).unwrap(), 1);
        assert!(unique_count(8, 93).is_err());
    }
}

#[cfg(test)]
mod doc_examples {
    //! The examples of the crate-private items above, as tests.

    #[test]
    fn symmetric_fixed_counts_with_stop_example() {
        use crate::engine::unique::symmetric_fixed_counts_with_stop;
        use std::sync::atomic::AtomicBool;
        let fixed = symmetric_fixed_counts_with_stop(8, &AtomicBool::new(false)).unwrap();
        assert_eq!((fixed.half_turn, fixed.quarter_turn), (4, 0));
        // Raised before it starts, even the 64-board ends at once.
        let stopped = symmetric_fixed_counts_with_stop(64, &AtomicBool::new(true));
        assert!(matches!(stopped, Err(crate::Error::Stopped)));
    }

    #[test]
    fn symmetric_fixed_counts_example() {
        use crate::engine::unique::symmetric_fixed_counts;
        let fixed = symmetric_fixed_counts(8).unwrap();
        assert_eq!((fixed.half_turn, fixed.quarter_turn), (4, 0));
    }
}
