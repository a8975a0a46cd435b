//! Sampling a real Node: saturation with 16 pbkdf2 in flight at pool 4,
//! none when idle, and the doctor's verdicts on known workloads. The
//! figures are ratios of counted samples (wide margins, short windows);
//! no duration is asserted.

mod common;

use common::NodeProc;
use sluice_scope::{Options, Report, Session, Verdict};
use std::time::Duration;

/// Attaches to `node` (on an idle pool), starts its load, lets it settle
/// and reports one window of 0.5 s.
fn watch(node: &NodeProc) -> Report {
    let mut s = Session::attach(node.pid, Options::default()).unwrap();
    node.go();
    std::thread::sleep(Duration::from_millis(150));
    s.window(Duration::from_millis(500), &mut || false).unwrap()
}

/// Whether libuv's queue can be read (its symbols are there).
fn queue_readable(pid: u32) -> bool {
    sluice_scope::target::Target::open(pid)
        .unwrap()
        .image
        .symbols
        .wq
        .is_some()
}

#[test]
fn sixteen_pbkdf2_saturate_a_pool_of_four() {
    let node = NodeProc::start(None, 4, &["cpu", "16"]);
    let r = watch(&node);
    assert_eq!(r.pool_size, 4);
    assert_eq!(r.busy_threads_max, 4);
    assert!(r.saturation_pct >= 90.0, "{r:?}");
    assert!(r.utilization_pct >= 90.0, "{r:?}");
    assert_eq!(r.verdict, Verdict::PoolSaturated, "{}", r.evidence);
    // About 12 wait behind the 4 running (libuv's queue, read from
    // memory); never more than the 16 in flight. Between a completion and
    // the thread's next dequeue the loop may already have resubmitted.
    if queue_readable(node.pid) {
        assert!(r.queue_depth_max.is_some_and(|q| q <= 16), "{r:?}");
        assert!(r.queue_depth.is_some_and(|q| q >= 8.0), "{r:?}");
    } else {
        assert_eq!(r.queue_depth, None, "no symbols, no queue reading");
    }
    assert!(r.samples > 0);
}

#[test]
fn an_idle_pool_is_not_saturated() {
    let node = NodeProc::start(None, 4, &["idle"]);
    let r = watch(&node);
    assert_eq!(r.pool_size, 4);
    assert!(r.saturation_pct <= 10.0, "{r:?}");
    assert!(r.loop_utilization_pct <= 10.0, "{r:?}");
    assert_eq!(r.verdict, Verdict::Healthy, "{}", r.evidence);
    if queue_readable(node.pid) {
        assert_eq!(r.queue_depth_max, Some(0));
    }
    let json = serde_json::to_value(&r).unwrap();
    for k in sluice_scope::verdict::aggregate::ALWAYS_IN_JSON {
        assert!(json.get(k).is_some(), "{k} missing: {json}");
    }
    assert_eq!(json["verdict"], "healthy");
}

#[test]
fn a_spinning_loop_is_blocked_and_the_pool_is_not() {
    // Spins far longer than the window; the test kills it after.
    let node = NodeProc::start(None, 4, &["blocker", "5000"]);
    let r = watch(&node);
    assert!(r.loop_utilization_pct >= 90.0, "{r:?}");
    assert!(r.saturation_pct <= 10.0, "{r:?}");
    assert_eq!(r.verdict, Verdict::LoopBlocked, "{}", r.evidence);
    assert!(r.loop_states.contains_key("cpu"), "{r:?}");
}

#[test]
fn a_process_that_exits_ends_the_session() {
    let node = NodeProc::start(None, 2, &["idle"]);
    let mut s = Session::attach(node.pid, Options::default()).unwrap();
    let pid = node.pid;
    node.wait_killed();
    let err = s
        .window(Duration::from_millis(50), &mut || false)
        .unwrap_err();
    assert!(
        matches!(err, sluice_scope::ScopeError::Exited { pid: p } if p == pid),
        "{err}"
    );
}
