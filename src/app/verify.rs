//! `nqueens verify`: count every board up to `--max` and compare with the known table.

use std::io::Write;

use nqueens::export::{TableRow, seconds, write_records};
use nqueens::{count, known};
use serde::Serialize;

use super::count::options;
use super::{Failure, Outcome, budget};
use crate::cli::VerifyArgs;

/// One verified board.
#[derive(Debug, Clone, Serialize)]
pub struct VerifyRecord {
    /// Board side.
    pub n: u32,
    /// The engine's total.
    pub total: u128,
    /// The known total (OEIS A000170).
    pub expected_total: u128,
    /// The engine's unique count.
    pub unique: u128,
    /// The known unique count (OEIS A002562).
    pub expected_unique: u128,
    /// Wall-clock seconds of the count.
    pub seconds: f64,
    /// Whether every computed number equals the known one.
    pub ok: bool,
}

impl TableRow for VerifyRecord {
    fn headings() -> Vec<&'static str> {
        vec![
            "n", "total", "expected", "unique", "expected", "time", "result",
        ]
    }

    fn cells(&self) -> Vec<String> {
        vec![
            self.n.to_string(),
            self.total.to_string(),
            self.expected_total.to_string(),
            self.unique.to_string(),
            self.expected_unique.to_string(),
            seconds(self.seconds),
            if self.ok { "ok" } else { "MISMATCH" }.to_string(),
        ]
    }
}

pub fn run(args: &VerifyArgs, out: &mut dyn Write) -> Result<Outcome, Failure> {
    let options = options(&args.engine);
    let secs: f64 = (0..=args.max)
        .map(|n| budget::engine_seconds(n, options.threads))
        .sum();
    budget::refuse_if_over(
        &format!("verify --max {} on {} threads", args.max, options.threads),
        secs,
        args.max_seconds,
        &format!(
            "choose a smaller --max, or raise --max-seconds (now {})",
            args.max_seconds
        ),
    )?;
    let mut records = Vec::new();
    for n in 0..=args.max {
        let counts = count(n, &options)?;
        let expected = known::lookup(n)
            .ok_or_else(|| Failure::Usage(format!("no known count for n = {n}")))?;
        let ok = counts.total == expected.total && counts.unique == expected.unique;
        records.push(VerifyRecord {
            n,
            total: counts.total,
            expected_total: expected.total,
            unique: counts.unique,
            expected_unique: expected.unique,
            seconds: counts.elapsed.as_secs_f64(),
            ok,
        });
    }
    write_records(out, args.format, &records)?;
    Ok(if records.iter().all(|r| r.ok) {
        Outcome::Success
    } else {
        Outcome::Negative
    })
}
