//! One measured series as the tool shows and compares it, made from a study just measured or read
//! back from a saved `scale --format json` result (a single study, a `{"series": [...]}` file of
//! several, or an older file without the CPU's name).

use std::io::Read;
use std::path::Path;

use serde_json::Value;

use crate::escape;

use nqueens::scaling::study::{MeasuredPoint, ModelPoint, Study};
use nqueens::scaling::{Headline, Loss};

/// One strategy and kernel measured on one machine.
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    /// The file it was read from (`None`: measured by this run).
    pub file: Option<String>,
    /// Board side.
    pub n: u32,
    /// Strategy name.
    pub strategy: String,
    /// Kernel name (the kernel that ran).
    pub kernel: String,
    /// The CPU's model name, when recorded.
    pub cpu: Option<String>,
    /// Logical CPUs of the machine.
    pub logical: usize,
    /// Physical cores of the machine.
    pub physical: usize,
    /// Timed runs per thread count.
    pub repeat: usize,
    /// The measured thread counts, ascending.
    pub runs: Vec<MeasuredPoint>,
    /// The model's predictions, ascending.
    pub model: Vec<ModelPoint>,
    /// The best measured throughput.
    pub headline: Option<Headline>,
    /// When it was measured (RFC 3339), when recorded.
    pub date: Option<String>,
    /// The version of the tool that measured it, when recorded.
    pub version: Option<String>,
}

impl Series {
    /// The series of a study just measured.
    pub fn of(study: &Study) -> Series {
        Series {
            file: None,
            n: study.n,
            strategy: study.strategy.to_string(),
            kernel: study.kernel.to_string(),
            cpu: study.run.cpu.clone(),
            logical: study.machine.logical,
            physical: study.machine.physical,
            repeat: study.repeat,
            runs: study.runs.clone(),
            model: study.model.clone(),
            headline: study.headline,
            date: Some(study.run.date.clone()),
            version: Some(study.run.version.clone()),
        }
    }

    /// The machine in a few words: the CPU's name (without trademarks and clock) or, in an
    /// older result without it, its CPU counts; with the cores and SMT either way.
    pub fn machine(&self) -> String {
        let counts = if self.logical > self.physical {
            format!("{} cores, {} threads", self.physical, self.logical)
        } else {
            format!("{} cores", self.physical)
        };
        match &self.cpu {
            Some(cpu) => format!("{}, {counts}", short_cpu(cpu)),
            None => format!("{counts}, CPU not recorded"),
        }
    }

    /// The series' label in tables and legends: machine, kernel, strategy (and n); made text
    /// for a spreadsheet like every string read from a file ([`escape::field`]), since
    /// shortening the CPU's name may bring another character to its front.
    pub fn label(&self) -> String {
        let label = format!(
            "{}: {} kernel, {}, n = {}",
            self.machine(),
            self.kernel,
            self.strategy,
            self.n
        );
        escape::field(&label).into_owned()
    }
}

