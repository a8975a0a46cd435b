//! Helpers shared by the integration tests: gates instead of sleeps.
#![allow(dead_code, unreachable_pub)]

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// A gate tasks block on until it is opened, counting how many are inside
/// at once and the most ever inside.
#[derive(Clone, Default)]
pub struct Gate {
    inner: Arc<GateInner>,
}

#[derive(Default)]
struct GateInner {
    open: Mutex<bool>,
    cv: Condvar,
    inside: AtomicUsize,
    max_inside: AtomicUsize,
    entered: AtomicUsize,
}

impl Gate {
    /// A closed gate.
    pub fn new() -> Self {
        Self::default()
    }

    /// Called from a task: counts itself in, blocks until open, counts out.
    pub fn pass(&self) {
        let g = &self.inner;
        let now = g.inside.fetch_add(1, Ordering::SeqCst) + 1;
        g.max_inside.fetch_max(now, Ordering::SeqCst);
        g.entered.fetch_add(1, Ordering::SeqCst);
        {
            let mut open = g.open.lock().unwrap();
            while !*open {
                open = g.cv.wait(open).unwrap();
            }
        }
        g.inside.fetch_sub(1, Ordering::SeqCst);
    }

    /// Opens the gate: every task inside, and every later one, passes.
    pub fn open(&self) {
        *self.inner.open.lock().unwrap() = true;
        self.inner.cv.notify_all();
    }

    /// Tasks blocked at the gate now.
    pub fn inside(&self) -> usize {
        self.inner.inside.load(Ordering::SeqCst)
    }

    /// The most tasks ever inside at once.
    pub fn max_inside(&self) -> usize {
        self.inner.max_inside.load(Ordering::SeqCst)
    }

    /// Tasks that reached the gate so far.
    pub fn entered(&self) -> usize {
        self.inner.entered.load(Ordering::SeqCst)
    }

    /// Waits until `n` tasks are inside (panics after a generous timeout, so
    /// a bug fails the test instead of hanging it).
    pub fn wait_inside(&self, n: usize) {
        wait_for(|| self.inside() >= n, &format!("{n} tasks inside the gate"));
    }
}

/// Polls `cond` until true; fails after 20 s. Only for conditions that are
/// guaranteed to become true; the timeout only turns a hang into a failure.
pub fn wait_for(mut cond: impl FnMut() -> bool, what: &str) {
    let start = Instant::now();
    while !cond() {
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "timed out waiting for {what}"
        );
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// A builder with blocking compensation off on every lane: budgets are fixed
/// thread counts, as the tests of budgets, queues and retirement need (their
/// tasks hold threads on a `Gate`, which the monitor would find blocked).
pub fn fixed() -> sluice::Builder {
    sluice::Pool::builder()
        .adaptive(sluice::Lane::Cpu, false)
        .adaptive(sluice::Lane::FastIo, false)
        .adaptive(sluice::Lane::SlowIo, false)
}

/// The counters' two identities (see `sluice::LaneSnapshot`), once the lane
/// is quiet: every submitted task is queued, started or gone without
/// starting, and every started one is running or ended.
pub fn assert_balanced(l: &sluice::LaneSnapshot) {
    assert_eq!(
        l.submitted_total,
        l.queue_depth + l.started_total + l.cancelled_total + l.expired_total + l.abandoned_total,
        "{l:#?}"
    );
    assert_eq!(
        l.started_total,
        l.in_flight + l.completed_total + l.panicked_total,
        "{l:#?}"
    );
}
