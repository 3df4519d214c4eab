//! The speedup and efficiency panels: axes, lines, the model-only region, notes and values.

use plotters::coord::ranged1d::ValueFormatter;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::frame::*;
use nqueens_ui::human;

pub(super) fn draw_panel(
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
pub(super) fn model_style(colour: RGBColor) -> ShapeStyle {
    colour.mix(0.3).stroke_width(8)
}

/// The ideal line: thin, dashed, black.
pub(super) fn ideal_style() -> ShapeStyle {
    IDEAL.stroke_width(2)
}

/// Draws a panel's model bands, the ideal line over them, then each series' bars, line and
/// points.
pub(super) fn draw_lines<'a, X, Y>(
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
pub(super) fn draw_mesh<'a, X, Y>(
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
pub(super) const MODEL_ONLY: RGBColor = RGBColor(225, 225, 225);
pub(super) const CORES: RGBColor = RGBColor(90, 90, 90);
/// Font size of the notes in a panel and of the values on the points, pixels.
pub(super) const NOTE_FONT: f64 = 15.0;

/// Where a panel's notes (the model-only label, the core counts) go: at the bottom, under
/// curves that rise to the right, or at the top, over bars that stand on zero.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Notes {
    Bottom,
    Top,
}

/// Shades the model-only region of a panel whose y axis spans `y_span` and labels it, and draws
/// a dashed line at each physical core count, labelled; the labels go where `notes` says.
pub(super) fn draw_frame<'a, X, Y>(
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
pub(super) fn draw_note<'a, X, Y>(
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
pub(super) const MAX_VALUE_LABELS: usize = 2;

/// Writes each measured speedup beside its point, in its series' colour (up to
/// [`MAX_VALUE_LABELS`] series).
pub(super) fn draw_values<'a, X, Y>(
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
