//! Output formats for result records: a human table, JSON and CSV.
//!
//! Every format is one [`RecordWriter`] in its own file ([`table`], [`json`], [`csv`]): it begins
//! the output, writes one record at a time and finishes what it began. [`RecordStream`] drives a
//! writer as records are made (a long count shows each board as it ends); [`write_records`] is
//! the same stream run over a list, so batch and streamed output are the same bytes.
//!
//! Every record type implements [`serde::Serialize`] (for JSON and CSV, whose field names are the
//! serde names) and [`TableRow`] (for the human table, which may format numbers for reading;
//! [`table_row!`] writes the impl from `heading => cell` pairs). JSON is always an array of
//! objects, one per record; CSV has a header row with the same names.

mod csv;
mod json;
pub mod plain;
mod solutions;
mod stream;
mod table;

use std::io::{self, Write};

use nqueens::names::UnknownName;

use nqueens::names::Named;

pub use self::csv::CsvWriter;
pub use self::json::JsonWriter;
pub use self::stream::RecordStream;
pub use self::table::{write_cells, write_table};

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
}

/// Implements [`TableRow`] for a record type from `heading => cell` pairs, each cell an
/// expression of the record (named by the closure-like binder) that implements `Display`:
///
/// ```text
/// table_row!(Known, |k| { "n" => k.n, "total (A000170)" => k.total });
/// ```
macro_rules! table_row {
    ($record:ty, |$row:ident| { $($heading:expr => $cell:expr),+ $(,)? }) => {
        impl $crate::format::TableRow for $record {
            fn headings() -> Vec<&'static str> {
                vec![$($heading),+]
            }

            fn cells(&self) -> Vec<String> {
                let $row = self;
                vec![$(($cell).to_string()),+]
            }
        }
    };
}
pub(crate) use table_row;

/// One output format: what comes before the first record, each record, and the end. A writer
/// owns the output it writes to and flushes after every record, so that what a stopped run
/// wrote is whole lines.
pub trait RecordWriter<T: ?Sized> {
    /// Writes what precedes the records (the table's heading; nothing for JSON and CSV).
    fn begin(&mut self) -> io::Result<()>;
    /// Writes one record and flushes.
    fn record(&mut self, record: &T) -> io::Result<()>;
    /// Closes what [`RecordWriter::begin`] and the records opened (the table's bottom border,
    /// the JSON array), and flushes.
    fn finish(&mut self) -> io::Result<()>;
    /// Flushes what is written so far; a writer that flushes after every record has nothing
    /// left to flush.
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl<T: ?Sized, W: RecordWriter<T> + ?Sized> RecordWriter<T> for Box<W> {
    fn begin(&mut self) -> io::Result<()> {
        (**self).begin()
    }

    fn record(&mut self, record: &T) -> io::Result<()> {
        (**self).record(record)
    }

    fn finish(&mut self) -> io::Result<()> {
        (**self).finish()
    }

    fn flush(&mut self) -> io::Result<()> {
        (**self).flush()
    }
}

/// Runs `writer` over `records`: begins, writes each, finishes (an empty list too: an empty
/// table, `[]`).
pub fn write_all<T>(mut writer: impl RecordWriter<T>, records: &[T]) -> io::Result<()> {
    writer.begin()?;
    for record in records {
        writer.record(record)?;
    }
    writer.finish()
}

impl Format {
    /// This format's writer to `out`; a table's columns are at least `widths` wide (and their
    /// headings' widths), a wider cell pushes the rest of its row right. The one place that
    /// maps a format to its writer.
    pub fn writer<'a, T: serde::Serialize + TableRow + 'a>(
        self,
        out: &'a mut dyn Write,
        widths: &[usize],
    ) -> Box<dyn RecordWriter<T> + 'a> {
        match self {
            Format::Table => Box::new(table::TableWriter::new(out, widths)),
            Format::Json => Box::new(json::JsonWriter::new(out)),
            Format::Csv => Box::new(csv::CsvWriter::new(out)),
        }
    }
}

