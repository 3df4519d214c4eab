//! JSON: an array of objects, one per record, pretty-printed, newline-terminated, its numbers
//! plain ([`super::plain`]).

use std::io::{self, Write};

use super::RecordWriter;

/// Writes records as the elements of one pretty-printed JSON array, two spaces in.
///
/// The last line of each element (its closing `}`) is held back until the next element or the
/// end of the array says whether a comma follows it, so that every line written is whole: a
/// progress bar drawn on the same terminal between two records starts on a line of its own.
pub struct JsonWriter<'a> {
    out: &'a mut dyn Write,
    elements: usize,
    /// The last line of the element written last, not yet written.
    held: String,
}

impl<'a> JsonWriter<'a> {
    /// A writer to `out`.
    pub fn new(out: &'a mut dyn Write) -> JsonWriter<'a> {
        JsonWriter {
            out,
            elements: 0,
            held: String::new(),
        }
    }
}

impl<T: serde::Serialize> RecordWriter<T> for JsonWriter<'_> {
    fn begin(&mut self) -> io::Result<()> {
        // The array opens with its first element: an empty one is `[]`.
        Ok(())
    }

    fn record(&mut self, record: &T) -> io::Result<()> {
        let text = super::plain::to_string_pretty(record)?;
        let mut element = if self.elements == 0 {
            String::from("[\n")
        } else {
            format!("{},\n", self.held)
        };
        let lines: Vec<&str> = text.lines().collect();
        let (last, whole) = lines.split_last().unwrap_or((&"", &[]));
        for line in whole {
            element.push_str("  ");
            element.push_str(line);
            element.push('\n');
        }
        self.held = format!("  {last}");
        self.elements += 1;
        self.out.write_all(element.as_bytes())?;
        self.out.flush()
    }

    fn finish(&mut self) -> io::Result<()> {
        if self.elements == 0 {
            self.out.write_all(b"[]\n")?;
        } else {
            let end = format!("{}\n]\n", self.held);
            self.out.write_all(end.as_bytes())?;
        }
        self.out.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_line_written_between_records_is_whole() {
        let mut out = Vec::new();
        let mut writer = JsonWriter::new(&mut out);
        RecordWriter::<nqueens::known::Known>::begin(&mut writer).unwrap();
        writer.record(&nqueens::known::Known::TABLE[8]).unwrap();
        writer.record(&nqueens::known::Known::TABLE[9]).unwrap();
        drop(writer);
        assert!(out.ends_with(b"\n"), "{}", String::from_utf8_lossy(&out));
        let mut writer = JsonWriter::new(&mut out);
        writer.elements = 2;
        writer.held = "  }".to_string();
        RecordWriter::<nqueens::known::Known>::finish(&mut writer).unwrap();
        let parsed: serde_json::Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(parsed[1]["total"], 352);
    }
}
