//! What the watcher knows of a search: the queens, the last step, its narration and the counters,
//! rebuilt from the library's events; and the chosen algorithm's data structure, recomputed
//! from the queens (each structure is a function of the queens placed).
//!
//! The diagonals are named as everywhere in the tool ([`Line`]): a **↘ diagonal** keeps
//! `row − column`, a **↙ anti-diagonal** keeps `row + column`.

use nqueens::classic::{Algorithm, Counters, Event, Line, Observer};

use crate::narration::{along, say};

/// The last step shown: a square rejected, a queen placed or taken back, a solution.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// Nothing yet.
    Start,
    /// `(row, col)` is attacked along `line` by the queen on `by`.
    Reject {
        row: usize,
        col: usize,
        line: Line,
        by: (usize, usize),
    },
    /// A queen was put on `(row, col)`.
    Place { row: usize, col: usize },
    /// The queen of `(row, col)` was taken back.
    Remove { row: usize, col: usize },
    /// The board is full.
    Solution,
}

/// A square rejected: attacked along `line` by the queen on `by`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rejection {
    pub row: usize,
    pub col: usize,
    pub line: Line,
    pub by: (usize, usize),
}

/// The state of a watched search after some steps; cheap to clone (the history keeps copies).
#[derive(Debug, Clone)]
pub struct Model {
    /// Board size.
    pub n: usize,
    /// The algorithm searching.
    pub algorithm: Algorithm,
    /// The column of the queen of each filled row, top down.
    pub queens: Vec<usize>,
    /// Compare's counters so far (solutions included).
    pub counters: Counters,
    /// Steps shown so far.
    pub steps: u64,
    /// The last step.
    pub step: Step,
    /// The squares the last step rejected at once (the bitmask search, whose one mask
    /// operation rejects every attacked square of a row: its steps are its queens).
    pub rejected: Vec<Rejection>,
    /// Rejections not shown yet (the bitmask search: shown with its next queen or backtrack).
    pending: Vec<Rejection>,
    /// The known number of solutions of the board, when tabulated.
    pub total: Option<u128>,
    /// The search has ended.
    pub finished: bool,
}

impl Model {
    pub fn new(n: u32, algorithm: Algorithm) -> Model {
        Model {
            n: n as usize,
            algorithm,
            queens: Vec::with_capacity(n as usize),
            counters: Counters::default(),
            steps: 0,
            step: Step::Start,
            rejected: Vec::new(),
            pending: Vec::new(),
            total: nqueens::known::Known::of(n).map(|k| k.total),
            finished: false,
        }
    }

    /// Whether a step is a queen (placed or taken back) rather than a square: the bitmask
    /// search, which finds a row's free squares in one operation and takes the lowest.
    pub fn by_queen(&self) -> bool {
        self.algorithm == Algorithm::Bitmask
    }

    /// Applies one event; returns whether it is a step to show (tries and diagonal tests are
    /// counted, and shown with the rejection or the placement that follows them; the
    /// bitmask's rejections are shown with its next queen or backtrack).
    pub fn apply(&mut self, event: Event) -> bool {
        self.counters.event(event);
        self.step = match event {
            Event::Try { .. } | Event::DiagonalTest { .. } => return false,
            Event::Reject { row, col, line, by } => {
                let (found_line, found_by) = self.attacker(row, col, line);
                let rejection = Rejection {
                    row,
                    col,
                    line: line.unwrap_or(found_line),
                    by: by.unwrap_or(found_by),
                };
                if self.by_queen() {
                    self.pending.push(rejection);
                    return false;
                }
                self.rejected.clear();
                Step::Reject {
                    row,
                    col,
                    line: rejection.line,
                    by: rejection.by,
                }
            }
            Event::Place { row, col } => {
                self.queens.push(col);
                self.rejected = std::mem::take(&mut self.pending);
                Step::Place { row, col }
            }
            Event::Solution => {
                self.counters.solutions += 1;
                self.rejected.clear();
                Step::Solution
            }
            Event::Remove { row, col } => {
                self.queens.pop();
                self.rejected = std::mem::take(&mut self.pending);
                Step::Remove { row, col }
            }
            // An event this build does not show.
            _ => return false,
        };
        self.steps += 1;
        true
    }

