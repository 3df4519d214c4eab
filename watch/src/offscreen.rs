//! `watch --cast FILE` without a terminal (or with `--size`): the full-screen view drawn
//! off-screen at a given size, one frame per step, straight into the recording.
//!
//! Nothing waits: the search runs at full speed and each frame is stamped with the time the
//! view would have shown it, one step every 1/speed seconds (a solution held
//! [`SOLUTION_HOLD`] longer with `--pause-on-solution`). The recording ends with the search:
//! its last event is the end's frame (or the last step's, where `--limit` or an interrupt
//! stopped it). The frames go to the file as they are made ([`output::Stream`]), each only what
//! changed on the screen ([`Delta`]); a recording that takes more than [`PROGRESS_AFTER`] shows
//! its progress on stderr.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::io::{self, Write};
use std::path::Path;
use std::rc::Rc;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use nqueens::classic::{Algorithm, Event, Observer};
use ratatui::layout::Rect;
use ratatui::{Terminal, TerminalOptions, Viewport};

use super::StepLimit;
use super::cast::{self, Recording};
use super::delta::Delta;
use super::model::{Model, Step};
use super::view::{self, View};
use crate::Options;
use nqueens_ui::failure::{Failure, Outcome};
use nqueens_ui::progress::Steps;
use nqueens_ui::{human, output};

/// How long a recording works before its progress is shown on stderr.
pub const PROGRESS_AFTER: Duration = Duration::from_secs(2);

/// The size of the view drawn off-screen unless `--size` says otherwise, in columns and lines.
pub const DEFAULT_SIZE: (u16, u16) = (80, 24);

/// How much longer a solution stays on view with `--pause-on-solution`, in seconds.
pub const SOLUTION_HOLD: f64 = 2.0;

/// Records `args`' search drawn off-screen on a `size` terminal into `path`, then says on
/// stderr where, how long and how big (unless `--quiet`).
pub fn record(args: &Options, path: &Path, size: (u16, u16)) -> Result<Outcome, Failure> {
    let height = size.1;
    let algorithm = args.algorithm;
    refuse_unfit(args.n as usize, algorithm, size)?;
    let speed = args.speed.unwrap_or(super::DEFAULT_SPEED);
    let max_steps = cast::cast_steps(args.max_steps, speed)?;
    let stream = cast::Shared::new(output::Stream::create(path, "the recording")?);
    let interrupted = stop_on_interrupt();
    let recording = Rc::new(RefCell::new(Recording::new(
        format!("nqueens watch {} -a {}", args.n, args.algorithm),
        Box::new(stream.clone()),
    )));
    let terminal = recording_terminal(&recording, size)?;
    let label = format!(
        "recording {}",
        nqueens_ui::escape::text(&path.display().to_string())
    );
    let mut view = OffScreen {
        terminal,
        model: Model::new(args.n, args.algorithm),
        history: VecDeque::new(),
        keep: usize::from(height),
        recording: Rc::clone(&recording),
        speed,
        time: 0.0,
        pause_on_solution: args.pause_on_solution,
        limit: StepLimit::new(max_steps),
        interrupted: Arc::clone(&interrupted),
        progress: Progress {
            label,
            of: max_steps,
            started: Instant::now(),
            shown: None,
        },
        error: None,
    };
    view.draw();
    algorithm.watch(args.n, &mut view)?;
    let stopped = interrupted.load(Ordering::SeqCst);
    let complete = !view.limit.cut();
    if complete {
        view.end();
    }
    if let Some(e) = view.error.take() {
        return Err(e.into());
    }
    let steps = view.model.steps;
    view.progress.finish();
    drop(view);
    let mut recording = recording.borrow_mut();
    recording.finish_into(path)?;
    let duration = recording.duration();
    let bytes = stream.take().expect("the recording's file").finish()?;
    if stopped {
        output::message(format_args!(
            "nqueens: the recording stops after {} (interrupted)",
            human::plural(steps, "step")
        ));
    } else if !complete {
        say_cut(args.max_steps, max_steps, speed);
    }
    output::note(format_args!(
        "nqueens: wrote {} ({}, {} at {} steps/s, {})",
        nqueens_ui::escape::text(&path.display().to_string()),
        human::plural(steps, "step"),
        human::clock(duration),
        view::speed_text(speed),
        human::plural(bytes, "byte")
    ));
    if stopped {
        output::message("nqueens: interrupted");
        return Ok(Outcome::Interrupted);
    }
    Ok(Outcome::Success)
}

