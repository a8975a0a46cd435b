//! `sluice load` exits 1, and prints no `NaN`, when no request succeeded.

mod common;

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};

/// Answers 500 to every request on `s` until the client closes it.
fn answer_500(mut s: TcpStream) {
    let answer = b"HTTP/1.1 500 Internal Server Error\r\ncontent-length: 0\r\n\r\n";
    let mut buf = [0u8; 4096];
    while matches!(s.read(&mut buf), Ok(n) if n > 0) && s.write_all(answer).is_ok() {}
}

#[test]
fn nothing_succeeded_exits_one_without_nan() {
    // A server that answers 500 to everything, a thread per connection.
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/", listener.local_addr().unwrap());
    std::thread::spawn(move || {
        for s in listener.incoming().map_while(Result::ok) {
            std::thread::spawn(move || answer_500(s));
        }
    });
    let out = common::run(&["load", &url, "-c", "2", "-n", "20"]);
    let (stdout, stderr) = (&out.stdout, &out.stderr);
    assert_eq!(out.code, Some(1), "{stdout}{stderr}");
    assert!(!stdout.contains("NaN"), "{stdout}");
    assert!(stdout.contains("20 sent, 0 ok"), "{stdout}");
    assert!(stdout.contains("statuses {500: 20}"), "{stdout}");
    assert!(
        stderr.contains("sluice load: no request succeeded (no 2xx answer of 20 sent)"),
        "{stderr}"
    );
}
