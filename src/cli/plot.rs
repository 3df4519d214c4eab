//! The study as a picture: speedup against threads, with the ideal line, the measured points (and
//! the range from the fastest to the slowest timed run) and the load-balance model's curve, on
//! log–log axes, above the efficiency; a legend in each panel and the warnings raised about the
//! runs as a caption; as an SVG document.

use plotters::prelude::*;

use nqueens::scaling::study::Study;

/// Width and height of the picture, pixels.
pub(crate) const SIZE: (u32, u32) = (900, 960);

/// Drawing the picture failed.
#[derive(Debug, thiserror::Error)]
#[error("cannot draw the plot: {0}")]
pub struct PlotError(String);

fn fail<E: std::fmt::Debug>(e: E) -> PlotError {
    PlotError(format!("{e:?}"))
}

/// The picture's title: board, strategy, the kernel that ran, runs and machine.
pub fn title(study: &Study) -> String {
    format!(
        "n = {}, {}, {} kernel: speedup vs threads ({} logical CPUs, {} physical cores)",
        study.n, study.strategy, study.kernel, study.machine.logical, study.machine.physical
    )
}

/// How far the model's curve reaches by default: this many times the largest measured thread
/// count (the model's predictions far beyond the measured counts are in the JSON, CSV and table
/// output; drawn, they would squeeze the measured points into a corner).
pub const MODEL_REACH: usize = 4;

/// What to draw besides the study itself.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PlotOptions {
    /// Draw the model's curve up to this many workers (the counts the study modelled, see
    /// [`nqueens::scaling::study::StudyOptions::model_up_to`]); `None`: up to [`MODEL_REACH`] times the
    /// largest measured thread count.
    pub model_up_to: Option<usize>,
    /// Warnings raised about the runs (without the `nqueens: warning:` prefix), drawn as a
    /// caption under the panels.
    pub warnings: Vec<String>,
}

impl PlotOptions {
    /// The largest worker count whose prediction is drawn for `study`.
    pub fn model_limit(&self, study: &Study) -> usize {
        self.model_up_to.unwrap_or_else(|| {
            let most = study.runs.iter().map(|p| p.threads).max().unwrap_or(1);
            most.saturating_mul(MODEL_REACH)
        })
    }
}

/// Renders `study` as an SVG document: speedup against threads on log–log axes (ideal line,
/// model curve, measured points with the range of their timed runs) above the parallel
/// efficiency on a linear axis, each with a legend, and `options.warnings` as a caption.
pub fn render_svg(study: &Study, options: &PlotOptions) -> Result<String, PlotError> {
    let series = Series::of(study, options.model_limit(study));
    let caption: Vec<String> = options
        .warnings
        .iter()
        .flat_map(|w| wrap(&format!("warning: {w}"), CAPTION_CHARS))
        .collect();
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(fail)?;
        let root = root
            .titled(&title(study), ("sans-serif", 22))
            .map_err(fail)?;
        let caption_height = if caption.is_empty() {
            0
        } else {
            CAPTION_LINE * caption.len() as u32 + 12
        };
        let (_, height) = root.dim_in_pixel();
        let (panels, notes) = root.split_vertically(height.saturating_sub(caption_height));
        let (top, bottom) = panels.split_vertically(height.saturating_sub(caption_height) * 3 / 5);
        draw_panel(&top, &series, Panel::Speedup)?;
        draw_panel(&bottom, &series, Panel::Efficiency)?;
        for (i, line) in caption.iter().enumerate() {
            let y = 4 + (CAPTION_LINE as usize * i) as i32;
            notes
                .draw(&Text::new(
                    line.as_str(),
                    (15, y),
                    ("sans-serif", 15).into_font().color(&WARNING),
                ))
                .map_err(fail)?;
        }
        root.present().map_err(fail)?;
    }
    Ok(svg)
}

/// Height of one caption line, pixels.
const CAPTION_LINE: u32 = 20;

/// Characters per caption line: about what fits the picture's width at the caption's font size.
const CAPTION_CHARS: usize = 110;

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

