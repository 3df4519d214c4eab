//! `nqueens count --algorithm`: the boards counted by one of the textbook algorithms
//! ([`Algorithm::count`]), plain and on one thread, refused when estimated too slow.

use std::io::Write;
use std::time::{Duration, Instant};

use nqueens::classic::Algorithm;
use nqueens_ui::failure::{Failure, Outcome};
use nqueens_ui::human::{self, grouped};
use nqueens_ui::progress::{Steps, quit_on_interrupt};
use serde::Serialize;

use super::budget;
use crate::format::{Format, table_row, write_records};

/// One board counted by `nqueens count --algorithm`.
#[derive(Debug, Clone, Serialize)]
pub struct AlgorithmCount {
    /// Board size.
    pub n: u32,
    /// All solutions.
    pub total: u128,
    /// Wall time of the count, in seconds.
    pub wall_time: f64,
    /// Worker threads used (always 1).
    pub threads: usize,
    /// The algorithm that counted.
    pub algorithm: Algorithm,
}

table_row!(AlgorithmCount, |record| {
    "n" => record.n,
    "total" => grouped(record.total),
    "wall time" => human::duration(record.wall_time),
    "solutions/s" => human::rate_of(record.total as f64, record.wall_time),
    "threads" => record.threads,
    "algorithm" => record.algorithm,
});

/// `nqueens count N --algorithm NAME`: a plain single-thread count of each board, refused when
/// estimated to need more than `max_seconds` in all.
pub fn count_with(
    algorithm: Algorithm,
    boards: &[u32],
    max_seconds: f64,
    format: Format,
    out: &mut dyn Write,
) -> Result<Outcome, Failure> {
    let cost = boards.iter().fold(Duration::ZERO, |sum, &n| {
        sum.saturating_add(algorithm.estimated_time(n))
    });
    budget::refuse_if_over(
        &format!("counting with {algorithm}"),
        cost,
        max_seconds,
        &format!(
            "choose smaller boards, leave out --algorithm (the engine is far faster), or {}",
            budget::raise_max_seconds(max_seconds)
        ),
    )?;
    let steps = Steps::on_terminal(algorithm.name(), boards.len() as u64);
    if steps.is_visible() {
        quit_on_interrupt(steps.notices());
    }
    let mut records = Vec::with_capacity(boards.len());
    for &n in boards {
        steps.doing(format!("n = {n}"));
        let started = Instant::now();
        let total = algorithm.count(n)?;
        records.push(AlgorithmCount {
            n,
            total,
            wall_time: started.elapsed().as_secs_f64(),
            threads: 1,
            algorithm,
        });
        steps.step();
    }
    steps.finish();
    write_records(out, format, &records)?;
    Ok(Outcome::Success)
}
