//! The known solution counts, embedded: OEIS A000170 (all solutions) and A002562 (unique
//! solutions, distinct under the 8 rotations and reflections of the square), for n = 0..=27.
//!
//! n = 0 follows the OEIS offset: the empty board has one, empty, placement.

pub use crate::error::known::Mismatch;
pub use crate::ids::Known;

impl Known {
    /// The known table, ordered by `n` from 0, one row per n.
    ///
    /// ```
    /// use nqueens::known::Known;
    /// assert_eq!(Known::TABLE.len() as u32, Known::MAX_N + 1);
    /// assert!(Known::TABLE.iter().enumerate().all(|(i, row)| row.n as usize == i));
    /// ```
    pub const TABLE: &'static [Known] = &[
        Known {
            n: 0,
            total: 1,
            unique: 1,
        },
        Known {
            n: 1,
            total: 1,
            unique: 1,
        },
        Known {
            n: 2,
            total: 0,
            unique: 0,
        },
        Known {
            n: 3,
            total: 0,
            unique: 0,
        },
        Known {
            n: 4,
            total: 2,
            unique: 1,
        },
        Known {
            n: 5,
            total: 10,
            unique: 2,
        },
        Known {
            n: 6,
            total: 4,
            unique: 1,
        },
        Known {
            n: 7,
            total: 40,
            unique: 6,
        },
        Known {
            n: 8,
            total: 92,
            unique: 12,
        },
        Known {
            n: 9,
            total: 352,
            unique: 46,
        },
        Known {
            n: 10,
            total: 724,
            unique: 92,
        },
        Known {
            n: 11,
            total: 2680,
            unique: 341,
        },
        Known {
            n: 12,
            total: 14200,
            unique: 1787,
        },
        Known {
            n: 13,
            total: 73712,
            unique: 9233,
        },
        Known {
            n: 14,
            total: 365596,
            unique: 45752,
        },
        Known {
            n: 15,
            total: 2279184,
            unique: 285053,
        },
        Known {
            n: 16,
            total: 14772512,
            unique: 1846955,
        },
        Known {
            n: 17,
            total: 95815104,
            unique: 11977939,
        },
        Known {
            n: 18,
            total: 666090624,
            unique: 83263591,
        },
        Known {
            n: 19,
            total: 4968057848,
            unique: 621012754,
        },
        Known {
            n: 20,
            total: 39029188884,
            unique: 4878666808,
        },
        Known {
            n: 21,
            total: 314666222712,
            unique: 39333324973,
        },
        Known {
            n: 22,
            total: 2691008701644,
            unique: 336376244042,
        },
        Known {
            n: 23,
            total: 24233937684440,
            unique: 3029242658210,
        },
        Known {
            n: 24,
            total: 227514171973736,
            unique: 28439272956934,
        },
        Known {
            n: 25,
            total: 2207893435808352,
            unique: 275986683743434,
        },
        Known {
            n: 26,
            total: 22317699616364044,
            unique: 2789712466510289,
        },
        Known {
            n: 27,
            total: 234907967154122528,
            unique: 29363495934315694,
        },
    ];

    /// The largest `n` in the known table.
    ///
    /// ```
    /// assert_eq!(nqueens::known::Known::MAX_N, 27);
    /// ```
    pub const MAX_N: u32 = (Known::TABLE.len() - 1) as u32;

    /// The known row for `n`, if the table has one.
    ///
    /// ```
    /// use nqueens::known::Known;
    /// let eight = Known::of(8).unwrap();
    /// assert_eq!((eight.total, eight.unique), (92, 12));
    /// assert!(Known::of(28).is_none());
    /// ```
    #[must_use]
    pub fn of(n: u32) -> Option<Known> {
        Known::TABLE.get(n as usize).copied()
    }
}

impl Mismatch {
    /// The mismatch of the `n`-board's `total` (and `unique` count, when given) with the known
    /// table; `None` when they match or the table does not hold `n`.
    #[must_use]
    pub fn of(n: u32, total: u128, unique: Option<u128>) -> Option<Mismatch> {
        let known = Known::of(n)?;
        let wrong = known.total != total || unique.is_some_and(|u| u != known.unique);
        wrong.then_some(Mismatch {
            n,
            total,
            unique,
            known,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_are_indexed_by_n() {
        for (i, k) in Known::TABLE.iter().enumerate() {
            assert_eq!(k.n as usize, i);
        }
    }

    #[test]
    fn the_table_matches_the_reference_file_when_present() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../shared/reference/oeis-counts.tsv"
        );
        let Ok(text) = std::fs::read_to_string(path) else {
            return; // the reference lives beside the checkout; the embedded copy is checked below
        };
        let rows: Vec<Known> = text
            .lines()
            .filter(|l| !l.starts_with('#') && !l.starts_with("n\t") && !l.is_empty())
            .map(|l| {
                let f: Vec<&str> = l.split('\t').collect();
                Known {
                    n: f[0].parse().unwrap(),
                    total: f[1].parse().unwrap(),
                    unique: f[2].parse().unwrap(),
                }
            })
            .collect();
        assert_eq!(rows, Known::TABLE);
    }

    #[test]
    fn a_mismatch_names_what_differs() {
        let only_unique = Mismatch::of(8, 92, Some(13)).unwrap();
        assert_eq!(
            only_unique.to_string(),
            "n = 8: the unique count is 13, not the known 12"
        );
        let only_total = Mismatch::of(8, 100, None).unwrap();
        assert_eq!(
            only_total.to_string(),
            "n = 8: the total is 100, not the known 92"
        );
        assert!(Mismatch::of(0, 1, Some(1)).is_none());
    }

    #[test]
    fn spot_values() {
        assert_eq!(Known::of(8).map(|k| k.total), Some(92));
        assert_eq!(Known::of(8).map(|k| k.unique), Some(12));
        assert_eq!(Known::of(0).map(|k| k.total), Some(1));
        assert_eq!(Known::of(27).map(|k| k.total), Some(234907967154122528));
    }
}