/// A measured thread count as drawn: the median's speedup and, when there were several timed
/// runs, the speedups of the slowest and the fastest of them.
#[derive(Clone, Copy, Debug)]
struct Measured {
    threads: f64,
    speedup: f64,
    range: Option<(f64, f64)>,
}

/// What to draw, as (threads, speedup), non-finite values left out.
struct Series {
    measured: Vec<Measured>,
    /// The model's points up to the drawn limit.
    model: Vec<(f64, f64)>,
    repeat: usize,
}

impl Series {
    fn of(study: &Study, model_limit: usize) -> Series {
        let usable = |x: f64, y: f64| y.is_finite() && y > 0.0 && x >= 1.0;
        let measured = study
            .runs
            .iter()
            .filter(|p| usable(p.threads as f64, p.speedup))
            .map(|p| {
                // The speedup is the one-thread median over this median, so each run's speedup
                // is the speedup scaled by median / that run's time.
                let scaled = |seconds: f64| p.speedup * p.median_seconds / seconds;
                let (slowest, fastest) = (scaled(p.max_seconds), scaled(p.min_seconds));
                let range = (study.repeat > 1 && usable(1.0, slowest) && usable(1.0, fastest))
                    .then_some((slowest, fastest));
                Measured {
                    threads: p.threads as f64,
                    speedup: p.speedup,
                    range,
                }
            })
            .collect();
        let model = study
            .model
            .iter()
            .filter(|p| p.workers <= model_limit)
            .map(|p| (p.workers as f64, p.speedup))
            .filter(|&(x, y)| usable(x, y))
            .collect();
        Series {
            measured,
            model,
            repeat: study.repeat,
        }
    }

