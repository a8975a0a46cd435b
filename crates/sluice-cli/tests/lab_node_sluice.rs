//! The `node+sluice` subject end to end: `sluice lab dispatch` with tiny
//! parameters runs node's script under the sluice npm package's preload
//! when its addon is built (scripts/test builds it first), and otherwise
//! skips the subject with a reason that says how to build it. Counts and
//! schema only.

mod common;

use common::{addon_built, assert_contains, assert_schema, finite, lab, rows};
use serde_json::json;

#[test]
fn node_sluice_runs_the_node_script_with_the_preload_or_says_how_to_build_it() {
    let addon = addon_built();
    let (v, text) = lab(
        "dispatch --subjects node,node+sluice --libuv-ffi off --rounds 20 --batch 50 --batches 3 --warmup 1 --idle-ms 50",
    );
    assert_schema(&v, "dispatch");
    if addon {
        // node+sluice times the call its preload reroutes and the package's
        // trivial task; node its cheapest request and the rerouted call.
        for (subject, request) in [
            ("node+sluice", "fs.stat"),
            ("node+sluice", "sluice.ping"),
            ("node", "fs.access"),
            ("node", "fs.stat"),
        ] {
            for in_flight in [1, 50] {
                let found = rows(
                    &v,
                    subject,
                    &[
                        ("pool", json!("unset")),
                        ("in_flight", json!(in_flight)),
                        ("request", json!(request)),
                    ],
                );
                assert_eq!(found.len(), 1, "{subject} {request}: {text}");
                assert!(finite(found[0], "us_per_task") > 0.0);
            }
        }
        // One idle row per subject.
        assert_eq!(
            rows(&v, "node+sluice", &[("idle_ms", json!(50))]).len(),
            1,
            "{text}"
        );
        // The package's goal is checked on the run's own numbers.
        assert_contains(
            &text,
            &[
                "node+sluice: the preloaded calls run on sluice's lanes",
                "goal node+sluice's trivial task (sluice.ping(cb)) <= node's cheapest pool request (fs.access), 1 in flight: ",
                "fs.stat, the call both run, 1 in flight: node+sluice ",
            ],
        );
    } else {
        let skipped = v["skipped"].as_array().unwrap();
        assert!(
            skipped.iter().any(|s| s["subject"] == "node+sluice"
                && s["reason"].as_str().unwrap_or("").contains("npm run build")),
            "{skipped:?}"
        );
    }
    // node ran either way: its request, and fs.stat beside node+sluice's.
    let node_rows = rows(&v, "node", &[("in_flight", json!(1))]).len();
    assert_eq!(node_rows, if addon { 2 } else { 1 }, "{text}");
}
