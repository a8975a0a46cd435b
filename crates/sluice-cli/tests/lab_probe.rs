//! `sluice lab probe` end to end with tiny parameters: every subject, every
//! probe kind, the JSON's metrics. Counts only, never durations.

mod common;

use common::{finite, lab_json, with_go};
use serde_json::Value;
use std::process::Command;

const SUBJECTS: [&str; 4] = ["node", "sluice-compat", "sluice", "tokio"];
const PROBES: [&str; 8] = [
    "read",
    "stat",
    "gzip",
    "lookup",
    "random",
    "connect-ip",
    "connect-name",
    "timer",
];

#[test]
fn every_subject_times_every_probe_behind_the_blockers() {
    let (o, out) = lab_json(&[
        "lab",
        "probe",
        "--pools",
        "2",
        "--blocker-ms",
        "20",
        "--idle-runs",
        "1",
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("sluice/node"), "{text}");

    assert_eq!(o["experiment"], "probe");
    let rows = o["rows"].as_array().unwrap();
    let subjects = with_go(&SUBJECTS);
    // go adds lookup-cgo beside its lookup (Go's own resolver).
    let go_extra = usize::from(subjects.contains(&"go"));
    assert_eq!(rows.len(), subjects.len() * PROBES.len() + go_extra);
    for s in subjects {
        for p in PROBES {
            let found: Vec<&Value> = rows
                .iter()
                .filter(|r| r["subject"] == s && r["params"]["probe"] == p)
                .collect();
            assert_eq!(found.len(), 1, "{s} {p}");
            let r = found[0];
            assert_eq!(r["params"]["pool"], 2);
            for key in ["idle_ms", "probe_ms", "blocker_ms"] {
                assert!(finite(r, key) >= 0.0, "{key} in {r}");
            }
            finite(r, "delta_ms");
            finite(r, "first_done_ms");
            assert_eq!(finite(r, "blockers"), 2.0, "{r}");
            let left = finite(r, "blockers_left");
            assert!((0.0..=2.0).contains(&left), "{r}");
            if s == "node" || s == "go" {
                assert!(r["metrics"].get("blockers_running").is_none(), "{r}");
            } else {
                let running = finite(r, "blockers_running");
                assert!((0.0..=left).contains(&running), "{r}");
            }
        }
    }
}

#[test]
fn an_unknown_probe_is_named() {
    let out = Command::new(env!("CARGO_BIN_EXE_sluice"))
        .args(["lab", "probe", "--no-progress", "--probes", "stat,disk"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("--probes \"disk\": expected one of read, stat"),
        "{err}"
    );
}
