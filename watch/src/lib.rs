//! `nqueens watch`: a textbook search step by step, full screen (`screen`) or as text frames
//! and JSON lines for slides, scripts and tests; recorded (`cast`: on a terminal as shown,
//! elsewhere drawn off-screen by `offscreen`) or written as a page (`html`).
//!
//! The search is the library's own ([`Algorithm::watch`](nqueens::classic::Algorithm::watch)): each step reaches an observer here,
//! which updates the `Model` and shows it. Nothing of the algorithms is copied.
//!
//! The command parses `nqueens watch`'s arguments into [`Options`] and calls [`run`].

#![warn(missing_docs)]

mod cast;
mod delta;
mod html;
mod model;
mod narration;
mod offscreen;
mod screen;
mod view;

use std::cell::{Cell, RefCell};
use std::io::{self, IsTerminal, Write};
use std::rc::Rc;
use std::time::Duration;

use nqueens::classic::{Event, Observer};
use serde_json::json;

use model::{Model, Step};
use nqueens_ui::failure::{Failure, Outcome};
use nqueens_ui::output;
use screen::End;

/// What `nqueens watch` was asked to show, and how (its arguments, parsed and checked).
#[derive(Debug, Clone)]
pub struct Options {
    /// The board's size, 1 to 64.
    pub n: u32,
    /// The algorithm whose search is shown.
    pub algorithm: nqueens::classic::Algorithm,
    /// Steps per second (`--speed`), 0.1 to 1000; [`DEFAULT_SPEED`] on the screen and the page
    /// when none is given.
    pub speed: Option<f64>,
    /// Whether to pause at every solution.
    pub pause_on_solution: bool,
    /// Every step as a text frame instead of the full-screen view.
    pub frames: bool,
    /// Every step as a JSON line (`Some("json")`).
    pub format: Option<String>,
    /// The most steps of the frames, JSON, page or off-screen recording (`--limit`; 0: never).
    pub max_steps: Option<u64>,
    /// Where to record the view as an asciinema v2 file.
    pub cast: Option<std::path::PathBuf>,
    /// The size of the view recorded off-screen, columns by lines.
    pub size: Option<(u16, u16)>,
    /// Where to write the page that replays the search.
    pub html: Option<std::path::PathBuf>,
}

/// Steps per second on the screen unless `--speed` says otherwise.
pub const DEFAULT_SPEED: f64 = 5.0;

/// The most steps of the frames, JSON and page unless `--limit` says otherwise.
const DEFAULT_MAX_STEPS: u64 = 100_000;

/// How the steps are shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    Frames,
    Json,
}

/// Shows the search `args` asks for: on the screen, as frames or JSON lines on `out`, recorded
/// into a file or written as a page.
pub fn run(args: &Options, out: &mut dyn Write) -> Result<Outcome, Failure> {
    if let Some(path) = &args.html {
        return html::write(args, path);
    }
    let mode = if args.format.is_some() {
        Mode::Json
    } else {
        Mode::Frames
    };
    let on_terminal = io::stdout().is_terminal();
    if args.cast.is_some() {
        cast::cast_steps(args.max_steps, args.speed.unwrap_or(DEFAULT_SPEED))?;
    }
    if let Some(path) = &args.cast
        && (args.size.is_some() || !on_terminal)
    {
        let size = args.size.unwrap_or(offscreen::DEFAULT_SIZE);
        return offscreen::record(args, path, size);
    }
    if args.frames || args.format.is_some() || !on_terminal {
        return run_text(args, mode, out);
    }
    let recording = match &args.cast {
        Some(path) => {
            let stream = cast::Shared::new(output::Stream::create(path, "the recording")?);
            let title = format!("nqueens watch {} -a {}", args.n, args.algorithm);
            let recording = cast::Recording::new(title, Box::new(stream.clone()));
            Some((Rc::new(RefCell::new(recording)), stream))
        }
        None => None,
    };
    let shown = screen::run(
        args.n,
        args.algorithm,
        args.speed.unwrap_or(DEFAULT_SPEED),
        args.pause_on_solution,
        recording
            .as_ref()
            .map(|(recording, _)| Rc::clone(recording)),
    );
    // The recording of what was shown is kept even when the terminal failed (a hangup).
    if let (Some(path), Some((recording, stream))) = (&args.cast, recording) {
        // An interrupt from now on removes the recording's temporary file.
        nqueens_ui::signals::on_interrupt(output::quit_interrupted);
        let mut recording = recording.borrow_mut();
        recording.finish_into(path)?;
        let bytes = stream.take().expect("the recording's file").finish()?;
        output::note(format_args!(
            "nqueens: wrote {} ({}, {})",
            nqueens_ui::escape::text(&path.display().to_string()),
            nqueens_ui::human::clock(recording.duration()),
            nqueens_ui::human::plural(bytes, "byte")
        ));
    }
    match shown? {
        End::Quit => Ok(Outcome::Success),
        End::Interrupted => {
            output::message("nqueens: interrupted");
            Ok(Outcome::Interrupted)
        }
        End::QuitSignal => {
            output::message("nqueens: quit (SIGQUIT)");
            std::process::exit(131);
        }
    }
}

