//! `sluice dns-delay` as a user runs it: listening, answering after the
//! hold, counting junk, the stats on SIGTERM and in the stats file, and
//! bad flags. Counts only.

mod common;

use common::{refused, sluice, spawn_piped};
use std::io::{BufRead, BufReader};
use std::net::{SocketAddr, UdpSocket};
use std::process::{Child, Command};
use std::time::Duration;

/// Starts `cmd` (a `sluice dns-delay --listen 127.0.0.1:0 ...`, perhaps
/// under `prlimit`) and reads its first stderr line: the child, that line
/// and the address it names.
fn start(cmd: &mut Command) -> (Child, String, SocketAddr) {
    let mut child = spawn_piped(cmd);
    let mut first = String::new();
    BufReader::new(child.stderr.as_mut().unwrap())
        .read_line(&mut first)
        .unwrap();
    let addr = first.split_whitespace().nth(4).unwrap().parse().unwrap();
    (child, first, addr)
}

/// A DNS query for `name`, type A, id `id`, recursion desired.
fn query(id: u16, name: &str) -> Vec<u8> {
    let mut q = Vec::new();
    q.extend_from_slice(&id.to_be_bytes());
    q.extend_from_slice(&[0x01, 0x00, 0, 1, 0, 0, 0, 0, 0, 0]);
    for label in name.split('.') {
        q.push(label.len() as u8);
        q.extend_from_slice(label.as_bytes());
    }
    q.extend_from_slice(&[0, 0, 1, 0, 1]);
    q
}

#[test]
fn it_answers_after_the_hold_and_reports_its_counts_on_sigterm() {
    let dir = tempfile::tempdir().unwrap();
    let stats = dir.path().join("stats.json");
    let args = "dns-delay --listen 127.0.0.1:0 --hold 50ms --fast *.fast.test --stats";
    let (child, first, addr) = start(sluice().args(common::words(args)).arg(&stats));
    assert!(
        first.starts_with("sluice dns-delay: listening on 127.0.0.1:"),
        "{first}"
    );

    let sock = UdpSocket::bind("127.0.0.1:0").unwrap();
    sock.set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    sock.send_to(b"junk, not DNS", addr).unwrap();
    let mut buf = [0u8; 512];
    for (id, name) in [(7u16, "a.lab.test"), (8, "b.fast.test")] {
        sock.send_to(&query(id, name), addr).unwrap();
        let n = sock.recv(&mut buf).unwrap();
        assert_eq!(u16::from_be_bytes([buf[0], buf[1]]), id);
        assert_eq!(u16::from_be_bytes([buf[6], buf[7]]), 1, "one answer");
        assert_eq!(&buf[n - 4..n], &[127, 0, 0, 2]);
    }

    let kill = std::process::Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(kill.success());
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{:?}", out.status);
    let line = String::from_utf8_lossy(&out.stdout);
    let v: serde_json::Value = serde_json::from_str(line.trim()).unwrap();
    assert_eq!(v["queries_total"], 1);
    assert_eq!(v["answered_total"], 1);
    assert_eq!(v["fast_total"], 1);
    assert_eq!(v["malformed_total"], 1);
    assert_eq!(v["max_in_flight_names"], 1);
    let file: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&stats).unwrap()).unwrap();
    assert_eq!(file, v);
}

#[test]
fn bad_flags_name_the_flag_and_the_fix() {
    for (args, want) in [
        (
            vec!["--hold", "2h"],
            "--hold \"2h\" is out of range; expected 0s..=1h",
        ),
        (
            vec!["--listen", "localhost"],
            "--listen \"localhost\": expected an address and port like 127.0.0.1:5353",
        ),
        (
            vec!["--answer", "127.0.0.2", "--answer", "127.0.0.3"],
            "--answer \"127.0.0.3\": 127.0.0.2 already answers that family",
        ),
        (
            vec!["--answer", "two"],
            "--answer \"two\": expected an IPv4 or IPv6 address",
        ),
        (vec!["--ttl", "1d"], "--ttl \"1d\": expected whole seconds"),
        (vec!["--fast", "a b"], "--fast \"a b\": expected a name"),
    ] {
        let stderr = refused(&[&["dns-delay"][..], &args].concat(), want).stderr;
        assert!(stderr.starts_with("sluice: "), "{stderr}");
    }
}

#[test]
fn out_of_descriptors_the_accept_loop_backs_off_instead_of_spinning() {
    let dir = tempfile::tempdir().unwrap();
    let stats = dir.path().join("stats.json");
    let (mut child, _, addr) = start(
        Command::new("prlimit")
            .arg("--nofile=50")
            .arg("--")
            .arg(env!("CARGO_BIN_EXE_sluice"))
            .args(["dns-delay", "--listen", "127.0.0.1:0", "--stats"])
            .arg(&stats),
    );
    // 80 connections against 50 descriptors: accept fails with EMFILE
    // while the rest wait in the backlog.
    let conns: Vec<_> = (0..80)
        .map(|_| std::net::TcpStream::connect(addr).unwrap())
        .collect();
    // The count, from the control query: over UDP, which needs no new
    // descriptor (the stats file cannot be rewritten while none is free).
    let sock = UdpSocket::bind("127.0.0.1:0").unwrap();
    sock.set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    let read = || {
        let mut q = query(77, "_stats.dns-delay");
        let n = q.len();
        q[n - 3] = 16; // TXT
        sock.send_to(&q, addr).unwrap();
        let mut buf = [0u8; 4096];
        let n = sock.recv(&mut buf).unwrap();
        let text = String::from_utf8_lossy(&buf[..n]).into_owned();
        let rest = text
            .split("accept_errors_total=")
            .nth(1)
            .expect("the count");
        rest.chars()
            .take_while(char::is_ascii_digit)
            .collect::<String>()
            .parse::<u64>()
            .unwrap()
    };
    let t = std::time::Instant::now();
    while read() == 0 {
        assert!(
            t.elapsed() < Duration::from_secs(60),
            "no accept error seen"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    // Two seconds out of descriptors: a spinning loop fails accept()
    // hundreds of thousands of times; the backoff (10 ms doubling to 1 s)
    // about ten.
    let before = read();
    std::thread::sleep(Duration::from_secs(2));
    let errors = read() - before;
    assert!(errors <= 20, "{errors} accept errors in 2 s");
    drop(conns);
    // It recovers: a held query is still answered.
    sock.send_to(&query(5, "after.test"), addr).unwrap();
    let mut buf = [0u8; 512];
    let n = sock.recv(&mut buf).unwrap();
    assert_eq!(&buf[..2], &5u16.to_be_bytes(), "{:?}", &buf[..n]);
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(child.id() as i32),
        nix::sys::signal::Signal::SIGTERM,
    )
    .unwrap();
    assert!(child.wait().unwrap().success());
}

#[test]
fn a_stats_path_that_cannot_be_written_says_why() {
    refused(
        &common::words("dns-delay --listen 127.0.0.1:0 --stats /proc/version"),
        "cannot create /proc/version.tmp to rename over it: /proc does not take new files",
    );
}
