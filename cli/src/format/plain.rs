//! Numbers as JSON and CSV write them: one precision rule, six significant digits for every
//! measured or estimated figure, in plain decimals, never exponent notation, so that a column
//! reads one way in every row (`0.000007641` beside `0.0000628834`, `1.50381` beside `7.96`,
//! not `7.641e-6` or `1.503808836254284`).
//!
//! Whole numbers (counts, totals) are written as serde gives them, exact; every `f64` goes
//! through [`decimal`]. Ratios are rounded to the precision they are measured to before they
//! are written ([`ratio`]).

use std::io::{self, Write};

use serde_json::ser::{Formatter, PrettyFormatter};

/// The significant digits a measured ratio (a speedup) keeps in JSON and CSV.
pub const RATIO_DIGITS: usize = 4;

/// The significant digits every `f64` keeps in JSON and CSV: more than any time, share or
/// estimate the command measures holds.
pub const SIGNIFICANT_DIGITS: usize = 6;

/// `x` to [`SIGNIFICANT_DIGITS`] significant digits in plain decimal notation, in the fewest
/// digits that read back as that (`0.000007641`, `1.50381`, `227684000000000000.0`): a whole
/// value keeps a `.0`, so that a column of seconds reads as decimals throughout. Not for
/// infinities or NaN (JSON writes those `null`).
pub fn decimal(x: f64) -> String {
    let digits = SIGNIFICANT_DIGITS - 1;
    let x: f64 = if x.is_finite() && x != 0.0 {
        format!("{x:.digits$e}").parse().unwrap_or(x)
    } else {
        x
    };
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

/// The fields of `record` as one CSV row, in the order serde gives them: `(names, values)`.
/// A string is its text, `null` is empty, a number is as JSON writes it (every `f64` by
/// [`decimal`]), and the fields of a nested object (a flattened record's, a GPU run's `gpu`)
/// are columns of their own, named `object.field`; a list is left out.
pub fn csv_fields<T: serde::Serialize>(record: &T) -> io::Result<(Vec<String>, Vec<String>)> {
    let text = to_string_pretty(record).map_err(io::Error::other)?;
    let mut fields = (Vec::new(), Vec::new());
    columns("", &text, &mut fields)?;
    Ok(fields)
}

/// The fields of the JSON object `text` in the order written, each value as its JSON text.
struct Ordered(Vec<(String, Box<serde_json::value::RawValue>)>);

impl<'de> serde::Deserialize<'de> for Ordered {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Ordered, D::Error> {
        struct Fields;
        impl<'de> serde::de::Visitor<'de> for Fields {
            type Value = Ordered;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<Ordered, A::Error> {
                let mut fields = Vec::new();
                while let Some(field) = map.next_entry()? {
                    fields.push(field);
                }
                Ok(Ordered(fields))
            }
        }
        d.deserialize_map(Fields)
    }
}

/// Adds the columns of the JSON object `text` to `(names, values)`, each name after `prefix`.
fn columns(prefix: &str, text: &str, fields: &mut (Vec<String>, Vec<String>)) -> io::Result<()> {
    let Ordered(object) = serde_json::from_str(text).map_err(io::Error::other)?;
    for (name, value) in object {
        let name = if prefix.is_empty() {
            name
        } else {
            format!("{prefix}.{name}")
        };
        let value = value.get();
        let cell = match value.as_bytes().first() {
            Some(b'{') => {
                columns(&name, value, fields)?;
                continue;
            }
            // A list (a merge's parts) has no one cell: the JSON and the table show it.
            Some(b'[') => continue,
            Some(b'"') => serde_json::from_str::<String>(value).map_err(io::Error::other)?,
            _ if value == "null" => String::new(),
            _ => value.to_string(),
        };
        fields.0.push(name);
        fields.1.push(cell);
    }
    Ok(())
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
        assert_eq!(decimal(2.276842983607485e17), "227684000000000000.0");
        assert_eq!(decimal(1.195), "1.195");
        // One precision rule: six significant digits.
        assert_eq!(decimal(1.503808836254284), "1.50381");
        assert_eq!(decimal(6.73337041029591e-7), "0.000000673337");
        assert_eq!(decimal(7.96), "7.96");
        assert_eq!(decimal(0.0), "0.0");
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

    #[test]
    fn csv_has_a_column_for_each_field_of_flattened_and_nested_records() {
        #[derive(serde::Serialize)]
        struct Inner {
            steps: u128,
            failed: bool,
        }
        #[derive(serde::Serialize)]
        struct Outer {
            #[serde(flatten)]
            row: Row,
            gpu: Inner,
            note: Option<&'static str>,
        }
        let row = Row {
            name: "a,\"b\"",
            seconds: 1.0,
            count: 7,
            share: Some(0.5),
        };
        let inner = Inner {
            steps: u128::MAX,
            failed: false,
        };
        let outer = Outer {
            row,
            gpu: inner,
            note: None,
        };
        let (names, values) = csv_fields(&outer).unwrap();
        assert_eq!(
            names,
            [
                "name",
                "seconds",
                "count",
                "share",
                "gpu.steps",
                "gpu.failed",
                "note"
            ]
        );
        let max = u128::MAX.to_string();
        assert_eq!(
            values,
            ["a,\"b\"", "1.0", "7", "0.5", max.as_str(), "false", ""]
        );
    }
}
