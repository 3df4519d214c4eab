//! What one frame of the view shows ([`View`]), drawn the same on the terminal and off-screen:
//! the board, the data structure, the narration, the log of recent steps, the legend and the
//! keys, laid out for the terminal's size (the size a board needs, the largest board a size
//! fits), and a message instead of a board that does not fit.

use nqueens::classic::Algorithm;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line as TextLine, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};

use super::model::{Model, Step};

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
            format!("{} back", nqueens_ui::human::plural(self.back, "step"))
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
                Ctrl-Z suspend (fg resumes)\nq      quit (Ctrl-C too: exit 130)";
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
                if scale == 1 {
                    // One line per row: the mark styled, the space after it plain.
                    spans.push(Span::styled(mark.to_string(), style));
                    spans.push(Span::raw(" "));
                } else {
                    let text = if middle {
                        centre(mark.to_string())
                    } else {
                        " ".repeat(width)
                    };
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

    use nqueens::classic::{Event, Observer};
    use ratatui::Terminal;

    use super::super::screen::{MAX_HEIGHT, MAX_WIDTH, drawable, faster, slower};
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