    /// The placed queen attacking `(row, col)` along `line` (any line when `None`, tested
    /// column, then ↘ diagonal, then ↙ anti-diagonal) and that line: what the algorithms
    /// report when they cannot name it themselves.
    fn attacker(&self, row: usize, col: usize, line: Option<Line>) -> (Line, (usize, usize)) {
        for want in [Line::Column, Line::Diagonal, Line::AntiDiagonal] {
            if line.is_some_and(|line| line != want) {
                continue;
            }
            for (r, &c) in self.queens.iter().enumerate() {
                if Line::shared((r, c), (row, col)) == Some(want) {
                    return (want, (r, c));
                }
            }
        }
        // Never reached: a rejected square is attacked by a placed queen.
        (Line::Column, (row, col))
    }

    /// Whether a placed queen attacks `(row, col)` (a queen's own square included).
    pub fn attacked(&self, row: usize, col: usize) -> bool {
        self.queens.iter().enumerate().any(|(r, &c)| {
            r == row || c == col || r + c == row + col || row.abs_diff(r) == col.abs_diff(c)
        })
    }

    /// The queen of `row`, if placed.
    pub fn queen(&self, row: usize) -> Option<usize> {
        self.queens.get(row).copied()
    }

    /// The squares strictly between the attacker and the rejected square, along their line.
    pub fn attack_line(&self) -> Vec<(usize, usize)> {
        let Step::Reject { row, col, by, .. } = self.step else {
            return Vec::new();
        };
        let (r0, c0) = (by.0 as isize, by.1 as isize);
        let (dr, dc) = ((row as isize - r0).signum(), (col as isize - c0).signum());
        let mut line = Vec::new();
        let (mut r, mut c) = (r0 + dr, c0 + dc);
        while (r, c) != (row as isize, col as isize) && r < self.n as isize {
            line.push((r as usize, c as usize));
            r += dr;
            c += dc;
        }
        line
    }

    /// The square the last step is about, and whether it ended in a queen.
    pub fn focus(&self) -> Option<(usize, usize)> {
        match self.step {
            Step::Reject { row, col, .. }
            | Step::Place { row, col }
            | Step::Remove { row, col } => Some((row, col)),
            Step::Start | Step::Solution => None,
        }
    }

    /// How the algorithm finds a rejected square attacked: its own test.
    fn how(&self, line: Line, (row, col): (usize, usize), by: (usize, usize)) -> String {
        let n = self.n;
        match self.algorithm {
            Algorithm::Matrix => say("how_matrix", &[]),
            Algorithm::Array => say("how_array", &[("by", &by.0), ("by_col", &by.1)]),
            Algorithm::Attack => match line {
                Line::Column => say("how_attack_column", &[("col", &col)]),
                Line::Diagonal => say("how_attack_diagonal", &[("index", &(row + n - 1 - col))]),
                Line::AntiDiagonal => say("how_attack_anti_diagonal", &[("index", &(row + col))]),
            },
            Algorithm::Bitmask => {
                let mask = match line {
                    Line::Column => "cols",
                    Line::Diagonal => "ld",
                    Line::AntiDiagonal => "rd",
                };
                say("how_bitmask", &[("col", &col), ("mask", &mask)])
            }
            _ => say("how_other", &[("by", &by.0), ("by_col", &by.1)]),
        }
    }

