//! `sluice lab adaptive` with tiny parameters, every subject: counts only.
//! The wait round's reads in flight are counted from outside by the FIFO
//! holder: compensation shows as more reads in flight than the budget.

mod common;

use common::{assert_schema, lab, metric, rows};
use serde_json::json;

#[test]
fn adaptive_counts_compensation_from_outside() {
    let (v, text) = lab(
        "adaptive --scenarios wait,cpu,hung --n 1,6 --hold-ms 60 --settle-ms 20 --cpu-n 3 --cpu-ms 5 --hung 6 --hang-ms 300 --reads 20",
    );
    assert_schema(&v, "adaptive");
    let cores = v["machine"]["cores"].as_u64().unwrap() as f64;
    let fastio = cores.max(4.0);
    let wait = |n: u64| [("scenario", json!("wait")), ("n", json!(n))];
    for s in ["node", "sluice", "sluice-fixed", "tokio"] {
        assert_eq!(metric(&v, s, &wait(1), "max_in_flight"), 1.0, "{s}");
        assert!(metric(&v, s, &wait(6), "total_ms") > 0.0);
        assert!(metric(&v, s, &wait(6), "threads_peak") >= 1.0);
        let hung = rows(&v, s, &[("scenario", json!("hung"))]);
        assert_eq!(hung.len(), 1, "{s}");
        assert_eq!(hung[0]["metrics"]["reads"], 20.0, "{s}");
        assert_eq!(rows(&v, s, &[("scenario", json!("cpu"))]).len(), 1, "{s}");
    }
    // node's pool is 4; sluice-fixed's FastIo budget max(4, cores); sluice
    // compensates the blocked reads; spawn_blocking grows.
    assert_eq!(metric(&v, "node", &wait(6), "max_in_flight"), 4.0);
    assert_eq!(
        metric(&v, "sluice-fixed", &wait(6), "max_in_flight"),
        fastio.min(6.0)
    );
    assert_eq!(metric(&v, "sluice", &wait(6), "max_in_flight"), 6.0);
    assert_eq!(metric(&v, "tokio", &wait(6), "max_in_flight"), 6.0);
    // Exactly one thread per read beyond the budget, each started when a
    // worker was found blocked: a worker claims the read it popped before it
    // stops searching, so the hand-off never counts a read already taken.
    let compensated = metric(&v, "sluice", &wait(6), "compensated_total");
    let detected = metric(&v, "sluice", &wait(6), "blocked_detected_total");
    assert_eq!(compensated, 6.0 - fastio.min(6.0), "detected {detected}");
    assert!(compensated <= detected, "{compensated} > {detected}");
    assert!(detected <= 6.0, "{detected}");
    // Nothing blocks in the CPU round: no thread beyond the cores.
    let cpu = rows(&v, "sluice", &[("scenario", json!("cpu"))]);
    assert!(cpu[0]["metrics"]["cpu_threads_peak"].as_f64().unwrap() <= cores);
    assert_eq!(cpu[0]["metrics"]["cpu_compensated_total"], 0.0);
    assert!(
        text.contains("adaptive, wait staircase at defaults"),
        "{text}"
    );
}
