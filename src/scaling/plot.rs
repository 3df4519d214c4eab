//! The study as a picture: speedup against threads, with the ideal line, the measured points and
//! the load-balance model's curve, on log–log axes, as an SVG document.

use plotters::prelude::*;

use super::study::Study;

/// Width and height of the picture, pixels.
pub const SIZE: (u32, u32) = (900, 640);

/// Drawing the picture failed.
#[derive(Debug, thiserror::Error)]
#[error("cannot draw the plot: {0}")]
pub struct PlotError(String);

fn fail<E: std::fmt::Debug>(e: E) -> PlotError {
    PlotError(format!("{e:?}"))
}

/// The picture's title: board, strategy, runs and machine.
///
/// ```
/// # use nqueens::scaling::{plot::title, study::Study, Machine};
/// # let study = Study { n: 17, strategy: nqueens::Strategy::Mirror,
/// #     machine: Machine { logical: 2, physical: 2 }, repeat: 3, tasks: 4000,
/// #     task_seconds_total: 1.0, task_seconds_max: 0.01, runs: vec![], model: vec![] };
/// assert_eq!(title(&study), "n = 17, mirror: speedup vs threads (2 logical CPUs, 2 physical cores)");
/// ```
pub fn title(study: &Study) -> String {
    format!(
        "n = {}, {}: speedup vs threads ({} logical CPUs, {} physical cores)",
        study.n, study.strategy, study.machine.logical, study.machine.physical
    )
}

/// Renders `study` as an SVG document.
///
/// ```
/// use nqueens::scaling::{plot::render_svg, study::{measure, StudyOptions}};
/// let options = StudyOptions { strategy: nqueens::Strategy::Mirror, threads: vec![2], repeat: 1 };
/// let study = measure(8, &options, &mut |_| {}).unwrap();
/// let svg = render_svg(&study).unwrap();
/// assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
/// ```
pub fn render_svg(study: &Study) -> Result<String, PlotError> {
    let measured: Vec<(f64, f64)> = study
        .runs
        .iter()
        .map(|p| (p.threads as f64, p.speedup))
        .filter(|&(_, s)| s.is_finite() && s > 0.0)
        .collect();
    let model: Vec<(f64, f64)> = study
        .model
        .iter()
        .map(|p| (p.workers as f64, p.speedup))
        .filter(|&(_, s)| s.is_finite() && s > 0.0)
        .collect();
    let x_max = measured
        .iter()
        .chain(&model)
        .map(|&(x, _)| x)
        .fold(2.0, f64::max);
    let y_max = measured
        .iter()
        .chain(&model)
        .map(|&(_, y)| y)
        .fold(x_max, f64::max);
    let y_min = measured
        .iter()
        .chain(&model)
        .map(|&(_, y)| y)
        .fold(1.0, f64::min);

    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(fail)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(title(study), ("sans-serif", 22))
            .margin(20)
            .x_label_area_size(50)
            .y_label_area_size(70)
            .build_cartesian_2d(
                (1.0..x_max * 1.15).log_scale().base(2.0),
                (y_min * 0.85..y_max * 1.15).log_scale().base(2.0),
            )
            .map_err(fail)?;
        chart
            .configure_mesh()
            .x_desc("worker threads (log scale)")
            .y_desc("speedup over one thread (log scale)")
            .x_label_formatter(&|x| format!("{x:.0}"))
            .y_label_formatter(&|y| {
                if y.fract() == 0.0 {
                    format!("{y:.0}")
                } else {
                    format!("{y:.2}")
                }
            })
            .light_line_style(WHITE)
            .draw()
            .map_err(fail)?;

        let blue = RGBColor(31, 119, 180);
        chart
            .draw_series(LineSeries::new(model.iter().copied(), blue.stroke_width(3)))
            .map_err(fail)?
            .label("model: largest-first list scheduling of the one-thread task times")
            .legend(move |(x, y)| PathElement::new([(x, y), (x + 20, y)], blue.stroke_width(2)));
        chart
            .draw_series(model.iter().map(|&p| Circle::new(p, 3, blue.filled())))
            .map_err(fail)?;

        // Dashed and drawn over the model, so that it stays visible where the two coincide.
        let grey = BLACK.mix(0.8);
        chart
            .draw_series(DashedLineSeries::new(
                [(1.0, 1.0), (x_max, x_max)],
                8,
                6,
                grey.stroke_width(1),
            ))
            .map_err(fail)?
            .label("ideal: speedup = threads")
            .legend(move |(x, y)| PathElement::new([(x, y), (x + 20, y)], grey));

        let red = RGBColor(214, 39, 40);
        chart
            .draw_series(measured.iter().map(|&p| Circle::new(p, 6, red.filled())))
            .map_err(fail)?
            .label(format!("measured: median of {} timed runs", study.repeat))
            .legend(move |(x, y)| Circle::new((x + 10, y), 5, red.filled()));

        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperLeft)
            .background_style(WHITE.mix(0.9))
            .border_style(BLACK)
            .label_font(("sans-serif", 15))
            .draw()
            .map_err(fail)?;
        root.present().map_err(fail)?;
    }
    Ok(svg)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scaling::Machine;
    use crate::scaling::model::ModelPoint;
    use crate::scaling::study::{MeasuredPoint, StudyOptions, measure};

    fn texts(svg: &str) -> Vec<String> {
        let doc = roxmltree::Document::parse(svg).expect("the plot is well-formed XML");
        assert_eq!(doc.root_element().tag_name().name(), "svg");
        doc.descendants()
            .filter(|n| n.is_text())
            .filter_map(|n| n.text())
            .map(|t| t.trim().to_string())
            .collect()
    }

    #[test]
    fn a_measured_study_draws_a_well_formed_labelled_svg() {
        let options = StudyOptions {
            strategy: crate::Strategy::Mirror,
            threads: vec![2],
            repeat: 1,
        };
        let study = measure(6, &options, &mut |_| {}).unwrap();
        let texts = texts(&render_svg(&study).unwrap());
        for wanted in [
            title(&study).as_str(),
            "worker threads (log scale)",
            "speedup over one thread (log scale)",
            "ideal: speedup = threads",
            "measured: median of 1 timed runs",
        ] {
            assert!(texts.iter().any(|t| t == wanted), "{wanted:?} in {texts:?}");
        }
    }

    #[test]
    fn degenerate_speedups_are_left_out_not_drawn() {
        let study = Study {
            n: 0,
            strategy: crate::Strategy::Mirror,
            machine: Machine {
                logical: 1,
                physical: 1,
            },
            repeat: 1,
            tasks: 1,
            task_seconds_total: 0.0,
            task_seconds_max: 0.0,
            runs: vec![MeasuredPoint {
                threads: 1,
                median_seconds: 0.0,
                min_seconds: 0.0,
                max_seconds: 0.0,
                speedup: f64::NAN,
                efficiency: f64::NAN,
            }],
            model: vec![ModelPoint {
                workers: 1,
                predicted_seconds: 0.0,
                speedup: f64::NAN,
                efficiency: f64::NAN,
            }],
        };
        let svg = render_svg(&study).unwrap();
        assert!(!svg.contains("NaN"), "{svg}");
        texts(&svg);
    }
}
