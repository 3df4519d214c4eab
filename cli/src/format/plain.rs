//! Numbers as JSON and CSV write them: plain decimals, never exponent notation, so that a
//! column reads one way in every row (`0.000007641` beside `0.000062883`, not `7.641e-6`).
//!
//! Whole numbers (counts, totals) are written as serde gives them; every `f64` goes through
//! [`decimal`]. Ratios are rounded to the precision they are measured to before they are
//! written ([`ratio`]).

use std::io::{self, Write};

use serde_json::ser::{Formatter, PrettyFormatter};

/// The significant digits a measured ratio (a speedup) keeps in JSON and CSV.
pub const RATIO_DIGITS: usize = 4;

/// `x` in plain decimal notation, in the fewest digits that read back as `x` (`0.000007641`,
/// `1.195`, `227684298360748500.0`): a whole value keeps a `.0`, so that a column of
/// seconds reads as decimals throughout. Not for infinities or NaN (JSON writes those
/// `null`).
pub fn decimal(x: f64) -> String {
    // Rust's `Display` for floats never uses exponent notation and gives the shortest
    // digits that round-trip.
    let text = x.to_string();
    if text.contains('.') || !x.is_finite() {
        text
    } else {
        format!("{text}.0")
    }
}

/// A measured ratio rounded to [`RATIO_DIGITS`] significant digits: `1.2223012943112572` is
/// `1.222`; infinities and NaN as they are.
pub fn ratio(x: f64) -> f64 {
    if !x.is_finite() || x == 0.0 {
        return x;
    }
    let digits = RATIO_DIGITS - 1;
    format!("{x:.digits$e}").parse().unwrap_or(x)
}

/// serde_json's pretty printer (two spaces in), every `f64` written by [`decimal`].
#[derive(Default)]
pub struct PlainFormatter(PrettyFormatter<'static>);

/// `value` as pretty-printed JSON, its numbers plain ([`PlainFormatter`]).
pub fn to_string_pretty<T: serde::Serialize + ?Sized>(value: &T) -> serde_json::Result<String> {
    let mut out = Vec::new();
    to_writer_pretty(&mut out, value)?;
    Ok(String::from_utf8(out).expect("serde_json writes UTF-8"))
}

/// Writes `value` to `out` as pretty-printed JSON, its numbers plain ([`PlainFormatter`]).
pub fn to_writer_pretty<T: serde::Serialize + ?Sized>(
    out: &mut dyn Write,
    value: &T,
) -> serde_json::Result<()> {
    let mut serializer = serde_json::Serializer::with_formatter(out, PlainFormatter::default());
    value.serialize(&mut serializer)
}

impl Formatter for PlainFormatter {
    fn write_f64<W: ?Sized + Write>(&mut self, writer: &mut W, value: f64) -> io::Result<()> {
        writer.write_all(decimal(value).as_bytes())
    }

    fn write_f32<W: ?Sized + Write>(&mut self, writer: &mut W, value: f32) -> io::Result<()> {
        // Through f64's shortest digits would show f32's rounding (`0.1` as `0.10000000149`).
        let text = value.to_string();
        let text = if text.contains('.') {
            text
        } else {
            format!("{text}.0")
        };
        writer.write_all(text.as_bytes())
    }

    fn begin_array<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.0.begin_array(writer)
    }

    fn end_array<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.0.end_array(writer)
    }

    fn begin_array_value<W: ?Sized + Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.0.begin_array_value(writer, first)
    }

    fn end_array_value<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.0.end_array_value(writer)
    }

    fn begin_object<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.0.begin_object(writer)
    }

    fn end_object<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.0.end_object(writer)
    }

    fn begin_object_key<W: ?Sized + Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.0.begin_object_key(writer, first)
    }

    fn end_object_key<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.0.end_object_key(writer)
    }

    fn begin_object_value<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.0.begin_object_value(writer)
    }

    fn end_object_value<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.0.end_object_value(writer)
    }
}

/// The fields of `record` as one CSV row, in the order serde gives them: `(names, values)`,
/// each value as the `csv` crate writes it, except that every `f64` is written by [`decimal`].
pub fn csv_fields<T: serde::Serialize>(record: &T) -> io::Result<(Vec<String>, Vec<String>)> {
    let mut written = ::csv::Writer::from_writer(Vec::new());
    written.serialize(record).map_err(io::Error::other)?;
    let bytes = written
        .into_inner()
        .map_err(|e| io::Error::other(e.to_string()))?;
    let mut reader = ::csv::Reader::from_reader(bytes.as_slice());
    let names: Vec<String> = reader
        .headers()
        .map_err(io::Error::other)?
        .iter()
        .map(String::from)
        .collect();
    let mut values: Vec<String> = match reader.records().next() {
        Some(row) => row
            .map_err(io::Error::other)?
            .iter()
            .map(String::from)
            .collect(),
        None => Vec::new(),
    };
    // The typed values, to tell a float from a whole number or a string that looks like one.
    if let Ok(serde_json::Value::Object(typed)) = serde_json::to_value(record) {
        for (name, value) in names.iter().zip(values.iter_mut()) {
            if let Some(serde_json::Value::Number(number)) = typed.get(name)
                && number.is_f64()
                && let Some(x) = number.as_f64()
            {
                *value = decimal(x);
            }
        }
    }
    Ok((names, values))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(serde::Serialize)]
    struct Row {
        name: &'static str,
        seconds: f64,
        count: u64,
        share: Option<f64>,
    }

    #[test]
    fn decimals_are_plain_and_shortest() {
        assert_eq!(decimal(7.641e-6), "0.000007641");
        assert_eq!(decimal(0.000_022_483), "0.000022483");
        assert_eq!(decimal(1.0), "1.0");
        assert_eq!(decimal(2.276842983607485e17), "227684298360748500.0");
        assert_eq!(decimal(1.195), "1.195");
        assert_eq!(decimal(-0.5), "-0.5");
    }

    #[test]
    fn ratios_keep_four_significant_digits() {
        assert_eq!(ratio(1.2223012943112572), 1.222);
        assert_eq!(ratio(8.229681978798586), 8.23);
        assert_eq!(ratio(241.0517), 241.1);
        assert_eq!(ratio(0.000_123_456), 0.0001235);
        assert_eq!(ratio(0.0), 0.0);
        assert!(ratio(f64::NAN).is_nan());
    }

    #[test]
    fn json_numbers_are_plain() {
        let row = Row {
            name: "1e5",
            seconds: 7.641e-6,
            count: 92,
            share: Some(1e-7),
        };
        let text = to_string_pretty(&[&row]).unwrap();
        assert!(text.contains("\"seconds\": 0.000007641,"), "{text}");
        assert!(text.contains("\"share\": 0.0000001\n"), "{text}");
        assert!(text.contains("\"count\": 92,"), "{text}");
        assert!(!text.contains("e-"), "{text}");
        let parsed: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(parsed[0]["seconds"], 7.641e-6);
        assert_eq!(text, {
            let mut pretty = serde_json::to_string_pretty(&[&row]).unwrap();
            pretty = pretty.replace("7.641e-6", "0.000007641");
            pretty.replace("1e-7", "0.0000001")
        });
    }

    #[test]
    fn csv_floats_are_plain_and_the_rest_as_csv_writes_it() {
        let row = Row {
            name: "1e5",
            seconds: 7.641e-6,
            count: 92,
            share: None,
        };
        let (names, values) = csv_fields(&row).unwrap();
        assert_eq!(names, ["name", "seconds", "count", "share"]);
        assert_eq!(values, ["1e5", "0.000007641", "92", ""]);
    }
}
