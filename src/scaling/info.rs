//! What makes a study comparable with another: the CPU, the operating system, the tool's version
//! and the date, and the headline figure a person can quote.

use std::time::Duration;

use crate::engine::kernel::Kernel;
use crate::engine::plan::Strategy;

use super::Machine;

/// What the load-balance model leaves out, in words: a study's output says so beside the model.
pub(crate) const MODEL_LEAVES_OUT: &str = "SMT (threads sharing a core), turbo and other clock changes, \
                                    memory bandwidth and caches, and scheduling overhead";

/// Where and how a study ran: enough to line it up against a study of another machine, kernel
/// or strategy.
///
/// ```
/// use nqueens::scaling::study::{measure, StudyOptions};
/// use nqueens::{Kernel, Strategy};
/// let options = StudyOptions::new(vec![2]).with_strategy(Strategy::Mirror).with_repeat(1);
/// let study = measure(8, &options, &nqueens::RunControl::default()).unwrap();
/// let run = &study.run;
/// assert_eq!((run.n, run.strategy, run.kernel), (8, Strategy::Mirror, study.kernel));
/// assert_eq!(run.smt, run.logical > run.physical);
/// assert_eq!(run.version, env!("CARGO_PKG_VERSION"));
/// assert!(run.date.ends_with('Z') && run.date.len() == 20, "{}", run.date);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct RunInfo {
    /// The CPU's model name as the operating system reports it (`None` where it does not).
    pub cpu: Option<String>,
    /// Logical CPUs (hardware threads).
    pub logical: usize,
    /// Physical cores.
    pub physical: usize,
    /// Whether cores run more than one hardware thread (more logical CPUs than cores).
    pub smt: bool,
    /// The kernel that counted the tasks (never [`Kernel::Auto`]).
    pub kernel: Kernel,
    /// How the board was split into tasks.
    pub strategy: Strategy,
    /// Board size.
    pub n: u32,
    /// The version of this crate that measured.
    pub version: String,
    /// When the study finished, UTC, RFC 3339 (`2026-11-24T23:59:01Z`).
    pub date: String,
    /// Operating system and architecture (`linux x86_64`).
    pub os: String,
    /// Where the worker threads ran, when the caller placed them on chosen CPUs: the placement
    /// and the CPUs in worker order (`cores: 0,2,1,3`; a run of `T` workers used the first
    /// `T`); `None` where the system placed them.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub pin: Option<String>,
}

impl RunInfo {
    /// The description of a study of board `n` with `strategy` and `kernel` on `machine`, now.
    pub(crate) fn now(n: u32, strategy: Strategy, kernel: Kernel, machine: Machine) -> RunInfo {
        RunInfo {
            cpu: cpu_model(),
            logical: machine.logical,
            physical: machine.physical,
            smt: machine.logical > machine.physical,
            kernel,
            strategy,
            n,
            version: env!("CARGO_PKG_VERSION").to_string(),
            date: rfc3339_utc(
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(0, |d| d.as_secs()),
            ),
            os: format!("{} {}", std::env::consts::OS, std::env::consts::ARCH),
            pin: None,
        }
    }
}

/// The figure to quote: the best measured throughput, and the same per core in use.
///
/// ```
/// use nqueens::scaling::study::{measure, StudyOptions};
/// use nqueens::{Kernel, Strategy};
/// let options = StudyOptions::new(vec![2]).with_strategy(Strategy::Mirror).with_repeat(1);
/// let study = measure(10, &options, &nqueens::RunControl::default()).unwrap();
/// let best = study.headline.unwrap();
/// assert_eq!(best.solutions, 724);
/// let fastest = study.runs.iter().map(|p| p.median.as_secs_f64()).fold(f64::INFINITY, f64::min);
/// assert_eq!(best.median.as_secs_f64(), fastest);
/// assert_eq!(best.solutions_per_second, 724.0 / fastest);
/// assert_eq!(best.cores, best.threads.min(study.machine.physical));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct Headline {
    /// The thread count with the shortest median time.
    pub threads: usize,
    /// That median time; serialized as `seconds`, in seconds.
    #[cfg_attr(
        feature = "serde",
        serde(rename = "seconds", with = "crate::serde_util::seconds")
    )]
    pub median: Duration,
    /// Solutions of the board (its total).
    pub solutions: u128,
    /// `solutions ÷ median`, per second.
    pub solutions_per_second: f64,
    /// Physical cores those threads ran on: `min(threads, physical cores)`.
    pub cores: usize,
    /// `solutions_per_second ÷ cores`.
    pub solutions_per_second_per_core: f64,
}

