//! `sluice scope --prometheus` under abuse, as `sluice serve` is tested in
//! `serve_abuse.rs`: 3000 idle connections are held on the exporter's one
//! thread (no thread per connection) and closed by the idle timeout; a
//! slowloris client is closed by the header-read timeout; ten clients
//! streaming a 1 MiB header are refused with 431 while scope's memory stays
//! bounded; `/metrics` is answered throughout. Run as root, the exporter
//! thread runs as nobody with no capabilities. Counts and bounds only.

mod common;

use common::{Killed, free_addr, line_with, sluice};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::Stdio;
use std::time::{Duration, Instant};

fn count(dir: String) -> usize {
    std::fs::read_dir(dir).map(|d| d.count()).unwrap_or(0)
}

fn vm_rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmRSS")
}

/// `GET /metrics` on a fresh connection: the status line.
fn scrape(addr: &str) -> String {
    let mut c = TcpStream::connect(addr).unwrap();
    c.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    write!(c, "GET /metrics HTTP/1.0\r\nHost: x\r\n\r\n").unwrap();
    let mut s = String::new();
    let _ = c.read_to_string(&mut s);
    s.lines().next().unwrap_or_default().to_string()
}

/// Polls `done` every 100 ms for at most `limit`; whether it came true.
fn within(limit: Duration, mut done: impl FnMut() -> bool) -> bool {
    let start = Instant::now();
    while start.elapsed() < limit {
        if done() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    done()
}

#[test]
fn the_exporter_holds_idle_slow_and_huge_clients_on_one_thread() {
    // Room for 3000 connections on both sides (scope inherits it).
    let nofile = rustix::process::getrlimit(rustix::process::Resource::Nofile);
    let want = 8192.min(nofile.maximum.unwrap_or(u64::MAX));
    if want < 7000 {
        eprintln!("skipped: the open-file hard limit {want} is below 7000");
        return;
    }
    rustix::process::setrlimit(
        rustix::process::Resource::Nofile,
        rustix::process::Rlimit {
            current: Some(want),
            maximum: nofile.maximum,
        },
    )
    .unwrap();
    // libuv's default pool of 4.
    let node = common::node::eval(common::node::IDLE_JS, &[], 4);
    let addr = free_addr();
    let mut scope = sluice()
        .args(["scope", &node.pid().to_string(), "--prometheus", &addr])
        .args(["--duration", "120"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut out = BufReader::new(scope.stdout.take().unwrap());
    let scope = Killed(scope);
    let pid = scope.pid();
    line_with(&mut out, "healthy");
    // Keep reading its lines so that it never blocks on a full pipe.
    std::thread::spawn(move || for _ in out.lines() {});
    assert!(scrape(&addr).contains(" 200 "));

    // Run as root: the exporter thread is nobody, with no capabilities.
    if rustix::process::geteuid().is_root() {
        let tasks = std::fs::read_dir(format!("/proc/{pid}/task")).unwrap();
        let exporter = tasks
            .flatten()
            .map(|t| t.path())
            .find(|t| {
                std::fs::read_to_string(t.join("comm")).is_ok_and(|c| c.trim() == "scope-prometheu")
            })
            .expect("the exporter thread");
        let status = std::fs::read_to_string(exporter.join("status")).unwrap();
        assert!(
            status.contains("Uid:\t65534\t65534\t65534\t65534"),
            "{status}"
        );
        assert!(status.contains("CapEff:\t0000000000000000"), "{status}");
        assert!(status.contains("CapPrm:\t0000000000000000"), "{status}");
    }

    // 3000 idle connections: each a task on the exporter's thread, none a
    // thread. (On a loaded machine connecting all takes longer than the
    // idle timeout, so the first ones may already be closed again: the peak
    // held is counted, not all 3000 at once.)
    let threads = count(format!("/proc/{pid}/task"));
    let fds = count(format!("/proc/{pid}/fd"));
    let watching = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
    let watcher = {
        let watching = std::sync::Arc::clone(&watching);
        std::thread::spawn(move || {
            let (mut most_threads, mut most_fds) = (0, 0);
            while watching.load(std::sync::atomic::Ordering::Relaxed) {
                most_threads = most_threads.max(count(format!("/proc/{pid}/task")));
                most_fds = most_fds.max(count(format!("/proc/{pid}/fd")));
                std::thread::sleep(Duration::from_millis(20));
            }
            (most_threads, most_fds)
        })
    };
    let idle: Vec<TcpStream> = (0..3000)
        .map(|_| TcpStream::connect(&addr).unwrap())
        .collect();
    assert!(scrape(&addr).contains(" 200 "), "a scrape among 3000 idle");
    watching.store(false, std::sync::atomic::Ordering::Relaxed);
    let (most_threads, most_fds) = watcher.join().unwrap();
    assert_eq!(most_threads, threads, "threads while 3000 connections came");
    assert!(
        most_fds >= fds + 500,
        "scope held at most {} connections at once",
        most_fds.saturating_sub(fds)
    );
    eprintln!(
        "scope held up to {} connections on {threads} threads",
        most_fds - fds
    );

    // A slowloris client: a header byte every 200 ms, never the end.
    let mut slow = TcpStream::connect(&addr).unwrap();
    slow.write_all(b"GET /metrics HTTP/1.1\r\nHost: x\r\n")
        .unwrap();
    let slow_closed = std::thread::spawn(move || {
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(60) {
            if slow.write_all(b"X-A: b\r\n").is_err() {
                return true;
            }
            std::thread::sleep(Duration::from_millis(200));
        }
        false
    });

    // Ten clients streaming one 1 MiB header each: refused, memory bounded.
    let rss_before = vm_rss_kib(pid);
    let huge: Vec<_> = (0..10)
        .map(|_| {
            let addr = addr.clone();
            std::thread::spawn(move || {
                let mut c = TcpStream::connect(&addr).unwrap();
                c.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
                let _ = c.write_all(b"GET /metrics HTTP/1.1\r\nHost: x\r\nX-Big: ");
                let chunk = vec![b'a'; 64 * 1024];
                for _ in 0..16 {
                    if c.write_all(&chunk).is_err() {
                        break;
                    }
                }
                let mut answer = Vec::new();
                let _ = c.read_to_end(&mut answer);
                String::from_utf8_lossy(&answer)
                    .lines()
                    .next()
                    .unwrap_or_default()
                    .to_string()
            })
        })
        .collect();
    let answers: Vec<String> = huge.into_iter().map(|h| h.join().unwrap()).collect();
    let rss_after = vm_rss_kib(pid);
    for a in &answers {
        // 431, or (a reset while the rest was still being sent) nothing.
        assert!(a.is_empty() || a.contains(" 431 "), "{answers:?}");
    }
    assert!(answers.iter().any(|a| a.contains(" 431 ")), "{answers:?}");
    assert!(
        rss_after < rss_before + 50 * 1024,
        "scope's RSS went from {rss_before} KiB to {rss_after} KiB"
    );
    assert!(
        scrape(&addr).contains(" 200 "),
        "a scrape after the huge headers"
    );

    // The idle timeout closes the 3000; the header-read timeout the slow one.
    assert!(
        within(Duration::from_secs(60), || count(format!("/proc/{pid}/fd"))
            < fds + 10),
        "scope still holds {} descriptors ({} before)",
        count(format!("/proc/{pid}/fd")),
        fds
    );
    let mut closed = 0;
    for mut c in idle {
        c.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
        let mut b = [0u8; 1];
        let gone = match c.read(&mut b) {
            Ok(n) => n == 0,
            Err(e) => !matches!(
                e.kind(),
                std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
            ),
        };
        if gone {
            closed += 1;
        }
    }
    assert_eq!(closed, 3000, "idle connections closed by scope");
    assert!(
        slow_closed.join().unwrap(),
        "the slowloris client was never closed"
    );
    assert_eq!(
        count(format!("/proc/{pid}/task")),
        threads,
        "threads at the end"
    );
    assert!(scrape(&addr).contains(" 200 "));
}
