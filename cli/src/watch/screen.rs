//! The full-screen view (ratatui on crossterm): the board, the data structure, the narration,
//! the counters, a log of the recent steps and a legend, redrawn at every step; the keys steer
//! the search.
//!
//! The search runs on this thread and calls the [`Screen`] at every event; the screen draws and
//! waits (for the next tick, a key, or for ever while paused) before returning to the search.
//! Stepping back shows the bounded history of earlier steps; a restart or quit makes
//! [`Observer::stop`] end the search. The terminal is restored by a guard on every way out: the
//! guard's drop (quit, an error), Ctrl-C (a key in raw mode), SIGINT, SIGTERM and SIGHUP (a flag
//! read between keys; exit 130), SIGQUIT (exit 131), and a panic (a hook that restores it before
//! the message). SIGTSTP (or Ctrl-Z) gives the terminal back while the process is stopped, and
//! SIGCONT takes it again and redraws.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::io::{self, Write};
use std::rc::Rc;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crossterm::event::{self, Event as TermEvent, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use crossterm::terminal::ClearType;
use crossterm::{cursor, execute, terminal};
use nqueens::classic::{Algorithm, Event, Observer};
use ratatui::backend::CrosstermBackend;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line as TextLine, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};
use ratatui::{Terminal, TerminalOptions, Viewport};

use super::cast::Recording;
use super::model::{Model, Step};
use crate::failure::Failure;

/// Steps kept for stepping back.
const HISTORY: usize = 2000;

/// The longest wait between two looks at the signal flags.
const TICK: Duration = Duration::from_millis(50);

/// The speeds `+` and `-` move between, in steps per second.
pub const SPEEDS: [f64; 13] = [
    0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0, 20.0, 50.0, 100.0, 200.0, 500.0, 1000.0,
];

/// The next speed of [`SPEEDS`] above `speed` (the fastest at the top).
pub fn faster(speed: f64) -> f64 {
    SPEEDS
        .into_iter()
        .find(|&s| s > speed)
        .unwrap_or(SPEEDS[SPEEDS.len() - 1])
}

/// The next speed of [`SPEEDS`] below `speed` (the slowest at the bottom).
pub fn slower(speed: f64) -> f64 {
    SPEEDS
        .into_iter()
        .rev()
        .find(|&s| s < speed)
        .unwrap_or(SPEEDS[0])
}

/// What a key asks of the wait between steps.
enum Press {
    /// Go on with the search (its next step, or the run to the next solution).
    Go,
    /// Draw the view again.
    Redraw,
    /// Nothing: the key means nothing here.
    Nothing,
}

/// What ended a search early.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Action {
    Quit,
    Restart(Algorithm),
}

/// How the view ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum End {
    /// `q` or Esc.
    Quit,
    /// Ctrl-C, SIGINT, SIGTERM or SIGHUP (exit 130).
    Interrupted,
    /// SIGQUIT (exit 131).
    QuitSignal,
}

/// The widest the view draws, in columns: a wider terminal shows it at its left.
pub const MAX_WIDTH: u16 = 1000;

/// The tallest the view draws, in lines: a taller terminal shows it at its top.
pub const MAX_HEIGHT: u16 = 400;

/// The area the view draws in on a `width` × `height` terminal: the whole of it, up to
/// [`MAX_WIDTH`] × [`MAX_HEIGHT`] (a terminal can claim 65535 × 65535, and the view keeps two
/// buffers of its size).
pub fn drawable(width: u16, height: u16) -> Rect {
    Rect::new(0, 0, width.min(MAX_WIDTH), height.min(MAX_HEIGHT))
}

/// Clears the screen and fits the view to the terminal's size, as [`drawable`] bounds it. The
/// terminal is not asked where its cursor is (one that does not answer would hold the view
/// for seconds).
fn fit(terminal: &mut Terminal<CrosstermBackend<Tee>>) -> io::Result<()> {
    let (width, height) = terminal::size()?;
    execute!(terminal.backend_mut(), terminal::Clear(ClearType::All))?;
    terminal.resize(drawable(width, height))
}

/// Puts the terminal back as it was: raw mode off, the main screen, the cursor shown.
fn restore() {
    let _ = terminal::disable_raw_mode();
    let _ = execute!(io::stdout(), terminal::LeaveAlternateScreen, cursor::Show);
}

/// Takes the terminal: raw mode, the alternate screen, the cursor hidden.
fn take_terminal() -> io::Result<()> {
    terminal::enable_raw_mode()?;
    execute!(io::stdout(), terminal::EnterAlternateScreen, cursor::Hide)
}

/// Restores the terminal when dropped.
struct Guard;

impl Drop for Guard {
    fn drop(&mut self) {
        restore();
    }
}

