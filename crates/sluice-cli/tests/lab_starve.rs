//! `sluice lab starve` end to end, with node: counts only.

mod common;

use serde_json::Value;

fn rows<'a>(v: &'a Value, subject: &str, scenario: &str, probe: &str) -> Vec<&'a Value> {
    v["rows"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| {
            r["subject"] == subject
                && r["params"]["scenario"] == scenario
                && r["params"]["probe"] == probe
        })
        .collect()
}

#[test]
fn every_probe_is_reported_and_node_waits_on_the_dns_server() {
    let netns = common::netns_available();
    let before = common::host_resolv_conf_hash();
    let (v, _) = common::lab("starve --pools 4 --queued 8 --hold-ms 30 --cpu-ms 10");
    assert_eq!(v["experiment"], "starve");
    // Every subject (go too, where installed: lab_go.rs checks its counts)
    // has both scenarios' two probes and total.
    let subjects = common::with_go(&common::SUBJECTS);
    assert_eq!(v["rows"].as_array().unwrap().len(), subjects.len() * 2 * 3);
    assert_eq!(common::host_resolv_conf_hash(), before);

    for s in ["sluice-compat", "sluice", "tokio"] {
        for (scenario, probes) in [
            ("A", ["file_read", "cpu_task"]),
            ("B", ["file_read", "slow_wait"]),
        ] {
            for probe in probes {
                let r = rows(&v, s, scenario, probe);
                assert_eq!(r.len(), 1, "{s} {scenario} {probe}");
                assert!(
                    r[0]["metrics"]["wait_ms"].is_f64(),
                    "{s} {scenario} {probe}"
                );
                assert!(r[0]["params"]["stand_in"].is_string());
            }
            let total = rows(&v, s, scenario, "total");
            assert_eq!(total.len(), 1);
            assert!(total[0]["metrics"]["total_ms"].is_f64());
        }
        // B: the one slow-wait probe is the only FIFO read.
        assert_eq!(
            rows(&v, s, "B", "total")[0]["metrics"]["max_in_flight"],
            1.0,
            "{s}"
        );
    }
    // A: 8 slow waits queued at pool 4. What holds whatever the machine's
    // load: every wait ran (completed), the holder saw at least one blocked
    // (it releases a reader only after seeing it), and no policy ran more
    // at once than it allows: libuv's rule (4 + 1) / 2 = 2, tokio's pool
    // 4, sluice's SlowIo lane, which compensates its blocked threads, the
    // 8 queued. How close each came to its cap is timing: a wait is
    // released 30 ms after the holder sees it, so a thread that blocks
    // later than that (a busy machine delays thread starts, sluice's
    // monitor and the holder itself) is never in flight with the first
    // ones. The lab's table reports those counts run by run (on a quiet
    // machine 2, 4 and 8).
    let in_flight = |s: &str| {
        rows(&v, s, "A", "total")[0]["metrics"]["max_in_flight"]
            .as_f64()
            .unwrap_or_else(|| panic!("{s}: no max_in_flight"))
    };
    for (s, cap) in [("sluice-compat", 2.0), ("tokio", 4.0), ("sluice", 8.0)] {
        let n = in_flight(s);
        assert!((1.0..=cap).contains(&n), "{s}: {n} in flight, cap {cap}");
        assert_eq!(
            rows(&v, s, "A", "total")[0]["metrics"]["completed"],
            8.0,
            "{s}"
        );
    }

    // node: 8 dns.lookup calls held by the DNS delay server; the server
    // counts 2 names in flight at once, as the seed's did at pool 4.
    let file = rows(&v, "node", "B", "file_read");
    assert_eq!(file.len(), 1);
    assert!(file[0]["metrics"]["wait_ms"].is_f64());
    assert!(file[0]["metrics"]["idle_ms"].is_f64());
    match netns {
        Ok(()) => {
            // libuv's rule caps node's lookups at 2; the server saw each.
            let n = in_flight("node");
            assert!((1.0..=2.0).contains(&n), "node: {n} names in flight");
            assert_eq!(
                rows(&v, "node", "B", "total")[0]["metrics"]["max_in_flight"],
                1.0
            );
            for (scenario, probe) in [("A", "file_read"), ("A", "cpu_task"), ("B", "slow_wait")] {
                let r = rows(&v, "node", scenario, probe);
                assert!(
                    r[0]["metrics"]["wait_ms"].is_f64(),
                    "node {scenario} {probe}"
                );
            }
            for (scenario, probe) in [("A", "total"), ("B", "slow_wait")] {
                let r = rows(&v, "node", scenario, probe);
                let stand_in = r[0]["params"]["stand_in"].as_str().unwrap();
                assert!(
                    stand_in.contains("dns.lookup held 30 ms by the DNS server"),
                    "{stand_in}"
                );
            }
        }
        Err(why) => {
            eprintln!("namespaces unavailable ({why}): checking that node skips its slow waits");
            for probe in ["file_read", "cpu_task", "total"] {
                let r = rows(&v, "node", "A", probe);
                assert!(
                    r[0]["params"]["skipped"]
                        .as_str()
                        .unwrap()
                        .contains("private network namespace")
                );
            }
        }
    }
}

#[test]
fn a_bad_scenario_is_named() {
    common::refused(
        &["lab", "starve", "--scenario", "C", "--no-progress"],
        "--scenario \"C\": expected one of A, B (or a comma-separated list of them)",
    );
}
