//! Scaling results as a picture: speedup against threads on log–log axes above the parallel
//! efficiency, one coloured series per machine, kernel and strategy (the measured medians joined
//! by a line, bars from the fastest to the slowest timed run), each series' load-balance model as
//! a wide pale line, the ideal as a thin dashed black line over it, one shared legend under the
//! panels and the warnings raised about the runs as a caption; as an SVG document.

use std::path::Path;
use std::time::Duration;

use plotters::coord::ranged1d::ValueFormatter;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use nqueens::scaling::Loss;
use nqueens::scaling::series::Series;

use super::distinct;
use super::saved::Labels;
use crate::failure::Failure;
use crate::{human, output};

/// Width of the picture, pixels (its height grows with the legend and the caption).
pub(crate) const WIDTH: u32 = 900;

/// Drawing the picture failed.
#[derive(Debug, thiserror::Error)]
#[error("cannot draw the plot: {0}")]
pub struct PlotError(String);

fn fail<E: std::fmt::Debug>(e: E) -> PlotError {
    PlotError(format!("{e:?}"))
}

/// The picture's two title lines: board, strategies and kernels, then the machines.
pub fn title(series: &[Series]) -> (String, String) {
    let ns = distinct(series.iter().map(|s| s.n.to_string())).join(", ");
    let strategies = distinct(series.iter().map(|s| s.strategy.clone())).join(", ");
    let kernels = distinct(series.iter().map(|s| s.kernel.clone())).join(", ");
    let machines = distinct(series.iter().map(Series::machine)).join("; ");
    let kernel_word = if kernels.contains(", ") {
        "kernels"
    } else {
        "kernel"
    };
    (
        format!("Thread scaling: n = {ns}, {strategies}, {kernels} {kernel_word}"),
        human::shorten_to(&machines, SUBTITLE_CHARS).into_owned(),
    )
}

/// The picture's third title line: when the series were measured, by which version, and the
/// CPU share their runs received (`measured 2026-11-25 · nqueens 0.1.0 · CPU share 97-100 %`).
pub fn provenance(series: &[Series]) -> String {
    let dates = distinct(series.iter().filter_map(|s| {
        let date = s.run.date.as_deref()?;
        Some(date.get(..10).unwrap_or(date).to_string())
    }));
    let versions = distinct(series.iter().filter_map(|s| s.run.version.clone()));
    let shares = series
        .iter()
        .flat_map(|s| s.runs.iter().filter_map(|p| p.cpu_share))
        .filter(|x| x.is_finite());
    let (low, high) = shares.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), x| {
        (lo.min(x), hi.max(x))
    });
    let percent = |x: f64| format!("{:.0}", x * 100.0);
    let share = if low > high {
        "CPU share not measured".to_string()
    } else if percent(low) == percent(high) {
        format!("CPU share {} %", percent(low))
    } else {
        format!("CPU share {}-{} %", percent(low), percent(high))
    };
    let mut parts = vec![if dates.is_empty() {
        "date not recorded".to_string()
    } else {
        format!("measured {}", dates.join(", "))
    }];
    parts.push(if versions.is_empty() {
        "version not recorded".to_string()
    } else {
        format!("nqueens {}", versions.join(", "))
    });
    parts.push(share);
    human::shorten_to(&parts.join(" · "), SUBTITLE_CHARS).into_owned()
}

/// How far the model's curve reaches by default: this many times the largest measured thread
/// count (the model's predictions far beyond the measured counts are in the JSON, CSV and table
/// output; drawn, they would squeeze the measured points into a corner).
pub const MODEL_REACH: usize = 4;

/// What to draw besides the series themselves.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PlotOptions {
    /// Draw the model's curve up to this many workers; `None`: up to [`MODEL_REACH`] times the
    /// largest measured thread count.
    pub model_up_to: Option<usize>,
    /// Warnings raised about the runs (without the `nqueens: warning:` prefix), drawn as a
    /// caption under the legend.
    pub warnings: Vec<String>,
}

impl PlotOptions {
    /// The largest worker count whose prediction is drawn.
    pub fn model_limit(&self, series: &[Series]) -> usize {
        self.model_up_to.unwrap_or_else(|| {
            let most = series
                .iter()
                .flat_map(|s| s.runs.iter().map(|p| p.threads))
                .max()
                .unwrap_or(1);
            most.saturating_mul(MODEL_REACH)
        })
    }
}

/// Heights of the title, the two panels, one legend entry and one caption line, pixels.
const TITLE_HEIGHT: u32 = 100;
const SPEEDUP_HEIGHT: u32 = 430;
const EFFICIENCY_HEIGHT: u32 = 310;
const LOSS_HEIGHT: u32 = 300;
const LEGEND_LINE: u32 = 26;
const CAPTION_LINE: u32 = 20;

/// Font sizes, pixels at the picture's own size (the smallest text is 15 px).
const TITLE_FONT: f64 = 23.0;
const SUBTITLE_FONT: f64 = 17.0;
const TICK_FONT: f64 = 16.0;
const AXIS_FONT: f64 = 17.0;
const LEGEND_FONT: f64 = 16.0;
const CAPTION_FONT: f64 = 15.0;

/// The font of `pixels` pixels: plotters writes a font's size in points (pixels ÷ 1.24).
fn font(pixels: f64) -> FontDesc<'static> {
    ("sans-serif", pixels * 1.24).into_font()
}

/// Characters per subtitle and caption line: about what fits the width at their font sizes.
const SUBTITLE_CHARS: usize = 95;
const CAPTION_CHARS: usize = 110;

