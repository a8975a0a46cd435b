//! `http`'s tables and chart series: one helper per table, reading the
//! outcome's rows by subject, pool and cell.

use crate::outcome::Outcome;
use crate::report::{Point, Table, ms, ratio, series_of};
use serde_json::{Value, json};

/// One series per subject: `metric` of the rows of `cell` by pool size,
/// mapped by `value` (rows it maps to `None` are left out).
pub(super) fn cell_series(
    o: &Outcome,
    cell: &str,
    metric: &str,
    value: impl Fn(&crate::outcome::Row, f64) -> Option<f64>,
) -> Vec<crate::report::Series> {
    let rows = o.rows.iter().filter(|r| r.param_text("cell") == cell);
    series_of(rows, |r| {
        let pool = r.params["pool"].as_f64()?;
        Some(Point::subject(
            r,
            (pool, value(r, *r.metrics.get(metric)?)?),
        ))
    })
}

/// `(subject, pool)` in first-seen order.
pub(super) fn keys(o: &Outcome) -> Vec<(String, Value)> {
    let mut out: Vec<(String, Value)> = Vec::new();
    for r in &o.rows {
        let k = (r.subject.clone(), r.params["pool"].clone());
        if !out.contains(&k) {
            out.push(k);
        }
    }
    out
}

pub(super) fn text(v: &Value) -> String {
    v.as_str().map_or_else(|| v.to_string(), str::to_string)
}

/// Metric `m` of `cell` for subject `s` at `pool`.
pub(super) fn metric(o: &Outcome, s: &str, pool: &Value, cell: &str, m: &str) -> Option<f64> {
    o.metric(s, &[("pool", pool.clone()), ("cell", json!(cell))], m)
}

/// The `/login` rate if every core hashed back to back at the subject's
/// own one-hash time (`login-1`'s p50): its ideal on this machine.
pub(super) fn ideal(o: &Outcome, s: &str, pool: &Value) -> Option<f64> {
    let cores = o.machine.cores as f64;
    metric(o, s, pool, "login-1", "p50_ms").map(|t| cores / (t / 1e3))
}

/// A rate with one decimal, `-` where there is none.
pub(super) fn rate(v: Option<f64>) -> String {
    v.map_or("-".to_string(), |v| format!("{v:.1}"))
}

pub(super) fn pct(a: Option<f64>, b: Option<f64>) -> String {
    match (a, b) {
        (Some(a), Some(b)) if b > 0.0 => format!("{:.0}%", a / b * 100.0),
        _ => "-".into(),
    }
}

/// A flood cell's table: rate, latencies, errors and 429s; with `extra`,
/// one hash's time, the ideal rate on this machine and the fair figure (%
/// of the subject's own ideal: each subject's hash is its own).
pub(super) fn route_table(
    o: &Outcome,
    keys: &[(String, Value)],
    cell: &str,
    title: String,
    extra: bool,
) -> Table {
    let get = |s: &str, pool: &Value, cell: &str, m: &str| metric(o, s, pool, cell, m);
    let cnt = |v: Option<f64>| v.map_or("-".to_string(), |v| format!("{v:.0}"));
    let ideal = |s: &str, pool: &Value| ideal(o, s, pool);
    let mut header: Vec<String> = [
        "subject", "pool", "req/s", "p50 ms", "p99 ms", "max ms", "errors", "429s",
    ]
    .map(String::from)
    .to_vec();
    if extra {
        header.extend(
            [
                "one hash ms",
                "ideal req/s",
                "% of ideal",
                "server cores used",
            ]
            .map(String::from),
        );
    }
    let rows = keys
        .iter()
        .filter(|(s, pool)| get(s, pool, cell, "req_s").is_some())
        .map(|(s, pool)| {
            let mut r = vec![
                s.clone(),
                text(pool),
                rate(get(s, pool, cell, "req_s")),
                get(s, pool, cell, "p50_ms").map_or("-".into(), ms),
                get(s, pool, cell, "p99_ms").map_or("-".into(), ms),
                get(s, pool, cell, "max_ms").map_or("-".into(), ms),
                cnt(get(s, pool, cell, "errors")),
                cnt(get(s, pool, cell, "status_429")),
            ];
            if extra {
                r.push(get(s, pool, "login-1", "p50_ms").map_or("-".into(), ms));
                r.push(rate(ideal(s, pool)));
                r.push(pct(get(s, pool, cell, "req_s"), ideal(s, pool)));
                r.push(
                    get(s, pool, cell, "server_cores").map_or("-".into(), |v| format!("{v:.2}")),
                );
            }
            r
        })
        .collect::<Vec<_>>();
    Table {
        title,
        header,
        rows,
        note: String::new(),
    }
}

