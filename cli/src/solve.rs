//! `nqueens solve`: print one solution, searched for small boards and constructed for large
//! ones, as a board, a column list or JSON.
//!
//! The constructed solution is never stored unless its 8 images are asked for: it is checked in
//! one pass and printed in a second, both reading the lazy construction. Its images are never
//! stored either: each is written as it is read from the solution and its inverse ([`Images`]),
//! so that `--all-symmetries` holds two column lists however many images are written.

use std::io::Write;

use serde::Serialize;

use crate::render::{Style, is_drawn, undrawn_note, write_board, write_columns};
use nqueens::board::{Placement, Solution, Symmetry};
use nqueens::{construct, enumerate};

use crate::args::SolveArgs;
use crate::render::SolutionFormat;
use nqueens_ui::failure::{Failure, Outcome};
use nqueens_ui::human::grouped;

/// The largest board solved by the backtracking search unless --construct is given; above it the
/// construction is used.
pub const SEARCH_MAX_N: u32 = 30;

/// How the solution was obtained.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Method {
    Search,
    Construction,
}

impl Method {
    fn name(self) -> &'static str {
        match self {
            Method::Search => "search",
            Method::Construction => "construction",
        }
    }

    fn describe(self) -> &'static str {
        match self {
            Method::Search => "the first solution in lexicographic order (backtracking search)",
            Method::Construction => "a solution by the closed-form construction (verified)",
        }
    }
}

pub fn run(args: &SolveArgs, out: &mut dyn Write) -> Result<Outcome, Failure> {
    let n = args.n;
    let method = if args.construct || n > SEARCH_MAX_N {
        Method::Construction
    } else {
        Method::Search
    };
    let style = Style::from_args(&args.style);
    if args.format == SolutionFormat::Board
        && let Some(note) = undrawn_note(args.n)
    {
        nqueens_ui::output::note(note);
    }
    let printer = Printer {
        n,
        method,
        format: args.format,
        style,
    };
    match method {
        Method::Search => match enumerate::Solutions::all(n)?.next() {
            None => printer.none(out),
            Some(solution) if args.all_symmetries => printer.images(out, &solution),
            Some(solution) => printer.one(out, solution.columns().iter().copied()),
        },
        Method::Construction => match construct::columns(n) {
            None => printer.none(out),
            Some(columns) => {
                construct::verify(n, columns.clone()).map_err(nqueens::Error::from)?;
                if args.all_symmetries {
                    let solution = Placement::new(columns.collect())
                        .into_solution()
                        .map_err(nqueens::Error::from)?;
                    printer.images(out, &solution)
                } else {
                    printer.one(out, columns)
                }
            }
        },
    }
}

/// Writes the answer in the chosen format.
struct Printer {
    n: u32,
    method: Method,
    format: SolutionFormat,
    style: Style,
}

/// The JSON of `solve`: `{"n", "method", "columns"}`, with the 8 images and the canonical
/// form when they are asked for; `"columns": null` when there is no solution.
#[derive(Serialize)]
#[serde(bound(serialize = "I: Iterator<Item = u32> + Clone"))]
struct Answer<'a, I> {
    n: u32,
    method: &'static str,
    columns: Option<Lazy<I>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    images: Option<Vec<Image<'a>>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    canonical: Option<String>,
}

/// One image of the solution under a symmetry of the square, its columns read as written.
#[derive(Serialize)]
struct Image<'a> {
    symmetry: String,
    columns: Lazy<ImageColumns<'a>>,
}

/// The columns of one image, row by row ([`Images::columns`]).
#[derive(Clone)]
struct ImageColumns<'a> {
    images: &'a Images<'a>,
    symmetry: Symmetry,
    rows: std::ops::Range<u32>,
}

impl Iterator for ImageColumns<'_> {
    type Item = u32;

    fn next(&mut self) -> Option<u32> {
        let row = self.rows.next()?;
        Some(self.images.at(self.symmetry, row))
    }
}

/// The 8 images of a solution, each read a row at a time from the solution's columns and their
/// inverse (the row of each column's queen): no image is stored.
struct Images<'a> {
    columns: &'a [u32],
    rows: Vec<u32>,
}

