//! The Markdown report (`lab-report/REPORT.md`).

use super::Table;

/// `t` as a GitHub Markdown table.
pub fn table(t: &Table) -> String {
    let line = |r: &[String]| {
        let cells: Vec<String> = r.iter().map(|c| c.replace('|', "\\|")).collect();
        format!("| {} |", cells.join(" | "))
    };
    let rule: Vec<&str> = (0..t.header.len())
        .map(|i| if i == 0 { "---" } else { "---:" })
        .collect();
    let header = [line(&t.header), format!("|{}|", rule.join("|"))];
    let (title, note) = (format!("**{}**\n", t.title), format!("\n{}", t.note));
    super::lay_out(t, &title, &header, line, &note)
}
