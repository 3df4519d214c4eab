//! `nqueens compare`: the textbook algorithms on one board, their work and their speed
//! (`nqueens count --algorithm NAME` is `textbook`).

use std::io::Write;
use std::time::Instant;

use crate::format::{plain, write_cells};
use nqueens::classic::{Algorithm, Counters};
use nqueens_ui::human::{self, TimeUnit, grouped};
use serde::Serialize;

use super::budget;
use crate::args::CompareArgs;
use nqueens_ui::failure::{Failure, Outcome};
use nqueens_ui::progress::{Steps, quit_on_interrupt};

/// One algorithm's run, as every output format reports it.
#[derive(Debug, Clone, Serialize)]
pub struct CompareRecord {
    /// The algorithm.
    pub algorithm: Algorithm,
    /// Board size.
    pub n: u32,
    /// Solutions found.
    pub total: u128,
    /// Queens placed.
    pub nodes: u128,
    /// Squares examined for the next queen.
    pub candidates: u128,
    /// Candidates that reached the diagonal test.
    pub diagonal_checks: u128,
    /// Wall time of the plain (uninstrumented) search in seconds, written as `wall_time`; the
    /// fastest of repeated runs when one run is short.
    #[serde(rename = "wall_time")]
    pub seconds: f64,
    /// Wall time of the instrumented search that produced the counters in seconds, written as
    /// `instrumented_wall_time`, measured the same way.
    #[serde(rename = "instrumented_wall_time")]
    pub instrumented_seconds: f64,
    /// How many times faster than `baseline` (plain runs), to four significant digits.
    pub speedup: f64,
    /// The algorithm every speedup is measured against ([`baseline`]): 1 for itself.
    pub baseline: Algorithm,
}

/// The algorithm a comparison's speedups are measured against: the textbook matrix search
/// when it is compared, else the first compared in textbook order (`Algorithm::ALL`), so that
/// the baseline never depends on which run happened to be slowest.
pub fn baseline(algorithms: &[Algorithm]) -> Option<Algorithm> {
    Algorithm::ALL
        .iter()
        .copied()
        .find(|algorithm| algorithms.contains(algorithm))
}

/// Writes the comparison for people: one time unit for the table (milliseconds when every
/// time is under a second), named in the headings with the baseline of the speedups.
fn write_table(out: &mut dyn Write, records: &[CompareRecord]) -> std::io::Result<()> {
    let unit = TimeUnit::for_column(
        records
            .iter()
            .flat_map(|r| [r.seconds, r.instrumented_seconds]),
    );
    let baseline = records
        .first()
        .map_or("-".to_string(), |r| r.baseline.to_string());
    let headings = [
        "algorithm".to_string(),
        "total".to_string(),
        "nodes".to_string(),
        "candidates".to_string(),
        "diagonal checks".to_string(),
        format!("wall time ({})", unit.symbol()),
        format!("instrumented ({})", unit.symbol()),
        format!("speedup vs {baseline}"),
    ];
    let mut rows: Vec<Vec<String>> = records.iter().map(|r| cells(r, unit)).collect();
    // Each time column with one number of decimals, so that its points line up.
    let times: Vec<f64> = records.iter().map(|r| r.seconds).collect();
    let instrumented: Vec<f64> = records.iter().map(|r| r.instrumented_seconds).collect();
    for (row, (time, instrumented)) in rows.iter_mut().zip(
        unit.column(&times)
            .into_iter()
            .zip(unit.column(&instrumented)),
    ) {
        row[5] = time;
        row[6] = instrumented;
    }
    write_cells(out, &headings, &rows)?;
    // Said on stderr, as every note: the table itself stays what it measured.
    if let Some(note) = fewer_checks_slower(records) {
        out.flush()?;
        nqueens_ui::output::note(note);
    }
    Ok(())
}

/// Says why an algorithm that makes fewer diagonal checks than another can take longer, when
/// the table shows one: a check is counted, not weighed.
fn fewer_checks_slower(records: &[CompareRecord]) -> Option<String> {
    let timed = |r: &CompareRecord| r.seconds >= human::MEASURABLE_SECONDS;
    let (fewer, more) = records.iter().filter(|r| timed(r)).find_map(|a| {
        records
            .iter()
            .filter(|b| timed(b))
            .find(|b| a.diagonal_checks < b.diagonal_checks && a.seconds > b.seconds)
            .map(|b| (a, b))
    })?;
    Some(format!(
        "nqueens: note: {} makes fewer diagonal checks than {} and takes longer: the checks are counted, \
         not weighed (array's check scans the queens placed so far, matrix's reads one cell, \
         attack's and bitmask's one flag or mask)",
        fewer.algorithm, more.algorithm
    ))
}

/// A record's cells for people, its times in `unit`.
fn cells(record: &CompareRecord, unit: TimeUnit) -> Vec<String> {
    vec![
        record.algorithm.to_string(),
        grouped(record.total),
        grouped(record.nodes),
        grouped(record.candidates),
        grouped(record.diagonal_checks),
        unit.cell(record.seconds),
        unit.cell(record.instrumented_seconds),
        speedup(record),
    ]
}