/// The flags the signals set, read by the view between keys.
#[derive(Clone, Default)]
struct Flags {
    /// SIGINT, SIGTERM or SIGHUP.
    interrupted: Arc<AtomicBool>,
    /// The view has seen the interrupt and is ending by itself.
    ending: Arc<AtomicBool>,
    /// SIGTSTP: give the terminal back and stop.
    suspend: Arc<AtomicBool>,
    /// SIGCONT: take the terminal again.
    resumed: Arc<AtomicBool>,
    /// SIGQUIT.
    quit: Arc<AtomicBool>,
}

impl Flags {
    /// Sets the flags on their signals.
    fn install(&self) {
        let interrupted = Arc::clone(&self.interrupted);
        let ending = Arc::clone(&self.ending);
        // SIGINT, SIGTERM and SIGHUP (Ctrl-C itself is a key in raw mode) end the view cleanly.
        // The main thread can be stuck where it cannot see the flag: in a terminal read that
        // never returns when the terminal is gone (a hangup), holding the terminal's locks, or
        // waiting for the answer of a terminal that does not answer. If it has not seen the flag
        // within half a second, leave from here, restoring the terminal first (on a thread of
        // its own, not waited for beyond another half second, in case its locks are held).
        crate::signals::on_interrupt(move || {
            interrupted.store(true, Ordering::SeqCst);
            std::thread::sleep(Duration::from_millis(500));
            if !ending.load(Ordering::SeqCst) {
                let (done, restored) = std::sync::mpsc::channel();
                let started = std::thread::Builder::new().spawn(move || {
                    restore();
                    let _ = io::stdout().flush();
                    let _ = done.send(());
                });
                if started.is_ok() {
                    let _ = restored.recv_timeout(Duration::from_millis(500));
                }
                crate::output::message("nqueens: interrupted");
                std::process::exit(130);
            }
        });
        #[cfg(unix)]
        {
            use signal_hook::consts::{SIGCONT, SIGQUIT, SIGTSTP};
            for (signal, flag) in [
                (SIGTSTP, &self.suspend),
                (SIGCONT, &self.resumed),
                (SIGQUIT, &self.quit),
            ] {
                // A stop or quit ignored at the start (a background job of a script) stays
                // ignored; SIGCONT continues the process whatever its handler.
                if signal == SIGCONT || !crate::signals::ignored(signal) {
                    let _ = signal_hook::flag::register(signal, Arc::clone(flag));
                }
            }
        }
    }
}

/// Stops the process (as SIGTSTP would have) until SIGCONT.
fn stop_process() {
    #[cfg(unix)]
    {
        let _ = signal_hook::low_level::raise(signal_hook::consts::SIGSTOP);
    }
}

/// Runs the full-screen view until the user quits; with `recording`, every byte drawn is also
/// recorded with its time.
pub fn run(
    n: u32,
    algorithm: Algorithm,
    speed: f64,
    pause_on_solution: bool,
    recording: Option<Rc<RefCell<Recording>>>,
) -> Result<End, Failure> {
    let flags = Flags::default();
    flags.install();
    restore_on_panic();
    take_terminal()?;
    let guard = Guard;
    let terminal = full_screen(&recording)?;
    let mut screen = Screen {
        terminal,
        model: Model::new(n, algorithm),
        history: VecDeque::new(),
        back: 0,
        paused: false,
        speed,
        pause_on_solution,
        to_solution: false,
        help: false,
        action: None,
        end: End::Quit,
        flags: flags.clone(),
        error: None,
    };
    let mut algorithm = algorithm;
    let searching = |running: bool| {
        if let Some(recording) = &recording {
            recording.borrow_mut().set_searching(running);
        }
    };
    loop {
        screen.reset(n, algorithm);
        searching(true);
        algorithm.watch(n, &mut screen)?;
        if let Some(e) = screen.error.take() {
            return Err(e.into());
        }
        let action = match screen.action.take() {
            Some(action) => action,
            None => {
                screen.model.finished = true;
                screen.paused = true;
                screen.history.push_back(screen.model.clone());
                // What follows the end's frame is looked at, not the search: not recorded
                // beyond a short wait.
                searching(false);
                screen.wait();
                if let Some(e) = screen.error.take() {
                    return Err(e.into());
                }
                screen.action.take().unwrap_or(Action::Quit)
            }
        };
        match action {
            Action::Quit => break,
            Action::Restart(next) => algorithm = next,
        }
    }
    let end = screen.end;
    drop(screen);
    drop(guard);
    if let Some(recording) = &recording {
        recording.borrow_mut().finish();
    }
    io::stdout().flush()?;
    Ok(end)
}

/// Restores the terminal before a panic's message is printed.
fn restore_on_panic() {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        restore();
        previous(info);
    }));
}

