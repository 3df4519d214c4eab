//! `watch --html FILE`: one self-contained page that replays the search in a browser.
//!
//! The page carries the search's steps as a compact string of small numbers ([`moves`]): per
//! step its kind, square and line, and how much each counter grew; its inline script rebuilds
//! everything else from them (the queens, the attacker of a rejection, the narration, the data
//! panel: the same texts as the terminal view and `--format json`) and draws each step, with
//! play/pause, step, back, a position slider and the speed ladder of the terminal view. No
//! server, no network, nothing to build: the file opens as it is. `#step=K` in the address
//! opens it paused at step K, `#speed=S` sets the speed (one of the ladder's) and `#play`
//! starts it (for links from a course page, and for the tests).

use std::path::Path;

use nqueens::classic::{Counters, Event, Line, Observer};
use serde_json::json;

use super::StepLimit;
use super::model::{Model, Rejection, Step};
use super::screen::SPEEDS;
use crate::Options;
use nqueens_ui::failure::{Failure, Outcome};
use nqueens_ui::{human, output};

/// The most steps one page holds (a few bytes each: about 7 MB of page at most):
/// `--limit 0` keeps the steps up to this many, and a larger `--limit` is refused
/// before the search starts (`--frames` and `--format json` write any number).
pub const PAGE_MAX_STEPS: u64 = 1_000_000;

/// The steps the page of `args` keeps at most: `--limit`, where 0 means [`PAGE_MAX_STEPS`];
/// a usage error where `--limit` asks for more than a page holds.
pub fn page_steps(max_steps: u64) -> Result<u64, Failure> {
    match max_steps {
        0 => Ok(PAGE_MAX_STEPS),
        m if m > PAGE_MAX_STEPS => Err(Failure::Usage(format!(
            "--html: a page holds at most {PAGE_MAX_STEPS} steps, not --limit {m} (give \
             --limit {PAGE_MAX_STEPS} or less, or write the steps with --format json)"
        ))),
        m => Ok(m),
    }
}

/// Writes the page of `args`' search to `path` (through the tool's safe replace), then says on
/// stderr where and how big (unless `--quiet`).
pub fn write(args: &Options, path: &Path) -> Result<Outcome, Failure> {
    let max_steps = page_steps(args.max_steps.unwrap_or(super::DEFAULT_MAX_STEPS))?;
    output::check_replaceable(path, "the page")?;
    let moves = moves(args, max_steps)?;
    let page = page(args, &moves);
    output::replace_files(&[(path, page.as_bytes())], "the page")?;
    if !moves.complete {
        output::message(format_args!(
            "nqueens: the page stops after {max_steps} steps (--limit; a page holds at most \
             {PAGE_MAX_STEPS}, --format json writes every step)"
        ));
    }
    output::note(format_args!(
        "nqueens: wrote {} ({}, {})",
        nqueens_ui::escape::text(&path.display().to_string()),
        human::plural(moves.steps, "step"),
        human::plural(page.len(), "byte")
    ));
    Ok(Outcome::Success)
}

/// The digits of [`Moves::text`]: 64 characters that need no escape in JSON or HTML.
const DIGITS: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// The search's steps, encoded for the page's script.
#[derive(Debug, Default)]
pub struct Moves {
    /// Every step, as a sequence of whole numbers, each written as a variable-length number of
    /// [`DIGITS`] (five bits a digit, low bits first, the digits 32 to 63 saying that more
    /// follow). Per step: `kind + 4 × line` (kind 0 a rejection, 1 a queen placed, 2 one taken
    /// back, 3 a solution; line 0 column, 1 ↘ diagonal, 2 ↙ anti-diagonal, for a rejection);
    /// for all but a solution its `row` and `col`; how much `nodes`, `candidates` and
    /// `diagonal_checks` grew with it; and for the bitmask search's queens (placed or taken
    /// back) the squares its mask rejected with it: `2 × count + 1` and their one row where
    /// they share one (as they do), `2 × count` otherwise; then per square its `row` (only
    /// where they do not share one) and `line + 3 × col`. The attacking queen of a rejection
    /// is not written: it is the one queen on that line before the step.
    pub text: String,
    /// The steps encoded.
    pub steps: u64,
    /// The search ran to its end (it was not cut by the step limit).
    pub complete: bool,
    /// The counters at the end.
    pub counters: Counters,
    /// The narration of the end.
    pub end: String,
}

impl Moves {
    /// Appends `value` to [`Moves::text`].
    fn push(&mut self, mut value: u128) {
        while value >= 32 {
            self.text
                .push(char::from(DIGITS[32 + (value & 31) as usize]));
            value >>= 5;
        }
        self.text.push(char::from(DIGITS[value as usize]));
    }