/// Renders `series` as an SVG document: speedup against threads on log–log axes above the
/// efficiency on a linear axis, one shared legend under them and `options.warnings` as a caption.
pub fn render_svg(series: &[Series], options: &PlotOptions) -> Result<String, PlotError> {
    let limit = options.model_limit(series);
    let curves: Vec<Curve> = series
        .iter()
        .enumerate()
        .map(|(i, s)| Curve::of(s, i, series.len(), limit))
        .collect();
    let legend = legend(series, &curves);
    let caption: Vec<String> = options
        .warnings
        .iter()
        .flat_map(|w| wrap(&format!("warning: {w}"), CAPTION_CHARS))
        .collect();
    let legend_height = LEGEND_LINE * legend.len() as u32 + 16;
    let caption_height = if caption.is_empty() {
        0
    } else {
        CAPTION_LINE * caption.len() as u32 + 12
    };
    let losses = curves.iter().any(|c| !c.losses.is_empty());
    let loss_height = if losses { LOSS_HEIGHT } else { 0 };
    let height = TITLE_HEIGHT
        + SPEEDUP_HEIGHT
        + EFFICIENCY_HEIGHT
        + loss_height
        + legend_height
        + caption_height;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (WIDTH, height)).into_drawing_area();
        root.fill(&WHITE).map_err(fail)?;
        let (head, rest) = root.split_vertically(TITLE_HEIGHT);
        let (top, rest) = rest.split_vertically(SPEEDUP_HEIGHT);
        let (bottom, rest) = rest.split_vertically(EFFICIENCY_HEIGHT);
        let (lost, rest) = rest.split_vertically(loss_height);
        let (key, notes) = rest.split_vertically(legend_height);
        let (line1, line2) = title(series);
        let centre = |size: f64| TextStyle::from(font(size)).pos(Pos::new(HPos::Center, VPos::Top));
        let middle = (WIDTH / 2) as i32;
        head.draw(&Text::new(line1, (middle, 10), centre(TITLE_FONT)))
            .map_err(fail)?;
        head.draw(&Text::new(line2, (middle, 44), centre(SUBTITLE_FONT)))
            .map_err(fail)?;
        head.draw(&Text::new(
            provenance(series),
            (middle, 70),
            centre(SUBTITLE_FONT),
        ))
        .map_err(fail)?;
        // The x extent shared by the panels: the most threads measured or modelled (at least 2).
        let x_max = curves.iter().flat_map(Curve::xs).fold(2.0, f64::max);
        let frame = Frame {
            x_max,
            measured_max: curves
                .iter()
                .flat_map(|c| c.measured.iter().map(|m| m.threads))
                .fold(1.0, f64::max),
            cores: distinct(series.iter().map(|s| s.machine.physical)),
        };
        draw_panel(&top, &curves, &frame, Panel::Speedup)?;
        draw_panel(&bottom, &curves, &frame, Panel::Efficiency)?;
        if losses {
            draw_losses(&lost, &curves, &frame)?;
        }
        draw_legend(&key, &legend)?;
        for (i, line) in caption.iter().enumerate() {
            let y = 4 + (CAPTION_LINE as usize * i) as i32;
            notes
                .draw(&Text::new(
                    line.as_str(),
                    (20, y),
                    font(CAPTION_FONT).color(&WARNING),
                ))
                .map_err(fail)?;
        }
        root.present().map_err(fail)?;
    }
    Ok(svg)
}

/// Draws `series` as [`render_svg`] does and writes the picture to `path`, replacing the file
/// there.
pub fn write(path: &Path, series: &[Series], options: &PlotOptions) -> Result<(), Failure> {
    // The error names what failed ("cannot draw the plot: …") itself.
    let svg = render_svg(series, options).map_err(|e| Failure::File(e.to_string()))?;
    output::replace_files(&[(path, svg.as_bytes())], "the plot")
}

/// Splits `text` into lines of at most `width` characters at spaces (a longer word gets a line
/// of its own).
fn wrap(text: &str, width: usize) -> Vec<String> {
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
const PALETTE: [(RGBColor, RGBColor); 6] = [
    (RGBColor(214, 39, 40), BAR_COLOUR),
    (RGBColor(31, 119, 180), RGBColor(10, 60, 110)),
    (RGBColor(44, 160, 44), RGBColor(20, 90, 20)),
    (RGBColor(148, 103, 189), RGBColor(80, 50, 120)),
    (RGBColor(255, 127, 14), RGBColor(150, 70, 0)),
    (RGBColor(23, 190, 207), RGBColor(10, 100, 110)),
];

/// The first series' bar colour (the command tests look for it).
pub const BAR_COLOUR: RGBColor = RGBColor(140, 20, 20);
const IDEAL: RGBColor = RGBColor(0, 0, 0);
/// The legend's swatch for the models of several series, each drawn in its series' colour.
const MODELS_GREY: RGBColor = RGBColor(110, 110, 110);
const WARNING: RGBColor = RGBColor(170, 60, 0);

/// The values the log axes are drawn for (x and y): a point outside is left out, so that a
/// saved result with absurd numbers cannot stretch an axis over thousands of doublings.
const DRAWN: (f64, f64) = (1e-9, 1e9);

/// The most series one plot draws: its legend has a line for each.
pub const MAX_SERIES: usize = 64;

/// A measured thread count as drawn: the median's speedup and, when there were several timed
/// runs, the speedups of the slowest and the fastest of them.
#[derive(Clone, Copy, Debug)]
struct Measured {
    threads: f64,
    /// Where it is drawn: the thread count, nudged left or right when several series are drawn
    /// so that equal points do not hide each other.
    x: f64,
    speedup: f64,
    range: Option<(f64, f64)>,
}

/// One series as drawn, as (threads, speedup), non-finite values left out.
struct Curve {
    colour: RGBColor,
    bar: RGBColor,
    measured: Vec<Measured>,
    /// The model's points up to the drawn limit: with the measured serial time and slowdown
    /// where the result has them, else the task times' list scheduling alone.
    model: Vec<(f64, f64)>,
    /// Whether `model` includes the measured serial time and slowdown.
    with_losses: bool,
    /// The loss breakdown of each measured thread count above one.
    losses: Vec<(f64, Loss)>,
    /// Which series this is, and of how many (the loss bars stand side by side).
    index: usize,
    of: usize,
}

impl Curve {
    fn of(series: &Series, index: usize, of: usize, model_limit: usize) -> Curve {
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
            .filter_map(|p| Some((p.threads as f64, super::shown_loss(p.loss?).0)))
            .filter(|(_, l)| {
                [
                    l.serial,
                    l.imbalance,
                    l.other_programs,
                    l.slowdown,
                    l.unexplained,
                ]
                .iter()
                .all(|x| x.abs() <= DRAWN.1)
            })
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

    fn xs(&self) -> impl Iterator<Item = f64> + '_ {
        self.measured
            .iter()
            .map(|m| m.threads)
            .chain(self.model.iter().map(|&(x, _)| x))
    }
}

/// One of the two panels: what its y axis shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Panel {
    /// Speedup on a log scale.
    Speedup,
    /// Efficiency (speedup ÷ threads) on a linear scale.
    Efficiency,
}

impl Panel {
    /// The panel's y value for `speedup` at `threads`.
    fn y(self, threads: f64, speedup: f64) -> f64 {
        match self {
            Panel::Speedup => speedup,
            Panel::Efficiency => speedup / threads,
        }
    }
}

/// A curve's points in a panel's own y values.
struct Lines {
    model: Vec<(f64, f64)>,
    measured: Vec<(f64, f64)>,
    /// (threads, low, high) of each range bar.
    bars: Vec<(f64, f64, f64)>,
}

impl Lines {
    fn of(curve: &Curve, panel: Panel) -> Lines {
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

    fn ys(&self) -> impl Iterator<Item = f64> + '_ {
        self.model
            .iter()
            .chain(&self.measured)
            .map(|&(_, y)| y)
            .chain(self.bars.iter().flat_map(|&(_, low, high)| [low, high]))
    }
}

type Area<'a> = DrawingArea<SVGBackend<'a>, plotters::coord::Shift>;

fn axis_number(v: &f64) -> String {
    if v.fract() == 0.0 {
        format!("{v:.0}")
    } else {
        format!("{v:.2}")
    }
}

