//! Tables as aligned text for the terminal.

use super::Table;

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
    let head = line(&t.header);
    let rule = "-".repeat(head.chars().count());
    super::lay_out(t, &t.title, &[head, rule], line, &t.note)
}
