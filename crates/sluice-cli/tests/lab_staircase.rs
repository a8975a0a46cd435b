//! The reduced lab CI runs: the wait staircase with every subject, node
//! included, so the node driver cannot silently rot. Counts only: the most
//! tasks the FIFO holder saw in flight at once is the pool's concurrency.

mod common;

use common::{SUBJECTS, assert_contains, assert_schema, lab, metric, notes, rows};
use serde_json::json;

#[test]
fn wait_staircase_counts_the_pool_from_outside() {
    let (v, text) = lab("staircase --kind wait --n 1,3,5 --pools 2 --hold-ms 30");
    assert_schema(&v, "staircase");
    for s in SUBJECTS {
        // sluice compensates blocked threads: every wait runs at once, on a
        // budget of 2; the others hold the pool of 2.
        let fixed = [(1, 1.0), (3, 2.0), (5, 2.0)];
        let compensated = [(1, 1.0), (3, 3.0), (5, 5.0)];
        for (n, want) in if s == "sluice" { compensated } else { fixed } {
            let p = [("kind", json!("wait")), ("pool", json!(2)), ("n", json!(n))];
            assert_eq!(metric(&v, s, &p, "max_in_flight"), want, "{s} n={n}");
            assert!(metric(&v, s, &p, "total_ms") > 0.0);
        }
    }
    assert_contains(
        &text,
        &[
            "staircase, wait tasks, pool 2: total wall ms",
            "sluice: pool 2 sets FastIo and SlowIo to 2",
        ],
    );
}

#[test]
fn unset_pool_is_each_subjects_default() {
    let (v, _) =
        lab("staircase --kind wait --n 6 --pools unset --hold-ms 20 --subjects node,sluice-compat");
    for s in ["node", "sluice-compat"] {
        let p = [("pool", json!("unset")), ("n", json!(6))];
        assert_eq!(
            metric(&v, s, &p, "max_in_flight"),
            4.0,
            "{s}: libuv's default pool is 4"
        );
    }
    assert!(
        rows(&v, "sluice", &[]).is_empty(),
        "only the subjects asked for ran"
    );
}

#[test]
fn cpu_staircase_reports_every_cell() {
    let (v, _) = lab("staircase --kind cpu --n 1,2 --pools 1 --cpu-ms 5");
    for s in SUBJECTS {
        for n in [1, 2] {
            let p = [("kind", json!("cpu")), ("pool", json!(1)), ("n", json!(n))];
            assert!(metric(&v, s, &p, "total_ms") > 0.0);
        }
    }
    assert!(notes(&v).iter().any(|n| n.contains("pbkdf2-sha512")));
}
