//! The series the tool shows and compares, labelled for people: made from a study just measured
//! or read back from a saved `scale --format json` result (a single study, a `{"series": [...]}`
//! file of several, or an older file without the CPU's name): each study deserialized as the
//! library's [`Series`] and checked by [`Series::validated`].

use std::io::Read;
use std::path::Path;

use nqueens_ui::escape;

use nqueens::scaling::series::Series;
use serde_json::Value;

/// Why a file could not be read as scale results; the message names the file.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct Unreadable(pub String);

/// The largest file read: a saved result is a few kilobytes per series.
const MAX_BYTES: u64 = 64 << 20;

/// Reads the series saved in `path` by `nqueens scale --format json`.
pub fn read(path: &Path) -> Result<Vec<Series>, Unreadable> {
    let name = nqueens_ui::human::shorten(&escape::path(path)).into_owned();
    // The system's words ("No such file or directory"); messages drop its error number.
    // A regular file only, opened without waiting (a FIFO, /proc/kmsg): `nqueens_files`.
    let cannot = |e: nqueens_files::Refusal| Unreadable(format!("cannot read {name}: {e}"));
    let mut text = Vec::new();
    nqueens_files::open_read(path)
        .and_then(|file| Ok(file.take(MAX_BYTES + 1).read_to_end(&mut text)?))
        .map_err(cannot)?;
    if text.len() as u64 > MAX_BYTES {
        return Err(Unreadable(format!(
            "{name} is not a scale result: it is larger than {} MiB",
            MAX_BYTES >> 20
        )));
    }
    let refuse = |why: String| {
        Unreadable(format!(
            "{name} is not a scale result ({why}); make one with nqueens scale N --format json"
        ))
    };
    let value: Value = serde_json::from_slice(&text).map_err(|e| {
        let what = match e.classify() {
            serde_json::error::Category::Eof => "it ends early (truncated?)",
            _ => "it is not valid JSON",
        };
        Unreadable(format!(
            "{name} is not a scale result: {what} (line {}, column {})",
            e.line(),
            e.column()
        ))
    })?;
    let series = studies(value).map_err(refuse)?;
    Ok(series
        .into_iter()
        .map(|mut series| {
            series.source = Some(name.clone());
            escaped(series)
        })
        .collect())
}

/// The studies of a saved result, each checked: those of the array `scale --format json`
/// writes, or of a result saved before (one object, or its `"series"`); or what is wrong, the
/// field named by its path (`[1].runs[0].threads`, `series[1].runs[0].threads`).
fn studies(value: Value) -> Result<Vec<Series>, String> {
    let mut fields = match value {
        Value::Array(items) if !items.is_empty() => {
            return items
                .into_iter()
                .enumerate()
                .map(|(i, item)| study(item, &format!("[{i}]")))
                .collect();
        }
        Value::Array(_) => return Err("an empty list of studies".to_string()),
        Value::Object(fields) => fields,
        _ => return Err("not a JSON array of studies".to_string()),
    };
    let Some(several) = fields.remove("series") else {
        return Ok(vec![study(Value::Object(fields), "")?]);
    };
    match several {
        Value::Array(items) if !items.is_empty() => items
            .into_iter()
            .enumerate()
            .map(|(i, item)| study(item, &format!("series[{i}]")))
            .collect(),
        _ => Err("\"series\" is not a list of studies".to_string()),
    }
}

/// The study `value` at `path` (empty at the top), deserialized and checked.
fn study(value: Value, path: &str) -> Result<Series, String> {
    let at = |field: &str| match (path, field) {
        ("", field) => field.to_string(),
        (path, "" | ".") => path.to_string(),
        (path, field) => format!("{path}.{field}"),
    };
    if !value.is_object() {
        return Err(format!("{} is not a JSON object", at("")));
    }
    let series: Series = serde_path_to_error::deserialize(value).map_err(|e| {
        let field = at(&e.path().to_string());
        let error = e.into_inner();
        match field.as_str() {
            "" | "." => error.to_string(),
            field => format!("{field}: {error}"),
        }
    })?;
    series.validated().map_err(|e| {
        let field = at(&e.field);
        format!("{field} {}", e.problem)
    })
}