/// Margin around each panel, and the sizes of its label areas, pixels.
const MARGIN: u32 = 12;
const X_LABELS: u32 = 52;
const Y_LABELS: u32 = 84;

/// What every panel shows behind its data: the x extent, the model-only region past the most
/// threads measured, and a line at each machine's physical core count.
struct Frame {
    /// The most threads measured or modelled (at least 2).
    x_max: f64,
    /// The most threads measured: past it, only the model is drawn.
    measured_max: f64,
    /// The physical core counts of the series' machines.
    cores: Vec<usize>,
}

fn draw_panel(
    area: &Area<'_>,
    curves: &[Curve],
    frame: &Frame,
    panel: Panel,
) -> Result<(), PlotError> {
    let x_max = frame.x_max;
    let lines: Vec<Lines> = curves.iter().map(|c| Lines::of(c, panel)).collect();
    let ideal = [(1.0, panel.y(1.0, 1.0)), (x_max, panel.y(x_max, x_max))];
    let ys = || {
        lines
            .iter()
            .flat_map(Lines::ys)
            .chain(ideal.iter().map(|&(_, y)| y))
    };
    // From a little left of one thread, so that the one-thread bar clears the y axis.
    let x_range = (0.85..x_max * 1.15).log_scale().base(2.0);
    let y_max = ys().fold(1.0, f64::max);
    let mut builder = ChartBuilder::on(area);
    builder
        .margin(MARGIN)
        .margin_right(28)
        .x_label_area_size(X_LABELS)
        .y_label_area_size(Y_LABELS);
    match panel {
        Panel::Speedup => {
            let low = ys().fold(1.0, f64::min) * 0.85;
            let mut chart = builder
                .build_cartesian_2d(x_range, (low..y_max * 1.15).log_scale().base(2.0))
                .map_err(fail)?;
            draw_mesh(
                &mut chart,
                "speedup over one thread (log scale)",
                &axis_number,
            )?;
            draw_frame(&mut chart, frame, (low, y_max * 1.15), Notes::Bottom)?;
            draw_lines(&mut chart, curves, &lines, ideal)?;
            draw_values(&mut chart, curves, &lines)
        }
        Panel::Efficiency => {
            // Ideal is 100 %: room above it for what exceeds it, no more.
            let top = (y_max * 1.05).max(1.1);
            let mut chart = builder
                .build_cartesian_2d(x_range, 0.0..top)
                .map_err(fail)?;
            let percent = |y: &f64| format!("{:.0} %", y * 100.0);
            draw_mesh(&mut chart, "efficiency = speedup / threads", &percent)?;
            draw_frame(&mut chart, frame, (0.0, top), Notes::Bottom)?;
            draw_lines(&mut chart, curves, &lines, ideal)
        }
    }
}

/// The model's wide pale band, in a series' colour.
fn model_style(colour: RGBColor) -> ShapeStyle {
    colour.mix(0.3).stroke_width(8)
}

/// The ideal line: thin, dashed, black.
fn ideal_style() -> ShapeStyle {
    IDEAL.stroke_width(2)
}

/// Draws a panel's model bands, the ideal line over them, then each series' bars, line and
/// points.
fn draw_lines<'a, X, Y>(
    chart: &mut ChartContext<'a, SVGBackend<'a>, Cartesian2d<X, Y>>,
    curves: &[Curve],
    lines: &[Lines],
    ideal: [(f64, f64); 2],
) -> Result<(), PlotError>
where
    X: Ranged<ValueType = f64> + ValueFormatter<f64>,
    Y: Ranged<ValueType = f64> + ValueFormatter<f64>,
{
    for (curve, line) in curves.iter().zip(lines) {
        chart
            .draw_series(LineSeries::new(
                line.model.iter().copied(),
                model_style(curve.colour),
            ))
            .map_err(fail)?;
    }
    // Thin and dashed over the wide pale model: where the two coincide, both stay visible.
    chart
        .draw_series(DashedLineSeries::new(ideal, 10, 6, ideal_style()))
        .map_err(fail)?;
    for (curve, line) in curves.iter().zip(lines) {
        let bar_style = curve.bar.stroke_width(2);
        // Each bar is one path, in backend pixels from its low end: the low cap, the stem and
        // the high cap.
        let bars: Vec<_> = line
            .bars
            .iter()
            .map(|&(x, low, high)| {
                let (_, y_low) = chart.backend_coord(&(x, low));
                let (_, y_high) = chart.backend_coord(&(x, high));
                let dy = y_high - y_low;
                EmptyElement::at((x, low))
                    + PathElement::new(
                        [(-6, 0), (6, 0), (0, 0), (0, dy), (-6, dy), (6, dy)],
                        bar_style,
                    )
            })
            .collect();
        chart.draw_series(bars).map_err(fail)?;
        chart
            .draw_series(LineSeries::new(
                line.measured.iter().copied(),
                curve.colour.stroke_width(2),
            ))
            .map_err(fail)?;
        chart
            .draw_series(
                line.measured
                    .iter()
                    .map(|&p| Circle::new(p, 6, curve.colour.filled())),
            )
            .map_err(fail)?;
    }
    Ok(())
}

/// Draws a panel's axes: the x axis in threads, the y axis described by `y_desc` with its ticks
/// labelled by `y_label`.
fn draw_mesh<'a, X, Y>(
    chart: &mut ChartContext<'a, SVGBackend<'a>, Cartesian2d<X, Y>>,
    y_desc: &str,
    y_label: &dyn Fn(&f64) -> String,
) -> Result<(), PlotError>
where
    X: Ranged<ValueType = f64> + ValueFormatter<f64>,
    Y: Ranged<ValueType = f64> + ValueFormatter<f64>,
{
    chart
        .configure_mesh()
        .x_desc("worker threads (log scale)")
        .y_desc(y_desc)
        .x_label_formatter(&axis_number)
        .y_label_formatter(y_label)
        .label_style(font(TICK_FONT))
        .axis_desc_style(font(AXIS_FONT))
        .light_line_style(WHITE)
        .draw()
        .map_err(fail)
}

/// The model-only region's shade and the core lines: drawn first, behind the data.
const MODEL_ONLY: RGBColor = RGBColor(225, 225, 225);
const CORES: RGBColor = RGBColor(90, 90, 90);
/// Font size of the notes in a panel and of the values on the points, pixels.
const NOTE_FONT: f64 = 15.0;

/// Where a panel's notes (the model-only label, the core counts) go: at the bottom, under
/// curves that rise to the right, or at the top, over bars that stand on zero.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Notes {
    Bottom,
    Top,
}