impl Format {
    /// Writes one record whose form for people is not a row of a table: JSON and CSV write
    /// `record` itself ([`Format::writer`]: an array of one object, a header and one row),
    /// the table format what `for_people` writes instead (lines of what and value, a report of
    /// several tables). A command with such output never matches on the format itself.
    pub fn write_report<T: serde::Serialize>(
        self,
        out: &mut dyn Write,
        record: &T,
        for_people: impl FnOnce(&mut dyn Write) -> io::Result<()>,
    ) -> io::Result<()> {
        match self {
            Format::Table => for_people(out),
            Format::Json => write_all(JsonWriter::new(out), std::slice::from_ref(record)),
            Format::Csv => write_all(CsvWriter::new(out), std::slice::from_ref(record)),
        }
    }

    /// Writes `records` as JSON and CSV do ([`write_records`]), and what `for_people` writes
    /// in the table format instead (a table whose headings name a unit or a baseline chosen
    /// for these records: [`write_cells`]).
    pub fn write_rows<T: serde::Serialize>(
        self,
        out: &mut dyn Write,
        records: &[T],
        for_people: impl FnOnce(&mut dyn Write) -> io::Result<()>,
    ) -> io::Result<()> {
        match self {
            Format::Table => for_people(out),
            Format::Json => write_all(JsonWriter::new(out), records),
            Format::Csv => write_all(CsvWriter::new(out), records),
        }
    }

    /// Writes a report that is one document in JSON (an object, indented) and a list of rows in
    /// CSV (`rows`: the same numbers, one row per line of the table), and what `for_people`
    /// writes in the table format. Like [`Format::write_report`], for a command whose JSON is
    /// not an array of its CSV rows (`scale`, `scale --compare`).
    pub fn write_document<J: serde::Serialize, R: serde::Serialize>(
        self,
        out: &mut dyn Write,
        document: &J,
        rows: impl FnOnce() -> Vec<R>,
        for_people: impl FnOnce(&mut dyn Write) -> io::Result<()>,
    ) -> io::Result<()> {
        match self {
            Format::Table => for_people(out),
            Format::Json => {
                plain::to_writer_pretty(&mut *out, document).map_err(io::Error::from)?;
                writeln!(out)
            }
            Format::Csv => write_all(CsvWriter::new(out), &rows()),
        }
    }
}

/// Writes `records` to `out` in `format`, a table's columns fitted to the rows.
pub fn write_records<T: serde::Serialize + TableRow>(
    out: &mut dyn Write,
    format: Format,
    records: &[T],
) -> io::Result<()> {
    write_all(format.writer(out, &table::fitted_widths(records)), records)
}

table_row!(nqueens::known::Known, |known| {
    "n" => known.n,
    "total (A000170)" => nqueens_ui::human::grouped(known.total),
    "unique (A002562)" => nqueens_ui::human::grouped(known.unique),
});

/// The examples that the items' documentation gave, as tests (a binary's doc examples do not run).
#[cfg(test)]
mod examples {
    #[test]
    fn every_format_parses_back_from_its_name() {
        crate::names::tests::round_trip::<super::Format>();
    }

    use super::*;

    #[test]
    fn records_write_as_csv_with_a_header() {
        use crate::format::{Format, write_records};
        use nqueens::known::Known;
        let mut out = Vec::new();
        write_records(&mut out, Format::Csv, &Known::TABLE[..3]).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "n,total,unique\n0,1,1\n1,1,1\n2,0,0\n"
        );
    }

    #[test]
    fn an_empty_list_is_an_empty_table_an_empty_array_and_no_csv() {
        let empty: &[nqueens::known::Known] = &[];
        let written = |format| {
            let mut out = Vec::new();
            write_records(&mut out, format, empty).unwrap();
            String::from_utf8(out).unwrap()
        };
        assert_eq!(written(Format::Json), "[]\n");
        assert_eq!(written(Format::Csv), "");
        let table = written(Format::Table);
        assert_eq!(table.lines().count(), 4, "{table}");
        assert!(table.contains("total (A000170)"), "{table}");
    }
}