/// One row per subject and pool: every cell's headline figure.
pub(super) fn summary_table(o: &Outcome, keys: &[(String, Value)]) -> Table {
    let get = |s: &str, pool: &Value, cell: &str, m: &str| metric(o, s, pool, cell, m);
    let ideal = |s: &str, pool: &Value| ideal(o, s, pool);
    let mut summary = Table::new(
        "http: per subject and pool",
        &[
            "subject",
            "pool",
            "/login req/s",
            "% of ideal",
            "/login p99 ms",
            "/ping p99 ms",
            "/ping p99 during /login flood",
            "/gzip req/s",
            "/file req/s",
        ],
    );
    for (s, pool) in keys {
        let login = get(s, pool, "login", "req_s");
        summary.rows.push(vec![
            s.clone(),
            text(pool),
            rate(login),
            pct(login, ideal(s, pool)),
            get(s, pool, "login", "p99_ms").map_or("-".into(), ms),
            get(s, pool, "ping", "p99_ms").map_or("-".into(), ms),
            get(s, pool, "ping-during-login", "p99_ms").map_or("-".into(), ms),
            rate(get(s, pool, "gzip", "req_s")),
            rate(get(s, pool, "file", "req_s")),
        ]);
    }
    summary
}

/// Seed 004's headline run: throughput, mean and p99 of the crowd.
pub(super) fn crowd_table(o: &Outcome, keys: &[(String, Value)], cell: &str) -> Table {
    let get = |s: &str, pool: &Value, m: &str| {
        o.metric(s, &[("pool", pool.clone()), ("cell", json!(cell))], m)
    };
    let first = o.rows.iter().find(|r| r.param_text("cell") == "crowd");
    let (conns, iterations) = first.map_or((0.0, 0.0), |r| {
        (
            r.metrics.get("connections").copied().unwrap_or(0.0),
            r.metrics.get("iterations").copied().unwrap_or(0.0),
        )
    });
    let (title, note) = if cell == "crowd" {
        (
            format!(
                "http crowd (seed 004's headline run): {conns:.0} connections each asking /login (pbkdf2-sha256, {iterations:.0} iterations)"
            ),
            "seed 004 (a MacBook M2, 5000 concurrent requests): Go mean 12.4 ms, p99 < 18 ms; Node with UV_THREADPOOL_SIZE=16 mean 41.7 ms, p99 > 120 ms",
        )
    } else {
        (
            format!(
                "http crowd /ping (seed 004 §4): {conns:.0} connections asking /ping back to back"
            ),
            "seed 004 §4 (8 cores, wrk -t16 -c512): goroutines 42,850 QPS, mean 11.2 ms, p99 38.7 ms; a worker-thread pool 31,620 QPS, mean 16.3 ms, p99 62.4 ms",
        )
    };
    Table {
        title,
        header: [
            "subject",
            "pool",
            "req/s",
            "mean ms",
            "p50 ms",
            "p99 ms",
            "max ms",
            "errors",
            "server cores used",
        ]
        .map(String::from)
        .to_vec(),
        rows: keys
            .iter()
            .filter(|(s, pool)| get(s, pool, "req_s").is_some())
            .map(|(s, pool)| {
                let cell = |m: &str| get(s, pool, m).map_or("-".into(), ms);
                vec![
                    s.clone(),
                    text(pool),
                    get(s, pool, "req_s").map_or("-".into(), |v| format!("{v:.1}")),
                    cell("mean_ms"),
                    cell("p50_ms"),
                    cell("p99_ms"),
                    cell("max_ms"),
                    get(s, pool, "errors").map_or("-".into(), |v| format!("{v:.0}")),
                    get(s, pool, "server_cores").map_or("-".into(), |v| format!("{v:.2}")),
                ]
            })
            .collect(),
        note: note.into(),
    }
}

/// `/ping` alone and during the `/login` flood.
pub(super) fn ping_table(o: &Outcome, keys: &[(String, Value)]) -> Table {
    let get = |s: &str, pool: &Value, cell: &str, m: &str| metric(o, s, pool, cell, m);
    let mut ping = Table::new(
        "http /ping alone and during the /login flood",
        &[
            "subject",
            "pool",
            "alone req/s",
            "alone p99 ms",
            "during req/s",
            "during p50 ms",
            "during p99 ms",
            "during max ms",
            "/login req/s meanwhile",
        ],
    );
    for (s, pool) in keys {
        let c = "ping-during-login";
        ping.rows.push(vec![
            s.clone(),
            text(pool),
            rate(get(s, pool, "ping", "req_s")),
            get(s, pool, "ping", "p99_ms").map_or("-".into(), ms),
            rate(get(s, pool, c, "req_s")),
            get(s, pool, c, "p50_ms").map_or("-".into(), ms),
            get(s, pool, c, "p99_ms").map_or("-".into(), ms),
            get(s, pool, c, "max_ms").map_or("-".into(), ms),
            rate(get(s, pool, c, "login_req_s")),
        ]);
    }
    ping
}

