//! Helpers shared by the integration tests: gates instead of sleeps.
#![allow(dead_code, unreachable_pub, unused_imports, unused_macros)]

use sluice::{Builder, Lane, Policy, Pool, Task, checkpoint};
use std::io;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// Counts its drops: what a detached closure owns, to see that a closure
/// that never runs is still dropped.
pub struct Owned(pub Arc<AtomicUsize>);

impl Drop for Owned {
    fn drop(&mut self) {
        self.0.fetch_add(1, Ordering::SeqCst);
    }
}

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

    /// A new gate with `n` tasks of `lane` at it ([`hold`](Gate::hold)),
    /// once `inside` of them are inside.
    pub fn held(pool: &Pool, lane: Lane, n: usize, inside: usize) -> (Gate, Vec<Task<()>>) {
        Gate::held_with(pool, lane, n, inside, |g, _| g.pass())
    }

    /// A new gate with `n` tasks of `lane` running `task`
    /// ([`hold_with`](Gate::hold_with)), once `inside` of them are inside.
    pub fn held_with<T: Send + 'static>(
        pool: &Pool,
        lane: Lane,
        n: usize,
        inside: usize,
        task: impl Fn(&Gate, usize) -> T + Clone + Send + 'static,
    ) -> (Gate, Vec<Task<T>>) {
        let gate = Gate::new();
        let tasks = gate.hold_with(pool, lane, n, task);
        gate.wait_inside(inside);
        (gate, tasks)
    }

    /// Spawns `n` tasks on `lane` that each pass this gate; their handles,
    /// in order.
    pub fn hold(&self, pool: &Pool, lane: Lane, n: usize) -> Vec<Task<()>> {
        self.hold_with(pool, lane, n, |g, _| g.pass())
    }

    /// Spawns `n` tasks on `lane`, task `i` running `task(gate, i)` (which
    /// passes the gate somewhere); their handles, in order.
    pub fn hold_with<T: Send + 'static>(
        &self,
        pool: &Pool,
        lane: Lane,
        n: usize,
        task: impl Fn(&Gate, usize) -> T + Clone + Send + 'static,
    ) -> Vec<Task<T>> {
        (0..n)
            .map(|i| {
                let (g, task) = (self.clone(), task.clone());
                pool.spawn(lane, move || task(&g, i))
            })
            .collect()
    }

    /// Opens the gate and waits for every one of `tasks`, each of which
    /// must succeed; their values, in order.
    pub fn release<T: Send + 'static>(&self, tasks: Vec<Task<T>>) -> Vec<T> {
        self.open();
        tasks.into_iter().map(|t| t.wait().unwrap()).collect()
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

/// A builder with the thread budgets `[cpu, fastio, slowio]` (in
/// `Lane::ALL`'s order) set on `b`.
pub fn threads(b: Builder, budgets: [usize; 3]) -> Builder {
    Lane::ALL
        .into_iter()
        .zip(budgets)
        .fold(b, |b, (lane, n)| b.threads(lane, n))
}

/// A pool of fixed budgets with one `Cpu` thread and a `Cpu` queue bound
/// of `bound`.
pub fn one_cpu_bounded(bound: usize) -> Pool {
    fixed()
        .threads(Lane::Cpu, 1)
        .queue_bound(Lane::Cpu, bound)
        .build()
        .unwrap()
}

/// A pool under `Policy::Libuv` with `threads` threads.
pub fn libuv(threads: usize) -> Pool {
    Pool::builder()
        .policy(Policy::Libuv {
            threads: Some(threads),
        })
        .build()
        .unwrap()
}

/// The same pool under both policies: lanes (one `Cpu` thread, `threads`
/// `FastIo` ones), then libuv's with `threads` threads.
pub fn both_policies(threads: usize) -> Vec<Pool> {
    let lanes = Pool::builder()
        .threads(Lane::Cpu, 1)
        .threads(Lane::FastIo, threads);
    vec![lanes.build().unwrap(), libuv(threads)]
}

/// Spins, calling `checkpoint`, until it yields or `limit` passes; whether
/// it yielded (the limit is far above the quantum: a guard, not a timing).
pub fn spin_until_yield(limit: Duration) -> bool {
    let start = Instant::now();
    while start.elapsed() < limit {
        if checkpoint() {
            return true;
        }
        std::hint::spin_loop();
    }
    false
}

/// Asserts counters of one lane of `pool`'s snapshot by name, printing the
/// counter, the context after `;` (format arguments, if any) and the whole
/// lane on a mismatch:
/// `assert_lane!(pool, Lane::Cpu, queue_depth: 0, completed_total: 4; "{policy:?}")`.
macro_rules! assert_lane {
    ($pool:expr, $lane:expr, $($field:ident: $want:expr),+ $(; $($context:tt)+)?) => {{
        let l = $pool.metrics().lane($lane).clone();
        let context = String::new() $(+ &format!($($context)+))?;
        $(assert_eq!(l.$field, $want, "{} {context}: {l:#?}", stringify!($field));)+
    }};
}
pub(crate) use assert_lane;

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

/// An error as two answers are compared: its kind and errno (`None` for a
/// success).
pub fn error_key<T>(r: &io::Result<T>) -> Option<(io::ErrorKind, Option<i32>)> {
    r.as_ref().err().map(|e| (e.kind(), e.raw_os_error()))
}
