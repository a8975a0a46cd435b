//! `--svg FILE`: a chart drawn with plotters' SVG backend.

use super::{Chart, Figure, Series};
use anyhow::Context;
use plotters::prelude::*;
use std::path::Path;

const COLORS: [RGBColor; 8] = [
    RGBColor(214, 39, 40),
    RGBColor(31, 119, 180),
    RGBColor(44, 160, 44),
    RGBColor(255, 127, 14),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
];

/// Draws `figure` into `path`.
pub fn write(figure: &Figure, path: &Path) -> anyhow::Result<()> {
    let text = render(figure)?;
    std::fs::write(path, text).with_context(|| format!("writing --svg {}", path.display()))
}

/// Height of one panel, in pixels.
const PANEL_H: u32 = 420;

/// Draws `figure` as SVG text: its panels stacked top to bottom.
pub fn render(figure: &Figure) -> anyhow::Result<String> {
    let mut buf = String::new();
    {
        let n = figure.panels.len().max(1);
        let height = PANEL_H * u32::try_from(n).context("too many panels")?;
        let root = SVGBackend::with_string(&mut buf, (800, height)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let areas = root.split_evenly((n, 1));
        for (chart, area) in figure.panels.iter().zip(&areas) {
            if figure.bars {
                bars(chart, area)?;
            } else {
                lines(chart, area)?;
            }
        }
        root.present().map_err(err)?;
    }
    Ok(buf)
}

type Area<'a> = DrawingArea<SVGBackend<'a>, plotters::coord::Shift>;

/// The top of a y axis: a little above the largest value.
fn y_top(chart: &Chart) -> f64 {
    let y1 = chart
        .series
        .iter()
        .flat_map(|s| s.points.iter().map(|p| p.1))
        .fold(0f64, f64::max);
    if y1 <= 0.0 { 1.0 } else { y1 * 1.08 }
}

/// One panel of lines over a numeric x axis.
fn lines(chart: &Chart, area: &Area<'_>) -> anyhow::Result<()> {
    let (mut x0, mut x1) = (f64::MAX, f64::MIN);
    for &(x, _) in chart.series.iter().flat_map(|s| s.points.iter()) {
        x0 = x0.min(x);
        x1 = x1.max(x);
    }
    if x0 > x1 {
        (x0, x1) = (0.0, 1.0);
    }
    if x0 == x1 {
        x1 = x0 + 1.0;
    }
    let mut c = ChartBuilder::on(area)
        .caption(&chart.title, ("sans-serif", 18))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(60)
        .build_cartesian_2d(x0..x1, 0f64..y_top(chart))
        .map_err(err)?;
    c.configure_mesh()
        .x_desc(&chart.x_label)
        .y_desc(&chart.y_label)
        .draw()
        .map_err(err)?;
    let mut keys: Vec<&str> = Vec::new();
    for (i, s) in chart.series.iter().enumerate() {
        let color = COLORS[color_slot(s, i, &mut keys) % COLORS.len()];
        let style = color.stroke_width(2);
        let line = if s.steps {
            steps(&s.points)
        } else {
            s.points.clone()
        };
        let drawn = if s.dashed {
            c.draw_series(DashedLineSeries::new(line, 8, 5, style))
        } else {
            c.draw_series(LineSeries::new(line, style))
        };
        let dashed = s.dashed;
        drawn.map_err(err)?.label(&s.name).legend(move |(x, y)| {
            if dashed {
                PathElement::new(vec![(x, y), (x + 7, y)], style)
            } else {
                PathElement::new(vec![(x, y), (x + 20, y)], style)
            }
        });
        c.draw_series(s.points.iter().map(|&p| Circle::new(p, 3, color.filled())))
            .map_err(err)?;
    }
    legend(&mut c)
}

/// One panel of grouped bars: one group per distinct x value (a pool
/// size, a probe), one bar per series in each group, at the series' place
/// so a subject sits at the same place in every group.
fn bars(chart: &Chart, area: &Area<'_>) -> anyhow::Result<()> {
    let cats = categories(chart);
    let n = cats.len().max(1) as f64;
    let mut c = ChartBuilder::on(area)
        .caption(&chart.title, ("sans-serif", 18))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(60)
        // Headroom above the tallest bar for the legend (a line a series).
        .build_cartesian_2d(
            0f64..n,
            0f64..y_top(chart) * (1.05 + 0.07 * chart.series.len() as f64),
        )
        .map_err(err)?;
    c.configure_mesh()
        .disable_x_mesh()
        .x_desc(&chart.x_label)
        .y_desc(&chart.y_label)
        .x_labels(0)
        .draw()
        .map_err(err)?;
    // One label under each group's middle (plotters picks its own ticks on
    // a numeric axis; a category sits at g + 0.5).
    let base = area.get_base_pixel();
    for (g, &cat) in cats.iter().enumerate() {
        let (px, py) = c.backend_coord(&(g as f64 + 0.5, 0.0));
        let style = ("sans-serif", 14).into_font().into_text_style(area).pos(
            plotters::style::text_anchor::Pos::new(
                plotters::style::text_anchor::HPos::Center,
                plotters::style::text_anchor::VPos::Top,
            ),
        );
        area.draw(&Text::new(
            number(cat),
            (px - base.0, py - base.1 + 6),
            style,
        ))
        .map_err(err)?;
    }
    let width = 0.8 / chart.series.len().max(1) as f64;
    let mut slots: Vec<&str> = Vec::new();
    for (k, s) in chart.series.iter().enumerate() {
        let color = COLORS[color_slot(s, k, &mut slots) % COLORS.len()];
        let fill = if s.dashed {
            color.mix(0.45).filled()
        } else {
            color.filled()
        };
        let left = 0.1 + k as f64 * width;
        let rects = s.points.iter().filter_map(|&(x, y)| {
            let g = cats.iter().position(|&c| c == x)? as f64;
            Some(Rectangle::new(
                [(g + left, 0.0), (g + left + width * 0.92, y)],
                fill,
            ))
        });
        c.draw_series(rects)
            .map_err(err)?
            .label(&s.name)
            .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 14, y + 5)], fill));
        // The value above each bar: read at a glance, not off the axis.
        let values = s.points.iter().filter_map(|&(x, y)| {
            let g = cats.iter().position(|&c| c == x)? as f64;
            let style = ("sans-serif", 11).into_font().into_text_style(area).pos(
                plotters::style::text_anchor::Pos::new(
                    plotters::style::text_anchor::HPos::Center,
                    plotters::style::text_anchor::VPos::Bottom,
                ),
            );
            Some(Text::new(value(y), (g + left + width * 0.46, y), style))
        });
        c.draw_series(values).map_err(err)?;
    }
    legend(&mut c)
}

