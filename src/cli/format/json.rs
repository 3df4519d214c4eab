//! JSON: an array of objects, one per record, pretty-printed, newline-terminated.

use std::io::{self, Write};

use super::RecordWriter;

/// Writes records as the elements of one pretty-printed JSON array, two spaces in.
pub struct JsonWriter<'a> {
    out: &'a mut dyn Write,
    elements: usize,
}

impl<'a> JsonWriter<'a> {
    /// A writer to `out`.
    pub fn new(out: &'a mut dyn Write) -> JsonWriter<'a> {
        JsonWriter { out, elements: 0 }
    }
}

impl<T: serde::Serialize> RecordWriter<T> for JsonWriter<'_> {
    fn begin(&mut self) -> io::Result<()> {
        // The array opens with its first element: an empty one is `[]`.
        Ok(())
    }

    fn record(&mut self, record: &T) -> io::Result<()> {
        let text = serde_json::to_string_pretty(record)?;
        let mut element = String::from(if self.elements == 0 { "[\n" } else { ",\n" });
        for (i, line) in text.lines().enumerate() {
            if i > 0 {
                element.push('\n');
            }
            element.push_str("  ");
            element.push_str(line);
        }
        self.elements += 1;
        self.out.write_all(element.as_bytes())?;
        self.out.flush()
    }

    fn finish(&mut self, written: usize) -> io::Result<()> {
        self.out
            .write_all(if written == 0 { b"[]\n" } else { b"\n]\n" })?;
        self.out.flush()
    }
}
