//! CSV: a header row of field names (the serde names), then one row per record.

use std::io::{self, Write};

use super::RecordWriter;

/// Writes records as CSV rows, the header row before the first.
pub struct CsvWriter<'a> {
    writer: ::csv::Writer<&'a mut dyn Write>,
}

impl<'a> CsvWriter<'a> {
    /// A writer to `out`.
    pub fn new(out: &'a mut dyn Write) -> CsvWriter<'a> {
        CsvWriter {
            writer: ::csv::WriterBuilder::new()
                .has_headers(true)
                .from_writer(out),
        }
    }
}

impl<T: serde::Serialize> RecordWriter<T> for CsvWriter<'_> {
    fn begin(&mut self) -> io::Result<()> {
        // The header row comes with the first record, from its field names.
        Ok(())
    }

    fn record(&mut self, record: &T) -> io::Result<()> {
        self.writer.serialize(record).map_err(into_io)?;
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
