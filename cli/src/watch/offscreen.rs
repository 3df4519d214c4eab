//! `watch --cast FILE` without a terminal (or with `--size`): the full-screen view drawn
//! off-screen at a given size, one frame per step, straight into the recording.
//!
//! Nothing waits: the search runs at full speed and each frame is stamped with the time the
//! view would have shown it, one step every 1/speed seconds (a solution held
//! [`SOLUTION_HOLD`] longer with `--pause-on-solution`). The recording ends with the search:
//! its last event is the end's frame (or the last step's, where `--max-steps` stopped it).

use std::cell::RefCell;
use std::collections::VecDeque;
use std::io::{self, Write};
use std::path::Path;
use std::rc::Rc;

use nqueens::classic::{Event, Observer};
use ratatui::backend::CrosstermBackend;
use ratatui::layout::Rect;
use ratatui::{Terminal, TerminalOptions, Viewport};

use super::StepLimit;
use super::cast::Recording;
use super::model::{Model, Step};
use super::screen::{self, View};
use crate::args::WatchArgs;
use crate::{Failure, Outcome, human, output};

/// The size of the view drawn off-screen unless `--size` says otherwise, in columns and lines.
pub const DEFAULT_SIZE: (u16, u16) = (80, 24);

/// How much longer a solution stays on view with `--pause-on-solution`, in seconds.
pub const SOLUTION_HOLD: f64 = 2.0;

/// Records `args`' search drawn off-screen on a `size` terminal into `path`, then says on
/// stderr where, how long and how big (unless `--quiet`).
pub fn record(args: &WatchArgs, path: &Path, size: (u16, u16)) -> Result<Outcome, Failure> {
    let (width, height) = size;
    let (n, algorithm) = (args.n as usize, args.algorithm);
    let (need_w, need_h) = screen::needed(n, algorithm);
    if need_w > width || need_h > height {
        let fits = match screen::largest_fitting(algorithm, width, height) {
            Some(m) => format!(", or record a board that fits it (at most {m} x {m})"),
            None => String::new(),
        };
        return Err(Failure::Usage(format!(
            "--size {width}x{height}: the {n} x {n} board with {algorithm} needs a view of at \
             least {need_w}x{need_h} (give --size {}x{}{fits})",
            need_w.max(width),
            need_h.max(height)
        )));
    }
    output::check_replaceable(path, "the recording")?;
    let recording = Rc::new(RefCell::new(Recording::new(format!(
        "nqueens watch {} -a {}",
        args.n, args.algorithm
    ))));
    recording.borrow_mut().start_at_steps(width, height);
    let backend = CrosstermBackend::new(Recorder(Rc::clone(&recording)));
    let terminal = Terminal::with_options(
        backend,
        TerminalOptions {
            viewport: Viewport::Fixed(Rect::new(0, 0, width, height)),
        },
    )?;
    let speed = args.speed.unwrap_or(super::DEFAULT_SPEED);
    let mut view = OffScreen {
        terminal,
        model: Model::new(args.n, args.algorithm),
        history: VecDeque::new(),
        keep: usize::from(height),
        recording: Rc::clone(&recording),
        speed,
        time: 0.0,
        pause_on_solution: args.pause_on_solution,
        limit: StepLimit::new(args.max_steps),
        error: None,
    };
    view.draw();
    algorithm.watch(args.n, &mut view)?;
    let complete = !view.limit.cut();
    if complete {
        // The end: one step's time after the last, as the view shows it before a key.
        let last = view.model.clone();
        view.history.push_back(last);
        view.model.finished = true;
        view.next(1.0 / speed);
    }
    if let Some(e) = view.error.take() {
        return Err(e.into());
    }
    let steps = view.model.steps;
    drop(view);
    let mut recording = recording.borrow_mut();
    recording.finish();
    let duration = recording.duration();
    let text = recording.take_asciicast();
    output::replace_files(&[(path, text.as_bytes())], "the recording")?;
    if !complete {
        output::message(format_args!(
            "nqueens: the recording stops after {} steps (--max-steps; 0 records every step)",
            args.max_steps
        ));
    }
    output::note(format_args!(
        "nqueens: wrote {} ({}, {} at {} steps/s, {})",
        crate::escape::text(&path.display().to_string()),
        human::plural(steps, "step"),
        human::clock(duration),
        screen::speed_text(speed),
        human::plural(text.len(), "byte")
    ));
    Ok(Outcome::Success)
}

/// The terminal's output off-screen: the recording, a frame at each flush.
struct Recorder(Rc<RefCell<Recording>>);

impl Write for Recorder {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.borrow_mut().write(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.0.borrow_mut().flush();
        Ok(())
    }
}

/// The observer that draws off-screen.
struct OffScreen {
    terminal: Terminal<CrosstermBackend<Recorder>>,
    /// The state of the search.
    model: Model,
    /// The last steps (for the log of recent steps), the newest at the back.
    history: VecDeque<Model>,
    /// Steps kept in `history`: as many as the view has lines.
    keep: usize,
    recording: Rc<RefCell<Recording>>,
    /// Steps per second.
    speed: f64,
    /// The time of the frame on view, in seconds since the start.
    time: f64,
    pause_on_solution: bool,
    /// `--max-steps`.
    limit: StepLimit,
    /// The first error drawing (which stops the search).
    error: Option<io::Error>,
}

impl OffScreen {
    /// Draws the state on view at the current time.
    fn draw(&mut self) {
        self.recording.borrow_mut().set_time(self.time);
        let view = View {
            model: &self.model,
            earlier: self.history.iter().rev(),
            back: 0,
            paused: self.model.finished,
            speed: self.speed,
            help: false,
        };
        if let Err(e) = self.terminal.draw(|frame| view.draw(frame)) {
            self.error.get_or_insert(e);
        }
    }

    /// Draws the state on view `wait` seconds after the frame before it.
    fn next(&mut self, wait: f64) {
        self.time += wait;
        self.draw();
    }
}

impl Observer for OffScreen {
    fn event(&mut self, event: Event) {
        if self.limit.cut() {
            return;
        }
        let previous = self.model.clone();
        if !self.model.apply(event) {
            return;
        }
        // A solution stays on view longer with --pause-on-solution.
        let held = if self.pause_on_solution && previous.step == Step::Solution {
            SOLUTION_HOLD
        } else {
            0.0
        };
        if self.history.len() == self.keep {
            self.history.pop_front();
        }
        self.history.push_back(previous);
        self.next(1.0 / self.speed + held);
    }

    fn stop(&self) -> bool {
        self.limit.stop(self.model.steps, self.error.is_some())
    }
}