/// The terminal the view draws on, taken: as much of it as is drawn ([`drawable`]), each byte
/// also written to `recording` when there is one (which starts at that size).
fn full_screen(
    recording: &Option<Rc<RefCell<Recording>>>,
) -> io::Result<Terminal<CrosstermBackend<Tee>>> {
    let backend = CrosstermBackend::new(Tee {
        out: io::stdout(),
        recording: recording.clone(),
    });
    let (width, height) = terminal::size()?;
    let area = drawable(width, height);
    let mut terminal = Terminal::with_options(
        backend,
        TerminalOptions {
            viewport: Viewport::Fixed(area),
        },
    )?;
    if let Some(recording) = recording {
        recording.borrow_mut().start(area.width, area.height);
    }
    fit(&mut terminal)?;
    Ok(terminal)
}

/// The terminal's output: standard output, and the recording when there is one (a frame at
/// each flush, as the terminal shows it).
struct Tee {
    out: io::Stdout,
    recording: Option<Rc<RefCell<Recording>>>,
}

impl Write for Tee {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let written = self.out.write(buf)?;
        if let Some(recording) = &self.recording {
            recording.borrow_mut().write(&buf[..written]);
        }
        Ok(written)
    }

    fn flush(&mut self) -> io::Result<()> {
        if let Some(recording) = &self.recording {
            recording.borrow_mut().flush();
        }
        self.out.flush()
    }
}

/// The observer that draws.
struct Screen {
    terminal: Terminal<CrosstermBackend<Tee>>,
    /// The live state of the search.
    model: Model,
    /// The last steps, the newest at the back.
    history: VecDeque<Model>,
    /// How many steps back from the newest the view is.
    back: usize,
    paused: bool,
    speed: f64,
    pause_on_solution: bool,
    /// Running without drawing to the next solution.
    to_solution: bool,
    help: bool,
    action: Option<Action>,
    /// How the view ends once `action` is a quit.
    end: End,
    flags: Flags,
    error: Option<io::Error>,
}

impl Screen {
    fn reset(&mut self, n: u32, algorithm: Algorithm) {
        self.model = Model::new(n, algorithm);
        self.history.clear();
        self.history.push_back(self.model.clone());
        self.back = 0;
        self.to_solution = false;
    }

    /// The index in the history of the state on view.
    fn shown_index(&self) -> usize {
        let newest = self.history.len() - 1;
        newest - self.back.min(newest)
    }

    fn draw(&mut self) {
        let at = self.shown_index();
        let view = View {
            model: &self.history[at],
            earlier: self.history.range(..at).rev(),
            back: self.back,
            paused: self.paused,
            speed: self.speed,
            help: self.help,
        };
        let drawn = self.terminal.draw(|frame| view.draw(frame));
        if let Err(e) = drawn {
            self.error.get_or_insert(e);
            self.action = Some(Action::Quit);
        }
    }

    /// Ends the view for `end`.
    fn end(&mut self, end: End) {
        self.end = end;
        self.action = Some(Action::Quit);
    }

    /// Reacts to the signal flags; returns whether the screen must be drawn again.
    fn signals(&mut self) -> bool {
        if self.flags.interrupted.load(Ordering::SeqCst) {
            self.flags.ending.store(true, Ordering::SeqCst);
            self.end(End::Interrupted);
        }
        if self.flags.quit.swap(false, Ordering::SeqCst) {
            self.end(End::QuitSignal);
        }
        let mut redraw = false;
        if self.flags.suspend.swap(false, Ordering::SeqCst) {
            self.suspend();
            redraw = true;
        }
        if self.flags.resumed.swap(false, Ordering::SeqCst) {
            redraw |= self.take_back();
        }
        redraw
    }

    /// Gives the terminal back, stops until continued, then takes it again.
    fn suspend(&mut self) {
        restore();
        let _ = io::stdout().flush();
        stop_process();
        self.flags.resumed.store(false, Ordering::SeqCst);
        self.take_back();
    }

    /// Takes the terminal again after a stop, for a full redraw; false on an error (kept).
    fn take_back(&mut self) -> bool {
        let taken = take_terminal().and_then(|()| fit(&mut self.terminal));
        match taken {
            Ok(()) => true,
            Err(e) => {
                self.error.get_or_insert(e);
                self.action = Some(Action::Quit);
                false
            }
        }
    }

    /// Shows the current step and waits until the search should go on (or stop).
    fn wait(&mut self) {
        let mut deadline = Instant::now() + Duration::from_secs_f64(1.0 / self.speed);
        let mut dirty = true;
        loop {
            dirty |= self.signals();
            if self.action.is_some() {
                return;
            }
            if dirty {
                self.draw();
                dirty = false;
            }
            // The help overlay holds the search while it is on view.
            let running = !self.paused && self.back == 0 && !self.help;
            let now = Instant::now();
            if running && now >= deadline {
                return;
            }
            let timeout = if running {
                (deadline - now).min(TICK)
            } else {
                TICK
            };
            let Some(key) = self.next_key(timeout, &mut dirty) else {
                continue;
            };
            match self.press(key, &mut deadline) {
                Press::Go => return,
                Press::Redraw => dirty = true,
                Press::Nothing => {}
            }
        }
    }