    fn x_max(&self) -> f64 {
        self.measured
            .iter()
            .map(|m| m.threads)
            .chain(self.model.iter().map(|&(x, _)| x))
            .fold(2.0, f64::max)
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

/// A panel's points in its own y values.
struct Lines {
    ideal: [(f64, f64); 2],
    model: Vec<(f64, f64)>,
    measured: Vec<(f64, f64)>,
    /// (threads, low, high) of each range bar.
    bars: Vec<(f64, f64, f64)>,
}

impl Lines {
    fn of(series: &Series, panel: Panel) -> Lines {
        let x_max = series.x_max();
        let y = |x: f64, s: f64| panel.y(x, s);
        Lines {
            ideal: [(1.0, y(1.0, 1.0)), (x_max, y(x_max, x_max))],
            model: series.model.iter().map(|&(x, s)| (x, y(x, s))).collect(),
            measured: series
                .measured
                .iter()
                .map(|m| (m.threads, y(m.threads, m.speedup)))
                .collect(),
            bars: series
                .measured
                .iter()
                .filter_map(|m| {
                    let (low, high) = m.range?;
                    Some((m.threads, y(m.threads, low), y(m.threads, high)))
                })
                .collect(),
        }
    }

    fn ys(&self) -> impl Iterator<Item = f64> + '_ {
        self.ideal
            .iter()
            .chain(&self.model)
            .chain(&self.measured)
            .map(|&(_, y)| y)
            .chain(self.bars.iter().flat_map(|&(_, low, high)| [low, high]))
    }
}

type Area<'a> = DrawingArea<SVGBackend<'a>, plotters::coord::Shift>;

const MODEL_BLUE: RGBColor = RGBColor(31, 119, 180);
const IDEAL_GREY: RGBColor = RGBColor(50, 50, 50);
const RED_POINT: RGBColor = RGBColor(214, 39, 40);
/// The colour of the fastest-to-slowest bars (nothing else is drawn in it).
pub const BAR_COLOUR: RGBColor = RGBColor(140, 20, 20);
const WARNING: RGBColor = RGBColor(170, 60, 0);

fn axis_number(v: &f64) -> String {
    if v.fract() == 0.0 {
        format!("{v:.0}")
    } else {
        format!("{v:.2}")
    }
}

/// Margin around each panel, and the heights of its x labels and of one legend entry, pixels.
const MARGIN: u32 = 15;
const X_LABELS: u32 = 45;
const LEGEND_ENTRY: f64 = 22.0;

/// How much taller than the data the y axis is made so that the legend, in the upper left, sits
/// above the data: the plot's height over the height left to the data (at most 3).
fn headroom(area: &Area<'_>, legend_entries: usize) -> f64 {
    let plot = f64::from(area.dim_in_pixel().1.saturating_sub(2 * MARGIN + X_LABELS));
    let legend = legend_entries as f64 * LEGEND_ENTRY + 20.0;
    (plot / (plot - legend).max(plot / 3.0)).max(1.0)
}

fn draw_panel(area: &Area<'_>, series: &Series, panel: Panel) -> Result<(), PlotError> {
    let lines = Lines::of(series, panel);
    // From a little left of one thread, so that the one-thread bar clears the y axis.
    let x_range = (0.85..series.x_max() * 1.15).log_scale().base(2.0);
    let y_max = lines.ys().fold(1.0, f64::max);
    let stretch = headroom(area, if lines.bars.is_empty() { 3 } else { 4 });
    let builder = || {
        let mut builder = ChartBuilder::on(area);
        builder
            .margin(MARGIN)
            .x_label_area_size(X_LABELS)
            .y_label_area_size(70);
        builder
    };
    match panel {
        Panel::Speedup => {
            let low = lines.ys().fold(1.0, f64::min) * 0.85;
            // The stretch applies to the log of the range.
            let high = low * (y_max * 1.1 / low).powf(stretch);
            let mut chart = builder()
                .build_cartesian_2d(x_range, (low..high).log_scale().base(2.0))
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
            draw_lines(&mut chart, &lines, series, panel)
        }
        Panel::Efficiency => {
            let mut chart = builder()
                .build_cartesian_2d(x_range, 0.0..y_max * 1.05 * stretch)
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
            draw_lines(&mut chart, &lines, series, panel)
        }
    }
}

/// Draws a panel's bars, model, ideal line and measured points, and its legend.
fn draw_lines<'a, X, Y>(
    chart: &mut ChartContext<'a, SVGBackend<'a>, Cartesian2d<X, Y>>,
    lines: &Lines,
    series: &Series,
    panel: Panel,
) -> Result<(), PlotError>
where
    X: Ranged<ValueType = f64>,
    Y: Ranged<ValueType = f64>,
{
    let bar_style = BAR_COLOUR.stroke_width(2);
    // Each bar is one path, in backend pixels from its low end: the low cap, the stem and the
    // high cap.
    let bars: Vec<_> = lines
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
    if !bars.is_empty() {
        chart
            .draw_series(bars)
            .map_err(fail)?
            .label(format!(
                "bars: fastest to slowest of the {} timed runs",
                series.repeat
            ))
            .legend(move |(x, y)| {
                PathElement::new(
                    [
                        (x + 5, y - 6),
                        (x + 15, y - 6),
                        (x + 10, y - 6),
                        (x + 10, y + 6),
                        (x + 5, y + 6),
                        (x + 15, y + 6),
                    ],
                    bar_style,
                )
            });
    }
    let model_style = MODEL_BLUE.stroke_width(3);
    let last_modelled = lines.model.last().map_or(0.0, |&(x, _)| x);
    chart
        .draw_series(LineSeries::new(lines.model.iter().copied(), model_style))
        .map_err(fail)?
        .label(format!(
            "model: one-thread task times replayed largest-first, to {} worker{}",
            axis_number(&last_modelled),
            if last_modelled == 1.0 { "" } else { "s" }
        ))
        .legend(move |(x, y)| {
            EmptyElement::at((x, y))
                + PathElement::new([(0, 0), (20, 0)], model_style)
                + Rectangle::new([(6, -4), (14, 4)], MODEL_BLUE.filled())
        });
    chart
        .draw_series(lines.model.iter().map(|&p| {
            EmptyElement::at(p) + Rectangle::new([(-4, -4), (4, 4)], MODEL_BLUE.filled())
        }))
        .map_err(fail)?;
    // Dashed and drawn over the model, so that it stays visible where the two coincide.
    let ideal_style = IDEAL_GREY.stroke_width(2);
    chart
        .draw_series(DashedLineSeries::new(lines.ideal, 8, 6, ideal_style))
        .map_err(fail)?
        .label(match panel {
            Panel::Speedup => "ideal: speedup = threads",
            Panel::Efficiency => "ideal: efficiency = 100 %",
        })
        .legend(move |(x, y)| {
            EmptyElement::at((x, y))
                + PathElement::new([(0, 0), (8, 0)], ideal_style)
                + PathElement::new([(13, 0), (21, 0)], ideal_style)
        });
    chart
        .draw_series(
            lines
                .measured
                .iter()
                .map(|&p| Circle::new(p, 6, RED_POINT.filled())),
        )
        .map_err(fail)?
        .label(if series.repeat == 1 {
            "measured: 1 timed run".to_string()
        } else {
            format!("measured: median of {} timed runs", series.repeat)
        })
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bar_colour_is_the_one_the_command_tests_look_for() {
        // tests/integration/cli_scale.rs finds the bars by this colour.
        let hex = format!(
            "#{:02X}{:02X}{:02X}",
            BAR_COLOUR.0, BAR_COLOUR.1, BAR_COLOUR.2
        );
        assert_eq!(hex, "#8C1414");
    }
    use nqueens::internals::{DEFAULT_WORKERS, ModelPoint, predict};
    use nqueens::scaling::Machine;
    use nqueens::scaling::study::{MeasuredPoint, StudyOptions, measure};

    fn texts(svg: &str) -> Vec<String> {
        let doc = roxmltree::Document::parse(svg).expect("the plot is well-formed XML");
        assert_eq!(doc.root_element().tag_name().name(), "svg");
        doc.descendants()
            .filter(|n| n.is_text())
            .filter_map(|n| n.text())
            .map(|t| t.trim().to_string())
            .filter(|t| !t.is_empty())
            .collect()
    }

    /// Paths drawn in the bars' colour: one per bar and one per legend entry.
    fn bar_paths(svg: &str) -> usize {
        let doc = roxmltree::Document::parse(svg).unwrap();
        let colour = format!(
            "#{:02X}{:02X}{:02X}",
            BAR_COLOUR.0, BAR_COLOUR.1, BAR_COLOUR.2
        );
        doc.descendants()
            .filter(|n| n.has_tag_name("polyline"))
            .filter(|n| n.attribute("stroke") == Some(colour.as_str()))
            .count()
    }

    /// A study measured at `threads` (3 timed runs each, 10 % apart) with a model of 64 equal
    /// tasks on 1, 2, 4, …, 256 workers.
    fn study(threads: &[usize]) -> Study {
        let runs = threads
            .iter()
            .map(|&t| {
                let median = 1.0 / t as f64;
                MeasuredPoint {
                    threads: t,
                    median_seconds: median,
                    min_seconds: median * 0.9,
                    max_seconds: median * 1.1,
                    speedup: 1.0 / median,
                    efficiency: 1.0,
                    cpu_share: None,
                }
            })
            .collect();
        let tasks = vec![std::time::Duration::from_millis(10); 64];
        Study {
            n: 16,
            strategy: nqueens::Strategy::Mirror,
            kernel: nqueens::Kernel::DepthFirst,
            machine: Machine {
                logical: 4,
                physical: 4,
            },
            repeat: 3,
            tasks: 64,
            task_seconds_total: 0.64,
            task_seconds_max: 0.01,
            runs,
            model: predict(&tasks, &DEFAULT_WORKERS),
        }
    }

    #[test]
    fn title_names_board_strategy_kernel_and_machine() {
        let mut study = study(&[]);
        study.n = 17;
        study.machine = Machine {
            logical: 2,
            physical: 2,
        };
        let want = "n = 17, mirror, depth-first kernel: speedup vs threads (2 logical CPUs, 2 physical \
                    cores)";
        assert_eq!(title(&study), want);
    }

    #[test]
    fn model_reaches_four_times_the_measured_threads_unless_told() {
        // Measured up to 6 threads:
        let study = study(&[1, 6]);
        assert_eq!(PlotOptions::default().model_limit(&study), 24);
        let options = PlotOptions {
            model_up_to: Some(1024),
            ..PlotOptions::default()
        };
        assert_eq!(options.model_limit(&study), 1024);
    }

    #[test]
    fn a_measured_study_draws_a_well_formed_labelled_svg() {
        let options = StudyOptions {
            strategy: nqueens::Strategy::Mirror,
            kernel: nqueens::Kernel::Auto,
            threads: vec![2],
            repeat: 1,
            model_up_to: None,
        };
        let study = measure(6, &options, &mut |_| {}).unwrap();
        let svg = render_svg(&study, &PlotOptions::default()).unwrap();
        let texts = texts(&svg);
        for wanted in [
            title(&study).as_str(),
            "worker threads (log scale)",
            "speedup over one thread (log scale)",
            "efficiency = speedup / threads",
            "ideal: speedup = threads",
            "ideal: efficiency = 100 %",
            "measured: 1 timed run",
        ] {
            assert!(texts.iter().any(|t| t == wanted), "{wanted:?} in {texts:?}");
        }
        // One timed run has no range to draw.
        assert_eq!(bar_paths(&svg), 0);
    }

    #[test]
    fn both_panels_have_a_legend_and_range_bars() {
        let svg = render_svg(&study(&[1, 2, 4]), &PlotOptions::default()).unwrap();
        let texts = texts(&svg);
        let count = |wanted: &str| texts.iter().filter(|t| *t == wanted).count();
        assert_eq!(count("measured: median of 3 timed runs"), 2, "{texts:?}");
        assert_eq!(count("bars: fastest to slowest of the 3 timed runs"), 2);
        let model = "model: one-thread task times replayed largest-first, to 16 workers";
        assert_eq!(count(model), 2, "{texts:?}");
        assert_eq!(count("ideal: speedup = threads"), 1);
        assert_eq!(count("ideal: efficiency = 100 %"), 1);
        // Three bars and a legend entry in each panel.
        assert_eq!(bar_paths(&svg), 2 * (3 + 1));
    }

    #[test]
    fn the_model_is_drawn_to_four_times_the_measured_threads_unless_asked() {
        let study = study(&[1, 2]);
        // The x axes' tick labels are the numbers centred under their ticks.
        let largest_label = |options: &PlotOptions| {
            let svg = render_svg(&study, options).unwrap();
            let doc = roxmltree::Document::parse(&svg).unwrap();
            doc.descendants()
                .filter(|n| n.has_tag_name("text"))
                .filter(|n| n.attribute("text-anchor") == Some("middle"))
                .filter_map(|n| n.text()?.trim().parse::<f64>().ok())
                .fold(0.0, f64::max)
        };
        let default = largest_label(&PlotOptions::default());
        assert_eq!(default, 8.0);
        let wide = PlotOptions {
            model_up_to: Some(64),
            ..PlotOptions::default()
        };
        assert_eq!(wide.model_limit(&study), 64);
        assert_eq!(largest_label(&wide), 64.0);
        let texts = texts(&render_svg(&study, &wide).unwrap());
        assert!(
            texts.iter().any(|t| t.ends_with(", to 64 workers")),
            "{texts:?}"
        );
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
        let svg = render_svg(&study(&[1, 2]), &options).unwrap();
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
        let without = render_svg(&study(&[1, 2]), &PlotOptions::default()).unwrap();
        assert!(!without.contains("warning"));
    }

    #[test]
    fn wrapping_keeps_every_word_in_order() {
        assert_eq!(wrap("a bb ccc dd", 6), ["a bb", "ccc dd"]);
        assert_eq!(wrap("averyverylongword x", 4), ["averyverylongword", "x"]);
        assert!(wrap("  ", 10).is_empty());
    }

    #[test]
    fn degenerate_speedups_are_left_out_not_drawn() {
        let study = Study {
            n: 0,
            strategy: nqueens::Strategy::Mirror,
            kernel: nqueens::Kernel::Auto,
            machine: Machine {
                logical: 1,
                physical: 1,
            },
            repeat: 2,
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
        let svg = render_svg(&study, &PlotOptions::default()).unwrap();
        assert!(!svg.contains("NaN"), "{svg}");
        assert!(!svg.contains("inf"), "{svg}");
        texts(&svg);
    }
}
