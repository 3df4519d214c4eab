//! The human table: aligned columns, numbers right-aligned.

use std::io::{self, Write};

use comfy_table::{CellAlignment, Table, presets};

use super::TableRow;

/// Writes `records` as an aligned table with a heading row.
pub fn write_table<T: TableRow>(out: &mut dyn Write, records: &[T]) -> io::Result<()> {
    let mut table = Table::new();
    table.load_style(presets::ASCII_BORDERS_ONLY_CONDENSED);
    table.set_header(T::headings());
    for record in records {
        table.add_row(record.cells());
    }
    for column in table.column_iter_mut() {
        column.set_cell_alignment(CellAlignment::Right);
    }
    writeln!(out, "{table}")
}