/// Writes every step of the search as a frame or a JSON line, up to `--limit`.
fn run_text(args: &Options, mode: Mode, out: &mut dyn Write) -> Result<Outcome, Failure> {
    let mut writer = TextWriter {
        model: Model::new(args.n, args.algorithm),
        mode,
        out,
        delay: args.speed.map(|s| Duration::from_secs_f64(1.0 / s)),
        error: None,
        limit: StepLimit::new(args.max_steps.unwrap_or(DEFAULT_MAX_STEPS)),
    };
    if mode == Mode::Frames {
        writer.show();
    }
    args.algorithm.watch(args.n, &mut writer)?;
    if let Some(e) = writer.error.take() {
        return Err(e.into());
    }
    let complete = !writer.limit.cut();
    writer.model.finished = complete;
    let model = &writer.model;
    match mode {
        Mode::Frames => {
            if complete {
                writeln!(writer.out, "{}", model.narration())?;
                writeln!(writer.out, "{}", counters_line(model))?;
            }
        }
        Mode::Json => {
            let mut line = counters_json(model);
            line["event"] = json!("done");
            line["complete"] = json!(complete);
            writeln!(writer.out, "{line}")?;
        }
    }
    if !complete {
        output::note(format_args!(
            "nqueens: stopped after {} steps (--limit; 0 shows every step)",
            args.max_steps.unwrap_or(DEFAULT_MAX_STEPS)
        ));
    }
    Ok(Outcome::Success)
}

/// The observer of the text modes.
struct TextWriter<'a> {
    model: Model,
    mode: Mode,
    out: &'a mut dyn Write,
    delay: Option<Duration>,
    error: Option<io::Error>,
    limit: StepLimit,
}

/// Where `--limit` stops a watched search, and whether something stopped it before its end.
struct StepLimit {
    /// The most steps (0: every step).
    max_steps: u64,
    /// The search was stopped before its end.
    cut: Cell<bool>,
}

impl StepLimit {
    /// At most `max_steps` steps (0: every step).
    fn new(max_steps: u64) -> StepLimit {
        StepLimit {
            max_steps,
            cut: Cell::new(false),
        }
    }

    /// Whether the search stops after `steps` steps, or because `failed` (an observer's
    /// `stop`); once it has stopped, it stays cut.
    fn stop(&self, steps: u64, failed: bool) -> bool {
        let stop = failed || (self.max_steps != 0 && steps >= self.max_steps);
        self.cut.set(self.cut.get() | stop);
        stop
    }

    /// Whether the search was stopped before its end: what it does then only unwinds it, and
    /// nothing of that is a step.
    fn cut(&self) -> bool {
        self.cut.get()
    }
}

impl TextWriter<'_> {
    /// Writes the current step; keeps the first write error (which stops the search).
    fn show(&mut self) {
        let text = match self.mode {
            Mode::Frames => frame(&self.model),
            Mode::Json => {
                let mut line = counters_json(&self.model);
                let fields = step_json(&self.model);
                for (key, value) in fields.as_object().into_iter().flatten() {
                    line[key] = value.clone();
                }
                format!("{line}\n")
            }
        };
        let written = self.out.write_all(text.as_bytes()).and_then(|()| {
            if self.delay.is_some() {
                self.out.flush()
            } else {
                Ok(())
            }
        });
        if let Err(e) = written {
            self.error.get_or_insert(e);
        }
        if let Some(delay) = self.delay {
            std::thread::sleep(delay);
        }
    }
}

