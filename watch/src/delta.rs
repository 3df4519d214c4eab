//! The terminal of a recording drawn off-screen: a ratatui backend that writes, per frame,
//! only what changed on the screen, with as few escape sequences as it can (each costs six
//! bytes more in the recording's JSON, `\u001b`).
//!
//! It keeps what the screen shows, and at each flush writes the difference to the next frame:
//!
//! - lines that moved up by one within a band (the log of recent steps) are scrolled there
//!   (`CSI top;bottom r`, `CSI S`) rather than written again;
//! - the changed cells of a line are written in runs: a short gap of unchanged cells in the
//!   same style between two changes is written over rather than jumped (a jump costs more);
//! - the cursor goes where it must by the shortest of line feeds, backspaces, a carriage return,
//!   `CSI col G` and `CSI row;col H`;
//! - the colours and attributes change in one `CSI … m` each time, and only when they differ;
//! - the cursor is hidden once at the start of the replay and shown once at its end (not at
//!   every frame), and nothing is reset at the end of a frame.

use std::fmt::Write as _;
use std::io::{self, Write};

use ratatui::backend::{Backend, ClearType, WindowSize};
use ratatui::buffer::{Buffer, Cell};
use ratatui::layout::{Position, Rect, Size};
use ratatui::style::{Color, Modifier};

/// The longest gap of unchanged cells written over between two changes of a line.
const GAP: u16 = 8;

/// How the cursor goes along a line.
#[derive(Debug, Clone, Copy)]
enum Along {
    /// It is in the column already.
    Stay,
    /// `CSI col G`.
    Column,
    /// Backspaces.
    Back,
    /// A carriage return (to the first column).
    Home,
}

/// The colours and attributes of a cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Pen {
    fg: Color,
    bg: Color,
    modifier: Modifier,
}

impl Pen {
    /// The terminal's own: default colours, no attribute.
    const PLAIN: Pen = Pen {
        fg: Color::Reset,
        bg: Color::Reset,
        modifier: Modifier::empty(),
    };

    /// The pen `cell` is drawn with.
    fn of(cell: &Cell) -> Pen {
        Pen {
            fg: cell.fg,
            bg: cell.bg,
            modifier: cell.modifier,
        }
    }
}

/// The terminal drawn off-screen: a frame written to `out` at each flush.
pub struct Delta<W: Write> {
    out: W,
    /// What the screen shows.
    screen: Buffer,
    /// What it shows after the next flush.
    next: Buffer,
    /// The pen the terminal draws with now.
    pen: Pen,
    /// Where the cursor is, when known (not after a write in the last column).
    cursor: Option<(u16, u16)>,
}

impl<W: Write> Delta<W> {
    /// A `width × height` terminal, cleared, writing to `out`.
    pub fn new(out: W, width: u16, height: u16) -> Delta<W> {
        let area = Rect::new(0, 0, width, height);
        Delta {
            out,
            screen: Buffer::empty(area),
            next: Buffer::empty(area),
            pen: Pen::PLAIN,
            cursor: Some((0, 0)),
        }
    }

    /// The bytes that take the screen to the next frame (the screen is then that frame).
    fn frame(&mut self) -> String {
        let mut text = String::new();
        if let Some((top, bottom)) = self.scroll_band() {
            self.scroll(top, bottom, &mut text);
        }
        let (width, height) = (self.screen.area.width, self.screen.area.height);
        for y in 0..height {
            let mut x = 0;
            while x < width {
                if self.same(x, y) {
                    x += 1;
                    continue;
                }
                let end = self.run_end(x, y);
                self.move_to(x, y, &mut text);
                while x < end {
                    x += self.put(x, y, &mut text);
                }
                self.cursor = (x < width).then_some((x, y));
            }
        }
        text
    }

    /// Whether the cell at `(x, y)` shows already what the next frame does.
    fn same(&self, x: u16, y: u16) -> bool {
        self.screen[(x, y)] == self.next[(x, y)]
    }

