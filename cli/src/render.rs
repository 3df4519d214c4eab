//! Placements as text: the textbook board (ASCII `Q`/`.` or Unicode `♛`) and the one-line
//! column list.
//!
//! Both writers take the columns as any iterator of `u32`, so a solution can be printed while it
//! is computed. Boards are drawn up to [`MAX_DRAWN`] columns; a wider board is written as a note
//! and its column list.

use std::io::{self, Write};

use clap::Args;

/// The widest board drawn as a grid.
pub const MAX_DRAWN: u32 = 64;

/// How a solution is printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum SolutionFormat {
    /// The board as a grid of `Q` and `.` (with its column list for `solve`).
    Board,
    /// The columns on one line, separated by spaces.
    Columns,
    /// JSON: an array of records that name their n, `{"n":8,"columns":[…]}`: one for `solve`,
    /// one per solution for `list`, streamed.
    Json,
}

/// The flags that say how boards are drawn (`--unicode`, `--coordinates`), made into a
/// [`Style`].
#[derive(Debug, Args)]
pub struct BoardStyleArgs {
    /// Draw queens as ♛ instead of Q (with --format board).
    #[arg(long)]
    pub unicode: bool,
    /// Number the rows and columns of drawn boards (with --format board).
    ///
    /// They are numbered from 0, as in the column list.
    #[arg(long)]
    pub coordinates: bool,
}

/// How boards are drawn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Style {
    /// Draw queens as `♛` instead of `Q`.
    pub unicode: bool,
    /// Number the rows (left) and columns (top) from 0, as in the column list.
    pub coordinates: bool,
}

impl BoardStyleArgs {
    /// Refuses, naming the fix, a style asked for where `format` draws no boards (a flag that
    /// would be silently ignored).
    pub fn check(&self, format: SolutionFormat) -> Result<(), String> {
        if format == SolutionFormat::Board {
            return Ok(());
        }
        let flag = match (self.unicode, self.coordinates) {
            (true, _) => "--unicode",
            (false, true) => "--coordinates",
            (false, false) => return Ok(()),
        };
        Err(format!(
            "{flag} changes how boards are drawn, and --format {} draws none: add --format board",
            clap::ValueEnum::to_possible_value(&format)
                .map_or_else(String::new, |v| v.get_name().to_string())
        ))
    }
}

impl Style {
    /// The style `args` ask for (checked with the arguments, [`BoardStyleArgs::check`]).
    pub fn from_args(args: &BoardStyleArgs) -> Style {
        Style {
            unicode: args.unicode,
            coordinates: args.coordinates,
        }
    }

    fn queen(&self) -> &'static str {
        if self.unicode { "♛" } else { "Q" }
    }
}

/// Whether an `n`-wide board is drawn as a grid.
pub fn is_drawn(n: u32) -> bool {
    n <= MAX_DRAWN
}

/// Writes the columns on one line, separated by single spaces, then a newline.
pub fn write_columns<W, I>(out: &mut W, columns: I) -> io::Result<()>
where
    W: Write + ?Sized,
    I: IntoIterator<Item = u32>,
{
    write_separated(out, columns, b" ")?;
    out.write_all(b"\n")
}

/// Writes the columns separated by `separator`, with nothing before or after.
pub fn write_separated<W, I>(out: &mut W, columns: I, separator: &[u8]) -> io::Result<()>
where
    W: Write + ?Sized,
    I: IntoIterator<Item = u32>,
{
    let mut digits = itoa::Buffer::new();
    for (i, c) in columns.into_iter().enumerate() {
        if i > 0 {
            out.write_all(separator)?;
        }
        out.write_all(digits.format(c).as_bytes())?;
    }
    Ok(())
}

/// The note a command writes once on stderr (`nqueens: note: …`) when its boards are too wide to
/// draw ([`write_board`] writes their column lists instead); `None` for a board that is drawn.
pub fn undrawn_note(n: u32) -> Option<String> {
    (!is_drawn(n)).then(|| {
        format!(
            "nqueens: note: a {n} x {n} board is wider than {MAX_DRAWN} columns and is not \
             drawn; its columns are written instead, row by row"
        )
    })
}

/// Draws the `n × n` board whose row `r` holds a queen in column `columns[r]`, one text line per
/// row; a board wider than [`MAX_DRAWN`] is written as its column list (the command says why
/// on stderr: [`undrawn_note`]).
pub fn write_board<W, I>(out: &mut W, n: u32, columns: I, style: &Style) -> io::Result<()>
where
    W: Write + ?Sized,
    I: IntoIterator<Item = u32>,
{
    if !is_drawn(n) {
        return write_columns(out, columns);
    }
    let n = u64::from(n);
    let label_width = digits(n.saturating_sub(1));
    if style.coordinates && n > 0 {
        // Column numbers written vertically, one line per digit, so every cell stays 2 wide.
        for place in (0..label_width).rev() {
            write!(out, "{:width$}", "", width = label_width)?;
            for c in 0..n {
                let shown = c / 10u64.pow(place as u32);
                if shown == 0 && place > 0 {
                    out.write_all(b"  ")?;
                } else {
                    write!(out, " {}", shown % 10)?;
                }
            }
            out.write_all(b"\n")?;
        }
    }
    for (row, column) in columns.into_iter().enumerate() {
        if style.coordinates {
            write!(out, "{row:>label_width$} ")?;
        }
        for c in 0..n {
            if c > 0 {
                out.write_all(b" ")?;
            }
            let cell = if c == u64::from(column) {
                style.queen()
            } else {
                "."
            };
            out.write_all(cell.as_bytes())?;
        }
        out.write_all(b"\n")?;
    }
    Ok(())
}

