//! The legend under the panels: one entry per series, the model, the ideal and the loss parts.

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use nqueens::scaling::Loss;
use nqueens::scaling::series::Series;

use nqueens_ui::human;
use nqueens_ui::series::{Labels, distinct};

use super::frame::*;
use super::losses::*;
use super::panels::{ideal_style, model_style};

/// What one legend entry shows beside its text.
pub(super) enum Swatch {
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
pub(super) const LEGEND_CHARS: usize = 80;

/// The labels of `series` by what tells each from the others (machine, kernel, strategy, n),
/// or each whole label when they are all alike; linear in the number of series.
pub(super) fn distinguishing_labels(series: &[Series]) -> Vec<String> {
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
pub(super) fn legend(series: &[Series], curves: &[Curve]) -> Vec<(Swatch, String)> {
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
pub(super) fn measured_entries(series: &[Series], curves: &[Curve]) -> Vec<(Swatch, String)> {
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
pub(super) fn model_entry(curves: &[Curve]) -> Option<(Swatch, String)> {
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
pub(super) fn loss_entries() -> Vec<(Swatch, String)> {
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
pub(super) fn draw_series_swatch(
    area: &Area<'_>,
    x: i32,
    y: i32,
    colour: RGBColor,
) -> Result<(), PlotError> {
    area.draw(&PathElement::new(
        [(x, y), (x + 30, y)],
        colour.stroke_width(2),
    ))
    .map_err(fail)?;
    area.draw(&Circle::new((x + 15, y), 6, colour.filled()))
        .map_err(fail)
}

pub(super) fn draw_legend(area: &Area<'_>, entries: &[(Swatch, String)]) -> Result<(), PlotError> {
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
