//! Scaling results as a picture: speedup against threads on log–log axes above the parallel
//! efficiency, one coloured series per machine, kernel and strategy (the measured medians joined
//! by a line, bars from the fastest to the slowest timed run), each series' load-balance model as
//! a wide pale line, the ideal as a thin dashed black line over it, one shared legend under the
//! panels and the warnings raised about the runs as a caption; as an SVG document.

use std::path::Path;

use plotters::coord::ranged1d::ValueFormatter;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::cli::scale::{distinct, saved::Series};
use crate::cli::{Failure, output, words};

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
        shorten(&machines, SUBTITLE_CHARS),
    )
}

/// `text` cut to `width` characters with an ellipsis.
fn shorten(text: &str, width: usize) -> String {
    if text.chars().count() <= width {
        text.to_string()
    } else {
        let cut: String = text.chars().take(width - 1).collect();
        format!("{cut}…")
    }
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
const TITLE_HEIGHT: u32 = 76;
const SPEEDUP_HEIGHT: u32 = 430;
const EFFICIENCY_HEIGHT: u32 = 310;
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
    let height = TITLE_HEIGHT + SPEEDUP_HEIGHT + EFFICIENCY_HEIGHT + legend_height + caption_height;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (WIDTH, height)).into_drawing_area();
        root.fill(&WHITE).map_err(fail)?;
        let (head, rest) = root.split_vertically(TITLE_HEIGHT);
        let (top, rest) = rest.split_vertically(SPEEDUP_HEIGHT);
        let (bottom, rest) = rest.split_vertically(EFFICIENCY_HEIGHT);
        let (key, notes) = rest.split_vertically(legend_height);
        let (line1, line2) = title(series);
        let centre = |size: f64| TextStyle::from(font(size)).pos(Pos::new(HPos::Center, VPos::Top));
        let middle = (WIDTH / 2) as i32;
        head.draw(&Text::new(line1, (middle, 10), centre(TITLE_FONT)))
            .map_err(fail)?;
        head.draw(&Text::new(line2, (middle, 44), centre(SUBTITLE_FONT)))
            .map_err(fail)?;
        // The x extent shared by both panels: the most threads measured or modelled (at least 2).
        let x_max = curves.iter().flat_map(Curve::xs).fold(2.0, f64::max);
        draw_panel(&top, &curves, x_max, Panel::Speedup)?;
        draw_panel(&bottom, &curves, x_max, Panel::Efficiency)?;
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
    /// The model's points up to the drawn limit.
    model: Vec<(f64, f64)>,
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
                let scaled = |seconds: f64| p.speedup * p.median_seconds / seconds;
                let (slowest, fastest) = (scaled(p.max_seconds), scaled(p.min_seconds));
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
        let model = series
            .model
            .iter()
            .filter(|p| p.workers <= model_limit)
            .map(|p| (p.workers as f64, p.speedup))
            .filter(|&(x, y)| usable(x, y))
            .collect();
        let (colour, bar) = PALETTE[index % PALETTE.len()];
        Curve {
            colour,
            bar,
            measured,
            model,
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

fn draw_panel(
    area: &Area<'_>,
    curves: &[Curve],
    x_max: f64,
    panel: Panel,
) -> Result<(), PlotError> {
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
            let y_desc = "speedup over one thread (log scale)";
            draw_lines(&mut chart, y_desc, &axis_number, curves, &lines, ideal)
        }
        Panel::Efficiency => {
            // Ideal is 100 %: room above it for what exceeds it, no more.
            let top = (y_max * 1.05).max(1.1);
            let mut chart = builder
                .build_cartesian_2d(x_range, 0.0..top)
                .map_err(fail)?;
            let y_desc = "efficiency = speedup / threads";
            let percent = |y: &f64| format!("{:.0} %", y * 100.0);
            draw_lines(&mut chart, y_desc, &percent, curves, &lines, ideal)
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

/// Draws a panel's axes (the y axis described by `y_desc`, its ticks labelled by `y_label`), its
/// model bands, the ideal line over them, then each series' bars, line and points.
fn draw_lines<'a, X, Y>(
    chart: &mut ChartContext<'a, SVGBackend<'a>, Cartesian2d<X, Y>>,
    y_desc: &str,
    y_label: &dyn Fn(&f64) -> String,
    curves: &[Curve],
    lines: &[Lines],
    ideal: [(f64, f64); 2],
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
        .map_err(fail)?;
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

/// What one legend entry shows beside its text.
enum Swatch {
    /// A series: its line and a point.
    Series(RGBColor),
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
            entries.push((Swatch::Series(curve.colour), shorten(&label, LEGEND_CHARS)));
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
    let last_modelled = curves
        .iter()
        .filter_map(|c| c.model.last())
        .map(|&(x, _)| x)
        .fold(0.0, f64::max);
    if last_modelled > 0.0 {
        let workers = format!(
            "to {}",
            words::plural(axis_number(&last_modelled), "worker")
        );
        entries.push(if let [curve] = curves {
            (
                Swatch::Model(curve.colour),
                format!("model: one-thread task times, {workers}; leaves out SMT, turbo, memory"),
            )
        } else {
            (
                Swatch::Model(MODELS_GREY),
                format!(
                    "models, pale in each series' colour: {workers}; leave out SMT, turbo, memory"
                ),
            )
        });
    }
    entries.push((
        Swatch::Ideal,
        "ideal: speedup = threads, efficiency = 100 %".to_string(),
    ));
    entries
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
            Swatch::Series(colour) => {
                area.draw(&PathElement::new(
                    [(x, y), (x + 30, y)],
                    colour.stroke_width(2),
                ))
                .map_err(fail)?;
                area.draw(&Circle::new((x + 15, y), 6, colour.filled()))
                    .map_err(fail)?;
            }
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
    use nqueens::internals::{DEFAULT_WORKERS, predict};
    use nqueens::scaling::study::MeasuredPoint;

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
                MeasuredPoint {
                    threads: t,
                    median_seconds: median,
                    min_seconds: median * 0.9,
                    max_seconds: median * 1.1,
                    speedup,
                    efficiency: speedup / t as f64,
                    cpu_share: None,
                    shares_core: t > 4,
                    loss: None,
                }
            })
            .collect();
        let tasks = vec![std::time::Duration::from_millis(10); 64];
        Series {
            file: None,
            n: 16,
            strategy: "mirror".into(),
            kernel: kernel.into(),
            cpu: Some("Intel(R) Xeon(R) Gold 6338 CPU @ 2.00GHz".into()),
            logical: 8,
            physical: 4,
            repeat: 3,
            runs,
            model: predict(&tasks, &DEFAULT_WORKERS),
            headline: None,
            date: None,
        }
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
            "model: one-thread task times, to 16 workers; leaves out SMT, turbo, memory",
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
        assert!(texts(&svg).iter().any(|t| t.contains(", to 64 workers;")));
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

    #[test]
    fn numbers_beyond_the_drawn_range_are_left_out_and_the_axes_stay_finite() {
        // Each of these stretched a log axis over thousands of doublings, which never finished.
        for speedup in [1e-310, 1.5e308, f64::MAX] {
            let mut absurd = series(&[1, 2], "avx2", 1.0);
            absurd.runs[1].speedup = speedup;
            absurd.model[1].speedup = 1.7e308;
            absurd.runs[0].min_seconds = 4e-311;
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
        broken.runs[0].median_seconds = 0.0;
        broken.model = predict(&[std::time::Duration::ZERO], &[1]);
        let svg = render_svg(&[broken], &PlotOptions::default()).unwrap();
        assert!(!svg.contains("NaN"), "{svg}");
        assert!(!svg.contains("inf"), "{svg}");
        texts(&svg);
    }
}
