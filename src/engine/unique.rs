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
//! next, so every symmetric solution is reached exactly once. These searches visit only a few
//! rows' worth of the tree and cost far less than the total they are combined with, so any
//! strategy's total can be turned into a unique count after the fact.

use crate::Error;

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
/// ```
/// use nqueens::engine::unique::symmetric_fixed_counts;
/// let fixed = symmetric_fixed_counts(8).unwrap();
/// assert_eq!((fixed.half_turn, fixed.quarter_turn), (4, 0));
/// ```
pub fn symmetric_fixed_counts(n: u32) -> Result<FixedCounts, Error> {
    if n > super::kernel::MAX_N {
        return Err(Error::BoardTooLarge { n });
    }
    Ok(FixedCounts {
        half_turn: fixed_by(n, Turn::Half),
        quarter_turn: fixed_by(n, Turn::Quarter),
    })
}

/// The number of solutions distinct under the 8 symmetries, from the board's `total` (however it
/// was counted) and two small symmetric searches.
///
/// The searches are small (about 12 ms at `n = 18`, 0.12 s at `n = 20`) and run on the calling thread. Fails with
/// [`Error::Inconsistent`] when `total + P + 2R` is not a multiple of 8, which means `total` is
/// not the board's true total.
///
/// ```
/// use nqueens::engine::unique::unique_count;
/// assert_eq!(unique_count(8, 92).unwrap(), 12);
/// assert_eq!(unique_count(1, 1).unwrap(), 1);
/// assert!(unique_count(8, 93).is_err());
/// ```
pub fn unique_count(n: u32, total: u128) -> Result<u128, Error> {
    if n <= 1 {
        return match total {
            1 => Ok(1),
            _ => Err(Error::Inconsistent(format!(
                "n = {n} has exactly one placement, not {total}"
            ))),
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
        return Err(Error::Inconsistent(format!(
            "n = {n}: total {total} + {} half-turn + 2 x {} quarter-turn symmetric solutions is \
             not a multiple of 8",
            fixed.half_turn, fixed.quarter_turn
        )));
    }
    Ok(orbit_sum / 8)
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

/// Counts the solutions fixed by `turn` by filling the lowest empty row with a whole orbit.
fn fixed_by(n: u32, turn: Turn) -> u128 {
    if n <= 1 {
        return 1;
    }
    fn fill(n: u32, turn: Turn, taken: Taken) -> u128 {
        let full = super::kernel::board_mask(n);
        if taken.rows == full {
            return 1;
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
                count += fill(n, turn, next);
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
    fill(n, turn, empty)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::known;

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
            assert_eq!(solutions.len() as u128, known::total(n as u32).unwrap());
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
        for n in 0..=18u32 {
            let k = known::lookup(n).unwrap();
            assert_eq!(unique_count(n, k.total).unwrap(), k.unique, "n={n}");
        }
    }

    #[test]
    fn a_wrong_total_is_reported_not_truncated() {
        let err = unique_count(10, 725).unwrap_err();
        assert!(matches!(err, Error::Inconsistent(_)), "{err}");
        assert!(err.to_string().contains("multiple of 8"), "{err}");
        assert!(unique_count(0, 2).is_err());
        assert!(symmetric_fixed_counts(65).is_err());
    }
}
