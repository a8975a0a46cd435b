//! `sluice lab workers` end to end, with node: counts only.

mod common;

use serde_json::Value;

fn metric(rows: &[Value], subject: &str, name: &str) -> f64 {
    let row = rows
        .iter()
        .find(|r| r["subject"] == subject)
        .unwrap_or_else(|| panic!("no row for {subject}"));
    row["metrics"][name]
        .as_f64()
        .unwrap_or_else(|| panic!("{subject}: no {name} in {row}"))
}

#[test]
fn worker_threads_share_the_one_pool() {
    // sluice's 16 waits are all in flight only if its monitor has started
    // the threads beyond the budget before the first waits end: on a loaded
    // 2-core machine that took longer than a 30 ms hold once (15 of 16), so
    // each wait is held 300 ms.
    let (v, _) = common::lab("workers --pools 4 --workers 4 --tasks 4 --hold-ms 300");
    assert_eq!(v["experiment"], "workers");
    let rows = v["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 4, "one row per subject");
    for s in common::SUBJECTS {
        // 16 waits from 4 loops, one pool of 4 for the whole process; sluice
        // compensates its blocked threads, so its 16 waits run at once.
        let want = if s == "sluice" { 16.0 } else { 4.0 };
        assert_eq!(metric(rows, s, "max_in_flight"), want, "{s}");
        // The waits start the pool's 4 threads once, not once per loop
        // (sluice: plus its monitor; the threads beyond the budget retired).
        let want = if s == "sluice" { 5.0 } else { 4.0 };
        assert_eq!(metric(rows, s, "pool_threads_added"), want, "{s}");
        assert_eq!(
            metric(rows, s, "threads_added"),
            metric(rows, s, "threads_after") - metric(rows, s, "threads_before"),
            "{s}"
        );
    }
    for s in ["sluice-compat", "sluice", "tokio"] {
        // One OS thread per event loop.
        assert_eq!(
            metric(rows, s, "threads_ready") - metric(rows, s, "threads_before"),
            4.0,
            "{s}"
        );
    }
    let notes = common::notes(&v);
    assert!(
        notes.contains(
            &"node, pool 4: the 4 worker_threads share one pool: at most 4 of 16 waits in flight"
        ),
        "{notes:?}"
    );
}
