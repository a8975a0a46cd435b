//! `scope`'s loop blockers: the hidden synchronous work of seed 003 in
//! named functions of `scope.js`, each run every `--every` and holding
//! the loop about `--block`, for `sluice scope --profile` to name.
//!
//! | workload | function | what blocks |
//! |----------|----------|-------------|
//! | `json-parse` | `parseBigJson` | `JSON.parse` of a ~7 MB string |
//! | `pbkdf2-sync` | `hashLegacyPassword` | `crypto.pbkdf2Sync` (iterations sized to `--block`) |
//! | `regex-backtrack` | `validateUrl` | a URL regex with catastrophic backtracking on a crafted URL (its length sized to `--block`) |
//! | `tight-loop` | `tightLoop` | a JavaScript loop |
//!
//! The truth is the function's name and its line in `scope.js`, found in
//! the script's text. Per workload: node starts with
//! `NODE_OPTIONS=--inspect-port=127.0.0.1:0` (a port of the kernel's
//! choice, so parallel runs do not meet on 9229), calibrates, serves
//! `/ping` over HTTP and prints `ready`; scope attaches; SIGUSR2 starts the
//! blocker (phase `before`), SIGUSR2 again (phase `during`) and
//! `sluice_scope::profile::take` profiles for `--profile` (SIGUSR1,
//! the profile, the inspector closed), SIGUSR2 (phase `after`), then the
//! lab asks `/ping` and, after one more phase, stops it. Node reports each
//! phase's loop lag (`monitorEventLoopDelay`) and blocker calls: the
//! profiler's cost is `during` against `before` and `after`.

use super::{drive, next_phase, seen};
use crate::child::Watch;
use crate::lab::Lab;
use crate::outcome::{Outcome, Row};
use crate::report::Table;
use crate::subject::SubjectSpec;
use anyhow::Context;
use serde_json::{Value, json};
use sluice_scope::profile::{Consent, ProfileConfig, ProfileReport};
use sluice_scope::{Options, Session, Verdict};
use std::io::{Read, Write};
use std::thread::JoinHandle;
use std::time::Duration;

/// The blockers: workload, function in `scope.js`, what it calls.
pub(super) const BLOCKERS: &[(&str, &str, &str)] = &[
    ("json-parse", "parseBigJson", "JSON.parse"),
    ("pbkdf2-sync", "hashLegacyPassword", "crypto.pbkdf2Sync"),
    ("regex-backtrack", "validateUrl", "RegExp exec"),
    ("tight-loop", "tightLoop", "-"),
];

/// Whether `workload` is a loop blocker.
pub(super) fn is_blocker(workload: &str) -> bool {
    BLOCKERS.iter().any(|(w, _, _)| *w == workload)
}

/// The 1-based line of `function NAME(` in `script`.
fn line_of(script: &str, function: &str) -> Option<usize> {
    let needle = format!("function {function}(");
    script
        .lines()
        .position(|l| l.trim_start().starts_with(&needle))
        .map(|i| i + 1)
}

/// What the lab saw of one blocker.
struct Seen {
    report: ProfileReport,
    served_after: bool,
    threads_before: usize,
    threads_after: usize,
}

/// Drives a blocker through its phases and profiles the `during` phase.
struct BlockerWatch {
    phase: Duration,
    profile: ProfileConfig,
    options: Options,
    pid: Option<u32>,
    port: Option<u16>,
    thread: Option<JoinHandle<anyhow::Result<Seen>>>,
}

/// The threads of `pid` now (0 once it is gone).
fn threads(pid: u32) -> usize {
    crate::procfs::thread_count(pid).unwrap_or(0)
}