    /// The next key pressed within `timeout`, if any. A resize fits the view to the terminal
    /// again (and sets `dirty`); a failed read ends the view, its error kept.
    fn next_key(&mut self, timeout: Duration, dirty: &mut bool) -> Option<KeyEvent> {
        let read = match event::poll(timeout) {
            Ok(true) => event::read(),
            Ok(false) => return None,
            Err(e) => Err(e),
        };
        match read {
            Ok(TermEvent::Key(key)) if key.kind != KeyEventKind::Release => Some(key),
            Ok(TermEvent::Resize(..)) => {
                let _ = fit(&mut self.terminal);
                *dirty = true;
                None
            }
            Ok(_) => None,
            Err(e) => {
                self.error.get_or_insert(e);
                self.action = Some(Action::Quit);
                None
            }
        }
    }

    /// Does what `key` asks; `deadline` is when the search takes its next step.
    fn press(&mut self, key: KeyEvent, deadline: &mut Instant) -> Press {
        let finished = self.model.finished;
        let control = key.modifiers.contains(KeyModifiers::CONTROL);
        match key.code {
            KeyCode::Char('c') if control => self.end(End::Interrupted),
            KeyCode::Char('z') if control => self.suspend(),
            // Esc closes the help overlay first; q always quits.
            KeyCode::Esc if self.help => self.help = false,
            KeyCode::Char('q') | KeyCode::Esc => self.end(End::Quit),
            KeyCode::Char(' ') => {
                self.paused = !self.paused;
                *deadline = Instant::now();
            }
            KeyCode::Right | KeyCode::Char('n') => {
                self.paused = true;
                if self.back > 0 {
                    self.back -= 1;
                } else if !finished {
                    return Press::Go;
                }
            }
            KeyCode::Left | KeyCode::Char('b') => {
                self.paused = true;
                self.back = (self.back + 1).min(self.history.len() - 1);
            }
            KeyCode::Char('+') | KeyCode::Char('=') => self.speed = faster(self.speed),
            KeyCode::Char('-') => self.speed = slower(self.speed),
            KeyCode::Char('s') if !finished => {
                self.back = 0;
                self.to_solution = true;
                return Press::Go;
            }
            KeyCode::Char('a') => {
                let all = Algorithm::ALL;
                let i = all
                    .iter()
                    .position(|&a| a == self.model.algorithm)
                    .unwrap_or(0);
                self.action = Some(Action::Restart(all[(i + 1) % all.len()]));
            }
            KeyCode::Char('r') => self.action = Some(Action::Restart(self.model.algorithm)),
            KeyCode::Char('?') | KeyCode::Char('h') => {
                self.help = !self.help;
                // The search goes on from now, not from before the overlay.
                *deadline = Instant::now() + Duration::from_secs_f64(1.0 / self.speed);
            }
            _ => return Press::Nothing,
        }
        Press::Redraw
    }
}

impl Observer for Screen {
    fn event(&mut self, event: Event) {
        if self.action.is_some() || !self.model.apply(event) {
            return;
        }
        if self.history.len() == HISTORY {
            self.history.pop_front();
        }
        self.history.push_back(self.model.clone());
        let solution = self.model.step == Step::Solution;
        if self.to_solution {
            if !solution {
                // Look at the signal flags now and then while running ahead.
                if self.model.steps.is_multiple_of(4096) {
                    self.signals();
                }
                return;
            }
            self.to_solution = false;
            self.paused = true;
        } else if solution && self.pause_on_solution {
            self.paused = true;
        }
        self.wait();
    }

    fn stop(&self) -> bool {
        self.action.is_some()
    }
}

/// The text of a speed: `0.1`, `4`, `1000`.
pub fn speed_text(speed: f64) -> String {
    format!("{speed}")
}

/// Columns of the data panel for the `n × n` board and `algorithm`, borders included: its
/// widest line.
fn data_width(n: usize, algorithm: Algorithm) -> usize {
    let digits = n.saturating_sub(1).max(1).to_string().len();
    let cells = n * (digits + 1);
    let widest = match algorithm {
        Algorithm::Matrix => (3 + cells).max(38),
        Algorithm::Array => (8 + cells).max(40),
        Algorithm::Attack => 17 + 2 * (2 * n - 1),
        Algorithm::Bitmask => 9 + cells + 28,
        _ => 0,
    };
    widest.max(28) + 2
}

/// Lines of the data panel, borders included: the structure and the five counters.
fn data_height(n: usize, algorithm: Algorithm) -> usize {
    let structure = match algorithm {
        Algorithm::Matrix => n + 2,
        Algorithm::Array => 4,
        Algorithm::Attack => 5 + usize::from(2 * n - 1 > 10),
        Algorithm::Bitmask => 7,
        _ => 0,
    };
    structure + 1 + 5 + 2
}

/// Lines below the main panels: the narration box (4), the legend and the keys.
const BELOW: usize = 6;