/// `series` read from a file, its strings as a terminal, a table, a CSV file and a plot may show
/// them: control characters written out, and a leading `=`, `+`, `-` or `@` made text
/// ([`escape::field`]; the file's name is already shown by [`escape::path`]).
fn escaped(mut series: Series) -> Series {
    let field = |s: &mut String| *s = escape::field(s).into_owned();
    field(&mut series.strategy);
    field(&mut series.kernel);
    series.run.cpu.as_mut().map(field);
    series.run.date.as_mut().map(field);
    series.run.version.as_mut().map(field);
    series
}

#[cfg(test)]
mod tests {
    use super::*;
    use nqueens_ui::series::Labels;

    #[test]
    fn the_committed_older_result_is_read_and_labelled() {
        // docs/measurements' file, through a link that the package turns into a copy.
        let path =
            Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/scale-18-xeon-16-cores.json");
        let series = read(&path).unwrap();
        assert_eq!(series.len(), 1);
        let s = &series[0];
        assert_eq!((s.n, s.machine.logical, s.machine.physical), (18, 16, 16));
        let source = s.source.as_deref().unwrap();
        assert!(source.ends_with("scale-18-xeon-16-cores.json"), "{source}");
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

    /// A small valid saved result.
    const SMALL: &str = r#"{"n": 8, "strategy": "mirror", "kernel": "avx2",
        "machine": {"logical": 1, "physical": 1},
        "runs": [{"threads": 1, "median_seconds": 1.0, "min_seconds": 1.0, "max_seconds": 1.0,
                  "speedup": 1.0, "efficiency": 1.0}]}"#;

    /// What `read` says of a file holding `contents`, named `result.json`.
    fn refusal(contents: &str) -> String {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("result.json");
        std::fs::write(&path, contents).unwrap();
        let err = read(&path).unwrap_err().0;
        let (name, why) = err.split_once(" is not a scale result").unwrap();
        assert!(name.ends_with("result.json"), "{err}");
        why.to_string()
    }

    #[test]
    fn what_is_wrong_is_said_in_the_words_of_a_json_file() {
        let advice = "; make one with nqueens scale N --format json";
        assert_eq!(
            refusal(r#"{"a": 1}"#),
            format!(" (missing field `n`){advice}")
        );
        assert_eq!(
            refusal("[1, 2]"),
            format!(" ([0] is not a JSON object){advice}")
        );
        assert_eq!(
            refusal("[]"),
            format!(" (an empty list of studies){advice}")
        );
        assert_eq!(
            refusal("7"),
            format!(" (not a JSON array of studies){advice}")
        );
        assert_eq!(
            refusal(&format!("[{SMALL}, {{\"n\": 1}}]")),
            format!(" ([1]: missing field `strategy`){advice}")
        );
        assert_eq!(
            refusal(r#"{"series": [{"n": 1}, 2]}"#),
            format!(" (series[0]: missing field `strategy`){advice}")
        );
        assert_eq!(
            refusal(&format!(r#"{{"series": [{}, 2]}}"#, SMALL)),
            format!(" (series[1] is not a JSON object){advice}")
        );
        assert_eq!(
            refusal(r#"{"series": [[]]}"#),
            format!(" (series[0] is not a JSON object){advice}")
        );
        assert_eq!(
            refusal(&SMALL.replace(r#""threads": 1"#, r#""threads": "one""#)),
            format!(r#" (runs[0].threads: invalid type: string "one", expected usize){advice}"#)
        );
        assert_eq!(
            refusal(&format!(
                r#"{{"series": [{}, {}]}}"#,
                SMALL,
                SMALL.replace(r#""max_seconds": 1.0"#, r#""max_seconds": 0.5"#)
            )),
            format!(
                " (series[1].runs[0] has its times out of order: fastest 1, median 1, \
                 slowest 0.5){advice}"
            )
        );
        assert_eq!(
            refusal(r#"{"series": 3}"#),
            format!(r#" ("series" is not a list of studies){advice}"#)
        );
        assert_eq!(
            refusal("{\"n\": "),
            ": it ends early (truncated?) (line 1, column 6)"
        );
        assert_eq!(refusal("{n}"), ": it is not valid JSON (line 1, column 2)");
    }
}
