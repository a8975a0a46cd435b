//! `sluice_dns` against sluice-testnet's DNS delay server, in-process on
//! 127.0.0.1 with an ephemeral port (no namespace needed): every name in
//! flight at once, the TTL cache, coalescing, the search list and ndots.
//! The server's counts are the evidence. Counts only.
//!
//! hickory re-sends a UDP query that has no answer after 333 ms; holds
//! here stay below that, and queries are counted net of retransmissions.

use sluice_dns::{Family, Resolver};
use sluice_testnet::dns_delay::{DelayConfig, DelayServer, FastPattern, Stats};
use std::net::IpAddr;
use std::time::Duration;

async fn server(hold_ms: u64, ttl: u32) -> DelayServer {
    let mut c = DelayConfig {
        listen: "127.0.0.1:0".parse().unwrap(),
        hold: Duration::from_millis(hold_ms),
        ttl,
        fast: vec!["*.fast.test".parse::<FastPattern>().unwrap()],
        ..DelayConfig::default()
    };
    c.answer("::2".parse().unwrap());
    DelayServer::start(c).await.unwrap()
}

fn resolver(server: &DelayServer) -> sluice_dns::Builder {
    Resolver::builder()
        .nameserver(server.local_addr())
        .no_hosts_file()
        .timeout(Duration::from_secs(5))
        .attempts(1)
}

/// Queries that reached the server, net of retransmissions.
fn asked(s: &Stats) -> u64 {
    s.queries_total - s.retransmits_total
}

const ANSWER: IpAddr = IpAddr::V4(std::net::Ipv4Addr::new(127, 0, 0, 2));

#[tokio::test(flavor = "current_thread")]
async fn twenty_four_names_are_all_in_flight_at_once() {
    let server = server(200, 0).await;
    let pool = sluice::Pool::builder().build().unwrap();
    let r = resolver(&server)
        .fallback_pool(pool.clone())
        .build()
        .unwrap();
    let lookups = (1..=24).map(|i| {
        let r = r.clone();
        async move { r.lookup(&format!("n{i:02}.lab.test"), Family::V4).await }
    });
    for answer in futures::future::join_all(lookups).await {
        assert_eq!(answer.unwrap(), vec![ANSWER]);
    }
    let s = server.stop().await;
    assert_eq!((s.max_in_flight_names, s.names_total), (24, 24));
    let m = r.metrics();
    assert_eq!((m.dns_total, m.fallbacks_total, m.in_flight), (24, 0, 0));
    assert_eq!(pool.metrics().lane(sluice::Lane::SlowIo).submitted_total, 0);
}

#[tokio::test(flavor = "current_thread")]
async fn an_answer_is_cached_for_its_ttl_and_a_ttl_of_zero_is_not() {
    let cached = server(20, 60).await;
    let r = resolver(&cached).build().unwrap();
    for _ in 0..3 {
        assert_eq!(
            r.lookup("cached.lab.test", Family::V4).await.unwrap(),
            vec![ANSWER]
        );
    }
    // Another family is another question.
    assert_eq!(
        r.lookup("cached.lab.test", Family::V6).await.unwrap(),
        vec!["::2".parse::<IpAddr>().unwrap()]
    );
    assert_eq!(asked(&cached.stop().await), 2);
    assert_eq!(r.metrics().cache_hits_total, 2);

    let uncached = server(20, 0).await;
    let r = resolver(&uncached).build().unwrap();
    for _ in 0..3 {
        r.lookup("zero.lab.test", Family::V4).await.unwrap();
    }
    assert_eq!(asked(&uncached.stop().await), 3);
    assert_eq!(r.metrics().cache_hits_total, 0);
}

#[tokio::test(flavor = "current_thread")]
async fn identical_lookups_in_flight_become_one_query() {
    let server = server(100, 0).await;
    let r = resolver(&server).build().unwrap();
    let same = (0..10).map(|_| r.lookup("same.lab.test", Family::V4));
    for answer in futures::future::join_all(same).await {
        assert_eq!(answer.unwrap(), vec![ANSWER]);
    }
    let s = server.stop().await;
    assert_eq!(asked(&s), 1);
    let m = r.metrics();
    assert_eq!(
        (m.lookups_total, m.dns_total, m.coalesced_total, m.in_flight),
        (10, 1, 9, 0)
    );
}