/// The board panel's size with cells `scale` lines high and `2 × scale` columns wide, borders,
/// the column ruler and the row numbers included, at least as wide as its title.
fn board_size(n: usize, algorithm: Algorithm, scale: usize) -> (usize, usize) {
    let title = board_title(n, algorithm).chars().count() + 2;
    ((3 + 2 * scale * n + 2).max(title), scale * n + 1 + 2)
}

/// The board panel's title: ` bitmask · 8 x 8 `.
fn board_title(n: usize, algorithm: Algorithm) -> String {
    format!(" {algorithm} · {n} x {n} ")
}

/// The narrowest view: the legend and the keys take one line each.
const MIN_WIDTH: usize = 80;

/// Columns and rows the view needs for the `n × n` board and `algorithm` (cells of one line).
pub fn needed(n: usize, algorithm: Algorithm) -> (u16, u16) {
    let (board_w, board_h) = board_size(n, algorithm, 1);
    let w = (board_w + data_width(n, algorithm)).max(MIN_WIDTH);
    let h = board_h.max(data_height(n, algorithm)) + BELOW;
    (
        w.min(u16::MAX as usize) as u16,
        h.min(u16::MAX as usize) as u16,
    )
}

/// The largest board of `algorithm` that fits a `width × height` terminal.
pub fn largest_fitting(algorithm: Algorithm, width: u16, height: u16) -> Option<usize> {
    (1..=nqueens::Plan::MAX_N as usize).rev().find(|&n| {
        let (w, h) = needed(n, algorithm);
        w <= width && h <= height
    })
}

/// The largest cell scale at which the board fits beside the data panel in `main`.
fn scale_for(n: usize, algorithm: Algorithm, main: Rect) -> usize {
    let room_w = (main.width as usize).saturating_sub(data_width(n, algorithm));
    (1..=16)
        .rev()
        .find(|&k| {
            let (w, h) = board_size(n, algorithm, k);
            w <= room_w && h <= main.height as usize
        })
        .unwrap_or(1)
}

/// What one frame shows.
pub struct View<'a, I> {
    /// The state on view.
    pub model: &'a Model,
    /// The states before it, newest first (for the log).
    pub earlier: I,
    /// How many steps back from the newest the view is.
    pub back: usize,
    /// The search waits for a key.
    pub paused: bool,
    /// Steps per second.
    pub speed: f64,
    /// The keys' help is open.
    pub help: bool,
}

impl<'a, I: Iterator<Item = &'a Model> + Clone> View<'a, I> {
    /// Draws the view on the whole of `frame`.
    pub fn draw(&self, frame: &mut ratatui::Frame) {
        let area = frame.area();
        let model = self.model;
        let (n, algorithm) = (model.n, model.algorithm);
        let (need_w, need_h) = needed(n, algorithm);
        if area.width < need_w || area.height < need_h {
            frame.render_widget(
                Paragraph::new(too_small(n, algorithm, area)).wrap(Wrap { trim: true }),
                area,
            );
            return;
        }
        let [main, narration, legend, keys] = Layout::vertical([
            Constraint::Min(0),
            Constraint::Length(4),
            Constraint::Length(1),
            Constraint::Length(1),
        ])
        .areas(area);
        let scale = scale_for(n, algorithm, main);
        let (board_w, _) = board_size(n, algorithm, scale);
        let [board_area, right] =
            Layout::horizontal([Constraint::Length(board_w as u16), Constraint::Min(0)])
                .areas(main);
        frame.render_widget(
            Paragraph::new(board_lines(model, scale)).block(
                Block::default()
                    .borders(Borders::ALL)
                    .title(board_title(n, algorithm)),
            ),
            board_area,
        );
        self.draw_panels(frame, right);
        self.draw_narration(frame, narration);
        debug_assert!(legend_line().width() <= MIN_WIDTH);
        frame.render_widget(Paragraph::new(legend_line()), legend);
        frame.render_widget(
            Paragraph::new(
                "space pause  n/b step/back  +/- speed  s solution  a algorithm  ? keys  q quit",
            ),
            keys,
        );
        if self.help {
            draw_help(frame, area);
        }
    }

    /// Draws the data panel into `right`, and the log of recent steps where there is room:
    /// beside it, or below.
    fn draw_panels(&self, frame: &mut ratatui::Frame, right: Rect) {
        let model = self.model;
        let (n, algorithm) = (model.n, model.algorithm);
        let data_w = data_width(n, algorithm) as u16;
        let data_h = data_height(n, algorithm) as u16;
        let (data_area, log_area) = if right.width >= data_w + 26 {
            let [data, log] =
                Layout::horizontal([Constraint::Length(data_w), Constraint::Min(0)]).areas(right);
            (data, Some(log))
        } else if right.height >= data_h + 5 {
            let [data, log] =
                Layout::vertical([Constraint::Length(data_h), Constraint::Min(0)]).areas(right);
            (data, Some(log))
        } else {
            (right, None)
        };
        frame.render_widget(
            Paragraph::new(data_lines(model))
                .block(Block::default().borders(Borders::ALL).title(" data ")),
            data_area,
        );
        if let Some(log_area) = log_area {
            let rows = log_area.height.saturating_sub(2) as usize;
            let mut lines: Vec<TextLine> = std::iter::once(model)
                .chain(self.earlier.clone())
                .take(rows)
                .map(|m| TextLine::from(format!("{:>6} {}", m.steps, m.summary())))
                .collect();
            lines.reverse();
            frame.render_widget(
                Paragraph::new(lines).block(
                    Block::default()
                        .borders(Borders::ALL)
                        .title(" recent steps "),
                ),
                log_area,
            );
        }
    }

    /// Draws the narration of the step into `area`, titled with the state of the search.
    fn draw_narration(&self, frame: &mut ratatui::Frame, area: Rect) {
        let model = self.model;
        let state = if model.finished {
            "finished".to_string()
        } else if self.back > 0 {
            format!("{} back", crate::human::plural(self.back, "step"))
        } else if self.paused {
            "paused".to_string()
        } else {
            format!("{} steps/s", speed_text(self.speed))
        };
        frame.render_widget(
            Paragraph::new(model.narration())
                .wrap(Wrap { trim: true })
                .block(
                    Block::default()
                        .borders(Borders::ALL)
                        .title(format!(" {state} ")),
                ),
            area,
        );
    }
}

