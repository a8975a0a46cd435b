//! `sluice load` exits 1, and prints no `NaN`, when no request succeeded.

mod common;

use common::sluice;
use std::io::{Read, Write};

#[test]
fn nothing_succeeded_exits_one_without_nan() {
    // A server that answers 500 to everything.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut s) = stream else { return };
            std::thread::spawn(move || {
                let mut buf = [0u8; 4096];
                while matches!(s.read(&mut buf), Ok(n) if n > 0) {
                    let answer = b"HTTP/1.1 500 Internal Server Error\r\ncontent-length: 0\r\n\r\n";
                    if s.write_all(answer).is_err() {
                        return;
                    }
                }
            });
        }
    });
    let out = sluice()
        .args([
            "load",
            &format!("http://127.0.0.1:{port}/"),
            "-c",
            "2",
            "-n",
            "20",
        ])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stdout}{stderr}");
    assert!(!stdout.contains("NaN"), "{stdout}");
    assert!(stdout.contains("20 sent, 0 ok"), "{stdout}");
    assert!(stdout.contains("statuses {500: 20}"), "{stdout}");
    assert!(
        stderr.contains("sluice load: no request succeeded (no 2xx answer of 20 sent)"),
        "{stderr}"
    );
}