/// The distinct x values of a chart, in order.
fn categories(chart: &Chart) -> Vec<f64> {
    let mut cats: Vec<f64> = chart
        .series
        .iter()
        .flat_map(|s| s.points.iter().map(|p| p.0))
        .collect();
    cats.sort_by(f64::total_cmp);
    cats.dedup();
    cats
}

/// A bar's value label: `16` (a count), `0.70`, `42.5`, `1460`.
fn value(v: f64) -> String {
    if v.fract() == 0.0 {
        format!("{v:.0}")
    } else {
        super::ms(v)
    }
}

/// An x category's label: `4`, `2.5`.
fn number(v: f64) -> String {
    if v.fract() == 0.0 {
        format!("{v:.0}")
    } else {
        format!("{v}")
    }
}

fn legend<'a, DB: DrawingBackend + 'a, CT: plotters::coord::CoordTranslate>(
    c: &mut ChartContext<'a, DB, CT>,
) -> anyhow::Result<()>
where
    DB::ErrorType: 'static,
{
    c.configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .draw()
        .map_err(err)
}

/// A series' colour: a subject's is its place in the registry, so a
/// subject has the same colour in every chart; other keys take the slots
/// after the subjects', in order; no key, one of its own.
fn color_slot<'a>(s: &'a Series, i: usize, keys: &mut Vec<&'a str>) -> usize {
    let subjects = crate::subject::SUBJECTS;
    if let Some(k) = subjects.iter().position(|x| x.name() == s.color_key) {
        return k;
    }
    if s.color_key.is_empty() {
        return subjects.len() + i;
    }
    let k = match keys.iter().position(|k| *k == s.color_key) {
        Some(k) => k,
        None => {
            keys.push(&s.color_key);
            keys.len() - 1
        }
    };
    subjects.len() + k
}