/// Draws the keys' help in a box in the middle of `area`.
fn draw_help(frame: &mut ratatui::Frame, area: Rect) {
    let text = "space  pause / resume\nn, →   one step\nb, ←   one step back\n\
                + -    faster / slower (0.1 to 1000 steps/s)\n\
                s      run to the next solution\na      next algorithm (restart)\n\
                r      restart\n?      this help (holds the search; ? or Esc closes)\n\
                Ctrl-Z suspend (fg resumes)\nq      quit";
    let box_area = centered(area, 56, 12);
    frame.render_widget(Clear, box_area);
    frame.render_widget(
        Paragraph::new(text).block(Block::default().borders(Borders::ALL).title(" keys ")),
        box_area,
    );
}

/// The message shown instead of a board that does not fit: the size it needs and the largest
/// board that fits this window.
fn too_small(n: usize, algorithm: Algorithm, area: Rect) -> String {
    let (need_w, need_h) = needed(n, algorithm);
    let what = format!(
        "The {n} x {n} board needs a terminal of at least {need_w} x {need_h} (this one is {} x \
         {})",
        area.width, area.height
    );
    let option = if algorithm == Algorithm::Array {
        String::new()
    } else {
        format!(" -a {algorithm}")
    };
    match largest_fitting(algorithm, area.width, area.height) {
        Some(m) => format!(
            "{what}: enlarge the window, or watch a board that fits it: nqueens watch {m}{option} \
             (the largest). q quits."
        ),
        None => {
            let (w, h) = needed(1, algorithm);
            format!("{what}: enlarge the window; even the 1 x 1 board needs {w} x {h}. q quits.")
        }
    }
}

/// The marks of the board, always on view, styled as on the board: each mark once (the queen
/// just placed is the queen's mark on its own colour, said with the queen).
fn legend_line() -> TextLine<'static> {
    let mut spans = vec![
        Span::styled("Q", Style::default().add_modifier(Modifier::BOLD)),
        Span::raw(" queen ("),
        Span::styled("green", place_style()),
        Span::raw(": new)  "),
    ];
    for (mark, style, meaning) in marks() {
        spans.push(Span::styled(mark, style));
        spans.push(Span::raw(format!(" {meaning}  ")));
    }
    TextLine::from(spans)
}

/// Each mark of the board but the queen's, its style and what it means.
fn marks() -> [(&'static str, Style, &'static str); 4] {
    [
        ("x", Style::default().bg(Color::DarkGray), "attacked"),
        ("X", reject_style(), "rejected"),
        ("o", remove_style(), "taken back"),
        ("*", line_style(), "attacking line"),
    ]
}

fn reject_style() -> Style {
    Style::default().bg(Color::Yellow).fg(Color::Red)
}

fn place_style() -> Style {
    Style::default().bg(Color::Green).fg(Color::Black)
}

fn remove_style() -> Style {
    Style::default().bg(Color::Yellow).fg(Color::Black)
}

fn line_style() -> Style {
    Style::default().bg(Color::LightRed).fg(Color::Black)
}

/// The data panel's lines: the structure, then the counters.
fn data_lines(model: &Model) -> Vec<TextLine<'static>> {
    let mut lines: Vec<TextLine> = model.structure().into_iter().map(TextLine::from).collect();
    lines.push(TextLine::from(""));
    let c = &model.counters;
    for text in [
        format!("step            {}", model.steps),
        format!("nodes           {}", c.nodes),
        format!("candidates      {}", c.candidates),
        format!("diagonal checks {}", c.diagonal_checks),
        model.solution_of(),
    ] {
        lines.push(TextLine::from(text));
    }
    lines
}

