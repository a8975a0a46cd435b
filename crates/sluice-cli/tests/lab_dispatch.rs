//! `sluice lab dispatch` end to end with tiny parameters, every subject,
//! node included: every row and metric is there, finite, and positive where
//! it is a cost. The system libuv (FFI) is either timed or skipped with a
//! note naming `libuv.so.1`, depending on whether this machine has it.
//! Counts and schema only: no time is compared with anything.

mod common;

use common::{SUBJECTS, assert_contains, assert_schema, lab, lab_run, metric, notes, rows, words};
use serde_json::json;
use std::path::Path;

/// Whether the dynamic loader can find libuv.so.1 (what the experiment
/// dlopens), asked independently of the lab: the loader's cache, then the
/// usual directories.
fn system_libuv_present() -> bool {
    let cached = std::process::Command::new("ldconfig")
        .arg("-p")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).contains("libuv.so.1 "));
    cached
        || [
            "/lib",
            "/usr/lib",
            "/usr/local/lib",
            "/lib/x86_64-linux-gnu",
            "/usr/lib/x86_64-linux-gnu",
            "/lib/aarch64-linux-gnu",
            "/usr/lib/aarch64-linux-gnu",
        ]
        .iter()
        .any(|d| Path::new(d).join("libuv.so.1").exists())
}

#[test]
fn every_subject_gets_both_shapes_and_an_idle_row() {
    let (v, text) =
        lab("dispatch --rounds 20 --batch 50 --batch-time 5ms --batches 3 --warmup 1 --idle-ms 50");
    assert_schema(&v, "dispatch");
    let ffi = system_libuv_present();
    let mut subjects = SUBJECTS.to_vec();
    if ffi {
        subjects.push("libuv-ffi");
    }
    for s in &subjects {
        // A sluice pool (either policy) is timed three times: one
        // Pool::spawn per task (no request), each wave in one
        // Pool::spawn_batch, and Pool::spawn on a loop without the park hook.
        let sluice_pool = s.starts_with("sluice");
        let requests: &[Option<&str>] = if sluice_pool {
            &[
                None,
                Some("Pool::spawn_batch"),
                Some("loop without loop_spin"),
            ]
        } else {
            &[None]
        };
        for request in requests {
            for in_flight in [1, 50] {
                let mut p = vec![("pool", json!("unset")), ("in_flight", json!(in_flight))];
                if s != &"node" {
                    p.push(("request", json!(request)));
                }
                for m in ["us_per_task", "tasks_per_s"] {
                    let x = metric(&v, s, &p, m);
                    assert!(
                        x.is_finite() && x > 0.0,
                        "{s} {request:?} {in_flight} in flight: {m} = {x}"
                    );
                }
            }
        }
        let idle = [("pool", json!("unset")), ("idle_ms", json!(50))];
        for m in ["idle_cpu_ms", "idle_thread_cpu_ms", "idle_wakeups"] {
            let x = metric(&v, s, &idle, m);
            assert!(x.is_finite() && x >= 0.0, "{s} idle: {m} = {x}");
        }
        assert!(
            metric(&v, s, &idle, "threads") >= 2.0,
            "{s}: a loop and a pool"
        );
        assert_eq!(
            rows(&v, s, &[]).len(),
            if sluice_pool { 7 } else { 3 },
            "{s}: 1 in flight, 50 in flight (each per request), idle"
        );
    }
    let notes = notes(&v);
    assert!(
        notes.iter().any(|n| n.contains("fs.access(\"/\", cb)")),
        "{notes:?}"
    );
    // One repetition: no spread to tell.
    assert!(
        !notes.iter().any(|n| n.starts_with("spread of tasks/s")),
        "{notes:?}"
    );
    if ffi {
        assert!(
            notes.iter().any(|n| n.contains("the system libuv 1.")),
            "{notes:?}"
        );
        assert!(text.contains("x libuv-ffi (1 / 50)"), "{text}");
        assert!(
            notes
                .iter()
                .any(|n| n
                    .starts_with("goal sluice through the loop against libuv-ffi: 1 in flight ")),
            "{notes:?}"
        );
    } else {
        assert!(rows(&v, "libuv-ffi", &[]).is_empty());
        let skipped = v["skipped"].as_array().unwrap();
        assert!(
            skipped.iter().any(|s| s["subject"] == "libuv-ffi"
                && s["reason"].as_str().unwrap().contains("libuv.so.1")
                && s["reason"].as_str().unwrap().contains("libuv1-dev")),
            "{skipped:?}"
        );
        assert!(
            text.contains("libuv-ffi skipped: libuv.so.1 not found"),
            "{text}"
        );
    }
    assert_contains(
        &text,
        &[
            "tasks/s, 50 in flight",
            "idle CPU over 50 ms",
            "sluice (Pool::spawn_batch)",
            "sluice (loop without loop_spin)",
        ],
    );
}

