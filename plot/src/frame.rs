//! The plot's shapes and sizes: its error, fonts, colours, the curves drawn from each series,
//! the panels' kinds and the frame every panel shows behind its data.

use plotters::prelude::*;

use std::time::Duration;

use nqueens::scaling::Loss;
use nqueens::scaling::series::Series;

/// Width of the picture, pixels (its height grows with the legend and the caption).
pub(crate) const WIDTH: u32 = 900;

/// Drawing the picture failed.
#[derive(Debug, thiserror::Error)]
#[error("cannot draw the plot: {0}")]
pub struct PlotError(String);

pub(super) fn fail<E: std::fmt::Debug>(e: E) -> PlotError {
    PlotError(format!("{e:?}"))
}

// Heights of the title, the three panels, one legend entry and one caption line, pixels.
pub(super) const TITLE_HEIGHT: u32 = 100;
pub(super) const SPEEDUP_HEIGHT: u32 = 430;
pub(super) const EFFICIENCY_HEIGHT: u32 = 310;
pub(super) const LOSS_HEIGHT: u32 = 300;
pub(super) const LEGEND_LINE: u32 = 26;
pub(super) const CAPTION_LINE: u32 = 20;

/// Font sizes, pixels at the picture's own size (the smallest text is 15 px).
pub(super) const TITLE_FONT: f64 = 23.0;
pub(super) const SUBTITLE_FONT: f64 = 17.0;
pub(super) const TICK_FONT: f64 = 16.0;
pub(super) const AXIS_FONT: f64 = 17.0;
pub(super) const LEGEND_FONT: f64 = 16.0;
pub(super) const CAPTION_FONT: f64 = 15.0;

/// The font of `pixels` pixels: plotters writes a font's size in points (pixels ÷ 1.24).
pub(super) fn font(pixels: f64) -> FontDesc<'static> {
    ("sans-serif", pixels * 1.24).into_font()
}

/// Characters per subtitle and caption line: about what fits the width at their font sizes.
pub(super) const SUBTITLE_CHARS: usize = 95;
pub(super) const CAPTION_CHARS: usize = 110;

/// Splits `text` into lines of at most `width` characters at spaces (a longer word gets a line
/// of its own).
pub(super) fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// The series colours: a strong colour for the measured line and points, and a darker one for
/// the bars (nothing else is drawn in it).
pub(super) const PALETTE: [(RGBColor, RGBColor); 6] = [
    (RGBColor(214, 39, 40), BAR_COLOUR),
    (RGBColor(31, 119, 180), RGBColor(10, 60, 110)),
    (RGBColor(44, 160, 44), RGBColor(20, 90, 20)),
    (RGBColor(148, 103, 189), RGBColor(80, 50, 120)),
    (RGBColor(255, 127, 14), RGBColor(150, 70, 0)),
    (RGBColor(23, 190, 207), RGBColor(10, 100, 110)),
];

/// The first series' bar colour (the command tests look for it).
pub const BAR_COLOUR: RGBColor = RGBColor(140, 20, 20);
pub(super) const IDEAL: RGBColor = RGBColor(0, 0, 0);
/// The legend's swatch for the models of several series, each drawn in its series' colour.
pub(super) const MODELS_GREY: RGBColor = RGBColor(110, 110, 110);
pub(super) const WARNING: RGBColor = RGBColor(170, 60, 0);

/// The values the log axes are drawn for (x and y): a point outside is left out, so that a
/// saved result with absurd numbers cannot stretch an axis over thousands of doublings.
pub(super) const DRAWN: (f64, f64) = (1e-9, 1e9);

/// The most series one plot draws: its legend has a line for each.
pub const MAX_SERIES: usize = 64;

/// A measured thread count as drawn: the median's speedup and, when there were several timed
/// runs, the speedups of the slowest and the fastest of them.
#[derive(Clone, Copy, Debug)]
pub(super) struct Measured {
    pub(super) threads: f64,
    /// Where it is drawn: the thread count, nudged left or right when several series are drawn
    /// so that equal points do not hide each other.
    pub(super) x: f64,
    pub(super) speedup: f64,
    pub(super) range: Option<(f64, f64)>,
}

/// One series as drawn, as (threads, speedup), non-finite values left out.
pub(super) struct Curve {
    pub(super) colour: RGBColor,
    pub(super) bar: RGBColor,
    pub(super) measured: Vec<Measured>,
    /// The model's points up to the drawn limit: with the measured serial time and slowdown
    /// where the result has them, else the task times' list scheduling alone.
    pub(super) model: Vec<(f64, f64)>,
    /// Whether `model` includes the measured serial time and slowdown.
    pub(super) with_losses: bool,
    /// The loss breakdown of each measured thread count above one, each part 0 and above
    /// ([`nqueens_ui::series::shown_loss`]) and finite.
    pub(super) losses: Vec<(f64, Loss)>,
    /// Which series this is, and of how many (the loss bars stand side by side).
    pub(super) index: usize,
    pub(super) of: usize,
}

