//! The loss panel: each thread count's lost efficiency as stacked bars of its five parts.

use plotters::prelude::*;

use nqueens::scaling::Loss;

use super::frame::*;
use super::panels::*;

/// The parts of the loss breakdown as drawn: name, colour, value.
pub(super) fn loss_parts(loss: &Loss) -> [(&'static str, RGBColor, f64); 5] {
    let names = nqueens_ui::series::loss_headings(false);
    let parts = loss.parts();
    std::array::from_fn(|i| (names[i], LOSS_COLOURS[i], parts[i].1))
}

/// The colours of the loss breakdown's parts: serial, imbalance, other programs, slowdown,
/// unexplained.
pub(super) const LOSS_COLOURS: [RGBColor; 5] = [
    RGBColor(99, 99, 99),
    RGBColor(188, 189, 34),
    RGBColor(23, 190, 207),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
];

/// The y range of the loss panel, in points: from zero to the highest end of the stacked bars
/// (each part 0 and above, [`Curve::losses`]), with room below and above for the notes.
pub(super) fn loss_span(curves: &[Curve]) -> (f64, f64) {
    let high = curves
        .iter()
        .flat_map(|c| c.losses.iter())
        .map(|(_, loss)| {
            loss_parts(loss)
                .iter()
                .fold(0.0f64, |up, &(_, _, v)| up + v.max(0.0))
        })
        .fold(0.0f64, |hi, up| hi.max(up * 100.0));
    let span = high.max(1.0);
    (-0.1 * span, high + 0.25 * span)
}

/// The third panel: at each measured thread count above one, a bar per series with the lost
/// efficiency stacked by where it went (each part 0 and above, as the tables show it).
pub(super) fn draw_losses(
    area: &Area<'_>,
    curves: &[Curve],
    frame: &Frame,
) -> Result<(), PlotError> {
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
            let mut up = 0.0;
            for (_, colour, value) in loss_parts(&loss) {
                let value = value * 100.0;
                up += value;
                let (from, to) = (up - value, up);
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
            let (_, y_up) = chart.backend_coord(&(x, up));
            bars.push(
                EmptyElement::at((x, 0.0))
                    + Rectangle::new(
                        [(offset - half, y_up - y_zero), (offset + half, 0)],
                        curve.colour.stroke_width(2),
                    ),
            );
        }
        chart.draw_series(bars).map_err(fail)?;
    }
    Ok(())
}