    /// One sentence on the last step (its words: [`crate::narration`]).
    pub fn narration(&self) -> String {
        if self.finished {
            let found = nqueens_ui::human::plural(self.counters.solutions, "solution");
            return say("done", &[("found", &found)]);
        }
        match self.step {
            Step::Start => say("start", &[("n", &self.n)]),
            Step::Reject { row, col, line, by } => say(
                "reject",
                &[
                    ("row", &row),
                    ("col", &col),
                    ("along", &along(line, (row, col))),
                    ("by", &by.0),
                    ("how", &self.how(line, (row, col), by)),
                ],
            ),
            Step::Place { row, col } if self.by_queen() => self.bit_placed(row, col),
            Step::Place { row, col } if row + 1 == self.n => {
                say("place_last", &[("row", &row), ("col", &col)])
            }
            Step::Place { row, col } => say(
                "place",
                &[("row", &row), ("col", &col), ("next", &(row + 1))],
            ),
            Step::Solution => {
                let queens = self
                    .queens
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join(" ");
                let solutions = self.counters.solutions;
                say(
                    "solution",
                    &[("solutions", &solutions), ("queens", &queens)],
                )
            }
            Step::Remove { row, col } if row + 1 == self.n => {
                let next = say(
                    if self.by_queen() {
                        "next_bit"
                    } else {
                        "next_column"
                    },
                    &[],
                );
                say(
                    "remove_last",
                    &[("row", &row), ("col", &col), ("next", &next)],
                )
            }
            Step::Remove { row, col } => {
                let empty = say(
                    if self.by_queen() {
                        "no_bit"
                    } else {
                        "no_square"
                    },
                    &[],
                );
                say(
                    "remove",
                    &[
                        ("below", &(row + 1)),
                        ("empty", &empty),
                        ("row", &row),
                        ("col", &col),
                    ],
                )
            }
        }
    }

    /// The sentence on the bitmask's queen placed on `(row, col)`: the free columns, how many
    /// were tried before, where the search goes on.
    fn bit_placed(&self, row: usize, col: usize) -> String {
        let free = self.masks(row).free_columns();
        let tried = free.iter().filter(|&&c| c < col).count();
        let listed = free
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(" ");
        let then = if row + 1 == self.n {
            say("then_last", &[])
        } else {
            say("then_next", &[("next", &(row + 1))])
        };
        let tried = match tried {
            0 => String::new(),
            t => {
                let bits = nqueens_ui::human::plural(t, &say("bit", &[]));
                say("tried_before", &[("tried", &bits)])
            }
        };
        let columns = say(
            if free.len() == 1 {
                "one_column"
            } else {
                "columns"
            },
            &[],
        );
        say(
            "place_bitmask",
            &[
                ("row", &row),
                ("columns", &columns),
                ("listed", &listed),
                ("tried", &tried),
                ("col", &col),
                ("then", &then),
            ],
        )
    }

    /// The last step in a few words, for the log of recent steps.
    pub fn summary(&self) -> String {
        if self.finished {
            return "done".to_string();
        }
        match self.step {
            Step::Start => "start".to_string(),
            Step::Reject { row, col, line, by } => {
                format!("({row},{col}) ✗ {} queen ({},{})", line.arrow(), by.0, by.1)
            }
            Step::Place { row, col } if self.by_queen() => {
                let free = self.masks(row).free.count_ones();
                format!(
                    "({row},{col}) Q, lowest of {}",
                    nqueens_ui::human::plural(free, "free bit")
                )
            }
            Step::Place { row, col } => format!("({row},{col}) Q placed"),
            Step::Remove { row, col } => format!("({row},{col}) queen taken back"),
            Step::Solution => format!("solution {}", self.counters.solutions),
        }
    }

    /// "solutions k of Q(n)".
    pub fn solution_of(&self) -> String {
        let total = self.total.map_or("?".to_string(), |t| t.to_string());
        format!("solutions {} of {total}", self.counters.solutions)
    }

    /// The row the algorithm fills next (or is filling).
    fn current_row(&self) -> usize {
        match self.step {
            Step::Reject { row, .. } => row,
            _ => self.queens.len().min(self.n.saturating_sub(1)),
        }
    }

