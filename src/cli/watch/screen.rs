//! The full-screen view (ratatui on crossterm): the board, the data structure, the narration
//! and the counters, redrawn at every step; the keys steer the search.
//!
//! The search runs on this thread and calls the [`Screen`] at every event; the screen draws and
//! waits (for the next tick, a key, or for ever while paused) before returning to the search.
//! Stepping back shows the bounded history of earlier steps; a restart or quit makes
//! [`Observer::stop`] end the search. The terminal is restored by a guard on every way out: the
//! guard's drop (quit, an error), Ctrl-C (a key in raw mode), SIGINT and SIGTERM (a flag read
//! between keys), and a panic (a hook that restores it before the message).

use std::collections::VecDeque;
use std::io::{self, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crossterm::event::{self, Event as TermEvent, KeyCode, KeyEventKind, KeyModifiers};
use crossterm::{cursor, execute, terminal};
use nqueens::classic::{Algorithm, Event, Observer};
use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line as TextLine, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};

use super::model::{Model, Step};
use crate::cli::Failure;

/// Steps kept for stepping back.
const HISTORY: usize = 2000;

/// The longest wait between two looks at the interrupt flag.
const TICK: Duration = Duration::from_millis(50);

/// What ended a search early.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Action {
    Quit,
    Restart(Algorithm),
}

/// Puts the terminal back as it was: raw mode off, the main screen, the cursor shown.
fn restore() {
    let _ = terminal::disable_raw_mode();
    let _ = execute!(io::stdout(), terminal::LeaveAlternateScreen, cursor::Show);
}

/// Restores the terminal when dropped.
struct Guard;

impl Drop for Guard {
    fn drop(&mut self) {
        restore();
    }
}

/// Runs the full-screen view until the user quits.
pub fn run(
    n: u32,
    algorithm: Algorithm,
    speed: f64,
    pause_on_solution: bool,
) -> Result<(), Failure> {
    let interrupted = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&interrupted);
    // SIGINT, SIGTERM and SIGHUP (Ctrl-C itself is a key in raw mode) end the view cleanly. When
    // the terminal is gone (a hangup), the main thread can be stuck in a terminal read that
    // never returns, holding the terminal's locks: if it has not ended within half a second,
    // leave from here (there is no terminal left to restore).
    crate::cli::signals::on_interrupt(move || {
        flag.store(true, Ordering::SeqCst);
        std::thread::sleep(Duration::from_millis(500));
        std::process::exit(130);
    });
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        restore();
        previous(info);
    }));
    terminal::enable_raw_mode()?;
    let guard = Guard;
    execute!(io::stdout(), terminal::EnterAlternateScreen, cursor::Hide)?;
    let terminal = Terminal::new(CrosstermBackend::new(io::stdout()))?;
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
        interrupted,
        error: None,
    };
    let mut algorithm = algorithm;
    loop {
        screen.reset(n, algorithm);
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
    drop(screen);
    drop(guard);
    io::stdout().flush()?;
    Ok(())
}

/// The observer that draws.
struct Screen {
    terminal: Terminal<CrosstermBackend<io::Stdout>>,
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
    interrupted: Arc<AtomicBool>,
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

    /// The state on view.
    fn shown(&self) -> &Model {
        let newest = self.history.len() - 1;
        &self.history[newest - self.back.min(newest)]
    }

    fn draw(&mut self) {
        let model = self.shown().clone();
        let (back, paused, speed, help) = (self.back, self.paused, self.speed, self.help);
        let drawn = self
            .terminal
            .draw(|frame| draw(frame, &model, back, paused, speed, help));
        if let Err(e) = drawn {
            self.error.get_or_insert(e);
            self.action = Some(Action::Quit);
        }
    }

