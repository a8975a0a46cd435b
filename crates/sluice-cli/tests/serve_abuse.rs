//! `sluice serve` holds under abuse: a half-sent request does not stop
//! shutdown, slow and idle clients are closed by timeouts, a full
//! connection table still answers `/ping`, and work for clients who left
//! is cancelled, not run.

mod common;

use common::serve::{Serve, get};
use std::io::{ErrorKind, Read, Write};
use std::net::TcpStream;
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering::SeqCst};
use std::time::Duration;

/// Reads until EOF or a reset: true if the server closed the connection
/// (within the socket's 60 s read timeout).
fn closed_by_server(s: &mut TcpStream) -> bool {
    s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    let mut buf = [0u8; 4096];
    loop {
        match s.read(&mut buf) {
            Ok(0) => return true,
            Ok(_) => continue,
            Err(e) if e.kind() == ErrorKind::ConnectionReset => return true,
            Err(_) => return false,
        }
    }
}

#[test]
fn sigterm_with_a_half_sent_request_still_exits() {
    let s = Serve::start(&[]);
    let mut half = TcpStream::connect(("127.0.0.1", s.port)).unwrap();
    half.write_all(b"GET /ping HTTP/1.1\r\nHost: a\r\n")
        .unwrap();
    // The server has the bytes once a later request on the loop is answered.
    assert_eq!(s.get("/ping").0, 200);
    s.terminate();
    let (code, lines) = s
        .wait_at_most(Duration::from_secs(60))
        .expect("sluice serve exited after one SIGTERM despite a half-sent request");
    assert_eq!(code, Some(0), "{lines:#?}");
    assert!(
        lines.iter().any(|l| l.contains(
            "SIGTERM: no longer accepting; answering the 0 requests in flight (0 connections answering, 1 idle closed)"
        )),
        "{lines:#?}"
    );
    assert!(closed_by_server(&mut half));
}

#[test]
fn a_slow_header_is_cut_off_and_an_idle_connection_closed() {
    let s = Serve::start(&[
        "--header-read-timeout-ms",
        "300",
        "--idle-timeout-ms",
        "300",
    ]);
    // Slowloris: a head that never ends.
    let mut slow = TcpStream::connect(("127.0.0.1", s.port)).unwrap();
    slow.write_all(b"GET /ping HTTP/1.1\r\nHost: a\r\nX-a: b\r\n")
        .unwrap();
    assert!(closed_by_server(&mut slow), "a half-sent head is closed");
    // Keep-alive: one full answer, then silence.
    let mut idle = TcpStream::connect(("127.0.0.1", s.port)).unwrap();
    idle.write_all(b"GET /ping HTTP/1.1\r\nHost: a\r\n\r\n")
        .unwrap();
    let mut head = [0u8; 12];
    idle.read_exact(&mut head).unwrap();
    assert_eq!(&head, b"HTTP/1.1 200");
    assert!(
        closed_by_server(&mut idle),
        "an idle keep-alive connection is closed"
    );
}

#[test]
fn ping_answers_with_the_open_file_limit_full_of_idle_connections() {
    // 300 descriptors and 400 clients that connect and say nothing.
    let mut cmd = std::process::Command::new("prlimit");
    cmd.arg("--nofile=300")
        .arg("--")
        .arg(env!("CARGO_BIN_EXE_sluice"))
        .args(["serve", "--listen", "127.0.0.1:0"]);
    let s = Serve::start_command(cmd);
    let idle: Vec<TcpStream> = (0..400)
        .map(|_| TcpStream::connect(("127.0.0.1", s.port)).unwrap())
        .collect();
    for _ in 0..20 {
        assert_eq!(s.get("/ping"), (200, "pong\n".to_string()));
    }
    let (_, lines) = {
        s.terminate();
        s.wait()
    };
    drop(idle);
    assert!(
        lines.iter().any(|l| l.contains(
            "connection cap of 236 reached (--max-connections): closing the longest-idle connection for each new one"
        )),
        "{lines:#?}"
    );
}

/// GET `path` once, `Connection: close`; `None` if the connection was
/// closed without an answer.
fn try_get(port: u16, path: &str) -> Option<u16> {
    let mut c = TcpStream::connect(("127.0.0.1", port)).ok()?;
    let _ = write!(
        c,
        "GET {path} HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n"
    );
    let mut reply = Vec::new();
    let _ = c.read_to_end(&mut reply);
    String::from_utf8_lossy(&reply)
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()
}