    /// Appends the step `model` just took, the counters having been `before` at the step
    /// before it.
    fn push_step(&mut self, model: &Model, before: &Counters) {
        let line_code = |line: Line| match line {
            Line::Column => 0,
            Line::Diagonal => 1,
            Line::AntiDiagonal => 2,
        };
        let square = match model.step {
            Step::Reject { row, col, line, .. } => Some((4 * line_code(line), row, col)),
            Step::Place { row, col } => Some((1, row, col)),
            Step::Remove { row, col } => Some((2, row, col)),
            Step::Solution | Step::Start => None,
        };
        match square {
            Some((head, row, col)) => {
                self.push(head);
                self.push(row as u128);
                self.push(col as u128);
            }
            None => self.push(3),
        }
        let c = &model.counters;
        self.push(c.nodes - before.nodes);
        self.push(c.candidates - before.candidates);
        self.push(c.diagonal_checks - before.diagonal_checks);
        if model.by_queen() && matches!(model.step, Step::Place { .. } | Step::Remove { .. }) {
            let rejected = &model.rejected;
            let one_row = rejected.first().map(|first| first.row);
            let one_row = one_row.filter(|&row| rejected.iter().all(|r| r.row == row));
            self.push(2 * rejected.len() as u128 + u128::from(one_row.is_some()));
            if let Some(row) = one_row {
                self.push(row as u128);
            }
            for &Rejection { row, col, line, .. } in rejected {
                if one_row.is_none() {
                    self.push(row as u128);
                }
                self.push(line_code(line) + 3 * col as u128);
            }
        }
        self.steps += 1;
    }
}

/// The steps of `args`' search up to `max_steps` (0: every step), encoded.
pub fn moves(args: &Options, max_steps: u64) -> Result<Moves, Failure> {
    struct Encoder {
        model: Model,
        moves: Moves,
        /// The counters at the last step encoded.
        counted: Counters,
        limit: StepLimit,
    }
    impl Observer for Encoder {
        fn event(&mut self, event: Event) {
            if self.limit.cut() {
                return;
            }
            if self.model.apply(event) {
                self.moves.push_step(&self.model, &self.counted);
                self.counted = self.model.counters;
            }
        }
        fn stop(&self) -> bool {
            self.limit.stop(self.moves.steps, false)
        }
    }
    let mut encoder = Encoder {
        model: Model::new(args.n, args.algorithm),
        moves: Moves::default(),
        counted: Counters::default(),
        limit: StepLimit::new(max_steps),
    };
    args.algorithm.watch(args.n, &mut encoder)?;
    let Encoder {
        mut model,
        mut moves,
        limit,
        ..
    } = encoder;
    moves.complete = !limit.cut();
    model.finished = moves.complete;
    moves.counters = model.counters;
    moves.end = model.narration();
    Ok(moves)
}

/// The whole page.
fn page(args: &Options, moves: &Moves) -> String {
    let model = Model::new(args.n, args.algorithm);
    let c = &moves.counters;
    let data = json!({
        "n": args.n,
        "algorithm": args.algorithm.to_string(),
        "total": model.total.map(|t| t.to_string()),
        "complete": moves.complete,
        "start": model.narration(),
        "end": moves.end,
        "steps": moves.steps,
        "moves": moves.text,
        "final": [c.nodes, c.candidates, c.diagonal_checks, c.solutions],
        "speeds": SPEEDS,
        "speed": args.speed.unwrap_or(super::DEFAULT_SPEED),
        "sentences": crate::narration::SENTENCES
            .iter()
            .map(|(name, text)| (name.to_string(), json!(text)))
            .collect::<serde_json::Map<_, _>>(),
        "lines": crate::narration::lines(),
    });
    // `<` only occurs inside the JSON's strings, where \u003c means the same: no `</script>`.
    let data = data.to_string().replace('<', "\\u003c");
    let title = format!("nqueens watch {} -a {}", args.n, args.algorithm);
    TEMPLATE
        .replace("{{TITLE}}", &title)
        .replace("{{DATA}}", &data)
}

/// The page, with `{{TITLE}}` and `{{DATA}}` to fill.
const TEMPLATE: &str = include_str!("page.html");

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn watch_page_steps_are_bounded_by_the_most_a_page_holds() {
        assert_eq!(page_steps(0).unwrap(), PAGE_MAX_STEPS);
        assert_eq!(page_steps(17).unwrap(), 17);
        assert_eq!(page_steps(PAGE_MAX_STEPS).unwrap(), PAGE_MAX_STEPS);
        for asked in [PAGE_MAX_STEPS + 1, u64::MAX] {
            match page_steps(asked) {
                Err(Failure::Usage(text)) => {
                    assert!(text.contains(&PAGE_MAX_STEPS.to_string()), "{text}");
                    assert!(!text.contains('\n'), "{text}");
                }
                other => panic!("{asked}: {other:?}"),
            }
        }
    }

    /// Reads back the numbers of [`Moves::text`], as the page's script does.
    fn decode(text: &str) -> Vec<u128> {
        let mut numbers = Vec::new();
        let (mut value, mut shift) = (0u128, 0);
        for byte in text.bytes() {
            let digit = DIGITS.iter().position(|&d| d == byte).unwrap() as u128;
            value |= (digit & 31) << shift;
            if digit < 32 {
                numbers.push(value);
                (value, shift) = (0, 0);
            } else {
                shift += 5;
            }
        }
        assert_eq!(shift, 0, "a number cut short");
        numbers
    }

    #[test]
    fn moves_are_small_numbers_read_back_exactly() {
        let mut moves = Moves::default();
        let values = [0, 1, 31, 32, 63, 64, 1023, 1024, 123_456_789, u128::MAX];
        for value in values {
            moves.push(value);
        }
        assert_eq!(decode(&moves.text), values);
        // Below 32 a number is one digit.
        assert_eq!(moves.text.chars().next(), Some('A'));
    }
}
