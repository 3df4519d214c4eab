//! What the watcher knows of a search: the queens, the last step, its narration and the counters,
//! rebuilt from the library's events; and the chosen algorithm's data structure, recomputed
//! from the queens (each structure is a function of the queens placed).

use nqueens::classic::{Algorithm, Counters, Event, Line, Observer};

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

/// The state of a watched search after some steps; cheap to clone (the history keeps copies).
#[derive(Debug, Clone)]
pub struct Model {
    /// Board side.
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
            total: nqueens::known::total(n),
            finished: false,
        }
    }

    /// Applies one event; returns whether it is a step to show (tries and diagonal tests are
    /// counted, and shown with the rejection or the placement that follows them).
    pub fn apply(&mut self, event: Event) -> bool {
        self.counters.event(event);
        self.step = match event {
            Event::Try { .. } | Event::DiagonalTest { .. } => return false,
            Event::Reject { row, col, line, by } => {
                let (found_line, found_by) = self.attacker(row, col, line);
                Step::Reject {
                    row,
                    col,
                    line: line.unwrap_or(found_line),
                    by: by.unwrap_or(found_by),
                }
            }
            Event::Place { row, col } => {
                self.queens.push(col);
                Step::Place { row, col }
            }
            Event::Solution => {
                self.counters.solutions += 1;
                Step::Solution
            }
            Event::Remove { row, col } => {
                self.queens.pop();
                Step::Remove { row, col }
            }
        };
        self.steps += 1;
        true
    }

    /// The placed queen attacking `(row, col)` along `line` (any line when `None`, tested
    /// column, then diagonal, then anti-diagonal) and that line: what the algorithms report
    /// when they cannot name it themselves.
    fn attacker(&self, row: usize, col: usize, line: Option<Line>) -> (Line, (usize, usize)) {
        for want in [Line::Column, Line::Diagonal, Line::AntiDiagonal] {
            if line.is_some_and(|line| line != want) {
                continue;
            }
            for (r, &c) in self.queens.iter().enumerate() {
                let hit = match want {
                    Line::Column => c == col,
                    Line::Diagonal => r + c == row + col,
                    Line::AntiDiagonal => row - r == col.wrapping_sub(c),
                };
                if hit {
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

    /// One sentence on the last step.
    pub fn narration(&self) -> String {
        if self.finished {
            let found = crate::cli::human::plural(self.counters.solutions, "solution");
            return format!("done: {found} found");
        }
        match self.step {
            Step::Start => format!(
                "row 0: the search starts on an empty {0} x {0} board",
                self.n
            ),
            Step::Reject { row, col, line, by } => {
                let along = match line {
                    Line::Column => "along its column",
                    Line::Diagonal => "along a diagonal",
                    Line::AntiDiagonal => "along an anti-diagonal",
                };
                let how = match self.algorithm {
                    Algorithm::Matrix => "its cell is marked threatened",
                    Algorithm::Array => "a placed queen attacks it",
                    Algorithm::Attack => "its line's flag is set",
                    Algorithm::Bitmask => "its bit is set in a mask",
                };
                format!(
                    "row {row}: column {col} is attacked {along} by the queen on row {} ({how})",
                    by.0
                )
            }
            Step::Place { row, col } if row + 1 == self.n => {
                format!("row {row}: column {col} is free: the last queen")
            }
            Step::Place { row, col } => {
                format!(
                    "row {row}: column {col} is free: queen placed, on to row {}",
                    row + 1
                )
            }
            Step::Solution => format!(
                "solution {}: every row has a queen ({})",
                self.counters.solutions,
                self.queens
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join(" ")
            ),
            Step::Remove { row, col } if row + 1 == self.n => {
                format!("row {row}: queen taken back from column {col}, next column")
            }
            Step::Remove { row, col } => format!(
                "row {} has no free square left: back to row {row}, queen taken back from \
                 column {col}",
                row + 1
            ),
        }
    }

    /// "solution k of Q(n)".
    pub fn solution_of(&self) -> String {
        let total = self.total.map_or("?".to_string(), |t| t.to_string());
        format!("solution {} of {total}", self.counters.solutions)
    }

    /// The row the algorithm fills next (or is filling).
    fn current_row(&self) -> usize {
        match self.step {
            Step::Reject { row, .. } => row,
            _ => self.queens.len().min(self.n.saturating_sub(1)),
        }
    }

    /// The chosen algorithm's data structure as it stands, as text lines.
    pub fn structure(&self) -> Vec<String> {
        let n = self.n;
        let row = self.current_row();
        let bits = |set: &dyn Fn(usize) -> bool, len: usize| -> String {
            (0..len).map(|i| if set(i) { '1' } else { '0' }).collect()
        };
        match self.algorithm {
            Algorithm::Matrix => {
                let mut lines = vec![format!("grid for row {row} (Q queen, x threatened)")];
                for r in 0..n {
                    lines.push(
                        (0..n)
                            .map(|c| {
                                if self.queen(r) == Some(c) {
                                    'Q'
                                } else if self.attacked(r, c) {
                                    'x'
                                } else {
                                    '.'
                                }
                            })
                            .collect(),
                    );
                }
                lines
            }
            Algorithm::Array => {
                let cells: Vec<String> = (0..n)
                    .map(|r| self.queen(r).map_or("-".to_string(), |c| c.to_string()))
                    .collect();
                vec![
                    "queens[row] = column".to_string(),
                    format!("[{}]", cells.join(" ")),
                    format!(
                        "row {row} is checked against queens[0..{}]",
                        self.queens.len()
                    ),
                ]
            }
            Algorithm::Attack => {
                let cols = bits(&|i| self.queens.contains(&i), n);
                let sums = bits(
                    &|i| self.queens.iter().enumerate().any(|(r, &c)| r + c == i),
                    2 * n - 1,
                );
                let diffs = bits(
                    &|i| {
                        self.queens
                            .iter()
                            .enumerate()
                            .any(|(r, &c)| r + n - 1 - c == i)
                    },
                    2 * n - 1,
                );
                vec![
                    "flags (1 taken), index 0 first".to_string(),
                    format!("cols[c]         {cols}"),
                    format!("sums[r+c]       {sums}"),
                    format!("diffs[r-c+n-1]  {diffs}"),
                ]
            }
            Algorithm::Bitmask => {
                let (mut cols, mut ld, mut rd) = (0u64, 0u64, 0u64);
                for (r, &c) in self.queens.iter().enumerate() {
                    let k = row.saturating_sub(r);
                    cols |= 1 << c;
                    if c + k < n {
                        ld |= 1 << (c + k);
                    }
                    if c >= k {
                        rd |= 1 << (c - k);
                    }
                }
                let free = nqueens::engine::kernel::board_mask(n as u32) & !(cols | ld | rd);
                let show = |m: u64| bits(&|i| m >> i & 1 == 1, n);
                vec![
                    format!("masks for row {row}, column 0 first"),
                    format!("cols  {}", show(cols)),
                    format!("ld    {}", show(ld)),
                    format!("rd    {}", show(rd)),
                    format!("free  {}", show(free)),
                ]
            }
        }
    }
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
                        Line::Diagonal => by.0 + by.1 == row + col,
                        Line::AntiDiagonal => row - by.0 == col.wrapping_sub(by.1),
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
