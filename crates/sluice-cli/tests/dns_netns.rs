//! `sluice::dns` against the C library inside a namespace made by
//! `sluice lab-netns`, with a crafted `/etc/hosts` mounted there (aliases,
//! several lines per name, both families, case, a final dot) and the DNS
//! delay server as the only name server: every answer, hosts file or DNS,
//! must equal `getaddrinfo`'s, as sets, for each family. The machine's
//! `/etc/resolv.conf` is hashed before and after. Skips, saying why, where
//! namespaces cannot be made.
//!
//! The test binary runs itself inside the namespace (with `INNER` set).

mod common;

use sluice_dns::{Family, Mode, Resolver, getaddrinfo};
use std::collections::BTreeSet;
use std::net::IpAddr;

const INNER: &str = "SLUICE_TEST_DNS_NETNS_INNER";
const TEST: &str = "hosts_file_and_dns_answers_equal_getaddrinfo_in_a_namespace";

const HOSTS: &str = "\
127.0.0.1 localhost
::1 localhost ip6-localhost
10.1.0.1 multi
10.1.0.2 multi alias-of-multi   # a comment
fd00::1 multi
fd00::6 v6only
10.9.9.9 Mixed.Case.Test
10.1.0.1 multi
";

const NAMES: &[&str] = &[
    "localhost",
    "multi.",
    "ip6-localhost",
    "multi",
    "alias-of-multi",
    "v6only",
    "mixed.case.test",
    "MIXED.Case.TEST",
    "not-in-hosts.lab.test",
];

#[test]
fn hosts_file_and_dns_answers_equal_getaddrinfo_in_a_namespace() {
    let Some((text, s)) = common::in_netns(compare_inside, TEST, INNER, HOSTS, "10ms") else {
        return;
    };
    assert!(text.contains("compared 27 answers"), "{text}");
    // DNS was asked for what the hosts file does not answer, by both.
    assert!(s["queries_total"].as_u64().unwrap() >= 2, "{s}");
}

/// Inside the namespace: every name and family, sluice against glibc.
fn compare_inside() {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let resolver = Resolver::system().unwrap();
    assert_eq!(
        resolver.nameservers(),
        &["127.0.0.1:53".parse().unwrap()],
        "the namespace's resolv.conf"
    );
    if let Mode::Getaddrinfo { reason } = resolver.mode() {
        // No /etc/nsswitch.conf to mount over: glibc's default has an
        // action, so sluice asks getaddrinfo too and the comparison is weak.
        println!("note: sluice::dns falls back to getaddrinfo here: {reason}");
    }
    let set = |v: Vec<IpAddr>| v.into_iter().collect::<BTreeSet<_>>();
    let mut compared = 0;
    for name in NAMES {
        for family in [Family::Any, Family::V4, Family::V6] {
            let ours = rt.block_on(resolver.lookup(name, family)).map(set);
            let libc = getaddrinfo(name, family).map(set);
            match (&ours, &libc) {
                (Ok(a), Ok(b)) => assert_eq!(a, b, "{name} {family}"),
                (Err(a), Err(b)) if a.is_not_found() && b.is_not_found() => {}
                _ => panic!("{name} {family}: sluice {ours:?}, getaddrinfo {libc:?}"),
            }
            compared += 1;
        }
    }
    println!("compared {compared} answers");
}