    /// The width of the cell at `(x, y)` of the next frame, in columns (at least 1).
    fn width(&self, x: u16, y: u16) -> u16 {
        let cell = &self.next[(x, y)];
        let width = ratatui::text::Span::raw(cell.symbol()).width() as u16;
        width.clamp(1, self.screen.area.width - x)
    }

    /// The end (exclusive) of the run of cells written from the changed cell `(x, y)`: through
    /// every following change reached by a gap of at most [`GAP`] unchanged single-width cells
    /// in the style of the cell before the gap.
    fn run_end(&self, x: u16, y: u16) -> u16 {
        let width = self.screen.area.width;
        let mut end = x + self.width(x, y);
        loop {
            let mut gap = end;
            while gap < width && self.same(gap, y) {
                gap += 1;
            }
            if gap >= width || gap - end > GAP {
                return end;
            }
            let pen = Pen::of(&self.next[(end - 1, y)]);
            let plain = (end..gap).all(|i| {
                Pen::of(&self.next[(i, y)]) == pen && self.next[(i, y)].symbol().len() == 1
            });
            if !plain {
                return end;
            }
            end = gap + self.width(gap, y);
        }
    }

    /// Writes the cell at `(x, y)` of the next frame where the cursor is; its width.
    fn put(&mut self, x: u16, y: u16, text: &mut String) -> u16 {
        let width = self.width(x, y);
        let cell = self.next[(x, y)].clone();
        self.set_pen(Pen::of(&cell), text);
        text.push_str(cell.symbol());
        for i in x..x + width {
            self.screen[(i, y)] = self.next[(i, y)].clone();
        }
        width
    }

    /// Moves the cursor to `(x, y)` the shortest way, as written in the recording's JSON (an
    /// escape sequence costs six bytes more than a control character): `CSI row;col H`, or
    /// from where the cursor is, line feeds down (`LF` keeps the column) then backspaces, a
    /// carriage return or `CSI col G` along the line.
    fn move_to(&mut self, x: u16, y: u16, text: &mut String) {
        let digits = |v: u16| (v + 1).to_string().len();
        let absolute = if x == 0 {
            9 + digits(y)
        } else {
            10 + digits(y) + digits(x)
        };
        let relative = match self.cursor {
            Some((cx, cy)) if cy <= y => {
                let along = if x == cx {
                    Some((0, Along::Stay))
                } else {
                    let column = (8 + digits(x), Along::Column);
                    let back = (x < cx).then(|| (2 * usize::from(cx - x), Along::Back));
                    let home = (x == 0).then_some((2, Along::Home));
                    [Some(column), back, home]
                        .into_iter()
                        .flatten()
                        .min_by_key(|c| c.0)
                };
                along.map(|(cost, along)| (2 * usize::from(y - cy) + cost, cx, cy, along))
            }
            _ => None,
        };
        match relative {
            Some((cost, cx, cy, along)) if cost <= absolute => {
                for _ in cy..y {
                    text.push('\n');
                }
                match along {
                    Along::Stay => {}
                    Along::Column => {
                        let _ = write!(text, "\x1b[{}G", x + 1);
                    }
                    Along::Back => (x..cx).for_each(|_| text.push('\x08')),
                    Along::Home => text.push('\r'),
                }
            }
            _ if x == 0 => {
                let _ = write!(text, "\x1b[{}H", y + 1);
            }
            _ => {
                let _ = write!(text, "\x1b[{};{}H", y + 1, x + 1);
            }
        }
        self.cursor = Some((x, y));
    }

