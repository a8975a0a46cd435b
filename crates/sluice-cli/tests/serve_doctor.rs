//! `sluice doctor` against a running `sluice serve`, on built scenarios:
//! an idle service, a loop blocked by synchronous work (`/block`), a Cpu
//! lane held full (`/hold` plus queued `/login`s). The verdicts and exit
//! codes are asserted, and the counts the doctor reports; how late or how
//! long are the doctor's own numbers. The scenarios run one after another
//! in one test, so the blocked loop's spinning cannot disturb the idle one.

mod common;

use common::serve::{ONE_CPU, Serve, get};
use common::sluice;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

fn doctor(args: &[&str]) -> (Option<i32>, String, String) {
    let run = common::Run::of(sluice().arg("doctor").args(args));
    (run.code, run.stdout, run.stderr)
}

#[test]
fn the_doctor_tells_an_idle_service_a_blocked_loop_and_a_saturated_lane_apart() {
    let s = Serve::start(ONE_CPU);
    let url = s.url("/metrics");
    // A 100 ms bar for the loop (the default is 20 ms): the lag buckets
    // step 10 ms -> 50 ms -> 100 ms, a test machine runs other work, and
    // with few ticks the p99 is the worst tick. 2 s windows (~200 ticks)
    // where the loop should be fine: one hiccup is not the p99.
    let lenient = ["--lag-p99", "100ms"];

    let (code, out, err) = doctor(&[&["--url", &url, "--window", "2s"][..], &lenient].concat());
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(out.contains("verdict: healthy"), "{out}");

    // Synchronous work on the loop, back to back, for longer than the window.
    let stop = Arc::new(AtomicBool::new(false));
    let blocks = Arc::new(AtomicU64::new(0));
    let port = s.port;
    let blocker = {
        let (stop, blocks) = (Arc::clone(&stop), Arc::clone(&blocks));
        std::thread::spawn(move || {
            while !stop.load(Ordering::SeqCst) {
                assert_eq!(get(port, "/block?ms=250").0, 200);
                blocks.fetch_add(1, Ordering::SeqCst);
            }
        })
    };
    while blocks.load(Ordering::SeqCst) == 0 {
        std::thread::yield_now();
    }
    let (code, out, err) = doctor(&[&["--url", &url, "--window", "1500ms"][..], &lenient].concat());
    stop.store(true, Ordering::SeqCst);
    blocker.join().unwrap();
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(out.contains("verdict: loop-blocked"), "{out}");

    // The Cpu lane's one thread held, two logins queued behind it.
    let hold = s.hold();
    let logins = s.queue_logins(2);
    let (code, out, err) =
        doctor(&[&["--url", &url, "--window", "2s", "--json"][..], &lenient].concat());
    assert_eq!(s.get("/release").0, 200);
    assert_eq!(hold.join().unwrap().0, 200);
    assert_eq!(logins.join().unwrap(), vec![200, 200]);
    assert_eq!(code, Some(1), "{out}{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["verdict"], "pool-saturated", "{out}");
    assert_eq!(v["lane"], "cpu", "{out}");
    assert_eq!(v["exit_code"], 1);
    assert_eq!(v["lanes"][0]["lane"], "cpu");
    assert_eq!(v["lanes"][0]["queue_depth"], 2, "{out}");
    assert_eq!(v["url"], url.as_str());
    assert!(v["timestamp"].as_str().unwrap().ends_with('Z'), "{out}");
    assert!(
        v["evidence"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e.as_str().unwrap().starts_with("lane cpu: saturated")),
        "{out}"
    );
}

#[test]
fn the_doctor_says_why_it_cannot_diagnose_and_exits_2() {
    // Nothing listens on a port just released.
    let port = common::free_port();
    let url = format!("http://127.0.0.1:{port}/metrics");
    let (code, _, err) = doctor(&["--url", &url, "--window", "1s"]);
    assert_eq!(code, Some(2));
    assert_eq!(
        err.trim(),
        format!(
            "sluice: cannot reach {url}: connection refused; is `sluice serve` running there? (start one with `sluice serve --listen 127.0.0.1:{port}`)"
        )
    );

    let (code, _, err) = doctor(&["--url", "http://10.1.2.3:8080/metrics"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("10.1.2.3 is not a loopback address"), "{err}");

    let (code, _, err) = doctor(&["--window", "soon"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("--window \"soon\" is not a duration"), "{err}");
    let (code, _, err) = doctor(&["--window", "2h"]);
    assert_eq!(code, Some(2));
    assert!(
        err.contains("--window \"2h\" is out of range; expected 100ms..=1h"),
        "{err}"
    );

    // Something answers, but not with a sluice service's metrics.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let other = std::thread::spawn(move || {
        use std::io::{Read, Write};
        let (mut c, _) = listener.accept().unwrap();
        let mut buf = [0u8; 1024];
        let _ = c.read(&mut buf).unwrap();
        let body = "# TYPE process_cpu_seconds_total counter\nprocess_cpu_seconds_total 4.5\n";
        write!(
            c,
            "HTTP/1.1 200 OK\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
            body.len()
        )
        .unwrap();
    });
    let url = format!("http://127.0.0.1:{port}/metrics");
    let (code, _, err) = doctor(&["--url", &url, "--window", "1s"]);
    other.join().unwrap();
    assert_eq!(code, Some(2));
    assert_eq!(
        err.trim(),
        format!(
            "sluice: {url}: no sluice_* series in the text: this is not the /metrics of a sluice service (start one with `sluice serve`)"
        )
    );
}
