//! `sluice lab http` with tiny parameters, node included: every cell of
//! every subject has its row and its metrics, nothing failed, the answers
//! of the two servers agree. Counts and keys only; the numbers are the
//! report's.

mod common;

use common::{assert_contains, assert_schema, lab, metric, notes, rows};
use serde_json::json;

#[test]
fn every_cell_of_node_and_sluice_serve_is_measured() {
    let (v, text) = lab(
        "http --pools 2 --duration-ms 300 --concurrency 4 --iterations 1000 --ping-during 400ms",
    );
    assert_schema(&v, "http");
    let cells = [
        "ping",
        "login-1",
        "login",
        "ping-during-login",
        "login-neighbour",
        "gzip",
        "file",
        "admission",
    ];
    for s in ["node", "sluice-compat", "sluice"] {
        for cell in cells {
            if s == "sluice-compat" && cell == "admission" {
                continue; // libuv refuses nothing
            }
            let p = [("pool", json!(2)), ("cell", json!(cell))];
            assert!(metric(&v, s, &p, "ok") >= 1.0, "{s} {cell}");
            assert_eq!(metric(&v, s, &p, "errors"), 0.0, "{s} {cell}");
            for m in ["req_s", "p50_ms", "p99_ms", "max_ms", "sent", "status_429"] {
                metric(&v, s, &p, m);
            }
            if cell != "admission" {
                assert!(metric(&v, s, &p, "server_cores") >= 0.0, "{s} {cell}");
            }
        }
        // Four connections never pass the flood cells' bound (64).
        for cell in ["login", "gzip", "ping-during-login"] {
            let p = [("pool", json!(2)), ("cell", json!(cell))];
            assert_eq!(metric(&v, s, &p, "status_429"), 0.0, "{s} {cell}");
        }
        if s != "sluice-compat" {
            let p = [("pool", json!(2)), ("cell", json!("admission"))];
            assert_eq!(metric(&v, s, &p, "bound"), 4.0);
        }
        let p = [("pool", json!(2)), ("cell", json!("ping-during-login"))];
        assert!(metric(&v, s, &p, "login_req_s") > 0.0);
        // The neighbour's busy loops ran beside the flood, and the probe
        // got answers.
        let p = [("pool", json!(2)), ("cell", json!("login-neighbour"))];
        assert!(metric(&v, s, &p, "neighbour_cores") > 0.0, "{s}");
        assert!(metric(&v, s, &p, "ping_p99_ms") > 0.0, "{s}");
    }
    // The cluster cell is Node's alone: one worker per core, every /login
    // and /ping answered.
    let p = [("pool", json!(2)), ("cell", json!("cluster"))];
    assert!(metric(&v, "node", &p, "ok") >= 1.0);
    assert_eq!(metric(&v, "node", &p, "errors"), 0.0);
    assert!(metric(&v, "node", &p, "ping_p99_ms") > 0.0);
    let cores = std::thread::available_parallelism().unwrap().get() as f64;
    assert_eq!(metric(&v, "node", &p, "workers"), cores);
    for s in ["sluice-compat", "sluice"] {
        assert!(rows(&v, s, &p).is_empty(), "{s} has no cluster mode");
    }
    assert!(
        rows(&v, "tokio", &[]).is_empty(),
        "http runs node and sluice only"
    );
    let notes = notes(&v);
    let has = |want: &str| notes.iter().any(|n| n.contains(want));
    for s in ["sluice-compat", "sluice"] {
        assert!(
            has(&format!(
                "answers cross-checked: {s}'s /login key equals node's"
            )),
            "{notes:#?}"
        );
    }
    assert!(has("both gunzip to the same 256 KiB input"), "{notes:#?}");
    assert!(
        has("goal /ping p99 <= 5 ms during a /login flood"),
        "{notes:#?}"
    );
    assert!(has("tokio skipped"), "{notes:#?}");
    assert!(
        has("ping-during-login: 400 ms (--ping-during)"),
        "{notes:#?}"
    );
    // autocannon cross-checks the first pool when it is installed; the
    // report says which.
    let cannon = std::env::var_os("PATH")
        .is_some_and(|p| std::env::split_paths(&p).any(|d| d.join("autocannon").is_file()));
    if cannon {
        for s in ["node", "sluice-compat", "sluice"] {
            for cell in ["login:autocannon", "file:autocannon"] {
                let p = [("pool", json!(2)), ("cell", json!(cell))];
                assert!(metric(&v, s, &p, "req_s") > 0.0, "{s} {cell}");
            }
        }
        assert!(has("autocannon ("), "{notes:#?}");
    } else {
        assert!(has("autocannon not used"), "{notes:#?}");
    }
    assert_contains(
        &text,
        &[
            "http: per subject and pool",
            "http /login flood",
            "http /ping alone and during the /login flood",
            "http admission",
            "http /login beside a CPU-bound neighbour",
            "http cluster mode",
        ],
    );
}