/// `--reps 2`: the rows are the repetitions' medians, and a note says how
/// far each row's rate at the batch spread, with the Steady goal judged on
/// sluice's and libuv-ffi's.
#[test]
fn repetitions_report_their_spread() {
    let (v, _) = lab(
        "dispatch --subjects sluice,libuv-ffi --reps 2 --rounds 5 --batch 20 --batch-time 2ms --batches 1 --warmup 0 --idle-ms 10",
    );
    let notes = notes(&v);
    let spread: Vec<&str> = notes
        .iter()
        .filter(|n| n.starts_with("spread of tasks/s at 20 in flight over the 2 repetitions"))
        .copied()
        .collect();
    assert_eq!(spread.len(), 1, "{notes:?}");
    let note = spread[0];
    assert!(note.contains(": sluice "), "{note}");
    assert!(note.contains("sluice (Pool::spawn_batch) "), "{note}");
    assert!(note.contains("sluice (loop without loop_spin) "), "{note}");
    if system_libuv_present() {
        assert!(note.contains("libuv-ffi "), "{note}");
        assert!(
            note.ends_with("goal sluice's spread no wider than libuv-ffi's: met")
                || note.ends_with("goal sluice's spread no wider than libuv-ffi's: NOT met"),
            "{note}"
        );
    } else {
        assert!(!note.contains("goal"), "{note}");
    }
    assert_eq!(
        rows(&v, "sluice", &[]).len(),
        7,
        "the repetitions merged into one row each"
    );
}

#[test]
fn a_libuv_that_cannot_load_is_skipped_with_a_note() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("libuv.so.1");
    let mut cmd = common::sluice();
    cmd.arg("lab")
        .args(words(
            "dispatch --subjects sluice --rounds 5 --batch 5 --batches 1 --warmup 0 --idle-ms 10",
        ))
        .env("SLUICE_LIBUV", &missing);
    let (v, text) = lab_run(cmd);
    assert!(rows(&v, "libuv-ffi", &[]).is_empty());
    assert_eq!(rows(&v, "sluice", &[]).len(), 7);
    let skipped = v["skipped"].as_array().unwrap();
    assert_eq!(skipped.len(), 1, "{skipped:?}");
    assert_eq!(skipped[0]["subject"], "libuv-ffi");
    let reason = skipped[0]["reason"].as_str().unwrap();
    assert!(
        reason.starts_with(&format!(
            "SLUICE_LIBUV={}: cannot load it",
            missing.display()
        )),
        "{reason}"
    );
    assert!(text.contains("skipped libuv-ffi: SLUICE_LIBUV="), "{text}");
}

#[test]
fn bad_flags_are_named() {
    for (flag, value, want) in [
        (
            "--batch",
            "1",
            "--batch \"1\" is out of range; expected 2..=1000000",
        ),
        (
            "--batch-time",
            "0ms",
            "--batch-time \"0ms\" is out of range; expected 1ms..=1m",
        ),
        (
            "--lane",
            "gpu",
            "--lane \"gpu\": expected one of cpu, fastio",
        ),
        (
            "--libuv-ffi",
            "maybe",
            "--libuv-ffi \"maybe\": expected one of on, off",
        ),
        (
            "--node-request",
            "fs.read",
            "--node-request \"fs.read\": expected one of fs.access, fs.fstat, fs.stat, crypto.randomFill",
        ),
    ] {
        common::refused(&["lab", "dispatch", "--no-progress", flag, value], want);
    }
}
