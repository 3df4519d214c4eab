//! `nqueens solve`: print one solution, searched for small boards and constructed for large
//! ones, as a board, a column list or JSON.
//!
//! The constructed solution is never stored unless its 8 images are asked for: it is checked in
//! one pass and printed in a second, both reading the lazy construction.

use std::io::Write;

use crate::cli::render::{Style, is_drawn, write_board, write_columns, write_separated};
use nqueens::board::{Placement, Solution, Symmetry};
use nqueens::{construct, enumerate};

use super::human::grouped;
use super::{Failure, Outcome};
use crate::cli::args::{SolutionFormat, SolveArgs};

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
    let printer = Printer {
        n,
        method,
        format: args.format,
        style,
    };
    match method {
        Method::Search => match enumerate::first(n)? {
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

impl Printer {
    /// Opens the JSON object and writes its `columns` array, up to its closing bracket.
    fn json_columns<I: Iterator<Item = u32>>(
        &self,
        out: &mut dyn Write,
        columns: I,
    ) -> std::io::Result<()> {
        write!(
            out,
            r#"{{"n":{},"method":"{}","columns":["#,
            self.n,
            self.method.name()
        )?;
        write_separated(out, columns, b",")
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
            writeln!(
                out,
                r#"{{"n":{n},"method":"{}","columns":null}}"#,
                self.method.name()
            )?;
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
            SolutionFormat::Json => {
                self.json_columns(out, columns)?;
                writeln!(out, "]}}")?;
            }
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
                self.json_columns(out, solution.columns().iter().copied())?;
                write!(out, r#"],"images":["#)?;
                for (i, g) in Symmetry::ALL.into_iter().enumerate() {
                    let sep = if i == 0 { "" } else { "," };
                    write!(out, r#"{sep}{{"symmetry":"{g}","columns":["#)?;
                    write_separated(out, image_columns(g).columns().iter().copied(), b",")?;
                    write!(out, "]}}")?;
                }
                writeln!(out, r#"],"canonical":"{canonical}"}}"#)?;
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