/// A terminal of `size` (columns, lines) drawn into `recording` from its first step on, each
/// frame only what changed ([`Delta`]).
fn recording_terminal(
    recording: &Rc<RefCell<Recording>>,
    size: (u16, u16),
) -> io::Result<Terminal<Delta<Recorder>>> {
    let (width, height) = size;
    recording.borrow_mut().start_at_steps(width, height);
    let backend = Delta::new(Recorder(Rc::clone(recording)), width, height);
    Terminal::with_options(
        backend,
        TerminalOptions {
            viewport: Viewport::Fixed(Rect::new(0, 0, width, height)),
        },
    )
}

/// Refuses a view of `size` (columns, lines) too small for the `n`-board with `algorithm`,
/// naming the size it needs and the largest board that fits.
fn refuse_unfit(n: usize, algorithm: Algorithm, size: (u16, u16)) -> Result<(), Failure> {
    let (width, height) = size;
    let (need_w, need_h) = view::needed(n, algorithm);
    if need_w > width || need_h > height {
        let fits = match view::largest_fitting(algorithm, width, height) {
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
    Ok(())
}

/// The flag the first interrupt raises: it stops the search and keeps what was recorded; a
/// second one ends the process at once (the file is then removed).
fn stop_on_interrupt() -> Arc<AtomicBool> {
    let interrupted = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&interrupted);
    nqueens_ui::signals::on_interrupt(move || {
        if flag.swap(true, Ordering::SeqCst) {
            output::quit_interrupted();
        }
    });
    interrupted
}

/// Says on stderr that the recording stopped at `max_steps` (`--limit`, given as `limit` or
/// not) before the search's end, at `speed` steps per second.
fn say_cut(limit: Option<u64>, max_steps: u64, speed: f64) {
    let why = match limit {
        None => format!(
            "{} of replay at {} steps/s; --limit N records more, 0 up to {}",
            human::clock(cast::DEFAULT_REPLAY_SECONDS),
            view::speed_text(speed),
            cast::CAST_MAX_STEPS
        ),
        Some(_) => format!(
            "--limit; a recording holds at most {}",
            cast::CAST_MAX_STEPS
        ),
    };
    output::message(format_args!(
        "nqueens: the recording stops after {max_steps} steps ({why})"
    ));
}

/// The progress of a recording on stderr, shown once it has worked [`PROGRESS_AFTER`].
struct Progress {
    /// What the line names.
    label: String,
    /// The most steps recorded.
    of: u64,
    /// When the recording started.
    started: Instant,
    /// The bar (or plain lines), once shown.
    shown: Option<Steps>,
}

impl Progress {
    /// `steps` are recorded.
    fn update(&mut self, steps: u64) {
        if !steps.is_multiple_of(256) {
            return;
        }
        if self.shown.is_none() && self.started.elapsed() >= PROGRESS_AFTER {
            self.shown = Some(Steps::logged(&self.label, self.of, "step"));
        }
        if let Some(bar) = &self.shown {
            bar.set(steps, self.of);
        }
    }

    /// Removes the bar and stops the lines.
    fn finish(&mut self) {
        if let Some(bar) = self.shown.take() {
            bar.finish();
        }
    }
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
    terminal: Terminal<Delta<Recorder>>,
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
    /// `--limit`, or the bound of a recording.
    limit: StepLimit,
    /// Raised by an interrupt: the search stops there.
    interrupted: Arc<AtomicBool>,
    /// The progress on stderr.
    progress: Progress,
    /// The first error drawing (which stops the search).
    error: Option<io::Error>,
}

impl OffScreen {
    /// Draws the search's end: one step's time after the last, as the view shows it before a
    /// key.
    fn end(&mut self) {
        let last = self.model.clone();
        self.history.push_back(last);
        self.model.finished = true;
        self.next(1.0 / self.speed);
    }

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
        self.progress.update(self.model.steps);
    }

    fn stop(&self) -> bool {
        let failed = self.error.is_some()
            || self.interrupted.load(Ordering::Relaxed)
            || self.recording.borrow().failed();
        self.limit.stop(self.model.steps, failed)
    }
}
