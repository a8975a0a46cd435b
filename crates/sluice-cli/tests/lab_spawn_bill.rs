//! `sluice lab spawn-bill` end to end: the built binary, node included, tiny
//! parameters, `--json`; counts only.

mod common;

use serde_json::Value;

fn row<'a>(o: &'a Value, subject: &str, key: &str, value: &Value) -> &'a Value {
    o["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["subject"] == subject && &r["params"][key] == value)
        .unwrap_or_else(|| panic!("no {subject} row with {key} = {value}"))
}

fn metric(r: &Value, name: &str) -> u64 {
    r["metrics"][name]
        .as_f64()
        .unwrap_or_else(|| panic!("no {name} in {r}")) as u64
}

/// One run of both parts (one test, so its children never compete with
/// another test's for the two cores).
#[test]
fn the_bill_and_a_size_set_inside() {
    let (o, _) = common::lab(
        "spawn-bill --subjects node,sluice-compat,sluice,tokio --pools unset,1,16,2000 --set-size 16 --hold-ms 50",
    );

    // The bill: compat starts exactly node's threads, 2000 cut to 1024.
    for (pool, want) in [
        (Value::from("unset"), 4),
        (Value::from(1), 1),
        (Value::from(16), 16),
        (Value::from(2000), 1024),
    ] {
        let node = row(&o, "node", "pool", &pool);
        let compat = row(&o, "sluice-compat", "pool", &pool);
        assert_eq!(metric(node, "threads_added"), want, "node, pool {pool}");
        assert_eq!(metric(compat, "threads_added"), want, "compat, pool {pool}");
        // Every thread brings at least its 8 MiB stack under both.
        for r in [node, compat] {
            assert!(metric(r, "vm_size_added_kb") >= want * 8192, "{r}");
        }
        // Lanes and spawn_blocking start threads on demand: one task, one thread.
        assert_eq!(metric(row(&o, "tokio", "pool", &pool), "threads_added"), 1);
        if pool != 2000 {
            assert_eq!(metric(row(&o, "sluice", "pool", &pool), "threads_added"), 1);
        }
    }
    let refused = row(&o, "sluice", "pool", &Value::from(2000));
    let error = refused["params"]["error"].as_str().expect("an error param");
    assert!(error.contains("1024"), "{error}");
    assert!(refused["metrics"].as_object().unwrap().is_empty());

    // Set inside: only before the first pool task counts, for both.
    for subject in ["node", "sluice-compat"] {
        for (set, want) in [("none", 4), ("before", 16), ("after", 4)] {
            let r = row(&o, subject, "set", &Value::from(set));
            assert_eq!(metric(r, "threads_added"), want, "{subject} set {set}");
            assert_eq!(metric(r, "max_in_flight"), want, "{subject} set {set}");
            if subject == "sluice-compat" {
                assert_eq!(metric(r, "fastio_limit"), want, "compat set {set}");
            }
        }
    }
    // A resize applies whenever it is made; its threads start on demand.
    for set in ["before", "after"] {
        let r = row(&o, "sluice", "set", &Value::from(set));
        assert_eq!(metric(r, "fastio_limit"), 16, "sluice set {set}");
        assert_eq!(metric(r, "threads_added"), 1, "sluice set {set}");
    }
    assert!(
        !o["rows"]
            .as_array()
            .unwrap()
            .iter()
            .any(|r| r["subject"] == "tokio" && r["params"]["phase"] == "set-inside"),
        "tokio has nothing to set at run time"
    );
}
