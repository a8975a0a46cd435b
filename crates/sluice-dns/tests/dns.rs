//! `sluice_dns` without a name server that answers: hosts-file answers
//! against the C library's, a server that never answers, the fallback to
//! `getaddrinfo` on `SlowIo`, and lookups outside a runtime. Counts only.
//! (Lookups against a real, delaying name server are tested in
//! `tests/dns_resolver.rs`, against sluice-testnet's delay server.)

use sluice::{Lane, Pool};
use sluice_dns::{DnsError, Family, Mode, Resolver, getaddrinfo};
use std::collections::BTreeSet;
use std::net::{IpAddr, ToSocketAddrs};
use std::time::Duration;

fn set(v: impl IntoIterator<Item = IpAddr>) -> BTreeSet<IpAddr> {
    v.into_iter().collect()
}

/// Every name of the machine's `/etc/hosts`, as sluice answers it from the
/// file and as the C library answers it, compared as sets per family: the
/// `getaddrinfo` of std's `ToSocketAddrs` (`AF_UNSPEC`) filtered, and
/// `getaddrinfo` with `AF_INET` / `AF_INET6`.
#[tokio::test(flavor = "current_thread")]
async fn hosts_file_answers_equal_getaddrinfo() {
    let system = Resolver::system().unwrap();
    let Mode::Native { order } = system.mode() else {
        eprintln!(
            "skipping: this machine's resolver configuration needs getaddrinfo ({:?}), so sluice_dns answers through it and there is nothing to compare",
            system.mode()
        );
        return;
    };
    if order.first() != Some(&sluice_dns::Source::Files) {
        eprintln!("skipping: nsswitch asks dns before files ({order:?})");
        return;
    }
    let text = std::fs::read_to_string("/etc/hosts").unwrap_or_default();
    let names: BTreeSet<String> = text
        .lines()
        .map(|l| l.split('#').next().unwrap_or(""))
        .filter_map(|l| {
            let mut f = l.split_whitespace();
            f.next()?.parse::<IpAddr>().ok()?;
            Some(f.map(str::to_string).collect::<Vec<_>>())
        })
        .flatten()
        .collect();
    assert!(!names.is_empty(), "/etc/hosts names no host");
    // Only the hosts file: a name it does not answer is an error here,
    // never a query to the machine's name servers.
    let files_only = Resolver::builder().no_nameservers().build().unwrap();
    let mut compared = 0;
    for name in &names {
        let unspec = set((name.as_str(), 0)
            .to_socket_addrs()
            .unwrap()
            .map(|a| a.ip()));
        let any = set(files_only.lookup(name, Family::Any).await.unwrap());
        assert_eq!(any, unspec, "{name}, any family");
        for family in [Family::V4, Family::V6] {
            let ours = files_only.lookup(name, family).await.map(set);
            let libc = getaddrinfo(name, family).map(set);
            match (ours, libc) {
                (Ok(a), Ok(b)) => assert_eq!(a, b, "{name}, {family}"),
                // No line of this family: the file passes the name to DNS,
                // which this resolver does not have.
                (Err(e), _) if e.is_not_found() => {}
                (a, b) => panic!("{name}, {family}: sluice {a:?}, getaddrinfo {b:?}"),
            }
        }
        compared += 1;
    }
    assert_eq!(compared, names.len());
    assert_eq!(files_only.metrics().dns_total, 0);
}

/// A name server that never answers: the lookup ends in a timeout after its
/// attempts, no pool thread is ever used, nothing stays in flight.
#[tokio::test(flavor = "current_thread")]
async fn a_server_that_never_answers_times_out_holding_no_pool_thread() {
    let silent = std::net::UdpSocket::bind("127.0.0.1:0").unwrap();
    let pool = Pool::builder().build().unwrap();
    let resolver = Resolver::builder()
        .nameserver(silent.local_addr().unwrap())
        .no_hosts_file()
        .timeout(Duration::from_millis(150))
        .attempts(1)
        .fallback_pool(pool.clone())
        .build()
        .unwrap();
    let err = resolver
        .lookup("never.answers.test.", Family::V4)
        .await
        .unwrap_err();
    assert!(err.is_timeout(), "{err}");
    assert!(err.to_string().contains("no name server answered"), "{err}");
    let m = resolver.metrics();
    assert_eq!(
        (
            m.lookups_total,
            m.dns_total,
            m.timeouts_total,
            m.fallbacks_total,
            m.in_flight
        ),
        (1, 1, 1, 0, 0)
    );
    let slow = pool.metrics().lane(Lane::SlowIo).clone();
    assert_eq!(
        (slow.submitted_total, slow.started_total, slow.in_flight),
        (0, 0, 0)
    );
    assert_eq!(slow.threads_alive, Some(0));
}

/// `Mode::Getaddrinfo` runs every lookup on the pool's `SlowIo` lane and
/// returns what `getaddrinfo` returns.
#[tokio::test(flavor = "current_thread")]
async fn getaddrinfo_mode_runs_on_slowio() {
    let pool = Pool::builder().build().unwrap();
    let resolver = Resolver::builder()
        .mode(Mode::Getaddrinfo {
            reason: "test".into(),
        })
        .fallback_pool(pool.clone())
        .build()
        .unwrap();
    let got = resolver.lookup("localhost", Family::V4).await;
    let want = getaddrinfo("localhost", Family::V4);
    assert_eq!(got.map(set), want.map(set));
    assert_eq!(resolver.metrics().fallbacks_total, 1);
    assert_eq!(pool.metrics().lane(Lane::SlowIo).completed_total, 1);
}

/// Outside a runtime a DNS lookup says what it needs; literals still work.
#[test]
fn outside_a_runtime_a_dns_lookup_names_what_it_needs() {
    let resolver = Resolver::builder()
        .nameserver("127.0.0.1:9".parse().unwrap())
        .no_hosts_file()
        .build()
        .unwrap();
    let err = futures_executor::block_on(resolver.lookup("example.test", Family::V4)).unwrap_err();
    assert_eq!(err, DnsError::NoRuntime);
    assert!(err.to_string().contains("needs a tokio runtime"));
    let literal = futures_executor::block_on(resolver.lookup("::1", Family::V6)).unwrap();
    assert_eq!(literal, vec![IpAddr::from([0, 0, 0, 0, 0, 0, 0, 1])]);
    let wrong = futures_executor::block_on(resolver.lookup("::1", Family::V4)).unwrap_err();
    assert!(matches!(wrong, DnsError::AddressFamily { .. }), "{wrong}");
}

#[tokio::test(flavor = "current_thread")]
async fn bad_names_and_settings_are_named() {
    let resolver = Resolver::builder().no_nameservers().build().unwrap();
    // A label over 63 bytes: no name server can be asked, and glibc's
    // answer is "not found" (tests/glibc_rules.rs has the rest).
    let long = "a".repeat(64) + ".test";
    let err = resolver.lookup(&long, Family::Any).await.unwrap_err();
    assert!(err.is_not_found(), "{err}");
    let err = resolver.lookup("", Family::Any).await.unwrap_err();
    assert!(matches!(err, DnsError::InvalidName { .. }), "{err}");
    assert!(err.to_string().starts_with("\"\" is not a valid host name"));
    assert_eq!(
        Resolver::builder()
            .ndots(16)
            .build()
            .unwrap_err()
            .to_string(),
        "ndots=16 is out of range; expected 0..=15"
    );
    assert_eq!(
        Resolver::builder().build().unwrap_err(),
        DnsError::NoNameserver
    );
    let m = resolver.metrics();
    assert_eq!((m.errors_total, m.not_found_total), (1, 1));
}
