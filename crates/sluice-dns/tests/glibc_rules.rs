//! sluice_dns answers as glibc 2.36's `getaddrinfo` does where glibc has a
//! rule: `inet_aton`'s numeric forms, names with `_` (hosts file and DNS),
//! the order of answers (RFC 3484/6724 with glibc's default tables), final
//! dots, and over-long names. What glibc does was read from glibc itself
//! (`crates/sluice-cli/tests/dns_differential.rs` compares the two in a
//! namespace); here each rule is checked on its own, with a hosts file
//! written for the test and sluice-testnet's delay server.

use sluice_dns::{Builder as ResolverBuilder, DnsError, Family, Resolver};
use sluice_testnet::dns_delay::{DelayConfig, DelayServer};
use std::net::IpAddr;
use std::time::Duration;

fn ip(s: &str) -> IpAddr {
    s.parse().unwrap()
}

fn ips(list: &[&str]) -> Vec<IpAddr> {
    list.iter().map(|s| ip(s)).collect()
}

/// `builder` reading `hosts` (text) as its hosts file, written to a
/// directory that lives as long as the resolver must.
fn with_hosts(builder: ResolverBuilder, hosts: &str) -> (ResolverBuilder, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("hosts");
    std::fs::write(&path, hosts).unwrap();
    (builder.hosts_file(&path), dir)
}

/// A resolver over `hosts` (text) and no name server.
fn hosts_only(hosts: &str) -> (Resolver, tempfile::TempDir) {
    let (b, dir) = with_hosts(Resolver::builder().no_nameservers(), hosts);
    (b.build().unwrap(), dir)
}

/// Asserts that `r` answers `host` for `family` with `want`, in order.
async fn answers(r: &Resolver, host: &str, family: Family, want: &[&str]) {
    let got = r.lookup(host, family).await.unwrap();
    assert_eq!(got, ips(want), "{host} {family}");
}

/// A resolver that asks sluice-testnet's delay server (which answers
/// 127.0.0.2 and ::2 at once), one attempt a query, with `hosts` (text) as
/// its hosts file, or none.
struct Asking {
    r: Resolver,
    server: DelayServer,
    _dir: Option<tempfile::TempDir>,
}

impl Asking {
    async fn start(hosts: Option<&str>) -> Self {
        let mut c = DelayConfig {
            listen: "127.0.0.1:0".parse().unwrap(),
            hold: Duration::from_millis(0),
            ..DelayConfig::default()
        };
        c.answer("::2".parse().unwrap());
        let server = DelayServer::start(c).await.unwrap();
        let b = Resolver::builder().nameserver(server.local_addr());
        let (b, dir) = match hosts {
            Some(text) => {
                let (b, dir) = with_hosts(b, text);
                (b, Some(dir))
            }
            None => (b.no_hosts_file(), None),
        };
        let r = b.attempts(1).build().unwrap();
        Self {
            r,
            server,
            _dir: dir,
        }
    }

    /// Stops the server, which was asked `n` queries (retransmits not
    /// counted).
    async fn asked(self, n: u64) {
        let s = self.server.stop().await;
        assert_eq!(s.queries_total - s.retransmits_total, n);
    }
}

#[tokio::test(flavor = "current_thread")]
async fn inet_aton_forms_are_addresses_not_names() {
    let (r, _dir) = hosts_only("");
    for (host, want) in [
        ("127.1", "127.0.0.1"),
        ("2130706433", "127.0.0.1"),
        ("0x7f.0.0.1", "127.0.0.1"),
        ("1.2.3", "1.2.0.3"),
        ("0177.0.0.1", "127.0.0.1"),
    ] {
        for family in [Family::Any, Family::V4] {
            assert_eq!(
                r.lookup(host, family).await.unwrap(),
                vec![ip(want)],
                "{host} {family}"
            );
        }
        // getaddrinfo's EAI_ADDRFAMILY: an IPv4 number has no IPv6 form.
        let err = r.lookup(host, Family::V6).await.unwrap_err();
        assert!(!matches!(err, DnsError::NoRuntime), "{host}: {err:?}");
    }
    // An IPv4-mapped IPv6 literal asked for IPv4 is its IPv4 address.
    answers(&r, "::ffff:10.0.0.1", Family::V4, &["10.0.0.1"]).await;
    let err = r.lookup("::1", Family::V4).await.unwrap_err();
    assert!(!matches!(err, DnsError::NoRuntime), "{err:?}");
    // Not numbers: names, looked up (here not found: no server, no entry).
    for host in ["08.0.0.1", "127.0.0.1.", "1.2.3.4.5", "0x"] {
        let err = r.lookup(host, Family::V4).await.unwrap_err();
        assert!(err.is_not_found(), "{host}: {err:?}");
    }
    assert_eq!(r.metrics().literal_total, 17);
}

#[tokio::test(flavor = "current_thread")]
async fn names_with_underscores_resolve_from_the_hosts_file() {
    let (r, _dir) = hosts_only("10.1.0.1 my_host app_db_1\n");
    for host in ["my_host", "app_db_1", "MY_HOST"] {
        answers(&r, host, Family::V4, &["10.1.0.1"]).await;
    }
    assert_eq!(r.metrics().hosts_total, 3);
}