/// Shades the model-only region of a panel whose y axis spans `y_span` and labels it, and draws
/// a dashed line at each physical core count, labelled; the labels go where `notes` says.
fn draw_frame<'a, X, Y>(
    chart: &mut ChartContext<'a, SVGBackend<'a>, Cartesian2d<X, Y>>,
    frame: &Frame,
    y_span: (f64, f64),
    notes: Notes,
) -> Result<(), PlotError>
where
    X: Ranged<ValueType = f64> + ValueFormatter<f64>,
    Y: Ranged<ValueType = f64> + ValueFormatter<f64>,
{
    let (low, high) = y_span;
    let (note_y, v_pos, dy) = match notes {
        Notes::Bottom => (low, VPos::Bottom, -8),
        Notes::Top => (high, VPos::Top, 8),
    };
    if frame.x_max > frame.measured_max * 1.01 {
        let region = [(frame.measured_max, low), (frame.x_max * 1.15, high)];
        chart
            .draw_series(std::iter::once(Rectangle::new(region, MODEL_ONLY.filled())))
            .map_err(fail)?;
        // At the right end, where nothing measured is drawn.
        let at = (frame.x_max * 1.15, note_y);
        draw_note(
            chart,
            at,
            "model only (not measured)".to_string(),
            v_pos,
            dy,
        )?;
    }
    for &cores in &frame.cores {
        let x = cores as f64;
        if !(1.0..=frame.x_max).contains(&x) {
            continue;
        }
        chart
            .draw_series(DashedLineSeries::new(
                [(x, low), (x, high)],
                6,
                4,
                CORES.stroke_width(2),
            ))
            .map_err(fail)?;
        draw_note(
            chart,
            (x, note_y),
            human::plural(cores, "physical core"),
            v_pos,
            dy,
        )?;
    }
    Ok(())
}

/// Writes `text` in the notes' colour ending just left of `at`, `dy` pixels above or below it
/// (`v_pos` says which edge of the text is at that height).
fn draw_note<'a, X, Y>(
    chart: &mut ChartContext<'a, SVGBackend<'a>, Cartesian2d<X, Y>>,
    at: (f64, f64),
    text: String,
    v_pos: VPos,
    dy: i32,
) -> Result<(), PlotError>
where
    X: Ranged<ValueType = f64> + ValueFormatter<f64>,
    Y: Ranged<ValueType = f64> + ValueFormatter<f64>,
{
    let style = font(NOTE_FONT)
        .color(&CORES)
        .pos(Pos::new(HPos::Right, v_pos));
    chart
        .draw_series(std::iter::once(
            EmptyElement::at(at) + Text::new(text, (-8, dy), style),
        ))
        .map_err(fail)?;
    Ok(())
}

/// The most series whose speedups are written beside their points: the first above and left of
/// each point, the second below and right; more would cover each other.
const MAX_VALUE_LABELS: usize = 2;

/// Writes each measured speedup beside its point, in its series' colour (up to
/// [`MAX_VALUE_LABELS`] series).
fn draw_values<'a, X, Y>(
    chart: &mut ChartContext<'a, SVGBackend<'a>, Cartesian2d<X, Y>>,
    curves: &[Curve],
    lines: &[Lines],
) -> Result<(), PlotError>
where
    X: Ranged<ValueType = f64> + ValueFormatter<f64>,
    Y: Ranged<ValueType = f64> + ValueFormatter<f64>,
{
    if curves.len() > MAX_VALUE_LABELS {
        return Ok(());
    }
    for (curve, line) in curves.iter().zip(lines) {
        let (pos, offset) = if curve.index == 0 {
            (Pos::new(HPos::Right, VPos::Bottom), (-8, -8))
        } else {
            (Pos::new(HPos::Left, VPos::Top), (8, 8))
        };
        let style = font(NOTE_FONT).color(&curve.colour).pos(pos);
        chart
            .draw_series(curve.measured.iter().zip(&line.measured).map(|(m, &at)| {
                EmptyElement::at(at) + Text::new(human::speedup(m.speedup), offset, style.clone())
            }))
            .map_err(fail)?;
    }
    Ok(())
}