/// One `/hold` client that asks again whenever its connection is closed
/// unanswered (closed to make room while its request was still unread).
/// `state` is odd while it connects and writes its request, even once the
/// request is sent.
fn hold_until_answered(port: u16, state: &AtomicU32) -> u16 {
    loop {
        state.fetch_add(1, SeqCst);
        let sent = TcpStream::connect(("127.0.0.1", port)).and_then(|mut c| {
            c.write_all(b"GET /hold HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n")?;
            Ok(c)
        });
        state.fetch_add(1, SeqCst);
        let Ok(mut c) = sent else { continue };
        let mut reply = Vec::new();
        let _ = c.read_to_end(&mut reply);
        if let Some(status) = String::from_utf8_lossy(&reply)
            .split_whitespace()
            .nth(1)
            .and_then(|s| s.parse().ok())
        {
            return status;
        }
    }
}

#[test]
fn a_busy_connection_table_refuses_and_says_so() {
    let s = Serve::start(&[
        "--max-connections",
        "2",
        "--cpu-threads",
        "1",
        "--diagnostic-routes",
    ]);
    let port = s.port;
    let states: Arc<[AtomicU32; 2]> = Arc::new([AtomicU32::new(0), AtomicU32::new(0)]);
    let holds: Vec<_> = (0..2)
        .map(|i| {
            let states = Arc::clone(&states);
            std::thread::spawn(move || hold_until_answered(port, &states[i]))
        })
        .collect();
    let snapshot = || [states[0].load(SeqCst), states[1].load(SeqCst)];
    // Until both holds are in, a `/ping` is admitted (under the cap, or
    // closing an idle hold, which asks again) and answered; a `/ping` can
    // also be closed to make room for a hold that asks again. A `/ping`
    // closed unanswered while no hold began a new attempt (both had sent
    // their requests before it connected, and neither asked again until it
    // was closed) was refused: the only connection admitted meanwhile was
    // its own.
    let mut answered = 0;
    loop {
        let before = snapshot();
        if before.iter().any(|s| s % 2 == 1) {
            std::thread::sleep(Duration::from_millis(1));
            continue;
        }
        let got = try_get(port, "/ping");
        if got.is_none() && snapshot() == before {
            break;
        }
        answered += u32::from(got.is_some());
        if let Some(done) = holds.iter().position(|h| h.is_finished()) {
            panic!("hold {done} was answered before the table was full (after {answered} pings)");
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    s.terminate();
    for h in holds {
        assert_eq!(h.join().unwrap(), 200);
    }
    let (code, lines) = s.wait();
    assert_eq!(code, Some(0));
    let has = |want: &str| lines.iter().any(|l| l.contains(want));
    assert!(
        has("connection cap of 2 reached (--max-connections)"),
        "{lines:#?}"
    );
    let refused: u64 = lines
        .iter()
        .find_map(|l| l.split(" idle closed at the cap, ").nth(1))
        .and_then(|r| r.split(' ').next()?.parse().ok())
        .unwrap_or_else(|| panic!("no connections line in {lines:#?}"));
    assert!(refused >= 1, "{lines:#?}");
}

#[test]
fn queued_work_of_clients_who_left_is_cancelled() {
    let s = Serve::start(&["--cpu-threads", "1", "--diagnostic-routes"]);
    let port = s.port;
    let hold = std::thread::spawn(move || get(port, "/hold"));
    s.wait_metric("sluice_in_flight{lane=\"cpu\"}", 1.0);
    let gone: Vec<TcpStream> = (0..10)
        .map(|_| {
            let mut c = TcpStream::connect(("127.0.0.1", port)).unwrap();
            c.write_all(b"GET /login HTTP/1.1\r\nHost: a\r\n\r\n")
                .unwrap();
            c
        })
        .collect();
    s.wait_metric("sluice_queue_depth{lane=\"cpu\"}", 10.0);
    drop(gone);
    s.wait_metric("sluice_cancelled_total{lane=\"cpu\"}", 10.0);
    assert_eq!(s.metric("sluice_queue_depth{lane=\"cpu\"}"), 0.0);
    assert_eq!(s.get("/release").1, "released 1 holds\n");
    assert_eq!(hold.join().unwrap().0, 200);
    assert_eq!(
        s.metric("sluice_started_total{lane=\"cpu\"}"),
        1.0,
        "no login ran"
    );
}

#[test]
fn orphaned_holds_end() {
    let s = Serve::start(&["--cpu-threads", "1", "--diagnostic-routes"]);
    assert_eq!(
        s.get("/hold?ms=200"),
        (200, "hold timed out after 200 ms\n".to_string())
    );
    assert_eq!(s.get("/hold?ms=0").0, 400);
    // A hold whose client hangs up lets its thread go.
    let mut c = TcpStream::connect(("127.0.0.1", s.port)).unwrap();
    c.write_all(b"GET /hold HTTP/1.1\r\nHost: a\r\n\r\n")
        .unwrap();
    s.wait_metric("sluice_in_flight{lane=\"cpu\"}", 1.0);
    drop(c);
    s.wait_metric("sluice_in_flight{lane=\"cpu\"}", 0.0);
    assert_eq!(s.metric("sluice_completed_total{lane=\"cpu\"}"), 2.0);
}
