//! The study as a picture: speedup against threads, with the ideal line, the measured points and
//! the load-balance model's curve, on log–log axes, as an SVG document.

use plotters::prelude::*;

use super::study::Study;

/// Width and height of the picture, pixels.
pub const SIZE: (u32, u32) = (900, 960);

/// Drawing the picture failed.
#[derive(Debug, thiserror::Error)]
#[error("cannot draw the plot: {0}")]
pub struct PlotError(String);

fn fail<E: std::fmt::Debug>(e: E) -> PlotError {
    PlotError(format!("{e:?}"))
}

/// The picture's title: board, strategy, the kernel that ran, runs and machine.
///
/// ```
/// # use nqueens::scaling::{plot::title, study::Study, Machine};
/// # let study = Study { n: 17, strategy: nqueens::Strategy::Mirror,
/// #     kernel: nqueens::Kernel::DepthFirst,
/// #     machine: Machine { logical: 2, physical: 2 }, repeat: 3, tasks: 4000,
/// #     task_seconds_total: 1.0, task_seconds_max: 0.01, runs: vec![], model: vec![] };
/// let want = "n = 17, mirror, depth-first kernel: speedup vs threads (2 logical CPUs, 2 physical \
///             cores)";
/// assert_eq!(title(&study), want);
/// ```
pub fn title(study: &Study) -> String {
    format!(
        "n = {}, {}, {} kernel: speedup vs threads ({} logical CPUs, {} physical cores)",
        study.n, study.strategy, study.kernel, study.machine.logical, study.machine.physical
    )
}

/// Renders `study` as an SVG document: speedup against threads on log–log axes (ideal line,
/// model curve, measured points) above the parallel efficiency on a linear axis.
///
/// ```
/// use nqueens::scaling::{plot::render_svg, study::{measure, StudyOptions}};
/// let options = StudyOptions {
///     strategy: nqueens::Strategy::Mirror,
///     kernel: nqueens::Kernel::Auto,
///     threads: vec![2],
///     repeat: 1,
/// };
/// let study = measure(8, &options, &mut |_| {}).unwrap();
/// let svg = render_svg(&study).unwrap();
/// assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
/// ```
pub fn render_svg(study: &Study) -> Result<String, PlotError> {
    let finite = |(x, y): (f64, f64)| y.is_finite() && y > 0.0 && x >= 1.0;
    let series = Series {
        measured: study
            .runs
            .iter()
            .map(|p| (p.threads as f64, p.speedup))
            .filter(|&p| finite(p))
            .collect(),
        model: study
            .model
            .iter()
            .map(|p| (p.workers as f64, p.speedup))
            .filter(|&p| finite(p))
            .collect(),
        repeat: study.repeat,
    };
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(fail)?;
        let root = root
            .titled(&title(study), ("sans-serif", 22))
            .map_err(fail)?;
        let (top, bottom) = root.split_vertically(SIZE.1 * 3 / 5);
        draw_speedup(&top, &series)?;
        draw_efficiency(&bottom, &series)?;
        root.present().map_err(fail)?;
    }
    Ok(svg)
}

/// The points to draw, as (threads, speedup), non-finite values left out.
struct Series {
    measured: Vec<(f64, f64)>,
    model: Vec<(f64, f64)>,
    repeat: usize,
}

impl Series {
    fn x_max(&self) -> f64 {
        self.points().map(|(x, _)| x).fold(2.0, f64::max)
    }

    fn points(&self) -> impl Iterator<Item = (f64, f64)> + '_ {
        self.measured.iter().chain(&self.model).copied()
    }
}

type Area<'a> = DrawingArea<SVGBackend<'a>, plotters::coord::Shift>;

const BLUE_LINE: RGBColor = RGBColor(31, 119, 180);
const RED_POINT: RGBColor = RGBColor(214, 39, 40);

fn axis_number(v: &f64) -> String {
    if v.fract() == 0.0 {
        format!("{v:.0}")
    } else {
        format!("{v:.2}")
    }
}