/// The `/login` flood beside a neighbour that wants every core, against
/// the same flood alone.
pub(super) fn neighbour_table(o: &Outcome, keys: &[(String, Value)]) -> Table {
    let get = |s: &str, pool: &Value, m: &str| metric(o, s, pool, "login-neighbour", m);
    let mut t = Table::new(
        "http /login beside a CPU-bound neighbour (one busy process per core)",
        &[
            "subject",
            "pool",
            "/login req/s",
            "% of the flood alone",
            "/login p99 ms",
            "/ping p99 ms",
            "server cores used",
            "neighbour cores used",
        ],
    );
    let cores = |v: Option<f64>| v.map_or("-".into(), |v| format!("{v:.2}"));
    cell_rows(o, keys, "login-neighbour", &mut t, |s, pool| {
        let login = get(s, pool, "req_s");
        vec![
            rate(login),
            pct(login, metric(o, s, pool, "login", "req_s")),
            get(s, pool, "p99_ms").map_or("-".into(), ms),
            get(s, pool, "ping_p99_ms").map_or("-".into(), ms),
            cores(get(s, pool, "server_cores")),
            cores(get(s, pool, "neighbour_cores")),
        ]
    });
    t.note = "a Cpu lane under SCHED_IDLE gets only what the neighbour leaves; under guarded it returns to SCHED_OTHER at the process's nice value while it starves".into();
    t
}

/// A row of `t` for each (subject, pool) that ran `cell`: the subject,
/// the pool, then `line`'s cells.
fn cell_rows(
    o: &Outcome,
    keys: &[(String, Value)],
    cell: &str,
    t: &mut Table,
    line: impl Fn(&str, &Value) -> Vec<String>,
) {
    for (s, pool) in keys {
        if metric(o, s, pool, cell, "req_s").is_some() {
            let mut row = vec![s.clone(), text(pool)];
            row.extend(line(s, pool));
            t.rows.push(row);
        }
    }
}

/// The cluster cell: Node's cluster mode, one worker per core.
pub(super) fn cluster_table(o: &Outcome, keys: &[(String, Value)]) -> Table {
    let get = |s: &str, pool: &Value, m: &str| metric(o, s, pool, "cluster", m);
    let mut t = Table::new(
        "http cluster mode: one node:cluster worker per core, /login flood with the /ping probe",
        &[
            "subject",
            "pool",
            "workers",
            "/login req/s",
            "vs node",
            "/login p99 ms",
            "/ping p99 ms",
        ],
    );
    cell_rows(o, keys, "cluster", &mut t, |s, pool| {
        let login = get(s, pool, "req_s");
        vec![
            get(s, pool, "workers").map_or("-".into(), |v| format!("{v:.0}")),
            rate(login),
            pct(login, get("node", pool, "req_s")),
            get(s, pool, "p99_ms").map_or("-".into(), ms),
            get(s, pool, "ping_p99_ms").map_or("-".into(), ms),
        ]
    });
    t.note = "every worker's loop and every worker's hashing want the same cores: under node+sluice each worker's Cpu lane is guarded against the other workers (SCHED_OTHER at the process's nice value while they starve it)".into();
    t
}

/// The cross-check of the lab's load generator against autocannon, if
/// autocannon ran.
pub(super) fn cannon_table(o: &Outcome, keys: &[(String, Value)]) -> Option<Table> {
    let get = |s: &str, pool: &Value, cell: &str, m: &str| metric(o, s, pool, cell, m);
    let has_cannon = o
        .rows
        .iter()
        .any(|r| r.param_text("cell").ends_with(":autocannon"));
    if !has_cannon {
        return None;
    }
    let mut t = Table::new(
        "cross-check: the lab's load generator vs autocannon (same cell, same server)",
        &[
            "subject",
            "pool",
            "cell",
            "loadgen req/s",
            "autocannon req/s",
            "ratio",
            "loadgen p99 ms",
            "autocannon p99 ms",
        ],
    );
    for (s, pool) in keys {
        for cell in ["login", "file"] {
            let ac = format!("{cell}:autocannon");
            if let Some(a) = get(s, pool, &ac, "req_s") {
                let l = get(s, pool, cell, "req_s");
                t.rows.push(vec![
                    s.clone(),
                    text(pool),
                    cell.into(),
                    rate(l),
                    rate(Some(a)),
                    ratio(l, Some(a)),
                    get(s, pool, cell, "p99_ms").map_or("-".into(), ms),
                    get(s, pool, &ac, "p99_ms").map_or("-".into(), ms),
                ]);
            }
        }
    }
    Some(t)
}
