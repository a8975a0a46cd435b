//! The names scope's outputs carry, pinned: every Prometheus family (name
//! and type, `testdata/prometheus_families.txt`) and every `--json` key
//! (`testdata/json_keys.txt`: a window of `sluice scope PID` and one of
//! `--all`), read from a report that has every optional part (queue
//! readings, probe mode, sluice's lanes, an onset). Dashboards, alert rules
//! and scripts read these names: one that disappears fails the test.
//!
//! After a change that is meant (a new series or key; a rename that is
//! documented in CHANGELOG.md), write the files anew with
//! `SLUICE_BLESS=1 cargo test -p sluice-scope --lib golden` and read their
//! diff before committing it.

use super::host::json_line;
use super::json::document;
use super::prometheus::{Totals, encode};
use crate::sample::lanes::LaneReport;
use crate::verdict::aggregate::Report;
use crate::verdict::doctor::{Onset, Verdict};
use crate::verdict::watched::tests::watched;
use serde_json::Value;
use std::collections::BTreeSet;

/// A window with every optional part of a report filled in.
fn fullest_report() -> Report {
    let mut r = super::prometheus::tests::probed_report();
    r.pool_states.insert("cpu".into(), 2.0);
    r.loop_states.insert("cpu".into(), 50.0);
    r.queue_depth = Some(3.0);
    r.queue_depth_max = Some(4);
    r.slow_queue_depth = Some(1.0);
    r.slow_io_running = Some(1.0);
    r.slow_io_throttled_pct = Some(50.0);
    r.resolver_at_limit_pct = Some(25.0);
    r.onset = Some(Onset {
        loop_blocked_since_s: 1.0,
        pool_saturated_since_s: 2.0,
        first: "loop",
    });
    r.sluice_lanes = vec![LaneReport {
        lane: "cpu",
        threads: 2,
        busy_threads: 2.0,
        busy_threads_max: 2,
        saturation_pct: 100.0,
        queue_depth: Some(3.0),
        queue_depth_max: Some(4),
        running: Some(2.0),
        queue_readings: 10,
        queue_unread: Some("not read".into()),
        states: [("cpu".to_string(), 2.0)].into(),
        verdict: Verdict::LaneSaturated(sluice::Lane::Cpu),
        evidence: String::new(),
    }];
    r
}

/// The key paths of a JSON document: `a.b` for a member, `a[]` for the
/// elements of an array (its first one read), `a.*` for a map whose keys
/// are data (the states).
fn key_paths(v: &Value, path: &str, out: &mut BTreeSet<String>) {
    match v {
        Value::Object(o) => {
            let data_keys = ["pool_states", "loop_states", "states"]
                .iter()
                .any(|m| path.ends_with(m));
            if data_keys {
                out.insert(format!("{path}.*"));
                return;
            }
            for (k, v) in o {
                let p = if path.is_empty() {
                    k.clone()
                } else {
                    format!("{path}.{k}")
                };
                out.insert(p.clone());
                key_paths(v, &p, out);
            }
        }
        Value::Array(a) => {
            if let Some(first) = a.first() {
                key_paths(first, &format!("{path}[]"), out);
            }
        }
        _ => {}
    }
}

/// Compares `lines` with `testdata/<file>`: a line gone or a line new
/// fails, naming them; `SLUICE_BLESS=1` writes the file instead.
fn same_names(lines: &BTreeSet<String>, file: &str) {
    let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("testdata")
        .join(file);
    if std::env::var_os("SLUICE_BLESS").is_some_and(|v| v == "1") {
        std::fs::write(&path, &text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        return;
    }
    let want = std::fs::read_to_string(&path).unwrap_or_default();
    let want: BTreeSet<String> = want.lines().map(String::from).collect();
    let gone: Vec<&String> = want.difference(lines).collect();
    assert!(
        gone.is_empty(),
        "{file}: names gone (keep them, or document the rename in CHANGELOG.md, then SLUICE_BLESS=1): {gone:?}"
    );
    let new: Vec<&String> = lines.difference(&want).collect();
    assert!(
        new.is_empty(),
        "{file}: new names (SLUICE_BLESS=1 writes them): {new:?}"
    );
}

#[test]
fn every_prometheus_family_is_named_as_before() {
    let r = fullest_report();
    let mut t = Totals::default();
    t.add(&r);
    let page = encode(&r, &t);
    let families: BTreeSet<String> = page
        .lines()
        .filter_map(|l| l.strip_prefix("# TYPE "))
        .map(String::from)
        .collect();
    // Every part of the report has its series on the page.
    for family in [
        "sluice_scope_pool_queue_depth gauge",
        "sluice_scope_queue_wait_seconds histogram",
        "sluice_scope_lane_queue_depth gauge",
    ] {
        assert!(families.contains(family), "{family} missing:\n{page}");
    }
    same_names(&families, "prometheus_families.txt");
}

#[test]
fn every_json_key_is_named_as_before() {
    let r = fullest_report();
    let mut keys = BTreeSet::new();
    key_paths(&document(&r), "", &mut keys);
    let mut all = BTreeSet::new();
    let mut w = watched(42, None, false);
    w.placement.container = Some("c".into());
    key_paths(&json_line(&w, &r), "", &mut all);
    let mut lines: BTreeSet<String> = keys.iter().map(|k| format!("scope PID: {k}")).collect();
    lines.extend(all.iter().map(|k| format!("scope --all: {k}")));
    for k in crate::verdict::aggregate::ALWAYS_IN_JSON {
        assert!(keys.contains(k), "{k}");
    }
    same_names(&lines, "json_keys.txt");
}
