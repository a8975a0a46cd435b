//! Admission by the Cpu lane's bound: with one Cpu thread held and a queue
//! bound of 2, twenty concurrent `/login`s are exactly 2 queued and 18
//! refused with 429 at once. Counts only: the hold is a gate, released by
//! `/release`, not a clock.

mod common;

use common::serve::{ONE_CPU, Serve, get_many};

#[test]
fn past_the_cpu_bound_login_answers_429_at_once() {
    let s = Serve::start(&[ONE_CPU, &["--cpu-queue", "2"]].concat());
    let port = s.port;
    let hold = s.hold();

    let flood = std::thread::spawn(move || get_many(port, "/login", 20));
    // Every one of the 20 reached the lane: 2 queued behind the hold, 18 refused.
    s.wait_metric("sluice_rejected_total{lane=\"cpu\"}", 18.0);
    s.wait_metric("sluice_queue_depth{lane=\"cpu\"}", 2.0);
    let (status, body) = s.get("/login");
    assert_eq!(status, 429);
    assert_eq!(
        body,
        "busy: the cpu lane's queue is at its bound of 2; retry later\n"
    );

    assert_eq!(s.get("/release"), (200, "released 1 holds\n".to_string()));
    assert_eq!(hold.join().unwrap(), (200, "released\n".to_string()));
    let statuses = flood.join().unwrap();
    assert_eq!(
        statuses.iter().filter(|&&c| c == 200).count(),
        2,
        "{statuses:?}"
    );
    assert_eq!(
        statuses.iter().filter(|&&c| c == 429).count(),
        18,
        "{statuses:?}"
    );

    assert_eq!(s.metric("sluice_rejected_total{lane=\"cpu\"}"), 19.0);
    assert_eq!(s.metric("sluice_completed_total{lane=\"cpu\"}"), 3.0);
    // The key is Node's: crypto.pbkdf2Sync('secret', 'salt', 1000, 64, 'sha256').
    let (status, key) = s.get("/login");
    assert_eq!(status, 200);
    assert_eq!(
        key,
        "a8df899f3c4f204d967e0ad63c092987c10055ebb017b3d9d28add218d4f7aadc8c69da6f0a1537dd5de8357f8e0b0ae5cf9c47db84b60e9d2978606ee13d2e3\n"
    );
}