    /// Draws with `pen` from now on, in one `CSI … m` where it differs.
    fn set_pen(&mut self, pen: Pen, text: &mut String) {
        if pen == self.pen {
            return;
        }
        let mut codes: Vec<String> = Vec::new();
        let dropped = !(self.pen.modifier - pen.modifier).is_empty();
        let (was_fg, was_bg, added) = if dropped {
            codes.push("0".to_string());
            (Color::Reset, Color::Reset, pen.modifier)
        } else {
            (self.pen.fg, self.pen.bg, pen.modifier - self.pen.modifier)
        };
        for (flag, code) in [
            (Modifier::BOLD, "1"),
            (Modifier::DIM, "2"),
            (Modifier::ITALIC, "3"),
            (Modifier::UNDERLINED, "4"),
            (Modifier::SLOW_BLINK, "5"),
            (Modifier::RAPID_BLINK, "6"),
            (Modifier::REVERSED, "7"),
            (Modifier::HIDDEN, "8"),
            (Modifier::CROSSED_OUT, "9"),
        ] {
            if added.contains(flag) {
                codes.push(code.to_string());
            }
        }
        if pen.fg != was_fg {
            codes.push(colour(pen.fg, false));
        }
        if pen.bg != was_bg {
            codes.push(colour(pen.bg, true));
        }
        if !codes.is_empty() {
            let _ = write!(text, "\x1b[{}m", codes.join(";"));
        }
        self.pen = pen;
    }

    /// The band of lines `(top, bottom)` whose next frame is, but for the last line, the
    /// screen moved up by one (at least two lines that change), if any.
    fn scroll_band(&self) -> Option<(u16, u16)> {
        let (width, height) = (self.screen.area.width, self.screen.area.height);
        let same =
            |a: &Buffer, ya: u16, b: &Buffer, yb: u16| (0..width).all(|x| a[(x, ya)] == b[(x, yb)]);
        let mut best: Option<(u16, u16)> = None;
        let mut start: Option<u16> = None;
        for y in 0..height {
            let moved = y + 1 < height && {
                same(&self.next, y, &self.screen, y + 1) && !same(&self.next, y, &self.screen, y)
            };
            match (moved, start) {
                (true, None) => start = Some(y),
                (false, Some(top)) => {
                    // Lines top..y moved up: the band is top..=y.
                    if y - top >= 2 && best.is_none_or(|(t, b)| b - t < y - top) {
                        best = Some((top, y));
                    }
                    start = None;
                }
                _ => {}
            }
        }
        best
    }

    /// Scrolls the lines `top..=bottom` up by one: the bottom one is blank.
    fn scroll(&mut self, top: u16, bottom: u16, text: &mut String) {
        self.set_pen(Pen::PLAIN, text);
        let _ = write!(text, "\x1b[{};{}r\x1b[S\x1b[r", top + 1, bottom + 1);
        // Setting the margins puts the cursor home on most terminals, not all.
        self.cursor = None;
        let width = self.screen.area.width;
        for y in top..bottom {
            for x in 0..width {
                self.screen[(x, y)] = self.screen[(x, y + 1)].clone();
            }
        }
        for x in 0..width {
            self.screen[(x, bottom)] = Cell::default();
        }
    }
}

/// The SGR code of `colour` as a foreground (or a background).
fn colour(colour: Color, background: bool) -> String {
    let base = if background { 40 } else { 30 };
    let index = match colour {
        Color::Reset => return (base + 9).to_string(),
        Color::Black => 0,
        Color::Red => 1,
        Color::Green => 2,
        Color::Yellow => 3,
        Color::Blue => 4,
        Color::Magenta => 5,
        Color::Cyan => 6,
        Color::Gray => 7,
        Color::DarkGray => 8,
        Color::LightRed => 9,
        Color::LightGreen => 10,
        Color::LightYellow => 11,
        Color::LightBlue => 12,
        Color::LightMagenta => 13,
        Color::LightCyan => 14,
        Color::White => 15,
        Color::Indexed(i) => return format!("{};5;{i}", base + 8),
        Color::Rgb(r, g, b) => return format!("{};2;{r};{g};{b}", base + 8),
    };
    if index < 8 {
        (base + index).to_string()
    } else {
        (base + 60 + index - 8).to_string()
    }
}