    /// Shows the current step and waits until the search should go on (or stop).
    fn wait(&mut self) {
        let mut deadline = Instant::now() + Duration::from_secs_f64(1.0 / self.speed);
        let mut dirty = true;
        loop {
            if self.interrupted.load(Ordering::SeqCst) {
                self.action = Some(Action::Quit);
            }
            if self.action.is_some() {
                return;
            }
            if dirty {
                self.draw();
                dirty = false;
            }
            let running = !self.paused && self.back == 0;
            let now = Instant::now();
            if running && now >= deadline {
                return;
            }
            let timeout = if running {
                (deadline - now).min(TICK)
            } else {
                TICK
            };
            let key = match event::poll(timeout) {
                Ok(true) => match event::read() {
                    Ok(TermEvent::Key(key)) if key.kind != KeyEventKind::Release => key,
                    Ok(TermEvent::Resize(..)) => {
                        let _ = self.terminal.autoresize();
                        dirty = true;
                        continue;
                    }
                    Ok(_) => continue,
                    Err(e) => {
                        self.error.get_or_insert(e);
                        self.action = Some(Action::Quit);
                        continue;
                    }
                },
                Ok(false) => continue,
                Err(e) => {
                    self.error.get_or_insert(e);
                    self.action = Some(Action::Quit);
                    continue;
                }
            };
            dirty = true;
            let finished = self.model.finished;
            match key.code {
                KeyCode::Char('c') if key.modifiers.contains(KeyModifiers::CONTROL) => {
                    self.action = Some(Action::Quit)
                }
                KeyCode::Char('q') | KeyCode::Esc => self.action = Some(Action::Quit),
                KeyCode::Char(' ') => {
                    self.paused = !self.paused;
                    deadline = Instant::now();
                }
                KeyCode::Right | KeyCode::Char('n') => {
                    self.paused = true;
                    if self.back > 0 {
                        self.back -= 1;
                    } else if !finished {
                        return;
                    }
                }
                KeyCode::Left | KeyCode::Char('b') => {
                    self.paused = true;
                    self.back = (self.back + 1).min(self.history.len() - 1);
                }
                KeyCode::Char('+') | KeyCode::Char('=') => {
                    self.speed = (self.speed * 2.0).min(1000.0)
                }
                KeyCode::Char('-') => self.speed = (self.speed / 2.0).max(0.125),
                KeyCode::Char('s') if !finished => {
                    self.back = 0;
                    self.to_solution = true;
                    return;
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
                KeyCode::Char('?') | KeyCode::Char('h') => self.help = !self.help,
                _ => dirty = false,
            }
        }
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
                // Look at the interrupt flag now and then while running ahead.
                if self.model.steps.is_multiple_of(4096) && self.interrupted.load(Ordering::SeqCst)
                {
                    self.action = Some(Action::Quit);
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

/// Columns and rows the view needs for the `n × n` board.
pub fn needed(n: usize) -> (u16, u16) {
    let board_w = 2 * n + 5;
    let panel_w = (2 * n - 1 + 18).max(n + 8).max(34);
    let board_h = n + 3;
    let panel_h = n + 2 + 8;
    let w = board_w + panel_w;
    let h = board_h.max(panel_h) + 5;
    (
        w.min(u16::MAX as usize) as u16,
        h.min(u16::MAX as usize) as u16,
    )
}

fn draw(
    frame: &mut ratatui::Frame,
    model: &Model,
    back: usize,
    paused: bool,
    speed: f64,
    help: bool,
) {
    let area = frame.area();
    let n = model.n;
    let (need_w, need_h) = needed(n);
    if area.width < need_w || area.height < need_h {
        let text = format!(
            "The {n} x {n} board needs a terminal of at least {need_w} x {need_h} \
             (this one is {} x {}): enlarge the window or run a smaller board, for example \
             nqueens watch 8. q quits.",
            area.width, area.height
        );
        frame.render_widget(Paragraph::new(text).wrap(Wrap { trim: true }), area);
        return;
    }
    let [main, narration, keys] = Layout::vertical([
        Constraint::Min(0),
        Constraint::Length(4),
        Constraint::Length(1),
    ])
    .areas(area);
    let board_w = (2 * n + 5) as u16;
    let [board_area, panel] =
        Layout::horizontal([Constraint::Length(board_w), Constraint::Min(0)]).areas(main);
    let title = format!(" {} · {n} x {n} ", model.algorithm);
    frame.render_widget(
        Paragraph::new(board_lines(model))
            .block(Block::default().borders(Borders::ALL).title(title)),
        board_area,
    );
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
    frame.render_widget(
        Paragraph::new(lines).block(Block::default().borders(Borders::ALL).title(" data ")),
        panel,
    );
    let state = if model.finished {
        "finished".to_string()
    } else if back > 0 {
        format!("{} back", crate::cli::human::plural(back, "step"))
    } else if paused {
        "paused".to_string()
    } else {
        format!("{speed} steps/s")
    };
    frame.render_widget(
        Paragraph::new(model.narration())
            .wrap(Wrap { trim: true })
            .block(
                Block::default()
                    .borders(Borders::ALL)
                    .title(format!(" {state} ")),
            ),
        narration,
    );
    frame.render_widget(
        Paragraph::new(
            "space pause  n/b step/back  +/- speed  s solution  a algorithm  ? keys  q quit",
        ),
        keys,
    );
    if help {
        let text = "space  pause / resume\nn, →   one step\nb, ←   one step back\n\
                    + -    faster / slower\ns      run to the next solution\n\
                    a      next algorithm (restart)\nr      restart\n?      this help\n\
                    q, Esc quit\n\nQ queen, x attacked, X the square rejected,\n\
                    o a queen taken back, * the attacker's line";
        let box_area = centered(area, 46, 15);
        frame.render_widget(Clear, box_area);
        frame.render_widget(
            Paragraph::new(text).block(Block::default().borders(Borders::ALL).title(" keys ")),
            box_area,
        );
    }
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

/// The board, one line per row under a line of column numbers: the marks of the text frames,
/// with colours (attacked squares shaded, the square tried highlighted, the attacker and its
/// line red).
fn board_lines(model: &Model) -> Vec<TextLine<'static>> {
    let n = model.n;
    let mut lines = vec![TextLine::from(format!(
        "  {}",
        (0..n).map(|c| format!("{} ", c % 10)).collect::<String>()
    ))];
    let line = model.attack_line();
    let attacker = match model.step {
        Step::Reject { by, .. } => Some(by),
        _ => None,
    };
    for r in 0..n {
        let mut spans = vec![Span::raw(format!("{} ", r % 10))];
        for c in 0..n {
            let queen = model.queen(r) == Some(c);
            let attacked = model.attacked(r, c);
            let mut style = Style::default();
            let mut mark = if queen {
                style = style.add_modifier(Modifier::BOLD);
                "Q"
            } else if line.contains(&(r, c)) {
                style = style.bg(Color::LightRed).fg(Color::Black);
                "*"
            } else if attacked {
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
                    Step::Reject { .. } => style.bg(Color::Yellow).fg(Color::Red),
                    Step::Place { .. } => style.bg(Color::Green).fg(Color::Black),
                    _ => style.bg(Color::Yellow).fg(Color::Black),
                };
                mark = match model.step {
                    Step::Reject { .. } => "X",
                    Step::Remove { .. } => "o",
                    _ => mark,
                };
            }
            spans.push(Span::styled(mark.to_string(), style));
            spans.push(Span::raw(" "));
        }
        lines.push(TextLine::from(spans));
    }
    lines
}