/// A CPU model name without the words that only make it longer: `Intel(R) Xeon(R) Gold 6338
/// CPU @ 2.00GHz` → `Intel Xeon Gold 6338`.
fn short_cpu(cpu: &str) -> String {
    let cpu = cpu.split(" @ ").next().unwrap_or(cpu);
    cpu.replace("(R)", "")
        .replace("(TM)", "")
        .replace("(tm)", "")
        .split_whitespace()
        .filter(|w| !matches!(*w, "CPU" | "Processor"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Why a file could not be read as scale results; the message names the file.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct Unreadable(pub String);

/// The largest file read: a saved result is a few kilobytes per series.
const MAX_BYTES: u64 = 64 << 20;

/// Reads the series saved in `path` by `nqueens scale --format json`.
pub fn read(path: &Path) -> Result<Vec<Series>, Unreadable> {
    let name = crate::human::shorten(&escape::path(path)).into_owned();
    // The system's words ("No such file or directory"); messages drop its error number.
    // A regular file only, opened without waiting (a FIFO, /proc/kmsg): `nqueens::files`.
    let cannot = |e: nqueens::files::Refusal| Unreadable(format!("cannot read {name}: {e}"));
    let mut text = Vec::new();
    nqueens::files::open_read(path)
        .and_then(|file| Ok(file.take(MAX_BYTES + 1).read_to_end(&mut text)?))
        .map_err(cannot)?;
    if text.len() as u64 > MAX_BYTES {
        return Err(Unreadable(format!(
            "{name} is not a scale result: it is larger than {} MiB",
            MAX_BYTES >> 20
        )));
    }
    let value: Value = serde_json::from_slice(&text).map_err(|e| {
        let what = if e.is_eof() {
            "it ends early (truncated?)"
        } else {
            "it is not valid JSON"
        };
        Unreadable(format!(
            "{name} is not a scale result: {what} (line {}, column {})",
            e.line(),
            e.column()
        ))
    })?;
    parse(&value, &name).map(|series| series.into_iter().map(escaped).collect())
}

/// `series` read from a file, its strings as a terminal, a table, a CSV file and a plot may show
/// them: control characters written out, and a leading `=`, `+`, `-` or `@` made text
/// ([`escape::field`]; the file's name is already shown by [`escape::path`]).
fn escaped(series: Series) -> Series {
    let field = |s: String| escape::field(&s).into_owned();
    Series {
        strategy: field(series.strategy),
        kernel: field(series.kernel),
        cpu: series.cpu.map(field),
        date: series.date.map(field),
        ..series
    }
}

/// The series of a parsed file named `name`.
pub fn parse(value: &Value, name: &str) -> Result<Vec<Series>, Unreadable> {
    let refuse = |why: String| {
        Unreadable(format!(
            "{name} is not a scale result ({why}); make one with nqueens scale N --format json"
        ))
    };
    let items: Vec<&Value> = match value.get("series") {
        Some(Value::Array(items)) if !items.is_empty() => items.iter().collect(),
        Some(_) => return Err(refuse("\"series\" is not a list of studies".into())),
        None => vec![value],
    };
    let several = items.len() > 1;
    items
        .into_iter()
        .enumerate()
        .map(|(i, item)| {
            one(item, name).map_err(|why| {
                if several {
                    refuse(format!("series {}: {why}", i + 1))
                } else {
                    refuse(why)
                }
            })
        })
        .collect()
}

/// The most CPUs, threads and workers a saved result may name (`--model-up-to`'s limit).
const MAX_COUNT: u64 = crate::args::MODEL_UP_TO_MAX;

/// The range of every time (seconds) and speedup read back: what the tables and the plot's log
/// axes handle (a nanosecond to 31 years, and a speedup as far either side of 1).
const TIME_RANGE: (f64, f64) = (1e-9, 1e9);

/// The range of an efficiency, a CPU share and a part of the loss breakdown read back.
const SHARE_RANGE: (f64, f64) = (-1e9, 1e9);

/// What a JSON value is, for a message: `a string`, `a list`.
fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "true or false",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

/// A number as a message shows it: plain, or in exponent form where it is very large or small.
fn shown(x: f64) -> String {
    if x != 0.0 && !(1e-4..1e9).contains(&x.abs()) {
        format!("{x:e}")
    } else {
        format!("{x}")
    }
}

/// The whole number at `key` of `v` (named `field` in messages), from `range`; `Ok(None)` where
/// the key is absent (or null, when `optional`).
fn whole_at(
    v: &Value,
    key: &str,
    field: &str,
    range: std::ops::RangeInclusive<u64>,
) -> Result<Option<u64>, String> {
    let Some(x) = v.get(key) else {
        return Ok(None);
    };
    let number = match x {
        Value::Number(number) => number,
        other => {
            return Err(format!(
                "{field} must be a whole number, found {}",
                kind(other)
            ));
        }
    };
    match (number.as_u64(), number.as_i64(), number.as_f64()) {
        (Some(u), _, _) if range.contains(&u) => Ok(Some(u)),
        (Some(u), _, _) => Err(format!(
            "{field} is {u}, outside {} to {}",
            range.start(),
            range.end()
        )),
        (None, Some(i), _) if i < 0 => Err(format!("{field} cannot be negative (found {i})")),
        (_, _, Some(f)) if f < 0.0 => {
            Err(format!("{field} cannot be negative (found {})", shown(f)))
        }
        (_, _, Some(f)) => Err(format!(
            "{field} must be a whole number, found {}",
            shown(f)
        )),
        _ => Err(format!("{field} must be a whole number")),
    }
}

/// The number at `key` of `v` (named `field` in messages), finite and within `range`;
/// `Ok(None)` where the key is absent or null.
fn number_at(v: &Value, key: &str, field: &str, range: (f64, f64)) -> Result<Option<f64>, String> {
    match v.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Number(number)) => {
            let x = number.as_f64().unwrap_or(f64::NAN);
            if (range.0..=range.1).contains(&x) {
                Ok(Some(x))
            } else {
                Err(format!(
                    "{field} is {}, outside {} to {}",
                    shown(x),
                    shown(range.0),
                    shown(range.1)
                ))
            }
        }
        Some(other) => Err(format!("{field} must be a number, found {}", kind(other))),
    }
}

fn one(v: &Value, name: &str) -> Result<Series, String> {
    let obj = v.as_object().ok_or("not a JSON object")?;
    let missing = |field: &str| format!("no \"{field}\"");
    // A required whole number or number, named `field` in messages.
    let uint = |v: &Value, key: &str, field: &str, range| -> Result<usize, String> {
        whole_at(v, key, field, range)?
            .map(|x| x as usize)
            .ok_or_else(|| missing(field))
    };
    let num = |v: &Value, key: &str, field: &str, range| -> Result<f64, String> {
        number_at(v, key, field, range)?.ok_or_else(|| missing(field))
    };
    let text = |key: &str| -> Result<String, String> {
        match obj.get(key) {
            None => Err(missing(key)),
            Some(Value::String(s)) => Ok(s.clone()),
            Some(other) => Err(format!("{key} must be a string, found {}", kind(other))),
        }
    };
    let n = uint(v, "n", "n", 0..=u64::from(nqueens::MAX_N))? as u32;
    let machine = obj.get("machine").ok_or_else(|| missing("machine"))?;
    let logical = uint(machine, "logical", "machine.logical", 1..=MAX_COUNT)?;
    let physical = uint(machine, "physical", "machine.physical", 1..=MAX_COUNT)?;
    let runs = match obj.get("runs") {
        None => return Err(missing("runs")),
        Some(Value::Array(runs)) => runs,
        Some(other) => return Err(format!("runs must be a list, found {}", kind(other))),
    };
    let runs = runs
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let field = |key: &str| format!("runs[{i}].{key}");
            let time = |key: &str| num(r, key, &field(key), TIME_RANGE);
            let threads = uint(r, "threads", &field("threads"), 1..=MAX_COUNT)?;
            let mut point = MeasuredPoint::new(
                threads,
                time("median_seconds")?,
                time("min_seconds")?,
                time("max_seconds")?,
                time("speedup")?,
            );
            point.efficiency = num(r, "efficiency", &field("efficiency"), SHARE_RANGE)?;
            point.cpu_share = number_at(r, "cpu_share", &field("cpu_share"), SHARE_RANGE)?;
            point.shares_core = threads > physical;
            // Older results have no breakdown.
            point.loss = match r.get("loss") {
                None | Some(Value::Null) => None,
                Some(loss) => Some(self::loss(loss, &field("loss"))?),
            };
            Ok(point)
        })
        .collect::<Result<Vec<_>, String>>()?;
    if runs.is_empty() {
        return Err("no measured runs".into());
    }
    let model = match obj.get("model") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(points)) => points
            .iter()
            .enumerate()
            .map(|(i, m)| {
                let field = |key: &str| format!("model[{i}].{key}");
                let time = |key: &str| number_at(m, key, &field(key), TIME_RANGE);
                let mut point = ModelPoint::new(
                    uint(m, "workers", &field("workers"), 1..=MAX_COUNT)?,
                    time("predicted_seconds")?
                        .ok_or_else(|| missing(&field("predicted_seconds")))?,
                    time("speedup")?.ok_or_else(|| missing(&field("speedup")))?,
                );
                point.efficiency = num(m, "efficiency", &field("efficiency"), SHARE_RANGE)?;
                point.with_losses_seconds = time("with_losses_seconds")?;
                point.with_losses_speedup = time("with_losses_speedup")?;
                point.losses_from_threads = whole_at(
                    m,
                    "losses_from_threads",
                    &field("losses_from_threads"),
                    1..=MAX_COUNT,
                )?
                .map(|t| t as usize);
                Ok(point)
            })
            .collect::<Result<Vec<_>, String>>()?,
        Some(other) => return Err(format!("model must be a list, found {}", kind(other))),
    };
    let run = obj.get("run");
    let total = obj
        .get("total")
        .and_then(Value::as_u64)
        .map(u128::from)
        .or_else(|| nqueens::known::total(n));
    let headline = total.and_then(|total| {
        Headline::best(
            total,
            runs.iter().map(|p| (p.threads, p.median_seconds)),
            physical,
        )
    });
    Ok(Series {
        file: Some(name.to_string()),
        n,
        strategy: text("strategy")?,
        kernel: text("kernel")?,
        cpu: run
            .and_then(|r| r.get("cpu"))
            .and_then(Value::as_str)
            .map(str::to_string),
        logical,
        physical,
        repeat: whole_at(v, "repeat", "repeat", 1..=1000)?.unwrap_or(1) as usize,
        runs,
        model,
        headline,
        date: run
            .and_then(|r| r.get("date"))
            .and_then(Value::as_str)
            .map(str::to_string),
        version: run
            .and_then(|r| r.get("version"))
            .and_then(Value::as_str)
            .map(str::to_string),
    })
}

