//! The human table: a border, a heading row, right-aligned columns two spaces apart.
//!
//! ```text
//! +--------------------+
//! |  n   total  unique |
//! +====================+
//! |  8      92      12 |
//! +--------------------+
//! ```

use std::io::{self, Write};

use super::{RecordWriter, TableRow};

/// Writes records as the rows of an aligned table.
pub struct TableWriter<'a> {
    out: &'a mut dyn Write,
    /// The least width of each column.
    widths: Vec<usize>,
}

impl<'a> TableWriter<'a> {
    /// A writer to `out` whose columns are at least `widths` wide (missing widths: the
    /// headings'); the headings' widths are added when the table begins.
    pub fn new(out: &'a mut dyn Write, widths: &[usize]) -> TableWriter<'a> {
        TableWriter {
            out,
            widths: widths.to_vec(),
        }
    }
}

impl<T: TableRow> RecordWriter<T> for TableWriter<'_> {
    fn begin(&mut self) -> io::Result<()> {
        let headings: Vec<String> = T::headings().iter().map(|h| h.to_string()).collect();
        self.widths.resize(headings.len(), 0);
        widen(&mut self.widths, &headings);
        writeln!(self.out, "+{}+", "-".repeat(inner_width(&self.widths)))?;
        write_row(self.out, &self.widths, &headings)?;
        writeln!(self.out, "+{}+", "=".repeat(inner_width(&self.widths)))
    }

    fn record(&mut self, record: &T) -> io::Result<()> {
        write_row(self.out, &self.widths, &record.cells())?;
        self.out.flush()
    }

    fn finish(&mut self) -> io::Result<()> {
        writeln!(self.out, "+{}+", "-".repeat(inner_width(&self.widths)))?;
        self.out.flush()
    }
}

/// Writes `rows` as an aligned table fitted to them, for rows that are shown only to people
/// (no JSON or CSV form).
pub fn write_table<T: TableRow>(out: &mut dyn Write, rows: &[T]) -> io::Result<()> {
    super::write_all(TableWriter::new(out, &fitted_widths(rows)), rows)
}

/// Writes a table whose headings are made for its rows (a unit or a baseline named in a
/// heading: `time (ms)`, `speedup vs matrix`): `rows` of cells, each in heading order.
pub fn write_cells(
    out: &mut dyn Write,
    headings: &[String],
    rows: &[Vec<String>],
) -> io::Result<()> {
    let mut widths = vec![0; headings.len()];
    widen(&mut widths, headings);
    for row in rows {
        widen(&mut widths, row);
    }
    writeln!(out, "+{}+", "-".repeat(inner_width(&widths)))?;
    write_row(out, &widths, headings)?;
    writeln!(out, "+{}+", "=".repeat(inner_width(&widths)))?;
    for row in rows {
        write_row(out, &widths, row)?;
    }
    writeln!(out, "+{}+", "-".repeat(inner_width(&widths)))?;
    out.flush()
}

/// The widths that fit every cell of `rows`.
pub(super) fn fitted_widths<T: TableRow>(rows: &[T]) -> Vec<usize> {
    let mut widths = vec![0; T::headings().len()];
    for row in rows {
        widen(&mut widths, &row.cells());
    }
    widths
}

/// Widens `widths` to fit `row`.
fn widen(widths: &mut [usize], row: &[String]) {
    for (width, cell) in widths.iter_mut().zip(row) {
        *width = (*width).max(cell.chars().count());
    }
}

/// One row, each cell right-aligned in its column (a wider cell pushes the rest right).
fn write_row(out: &mut dyn Write, widths: &[usize], cells: &[String]) -> io::Result<()> {
    let mut line = String::from("|");
    for (i, (cell, &width)) in cells.iter().zip(widths).enumerate() {
        if i > 0 {
            line.push(' ');
        }
        line.push_str(&format!(" {cell:>width$} "));
    }
    line.push('|');
    writeln!(out, "{line}")
}

/// Characters between the two borders: each column with a space either side, one space
/// between columns.
fn inner_width(widths: &[usize]) -> usize {
    widths.iter().map(|w| w + 2).sum::<usize>() + widths.len().saturating_sub(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Row(u32, &'static str);

    impl TableRow for Row {
        fn headings() -> Vec<&'static str> {
            vec!["n", "name"]
        }
        fn cells(&self) -> Vec<String> {
            vec![self.0.to_string(), self.1.to_string()]
        }
    }

    #[test]
    fn columns_are_right_aligned_between_borders() {
        let mut out = Vec::new();
        write_table(&mut out, &[Row(8, "eight"), Row(10, "ten")]).unwrap();
        let text = String::from_utf8(out).unwrap();
        let expected = [
            "+------------+",
            "|  n    name |",
            "+============+",
            "|  8   eight |",
            "| 10     ten |",
            "+------------+",
        ];
        assert_eq!(text.lines().collect::<Vec<_>>(), expected);
    }

    #[test]
    fn headings_made_for_the_rows_read_like_a_table_of_records() {
        let mut records = Vec::new();
        write_table(&mut records, &[Row(8, "eight"), Row(10, "ten")]).unwrap();
        let mut cells = Vec::new();
        let headings = ["n".to_string(), "name".to_string()];
        let rows = [
            vec!["8".to_string(), "eight".to_string()],
            vec!["10".to_string(), "ten".to_string()],
        ];
        write_cells(&mut cells, &headings, &rows).unwrap();
        assert_eq!(String::from_utf8(cells), String::from_utf8(records));
    }
}