/// A record's speedup for people: `12.3x`, or `-` when its run was too short to time (a
/// ratio of such times is noise).
fn speedup(record: &CompareRecord) -> String {
    if record.seconds < human::MEASURABLE_SECONDS {
        return human::NONE.to_string();
    }
    human::speedup(record.speedup)
}

pub fn run(args: &CompareArgs, out: &mut dyn Write) -> Result<Outcome, Failure> {
    let algorithms = &args.algorithms;
    refuse_if_slow(args.n, algorithms, args.max_seconds)?;
    // Two steps an algorithm: the plain runs, then the instrumented ones.
    let label = format!("n = {}", args.n);
    let steps = Steps::on_terminal(&label, 2 * algorithms.len() as u64);
    if steps.is_visible() {
        quit_on_interrupt(steps.notices());
    }
    let mut records = Vec::with_capacity(algorithms.len());
    for &algorithm in algorithms {
        records.push(measure(algorithm, args.n, &steps)?);
    }
    steps.finish();
    check_agreement(&records).map_err(Failure::Wrong)?;
    set_speedups(&mut records);
    args.format
        .write_rows(out, &records, |out| write_table(out, &records))?;
    Ok(Outcome::Success)
}

/// Sets every record's speedup over the [`baseline`] of the comparison.
fn set_speedups(records: &mut [CompareRecord]) {
    let algorithms: Vec<Algorithm> = records.iter().map(|r| r.algorithm).collect();
    let Some(baseline) = baseline(&algorithms) else {
        return;
    };
    let base_seconds = records
        .iter()
        .find(|r| r.algorithm == baseline)
        .map_or(f64::NAN, |r| r.seconds);
    for record in records {
        record.baseline = baseline;
        record.speedup = plain::ratio(base_seconds / record.seconds);
    }
}

/// Runs of one search repeat while their total time stays under this, so that the time of a
/// short search is the fastest of many runs rather than one noisy sample.
const REPEAT_FOR_SECONDS: f64 = 0.2;

/// The most runs of one search.
const MAX_REPEATS: u32 = 1000;

/// Runs `search` once, then again while the runs so far took less than [`REPEAT_FOR_SECONDS`]
/// (at most [`MAX_REPEATS`] runs); returns the last result and the fastest run's seconds.
fn fastest_of_repeats<T>(
    mut search: impl FnMut() -> Result<T, nqueens::Error>,
) -> Result<(T, f64), Failure> {
    let mut total = 0.0;
    let mut fastest = f64::INFINITY;
    let mut runs = 0;
    loop {
        runs += 1;
        let started = Instant::now();
        let result = search()?;
        let elapsed = started.elapsed().as_secs_f64();
        fastest = fastest.min(elapsed);
        total += elapsed;
        if total >= REPEAT_FOR_SECONDS || runs >= MAX_REPEATS {
            return Ok((result, fastest));
        }
    }
}

/// Runs `algorithm` on the `n × n` board plain for the time, and instrumented for the work,
/// a step of `steps` each.
fn measure(algorithm: Algorithm, n: u32, steps: &Steps) -> Result<CompareRecord, Failure> {
    steps.doing(algorithm.name());
    let (plain, plain_seconds) = fastest_of_repeats(|| algorithm.count(n))?;
    steps.step();
    steps.doing(format!("{algorithm}, instrumented"));
    let (counters, instrumented_seconds) = fastest_of_repeats(|| algorithm.count_instrumented(n))?;
    steps.step();
    if plain != counters.solutions {
        return Err(Failure::Wrong(format!(
            "{algorithm} found {plain} solutions of n = {n} in its plain run but {} in its \
             instrumented run",
            counters.solutions
        )));
    }
    let Counters {
        solutions: total,
        nodes,
        candidates,
        diagonal_checks,
        ..
    } = counters;
    Ok(CompareRecord {
        algorithm,
        n,
        total,
        nodes,
        candidates,
        diagonal_checks,
        seconds: plain_seconds,
        instrumented_seconds,
        speedup: 1.0,
        baseline: algorithm,
    })
}

/// Refuses a comparison whose slowest algorithm is estimated to need more than `limit` seconds.
fn refuse_if_slow(n: u32, algorithms: &[Algorithm], limit: f64) -> Result<(), Failure> {
    let cost = |a: Algorithm| {
        a.estimated_time(n)
            .saturating_add(a.estimated_instrumented_time(n))
    };
    let Some(&slowest) = algorithms.iter().max_by_key(|&&a| cost(a)) else {
        return Ok(());
    };
    if budget::seconds(cost(slowest)) <= limit {
        return Ok(());
    }
    let fast: Vec<&str> = Algorithm::ALL
        .iter()
        .filter(|&&a| budget::seconds(cost(a)) <= limit)
        .map(|a| a.name())
        .collect();
    let advice = if fast.is_empty() {
        format!("choose a smaller n or {}", budget::raise_max_seconds(limit))
    } else {
        format!(
            "name faster algorithms (--algorithm {}), choose a smaller n, or {}",
            fast.join(","),
            budget::raise_max_seconds(limit)
        )
    };
    budget::refuse_if_over(
        &format!("{slowest} for n = {n}"),
        cost(slowest),
        limit,
        &advice,
    )
}