/// A saved loss breakdown (named `field` in messages): four numbers in [`SHARE_RANGE`].
fn loss(v: &Value, field: &str) -> Result<Loss, String> {
    let part = |key: &str| -> Result<f64, String> {
        let name = format!("{field}.{key}");
        number_at(v, key, &name, SHARE_RANGE)?.ok_or_else(|| format!("no \"{name}\""))
    };
    if !v.is_object() {
        return Err(format!("{field} must be an object, found {}", kind(v)));
    }
    for key in ["serial", "imbalance", "slowdown", "unexplained"] {
        part(key)?;
    }
    serde_json::from_value(v.clone()).map_err(|e| format!("{field}: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cpu_names_lose_trademarks_and_clocks() {
        assert_eq!(
            short_cpu("Intel(R) Xeon(R) Gold 6338 CPU @ 2.00GHz"),
            "Intel Xeon Gold 6338"
        );
        assert_eq!(
            short_cpu("AMD EPYC 9B14 96-Core Processor"),
            "AMD EPYC 9B14 96-Core"
        );
    }

    #[test]
    fn the_committed_older_result_is_read_and_labelled() {
        let path = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
            .join("docs/measurements/scale-18-xeon-16-cores.json");
        let series = read(&path).unwrap();
        assert_eq!(series.len(), 1);
        let s = &series[0];
        assert_eq!((s.n, s.logical, s.physical), (18, 16, 16));
        assert_eq!(
            s.label(),
            "16 cores, CPU not recorded: avx512 kernel, symmetric, n = 18"
        );
        assert_eq!(s.runs.len(), 5);
        // Saved before the loss breakdown was measured.
        assert!(s.runs.iter().all(|p| p.loss.is_none()));
        // Its total comes from the known table.
        assert_eq!(s.headline.unwrap().solutions, 666_090_624);
    }

    #[test]
    fn a_saved_loss_breakdown_is_read_back() {
        let value = serde_json::json!({
            "n": 12, "strategy": "symmetric", "kernel": "avx512",
            "machine": {"logical": 2, "physical": 2},
            "runs": [{
                "threads": 2, "median_seconds": 1.0, "min_seconds": 1.0, "max_seconds": 1.0,
                "speedup": 1.8, "efficiency": 0.9,
                "loss": {"serial": 0.02, "imbalance": 0.03, "slowdown": 0.04, "unexplained": 0.01}
            }]
        });
        let series = parse(&value, "a.json").unwrap();
        let loss = series[0].runs[0].loss.unwrap();
        assert_eq!((loss.serial, loss.imbalance), (0.02, 0.03));
        assert_eq!((loss.slowdown, loss.unexplained), (0.04, 0.01));
    }

    #[test]
    fn foreign_json_is_refused_with_the_key_it_lacks() {
        let err = parse(&serde_json::json!({"a": 1}), "a.json").unwrap_err();
        assert!(
            err.0.starts_with("a.json is not a scale result (no \"n\")"),
            "{err}"
        );
        let err = parse(&serde_json::json!([1, 2]), "b.json").unwrap_err();
        assert!(err.0.contains("not a JSON object"), "{err}");
        let err = parse(&serde_json::json!({"series": 3}), "c.json").unwrap_err();
        assert!(err.0.contains("\"series\""), "{err}");
    }
}
