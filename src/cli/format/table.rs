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

use super::TableRow;

/// Writes `records` as an aligned table with a heading row.
pub fn write_table<T: TableRow>(out: &mut dyn Write, records: &[T]) -> io::Result<()> {
    let rows: Vec<Vec<String>> = records.iter().map(TableRow::cells).collect();
    let mut widths = heading_widths::<T>();
    for row in &rows {
        widen(&mut widths, row);
    }
    write_head::<T>(out, &widths)?;
    for row in &rows {
        write_row(out, &widths, row)?;
    }
    write_foot(out, &widths)
}

/// The widths of the heading cells.
pub(super) fn heading_widths<T: TableRow>() -> Vec<usize> {
    T::headings().iter().map(|h| h.chars().count()).collect()
}

/// Widens `widths` to fit `row`.
pub(super) fn widen(widths: &mut [usize], row: &[String]) {
    for (width, cell) in widths.iter_mut().zip(row) {
        *width = (*width).max(cell.chars().count());
    }
}

/// The top border, the headings and the line under them.
pub(super) fn write_head<T: TableRow>(out: &mut dyn Write, widths: &[usize]) -> io::Result<()> {
    writeln!(out, "+{}+", "-".repeat(inner_width(widths)))?;
    let headings: Vec<String> = T::headings().iter().map(|h| h.to_string()).collect();
    write_row(out, widths, &headings)?;
    writeln!(out, "+{}+", "=".repeat(inner_width(widths)))
}

/// One row, each cell right-aligned in its column (a wider cell pushes the rest right).
pub(super) fn write_row(out: &mut dyn Write, widths: &[usize], cells: &[String]) -> io::Result<()> {
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

/// The bottom border.
pub(super) fn write_foot(out: &mut dyn Write, widths: &[usize]) -> io::Result<()> {
    writeln!(out, "+{}+", "-".repeat(inner_width(widths)))
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
}
