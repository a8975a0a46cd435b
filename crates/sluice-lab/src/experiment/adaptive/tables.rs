//! `adaptive`'s tables (one helper per scenario) and its chart.

use crate::outcome::{Outcome, Row};
use crate::report::{Chart, Series, Table, ms};
use crate::subject::{Tuning, setting};
use serde_json::{Value, json};

/// A whole number.
fn count(v: f64) -> String {
    format!("{v:.0}")
}

/// The rows of `scenario`.
fn rows_of<'o>(o: &'o Outcome, scenario: &str) -> Vec<&'o Row> {
    o.rows
        .iter()
        .filter(|r| r.param_text("scenario") == scenario)
        .collect()
}

/// The row name of the run with fixed budgets (compensation off), if a
/// subject has that setting.
fn fixed() -> Option<&'static str> {
    setting(Tuning::FixedBudgets).map(|s| s.name)
}

/// Every table of an outcome, scenario by scenario.
pub(super) fn tables(o: &Outcome) -> Vec<Table> {
    [wait(o), cpu(o), hung(o), mixed(o)]
        .into_iter()
        .flatten()
        .collect()
}

/// The wait staircase: one row per n, subjects side by side.
fn wait(o: &Outcome) -> Option<Table> {
    let wait = rows_of(o, "wait");
    if wait.is_empty() {
        return None;
    }
    let mut ns: Vec<Value> = Vec::new();
    for r in &wait {
        if !ns.contains(&r.params["n"]) {
            ns.push(r.params["n"].clone());
        }
    }
    let waited: Vec<String> = o
        .subjects()
        .into_iter()
        .filter(|s| wait.iter().any(|r| &r.subject == s))
        .collect();
    let mut header = vec!["n".to_string()];
    for s in &waited {
        header.push(format!("{s} ms"));
        header.push(format!("{s} in flight"));
        header.push(format!("{s} threads peak/after"));
    }
    let cell = |s: &str, p: &[(&str, Value)], m: &str, f: fn(f64) -> String| {
        o.metric(s, p, m).map_or("-".to_string(), f)
    };
    let rows = ns
        .iter()
        .map(|n| {
            let p = [("scenario", json!("wait")), ("n", n.clone())];
            let mut row = vec![n.to_string()];
            for s in &waited {
                row.push(cell(s, &p, "total_ms", ms));
                row.push(cell(s, &p, "max_in_flight", count));
                row.push(format!(
                    "{}/{}",
                    cell(s, &p, "threads_peak", count),
                    cell(s, &p, "threads_after", count)
                ));
            }
            row
        })
        .collect();
    Some(Table {
        title:
            "adaptive, wait staircase at defaults: total wall ms, reads in flight, process threads"
                .into(),
        header,
        rows,
        note: "targets: sluice n=16 <= 120 ms, n=64 <= 130 ms at 100 ms holds".into(),
    })
}

/// The CPU scenario: one row per subject, its time against fixed budgets'.
fn cpu(o: &Outcome) -> Option<Table> {
    let cpu = rows_of(o, "cpu");
    if cpu.is_empty() {
        return None;
    }
    let fixed_name = fixed().unwrap_or("fixed budgets");
    let header = vec![
        "subject".to_string(),
        "n".into(),
        "total ms".into(),
        format!("vs {fixed_name}"),
        "Cpu threads peak".into(),
    ];
    let fixed = o.metric(fixed_name, &[("scenario", json!("cpu"))], "total_ms");
    let rows = cpu
        .iter()
        .map(|r| {
            let t = r.metrics.get("total_ms").copied();
            vec![
                r.subject.clone(),
                r.param_text("n"),
                t.map_or("-".into(), ms),
                crate::report::ratio(t, fixed),
                r.metrics
                    .get("cpu_threads_peak")
                    .map_or("-".into(), |v| count(*v)),
            ]
        })
        .collect();
    Some(Table {
        title: "adaptive, CPU staircase at defaults: compensation must not oversubscribe".into(),
        header,
        rows,
        note: format!(
            "target: sluice within 5 % of {fixed_name}; its Cpu threads never above the usable cores"
        ),
    })
}

/// A column of a per-subject table: its header, the metric, its format.
type Column = (&'static str, &'static str, fn(f64) -> String);

/// A table of one row per subject, one column per metric.
fn per_subject(rows: &[&Row], columns: &[Column], title: &str, note: &str) -> Option<Table> {
    if rows.is_empty() {
        return None;
    }
    let mut header = vec!["subject".to_string()];
    header.extend(columns.iter().map(|c| c.0.to_string()));
    let rows = rows
        .iter()
        .map(|r| {
            let mut row = vec![r.subject.clone()];
            row.extend(
                columns
                    .iter()
                    .map(|(_, m, f)| r.metrics.get(*m).map_or("-".into(), |v| f(*v))),
            );
            row
        })
        .collect();
    Some(Table {
        title: title.into(),
        header,
        rows,
        note: note.into(),
    })
}

/// Ordinary reads beside hung ones: their latency.
fn hung(o: &Outcome) -> Option<Table> {
    per_subject(
        &rows_of(o, "hung"),
        &[
            ("reads", "reads", count),
            ("p50 ms", "p50_ms", ms),
            ("p99 ms", "p99_ms", ms),
            ("max ms", "max_ms", ms),
            ("hung reads done ms", "hung_total_ms", ms),
        ],
        "adaptive, file reads beside hung reads: latency of each ordinary read",
        "target: sluice p99 <= 1 ms (libuv: they wait for the hang)",
    )
}

/// The mixed closed loop: throughput and latency.
fn mixed(o: &Outcome) -> Option<Table> {
    per_subject(
        &rows_of(o, "mixed"),
        &[
            ("ops/ms", "ops_per_ms", |v| format!("{v:.2}")),
            ("p50 ms", "p50_ms", ms),
            ("p99 ms", "p99_ms", ms),
            ("threads peak", "threads_peak", count),
        ],
        "adaptive, mixed CPU + I/O (seed 004 §3.3): fixed vs adaptive vs adaptive + binding",
        "seed 004: fixed 8 threads 42.1 ops/ms p99 18.7 ms; dynamic + binding 58.6 ops/ms p99 11.2 ms",
    )
}

/// The process's threads over time during the largest wait round.
pub(super) fn chart(o: &Outcome) -> Option<Chart> {
    let wait = rows_of(o, "wait");
    let largest = wait.iter().filter_map(|r| r.params["n"].as_u64()).max()?;
    let series = wait
        .iter()
        .filter(|r| r.params["n"].as_u64() == Some(largest))
        .filter_map(|r| {
            let points = r.params.get("timeline")?.as_array()?;
            Some(Series {
                name: r.subject.clone(),
                points: points
                    .iter()
                    .filter_map(|p| Some((p[0].as_f64()?, p[1].as_f64()?)))
                    .collect(),
                color_key: r.subject.clone(),
                dashed: Some(r.subject.as_str()) == fixed(),
                steps: false,
            })
        })
        .collect();
    Some(Chart {
        title: format!("adaptive: process threads during {largest} waits (then the settle)"),
        x_label: "ms since the round began".into(),
        y_label: "threads".into(),
        series,
    })
}
