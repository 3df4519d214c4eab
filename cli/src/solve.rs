//! `nqueens solve`: print one solution, searched for small boards and constructed for large
//! ones, as a board, a column list or JSON.
//!
//! The constructed solution is never stored unless its 8 images are asked for: it is checked in
//! one pass and printed in a second, both reading the lazy construction.

use std::io::Write;

use serde::Serialize;

use crate::render::{Style, is_drawn, undrawn_note, write_board, write_columns};
use nqueens::board::{Placement, Solution, Symmetry};
use nqueens::{construct, enumerate};

use super::human::grouped;
use super::{Failure, Outcome};
use crate::args::SolveArgs;
use crate::render::SolutionFormat;

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
    let style = Style::for_format(&args.style, args.format)?;
    if args.format == SolutionFormat::Board
        && let Some(note) = undrawn_note(args.n)
    {
        super::output::note(note);
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
struct Answer<I> {
    n: u32,
    method: &'static str,
    columns: Option<Lazy<I>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    images: Option<Vec<Image>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    canonical: Option<String>,
}

/// One image of the solution under a symmetry of the square.
#[derive(Serialize)]
struct Image {
    symmetry: String,
    columns: Vec<u32>,
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
    /// Writes `answer` as one line of JSON.
    fn json<I>(&self, out: &mut dyn Write, answer: Answer<I>) -> std::io::Result<()>
    where
        I: Iterator<Item = u32> + Clone,
    {
        serde_json::to_writer(&mut *out, &answer)?;
        writeln!(out)
    }

    /// The JSON answer of this board, without images.
    fn answer<I>(&self, columns: Option<I>) -> Answer<I> {
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
        super::output::message(no_solution(n));
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

    /// The solution's 8 images and its canonical form.
    fn images(&self, out: &mut dyn Write, solution: &Solution) -> Result<Outcome, Failure> {
        let n = self.n;
        let (canonical, _) = solution.canonical_with_symmetry();
        let image_columns = |g: Symmetry| solution.image(g);
        match self.format {
            SolutionFormat::Columns => {
                for g in Symmetry::ALL {
                    write_columns(out, image_columns(g).columns().iter().copied())?;
                }
            }
            SolutionFormat::Json => {
                let images = Symmetry::ALL.map(|g| Image {
                    symmetry: g.to_string(),
                    columns: image_columns(g).columns().to_vec(),
                });
                let answer = Answer {
                    images: Some(images.into()),
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
                    self.board(out, image_columns(g).columns().iter().copied())?;
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

/// The one line `solve` and `list` print on stderr for a board without solutions.
pub fn no_solution(n: u32) -> String {
    let n = grouped(n);
    format!("nqueens: no solution: {n} queens cannot be placed on a {n} x {n} board")
}