/// A `w × h` rectangle in the middle of `area`.
fn centered(area: Rect, w: u16, h: u16) -> Rect {
    let (w, h) = (w.min(area.width), h.min(area.height));
    Rect::new(
        area.x + (area.width - w) / 2,
        area.y + (area.height - h) / 2,
        w,
        h,
    )
}

/// The board, `scale` lines per row under a line of column numbers: the marks of the text
/// frames, with colours (attacked squares shaded, the square tried highlighted, the attacker
/// and its line red), each cell `2 × scale` columns wide with its mark in the middle.
fn board_lines(model: &Model, scale: usize) -> Vec<TextLine<'static>> {
    let n = model.n;
    let width = 2 * scale;
    let centre = |text: String| format!("{text:^width$}");
    let mut lines = vec![TextLine::from(format!(
        "  {}",
        (0..n)
            .map(|c| centre((c % 10).to_string()))
            .collect::<String>()
    ))];
    let line = model.attack_line();
    let attacker = match model.step {
        Step::Reject { by, .. } => Some(by),
        _ => None,
    };
    let rejected: Vec<(usize, usize)> = model.rejected.iter().map(|r| (r.row, r.col)).collect();
    for r in 0..n {
        for sub in 0..scale {
            let middle = sub == (scale - 1) / 2;
            let label = if middle {
                format!("{} ", r % 10)
            } else {
                "  ".to_string()
            };
            let mut spans = vec![Span::raw(label)];
            for c in 0..n {
                let queen = model.queen(r) == Some(c);
                let mut style = Style::default();
                let mut mark = if queen {
                    style = style.add_modifier(Modifier::BOLD);
                    "Q"
                } else if line.contains(&(r, c)) {
                    style = line_style();
                    "*"
                } else if rejected.contains(&(r, c)) {
                    style = reject_style();
                    "X"
                } else if model.attacked(r, c) {
                    style = style.bg(Color::DarkGray);
                    "x"
                } else {
                    "."
                };
                if attacker == Some((r, c)) {
                    style = style.bg(Color::Red).fg(Color::White);
                }
                if model.focus() == Some((r, c)) {
                    style = match model.step {
                        Step::Reject { .. } => reject_style(),
                        Step::Place { .. } => place_style(),
                        _ => remove_style(),
                    };
                    mark = match model.step {
                        Step::Reject { .. } => "X",
                        Step::Remove { .. } => "o",
                        _ => mark,
                    };
                }
                let text = if !middle {
                    " ".repeat(width)
                } else if scale == 1 {
                    format!("{mark} ")
                } else {
                    centre(mark.to_string())
                };
                if scale == 1 {
                    // One line per row: the mark styled, the space after it plain.
                    spans.push(Span::styled(mark.to_string(), style));
                    spans.push(Span::raw(" "));
                } else {
                    spans.push(Span::styled(text, style));
                }
            }
            lines.push(TextLine::from(spans));
        }
    }
    lines
}

#[cfg(test)]
mod tests {
    use ratatui::backend::TestBackend;

    use super::*;

    #[test]
    fn watch_view_area_is_clamped_to_what_it_draws() {
        assert_eq!(drawable(100, 30), Rect::new(0, 0, 100, 30));
        assert_eq!(drawable(0, 0), Rect::new(0, 0, 0, 0));
        let huge = drawable(u16::MAX, u16::MAX);
        assert_eq!((huge.width, huge.height), (MAX_WIDTH, MAX_HEIGHT));
        assert_eq!(drawable(u16::MAX, 30), Rect::new(0, 0, MAX_WIDTH, 30));
        // The largest board's view fits.
        for algorithm in Algorithm::ALL {
            let (w, h) = needed(nqueens::Plan::MAX_N as usize, algorithm);
            assert!(w <= MAX_WIDTH && h <= MAX_HEIGHT, "{algorithm}: {w} x {h}");
        }
    }

    /// The states of the first `steps` steps of a search, oldest first.
    fn history(n: u32, algorithm: Algorithm, steps: u64) -> Vec<Model> {
        struct Keep(Model, Vec<Model>, u64);
        impl Observer for Keep {
            fn event(&mut self, event: Event) {
                if self.0.steps < self.2 && self.0.apply(event) {
                    self.1.push(self.0.clone());
                }
            }
            fn stop(&self) -> bool {
                self.0.steps >= self.2
            }
        }
        let mut keep = Keep(
            Model::new(n, algorithm),
            vec![Model::new(n, algorithm)],
            steps,
        );
        algorithm.watch(n, &mut keep).unwrap();
        keep.1
    }