#[tokio::test(flavor = "current_thread")]
async fn names_with_underscores_resolve_through_dns() {
    let dns = Asking::start(None).await;
    let r = &dns.r;
    for host in ["app_db_1.lab.test", "_svc._tcp.lab.test"] {
        answers(r, host, Family::V4, &["127.0.0.2"]).await;
    }
    dns.asked(2).await;
}

/// glibc sorts by RFC 3484/6724: `::1` (precedence 50) before 127.0.0.1
/// (10) when both are reachable on lo, whatever the file's order.
#[tokio::test(flavor = "current_thread")]
async fn localhost_answers_in_glibcs_order() {
    let (r, _dir) = hosts_only("127.0.0.1 localhost\n::1 localhost\n");
    let reachable = |addr: &str| {
        std::net::UdpSocket::bind(if addr.contains(':') {
            "[::]:0"
        } else {
            "0.0.0.0:0"
        })
        .and_then(|s| s.connect((ip(addr), 9)))
        .is_ok()
    };
    if !reachable("::1") {
        eprintln!(
            "skipping: ::1 is not reachable here (no IPv6 on lo), so glibc too puts 127.0.0.1 first"
        );
        return;
    }
    answers(&r, "localhost", Family::Any, &["::1", "127.0.0.1"]).await;
    // One family: the file's addresses of it (::1 asked for IPv4 is
    // 127.0.0.1, as glibc maps it; both kept, as glibc keeps them).
    answers(&r, "localhost", Family::V4, &["127.0.0.1", "127.0.0.1"]).await;
    answers(&r, "localhost", Family::V6, &["::1"]).await;
}

/// A final dot makes a name absolute: glibc's files source does not match
/// `localhost.` against `localhost`, and asks DNS.
#[tokio::test(flavor = "current_thread")]
async fn a_final_dot_skips_the_hosts_entry_without_it() {
    let dns = Asking::start(Some("10.1.0.3 dotted.name\n")).await;
    answers(&dns.r, "dotted.name", Family::V4, &["10.1.0.3"]).await;
    answers(&dns.r, "dotted.name.", Family::V4, &["127.0.0.2"]).await;
    dns.asked(1).await;
}

/// Names glibc's query builder refuses (over 253 characters, a label over
/// 63, an empty label) are not found, and no server is asked.
#[tokio::test(flavor = "current_thread")]
async fn over_long_names_are_not_found_without_a_query() {
    let dns = Asking::start(None).await;
    let r = &dns.r;
    let long = ("a".repeat(49) + ".").repeat(6); // 300 characters
    for host in [
        "a".repeat(64) + ".com",
        long[..254].to_string(),
        long.clone(),
        "x..y".to_string(),
        ".x".to_string(),
    ] {
        let err = r.lookup(&host, Family::Any).await.unwrap_err();
        assert!(err.is_not_found(), "{}: {err:?}", host.len());
    }
    // 253 characters and 63-byte labels are fine.
    let ok = [
        "a".repeat(63),
        "b".repeat(63),
        "c".repeat(63),
        "d".repeat(61),
    ]
    .join(".");
    assert_eq!(ok.len(), 253);
    answers(r, &ok, Family::V4, &["127.0.0.2"]).await;
    dns.asked(1).await;
}

/// glibc's DNS source answers an IPv4 lookup of digits and dots that
/// `inet_aton` did not take (`08.0.0.1`: 8 is not octal) "not found"
/// without a query; for both families it asks.
#[tokio::test(flavor = "current_thread")]
async fn all_numeric_names_are_not_asked_for_ipv4() {
    let dns = Asking::start(None).await;
    let r = &dns.r;
    for host in ["08.0.0.1", "1.2.3.4.5"] {
        let err = r.lookup(host, Family::V4).await.unwrap_err();
        assert!(err.is_not_found(), "{host}: {err:?}");
    }
    answers(r, "08.0.0.1.", Family::V4, &["127.0.0.2"]).await;
    answers(r, "1.2.3.4.5", Family::V6, &["::2"]).await;
    dns.asked(2).await;
}

/// How long a lookup asks before `Timeout`: glibc's `res_send` schedule
/// (try `n` waits `timeout << n / servers` whole seconds on each server,
/// at least 1), not `timeout × attempts`.
#[test]
fn the_query_deadline_is_glibcs_retry_schedule() {
    let secs = Duration::from_secs;
    let deadline = |timeout: u64, attempts: usize, servers: u16, search: &[&str]| {
        let mut b = Resolver::builder()
            .timeout(secs(timeout))
            .attempts(attempts)
            .search(search.iter().copied());
        for p in 0..servers {
            b = b.nameserver(std::net::SocketAddr::from(([127, 0, 0, 1], 5300 + p)));
        }
        b.build().unwrap().query_deadline()
    };
    assert_eq!(deadline(2, 1, 1, &[]), secs(2));
    assert_eq!(deadline(2, 2, 1, &[]), secs(2 + 4));
    assert_eq!(deadline(5, 2, 1, &[]), secs(5 + 10)); // glibc's defaults
    assert_eq!(deadline(5, 2, 2, &[]), secs(2 * 5 + 2 * 5));
    assert_eq!(deadline(1, 3, 3, &[]), secs(3 + 3 + 3)); // 2/3 and 4/3: 1 s
    assert_eq!(deadline(2, 2, 1, &["a.test"]), secs(2 * 6));
}
