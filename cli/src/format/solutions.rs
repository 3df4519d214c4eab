//! The formats of a stream of solutions (`nqueens list`): numbered boards, one column list per
//! line, or one JSON array of records (`{"n":8,"columns":[…]}`), each a [`RecordWriter`] of a solution's columns
//! chosen in one place ([`SolutionFormat::writer`]). A listing may run to millions of lines, so
//! these writers leave flushing to the buffer they write into.

use std::io::{self, Write};

use super::RecordWriter;
use crate::render::{SolutionFormat, Style, write_board, write_columns};

impl SolutionFormat {
    /// This format's writer of the solutions of the `n`-board to `out`, boards drawn in
    /// `style`: the one place that maps a solution format to its writer.
    pub fn writer<'a>(
        self,
        out: &'a mut dyn Write,
        n: u32,
        style: Style,
    ) -> Box<dyn RecordWriter<[u32]> + 'a> {
        match self {
            SolutionFormat::Board => Box::new(Boards {
                out,
                n,
                style,
                written: 0,
            }),
            SolutionFormat::Columns => Box::new(Columns { out }),
            SolutionFormat::Json => Box::new(Json { out, n, written: 0 }),
        }
    }
}

/// `solution K: COLUMNS` and the board, a blank line between two solutions.
struct Boards<'a> {
    out: &'a mut dyn Write,
    n: u32,
    style: Style,
    written: u64,
}

impl RecordWriter<[u32]> for Boards<'_> {
    fn begin(&mut self) -> io::Result<()> {
        Ok(())
    }

    fn record(&mut self, columns: &[u32]) -> io::Result<()> {
        self.written += 1;
        if self.written > 1 {
            self.out.write_all(b"\n")?;
        }
        write!(self.out, "solution {}: ", self.written)?;
        write_columns(self.out, columns.iter().copied())?;
        write_board(self.out, self.n, columns.iter().copied(), &self.style)
    }

    fn finish(&mut self) -> io::Result<()> {
        Ok(())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

/// One solution per line, its columns separated by spaces.
struct Columns<'a> {
    out: &'a mut dyn Write,
}

impl RecordWriter<[u32]> for Columns<'_> {
    fn begin(&mut self) -> io::Result<()> {
        Ok(())
    }

    fn record(&mut self, columns: &[u32]) -> io::Result<()> {
        write_columns(self.out, columns.iter().copied())
    }

    fn finish(&mut self) -> io::Result<()> {
        Ok(())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

/// One JSON array of records that name their n, a record per line, written as the solutions
/// come: the last line stays open until the next solution or the end closes it.
struct Json<'a> {
    out: &'a mut dyn Write,
    /// The board size, named in every record.
    n: u32,
    written: u64,
}

impl RecordWriter<[u32]> for Json<'_> {
    fn begin(&mut self) -> io::Result<()> {
        self.out.write_all(b"[")
    }

    fn record(&mut self, columns: &[u32]) -> io::Result<()> {
        self.written += 1;
        self.out
            .write_all(if self.written == 1 { b"\n" } else { b",\n" })?;
        write!(self.out, "{{\"n\":{},\"columns\":", self.n)?;
        serde_json::to_writer(&mut *self.out, columns)?;
        self.out.write_all(b"}")
    }

    fn finish(&mut self) -> io::Result<()> {
        self.out
            .write_all(if self.written == 0 { b"]\n" } else { b"\n]\n" })
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn written(format: SolutionFormat, solutions: &[&[u32]]) -> String {
        let mut out = Vec::new();
        let mut writer = format.writer(&mut out, 4, Style::default());
        writer.begin().unwrap();
        for columns in solutions {
            writer.record(columns).unwrap();
        }
        writer.finish().unwrap();
        drop(writer);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn json_is_one_array_of_records_that_name_their_n() {
        let both: &[&[u32]] = &[&[1, 3, 0, 2], &[2, 0, 3, 1]];
        let json = written(SolutionFormat::Json, both);
        assert_eq!(
            json,
            "[\n{\"n\":4,\"columns\":[1,3,0,2]},\n{\"n\":4,\"columns\":[2,0,3,1]}\n]\n"
        );
        let parsed: Vec<serde_json::Value> = serde_json::from_str(&json).unwrap();
        assert_eq!(
            parsed[1],
            serde_json::json!({"n": 4, "columns": [2, 0, 3, 1]})
        );
        assert_eq!(written(SolutionFormat::Json, &[]), "[]\n");
    }

    #[test]
    fn columns_and_boards_read_as_before() {
        let one: &[&[u32]] = &[&[1, 3, 0, 2], &[2, 0, 3, 1]];
        assert_eq!(written(SolutionFormat::Columns, one), "1 3 0 2\n2 0 3 1\n");
        let boards = written(SolutionFormat::Board, one);
        assert!(
            boards.starts_with("solution 1: 1 3 0 2\n. Q . .\n"),
            "{boards}"
        );
        assert!(boards.contains("\n\nsolution 2: 2 0 3 1\n"), "{boards}");
    }
}