/// The one line `solve` and `list` print on stderr for a board without solutions.
pub fn no_solution(n: u32) -> String {
    let n = nqueens_ui::human::grouped(n);
    format!("nqueens: no solution: {n} queens cannot be placed on a {n} x {n} board")
}

/// [`write_board`] into a `String`, for a placement held in memory.
#[cfg(test)]
pub fn board_string(columns: &[u32], style: &Style) -> String {
    let mut out = Vec::new();
    write_board(
        &mut out,
        u32::try_from(columns.len()).unwrap_or(u32::MAX),
        columns.iter().copied(),
        style,
    )
    .expect("writing to memory cannot fail");
    String::from_utf8(out).expect("the board is UTF-8")
}

/// The number of decimal digits of `x` (1 for 0).
fn digits(x: u64) -> usize {
    x.checked_ilog10().map_or(1, |d| d as usize + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_eight_queens_board_is_drawn_like_the_textbook() {
        let board = board_string(&[0, 4, 7, 5, 2, 6, 1, 3], &Style::default());
        let expected = "\
Q . . . . . . .
. . . . Q . . .
. . . . . . . Q
. . . . . Q . .
. . Q . . . . .
. . . . . . Q .
. Q . . . . . .
. . . Q . . . .
";
        assert_eq!(board, expected);
    }

    #[test]
    fn coordinates_of_two_digit_boards_are_written_vertically() {
        let cols: Vec<u32> = nqueens::construct::columns(12).unwrap().collect();
        let style = Style {
            unicode: false,
            coordinates: true,
        };
        let board = board_string(&cols, &style);
        let lines: Vec<&str> = board.lines().collect();
        assert_eq!(lines[0], "                       1 1");
        assert_eq!(lines[1], "   0 1 2 3 4 5 6 7 8 9 0 1");
        assert_eq!(lines[2], " 0 . Q . . . . . . . . . .");
        assert_eq!(lines.len(), 14);
        assert!(lines.iter().all(|l| l.len() == 26));
    }

    #[test]
    fn wide_boards_become_a_column_list_and_a_note_for_stderr() {
        let cols: Vec<u32> = nqueens::construct::columns(65).unwrap().collect();
        let text = board_string(&cols, &Style::default());
        let mut lines = text.lines();
        assert!(
            undrawn_note(65)
                .unwrap()
                .starts_with("nqueens: note: a 65 x 65 board is wider than 64")
        );
        assert_eq!(undrawn_note(64), None);
        let listed: Vec<u32> = lines
            .next()
            .unwrap()
            .split(' ')
            .map(|c| c.parse().unwrap())
            .collect();
        assert_eq!(listed, cols);
        assert!(lines.next().is_none());
        // 64 is still drawn.
        let cols: Vec<u32> = nqueens::construct::columns(64).unwrap().collect();
        assert_eq!(board_string(&cols, &Style::default()).lines().count(), 64);
    }

    #[test]
    fn the_empty_board_draws_nothing() {
        assert_eq!(board_string(&[], &Style::default()), "");
        let mut out = Vec::new();
        write_columns(&mut out, []).unwrap();
        assert_eq!(out, b"\n");
    }
}

/// The examples that the items' documentation gave, as tests (a binary's doc examples do not run).
#[cfg(test)]
mod examples {
    #[test]
    fn a_board_string_shows_queens_row_by_row() {
        use crate::render::{Style, board_string};
        let board = board_string(&[1, 3, 0, 2], &Style::default());
        assert_eq!(board, ". Q . .\n. . . Q\nQ . . .\n. . Q .\n");
    }

    #[test]
    fn columns_write_space_separated() {
        let mut out = Vec::new();
        crate::render::write_columns(&mut out, [0u32, 4, 7, 5, 2, 6, 1, 3]).unwrap();
        assert_eq!(out, b"0 4 7 5 2 6 1 3\n");
    }

    #[test]
    fn separated_columns_take_any_separator() {
        let mut out = Vec::new();
        crate::render::write_separated(&mut out, [1u32, 3, 0, 2], b",").unwrap();
        assert_eq!(out, b"1,3,0,2");
    }

    #[test]
    fn a_unicode_board_with_coordinates() {
        use crate::render::{Style, write_board};
        let mut out = Vec::new();
        let style = Style {
            unicode: true,
            coordinates: true,
        };
        write_board(&mut out, 4, [1u32, 3, 0, 2], &style).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "  0 1 2 3\n0 . ♛ . .\n1 . . . ♛\n2 ♛ . . .\n3 . . ♛ .\n"
        );
    }
}
