//! `--svg FILE`: a chart drawn with plotters' SVG backend.

use super::{Chart, Series};
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

/// Draws `chart` into `path`.
pub fn write(chart: &Chart, path: &Path) -> anyhow::Result<()> {
    let text = render(chart)?;
    std::fs::write(path, text).with_context(|| format!("writing --svg {}", path.display()))
}

/// Draws `chart` as SVG text.
pub fn render(chart: &Chart) -> anyhow::Result<String> {
    let mut buf = String::new();
    {
        let root = SVGBackend::with_string(&mut buf, (800, 480)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let pts = chart.series.iter().flat_map(|s| s.points.iter());
        let (mut x0, mut x1, mut y1) = (f64::MAX, f64::MIN, 0f64);
        for &(x, y) in pts {
            x0 = x0.min(x);
            x1 = x1.max(x);
            y1 = y1.max(y);
        }
        if x0 > x1 {
            (x0, x1) = (0.0, 1.0);
        }
        if x0 == x1 {
            x1 = x0 + 1.0;
        }
        let y1 = if y1 <= 0.0 { 1.0 } else { y1 * 1.08 };
        let mut c = ChartBuilder::on(&root)
            .caption(&chart.title, ("sans-serif", 20))
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(60)
            .build_cartesian_2d(x0..x1, 0f64..y1)
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
        c.configure_series_labels()
            .position(SeriesLabelPosition::UpperLeft)
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .draw()
            .map_err(err)?;
        root.present().map_err(err)?;
    }
    Ok(buf)
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
        let svg = render(&chart).unwrap();
        assert!(svg.starts_with("<svg"));
        assert!(svg.contains("node pool 4") && svg.contains("sluice") && svg.contains("staircase"));
        assert_eq!(svg.matches("<circle").count(), 4, "one marker per point");
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