/// The parts of the loss breakdown as drawn: name, colour, value.
fn loss_parts(loss: &Loss) -> [(&'static str, RGBColor, f64); 5] {
    [
        ("serial", LOSS_COLOURS[0], loss.serial),
        ("imbalance", LOSS_COLOURS[1], loss.imbalance),
        ("other programs", LOSS_COLOURS[2], loss.other_programs),
        ("slowdown", LOSS_COLOURS[3], loss.slowdown),
        ("unexplained", LOSS_COLOURS[4], loss.unexplained),
    ]
}

/// The colours of the loss breakdown's parts: serial, imbalance, other programs, slowdown,
/// unexplained.
const LOSS_COLOURS: [RGBColor; 5] = [
    RGBColor(99, 99, 99),
    RGBColor(188, 189, 34),
    RGBColor(23, 190, 207),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
];

/// The y range of the loss panel, in points: the lowest and highest ends of the stacked bars
/// (zero included), with room below and above for the notes.
fn loss_span(curves: &[Curve]) -> (f64, f64) {
    let stacks = curves
        .iter()
        .flat_map(|c| c.losses.iter())
        .map(|(_, loss)| {
            loss_parts(loss)
                .iter()
                .fold((0.0f64, 0.0f64), |(down, up), &(_, _, v)| {
                    (down + v.min(0.0), up + v.max(0.0))
                })
        });
    let (low, high) = stacks.fold((0.0f64, 0.0f64), |(lo, hi), (down, up)| {
        (lo.min(down * 100.0), hi.max(up * 100.0))
    });
    let span = (high - low).max(1.0);
    (low - 0.1 * span, high + 0.25 * span)
}

/// The third panel: at each measured thread count above one, a bar per series with the lost
/// efficiency stacked by where it went (each part 0 and above, as the tables show it).
fn draw_losses(area: &Area<'_>, curves: &[Curve], frame: &Frame) -> Result<(), PlotError> {
    let y_span = loss_span(curves);
    let x_range = (0.85..frame.x_max * 1.15).log_scale().base(2.0);
    let mut chart = ChartBuilder::on(area)
        .margin(MARGIN)
        .margin_right(28)
        .x_label_area_size(X_LABELS)
        .y_label_area_size(Y_LABELS)
        .build_cartesian_2d(x_range, y_span.0..y_span.1)
        .map_err(fail)?;
    let points = |y: &f64| format!("{y:.0} %");
    draw_mesh(&mut chart, "lost efficiency by where it went", &points)?;
    draw_frame(&mut chart, frame, y_span, Notes::Top)?;
    chart
        .draw_series(LineSeries::new(
            [(0.85, 0.0), (frame.x_max * 1.15, 0.0)],
            BLACK.stroke_width(1),
        ))
        .map_err(fail)?;
    for curve in curves {
        // Side by side around the thread count: at most 18 pixels each, 36 in all.
        let half = (18 / curve.of.max(1) as i32).clamp(3, 9);
        let offset = (2 * curve.index as i32 + 1 - curve.of as i32) * half;
        let mut bars = Vec::new();
        for &(x, loss) in &curve.losses {
            let (mut down, mut up) = (0.0, 0.0);
            for (_, colour, value) in loss_parts(&loss) {
                let value = value * 100.0;
                let (from, to) = if value >= 0.0 {
                    up += value;
                    (up - value, up)
                } else {
                    down += value;
                    (down - value, down)
                };
                let (_, y_from) = chart.backend_coord(&(x, from));
                let (_, y_to) = chart.backend_coord(&(x, to));
                if y_from == y_to {
                    continue;
                }
                bars.push(
                    EmptyElement::at((x, from))
                        + Rectangle::new(
                            [(offset - half, 0), (offset + half, y_to - y_from)],
                            colour.filled(),
                        ),
                );
            }
            // The series' colour around the whole bar, so that side-by-side bars are told apart.
            let (_, y_zero) = chart.backend_coord(&(x, 0.0));
            let (_, y_down) = chart.backend_coord(&(x, down));
            let (_, y_up) = chart.backend_coord(&(x, up));
            bars.push(
                EmptyElement::at((x, 0.0))
                    + Rectangle::new(
                        [
                            (offset - half, y_up - y_zero),
                            (offset + half, y_down - y_zero),
                        ],
                        curve.colour.stroke_width(2),
                    ),
            );
        }
        chart.draw_series(bars).map_err(fail)?;
    }
    Ok(())
}

/// What one legend entry shows beside its text.
enum Swatch {
    /// A series: its line and a point.
    Series(RGBColor),
    /// A series of several: its model's band under its line and a point.
    SeriesAndModel(RGBColor),
    /// A part of the loss breakdown: a filled box.
    Box(RGBColor),
    /// A range bar.
    Bar(RGBColor),
    /// The model's band.
    Model(RGBColor),
    /// The ideal line.
    Ideal,
}

/// Characters of a legend entry: about what fits beside its swatch.
const LEGEND_CHARS: usize = 80;

/// The labels of `series` by what tells each from the others (machine, kernel, strategy, n),
/// or each whole label when they are all alike; linear in the number of series.
fn distinguishing_labels(series: &[Series]) -> Vec<String> {
    let parts: [fn(&Series) -> String; 4] = [
        Series::machine,
        |s| format!("{} kernel", s.kernel),
        |s| s.strategy.clone(),
        |s| format!("n = {}", s.n),
    ];
    let Some(first) = series.first() else {
        return Vec::new();
    };
    let differing: Vec<fn(&Series) -> String> = parts
        .into_iter()
        .filter(|&part| {
            let theirs = part(first);
            series.iter().any(|s| part(s) != theirs)
        })
        .collect();
    series
        .iter()
        .map(|s| {
            if differing.is_empty() {
                s.label()
            } else {
                differing
                    .iter()
                    .map(|part| part(s))
                    .collect::<Vec<_>>()
                    .join(", ")
            }
        })
        .collect()
}

/// The legend's entries: each series, then what the bars, the model and the ideal line are.
fn legend(series: &[Series], curves: &[Curve]) -> Vec<(Swatch, String)> {
    let mut entries = measured_entries(series, curves);
    entries.extend(model_entry(curves));
    entries.push((
        Swatch::Ideal,
        "ideal: speedup = threads, efficiency = 100 %".to_string(),
    ));
    if curves.iter().any(|c| !c.losses.is_empty()) {
        entries.extend(loss_entries());
    }
    entries
}

/// The legend's entries of the measured curves: one for a single series (how many timed runs),
/// one per series among several (its distinguishing label), and the range bars where drawn.
fn measured_entries(series: &[Series], curves: &[Curve]) -> Vec<(Swatch, String)> {
    let mut entries: Vec<(Swatch, String)> = Vec::new();
    let repeats = distinct(series.iter().map(|s| s.repeat));
    let runs = |repeat: usize| {
        if repeat == 1 {
            "1 timed run".to_string()
        } else {
            format!("median of {repeat} timed runs")
        }
    };
    if let [one] = series {
        entries.push((
            Swatch::Series(curves[0].colour),
            format!("measured: {}", runs(one.repeat)),
        ));
    } else {
        for (curve, label) in curves.iter().zip(distinguishing_labels(series)) {
            entries.push((
                Swatch::SeriesAndModel(curve.colour),
                human::shorten_to(&label, LEGEND_CHARS).into_owned(),
            ));
        }
    }
    if let Some(curve) = curves
        .iter()
        .find(|c| c.measured.iter().any(|m| m.range.is_some()))
    {
        let of = match repeats[..] {
            [repeat] => format!("the {repeat} timed runs"),
            _ => "the timed runs".to_string(),
        };
        entries.push((
            Swatch::Bar(curve.bar),
            format!("bars: fastest to slowest of {of}"),
        ));
    }
    entries
}

/// The legend's entry of the model's curves: which model, how far; `None` where none was
/// modelled.
fn model_entry(curves: &[Curve]) -> Option<(Swatch, String)> {
    let last_modelled = curves
        .iter()
        .filter_map(|c| c.model.last())
        .map(|&(x, _)| x)
        .fold(0.0, f64::max);
    if last_modelled <= 0.0 {
        return None;
    }
    let workers = format!(
        "to {}",
        human::plural(axis_number(&last_modelled), "thread")
    );
    let what = if curves.iter().any(|c| c.with_losses) {
        "model with measured losses: task times + serial time and slowdown"
    } else {
        "list-scheduling bound: 1-thread task times"
    };
    Some(if let [curve] = curves {
        let leaves = if curve.with_losses {
            ""
        } else {
            "; no SMT, turbo, memory"
        };
        (
            Swatch::Model(curve.colour),
            format!("{what}, {workers}{leaves}"),
        )
    } else {
        let what = if curves.iter().any(|c| c.with_losses) {
            "model with measured losses"
        } else {
            "list-scheduling bound"
        };
        (
            Swatch::Model(MODELS_GREY),
            format!("{what}, in each series' colour: {workers}"),
        )
    })
}

/// The legend's entries of the loss bars: each part's colour and meaning.
fn loss_entries() -> Vec<(Swatch, String)> {
    let meaning = [
        "outside the tasks (starting and ending the run)",
        "idle at the tail while other threads still count",
        "CPU time asked for and not received: this machine's load",
        "the tasks slower than on one thread (clock, SMT, caches)",
        "the rest (between tasks)",
    ];
    loss_parts(&Loss::default())
        .into_iter()
        .zip(meaning)
        .map(|((name, colour, _), meaning)| {
            (Swatch::Box(colour), format!("lost, {name}: {meaning}"))
        })
        .collect()
}

/// A series' swatch in the legend at `(x, y)`: its line with a point on it.
fn draw_series_swatch(area: &Area<'_>, x: i32, y: i32, colour: RGBColor) -> Result<(), PlotError> {
    area.draw(&PathElement::new(
        [(x, y), (x + 30, y)],
        colour.stroke_width(2),
    ))
    .map_err(fail)?;
    area.draw(&Circle::new((x + 15, y), 6, colour.filled()))
        .map_err(fail)
}

fn draw_legend(area: &Area<'_>, entries: &[(Swatch, String)]) -> Result<(), PlotError> {
    let left = (MARGIN + Y_LABELS) as i32;
    let (width, height) = area.dim_in_pixel();
    area.draw(&Rectangle::new(
        [(left - 12, 2), (width as i32 - 20, height as i32 - 8)],
        BLACK.stroke_width(1),
    ))
    .map_err(fail)?;
    for (i, (swatch, text)) in entries.iter().enumerate() {
        let y = 8 + (LEGEND_LINE as usize * i) as i32 + LEGEND_LINE as i32 / 2;
        let x = left;
        match *swatch {
            Swatch::SeriesAndModel(colour) => {
                area.draw(&PathElement::new(
                    [(x, y), (x + 30, y)],
                    model_style(colour),
                ))
                .map_err(fail)?;
                draw_series_swatch(area, x, y, colour)?;
            }
            Swatch::Box(colour) => {
                area.draw(&Rectangle::new(
                    [(x + 7, y - 8), (x + 23, y + 8)],
                    colour.filled(),
                ))
                .map_err(fail)?;
            }
            Swatch::Series(colour) => draw_series_swatch(area, x, y, colour)?,
            Swatch::Bar(colour) => {
                area.draw(&PathElement::new(
                    [
                        (x + 9, y - 7),
                        (x + 21, y - 7),
                        (x + 15, y - 7),
                        (x + 15, y + 7),
                        (x + 9, y + 7),
                        (x + 21, y + 7),
                    ],
                    colour.stroke_width(2),
                ))
                .map_err(fail)?;
            }
            Swatch::Model(colour) => {
                area.draw(&PathElement::new(
                    [(x, y), (x + 30, y)],
                    model_style(colour),
                ))
                .map_err(fail)?;
            }
            Swatch::Ideal => {
                for start in [0, 12, 24] {
                    area.draw(&PathElement::new(
                        [(x + start, y), (x + start + 7, y)],
                        ideal_style(),
                    ))
                    .map_err(fail)?;
                }
            }
        }
        area.draw(&Text::new(
            text.as_str(),
            (x + 42, y),
            TextStyle::from(font(LEGEND_FONT)).pos(Pos::new(HPos::Left, VPos::Center)),
        ))
        .map_err(fail)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use nqueens::scaling::Machine;
    use nqueens::scaling::study::{MeasuredPoint, ModelPoint};

    #[test]
    fn bar_colour_is_the_one_the_command_tests_look_for() {
        // tests/integration/cli_scale.rs finds the first series' bars by this colour.
        let hex = format!(
            "#{:02X}{:02X}{:02X}",
            BAR_COLOUR.0, BAR_COLOUR.1, BAR_COLOUR.2
        );
        assert_eq!(hex, "#8C1414");
    }

    fn parse(svg: &str) -> roxmltree::Document<'_> {
        let doc = roxmltree::Document::parse(svg).expect("the plot is well-formed XML");
        assert_eq!(doc.root_element().tag_name().name(), "svg");
        doc
    }

    fn texts(svg: &str) -> Vec<String> {
        parse(svg)
            .descendants()
            .filter(|n| n.is_text())
            .filter_map(|n| n.text())
            .map(|t| t.trim().to_string())
            .filter(|t| !t.is_empty())
            .collect()
    }

    /// Elements named `tag` whose attributes include every (name, value) of `attributes`.
    fn count(svg: &str, tag: &str, attributes: &[(&str, &str)]) -> usize {
        parse(svg)
            .descendants()
            .filter(|n| n.has_tag_name(tag))
            .filter(|n| attributes.iter().all(|&(a, v)| n.attribute(a) == Some(v)))
            .count()
    }

    /// A series measured at `threads` (3 timed runs each, 10 % apart, speedup `scale` × ideal)
    /// with a model of 64 equal tasks on 1, 2, 4, …, 256 workers.
    fn series(threads: &[usize], kernel: &str, scale: f64) -> Series {
        let runs = threads
            .iter()
            .map(|&t| {
                let speedup = if t == 1 { 1.0 } else { t as f64 * scale };
                let median = 1.0 / speedup;
                let time = Duration::from_secs_f64;
                let mut point = MeasuredPoint::new(
                    t,
                    time(median),
                    time(median * 0.9),
                    time(median * 1.1),
                    speedup,
                );
                point.shares_core = t > 4;
                point
            })
            .collect();
        let tasks = vec![std::time::Duration::from_millis(10); 64];
        let machine = Machine::new(8, 4);
        let mut series = Series::new(16, "mirror", kernel, machine);
        series.run.cpu = Some("Intel(R) Xeon(R) Gold 6338 CPU @ 2.00GHz".into());
        series.repeat = 3;
        series.runs = runs;
        series.model = ModelPoint::predict(&tasks, &ModelPoint::DEFAULT_WORKERS);
        series
    }

    #[test]
    fn the_title_names_board_strategy_kernel_and_machine() {
        let one = series(&[1, 2], "avx2", 1.0);
        let (line1, line2) = title(std::slice::from_ref(&one));
        assert_eq!(line1, "Thread scaling: n = 16, mirror, avx2 kernel");
        assert_eq!(line2, "Intel Xeon Gold 6338, 4 cores, 8 threads");
        let (line1, _) = title(&[one, series(&[1, 2], "avx512", 1.0)]);
        assert_eq!(
            line1,
            "Thread scaling: n = 16, mirror, avx2, avx512 kernels"
        );
    }

    #[test]
    fn model_reaches_four_times_the_measured_threads_unless_told() {
        let six = [series(&[1, 6], "avx2", 1.0)];
        assert_eq!(PlotOptions::default().model_limit(&six), 24);
        let options = PlotOptions {
            model_up_to: Some(1024),
            ..PlotOptions::default()
        };
        assert_eq!(options.model_limit(&six), 1024);
    }

    #[test]
    fn every_text_is_readable_at_the_drawn_size() {
        let svg = render_svg(&[series(&[1, 2, 4], "avx2", 0.9)], &PlotOptions::default()).unwrap();
        let doc = parse(&svg);
        let sizes: Vec<f64> = doc
            .descendants()
            .filter_map(|n| n.attribute("font-size")?.parse().ok())
            .collect();
        assert!(sizes.len() > 20, "{sizes:?}");
        assert!(sizes.iter().all(|&px| px >= 14.0), "{sizes:?}");
        let width: f64 = doc
            .root_element()
            .attribute("width")
            .unwrap()
            .parse()
            .unwrap();
        assert_eq!(width, f64::from(WIDTH));
    }

    #[test]
    fn one_shared_legend_names_measured_bars_model_and_ideal_once() {
        let svg = render_svg(&[series(&[1, 2, 4], "avx2", 0.9)], &PlotOptions::default()).unwrap();
        let texts = texts(&svg);
        let count = |wanted: &str| texts.iter().filter(|t| *t == wanted).count();
        for wanted in [
            "measured: median of 3 timed runs",
            "bars: fastest to slowest of the 3 timed runs",
            "list-scheduling bound: 1-thread task times, to 16 threads; no SMT, turbo, memory",
            "ideal: speedup = threads, efficiency = 100 %",
            "worker threads (log scale)",
            "speedup over one thread (log scale)",
            "efficiency = speedup / threads",
        ] {
            let expected = if wanted.starts_with("worker") { 2 } else { 1 };
            assert_eq!(count(wanted), expected, "{wanted:?} in {texts:?}");
        }
        // Three bars in each panel and one in the legend.
        assert_eq!(count_bars(&svg), 2 * 3 + 1);
    }

    fn count_bars(svg: &str) -> usize {
        count(svg, "polyline", &[("stroke", "#8C1414")])
    }

    #[test]
    fn the_model_band_lies_under_the_dashed_ideal_line() {
        // Where the model is ideal the two coincide: the pale band is drawn first, the thin
        // dashes over it, so both show.
        let svg = render_svg(&[series(&[1, 2], "avx2", 1.0)], &PlotOptions::default()).unwrap();
        let doc = parse(&svg);
        let lines: Vec<(Option<&str>, Option<&str>)> = doc
            .descendants()
            .filter(|n| n.has_tag_name("polyline"))
            .map(|n| (n.attribute("stroke-width"), n.attribute("opacity")))
            .collect();
        let band = lines.iter().position(|&l| l == (Some("8"), Some("0.3")));
        let band = band.expect("a model band");
        let dashes = lines
            .iter()
            .filter(|&&l| l == (Some("2"), Some("1")))
            .count();
        assert!(dashes > 10, "the ideal line is dashed");
        assert!(lines[band + 1..].contains(&(Some("2"), Some("1"))));
    }

    /// The largest number among the tick labels ending in `suffix` (`""`: plain numbers).
    fn largest_label(svg: &str, suffix: &str) -> f64 {
        texts(svg)
            .iter()
            .filter_map(|t| t.strip_suffix(suffix)?.trim().parse::<f64>().ok())
            .fold(0.0, f64::max)
    }

    #[test]
    fn the_axes_fit_the_data() {
        // Measured to 8 threads at 80 % of ideal; the model to 32 workers.
        let svg = render_svg(
            &[series(&[1, 2, 4, 8], "avx2", 0.8)],
            &PlotOptions::default(),
        )
        .unwrap();
        // x to 32, the ideal line to 32: the speedup axis ends there, not twice as high.
        assert_eq!(largest_label(&svg, ""), 32.0);
        // Efficiency at most 100 %: the axis stops at 110 %, not 160-200 %.
        assert_eq!(largest_label(&svg, " %"), 100.0);
    }

    #[test]
    fn the_model_is_drawn_to_four_times_the_measured_threads_unless_asked() {
        let two = [series(&[1, 2], "avx2", 1.0)];
        assert_eq!(
            largest_label(&render_svg(&two, &PlotOptions::default()).unwrap(), ""),
            8.0
        );
        let wide = PlotOptions {
            model_up_to: Some(64),
            ..PlotOptions::default()
        };
        let svg = render_svg(&two, &wide).unwrap();
        assert_eq!(largest_label(&svg, ""), 64.0);
        assert!(texts(&svg).iter().any(|t| t.contains(", to 64 threads;")));
    }

    #[test]
    fn several_series_get_their_own_colour_and_legend_entry() {
        let both = [
            series(&[1, 2, 4], "avx2", 0.9),
            series(&[1, 2, 4], "avx512", 0.7),
        ];
        let svg = render_svg(&both, &PlotOptions::default()).unwrap();
        let texts = texts(&svg);
        // The legend names what tells them apart.
        for wanted in ["avx2 kernel", "avx512 kernel"] {
            assert_eq!(
                texts.iter().filter(|t| *t == wanted).count(),
                1,
                "{texts:?}"
            );
        }
        // Three points per panel, and one in the legend, in each series' colour.
        for (colour, _) in &PALETTE[..2] {
            let fill = format!("#{:02X}{:02X}{:02X}", colour.0, colour.1, colour.2);
            assert_eq!(count(&svg, "circle", &[("fill", fill.as_str())]), 2 * 3 + 1);
        }
    }

    #[test]
    fn warnings_become_a_wrapped_caption() {
        let warning = "other programs are using the CPUs (2 threads got 41.0 % of the CPU time \
                       they asked for): measured times and speedups are unreliable; the model, \
                       built from each task's fastest time, is less affected";
        let options = PlotOptions {
            warnings: vec![warning.to_string()],
            ..PlotOptions::default()
        };
        let one = [series(&[1, 2], "avx2", 1.0)];
        let svg = render_svg(&one, &options).unwrap();
        let texts = texts(&svg);
        // The caption is drawn last.
        let first = texts
            .iter()
            .position(|t| t.starts_with("warning: "))
            .unwrap();
        let caption = &texts[first..];
        assert!(caption.len() >= 2, "wrapped: {caption:?}");
        assert_eq!(caption.join(" "), format!("warning: {warning}"));
        assert!(caption.iter().all(|l| l.chars().count() <= CAPTION_CHARS));
        let without = render_svg(&one, &PlotOptions::default()).unwrap();
        assert!(!without.contains("warning"));
    }

    #[test]
    fn wrapping_keeps_every_word_in_order() {
        assert_eq!(wrap("a bb ccc dd", 6), ["a bb", "ccc dd"]);
        assert_eq!(wrap("averyverylongword x", 4), ["averyverylongword", "x"]);
        assert!(wrap("  ", 10).is_empty());
    }

    fn hex(colour: RGBColor) -> String {
        format!("#{:02X}{:02X}{:02X}", colour.0, colour.1, colour.2)
    }

    #[test]
    fn the_subtitle_says_when_by_which_version_and_with_what_cpu_share() {
        let mut one = series(&[1, 2], "avx2", 1.0);
        assert_eq!(
            provenance(std::slice::from_ref(&one)),
            "date not recorded · version not recorded · CPU share not measured"
        );
        one.run.date = Some("2026-11-25T19:33:09Z".into());
        one.run.version = Some("0.1.0".into());
        one.runs[0].cpu_share = Some(0.991);
        one.runs[1].cpu_share = Some(0.52);
        let line = provenance(std::slice::from_ref(&one));
        assert_eq!(
            line,
            "measured 2026-11-25 · nqueens 0.1.0 · CPU share 52-99 %"
        );
        let svg = render_svg(&[one], &PlotOptions::default()).unwrap();
        assert!(texts(&svg).contains(&line));
    }

    #[test]
    fn the_model_only_region_is_shaded_and_labelled_in_each_panel() {
        let one = [series(&[1, 2, 4], "avx2", 0.9)];
        let svg = render_svg(&one, &PlotOptions::default()).unwrap();
        let shade = hex(MODEL_ONLY);
        assert_eq!(count(&svg, "rect", &[("fill", shade.as_str())]), 2);
        let label = "model only (not measured)";
        assert_eq!(texts(&svg).iter().filter(|t| *t == label).count(), 2);
        // Drawn no further than measured: nothing is model only.
        let measured = PlotOptions {
            model_up_to: Some(4),
            ..PlotOptions::default()
        };
        let svg = render_svg(&one, &measured).unwrap();
        assert_eq!(count(&svg, "rect", &[("fill", shade.as_str())]), 0);
        assert!(!texts(&svg).iter().any(|t| t == label));
    }

    #[test]
    fn a_dashed_line_marks_the_physical_cores() {
        // The fixture's machine has 4 physical cores (8 logical).
        let svg = render_svg(&[series(&[1, 2, 4], "avx2", 0.9)], &PlotOptions::default()).unwrap();
        let texts = texts(&svg);
        assert_eq!(
            texts.iter().filter(|t| *t == "4 physical cores").count(),
            2,
            "{texts:?}"
        );
        let cores = hex(CORES);
        assert!(count(&svg, "polyline", &[("stroke", cores.as_str())]) >= 2 * 3);
    }

    #[test]
    fn the_measured_speedups_are_written_on_their_points() {
        let svg = render_svg(&[series(&[1, 2, 4], "avx2", 0.9)], &PlotOptions::default()).unwrap();
        let texts = texts(&svg);
        for value in ["1.00x", "1.80x", "3.60x"] {
            assert_eq!(
                texts.iter().filter(|t| *t == value).count(),
                1,
                "{value}: {texts:?}"
            );
        }
        // Two series: each in its own colour; three would cover each other.
        let two = [series(&[1, 2], "avx2", 0.9), series(&[1, 2], "avx512", 0.7)];
        let texts = super::tests::texts(&render_svg(&two, &PlotOptions::default()).unwrap());
        assert!(texts.contains(&"1.80x".to_string()) && texts.contains(&"1.40x".to_string()));
        let three = [
            series(&[1, 2], "avx2", 0.9),
            series(&[1, 2], "avx512", 0.7),
            series(&[1, 2], "portable", 0.6),
        ];
        let texts = super::tests::texts(&render_svg(&three, &PlotOptions::default()).unwrap());
        assert!(!texts.contains(&"1.80x".to_string()), "{texts:?}");
    }

    /// `series` with a loss breakdown on every thread count above one: `parts` (serial,
    /// imbalance, slowdown, unexplained) each.
    fn with_losses(mut s: Series, parts: [f64; 5]) -> Series {
        let [serial, imbalance, other_programs, slowdown, unexplained] = parts;
        for p in s.runs.iter_mut().filter(|p| p.threads > 1) {
            let mut loss = Loss::default();
            loss.serial = serial;
            loss.imbalance = imbalance;
            loss.other_programs = other_programs;
            loss.slowdown = slowdown;
            loss.unexplained = unexplained;
            p.loss = Some(loss);
        }
        s
    }

    #[test]
    fn the_loss_breakdown_is_a_third_panel_of_stacked_bars() {
        let without = render_svg(&[series(&[1, 2, 4], "avx2", 0.9)], &PlotOptions::default());
        let without = without.unwrap();
        assert!(!texts(&without).iter().any(|t| t.starts_with("lost")));
        let one = [with_losses(
            series(&[1, 2, 4], "avx2", 0.9),
            [0.02, 0.03, 0.04, 0.05, -0.01],
        )];
        let svg = render_svg(&one, &PlotOptions::default()).unwrap();
        // One box of each part per measured count above one, and one in the legend; the part
        // below 0 is drawn as 0 (no gain drawn as a loss): its legend box alone.
        for (i, colour) in LOSS_COLOURS.into_iter().enumerate() {
            let fill = hex(colour);
            let boxes = if i == 4 { 1 } else { 2 + 1 };
            assert_eq!(
                count(&svg, "rect", &[("fill", fill.as_str())]),
                boxes,
                "{fill}"
            );
        }
        let texts = texts(&svg);
        assert!(texts.contains(&"lost efficiency by where it went".to_string()));
        assert_eq!(
            texts
                .iter()
                .filter(|t| *t == "worker threads (log scale)")
                .count(),
            3
        );
        for name in [
            "serial",
            "imbalance",
            "other programs",
            "slowdown",
            "unexplained",
        ] {
            let prefix = format!("lost, {name}: ");
            assert_eq!(texts.iter().filter(|t| t.starts_with(&prefix)).count(), 1);
        }
        // The series' outline around each bar.
        let outline = hex(PALETTE[0].0);
        assert_eq!(
            count(
                &svg,
                "rect",
                &[("fill", "none"), ("stroke", outline.as_str())]
            ),
            2
        );
    }

    #[test]
    fn each_compared_series_has_its_model_band_in_its_own_colour() {
        let both = [
            series(&[1, 2, 4], "avx2", 0.9),
            series(&[1, 2, 4], "avx512", 0.7),
        ];
        let svg = render_svg(&both, &PlotOptions::default()).unwrap();
        for (colour, _) in &PALETTE[..2] {
            let stroke = hex(*colour);
            // A band in each panel and one under the series' legend line.
            let bands = count(
                &svg,
                "polyline",
                &[("stroke", stroke.as_str()), ("opacity", "0.3")],
            );
            assert_eq!(bands, 2 + 1, "{stroke}");
        }
    }

    #[test]
    fn numbers_beyond_the_drawn_range_are_left_out_and_the_axes_stay_finite() {
        // Each of these stretched a log axis over thousands of doublings, which never finished.
        for speedup in [1e-310, 1.5e308, f64::MAX] {
            let mut absurd = series(&[1, 2], "avx2", 1.0);
            absurd.runs[1].speedup = speedup;
            absurd.model[1].speedup = 1.7e308;
            absurd.runs[0].min = Duration::ZERO;
            let svg = render_svg(&[absurd], &PlotOptions::default()).unwrap();
            assert!(largest_label(&svg, "") <= 16.0, "{speedup:e}");
            // The one-thread point is drawn, the absurd one is not: one circle a panel and one
            // in the legend.
            assert_eq!(count(&svg, "circle", &[]), 3, "{speedup:e}");
        }
    }

    #[test]
    fn degenerate_speedups_are_left_out_not_drawn() {
        let mut broken = series(&[1], "avx2", 1.0);
        broken.runs[0].speedup = f64::NAN;
        broken.runs[0].median = Duration::ZERO;
        broken.model = ModelPoint::predict(&[std::time::Duration::ZERO], &[1]);
        let svg = render_svg(&[broken], &PlotOptions::default()).unwrap();
        assert!(!svg.contains("NaN"), "{svg}");
        assert!(!svg.contains("inf"), "{svg}");
        texts(&svg);
    }
}
