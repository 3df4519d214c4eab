//! The full-screen view (ratatui on crossterm): the frame of [`View`] (the board, the data
//! structure, the narration, the counters, a log of the recent steps and a legend) redrawn at
//! every step; the keys steer the search.
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
use ratatui::layout::Rect;
use ratatui::{Terminal, TerminalOptions, Viewport};

use super::cast::Recording;
use super::model::{Model, Step};
use super::view::View;
use nqueens_ui::failure::Failure;

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
        nqueens_ui::signals::on_interrupt(move || {
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
                nqueens_ui::output::message("nqueens: interrupted");
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
                if signal == SIGCONT || !nqueens_ui::signals::ignored(signal) {
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
