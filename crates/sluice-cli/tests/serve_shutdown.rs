//! Graceful shutdown loses no accepted request: one Cpu thread held, five
//! `/login`s queued behind it, then SIGTERM. The hold is released at
//! shutdown, all six answer 200, the server says how many were in flight
//! and exits 0 after the pool drained.

mod common;

use common::serve::{ONE_CPU, Serve, get};

#[test]
fn sigterm_answers_every_accepted_request() {
    let s = Serve::start(ONE_CPU);
    let hold = s.hold();
    let logins = s.queue_logins(5);

    s.terminate();
    assert_eq!(hold.join().unwrap().0, 200);
    assert_eq!(logins.join().unwrap(), vec![200; 5]);
    let (code, lines) = s.wait();
    assert_eq!(code, Some(0), "{lines:#?}");
    let has = |want: &str| lines.iter().any(|l| l.contains(want));
    assert!(
        has("SIGTERM: no longer accepting; answering the 6 requests in flight"),
        "{lines:#?}"
    );
    assert!(
        has(
            "6 of the 6 requests in flight at SIGTERM answered, 0 not (client gone); shutting the pool down"
        ),
        "{lines:#?}"
    );
    assert!(
        has("pool drained (0 queued tasks abandoned, 0 still running)"),
        "{lines:#?}"
    );
}

#[test]
fn a_second_signal_exits_at_once_with_130() {
    // A login that would hash for minutes keeps the first shutdown waiting.
    let s = Serve::start(&["--login-iterations", "2000000000"]);
    let port = s.port;
    let _login = std::thread::spawn(move || {
        // The server exits under it: the connection just closes.
        let _ = std::panic::catch_unwind(|| get(port, "/login"));
    });
    s.wait_metric("sluice_in_flight{lane=\"cpu\"}", 1.0);
    s.terminate();
    let line = s
        .lines
        .recv_timeout(std::time::Duration::from_secs(60))
        .unwrap();
    assert!(
        line.contains("SIGTERM: no longer accepting; answering the 1 requests in flight"),
        "{line}"
    );
    s.terminate();
    let (code, _) = s.wait();
    assert_eq!(code, Some(130));
}

/// The longest `--shutdown-timeout` accepted (1h) is added to the clock at
/// SIGTERM without a panic and the server drains; past it, or 0, the flag
/// is refused by name before anything starts.
#[test]
fn shutdown_timeout_at_its_range_drains_and_past_it_is_refused() {
    let s = Serve::start(&["--shutdown-timeout", "1h"]);
    assert_eq!(get(s.port, "/ping").0, 200);
    s.terminate();
    let (code, lines) = s.wait();
    assert_eq!(code, Some(0), "{lines:#?}");
    assert!(!lines.iter().any(|l| l.contains("panicked")), "{lines:#?}");
    assert!(
        lines.iter().any(|l| l.contains("pool drained")),
        "{lines:#?}"
    );
    for v in ["18446744073709551615s", "0", "-1", "soon"] {
        let out = common::run(&["serve", "--listen", "127.0.0.1:0", "--shutdown-timeout", v]);
        out.refused(&format!("--shutdown-timeout {v:?}"))
            .refused("100ms..=1h");
    }
}
