//! Drawing outcomes: seed-style tables on the terminal (`table.rs`), JSON
//! (`json.rs`), SVG charts (`svg.rs`) and the Markdown report (`markdown.rs`).
//! Experiments describe *what* to draw with [`Table`] and [`Chart`]; these
//! files decide *how*.

pub mod json;
pub mod markdown;
pub mod package;
pub mod seed004;
pub mod seeds;
pub mod svg;
pub mod table;

/// A table: a title, a header row, rows of cells, and a note under it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Table {
    /// Shown above the table.
    pub title: String,
    /// Column names.
    pub header: Vec<String>,
    /// Cells, already formatted.
    pub rows: Vec<Vec<String>>,
    /// Shown under the table, if not empty.
    pub note: String,
}

impl Table {
    /// A table called `title` with the columns `header`, no rows yet and
    /// no note.
    pub fn new(title: impl Into<String>, header: &[&str]) -> Table {
        Table {
            title: title.into(),
            header: header.iter().map(|h| h.to_string()).collect(),
            rows: Vec::new(),
            note: String::new(),
        }
    }
}

/// A line chart: one series per subject (and pool).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Chart {
    /// Caption.
    pub title: String,
    /// X axis label.
    pub x_label: String,
    /// Y axis label.
    pub y_label: String,
    /// The lines.
    pub series: Vec<Series>,
}

/// What an SVG file holds: one or more [`Chart`]s stacked as panels, one
/// unit per panel, and how their x axis reads.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Figure {
    /// The panels, top to bottom; each has its own y axis (its own unit).
    pub panels: Vec<Chart>,
    /// The x values are categories (pool sizes, probes, scenarios), not
    /// a continuum: drawn as grouped bars, one group per x value, never as
    /// lines through values that do not exist between them.
    pub bars: bool,
}

impl Figure {
    /// One panel of lines over a numeric x axis.
    pub fn lines(chart: Chart) -> Self {
        Figure {
            panels: vec![chart],
            bars: false,
        }
    }

    /// Panels of grouped bars over categorical x values.
    pub fn bars(panels: Vec<Chart>) -> Self {
        Figure { panels, bars: true }
    }
}

use crate::outcome::{Outcome, Row};

/// One line of a [`Chart`].
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Series {
    /// Legend entry.
    pub name: String,
    /// Points, in x order.
    pub points: Vec<(f64, f64)>,
    /// Lines with the same key share a color (e.g. one per subject);
    /// empty: a color of its own.
    pub color_key: String,
    /// Draw dashed (e.g. the second pool size of a subject).
    pub dashed: bool,
    /// Draw as steps: each value held until the next point's x (a count
    /// that changes only in whole batches, like the wait staircase).
    pub steps: bool,
}

impl Series {
    /// A solid line with a color of its own.
    pub fn new(name: impl Into<String>, points: Vec<(f64, f64)>) -> Self {
        Series {
            name: name.into(),
            points,
            ..Default::default()
        }
    }
}

/// Where one row stands on a chart: the series it joins and its point.
#[derive(Debug, Clone, PartialEq)]
pub struct Point {
    /// The series' legend entry; the series takes its first row's
    /// subject's colour.
    pub series: String,
    /// Whether the series is dashed (a subject's later pool sizes).
    pub dashed: bool,
    /// Where the row stands.
    pub xy: (f64, f64),
}

impl Point {
    /// `xy` on the solid line of the row's subject.
    pub fn subject(row: &Row, xy: (f64, f64)) -> Point {
        Point {
            series: row.subject.clone(),
            dashed: false,
            xy,
        }
    }

    /// `xy` on the line of the row's subject at its pool size (`node pool
    /// 4`), dashed from the outcome's second pool size on.
    pub fn pool(o: &Outcome, row: &Row, xy: (f64, f64)) -> Point {
        Point {
            series: format!("{} pool {}", row.subject, row.param_text("pool")),
            dashed: o.is_later_pool(row),
            xy,
        }
    }
}

/// The series of a chart of `rows`: each row placed by `place` (rows it
/// places nowhere are left out), one series per name, coloured by its
/// first row's subject, its points in x order.
///
/// ```
/// use sluice_lab::report::{Point, series_of};
/// use sluice_lab::Row;
///
/// let row = |subject: &str, n: u64, ms: f64| Row::new(subject).param("n", n).metric("ms", ms);
/// let rows = [row("node", 2, 20.0), row("node", 1, 10.0), row("sluice", 1, 5.0)];
/// let series = series_of(&rows, |r| {
///     Some(Point::subject(r, (r.params["n"].as_f64()?, r.metrics["ms"])))
/// });
/// assert_eq!(series.len(), 2);
/// assert_eq!(series[0].points, [(1.0, 10.0), (2.0, 20.0)]);
/// assert_eq!(series[1].color_key, "sluice");
/// ```
pub fn series_of<'a>(
    rows: impl IntoIterator<Item = &'a Row>,
    place: impl Fn(&'a Row) -> Option<Point>,
) -> Vec<Series> {
    let mut series: Vec<Series> = Vec::new();
    for r in rows {
        let Some(p) = place(r) else {
            continue;
        };
        match series.iter_mut().find(|s| s.name == p.series) {
            Some(s) => s.points.push(p.xy),
            None => series.push(Series {
                name: p.series,
                points: vec![p.xy],
                color_key: r.subject.clone(),
                dashed: p.dashed,
                steps: false,
            }),
        }
    }
    for s in &mut series {
        s.points.sort_by(|a, b| a.0.total_cmp(&b.0));
    }
    series
}