impl Curve {
    pub(super) fn of(series: &Series, index: usize, of: usize, model_limit: usize) -> Curve {
        // Series side by side around each thread count, 4 % of a doubling apart.
        let nudge = 2f64.powf(0.04 * (index as f64 - (of as f64 - 1.0) / 2.0));
        let usable =
            |x: f64, y: f64| (1.0..=DRAWN.1).contains(&x) && (DRAWN.0..=DRAWN.1).contains(&y);
        let measured = series
            .runs
            .iter()
            .filter(|p| usable(p.threads as f64, p.speedup))
            .map(|p| {
                // The speedup is the one-thread median over this median, so each run's speedup
                // is the speedup scaled by median / that run's time.
                let scaled =
                    |time: Duration| p.speedup * p.median.as_secs_f64() / time.as_secs_f64();
                let (slowest, fastest) = (scaled(p.max), scaled(p.min));
                let range = (series.repeat > 1 && usable(1.0, slowest) && usable(1.0, fastest))
                    .then_some((slowest, fastest));
                Measured {
                    threads: p.threads as f64,
                    x: p.threads as f64 * nudge,
                    speedup: p.speedup,
                    range,
                }
            })
            .collect();
        let with_losses = series.model.iter().any(|p| p.with_losses_speedup.is_some());
        let model = series
            .model
            .iter()
            .filter(|p| p.workers <= model_limit)
            .filter_map(|p| {
                let speedup = if with_losses {
                    p.with_losses_speedup?
                } else {
                    p.speedup
                };
                Some((p.workers as f64, speedup))
            })
            .filter(|&(x, y)| usable(x, y))
            .collect();
        let losses = series
            .runs
            .iter()
            .filter(|p| p.threads > 1 && usable(p.threads as f64, 1.0))
            // No gain drawn as a loss: a part below 0 is drawn as 0, as the tables show it.
            .filter_map(|p| Some((p.threads as f64, nqueens_ui::series::shown_loss(p.loss?).0)))
            .filter(|(_, l)| l.parts().iter().all(|(_, x)| x.abs() <= DRAWN.1))
            .collect();
        let (colour, bar) = PALETTE[index % PALETTE.len()];
        Curve {
            colour,
            bar,
            measured,
            model,
            with_losses,
            losses,
            index,
            of,
        }
    }

    pub(super) fn xs(&self) -> impl Iterator<Item = f64> + '_ {
        self.measured
            .iter()
            .map(|m| m.threads)
            .chain(self.model.iter().map(|&(x, _)| x))
    }
}

/// One of the two panels: what its y axis shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Panel {
    /// Speedup on a log scale.
    Speedup,
    /// Efficiency (speedup ÷ threads) on a linear scale.
    Efficiency,
}

impl Panel {
    /// The panel's y value for `speedup` at `threads`.
    pub(super) fn y(self, threads: f64, speedup: f64) -> f64 {
        match self {
            Panel::Speedup => speedup,
            Panel::Efficiency => speedup / threads,
        }
    }
}

/// A curve's points in a panel's own y values.
pub(super) struct Lines {
    pub(super) model: Vec<(f64, f64)>,
    pub(super) measured: Vec<(f64, f64)>,
    /// (threads, low, high) of each range bar.
    pub(super) bars: Vec<(f64, f64, f64)>,
}

impl Lines {
    pub(super) fn of(curve: &Curve, panel: Panel) -> Lines {
        let y = |x: f64, s: f64| panel.y(x, s);
        Lines {
            model: curve.model.iter().map(|&(x, s)| (x, y(x, s))).collect(),
            measured: curve
                .measured
                .iter()
                .map(|m| (m.x, y(m.threads, m.speedup)))
                .collect(),
            bars: curve
                .measured
                .iter()
                .filter_map(|m| {
                    let (low, high) = m.range?;
                    Some((m.x, y(m.threads, low), y(m.threads, high)))
                })
                .collect(),
        }
    }

    pub(super) fn ys(&self) -> impl Iterator<Item = f64> + '_ {
        self.model
            .iter()
            .chain(&self.measured)
            .map(|&(_, y)| y)
            .chain(self.bars.iter().flat_map(|&(_, low, high)| [low, high]))
    }
}

pub(super) type Area<'a> = DrawingArea<SVGBackend<'a>, plotters::coord::Shift>;

pub(super) fn axis_number(v: &f64) -> String {
    if v.fract() == 0.0 {
        format!("{v:.0}")
    } else {
        format!("{v:.2}")
    }
}

/// Margin around each panel, and the sizes of its label areas, pixels.
pub(super) const MARGIN: u32 = 12;
pub(super) const X_LABELS: u32 = 52;
pub(super) const Y_LABELS: u32 = 84;

/// What every panel shows behind its data: the x extent, the model-only region past the most
/// threads measured, and a line at each machine's physical core count.
pub(super) struct Frame {
    /// The most threads measured or modelled (at least 2).
    pub(super) x_max: f64,
    /// The most threads measured: past it, only the model is drawn.
    pub(super) measured_max: f64,
    /// The physical core counts of the series' machines.
    pub(super) cores: Vec<usize>,
}
