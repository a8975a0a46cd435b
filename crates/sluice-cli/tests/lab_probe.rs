//! `sluice lab probe` end to end with tiny parameters: every subject, every
//! probe kind, the JSON's metrics. Counts only, never durations.

mod common;

use common::{SUBJECTS, finite, lab, refused, row, with_go};
use serde_json::json;

/// The probe kinds, as the experiment declares them for `--probes` (a
/// default run times every one).
fn probes() -> &'static [&'static str] {
    let probe = sluice_lab::EXPERIMENTS.iter().find(|e| e.name == "probe");
    let flag = probe.unwrap().args.iter().find(|a| a.name == "probes");
    let sluice_lab::Kind::Choices(kinds) = flag.expect("--probes").kind else {
        panic!("--probes is a list of probe kinds")
    };
    assert_eq!(kinds.len(), 8, "{kinds:?}");
    kinds
}

#[test]
fn every_subject_times_every_probe_behind_the_blockers() {
    let (o, text) = lab("probe --pools 2 --blocker-ms 20 --idle-runs 1");
    assert!(text.contains("sluice/node"), "{text}");

    assert_eq!(o["experiment"], "probe");
    let subjects = with_go(&SUBJECTS);
    // go adds lookup-cgo beside its lookup (Go's own resolver).
    let go_extra = usize::from(subjects.contains(&"go"));
    assert_eq!(
        o["rows"].as_array().unwrap().len(),
        subjects.len() * probes().len() + go_extra
    );
    for s in subjects {
        for p in probes() {
            let r = row(&o, s, &[("probe", json!(p))]);
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
    refused(
        &["lab", "probe", "--no-progress", "--probes", "stat,disk"],
        "--probes \"disk\": expected one of read, stat",
    );
}
