//! `nqueens compare`: the textbook algorithms on one board, their work and their speed.
//!
//! Also serves `nqueens count --algorithm NAME`, a plain single-thread count with one of them.

use std::io::Write;
use std::time::Instant;

use nqueens::classic::{self, Algorithm, Counters, estimate};
use nqueens::export::{Format, TableRow, per_second, seconds, write_records};
use serde::Serialize;

use super::{Failure, Outcome};
use crate::cli::CompareArgs;

/// One algorithm's run, as every output format reports it.
#[derive(Debug, Clone, Serialize)]
pub struct CompareRecord {
    /// The algorithm.
    pub algorithm: Algorithm,
    /// Board side.
    pub n: u32,
    /// Solutions found.
    pub solutions: u128,
    /// Queens placed.
    pub nodes: u128,
    /// Squares examined for the next queen.
    pub candidates: u128,
    /// Candidates that reached the diagonal test.
    pub diagonal_checks: u128,
    /// Wall-clock seconds of the plain (uninstrumented) run.
    pub seconds: f64,
    /// Wall-clock seconds of the instrumented run that produced the counters.
    pub instrumented_seconds: f64,
    /// How many times faster than the slowest algorithm of this comparison (plain runs).
    pub speedup: f64,
}

impl TableRow for CompareRecord {
    fn headings() -> Vec<&'static str> {
        vec![
            "algorithm",
            "solutions",
            "nodes",
            "candidates",
            "diagonal checks",
            "time",
            "instrumented",
            "speedup",
        ]
    }

    fn cells(&self) -> Vec<String> {
        vec![
            self.algorithm.to_string(),
            self.solutions.to_string(),
            self.nodes.to_string(),
            self.candidates.to_string(),
            self.diagonal_checks.to_string(),
            seconds(self.seconds),
            seconds(self.instrumented_seconds),
            speedup(self.speedup),
        ]
    }
}

/// Formats a speedup for people: `12.3x`, or `-` when the times were too short to divide.
fn speedup(factor: f64) -> String {
    if factor.is_finite() {
        format!("{factor:.1}x")
    } else {
        "-".to_string()
    }
}

pub fn run(args: &CompareArgs, out: &mut dyn Write) -> Result<Outcome, Failure> {
    let mut algorithms = Vec::with_capacity(args.algorithms.len());
    for &algorithm in &args.algorithms {
        if !algorithms.contains(&algorithm) {
            algorithms.push(algorithm);
        }
    }
    refuse_if_slow(args.n, &algorithms, args.max_seconds)?;
    let mut records = Vec::with_capacity(algorithms.len());
    for &algorithm in &algorithms {
        records.push(measure(algorithm, args.n)?);
    }
    check_agreement(&records).map_err(Failure::Wrong)?;
    let slowest = records.iter().map(|r| r.seconds).fold(0.0, f64::max);
    for record in &mut records {
        record.speedup = slowest / record.seconds;
    }
    write_records(out, args.format, &records)?;
    Ok(Outcome::Success)
}

/// Runs `algorithm` twice on the `n × n` board: plain for the time, instrumented for the work.
fn measure(algorithm: Algorithm, n: u32) -> Result<CompareRecord, Failure> {
    let started = Instant::now();
    let plain = classic::count(algorithm, n)?;
    let plain_seconds = started.elapsed().as_secs_f64();
    let started = Instant::now();
    let counters = classic::count_instrumented(algorithm, n)?;
    let instrumented_seconds = started.elapsed().as_secs_f64();
    if plain != counters.solutions {
        return Err(Failure::Wrong(format!(
            "{algorithm} found {plain} solutions of n = {n} in its plain run but {} in its \
             instrumented run",
            counters.solutions
        )));
    }
    let Counters {
        solutions,
        nodes,
        candidates,
        diagonal_checks,
    } = counters;
    Ok(CompareRecord {
        algorithm,
        n,
        solutions,
        nodes,
        candidates,
        diagonal_checks,
        seconds: plain_seconds,
        instrumented_seconds,
        speedup: 1.0,
    })
}

/// Refuses a comparison whose slowest algorithm is estimated to need more than `limit` seconds.
fn refuse_if_slow(n: u32, algorithms: &[Algorithm], limit: f64) -> Result<(), Failure> {
    let cost = |a: Algorithm| estimate::seconds(a, n) + estimate::instrumented_seconds(a, n);
    let Some(&slowest) = algorithms
        .iter()
        .max_by(|&&a, &&b| cost(a).total_cmp(&cost(b)))
    else {
        return Ok(());
    };
    if cost(slowest) <= limit {
        return Ok(());
    }
    let fast: Vec<&str> = Algorithm::ALL
        .iter()
        .filter(|&&a| cost(a) <= limit)
        .map(|a| a.name())
        .collect();
    let advice = if fast.is_empty() {
        format!("choose a smaller n or raise --max-seconds (now {limit})")
    } else {
        format!(
            "name faster algorithms (--algorithms {}), choose a smaller n, or raise \
             --max-seconds (now {limit})",
            fast.join(",")
        )
    };
    Err(Failure::Usage(format!(
        "{slowest} would need about {} for n = {n} (a rough estimate from measured rates); {advice}",
        duration(cost(slowest))
    )))
}

