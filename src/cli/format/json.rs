//! JSON: an array of objects, one per record, pretty-printed, newline-terminated.

use std::io::{self, Write};

/// Writes `records` as a JSON array.
pub fn write_json<T: serde::Serialize>(out: &mut dyn Write, records: &[T]) -> io::Result<()> {
    serde_json::to_writer_pretty(&mut *out, records)?;
    writeln!(out)
}
