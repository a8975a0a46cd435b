//! `sluice lab dns` end to end, with node: the names in flight, counted by
//! the DNS delay server inside the namespaces. Counts only. Skips, saying
//! why, where namespaces cannot be made (and then checks the error).

mod common;

use common::{host_resolv_conf_hash, lab, metric, netns_available, refused, rows};
use serde_json::json;

#[test]
fn the_resolver_counts_two_for_node_and_compat_and_every_name_for_sluice() {
    if let Err(why) = netns_available() {
        eprintln!("skipping the run: sluice lab-netns cannot make its namespaces here: {why}");
        refused(
            &["lab", "dns", "--pools", "4", "--no-progress"],
            "unprivileged user namespaces",
        );
        return;
    }
    let before = host_resolv_conf_hash();
    // go's resolvers are counted by lab_go.rs.
    let (v, text) =
        lab("dns --pools 4 --names 24 --hold-ms 150 --subjects node,sluice-compat,sluice,tokio");
    common::assert_schema(&v, "dns");
    assert_eq!(
        host_resolv_conf_hash(),
        before,
        "the machine's /etc/resolv.conf changed"
    );
    let at = |method: &str| vec![("pool", json!(4)), ("method", json!(method))];
    // 24 names at pool 4: libuv lets (4 + 1) / 2 = 2 lookups run at once.
    assert_eq!(metric(&v, "node", &at("dns.lookup"), "max_in_flight"), 2.0);
    assert_eq!(
        metric(&v, "sluice-compat", &at("getaddrinfo"), "max_in_flight"),
        2.0
    );
    // No pool: every name at once.
    assert_eq!(
        metric(&v, "node", &at("dns.resolve4"), "max_in_flight"),
        24.0
    );
    // sluice::dns asks the server itself, unless this machine's resolver
    // configuration makes it fall back to getaddrinfo on SlowIo (budget 4).
    let mode = rows(&v, "sluice", &at("sluice::dns"))[0]["params"]["mode"].clone();
    let native = mode == "native";
    if !native {
        eprintln!("sluice::dns fell back to getaddrinfo here: {mode}");
    }
    assert_eq!(
        metric(&v, "sluice", &at("sluice::dns"), "max_in_flight"),
        if native { 24.0 } else { 4.0 }
    );
    // tokio's spawn_blocking with max_blocking_threads(4).
    assert_eq!(
        metric(&v, "tokio", &at("getaddrinfo"), "max_in_flight"),
        4.0
    );
    for r in v["rows"].as_array().unwrap() {
        assert_eq!(r["metrics"]["resolved"], 24.0, "{r}");
        assert_eq!(r["metrics"]["queries"], 24.0, "{r}");
    }
    // sluice::dns held no pool thread and still answered localhost from
    // /etc/hosts as getaddrinfo does; the compat pool ran every lookup.
    assert_eq!(
        metric(&v, "sluice", &at("sluice::dns"), "pool_tasks"),
        if native { 0.0 } else { 24.0 }
    );
    assert_eq!(metric(&v, "sluice", &at("sluice::dns"), "hosts_match"), 1.0);
    assert_eq!(
        metric(&v, "sluice-compat", &at("getaddrinfo"), "pool_tasks"),
        24.0
    );
    assert_eq!(rows(&v, "node", &[]).len(), 2);
    assert!(
        text.contains("most names in flight at once, counted by the resolver"),
        "{text}"
    );
}

#[test]
fn bad_dns_flags_are_named() {
    refused(
        &["lab", "dns", "--hold-ms", "5000", "--no-progress"],
        "--hold-ms \"5000\" is out of range; expected 1ms..=1s 800ms",
    );
}
