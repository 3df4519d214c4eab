//! `nqueens known`: print the embedded table of known counts.

use std::io::Write;

use crate::format::write_records;
use nqueens::known::{Known, Mismatch};

use crate::args::{KnownArgs, beyond_known};
use nqueens_ui::failure::{Failure, Outcome};
use nqueens_ui::human::grouped;

pub fn run(args: &KnownArgs, out: &mut dyn Write) -> Result<Outcome, Failure> {
    let boards = match &args.boards {
        Some(boards) => boards.0.clone(),
        None => (0..=args.max).collect(),
    };
    let rows = boards
        .iter()
        .map(|&n| lookup(n))
        .collect::<Result<Vec<_>, _>>()?;
    write_records(out, args.format, &rows)?;
    Ok(Outcome::Success)
}

/// The table's row for `n`, or the usage error that names how far the table goes.
pub fn lookup(n: u32) -> Result<Known, Failure> {
    Known::of(n).ok_or_else(|| Failure::Usage(beyond_known(n)))
}

/// What differs between a board's counts and the known ones, digits grouped: `n = 12: the
/// total 22,200 is not the known 14,200, nor the unique count 2,787 the known 1,787`.
pub fn differs(wrong: &Mismatch) -> String {
    let known = wrong.known;
    let unique = wrong.unique.filter(|&u| u != known.unique);
    let mut line = format!("n = {}: ", wrong.n);
    if wrong.total != known.total {
        line += &format!(
            "the total {} is not the known {}",
            grouped(wrong.total),
            grouped(known.total)
        );
        if let Some(unique) = unique {
            line += &format!(
                ", nor the unique count {} the known {}",
                grouped(unique),
                grouped(known.unique)
            );
        }
    } else if let Some(unique) = unique {
        line += &format!(
            "the unique count {} is not the known {}",
            grouped(unique),
            grouped(known.unique)
        );
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mismatch_names_both_counts_grouped() {
        let wrong = Mismatch::of(12, 22_200, Some(2_787)).unwrap();
        assert_eq!(
            differs(&wrong),
            "n = 12: the total 22,200 is not the known 14,200, nor the unique count 2,787 the \
             known 1,787"
        );
        let wrong = Mismatch::of(12, 14_200, Some(1_788)).unwrap();
        assert_eq!(
            differs(&wrong),
            "n = 12: the unique count 1,788 is not the known 1,787"
        );
    }
}
