//! CSV: a header row of field names, then one row per record.

use std::io::{self, Write};

/// Writes `records` as CSV with a header row.
pub fn write_csv<T: serde::Serialize>(out: &mut dyn Write, records: &[T]) -> io::Result<()> {
    let mut writer = ::csv::WriterBuilder::new()
        .has_headers(true)
        .from_writer(out);
    for record in records {
        writer.serialize(record).map_err(into_io)?;
    }
    writer.flush()
}

pub(super) fn into_io(e: ::csv::Error) -> io::Error {
    match e.into_kind() {
        ::csv::ErrorKind::Io(e) => e,
        other => io::Error::other(format!("{other:?}")),
    }
}