impl<W: Write> Backend for Delta<W> {
    type Error = io::Error;

    fn draw<'a, I>(&mut self, content: I) -> io::Result<()>
    where
        I: Iterator<Item = (u16, u16, &'a Cell)>,
    {
        for (x, y, cell) in content {
            if x < self.next.area.width && y < self.next.area.height {
                self.next[(x, y)] = cell.clone();
            }
        }
        Ok(())
    }

    /// The cursor is hidden once, at the start of the replay.
    fn hide_cursor(&mut self) -> io::Result<()> {
        Ok(())
    }

    /// The cursor is shown once, at the end of the replay.
    fn show_cursor(&mut self) -> io::Result<()> {
        Ok(())
    }

    fn get_cursor_position(&mut self) -> io::Result<Position> {
        let (x, y) = self.cursor.unwrap_or((0, 0));
        Ok(Position { x, y })
    }

    fn set_cursor_position<P: Into<Position>>(&mut self, position: P) -> io::Result<()> {
        let Position { x, y } = position.into();
        let mut text = String::new();
        self.move_to(x, y, &mut text);
        self.out.write_all(text.as_bytes())
    }

    fn clear(&mut self) -> io::Result<()> {
        self.next.reset();
        Ok(())
    }

    fn clear_region(&mut self, _clear_type: ClearType) -> io::Result<()> {
        self.clear()
    }

    fn size(&self) -> io::Result<Size> {
        Ok(self.screen.area.as_size())
    }

    fn window_size(&mut self) -> io::Result<WindowSize> {
        Ok(WindowSize {
            columns_rows: self.screen.area.as_size(),
            pixels: Size::default(),
        })
    }

    /// Writes the frame and flushes `out` (the end of a frame).
    fn flush(&mut self) -> io::Result<()> {
        let text = self.frame();
        if !text.is_empty() {
            self.out.write_all(text.as_bytes())?;
        }
        self.out.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The screen after replaying `bytes` on a `width × height` terminal.
    fn replay(bytes: &[u8], width: u16, height: u16) -> vt100::Parser {
        let size = |v: u16| std::num::NonZero::new(v).expect("a size");
        let mut terminal = vt100::Parser::new(size(height), size(width), 0);
        terminal.process(bytes);
        terminal
    }

    #[test]
    fn each_frame_writes_what_changed_and_replays_to_the_screen_drawn() {
        use ratatui::style::Style;
        use ratatui::text::Line;
        use ratatui::widgets::Paragraph;
        let mut out = Vec::new();
        let mut terminal =
            ratatui::Terminal::new(Delta::new(&mut out, 30, 8)).expect("an off-screen terminal");
        let mut sizes = Vec::new();
        let mut written = 0;
        for step in 0..20 {
            terminal
                .draw(|frame| {
                    // A log that moves up by a line a step, and a counter in colour.
                    let lines: Vec<Line> = (step..step + 6)
                        .map(|i| Line::from(format!("{i:>4} step number {i}")))
                        .chain([Line::styled(
                            format!("count {step}"),
                            Style::new().red().bold(),
                        )])
                        .collect();
                    frame.render_widget(Paragraph::new(lines), frame.area());
                })
                .unwrap();
            let total = terminal.backend().out.len();
            sizes.push(total - written);
            written = total;
        }
        drop(terminal);
        let screen = replay(&out, 30, 8);
        let contents = screen.screen().contents();
        assert!(contents.contains("  19 step number 19"), "{contents}");
        assert!(contents.contains("  24 step number 24"), "{contents}");
        assert!(contents.contains("count 19"), "{contents}");
        let cell = screen.screen().cell(6, 0).unwrap();
        assert_eq!(cell.fgcolor(), vt100::Color::Idx(1));
        assert!(cell.bold());
        // After the first, a frame scrolls instead of writing the log again.
        assert!(sizes[10] < 60, "{sizes:?}");
    }
}