/// A rough duration for people: seconds, minutes, hours, days or years.
fn duration(secs: f64) -> String {
    const UNITS: [(f64, &str); 4] = [
        (365.25 * 86400.0, "years"),
        (86400.0, "days"),
        (3600.0, "hours"),
        (60.0, "minutes"),
    ];
    for (scale, unit) in UNITS {
        if secs >= 2.0 * scale {
            return format!("{:.0} {unit}", secs / scale);
        }
    }
    format!("{secs:.0} seconds")
}

/// Checks that every algorithm found the same number of solutions.
fn check_agreement(records: &[CompareRecord]) -> Result<(), String> {
    let Some(first) = records.first() else {
        return Ok(());
    };
    if records.iter().all(|r| r.solutions == first.solutions) {
        return Ok(());
    }
    let found: Vec<String> = records
        .iter()
        .map(|r| format!("{} {}", r.algorithm, r.solutions))
        .collect();
    Err(format!(
        "the algorithms disagree on the solutions of n = {}: {}",
        first.n,
        found.join(", ")
    ))
}

/// One board counted by `nqueens count --algorithm`.
#[derive(Debug, Clone, Serialize)]
pub struct AlgorithmCountRecord {
    /// Board side.
    pub n: u32,
    /// All solutions.
    pub total: u128,
    /// Wall-clock seconds of the count.
    pub seconds: f64,
    /// Worker threads used (always 1).
    pub threads: usize,
    /// The algorithm that counted.
    pub algorithm: Algorithm,
}

impl TableRow for AlgorithmCountRecord {
    fn headings() -> Vec<&'static str> {
        vec!["n", "total", "time", "solutions/s", "threads", "algorithm"]
    }

    fn cells(&self) -> Vec<String> {
        vec![
            self.n.to_string(),
            self.total.to_string(),
            seconds(self.seconds),
            per_second(self.total as f64 / self.seconds),
            self.threads.to_string(),
            self.algorithm.to_string(),
        ]
    }
}

/// `nqueens count N --algorithm NAME`: a plain single-thread count of each board.
pub fn count_with(
    algorithm: Algorithm,
    boards: &[u32],
    format: Format,
    out: &mut dyn Write,
) -> Result<Outcome, Failure> {
    let mut records = Vec::with_capacity(boards.len());
    for &n in boards {
        let started = Instant::now();
        let total = classic::count(algorithm, n)?;
        records.push(AlgorithmCountRecord {
            n,
            total,
            seconds: started.elapsed().as_secs_f64(),
            threads: 1,
            algorithm,
        });
    }
    write_records(out, format, &records)?;
    Ok(Outcome::Success)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(algorithm: Algorithm, solutions: u128) -> CompareRecord {
        CompareRecord {
            algorithm,
            n: 8,
            solutions,
            nodes: 0,
            candidates: 0,
            diagonal_checks: 0,
            seconds: 1.0,
            instrumented_seconds: 1.0,
            speedup: 1.0,
        }
    }

    #[test]
    fn a_disagreement_is_reported_with_every_algorithms_answer() {
        let records = [record(Algorithm::Array, 92), record(Algorithm::Bitmask, 91)];
        let err = check_agreement(&records).unwrap_err();
        assert!(err.contains("disagree"), "{err}");
        assert!(
            err.contains("array 92") && err.contains("bitmask 91"),
            "{err}"
        );
        assert!(check_agreement(&records[..1]).is_ok());
        assert!(check_agreement(&[]).is_ok());
    }

    #[test]
    fn slow_comparisons_are_refused_and_fast_ones_are_not() {
        assert!(refuse_if_slow(8, &Algorithm::ALL, 60.0).is_ok());
        let err = refuse_if_slow(20, &Algorithm::ALL, 60.0).unwrap_err();
        assert!(matches!(err, Failure::Usage(_)));
        let text = err.to_string();
        assert!(text.starts_with("matrix would need about"), "{text}");
        assert!(text.contains("--algorithms"), "{text}");
        assert!(refuse_if_slow(20, &[Algorithm::Bitmask], 1e9).is_ok());
    }

    #[test]
    fn durations_read_naturally() {
        assert_eq!(duration(5.2), "5 seconds");
        assert_eq!(duration(600.0), "10 minutes");
        assert_eq!(duration(3.0 * 86400.0), "3 days");
    }
}