    /// The bitmask search's masks for `row`, from the queens of the rows above it.
    pub fn masks(&self, row: usize) -> Masks {
        let n = self.n;
        let (mut cols, mut ld, mut rd) = (0u64, 0u64, 0u64);
        for (r, &c) in self.queens.iter().enumerate().take(row) {
            let k = row - r;
            cols |= 1 << c;
            if c + k < n {
                ld |= 1 << (c + k);
            }
            if c >= k {
                rd |= 1 << (c - k);
            }
        }
        // Every column of the board (n is at most 64).
        let board = if n == 0 { 0 } else { u64::MAX >> (64 - n) };
        let free = board & !(cols | ld | rd);
        Masks { cols, ld, rd, free }
    }

    /// The chosen algorithm's data structure as it stands, as text lines.
    pub fn structure(&self) -> Vec<String> {
        match self.algorithm {
            Algorithm::Matrix => self.matrix_grid(),
            Algorithm::Array => self.array_queens(),
            Algorithm::Attack => self.attack_flags(),
            Algorithm::Bitmask => self.bitmask_masks(),
            // An algorithm this build does not draw: no data structure shown.
            _ => Vec::new(),
        }
    }

    /// The matrix search's grid for the current row: each square a queen, attacked or free.
    fn matrix_grid(&self) -> Vec<String> {
        let n = self.n;
        let row = self.current_row();
        let mut lines = vec![format!("grid for row {row}: Q queen, x attacked")];
        lines.push(format!("   {}", ruler_cells(n)));
        for r in 0..n {
            let cells: Vec<String> = (0..n)
                .map(|c| {
                    let mark = if self.queen(r) == Some(c) {
                        "Q"
                    } else if self.attacked(r, c) {
                        "x"
                    } else {
                        "."
                    };
                    pad(mark, digits(n))
                })
                .collect();
            lines.push(format!("{r:>2} {}", cells.join(" ")));
        }
        lines
    }

    /// The array search's `queens[row] = column` and what the current step checks.
    fn array_queens(&self) -> Vec<String> {
        let n = self.n;
        let w = digits(n);
        let cells: Vec<String> = (0..n)
            .map(|r| pad(&self.queen(r).map_or("-".to_string(), |c| c.to_string()), w))
            .collect();
        let check = match self.step {
            _ if self.finished => "the search is over".to_string(),
            Step::Solution => "every row holds a queen: a solution".to_string(),
            Step::Place { row, col } if row + 1 == n => {
                format!("queens[{row}] = {col}: the last row")
            }
            Step::Place { row, col } => {
                format!("queens[{row}] = {col}: row {} is checked next", row + 1)
            }
            Step::Remove { row, .. } => {
                format!("queens[{row}] cleared, row {row} goes on")
            }
            Step::Start => "row 0 has no queen to be checked against".to_string(),
            Step::Reject { row: 1, .. } => "row 1 is checked against queens[0]".to_string(),
            Step::Reject { row, .. } => {
                format!("row {row} is checked against queens[0..{row}]")
            }
        };
        vec![
            "queens[row] = column".to_string(),
            format!("row     {}", ruler_cells(n)),
            format!("queens  {}", cells.join(" ")),
            check,
        ]
    }

    /// The attack search's flags of the columns and both diagonals, by index.
    fn attack_flags(&self) -> Vec<String> {
        let n = self.n;
        let flag = |set: bool| if set { "1" } else { "0" };
        let cols: Vec<&str> = (0..n).map(|i| flag(self.queens.contains(&i))).collect();
        let sums: Vec<&str> = (0..2 * n - 1)
            .map(|i| flag(self.queens.iter().enumerate().any(|(r, &c)| r + c == i)))
            .collect();
        let diffs: Vec<&str> = (0..2 * n - 1)
            .map(|i| {
                flag(
                    self.queens
                        .iter()
                        .enumerate()
                        .any(|(r, &c)| r + n - 1 - c == i),
                )
            })
            .collect();
        let diffs_label = format!("diffs[r-c+{}]", n - 1);
        let w = diffs_label.len();
        let mut lines = vec!["flags (1 taken) by index".to_string()];
        for ruler in ruler_lines(2 * n - 1) {
            lines.push(format!("{:w$}   {ruler}", ""));
        }
        lines.push(format!("{:w$} ↓ {}", "cols[c]", cols.join(" ")));
        lines.push(format!("{:w$} ↙ {}", "sums[r+c]", sums.join(" ")));
        lines.push(format!("{diffs_label} ↘ {}", diffs.join(" ")));
        lines
    }

