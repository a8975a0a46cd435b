//! `sluice lab loop-vs-pool` end to end with tiny parameters: every subject,
//! every scenario, the JSON's metrics. Counts only, never durations.

mod common;

use common::{finite, lab_json, with_go};
use serde_json::Value;
use std::process::Command;

const SUBJECTS: [&str; 4] = ["node", "sluice-compat", "sluice", "tokio"];
const SCENARIOS: [&str; 4] = ["idle", "loop", "pool-2", "pool-3"];

#[test]
fn every_subject_runs_every_scenario() {
    let (o, _) = lab_json(&[
        "lab",
        "loop-vs-pool",
        "--timer-ms",
        "10",
        "--loop-ms",
        "20",
        "--pool-tasks",
        "2,3",
        "--cpu-ms",
        "5",
    ]);
    assert_eq!(o["experiment"], "loop-vs-pool");
    let rows = o["rows"].as_array().unwrap();
    let subjects = with_go(&SUBJECTS);
    assert_eq!(rows.len(), subjects.len() * SCENARIOS.len());
    for s in subjects {
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
