//! Records written one at a time, as they are made: each is flushed at once, and closing the
//! stream ends the table or the JSON array, so what was written is complete output even when a
//! run stops partway.

use std::io::{self, Write};

use super::{Format, RecordWriter, TableRow};

/// Writes records of type `T` one at a time in one format. Nothing is written before the first
/// record; [`RecordStream::finish`] closes what the first record opened.
pub struct RecordStream<'a, T> {
    writer: Box<dyn RecordWriter<T> + 'a>,
    begun: bool,
    closed: bool,
}

impl<'a, T: serde::Serialize + TableRow + 'a> RecordStream<'a, T> {
    /// A stream of records to `out` in `format`. A table's columns are as wide as their
    /// headings; a wider cell pushes the rest of its row right.
    #[cfg(test)]
    pub fn new(out: &'a mut dyn Write, format: Format) -> RecordStream<'a, T> {
        Self::with_widths(out, format, &[])
    }

    /// A stream whose table columns are at least `widths` wide (for a writer that knows how
    /// wide its numbers will be).
    pub fn with_widths(
        out: &'a mut dyn Write,
        format: Format,
        widths: &[usize],
    ) -> RecordStream<'a, T> {
        RecordStream {
            writer: format.writer(out, widths),
            begun: false,
            closed: false,
        }
    }
}

impl<T> RecordStream<'_, T> {
    /// Begins the output now rather than with the first record, so that
    /// [`RecordStream::finish`] closes it even when no record follows (an empty table, `[]`).
    pub fn begin(&mut self) -> io::Result<()> {
        if !self.begun {
            self.begun = true;
            self.writer.begin()?;
        }
        Ok(())
    }

    /// Writes `record` (after the table's heading or the array's opening, for the first) and
    /// flushes it. Nothing may be written after [`RecordStream::finish`].
    pub fn write(&mut self, record: &T) -> io::Result<()> {
        debug_assert!(!self.closed, "a record written after the stream was closed");
        self.begin()?;
        self.writer.record(record)
    }

    /// Closes what the output began (the table's bottom border, the JSON array) and flushes;
    /// writes nothing when it never began, or when the stream is closed already.
    pub fn finish(&mut self) -> io::Result<()> {
        if !self.begun || self.closed {
            return Ok(());
        }
        self.closed = true;
        self.writer.finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::write_records;
    use nqueens::known::Known;

    /// A whole stream writes what the one-shot writers write, in every format.
    #[test]
    fn a_finished_stream_equals_the_records_written_at_once() {
        for format in [Format::Table, Format::Json, Format::Csv] {
            let mut streamed = Vec::new();
            let mut stream = RecordStream::new(&mut streamed, format);
            for record in &Known::TABLE[..12] {
                stream.write(record).unwrap();
            }
            stream.finish().unwrap();
            drop(stream);
            let mut whole = Vec::new();
            write_records(&mut whole, format, &Known::TABLE[..12]).unwrap();
            if format == Format::Table {
                // Both right-align; the stream's widths come from the headings alone.
                let lines = |b: &[u8]| String::from_utf8(b.to_vec()).unwrap().lines().count();
                assert_eq!(lines(&streamed), lines(&whole));
            } else {
                assert_eq!(
                    String::from_utf8(streamed).unwrap(),
                    String::from_utf8(whole).unwrap(),
                    "{format:?}"
                );
            }
        }
    }

    #[test]
    fn a_stream_without_records_writes_nothing() {
        let mut out = Vec::new();
        RecordStream::<nqueens::known::Known>::new(&mut out, Format::Json)
            .finish()
            .unwrap();
        assert!(out.is_empty());
    }
}

/// The examples that the items' documentation gave, as tests (a binary's doc examples do not run).
#[cfg(test)]
mod examples {
    #[test]
    fn streamed_json_is_one_array() {
        use crate::format::{Format, RecordStream};
        use nqueens::known::Known;
        let mut out = Vec::new();
        let mut stream = RecordStream::new(&mut out, Format::Json);
        stream.write(&Known::TABLE[8]).unwrap();
        stream.write(&Known::TABLE[9]).unwrap();
        stream.finish().unwrap();
        drop(stream);
        let parsed: serde_json::Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(parsed[1]["total"], 352);
    }
}
