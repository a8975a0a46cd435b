//! The DNS delay server over real UDP and TCP sockets: what it counts
//! (distinct names in flight, malformed messages, fast and control
//! queries) and what it answers. Counts only.

use hickory_proto::op::{Message, MessageType, OpCode, Query};
use hickory_proto::rr::{Name, RData, RecordType};
use sluice_testnet::dns_delay::{DelayConfig, DelayServer, FastPattern, STATS_NAME, Stats};
use std::net::{IpAddr, SocketAddr};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpStream, UdpSocket};

fn config(hold_ms: u64) -> DelayConfig {
    let mut c = DelayConfig {
        listen: "127.0.0.1:0".parse().unwrap(),
        hold: Duration::from_millis(hold_ms),
        fast: vec!["*.fast.test".parse::<FastPattern>().unwrap()],
        ..DelayConfig::default()
    };
    c.answer("::2".parse().unwrap());
    c
}

fn query(id: u16, name: &str, rtype: RecordType) -> Vec<u8> {
    let mut m = Message::new(id, MessageType::Query, OpCode::Query);
    m.metadata.recursion_desired = true;
    m.add_query(Query::query(Name::from_ascii(name).unwrap(), rtype));
    m.to_vec().unwrap()
}

/// Sends one query over UDP from a fresh socket and waits for its answer.
async fn ask_udp(server: SocketAddr, id: u16, name: impl AsRef<str>, rtype: RecordType) -> Message {
    let sock = UdpSocket::bind("127.0.0.1:0").await.unwrap();
    sock.send_to(&query(id, name.as_ref(), rtype), server)
        .await
        .unwrap();
    let mut buf = vec![0u8; 4096];
    let n = tokio::time::timeout(Duration::from_secs(10), sock.recv(&mut buf))
        .await
        .expect("an answer within 10 s")
        .unwrap();
    Message::from_vec(&buf[..n]).unwrap()
}

/// The server's stats once `done` holds of them, polled every 10 ms for at
/// most 10 s (then as they are, for the caller's assertions to judge).
async fn stats_when(server: &DelayServer, done: impl Fn(&Stats) -> bool) -> Stats {
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    let mut s = server.stats();
    while !done(&s) && std::time::Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(10)).await;
        s = server.stats();
    }
    s
}