/// Milliseconds for a table cell: `0.07`, `12.3`, `1460`.
pub fn ms(v: f64) -> String {
    if v.is_nan() {
        "-".into()
    } else if v < 1.0 {
        format!("{v:.2}")
    } else if v < 100.0 {
        format!("{v:.1}")
    } else {
        format!("{v:.0}")
    }
}

/// A ratio cell: `a / b` as `3.2x`, or `-` if either is missing or b is 0.
pub fn ratio(a: Option<f64>, b: Option<f64>) -> String {
    match (a, b) {
        (Some(a), Some(b)) if b > 0.0 && a.is_finite() && b.is_finite() => {
            let r = a / b;
            if r >= 10.0 {
                format!("{r:.0}x")
            } else {
                format!("{r:.2}x")
            }
        }
        _ => "-".into(),
    }
}

/// A signed milliseconds cell: `+0.31`, `-0.26`, `+150`.
pub fn signed_ms(v: f64) -> String {
    if v < 0.0 {
        format!("-{}", ms(-v))
    } else {
        format!("+{}", ms(v))
    }
}

/// A parameter value as a cell: a string as it is (`unset`), anything else
/// as JSON (`4`).
pub fn param_cell(v: &serde_json::Value) -> String {
    v.as_str().map_or_else(|| v.to_string(), str::to_string)
}

/// A cell for an optional value.
pub fn cell(v: Option<f64>, f: fn(f64) -> String) -> String {
    v.map_or_else(|| "-".to_string(), f)
}

/// `t` laid out as lines of text: `title` where it has a title, the
/// `header` lines, `line` of each row, `note` where it has a note (each
/// format writes its own title, header, rows and note).
pub(crate) fn lay_out(
    t: &Table,
    title: &str,
    header: &[String],
    line: impl Fn(&[String]) -> String,
    note: &str,
) -> String {
    let mut out = Vec::new();
    if !t.title.is_empty() {
        out.push(title.to_string());
    }
    out.extend(header.iter().cloned());
    out.extend(t.rows.iter().map(|r| line(r)));
    if !t.note.is_empty() {
        out.push(note.to_string());
    }
    out.iter().map(|l| format!("{l}\n")).collect()
}

/// The report's judged sections' table rows: `| a | b | c |` a line
/// (cells as they are: goals and claims hold no `|`).
pub(crate) fn verdict_rows<const N: usize>(lines: &[[String; N]]) -> String {
    lines
        .iter()
        .map(|l| format!("| {} |\n", l.join(" | ")))
        .collect()
}

/// True where some outcome has a row of `subject`.
pub(crate) fn ran(outcomes: &[crate::Outcome], subject: &str) -> bool {
    outcomes
        .iter()
        .any(|o| o.rows.iter().any(|r| r.subject == subject))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One table in both renderings: the terminal's (columns aligned, the
    /// first left) and Markdown's (`|` escaped, numbers right-aligned).
    #[test]
    fn renders_aligned_text_and_github_tables() {
        let mut t = Table::new("T", &["n", "node"]);
        t.rows.push(vec!["1".into(), "45.9".into()]);
        t.rows.push(vec!["16".into(), "191.8".into()]);
        t.note = "ms".into();
        assert_eq!(
            table::render(&t),
            "T\nn    node\n---------\n1    45.9\n16  191.8\nms\n"
        );
        let mut t = Table::new("pool 4", &["n", "a|b"]);
        t.rows.push(vec!["1".into(), "2".into()]);
        assert_eq!(
            markdown::table(&t),
            "**pool 4**\n\n| n | a\\|b |\n|---|---:|\n| 1 | 2 |\n"
        );
    }

    #[test]
    fn cells_format_like_the_seeds() {
        assert_eq!(ms(0.066), "0.07");
        assert_eq!(ms(45.44), "45.4");
        assert_eq!(ms(1460.2), "1460");
        assert_eq!(ratio(Some(10.0), Some(4.0)), "2.50x");
        assert_eq!(ratio(Some(100.0), Some(2.0)), "50x");
        assert_eq!(ratio(Some(1.0), Some(0.0)), "-");
        assert_eq!(ratio(None, Some(1.0)), "-");
    }
}
