//! `sluice lab loop-vs-pool` end to end with tiny parameters: every subject,
//! every scenario, the JSON's metrics. Counts only, never durations.

use serde_json::Value;
use std::process::Command;

const SUBJECTS: [&str; 4] = ["node", "sluice-compat", "sluice", "tokio"];
const SCENARIOS: [&str; 4] = ["idle", "loop", "pool-2", "pool-3"];

fn finite(row: &Value, key: &str) -> f64 {
    let v = row["metrics"][key]
        .as_f64()
        .unwrap_or_else(|| panic!("no {key} in {row}"));
    assert!(v.is_finite(), "{key} is not finite in {row}");
    v
}

#[test]
fn every_subject_runs_every_scenario() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("loop-vs-pool.json");
    let out = Command::new(env!("CARGO_BIN_EXE_sluice"))
        .args([
            "lab",
            "loop-vs-pool",
            "--no-progress",
            "--timer-ms",
            "10",
            "--loop-ms",
            "20",
            "--pool-tasks",
            "2,3",
            "--cpu-ms",
            "5",
            "--json",
        ])
        .arg(&json)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let o: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(o["experiment"], "loop-vs-pool");
    let rows = o["rows"].as_array().unwrap();
    assert_eq!(rows.len(), SUBJECTS.len() * SCENARIOS.len());
    for s in SUBJECTS {
        for sc in SCENARIOS {
            let found: Vec<&Value> = rows
                .iter()
                .filter(|r| r["subject"] == s && r["params"]["scenario"] == sc)
                .collect();
            assert_eq!(found.len(), 1, "{s} {sc}");
            let r = found[0];
            assert_eq!(r["params"]["pool"], "unset");
            assert!(finite(r, "fired_ms") >= 0.0, "{r}");
            assert!(finite(r, "load_ms") >= 0.0, "{r}");
            // fired - timer: finite; node may fire a hair early by its
            // millisecond loop clock, so only the sign of fired is checked.
            finite(r, "lateness_ms");
        }
    }
}

#[test]
fn a_bad_pool_task_count_is_named() {
    let out = Command::new(env!("CARGO_BIN_EXE_sluice"))
        .args([
            "lab",
            "loop-vs-pool",
            "--no-progress",
            "--pool-tasks",
            "4,x",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--pool-tasks \"x\" is not a number"), "{err}");
}
