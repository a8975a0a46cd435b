//! Tables as aligned text for the terminal.

use super::Table;
use std::fmt::Write;

/// Renders `t` with columns aligned: the first left, the rest right.
pub fn render(t: &Table) -> String {
    let cols = t
        .header
        .len()
        .max(t.rows.iter().map(Vec::len).max().unwrap_or(0));
    let mut width = vec![0; cols];
    for row in std::iter::once(&t.header).chain(&t.rows) {
        for (i, c) in row.iter().enumerate() {
            width[i] = width[i].max(c.chars().count());
        }
    }
    let line = |row: &[String]| {
        let mut s = String::new();
        for (i, w) in width.iter().enumerate() {
            let c = row.get(i).map_or("", String::as_str);
            let pad = w - c.chars().count();
            if i == 0 {
                s.push_str(c);
                s.push_str(&" ".repeat(pad));
            } else {
                s.push_str("  ");
                s.push_str(&" ".repeat(pad));
                s.push_str(c);
            }
        }
        s.trim_end().to_string()
    };
    let mut out = String::new();
    if !t.title.is_empty() {
        let _ = writeln!(out, "{}", t.title);
    }
    let head = line(&t.header);
    let _ = writeln!(out, "{head}");
    let _ = writeln!(out, "{}", "-".repeat(head.chars().count()));
    for r in &t.rows {
        let _ = writeln!(out, "{}", line(r));
    }
    if !t.note.is_empty() {
        let _ = writeln!(out, "{}", t.note);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aligns_columns() {
        let mut t = Table::new("T", &["n", "node"]);
        t.rows.push(vec!["1".into(), "45.9".into()]);
        t.rows.push(vec!["16".into(), "191.8".into()]);
        t.note = "ms".into();
        assert_eq!(
            render(&t),
            "T\nn    node\n---------\n1    45.9\n16  191.8\nms\n"
        );
    }
}