/// The points of a step line: each value held until the next point's x.
fn steps(points: &[(f64, f64)]) -> Vec<(f64, f64)> {
    let mut out = Vec::with_capacity(points.len() * 2);
    for (i, &(x, y)) in points.iter().enumerate() {
        if i > 0 {
            out.push((x, points[i - 1].1));
        }
        out.push((x, y));
    }
    out
}

fn err<E: std::fmt::Display>(e: E) -> anyhow::Error {
    anyhow::anyhow!("drawing the chart: {e}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_every_series_and_label() {
        let chart = Chart {
            title: "staircase".into(),
            x_label: "n".into(),
            y_label: "ms".into(),
            series: vec![
                Series::new("node pool 4", vec![(1.0, 45.0), (8.0, 97.0)]),
                Series {
                    dashed: true,
                    ..Series::new("sluice", vec![(1.0, 45.0), (8.0, 50.0)])
                },
            ],
        };
        let svg = render(&Figure::lines(chart.clone())).unwrap();
        assert!(svg.starts_with("<svg"));
        assert!(svg.contains("node pool 4") && svg.contains("sluice") && svg.contains("staircase"));
        assert_eq!(svg.matches("<circle").count(), 4, "one marker per point");
    }

    #[test]
    fn bars_group_by_category_one_rect_per_point_and_one_panel_per_unit() {
        let panel = |unit: &str| Chart {
            title: format!("per pool ({unit})"),
            x_label: "pool size".into(),
            y_label: unit.into(),
            series: vec![
                Series::new("node", vec![(1.0, 30.0), (4.0, 42.5)]),
                Series::new("sluice", vec![(4.0, 95.0)]),
            ],
        };
        assert_eq!(categories(&panel("req/s")), vec![1.0, 4.0]);
        let svg = render(&Figure::bars(vec![panel("req/s"), panel("p99 ms")])).unwrap();
        assert!(
            !svg.contains("stroke-width=\"2\""),
            "bars never draw a line between pools"
        );
        // The background; per panel: 3 bars, 2 legend swatches, the legend's
        // fill and border.
        let rects = svg.matches("<rect").count();
        assert_eq!(rects, 1 + 2 * (3 + 2 + 2), "rects: {rects}");
        assert!(svg.contains("req/s") && svg.contains("p99 ms") && svg.contains("\n42.5\n"));
        assert!(
            svg.contains("\n1\n") && svg.contains("\n4\n"),
            "one label per pool"
        );
        assert!(!svg.contains("\n2\n"), "no pool between the pools drawn");
    }

    #[test]
    fn steps_hold_each_value_until_the_next_x_and_subjects_keep_their_colour() {
        assert_eq!(
            steps(&[(1.0, 10.0), (3.0, 10.0), (5.0, 20.0)]),
            vec![
                (1.0, 10.0),
                (3.0, 10.0),
                (3.0, 10.0),
                (5.0, 10.0),
                (5.0, 20.0)
            ]
        );
        let mut keys = Vec::new();
        let sluice = Series {
            color_key: "sluice".into(),
            ..Series::new("sluice pool 4", vec![])
        };
        let other = Series {
            color_key: "other".into(),
            ..Series::new("other", vec![])
        };
        let at = crate::subject::SUBJECTS
            .iter()
            .position(|s| s.name() == "sluice")
            .unwrap();
        assert_eq!(color_slot(&sluice, 7, &mut keys), at);
        assert_eq!(
            color_slot(&other, 0, &mut keys),
            crate::subject::SUBJECTS.len()
        );
    }
}