fn draw_speedup(area: &Area<'_>, series: &Series) -> Result<(), PlotError> {
    let x_max = series.x_max();
    let y_max = series.points().map(|(_, y)| y).fold(x_max, f64::max);
    let y_min = series.points().map(|(_, y)| y).fold(1.0, f64::min);
    let mut chart = ChartBuilder::on(area)
        .margin(15)
        .x_label_area_size(45)
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
        .x_label_formatter(&axis_number)
        .y_label_formatter(&axis_number)
        .light_line_style(WHITE)
        .draw()
        .map_err(fail)?;
    chart
        .draw_series(LineSeries::new(
            series.model.iter().copied(),
            BLUE_LINE.stroke_width(3),
        ))
        .map_err(fail)?
        .label("model: largest-first list scheduling of the one-thread task times")
        .legend(|(x, y)| PathElement::new([(x, y), (x + 20, y)], BLUE_LINE.stroke_width(3)));
    // Dashed and drawn over the model, so that it stays visible where the two coincide.
    chart
        .draw_series(DashedLineSeries::new(
            [(1.0, 1.0), (x_max, x_max)],
            8,
            6,
            BLACK.stroke_width(1),
        ))
        .map_err(fail)?
        .label("ideal: speedup = threads")
        .legend(|(x, y)| PathElement::new([(x, y), (x + 20, y)], BLACK));
    chart
        .draw_series(
            series
                .measured
                .iter()
                .map(|&p| Circle::new(p, 6, RED_POINT.filled())),
        )
        .map_err(fail)?
        .label(format!("measured: median of {} timed runs", series.repeat))
        .legend(|(x, y)| Circle::new((x + 10, y), 5, RED_POINT.filled()));
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK)
        .label_font(("sans-serif", 15))
        .draw()
        .map_err(fail)
}

fn draw_efficiency(area: &Area<'_>, series: &Series) -> Result<(), PlotError> {
    let x_max = series.x_max();
    let efficiency = |points: &[(f64, f64)]| -> Vec<(f64, f64)> {
        points.iter().map(|&(x, s)| (x, s / x)).collect()
    };
    let (measured, model) = (efficiency(&series.measured), efficiency(&series.model));
    let y_max = measured
        .iter()
        .chain(&model)
        .map(|&(_, y)| y)
        .fold(1.0, f64::max)
        * 1.08;
    let mut chart = ChartBuilder::on(area)
        .margin(15)
        .x_label_area_size(45)
        .y_label_area_size(70)
        .build_cartesian_2d((1.0..x_max * 1.15).log_scale().base(2.0), 0.0..y_max)
        .map_err(fail)?;
    chart
        .configure_mesh()
        .x_desc("worker threads (log scale)")
        .y_desc("efficiency = speedup / threads")
        .x_label_formatter(&axis_number)
        .y_label_formatter(&|y| format!("{:.0} %", y * 100.0))
        .light_line_style(WHITE)
        .draw()
        .map_err(fail)?;
    chart
        .draw_series(LineSeries::new(
            model.iter().copied(),
            BLUE_LINE.stroke_width(3),
        ))
        .map_err(fail)?;
    chart
        .draw_series(DashedLineSeries::new(
            [(1.0, 1.0), (x_max, 1.0)],
            8,
            6,
            BLACK.stroke_width(1),
        ))
        .map_err(fail)?;
    chart
        .draw_series(
            measured
                .iter()
                .map(|&p| Circle::new(p, 6, RED_POINT.filled())),
        )
        .map_err(fail)?;
    Ok(())
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
            kernel: crate::Kernel::Auto,
            threads: vec![2],
            repeat: 1,
        };
        let study = measure(6, &options, &mut |_| {}).unwrap();
        let texts = texts(&render_svg(&study).unwrap());
        for wanted in [
            title(&study).as_str(),
            "worker threads (log scale)",
            "speedup over one thread (log scale)",
            "efficiency = speedup / threads",
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
            kernel: crate::Kernel::Auto,
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
                cpu_share: None,
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
