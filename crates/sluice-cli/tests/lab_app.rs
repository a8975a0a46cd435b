//! `sluice lab app` reduced: the Express app from npm, its three subjects
//! (node, node+piscina beside it, node+sluice where the addon is built),
//! each with a /login flood row whose figures are measured, and the targets
//! judged in the notes. Without the npm packages (npm ci fails: no npm, no
//! registry) the run has no rows and a note that says why; the test then
//! checks that note and stops. Counts and schema only.

mod common;

use common::{addon_built, assert_schema, finite, lab, notes, rows};
use serde_json::json;

#[test]
fn the_real_app_runs_its_three_subjects_or_says_why_not() {
    let (v, text) =
        lab("app --subjects node,node+sluice --duration-ms 400 --concurrency 2 --autocannon off");
    assert_schema(&v, "app");
    let notes = notes(&v);
    if let Some(why) = notes.iter().find(|n| n.contains("could not be installed")) {
        eprintln!("skipped: {why}");
        assert!(v["rows"].as_array().unwrap().is_empty(), "{text}");
        return;
    }
    let mut subjects = vec!["node", "node+piscina"];
    if addon_built() {
        subjects.push("node+sluice");
    }
    for s in &subjects {
        let flood = rows(&v, s, &[("cell", json!("flood"))]);
        assert_eq!(flood.len(), 1, "{s}: {text}");
        for m in [
            "ideal_req_s",
            "ping_p99_ms",
            "static_p99_ms",
            "large_p99_ms",
            "rss_mib",
            "threads",
        ] {
            assert!(finite(flood[0], m) > 0.0, "{s} {m}: {text}");
        }
        assert!(finite(flood[0], "login_req_s") >= 0.0, "{text}");
        assert_eq!(
            rows(&v, s, &[("cell", json!("login-1"))]).len(),
            1,
            "{s}: {text}"
        );
    }
    if addon_built() {
        for goal in [
            "goal app /login >= node+piscina's and >= 90 % of ideal: ",
            "goal app ping p99 during the /login flood <= 2 ms: ",
            "goal app static p99 during the /login flood <= 5 ms: ",
            "goal app RSS <= node+piscina's: ",
        ] {
            assert!(
                notes.iter().any(|n| n.starts_with(goal)),
                "{goal}: {notes:?}"
            );
        }
    }
}
