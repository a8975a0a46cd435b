//! Graceful shutdown loses no accepted request: one Cpu thread held, five
//! `/login`s queued behind it, then SIGTERM. The hold is released at
//! shutdown, all six answer 200, the server says how many were in flight
//! and exits 0 after the pool drained.

mod common;

use common::serve::{Serve, get, get_many};

#[test]
fn sigterm_answers_every_accepted_request() {
    let s = Serve::start(&[
        "--cpu-threads",
        "1",
        "--login-iterations",
        "1000",
        "--diagnostic-routes",
    ]);
    let port = s.port;
    let hold = std::thread::spawn(move || get(port, "/hold"));
    s.wait_metric("sluice_in_flight{lane=\"cpu\"}", 1.0);
    let logins = std::thread::spawn(move || get_many(port, "/login", 5));
    s.wait_metric("sluice_queue_depth{lane=\"cpu\"}", 5.0);

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
    assert!(has("6 requests answered after SIGTERM"), "{lines:#?}");
    assert!(
        has("pool drained (0 queued tasks abandoned, 0 still running)"),
        "{lines:#?}"
    );
}