impl<'a> Images<'a> {
    fn of(solution: &'a Solution) -> Images<'a> {
        let columns = solution.columns();
        let mut rows = vec![0; columns.len()];
        for (r, &c) in columns.iter().enumerate() {
            rows[c as usize] = r as u32;
        }
        Images { columns, rows }
    }

    fn n(&self) -> u32 {
        self.columns.len() as u32
    }

    /// The image under `g` of square `(r, c)` of the board.
    fn map(&self, g: Symmetry, square: (u32, u32)) -> (u32, u32) {
        g.map_square(self.n(), square).unwrap_or(square)
    }

    /// The column of the queen on row `i` of the image under `g`. Every symmetry sends a row
    /// to a row or to a column, by `x` or `n − 1 − x` (its own inverse): the image's row `i`
    /// holds the image of the queen on row `g(i, 0).row`, or of the one on column
    /// `g(0, i).row` where `g` sends rows to columns.
    fn at(&self, g: Symmetry, i: u32) -> u32 {
        let to_columns = self.map(g, (0, 0)).0 != self.map(g, (0, 1)).0;
        let queen = if to_columns {
            let c = self.map(g, (0, i)).0;
            (self.rows[c as usize], c)
        } else {
            let r = self.map(g, (i, 0)).0;
            (r, self.columns[r as usize])
        };
        self.map(g, queen).1
    }

    /// The columns of the image under `g`, row by row.
    fn columns(&'a self, g: Symmetry) -> ImageColumns<'a> {
        ImageColumns {
            images: self,
            symmetry: g,
            rows: 0..self.n(),
        }
    }

    /// The symmetry whose image is the least (comparing column lists), the first in
    /// [`Symmetry::ALL`] of those that give it, as [`Solution::canonical_with_symmetry`] names it.
    fn least(&self) -> Symmetry {
        let mut best = Symmetry::Identity;
        for &g in &Symmetry::ALL[1..] {
            if self.columns(g).cmp(self.columns(best)) == std::cmp::Ordering::Less {
                best = g;
            }
        }
        best
    }
}

/// A column list serialized as it is read, so that a constructed solution of a hundred million
/// queens is never held in memory.
struct Lazy<I>(I);

impl<I: Iterator<Item = u32> + Clone> Serialize for Lazy<I> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.clone())
    }
}

impl Printer {
    /// Writes `answer` as JSON: an array of one record, the record on one line (its columns
    /// streamed), as every command writes an array of records that name their `n`.
    fn json<I>(&self, out: &mut dyn Write, answer: Answer<'_, I>) -> std::io::Result<()>
    where
        I: Iterator<Item = u32> + Clone,
    {
        out.write_all(b"[\n")?;
        serde_json::to_writer(&mut *out, &answer)?;
        out.write_all(b"\n]\n")
    }

    /// The JSON answer of this board, without images.
    fn answer<I>(&self, columns: Option<I>) -> Answer<'static, I> {
        Answer {
            n: self.n,
            method: self.method.name(),
            columns: columns.map(Lazy),
            images: None,
            canonical: None,
        }
    }

    /// The board of `columns` (read twice) and, when it is drawn as a grid, its column list.
    fn board<I>(&self, out: &mut dyn Write, columns: I) -> std::io::Result<()>
    where
        I: Iterator<Item = u32> + Clone,
    {
        write_board(out, self.n, columns.clone(), &self.style)?;
        if is_drawn(self.n) {
            write!(out, "columns: ")?;
            write_columns(out, columns)?;
        }
        Ok(())
    }

    /// There is no solution (n = 2, 3): say so on stderr (JSON also writes a null solution);
    /// exit 1, as `list` does.
    fn none(&self, out: &mut dyn Write) -> Result<Outcome, Failure> {
        let n = self.n;
        if self.format == SolutionFormat::Json {
            self.json(out, self.answer(None::<std::iter::Empty<u32>>))?;
        }
        nqueens_ui::output::message(super::render::no_solution(n));
        Ok(Outcome::Negative)
    }

    /// One solution, streamed from `columns` (read twice for the board format).
    fn one<I>(&self, out: &mut dyn Write, columns: I) -> Result<Outcome, Failure>
    where
        I: Iterator<Item = u32> + Clone,
    {
        let n = self.n;
        match self.format {
            SolutionFormat::Columns => write_columns(out, columns)?,
            SolutionFormat::Json => self.json(out, self.answer(Some(columns)))?,
            SolutionFormat::Board => {
                writeln!(out, "n = {}: {}", grouped(n), self.method.describe())?;
                self.board(out, columns)?;
            }
        }
        Ok(Outcome::Success)
    }

    /// The solution's 8 images and its canonical form, each image written as it is read.
    fn images(&self, out: &mut dyn Write, solution: &Solution) -> Result<Outcome, Failure> {
        let n = self.n;
        let images = Images::of(solution);
        let canonical = images.least();
        match self.format {
            SolutionFormat::Columns => {
                for g in Symmetry::ALL {
                    write_columns(out, images.columns(g))?;
                }
            }
            SolutionFormat::Json => {
                let all = Symmetry::ALL.map(|g| Image {
                    symmetry: g.to_string(),
                    columns: Lazy(images.columns(g)),
                });
                let answer = Answer {
                    images: Some(all.into()),
                    canonical: Some(canonical.to_string()),
                    ..self.answer(Some(solution.columns().iter().copied()))
                };
                self.json(out, answer)?;
            }
            SolutionFormat::Board => {
                writeln!(
                    out,
                    "n = {}: {}, and its 8 images",
                    grouped(n),
                    self.method.describe()
                )?;
                for g in Symmetry::ALL {
                    writeln!(out, "\n{g}:")?;
                    self.board(out, images.columns(g))?;
                }
                writeln!(
                    out,
                    "\ncanonical form (the least image, comparing column lists): {canonical}"
                )?;
            }
        }
        Ok(Outcome::Success)
    }
}