fn addrs(m: &Message) -> Vec<IpAddr> {
    m.answers
        .iter()
        .filter_map(|r| match &r.data {
            RData::A(a) => Some(IpAddr::V4(a.0)),
            RData::AAAA(a) => Some(IpAddr::V6(a.0)),
            _ => None,
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn distinct_names_in_flight_are_counted_and_junk_is_dropped() {
    let server = DelayServer::start(config(300)).await.unwrap();
    let addr = server.local_addr();

    // Junk first: none of it may stop the server.
    let junk = UdpSocket::bind("127.0.0.1:0").await.unwrap();
    junk.send_to(b"\x00\x01not dns at all", addr).await.unwrap();
    junk.send_to(&[0u8; 5], addr).await.unwrap();
    let mut response = Message::new(9, MessageType::Response, OpCode::Query);
    response.add_query(Query::query(
        Name::from_ascii("r.test.").unwrap(),
        RecordType::A,
    ));
    junk.send_to(&response.to_vec().unwrap(), addr)
        .await
        .unwrap();

    // Five names, six queries (n1 asked for A and AAAA), one fast name.
    let mut asks = Vec::new();
    for i in 1..=5u16 {
        asks.push(tokio::spawn(ask_udp(
            addr,
            i,
            format!("n{i}.lab.test."),
            RecordType::A,
        )));
    }
    asks.push(tokio::spawn(ask_udp(
        addr,
        6,
        "N1.lab.test.",
        RecordType::AAAA,
    )));
    let fast = ask_udp(addr, 7, "warmup.fast.test.", RecordType::A).await;
    assert_eq!(addrs(&fast), vec![IpAddr::from([127, 0, 0, 2])]);
    let mut answers = Vec::new();
    for a in asks {
        answers.push(a.await.unwrap());
    }
    for (i, m) in answers.iter().enumerate() {
        assert_eq!(m.metadata.id, i as u16 + 1);
        assert_eq!(m.answers.len(), 1, "{m:?}");
        assert_eq!(m.answers[0].ttl, 0);
    }
    assert_eq!(addrs(&answers[0]), vec![IpAddr::from([127, 0, 0, 2])]);
    assert_eq!(addrs(&answers[5]), vec!["::2".parse::<IpAddr>().unwrap()]);
    assert_eq!(
        answers[5].queries[0].name.to_ascii(),
        "N1.lab.test.",
        "the client's case"
    );

    // A held query is released (counted answered, out of flight) just
    // after its answer is sent, so the client can hold every answer before
    // the server has counted the last: wait for the releases, bounded.
    let s = stats_when(&server, |s| s.in_flight_queries == 0).await;
    assert_eq!(s.malformed_total, 3);
    assert_eq!((s.queries_total, s.udp_total, s.tcp_total), (6, 6, 0));
    assert_eq!(
        (
            s.names_total,
            s.max_in_flight_names,
            s.max_in_flight_queries
        ),
        (5, 5, 6)
    );
    assert_eq!(
        (s.fast_total, s.answered_total, s.retransmits_total),
        (1, 6, 0)
    );
    assert_eq!((s.in_flight_names, s.in_flight_queries), (0, 0));
}

#[tokio::test(flavor = "current_thread")]
async fn tcp_queries_are_held_and_a_broken_message_does_not_end_the_server() {
    let dir = tempfile::tempdir().unwrap();
    let stats_file = dir.path().join("stats.json");
    let server = DelayServer::start(DelayConfig {
        stats_file: Some(stats_file.clone()),
        ..config(50)
    })
    .await
    .unwrap();
    let addr = server.local_addr();
    let mut tcp = TcpStream::connect(addr).await.unwrap();
    // A framed message that is not DNS, then a real query on the same
    // connection.
    tcp.write_all(&[0, 3, 1, 2, 3]).await.unwrap();
    let q = query(42, "tcp.lab.test.", RecordType::A);
    tcp.write_all(&(q.len() as u16).to_be_bytes())
        .await
        .unwrap();
    tcp.write_all(&q).await.unwrap();
    let len = tcp.read_u16().await.unwrap();
    let mut buf = vec![0u8; usize::from(len)];
    tcp.read_exact(&mut buf).await.unwrap();
    let m = Message::from_vec(&buf).unwrap();
    assert_eq!(m.metadata.id, 42);
    assert_eq!(addrs(&m), vec![IpAddr::from([127, 0, 0, 2])]);
    // A connection that ends inside a message.
    let mut cut = TcpStream::connect(addr).await.unwrap();
    cut.write_all(&[0, 40, 1]).await.unwrap();
    drop(cut);
    // The server still answers over UDP.
    let again = ask_udp(addr, 43, "udp.lab.test.", RecordType::A).await;
    assert_eq!(again.metadata.id, 43);

    let stats = server.stop().await;
    assert_eq!(
        (stats.tcp_total, stats.udp_total, stats.malformed_total),
        (1, 1, 2)
    );
    let file = Stats::read(&stats_file).unwrap();
    assert_eq!(file, stats);
    assert_eq!(file.listen, addr.to_string());
    assert_eq!(file.hold_ms, 50);
}

#[tokio::test(flavor = "current_thread")]
async fn the_control_query_answers_the_counts_at_once() {
    let server = DelayServer::start(config(3_600_000)).await.unwrap();
    let addr = server.local_addr();
    // One query held for an hour: still counted in flight.
    let held = UdpSocket::bind("127.0.0.1:0").await.unwrap();
    held.send_to(&query(1, "held.lab.test.", RecordType::A), addr)
        .await
        .unwrap();
    let mut m = ask_udp(addr, 2, format!("{STATS_NAME}."), RecordType::TXT).await;
    while !m
        .answers
        .iter()
        .any(|r| r.data.to_string().contains("in_flight_names=1"))
    {
        // The held query may not have arrived yet.
        tokio::time::sleep(Duration::from_millis(5)).await;
        m = ask_udp(addr, 2, format!("{STATS_NAME}."), RecordType::TXT).await;
    }
    let lines: Vec<String> = m.answers.iter().map(|r| r.data.to_string()).collect();
    assert_eq!(lines.len(), 19, "{lines:?}");
    // The listen address and the hold, as in the stats file.
    assert!(lines.contains(&format!("listen={addr}")), "{lines:?}");
    assert!(lines.contains(&"hold_ms=3600000".to_string()), "{lines:?}");
    assert!(
        lines.iter().any(|l| l.contains("max_in_flight_names=1")),
        "{lines:?}"
    );
    let s = server.stop().await;
    assert_eq!(
        (s.control_total >= 1, s.answered_total, s.queries_total),
        (true, 0, 1)
    );
}

#[tokio::test(flavor = "current_thread")]
async fn a_tcp_client_that_never_reads_is_bounded_then_dropped() {
    let server = DelayServer::start(DelayConfig {
        tcp_max_in_flight: 8,
        tcp_write_timeout: Duration::from_millis(300),
        ..config(0)
    })
    .await
    .unwrap();
    let addr = server.local_addr();
    let sock = tokio::net::TcpSocket::new_v4().unwrap();
    sock.set_recv_buffer_size(4096).unwrap();
    let mut tcp = sock.connect(addr).await.unwrap();
    // Pipeline queries and never read an answer.
    let q = query(7, "pipelined.lab.test.", RecordType::A);
    let mut framed = (q.len() as u16).to_be_bytes().to_vec();
    framed.extend_from_slice(&q);
    let batch: Vec<u8> = framed
        .iter()
        .copied()
        .cycle()
        .take(framed.len() * 1000)
        .collect();
    let mut sent = 0u64;
    let dropped = loop {
        match tokio::time::timeout(Duration::from_secs(30), tcp.write_all(&batch)).await {
            Ok(Ok(())) => sent += 1000,
            Ok(Err(_)) => break true,
            Err(_) => break false,
        }
        if sent >= 2_000_000 {
            break false;
        }
    };
    assert!(dropped, "the server kept reading: {sent} queries sent");
    // The drop is counted once the server's writer gave up.
    let s = stats_when(&server, |s| s.tcp_dropped_total > 0).await;
    assert_eq!(s.tcp_dropped_total, 1);
    assert!(s.max_in_flight_queries <= 8, "{s:?}");
    assert!(s.tcp_total >= 8 && s.tcp_total < sent, "{s:?}");
    // Still serving.
    assert_eq!(
        ask_udp(addr, 9, "after.lab.test.", RecordType::A)
            .await
            .metadata
            .id,
        9
    );
}

#[tokio::test(flavor = "current_thread")]
async fn past_max_held_queries_are_dropped_and_counted() {
    let server = DelayServer::start(DelayConfig {
        max_held: 2,
        ..config(3_600_000)
    })
    .await
    .unwrap();
    let addr = server.local_addr();
    let sock = UdpSocket::bind("127.0.0.1:0").await.unwrap();
    for i in 0..5u16 {
        sock.send_to(&query(i, &format!("o{i}.lab.test."), RecordType::A), addr)
            .await
            .unwrap();
    }
    let s = stats_when(&server, |s| s.in_flight_queries + s.overload_total >= 5).await;
    assert_eq!(
        (s.in_flight_queries, s.overload_total, s.queries_total),
        (2, 3, 2)
    );
}