impl Observer for TextWriter<'_> {
    fn event(&mut self, event: Event) {
        if !self.limit.cut() && self.model.apply(event) {
            self.show();
        }
    }

    fn stop(&self) -> bool {
        self.limit.stop(self.model.steps, self.error.is_some())
    }
}

/// The step's own fields for JSON: `event`, and `row`, `col`, `line`, `by` where they apply;
/// for a search whose steps are its queens (bitmask), `rejected`: the squares its masks
/// rejected with that step (`row`, `col`, `line`, `by` each); and `narration`, the sentence the
/// view shows.
fn step_json(model: &Model) -> serde_json::Value {
    let mut fields = match model.step {
        Step::Start => json!({ "event": "start" }),
        Step::Reject { row, col, line, by } => json!({
            "event": "reject", "row": row, "col": col, "line": line, "by": [by.0, by.1]
        }),
        Step::Place { row, col } => json!({ "event": "place", "row": row, "col": col }),
        Step::Remove { row, col } => json!({ "event": "backtrack", "row": row, "col": col }),
        Step::Solution => json!({ "event": "solution" }),
    };
    if model.by_queen() && matches!(model.step, Step::Place { .. } | Step::Remove { .. }) {
        let rejected: Vec<serde_json::Value> = model
            .rejected
            .iter()
            .map(|r| json!({ "row": r.row, "col": r.col, "line": r.line, "by": [r.by.0, r.by.1] }))
            .collect();
        fields["rejected"] = json!(rejected);
    }
    fields["narration"] = json!(model.narration());
    fields
}

/// The step number and compare's counters, under compare's JSON names.
fn counters_json(model: &Model) -> serde_json::Value {
    let c = &model.counters;
    json!({
        "step": model.steps,
        "algorithm": model.algorithm,
        "n": model.n,
        "nodes": c.nodes,
        "candidates": c.candidates,
        "diagonal_checks": c.diagonal_checks,
        "solutions": c.solutions,
    })
}

/// The counters on one line.
fn counters_line(model: &Model) -> String {
    let c = &model.counters;
    format!(
        "nodes {} | candidates {} | diagonal checks {} | {}",
        c.nodes,
        c.candidates,
        c.diagonal_checks,
        model.solution_of()
    )
}

/// One text frame: a header, the board, the narration, the counters and the data structure.
///
/// On the board `Q` is a queen, `x` a square a queen attacks, `.` a free one; the square of the
/// step is in brackets (`[x]` rejected, `[Q]` placed, `[ ]` taken back), the attacking queen in
/// angle brackets and the squares of its line between them are `*`.
pub fn frame(model: &Model) -> String {
    let n = model.n;
    let mut text = format!(
        "--- step {} · {} · {n} x {n}\n",
        model.steps, model.algorithm
    );
    text.push_str("   ");
    for c in 0..n {
        text.push_str(&format!(" {} ", c % 10));
    }
    text.push('\n');
    let line = model.attack_line();
    let attacker = match model.step {
        Step::Reject { by, .. } => Some(by),
        _ => None,
    };
    for r in 0..n {
        text.push_str(&format!("{:>2} ", r));
        for c in 0..n {
            let queen = model.queen(r) == Some(c);
            let mark = if queen {
                'Q'
            } else if line.contains(&(r, c)) {
                '*'
            } else if model.attacked(r, c) {
                'x'
            } else {
                '.'
            };
            let cell = if model.focus() == Some((r, c)) {
                match model.step {
                    Step::Remove { .. } => "[ ]".to_string(),
                    _ => format!("[{mark}]"),
                }
            } else if attacker == Some((r, c)) {
                format!("<{mark}>")
            } else {
                format!(" {mark} ")
            };
            text.push_str(&cell);
        }
        text.push('\n');
    }
    text.push_str(&model.narration());
    text.push('\n');
    text.push_str(&counters_line(model));
    text.push('\n');
    for line in model.structure() {
        text.push_str(&line);
        text.push('\n');
    }
    text
}