/// `GET /ping` on the target's server: whether it answered `pong`.
fn ping(port: u16) -> bool {
    let Ok(mut s) = std::net::TcpStream::connect(("127.0.0.1", port)) else {
        return false;
    };
    let _ = s.set_read_timeout(Some(Duration::from_secs(10)));
    if s.write_all(b"GET /ping HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        .is_err()
    {
        return false;
    }
    let mut body = String::new();
    let _ = s.read_to_string(&mut body);
    body.starts_with("HTTP/1.1 200") && body.ends_with("pong")
}

impl Watch for BlockerWatch {
    fn tick(&mut self, _child: u32, lines: &[String]) -> anyhow::Result<()> {
        for l in lines {
            let Ok(v) = serde_json::from_str::<Value>(l) else {
                continue;
            };
            match v["event"].as_str() {
                Some("ready") => self.pid = v["pid"].as_u64().and_then(|p| u32::try_from(p).ok()),
                Some("serving") => {
                    self.port = v["port"].as_u64().and_then(|p| u16::try_from(p).ok())
                }
                _ => {}
            }
        }
        if let (None, Some(pid), Some(port)) = (&self.thread, self.pid, self.port) {
            let (phase, profile, options) = (self.phase, self.profile.clone(), self.options);
            self.thread = Some(drive(pid, move || {
                let mut s = Session::attach(pid, options)?;
                next_phase(pid, "start")?;
                std::thread::sleep(phase);
                let threads_before = threads(pid);
                next_phase(pid, "enter the profiled phase")?;
                let report = sluice_scope::profile::take(
                    &mut s,
                    &profile,
                    Consent::NonInteractive,
                    &mut || false,
                )?;
                next_phase(pid, "enter the phase after")?;
                let served_after = ping(port);
                let threads_after = threads(pid);
                std::thread::sleep(phase);
                next_phase(pid, "stop")?;
                Ok(Seen {
                    report,
                    served_after,
                    threads_before,
                    threads_after,
                })
            }));
        }
        std::thread::sleep(Duration::from_millis(2));
        Ok(())
    }
}

/// Settings of the blocker rows.
pub(super) struct Settings {
    /// Pool size node runs with.
    pub pool: u64,
    /// Length of each phase, the profiled one included.
    pub phase: Duration,
    /// Period of the blocker's timer.
    pub every_ms: u64,
    /// How long one call should hold the loop.
    pub block_ms: u64,
    /// scope's sampling.
    pub options: Options,
}

/// Runs each blocker in `workloads` once on `node` (the build's label
/// beside it); one row each.
pub(super) fn run(
    lab: &Lab,
    (node, label): (&SubjectSpec, &str),
    script: &str,
    workloads: &[&str],
    s: &Settings,
) -> anyhow::Result<Vec<Row>> {
    let mut rows = Vec::new();
    for w in workloads {
        let &(_, function, api) = BLOCKERS
            .iter()
            .find(|(b, _, _)| b == w)
            .context("a blocker")?;
        let line = line_of(script, function)
            .with_context(|| format!("scope.js has no function {function}"))?;
        let (seen, result) = profile(lab, node, w, s)?;
        let truth = Truth {
            function,
            line,
            api,
        };
        rows.push(row(node, w, s, &truth, &seen, &result).param("node", label));
    }
    Ok(rows)
}

/// Runs blocker `w` on node and profiles it: what the lab saw, and what
/// the script printed.
fn profile(lab: &Lab, node: &SubjectSpec, w: &str, s: &Settings) -> anyhow::Result<(Seen, Value)> {
    let params = json!({
        "workload": w,
        "pool": s.pool,
        "every_ms": s.every_ms,
        "block_ms": s.block_ms,
    });
    let mut profile = ProfileConfig::new(s.phase);
    profile.yes = true;
    profile.out_dir = lab.runner().scratch().to_path_buf();
    let mut watch = BlockerWatch {
        phase: s.phase,
        profile,
        options: s.options,
        pid: None,
        port: None,
        thread: None,
    };
    let size = crate::PoolSize::Size(s.pool as usize);
    let mut cmd = node.command(lab, "scope", size, &params)?;
    cmd.env("NODE_OPTIONS", "--inspect-port=127.0.0.1:0");
    let what = format!("{} running scope {w}", node.name());
    let child = lab.runner().run_command(cmd, &what, Some(&mut watch));
    let seen = seen(watch.thread.take(), "node never printed ready and its port")
        .with_context(|| format!("profiling {w}"))?;
    Ok((seen, child?))
}

/// Where a blocker blocks: its function, the function's line in
/// `scope.js`, the API it calls.
struct Truth {
    function: &'static str,
    line: usize,
    api: &'static str,
}

/// One blocker's row: the truth, what scope named, the phases' lag and
/// calls.
fn row(
    node: &SubjectSpec,
    w: &str,
    s: &Settings,
    truth: &Truth,
    seen: &Seen,
    result: &Value,
) -> Row {
    let r = &seen.report;
    let a = &r.analysis;
    let top = a.held_by.first();
    let named_function = top.map_or("-".to_string(), |t| t.time.function.clone());
    let named_location = top.map_or("-".to_string(), |t| t.time.location.clone());
    let named_api = top
        .and_then(|t| t.apis.first())
        .map_or("-".to_string(), |x| x.api.clone());
    let right_place = named_location.contains(&format!("scope.js:{}:", truth.line));
    let right =
        named_function == truth.function && right_place && r.window.verdict == Verdict::LoopBlocked;
    let row = Row::new(node.name())
        .param("workload", w)
        .param("pool", s.pool)
        .param("truth_function", truth.function)
        .param("truth_location", format!("scope.js:{}", truth.line))
        .param("truth_api", truth.api)
        .param("named_function", named_function)
        .param("named_location", named_location)
        .param("named_api", named_api)
        .param(
            "top_self",
            a.top_self
                .first()
                .map_or("-".to_string(), |t| t.function.clone()),
        )
        .param("verdict", r.window.verdict.as_str())
        .metric("right", f64::from(u8::from(right)))
        .metric("profile_samples", a.samples as f64)
        .metric("javascript_pct", a.shares.javascript_pct)
        .metric("gc_pct", a.shares.gc_pct)
        .metric("idle_pct", a.shares.idle_pct)
        .metric("top_pct", top.map_or(0.0, |t| t.time.pct))
        .metric("loop_utilization_pct", r.window.loop_utilization_pct)
        .metric("loop_stalled_pct", r.window.loop_stalled_pct)
        .metric("loop_longest_ms", r.window.loop_longest_ms)
        .metric("served_after", f64::from(u8::from(seen.served_after)))
        .metric(
            "inspector_closed",
            f64::from(u8::from(r.inspector.closed.port_closed)),
        )
        .metric("threads_before", seen.threads_before as f64)
        .metric("threads_after", seen.threads_after as f64);
    with_phases(row, result)
}

/// The script's measures: the calibrated call, and per phase the calls
/// per second and the loop lag.
fn with_phases(mut row: Row, result: &Value) -> Row {
    if let Some(ms) = result["calibration"]["ms"].as_f64() {
        row = row.metric("block_ms", ms);
    }
    let phase = |p: &str, k: &str| result["phases"][p][k].as_f64();
    for p in ["before", "during", "after"] {
        if let (Some(calls), Some(ms)) = (phase(p, "calls"), phase(p, "ms")) {
            row = row.metric(&format!("calls_per_s_{p}"), 1e3 * calls / ms.max(1.0));
        }
        for k in ["lag_p50_ms", "lag_p99_ms", "lag_max_ms"] {
            if let Some(v) = phase(p, k) {
                row = row.metric(&format!("{k}_{p}").replace("_ms_", "_"), v);
            }
        }
    }
    row
}

/// A metric with `digits` decimals, `-` where there is none.
pub(super) fn fixed(r: &Row, k: &str, digits: usize) -> String {
    r.metrics
        .get(k)
        .filter(|v| v.is_finite())
        .map_or("-".to_string(), |v| format!("{v:.digits$}"))
}

/// `yes`/`no` of a 0/1 metric (`no` also where it is missing).
fn flag(r: &Row, k: &str, yes: &str, no: &str) -> String {
    if r.metrics.get(k) == Some(&1.0) {
        yes
    } else {
        no
    }
    .to_string()
}

/// Three figures of one measure, before / during / after the profile.
fn phases(r: &Row, k: &str, digits: usize) -> String {
    let f = |p: &str| fixed(r, &format!("{k}_{p}"), digits);
    format!("{} / {} / {}", f("before"), f("during"), f("after"))
}

/// One blocker's line of the table.
fn cells(r: &Row) -> Vec<String> {
    let named_file = r.param_text("named_location");
    vec![
        r.param_text("node"),
        r.param_text("workload"),
        format!(
            "{} ({}) via {}",
            r.param_text("truth_function"),
            r.param_text("truth_location"),
            r.param_text("truth_api")
        ),
        format!(
            "{} ({}) via {}",
            r.param_text("named_function"),
            named_file.rsplit('/').next().unwrap_or_default(),
            r.param_text("named_api")
        ),
        format!("{} %", fixed(r, "top_pct", 0)),
        r.param_text("verdict"),
        flag(r, "right", "yes", "NO"),
        phases(r, "lag_p99", 0),
        phases(r, "calls_per_s", 1),
        format!(
            "{}, {}",
            flag(r, "served_after", "yes", "NO"),
            flag(r, "inspector_closed", "closed", "OPEN")
        ),
    ]
}

/// The blockers' table: truth against what scope named, and the
/// profiler's cost.
pub(super) fn table(o: &Outcome) -> Option<Table> {
    let rows: Vec<Vec<String>> = o
        .rows
        .iter()
        .filter(|r| is_blocker(&r.param_text("workload")))
        .map(cells)
        .collect();
    (!rows.is_empty()).then(|| Table {
        title: "scope --profile: the function scope named against the blocking function, per node build"
            .into(),
        header: [
            "node",
            "workload",
            "truth",
            "scope named (top of your code)",
            "its share",
            "verdict",
            "right",
            "loop lag p99 ms before / during / after",
            "blocker calls/s before / during / after",
            "serves after, inspector",
        ]
        .map(String::from)
        .to_vec(),
        rows,
        note: String::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_blocker_has_its_function_in_the_script() {
        let script = include_str!("scope.js");
        for (w, function, _) in BLOCKERS {
            let line = line_of(script, function).unwrap_or_else(|| panic!("{w}: {function}"));
            assert!(
                script.lines().nth(line - 1).unwrap().contains(function),
                "{w}"
            );
        }
        assert!(is_blocker("tight-loop") && !is_blocker("idle"));
    }
}