    /// The bitmask search's masks of the current row and the bit it picks.
    fn bitmask_masks(&self) -> Vec<String> {
        let n = self.n;
        let row = match self.step {
            Step::Place { row, .. } | Step::Remove { row, .. } => row,
            Step::Solution => n - 1,
            _ => 0,
        };
        let masks = self.masks(row);
        // The bit that gets the queen (at a backtrack: the next one, if any), and the
        // free bits taken before it.
        let (pick, tried_to) = match self.step {
            Step::Place { col, .. } => (Some(col), col),
            Step::Solution => (self.queen(n - 1), self.queen(n - 1).unwrap_or(0)),
            Step::Remove { col, .. } => {
                let next = (col + 1..n).find(|&c| masks.free >> c & 1 == 1);
                (next, col + 1)
            }
            _ => (None, 0),
        };
        let show = |m: u64| -> String {
            (0..n)
                .map(|i| pad(if m >> i & 1 == 1 { "1" } else { "0" }, digits(n)))
                .collect::<Vec<_>>()
                .join(" ")
        };
        let marks = (0..n)
            .map(|c| {
                let mark = if Some(c) == pick {
                    "^"
                } else if c < tried_to && masks.free >> c & 1 == 1 {
                    "-"
                } else {
                    " "
                };
                pad(mark, digits(n))
            })
            .collect::<Vec<_>>()
            .join(" ");
        let key = match (self.step, pick) {
            (Step::Remove { .. }, Some(_)) => "^ next lowest bit, - tried",
            (Step::Remove { .. }, None) => "- tried, no bit left",
            (_, Some(_)) => "^ lowest bit, - tried",
            (_, None) => "",
        };
        let mut lines = vec![
            format!("masks of row {row}, bit c = column c"),
            format!("         {}", ruler_cells(n)),
            format!("cols  ↓  {}", show(masks.cols)),
            format!("ld    ↘  {}  <<1 a row", show(masks.ld)),
            format!("rd    ↙  {}  >>1 a row", show(masks.rd)),
            format!("free     {}  ~(cols|ld|rd)", show(masks.free)),
        ];
        if !key.is_empty() {
            lines.push(format!("pick     {marks}  {key}"));
        }
        lines
    }
}

/// The bitmask search's masks for one row, bit `c` for column `c`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Masks {
    pub cols: u64,
    pub ld: u64,
    pub rd: u64,
    pub free: u64,
}

impl Masks {
    /// The columns of the free bits, lowest first.
    pub fn free_columns(&self) -> Vec<usize> {
        (0..64).filter(|c| self.free >> c & 1 == 1).collect()
    }
}

/// The digits of the largest index of `len` cells (at least 1).
fn digits(len: usize) -> usize {
    len.saturating_sub(1).max(1).to_string().len()
}

/// `text` right-aligned in `width` columns.
fn pad(text: &str, width: usize) -> String {
    format!("{text:>width$}")
}

/// The indices `0..len`, one cell each (as wide as the largest), separated by spaces.
fn ruler_cells(len: usize) -> String {
    (0..len)
        .map(|i| pad(&i.to_string(), digits(len)))
        .collect::<Vec<_>>()
        .join(" ")
}

