//! `nqueens verify`: count boards (every one up to `--max` by default) and compare with the
//! known table, writing each board's row as it ends.

use std::io::Write;

use crate::format::{RecordStream, table_row};
use nqueens::estimation::cost::Cost;
use nqueens_ui::human::{self, grouped};
use serde::Serialize;

use super::budget;
use super::counted::Counted;
use super::long_run::{Interrupt, LongRun};
use super::session::{Session, options, resolve_kernel};
use crate::args::VerifyArgs;
use nqueens_ui::failure::{Failure, Outcome};

/// One verified board: the count's record ([`Counted`], as `count` writes it), and beside it
/// the known counts and whether they agree.
#[derive(Debug, Clone, Serialize)]
pub struct Verified {
    /// The count.
    #[serde(flatten)]
    pub counted: Counted,
    /// The known total (OEIS A000170).
    pub known_total: u128,
    /// The known unique count (OEIS A002562).
    pub known_unique: u128,
    /// Whether every computed number equals the known one.
    pub ok: bool,
}

table_row!(Verified, |record| {
    "n" => record.counted.run.counts.n,
    "total" => grouped(record.counted.run.counts.total),
    "known total" => grouped(record.known_total),
    "unique" => record.counted.run.counts.unique.map_or("-".to_string(), grouped),
    "known unique" => grouped(record.known_unique),
    "wall time" => human::duration(record.counted.seconds()),
    "kernel" => record.counted.run.counts.kernel,
    "result" => if record.ok { "ok" } else { "MISMATCH" }.to_string(),
});

/// How to keep finished tasks across interrupts: `verify` keeps no journal, `count` does.
const KEEP_ADVICE: &str = "verify keeps no journal: to keep finished tasks across interrupts, \
                           count a long board with nqueens count N --checkpoint FILE";

/// The line that ends a verification on stderr: how many boards match the known table, and
/// which do not.
fn summary(boards: usize, wrong: &[u32]) -> String {
    let matching = boards - wrong.len();
    let mut line = format!(
        "nqueens: {matching} of {} match{} the known counts",
        human::plural(boards, "board"),
        if matching == 1 { "es" } else { "" }
    );
    if !wrong.is_empty() {
        let listed: Vec<String> = wrong.iter().map(u32::to_string).collect();
        line.push_str(&format!(
            "; n = {} do{} not",
            listed.join(", "),
            if wrong.len() == 1 { "es" } else { "" }
        ));
    }
    line
}

/// Counts the boards and compares each with the known table; while a board is counted, its
/// progress goes to stderr as `count`'s does (a bar on a terminal, else a line now and then).
pub fn run(args: &VerifyArgs, out: &mut dyn Write) -> Result<Outcome, Failure> {
    // A bad interval for the progress lines is refused before anything is counted.
    args.progress.apply().map_err(Failure::Usage)?;
    let mut options = options(&args.engine);
    let (boards, what) = match &args.boards {
        Some(boards) => (
            boards.0.clone(),
            match boards.0[..] {
                [n] => format!("verifying n = {n}"),
                _ => format!("verifying these {} boards", boards.0.len()),
            },
        ),
        None => (
            (0..=args.max).collect(),
            format!("verify --max {}", args.max),
        ),
    };
    let expected = boards
        .iter()
        .map(|&n| super::session::lookup(n))
        .collect::<Result<Vec<_>, _>>()?;
    resolve_kernel(&mut options)?;
    budget::refuse_cost_over(
        &format!("{what} on {}", human::plural(options.threads, "thread")),
        Cost::try_of_boards(&boards, &options)?,
        args.max_seconds,
        &format!(
            "choose smaller boards, or {}",
            budget::raise_max_seconds(args.max_seconds)
        ),
    )?;
    super::threads::warn_if_oversubscribed(options.threads);
    let session = Session {
        options,
        long_run: LongRun::without_journal(KEEP_ADVICE),
        interrupt: Interrupt::install(),
        cost: None,
    };
    let w = super::session::column_widths(&boards, &session.options);
    let time = super::session::TIME_WIDTH;
    let widths = [w[0], w[1], w[1], w[2], w[2], time, w[7], 2];
    let mut stream = RecordStream::with_widths(out, args.format, &widths);
    let mut wrong = Vec::new();
    for (&n, expected) in boards.iter().zip(expected) {
        let run = session.board(n, &mut stream)?;
        let counts = run.counts;
        let ok = counts.total == expected.total && counts.unique == Some(expected.unique);
        if !ok {
            wrong.push(n);
        }
        stream.write(&Verified {
            counted: Counted::new(&run),
            known_total: expected.total,
            known_unique: expected.unique,
            ok,
        })?;
        session.interrupt.result_written();
    }
    stream.finish()?;
    nqueens_ui::output::note(summary(boards.len(), &wrong));
    Ok(if wrong.is_empty() {
        Outcome::Success
    } else {
        Outcome::Negative
    })
}

#[cfg(test)]
mod tests {
    use super::summary;

    #[test]
    fn the_summary_names_the_boards_that_differ() {
        assert_eq!(
            summary(1, &[]),
            "nqueens: 1 of 1 board matches the known counts"
        );
        assert_eq!(
            summary(15, &[]),
            "nqueens: 15 of 15 boards match the known counts"
        );
        assert_eq!(
            summary(3, &[7]),
            "nqueens: 2 of 3 boards match the known counts; n = 7 does not"
        );
        assert_eq!(
            summary(3, &[7, 9]),
            "nqueens: 1 of 3 boards matches the known counts; n = 7, 9 do not"
        );
    }
}