impl Headline {
    /// The headline of `solutions` counted in `(threads, median time)` on a machine of
    /// `physical` cores: the point with the shortest positive median; `None` when there is none.
    pub fn best(
        solutions: u128,
        points: impl IntoIterator<Item = (usize, Duration)>,
        physical: usize,
    ) -> Option<Headline> {
        let (threads, median) = points
            .into_iter()
            .filter(|&(_, median)| median > Duration::ZERO)
            .min_by_key(|&(_, median)| median)?;
        let rate = solutions as f64 / median.as_secs_f64();
        let cores = threads.min(physical).max(1);
        Some(Headline {
            threads,
            median,
            solutions,
            solutions_per_second: rate,
            cores,
            solutions_per_second_per_core: rate / cores as f64,
        })
    }
}

/// The CPU's model name from `/proc/cpuinfo` (`model name` on x86, `Model`, `Hardware` or
/// `CPU part` elsewhere), spaces collapsed; `None` where there is no such file or line.
fn cpu_model() -> Option<String> {
    let text = std::fs::read_to_string("/proc/cpuinfo").ok()?;
    model_from_cpuinfo(&text)
}

fn model_from_cpuinfo(text: &str) -> Option<String> {
    ["model name", "Model", "Hardware", "cpu model"]
        .iter()
        .find_map(|key| {
            text.lines().find_map(|line| {
                let (name, value) = line.split_once(':')?;
                (name.trim() == *key)
                    .then(|| value.split_whitespace().collect::<Vec<_>>().join(" "))
            })
        })
        .filter(|model| !model.is_empty())
}

/// `seconds` since the Unix epoch as an RFC 3339 UTC time (`1970-01-01T00:00:00Z`).
fn rfc3339_utc(seconds: u64) -> String {
    let days = (seconds / 86_400) as i64;
    let rest = seconds % 86_400;
    let (year, month, day) = civil_from_days(days);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rest / 3600,
        rest / 60 % 60,
        rest % 60
    )
}

/// The proleptic Gregorian date of `days` since 1970-01-01 (H. Hinnant's algorithm).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_rfc3339_utc() {
        assert_eq!(rfc3339_utc(0), "1970-01-01T00:00:00Z");
        assert_eq!(rfc3339_utc(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(rfc3339_utc(1_795_564_799), "2026-11-24T23:59:59Z");
        assert_eq!(rfc3339_utc(4_107_542_400), "2100-03-01T00:00:00Z");
    }

    #[test]
    fn cpu_models_are_read_from_cpuinfo() {
        let x86 = "processor\t: 0\nvendor_id\t: AuthenticAMD\nmodel\t\t: 17\n\
                   model name\t: AMD EPYC   9B14 96-Core Processor\n";
        assert_eq!(
            model_from_cpuinfo(x86).as_deref(),
            Some("AMD EPYC 9B14 96-Core Processor")
        );
        let arm = "processor : 0\nBogoMIPS : 50.00\nModel : Raspberry Pi 4 Model B Rev 1.4\n";
        assert_eq!(
            model_from_cpuinfo(arm).as_deref(),
            Some("Raspberry Pi 4 Model B Rev 1.4")
        );
        assert_eq!(model_from_cpuinfo("processor : 0\nmodel name :  \n"), None);
        assert_eq!(model_from_cpuinfo(""), None);
    }

    #[test]
    fn the_headline_is_the_fastest_median() {
        let s = Duration::from_millis;
        let h = Headline::best(724, [(1, s(2000)), (2, s(1000)), (4, s(1500))], 2).unwrap();
        assert_eq!((h.threads, h.median, h.cores), (2, s(1000), 2));
        assert_eq!(h.solutions_per_second, 724.0);
        assert_eq!(h.solutions_per_second_per_core, 362.0);
        let smt = Headline::best(10, [(4, s(1000))], 2).unwrap();
        assert_eq!((smt.cores, smt.solutions_per_second_per_core), (2, 5.0));
        assert_eq!(Headline::best(10, [(1, Duration::ZERO)], 2), None);
    }
}
