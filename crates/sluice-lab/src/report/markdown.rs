//! The Markdown report (`lab-report/REPORT.md`).

use super::Table;
use std::fmt::Write;

/// `t` as a GitHub Markdown table.
pub fn table(t: &Table) -> String {
    let mut out = String::new();
    if !t.title.is_empty() {
        let _ = writeln!(out, "**{}**\n", t.title);
    }
    let esc = |c: &str| c.replace('|', "\\|");
    let _ = writeln!(
        out,
        "| {} |",
        t.header
            .iter()
            .map(|h| esc(h))
            .collect::<Vec<_>>()
            .join(" | ")
    );
    let _ = writeln!(
        out,
        "|{}|",
        t.header
            .iter()
            .enumerate()
            .map(|(i, _)| if i == 0 { "---" } else { "---:" })
            .collect::<Vec<_>>()
            .join("|")
    );
    for r in &t.rows {
        let _ = writeln!(
            out,
            "| {} |",
            r.iter().map(|c| esc(c)).collect::<Vec<_>>().join(" | ")
        );
    }
    if !t.note.is_empty() {
        let _ = writeln!(out, "\n{}", t.note);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_github_tables() {
        let mut t = Table::new("pool 4", &["n", "a|b"]);
        t.rows.push(vec!["1".into(), "2".into()]);
        assert_eq!(
            table(&t),
            "**pool 4**\n\n| n | a\\|b |\n|---|---:|\n| 1 | 2 |\n"
        );
    }
}
