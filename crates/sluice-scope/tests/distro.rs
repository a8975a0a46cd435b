//! A distribution's node: Debian bookworm's nodejs 18 (libuv 1.44 as a
//! shared, stripped `libuv.so.1`, pool threads unnamed), fetched from
//! Debian's packages by `scripts/fetch-nodes debian-18` into a scratch root
//! and run in a private mount namespace (the machine's node is untouched).
//! The pool is found exactly by its threads' start routine, idle or with
//! every thread busy, and the verdicts are right; a method that cannot see
//! busy threads says `unknown`, never `healthy`. Skipped, with the reason
//! printed, where that node cannot be had (no Debian sources, not root).
//! Counts only.

mod common;

use common::NodeProc;
use sluice_scope::target::Target;
use sluice_scope::target::discovery::{self, Method, Strategy};
use sluice_scope::target::memory::RemoteMemory;
use sluice_scope::{Options, Session, Verdict};
use std::time::Duration;

fn debian_node() -> Option<std::path::PathBuf> {
    match common::fetched_node("debian-18") {
        Ok(p) => Some(p),
        Err(why) => {
            println!("skipped: Debian's node 18 cannot be had here: {why}");
            None
        }
    }
}

fn window(s: &mut Session) -> sluice_scope::Report {
    s.window(Duration::from_millis(500), &mut || false).unwrap()
}

#[test]
fn debian_node_18_idle_pool_is_found_exactly_and_healthy() {
    let Some(node) = debian_node() else { return };
    for n in [1u32, 4] {
        let p = NodeProc::start(Some(&node), n, &["idle"]);
        let t = Target::open(p.pid).unwrap();
        assert!(
            t.image.shown.contains("libuv.so.1"),
            "libuv is shared: {}",
            t.image.shown
        );
        assert!(t.image.symbols.nthreads.is_none(), "libuv.so.1 is stripped");
        let mem = RemoteMemory::open(p.pid).unwrap();
        let status = discovery::discover(&t, Some(&mem), Strategy::Auto, None).unwrap();
        let pool = status.pool().unwrap_or_else(|| panic!("{status:?}"));
        assert_eq!(
            (pool.size(), pool.method),
            (n as usize, Method::StartRoutine)
        );
        let mut s = Session::attach(p.pid, Options::default()).unwrap();
        let r = window(&mut s);
        assert_eq!(r.pool_size, n as usize);
        assert_eq!(r.discovery, "start-routine");
        assert_eq!(r.verdict, Verdict::Healthy, "{}", r.evidence);
    }
}

#[test]
fn debian_node_18_before_the_first_submission_is_not_started() {
    let Some(node) = debian_node() else { return };
    let p = NodeProc::start(Some(&node), 4, &["none"]);
    let mut s = Session::attach(p.pid, Options::default()).unwrap();
    let r = window(&mut s);
    assert_eq!(
        (r.pool_started, r.discovery.as_str()),
        (false, "not-started")
    );
    assert_eq!(r.verdict, Verdict::Healthy, "{}", r.evidence);
}

#[test]
fn debian_node_18_saturated_pool_is_found_busy_and_saturated() {
    let Some(node) = debian_node() else { return };
    let p = NodeProc::start(Some(&node), 4, &["cpu", "16"]);
    p.go();
    // Attach only once every pool thread is busy: no thread waits on
    // libuv's condition variable to be seen.
    std::thread::sleep(Duration::from_millis(300));
    let mut s = Session::attach(p.pid, Options::default()).unwrap();
    let r = window(&mut s);
    assert_eq!(r.pool_size, 4, "{}", r.evidence);
    assert_eq!(r.discovery, "start-routine");
    assert_eq!(r.busy_threads_max, 4);
    assert!(r.saturation_pct >= 90.0, "{r:?}");
    assert_eq!(r.verdict, Verdict::PoolSaturated, "{}", r.evidence);
    // No symbols: the queue cannot be read, and says so by its absence.
    assert_eq!(r.queue_depth, None);
    // The futex methods alone cannot see a pool whose threads never idle:
    // unknown, with the reason, never healthy.
    let mut futex = Session::attach(
        p.pid,
        Options {
            strategy: Strategy::Futex,
            ..Options::default()
        },
    )
    .unwrap();
    let r = window(&mut futex);
    assert_eq!(r.discovery, "not-found");
    assert_eq!(r.verdict, Verdict::Unknown, "{}", r.evidence);
    assert!(
        r.evidence
            .starts_with("pool unknown: no thread waits on a futex in libuv's static data"),
        "{}",
        r.evidence
    );
}