/// Checks that every algorithm found the same number of solutions.
fn check_agreement(records: &[CompareRecord]) -> Result<(), String> {
    let Some(first) = records.first() else {
        return Ok(());
    };
    if records.iter().all(|r| r.total == first.total) {
        return Ok(());
    }
    let found: Vec<String> = records
        .iter()
        .map(|r| format!("{} {}", r.algorithm, r.total))
        .collect();
    Err(format!(
        "the algorithms disagree on the solutions of n = {}: {}",
        first.n,
        found.join(", ")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(algorithm: Algorithm, total: u128) -> CompareRecord {
        CompareRecord {
            algorithm,
            n: 8,
            total,
            nodes: 0,
            candidates: 0,
            diagonal_checks: 0,
            seconds: 1.0,
            instrumented_seconds: 1.0,
            speedup: 1.0,
            baseline: Algorithm::Matrix,
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
        let err = refuse_if_slow(15, &Algorithm::ALL, 60.0).unwrap_err();
        assert!(matches!(err, Failure::Usage(_)));
        let text = err.to_string();
        assert!(
            text.starts_with("array for n = 15 would need about"),
            "{text}"
        );
        assert!(
            text.contains("--algorithm ") && text.contains("bitmask"),
            "{text}"
        );
        assert!(refuse_if_slow(15, &[Algorithm::Bitmask], 60.0).is_ok());
        // Where nothing fits, the advice is a smaller n or a larger limit.
        let text = refuse_if_slow(24, &[Algorithm::Bitmask], 60.0)
            .unwrap_err()
            .to_string();
        assert!(
            text.contains("smaller n") && !text.contains("--algorithm"),
            "{text}"
        );
        assert!(refuse_if_slow(20, &[Algorithm::Bitmask], 1e9).is_ok());
    }

    #[test]
    fn a_time_column_lines_up_its_decimal_points() {
        let column = TimeUnit::Milliseconds.column(&[0.001_587, 0.000_134, 0.020_485, 4e-7]);
        assert_eq!(column, ["1.587", "0.134", "20.485", "< 0.001"]);
        assert_eq!(TimeUnit::Seconds.column(&[25.4, 1.5]), ["25.40", "1.50"]);
        assert_eq!(TimeUnit::Seconds.column(&[f64::NAN]), ["-"]);
    }

    #[test]
    fn fewer_checks_that_take_longer_are_explained() {
        let mut matrix = record(Algorithm::Matrix, 92);
        (matrix.diagonal_checks, matrix.seconds) = (100, 0.001);
        let mut array = record(Algorithm::Array, 92);
        (array.diagonal_checks, array.seconds) = (40, 0.002);
        let note = fewer_checks_slower(&[matrix.clone(), array.clone()]).unwrap();
        assert!(
            note.starts_with("nqueens: note: array makes fewer diagonal checks than matrix"),
            "{note}"
        );
        array.seconds = 0.0005;
        assert_eq!(fewer_checks_slower(&[matrix, array]), None);
    }

    #[test]
    fn runs_too_short_to_time_have_no_speedup() {
        let mut fast = record(Algorithm::Bitmask, 92);
        fast.seconds = 4e-7;
        fast.speedup = 1.6;
        let cells = cells(&fast, TimeUnit::Milliseconds);
        assert_eq!(cells[5], "< 0.001");
        assert_eq!(cells[7], "-");
        let mut timed = record(Algorithm::Bitmask, 92);
        timed.seconds = 0.000_412;
        timed.speedup = 12.34;
        let cells = super::cells(&timed, TimeUnit::Milliseconds);
        assert_eq!((cells[5].as_str(), cells[7].as_str()), ("0.412", "12.3x"));
    }

    #[test]
    fn speedups_are_over_the_matrix_search_or_the_first_in_textbook_order() {
        let mut records = [
            record(Algorithm::Bitmask, 92),
            record(Algorithm::Matrix, 92),
            record(Algorithm::Array, 92),
        ];
        (records[0].seconds, records[1].seconds, records[2].seconds) = (0.5, 2.0, 3.0);
        set_speedups(&mut records);
        let speedups: Vec<f64> = records.iter().map(|r| r.speedup).collect();
        assert_eq!(speedups, [4.0, 1.0, 0.6667]);
        assert!(records.iter().all(|r| r.baseline == Algorithm::Matrix));
        assert_eq!(
            baseline(&[Algorithm::Bitmask, Algorithm::Attack]),
            Some(Algorithm::Attack)
        );
        assert_eq!(baseline(&[]), None);
    }
}