#[tokio::test(flavor = "current_thread")]
async fn family_any_asks_a_and_aaaa() {
    let server = server(20, 0).await;
    let r = resolver(&server).build().unwrap();
    let got = r.lookup("both.lab.test", Family::Any).await.unwrap();
    assert_eq!(got, vec![ANSWER, "::2".parse().unwrap()]);
    let s = server.stop().await;
    assert_eq!((asked(&s), s.names_total), (2, 1));
}

/// `*.fast.test` is answered at once and counted apart, so the counts say
/// which name the resolver asked first: the search name (fast) or the name
/// as given (held).
#[tokio::test(flavor = "current_thread")]
async fn the_search_list_and_ndots_decide_what_is_asked_first() {
    let server = server(20, 0).await;
    let searching = |ndots| {
        let b = resolver(&server).search(["fast.test"]).ndots(ndots);
        b.build().unwrap()
    };
    let r = searching(1);
    // No dot, fewer than ndots: the search name first, and it answers.
    r.lookup("short", Family::V4).await.unwrap();
    let s = server.stats();
    assert_eq!((s.fast_total, asked(&s)), (1, 0));
    // One dot, at least ndots: the name as given first, and it answers.
    r.lookup("a.b", Family::V4).await.unwrap();
    let s = server.stats();
    assert_eq!((s.fast_total, asked(&s)), (1, 1));
    // ndots 2: the search name first again.
    let r2 = searching(2);
    r2.lookup("a.b", Family::V4).await.unwrap();
    let s = server.stop().await;
    assert_eq!((s.fast_total, asked(&s)), (2, 1));
}

/// The hosts file answers before DNS and never reaches the server.
#[tokio::test(flavor = "current_thread")]
async fn the_hosts_file_answers_first() {
    let dir = tempfile::tempdir().unwrap();
    let hosts = dir.path().join("hosts");
    std::fs::write(&hosts, "10.9.8.7 pinned.lab.test\n").unwrap();
    let server = server(20, 0).await;
    let r = resolver(&server).hosts_file(&hosts).build().unwrap();
    assert_eq!(
        r.lookup("pinned.lab.test", Family::V4).await.unwrap(),
        vec![IpAddr::from([10, 9, 8, 7])]
    );
    // No IPv6 line: DNS answers that family.
    assert_eq!(
        r.lookup("pinned.lab.test", Family::V6).await.unwrap(),
        vec!["::2".parse::<IpAddr>().unwrap()]
    );
    let s = server.stop().await;
    assert_eq!(asked(&s), 1);
    assert_eq!(r.metrics().hosts_total, 1);
}

/// One resolver used from one tokio runtime, then (that runtime gone) from
/// another, as `sluice_dns::lookup` is across `#[tokio::test]`s: each
/// runtime gets its own hickory resolver, so the second still answers.
#[test]
fn a_resolver_outlives_the_runtime_it_first_ran_on() {
    let server_rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .unwrap();
    let server = server_rt.block_on(server(10, 0));
    let r = resolver(&server).build().unwrap();
    for _ in 0..2 {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        assert_eq!(
            rt.block_on(r.lookup("again.lab.test", Family::V4)).unwrap(),
            vec![ANSWER]
        );
        drop(rt);
    }
    let s = server_rt.block_on(server.stop());
    assert_eq!(asked(&s), 2);
    assert_eq!(r.metrics().errors_total, 0);
}

