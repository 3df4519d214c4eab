//! Writers for result records: a human table, JSON and CSV, one module per format.
//!
//! Every record type implements [`serde::Serialize`] (for JSON and CSV, whose field names are the
//! serde names) and [`TableRow`] (for the human table, which may format numbers for reading).
//! JSON is always an array of objects, one per record; CSV has a header row with the same names.

mod csv;
mod json;
mod stream;
mod table;

use std::io::{self, Write};

use nqueens::names::{Named, UnknownName};

pub use self::csv::write_csv;
pub use self::json::write_json;
pub use self::stream::RecordStream;
pub use self::table::write_table;

/// An output format for records.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Format {
    /// An aligned table for people.
    #[default]
    Table,
    /// A JSON array of objects, one per record.
    Json,
    /// Comma-separated values with a header row.
    Csv,
}

impl std::fmt::Display for Format {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(Named::name(*self))
    }
}

impl Named for Format {
    const WHAT: &'static str = "format";
    fn all() -> &'static [Self] {
        use Format::*;
        &[Table, Json, Csv]
    }
    fn name(self) -> &'static str {
        use Format::*;
        match self {
            Table => "table",
            Json => "json",
            Csv => "csv",
        }
    }
    fn description(self) -> &'static str {
        use Format::*;
        match self {
            Table => "an aligned table for people",
            Json => "a JSON array of objects, one per record",
            Csv => "comma-separated values with a header row",
        }
    }
}

impl std::str::FromStr for Format {
    type Err = UnknownName;
    fn from_str(s: &str) -> Result<Self, UnknownName> {
        Format::parse_name(s)
    }
}

/// A record that can be shown as a row of the human table.
pub trait TableRow {
    /// Column headings.
    fn headings() -> Vec<&'static str>;
    /// The row's cells, formatted for people, in heading order.
    fn cells(&self) -> Vec<String>;
    /// The least width of each column when rows are streamed (a table written at once fits its
    /// columns to its rows); by default the headings' widths.
    fn min_widths() -> Vec<usize> {
        Vec::new()
    }
}

/// Writes `records` to `out` in `format`.
pub fn write_records<T: serde::Serialize + TableRow>(
    out: &mut dyn Write,
    format: Format,
    records: &[T],
) -> io::Result<()> {
    match format {
        Format::Table => write_table(out, records),
        Format::Json => write_json(out, records),
        Format::Csv => write_csv(out, records),
    }
}

/// Formats a number of items per second for people: `1.23 M/s`.
pub fn per_second(rate: f64) -> String {
    const UNITS: [(f64, &str); 4] = [(1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k")];
    if !rate.is_finite() {
        return "-".to_string();
    }
    for (scale, unit) in UNITS {
        if rate >= scale {
            return format!("{:.2} {unit}/s", rate / scale);
        }
    }
    format!("{rate:.1} /s")
}

/// Formats a duration in seconds for people, with precision that suits its size.
pub fn seconds(secs: f64) -> String {
    if secs < 100.0 {
        format!("{secs:.3} s")
    } else {
        format!("{secs:.1} s")
    }
}

impl TableRow for nqueens::known::Known {
    fn headings() -> Vec<&'static str> {
        vec!["n", "total (A000170)", "unique (A002562)"]
    }

    fn cells(&self) -> Vec<String> {
        vec![
            self.n.to_string(),
            self.total.to_string(),
            self.unique.to_string(),
        ]
    }
}

/// The examples that the items' documentation gave, as tests (a binary's doc examples do not run).
#[cfg(test)]
mod examples {
    #[test]
    fn records_write_as_csv_with_a_header() {
        use crate::cli::format::{Format, write_records};
        use nqueens::known::TABLE;
        let mut out = Vec::new();
        write_records(&mut out, Format::Csv, &TABLE[..3]).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "n,total,unique\n0,1,1\n1,1,1\n2,0,0\n"
        );
    }

    #[test]
    fn rates_read_with_a_unit() {
        assert_eq!(crate::cli::format::per_second(2_500_000.0), "2.50 M/s");
        assert_eq!(crate::cli::format::per_second(12.0), "12.0 /s");
    }

    #[test]
    fn seconds_keep_three_decimals_below_100() {
        assert_eq!(crate::cli::format::seconds(0.0004), "0.000 s");
        assert_eq!(crate::cli::format::seconds(3.14159), "3.142 s");
        assert_eq!(crate::cli::format::seconds(125.5), "125.5 s");
    }
}