    /// The screen of the last of `states` on a `width × height` terminal, as lines of text.
    fn screen(states: &[Model], width: u16, height: u16) -> Vec<String> {
        let (model, earlier) = states.split_last().unwrap();
        let view = View {
            model,
            earlier: earlier.iter().rev(),
            back: 0,
            paused: true,
            speed: 5.0,
            help: false,
        };
        let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
        terminal.draw(|frame| view.draw(frame)).unwrap();
        let buffer = terminal.backend().buffer();
        (0..height)
            .map(|y| (0..width).map(|x| buffer[(x, y)].symbol()).collect())
            .collect()
    }

    #[test]
    fn the_speed_ladder_has_clean_rungs_from_a_tenth_to_a_thousand() {
        let mut speed = 0.1;
        let mut seen = vec![speed_text(speed)];
        while speed < 1000.0 {
            speed = faster(speed);
            seen.push(speed_text(speed));
        }
        assert_eq!(
            seen,
            [
                "0.1", "0.2", "0.5", "1", "2", "5", "10", "20", "50", "100", "200", "500", "1000"
            ]
        );
        assert_eq!(faster(1000.0), 1000.0);
        assert_eq!(slower(0.1), 0.1);
        for _ in 0..20 {
            speed = slower(speed);
        }
        assert_eq!(speed_text(speed), "0.1");
        // A --speed off the ladder joins it at the next rung either way.
        assert_eq!((faster(4.0), slower(4.0)), (5.0, 2.0));
        assert_eq!((faster(0.15), slower(0.15)), (0.2, 0.1));
    }

    #[test]
    fn the_largest_board_that_fits_is_named_and_fits() {
        for algorithm in Algorithm::ALL {
            for (w, h) in [(40, 12), (80, 24), (100, 30), (160, 45), (300, 100)] {
                match largest_fitting(algorithm, w, h) {
                    Some(n) => {
                        let (nw, nh) = needed(n, algorithm);
                        assert!(nw <= w && nh <= h, "{algorithm} {n} in {w}x{h}");
                        if n < 64 {
                            let (nw, nh) = needed(n + 1, algorithm);
                            assert!(nw > w || nh > h, "{algorithm} {} in {w}x{h}", n + 1);
                        }
                        let text = too_small(64, algorithm, Rect::new(0, 0, w, h));
                        assert!(text.contains(&format!("nqueens watch {n}")), "{text}");
                    }
                    None => {
                        let text = too_small(6, algorithm, Rect::new(0, 0, w, h));
                        assert!(text.contains("even the 1 x 1 board needs"), "{text}");
                    }
                }
            }
        }
        // 100 x 30 takes the 8 x 8 board with every algorithm.
        for algorithm in Algorithm::ALL {
            assert!(
                largest_fitting(algorithm, 100, 30).unwrap() >= 8,
                "{algorithm}"
            );
        }
    }

    #[test]
    fn a_big_window_grows_the_cells_and_shows_the_log_and_the_legend() {
        let states = history(8, Algorithm::Array, 60);
        let small = screen(&states, 100, 30);
        let big = screen(&states, 160, 45);
        let width_of = |lines: &[String]| {
            lines[0]
                .chars()
                .position(|c| c == '┐')
                .expect("the board's corner")
        };
        assert!(width_of(&big) > width_of(&small) + 20, "{big:#?}");
        for lines in [&small, &big] {
            let text = lines.join("\n");
            assert!(text.contains(" array · 8 x 8 "), "{text}");
            assert!(text.contains(" recent steps "), "{text}");
            assert!(text.contains("o taken back"), "{text}");
            // Each mark once: the queen just placed is said with the queen.
            assert!(text.contains("Q queen (green: new)"), "{text}");
            assert!(text.contains("solutions 0 of 92"), "{text}");
        }
        // The log's last line is the step on view.
        let text = big.join("\n");
        assert!(text.contains("    60 "), "{text}");
    }

    #[test]
    fn at_the_size_it_needs_the_view_shows_its_title_legend_and_keys_whole() {
        for algorithm in Algorithm::ALL {
            for n in [1, 4, 8, 12] {
                let states = history(n, algorithm, 30);
                let (w, h) = needed(n as usize, algorithm);
                let lines = screen(&states, w, h);
                let text = lines.join("\n");
                assert!(
                    text.contains(&format!(" {algorithm} · {n} x {n} ")),
                    "{text}"
                );
                assert!(lines[h as usize - 2].contains("attacking line"), "{text}");
                assert!(lines[h as usize - 1].contains("q quit"), "{text}");
                assert!(text.contains("solutions "), "{text}");
            }
        }
    }

    #[test]
    fn a_short_board_title_is_never_cut() {
        for algorithm in Algorithm::ALL {
            let states = history(1, algorithm, 1);
            let text = screen(&states, 100, 30).join("\n");
            assert!(text.contains(&format!(" {algorithm} · 1 x 1 ")), "{text}");
        }
    }
}
