//! Scaling results as a picture: speedup against threads on log–log axes above the parallel
//! efficiency, one coloured series per machine, kernel and strategy (the measured medians joined
//! by a line, bars from the fastest to the slowest timed run), each series' load-balance model as
//! a wide pale line, the ideal as a thin dashed black line over it, one shared legend under the
//! panels and the warnings raised about the runs as a caption; as an SVG document.

#![warn(missing_docs)]

use std::path::Path;

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use nqueens::scaling::series::Series;

use nqueens_ui::failure::Failure;
use nqueens_ui::series::{Labels, distinct};
use nqueens_ui::{human, output};

mod frame;
mod legend;
mod losses;
mod panels;

pub use frame::*;
use legend::*;
use losses::*;
use panels::*;

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

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use nqueens::scaling::Loss;
    use nqueens::scaling::Machine;
    use nqueens::scaling::study::{MeasuredPoint, ModelPoint};

    #[test]
    fn bar_colour_is_the_one_the_command_tests_look_for() {
        // tests/integration/cli_scale.rs finds the first series' bars by this colour.
        assert_eq!(hex(BAR_COLOUR), "#8C1414");
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
            let fill = hex(*colour);
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