/// A burst bigger than the bound on queries in flight: every lookup is
/// answered (the rest wait for a place, their timeout not running), and
/// the server never holds more queries than the bound allows. Without the
/// bound, hickory's socket per query runs out of descriptors past the
/// file limit and those lookups fail.
#[tokio::test(flavor = "current_thread")]
async fn a_burst_past_the_bound_waits_and_every_lookup_is_answered() {
    let server = server(50, 0).await;
    let r = resolver(&server).max_queries_in_flight(40).build().unwrap();
    let lookups = (0..1000).map(|i| {
        let r = r.clone();
        async move { r.lookup(&format!("b{i}.lab.test"), Family::V4).await }
    });
    for answer in futures::future::join_all(lookups).await {
        assert_eq!(answer.unwrap(), vec![ANSWER]);
    }
    let s = server.stop().await;
    assert_eq!(asked(&s), 1000);
    assert!(s.max_in_flight_queries <= 40, "{}", s.max_in_flight_queries);
    assert_eq!(r.metrics().timeouts_total, 0);
}

/// `lookup_now` answers what needs no name server and no wait (a literal,
/// the hosts file from the kernel's caches, the TTL cache), says `None`
/// for the rest, and counts only what it answered; `lookup` then asks.
#[tokio::test(flavor = "current_thread")]
async fn lookup_now_answers_what_needs_no_name_server() {
    let dir = tempfile::tempdir().unwrap();
    let hosts = dir.path().join("hosts");
    std::fs::write(&hosts, "10.9.8.7 pinned.lab.test\n").unwrap();
    // Its path and pages in the kernel's caches, as /etc/hosts is.
    std::fs::read(&hosts).unwrap();
    let server = server(20, 60).await;
    let r = resolver(&server).hosts_file(&hosts).build().unwrap();
    let v4 = |n: [u8; 4]| vec![IpAddr::from(n)];

    assert_eq!(
        r.lookup_now("10.0.0.7", Family::Any).unwrap().unwrap(),
        v4([10, 0, 0, 7])
    );
    let from_hosts = r.lookup_now("pinned.lab.test", Family::V4);
    if sluice::nowait::available() {
        assert_eq!(from_hosts.unwrap().unwrap(), v4([10, 9, 8, 7]));
    } else {
        assert!(from_hosts.is_none());
    }
    // No IPv6 line and nothing cached: the name servers'.
    assert!(r.lookup_now("pinned.lab.test", Family::V6).is_none());
    assert!(r.lookup_now("asked.lab.test", Family::V4).is_none());
    assert_eq!(
        r.metrics().lookups_total,
        if sluice::nowait::available() { 2 } else { 1 }
    );

    // Asked once; then the TTL cache answers without a wait.
    assert_eq!(
        r.lookup("asked.lab.test", Family::V4).await.unwrap(),
        vec![ANSWER]
    );
    assert_eq!(
        r.lookup_now("asked.lab.test", Family::V4).unwrap().unwrap(),
        vec![ANSWER]
    );
    assert_eq!(r.metrics().cache_hits_total, 1);

    // An edit of the hosts file is seen by the next lookup, as by lookup.
    std::fs::write(&hosts, "10.9.8.6 pinned.lab.test\n").unwrap();
    std::fs::read(&hosts).unwrap();
    if let Some(answer) = r.lookup_now("pinned.lab.test", Family::V4) {
        assert_eq!(answer.unwrap(), v4([10, 9, 8, 6]));
    }
    assert_eq!(
        r.lookup("pinned.lab.test", Family::V4).await.unwrap(),
        v4([10, 9, 8, 6])
    );
    assert_eq!(asked(&server.stop().await), 1);
}

/// With `getaddrinfo` as the mode, only a literal is answered now.
#[test]
fn lookup_now_leaves_getaddrinfo_mode_to_getaddrinfo() {
    let mode = sluice_dns::Mode::Getaddrinfo {
        reason: "the test's".into(),
    };
    let r = Resolver::builder().mode(mode).build().unwrap();
    assert_eq!(
        r.lookup_now("127.0.0.1", Family::V4).unwrap().unwrap(),
        vec![IpAddr::from([127, 0, 0, 1])]
    );
    assert!(r.lookup_now("localhost", Family::V4).is_none());
}
