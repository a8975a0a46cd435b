//! `sluice lab loop-vs-pool` end to end with tiny parameters: every subject,
//! every scenario, the JSON's metrics. Counts only, never durations.

mod common;

use common::{SUBJECTS, finite, lab, refused, row, with_go};
use serde_json::json;
const SCENARIOS: [&str; 4] = ["idle", "loop", "pool-2", "pool-3"];

#[test]
fn every_subject_runs_every_scenario() {
    let (o, _) = lab("loop-vs-pool --timer-ms 10 --loop-ms 20 --pool-tasks 2,3 --cpu-ms 5");
    assert_eq!(o["experiment"], "loop-vs-pool");
    let subjects = with_go(&SUBJECTS);
    assert_eq!(
        o["rows"].as_array().unwrap().len(),
        subjects.len() * SCENARIOS.len()
    );
    for s in subjects {
        for sc in SCENARIOS {
            let r = row(&o, s, &[("scenario", json!(sc))]);
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
    refused(
        &[
            "lab",
            "loop-vs-pool",
            "--no-progress",
            "--pool-tasks",
            "4,x",
        ],
        "--pool-tasks \"x\" is not a number",
    );
}