/// An index ruler for `len` one-character cells separated by spaces: the tens digits (when
/// some index has two) over the ones.
fn ruler_lines(len: usize) -> Vec<String> {
    let line = |digit: &dyn Fn(usize) -> char| -> String {
        (0..len)
            .map(|i| digit(i).to_string())
            .collect::<Vec<_>>()
            .join(" ")
    };
    let ones = line(&|i| char::from(b'0' + (i % 10) as u8));
    if len <= 10 {
        return vec![ones];
    }
    let tens = line(&|i| {
        if i >= 10 && i % 10 == 0 {
            char::from(b'0' + (i / 10 % 10) as u8)
        } else {
            ' '
        }
    });
    vec![tens.trim_end().to_string(), ones]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every rejection the model shows names a queen that attacks the square along the line
    /// shown, for every algorithm (most of them leave the queen to the model to find).
    #[test]
    fn every_rejection_shown_names_a_real_attacker_on_its_line() {
        struct Check(Model);
        impl Observer for Check {
            fn event(&mut self, event: Event) {
                self.0.apply(event);
                if let (Event::Reject { .. }, Step::Reject { row, col, line, by }) =
                    (event, self.0.step)
                {
                    assert_eq!(self.0.queen(by.0), Some(by.1));
                    let on_line = match line {
                        Line::Column => by.1 == col,
                        Line::Diagonal => row as i64 - col as i64 == by.0 as i64 - by.1 as i64,
                        Line::AntiDiagonal => by.0 + by.1 == row + col,
                    };
                    assert!(on_line, "{:?} {:?}", self.0.algorithm, self.0.step);
                }
            }
        }
        for algorithm in Algorithm::ALL {
            let mut check = Check(Model::new(7, algorithm));
            algorithm.watch(7, &mut check).unwrap();
        }
    }
}

#[cfg(test)]
mod texts {
    use super::*;

    /// The states after every step of the whole search.
    fn all_states(n: u32, algorithm: Algorithm) -> Vec<Model> {
        struct Keep(Model, Vec<Model>);
        impl Observer for Keep {
            fn event(&mut self, event: Event) {
                if self.0.apply(event) {
                    self.1.push(self.0.clone());
                }
            }
        }
        let mut keep = Keep(Model::new(n, algorithm), Vec::new());
        algorithm.watch(n, &mut keep).unwrap();
        let mut end = keep.0.clone();
        end.finished = true;
        keep.1.push(end);
        keep.1
    }

    #[test]
    fn the_array_panel_says_what_is_checked_at_each_kind_of_step() {
        let states = all_states(6, Algorithm::Array);
        for state in &states {
            let check = state.structure()[3].clone();
            match state.step {
                _ if state.finished => assert_eq!(check, "the search is over"),
                Step::Solution => assert_eq!(check, "every row holds a queen: a solution"),
                Step::Reject { row, .. } => {
                    assert!(
                        check.starts_with(&format!("row {row} is checked")),
                        "{check}"
                    );
                    assert!(row > 0);
                }
                _ => assert!(!check.contains("checked against"), "{check}"),
            }
            // No range past the queens placed, nor an empty one.
            assert!(
                !check.contains("queens[0..0]") && !check.contains("[0..6]"),
                "{check}"
            );
        }
    }

    #[test]
    fn narration_never_repeats_the_line_nor_counts_solution_zero() {
        for algorithm in Algorithm::ALL {
            for state in all_states(5, algorithm) {
                let text = state.narration();
                assert!(!text.contains("a placed queen attacks it"), "{text}");
                assert!(!text.contains("solution 0"), "{text}");
                assert!(!state.solution_of().contains("solution 0 "));
            }
        }
    }

    #[test]
    fn the_bitmask_steps_once_per_queen_and_picks_the_lowest_free_bit() {
        for state in all_states(6, Algorithm::Bitmask) {
            if let Step::Place { row, col } = state.step {
                let masks = state.masks(row);
                // The queen's bit is free, and every free bit below it was tried before.
                assert_eq!(masks.free >> col & 1, 1);
                for r in &state.rejected {
                    assert_eq!(r.row, row);
                    assert_eq!(masks.free >> r.col & 1, 0, "a free square rejected");
                    assert!(r.col < col);
                }
            }
            assert!(!matches!(state.step, Step::Reject { .. }));
        }
    }
}
