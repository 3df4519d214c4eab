//! CSV: a header row of field names (the serde names), then one row per record, its numbers
//! plain ([`super::plain`]).

use std::io::{self, Write};

use super::RecordWriter;

/// Writes records as CSV rows, the header row before the first.
pub struct CsvWriter<'a> {
    writer: ::csv::Writer<&'a mut dyn Write>,
    /// Whether the header row is written.
    headed: bool,
}

impl<'a> CsvWriter<'a> {
    /// A writer to `out`.
    pub fn new(out: &'a mut dyn Write) -> CsvWriter<'a> {
        CsvWriter {
            writer: ::csv::WriterBuilder::new()
                .has_headers(false)
                .from_writer(out),
            headed: false,
        }
    }
}

impl<T: serde::Serialize> RecordWriter<T> for CsvWriter<'_> {
    fn begin(&mut self) -> io::Result<()> {
        // The header row comes with the first record, from its field names.
        Ok(())
    }

    fn record(&mut self, record: &T) -> io::Result<()> {
        let (names, values) = super::plain::csv_fields(record)?;
        if !self.headed {
            self.writer.write_record(&names).map_err(into_io)?;
            self.headed = true;
        }
        self.writer.write_record(&values).map_err(into_io)?;
        self.writer.flush()
    }

    fn finish(&mut self) -> io::Result<()> {
        self.writer.flush()
    }
}

fn into_io(e: ::csv::Error) -> io::Error {
    match e.into_kind() {
        ::csv::ErrorKind::Io(e) => e,
        other => io::Error::other(format!("{other:?}")),
    }
}
