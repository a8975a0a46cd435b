//! The deadline reaper: fails queued tasks whose queue-wait deadline passed,
//! at the deadline, even when every worker of their lane is busy for longer.
//!
//! Workers also check the deadline when they pop a task; the reaper exists so
//! that a caller awaiting a task in a saturated lane learns of the expiry on
//! time (to answer 503, retry elsewhere...) instead of when a worker frees up.
//!
//! One thread per pool, `sluice-deadline`, started at the first task with a
//! deadline; it sleeps until the earliest deadline, so it costs no CPU while
//! nothing is due. Entries hold `Weak` references: a task that ran or was
//! dropped costs the reaper nothing but its heap slot until its deadline.

use super::Alarm;
use super::Inner;
use crate::loom::Unpoison;
use crate::loom::lock;
use crate::loom::sync::{Condvar, Mutex};
use crate::loom::thread;
use crate::task::TaskError;
use crate::task::state::{Job, TransitionToAborted};
use crate::task::{Aborted, OnAborted};
use std::cmp::Ordering;
use std::collections::BinaryHeap;
use std::sync::{Arc, Weak};
use std::time::Instant;

struct Entry {
    at: Instant,
    seq: u64,
    target: Target,
}

/// What a deadline ends: a queued task, or a reservation waiting for room.
enum Target {
    Job(Weak<dyn Job>),
    Alarm(Weak<Alarm>),
}

impl PartialEq for Entry {
    fn eq(&self, other: &Self) -> bool {
        (self.at, self.seq) == (other.at, other.seq)
    }
}
impl Eq for Entry {}
impl PartialOrd for Entry {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Entry {
    /// Reversed, so the `BinaryHeap` (a max-heap) pops the earliest first.
    fn cmp(&self, other: &Self) -> Ordering {
        (other.at, other.seq).cmp(&(self.at, self.seq))
    }
}

#[derive(Default)]
struct State {
    heap: BinaryHeap<Entry>,
    seq: u64,
    started: bool,
    closed: bool,
}

#[derive(Default)]
struct Shared {
    state: Mutex<State>,
    cv: Condvar,
}

/// The reaper of one pool.
pub(crate) struct Deadlines {
    shared: Arc<Shared>,
    pool: Weak<Inner>,
}

impl Deadlines {
    pub(crate) fn new(pool: Weak<Inner>) -> Self {
        Deadlines {
            shared: Arc::default(),
            pool,
        }
    }

    /// Watches `job`'s deadline.
    pub(crate) fn watch(&self, job: &Arc<dyn Job>) {
        let Some(at) = job.header().deadline else {
            return;
        };
        self.push(at, Target::Job(Arc::downgrade(job)));
    }

    /// Fires `alarm` at `at`.
    pub(crate) fn watch_alarm(&self, at: Instant, alarm: &Arc<Alarm>) {
        self.push(at, Target::Alarm(Arc::downgrade(alarm)));
    }

    fn push(&self, at: Instant, target: Target) {
        let mut st = lock(&self.shared.state);
        if st.closed {
            return;
        }
        st.seq += 1;
        let seq = st.seq;
        let earliest = st.heap.peek().is_none_or(|top| at < top.at);
        st.heap.push(Entry { at, seq, target });
        if !st.started {
            st.started = true;
            let shared = Arc::clone(&self.shared);
            let pool = self.pool.clone();
            // If the thread cannot start, workers still fail expired tasks
            // when they pop them; only the early notice is lost.
            let _ = thread::spawn_named("sluice-deadline".to_string(), 256 << 10, move || {
                reap(&shared, &pool)
            });
        } else if earliest {
            self.shared.cv.notify_one();
        }
    }

    /// Stops the reaper thread.
    pub(crate) fn close(&self) {
        let mut st = lock(&self.shared.state);
        st.closed = true;
        st.heap.clear();
        self.shared.cv.notify_one();
    }
}

fn reap(shared: &Shared, pool: &Weak<Inner>) {
    let mut st = lock(&shared.state);
    loop {
        if st.closed {
            return;
        }
        let now = Instant::now();
        match st.heap.peek() {
            None => st = shared.cv.wait(st).unpoisoned(),
            Some(top) if top.at > now => {
                let wait = top.at - now;
                st = shared.cv.wait_timeout(st, wait).unpoisoned().0;
            }
            Some(_) => {
                let entry = st.heap.pop().expect("peeked");
                drop(st);
                match entry.target {
                    Target::Job(job) => {
                        if let Some(job) = job.upgrade()
                            && let TransitionToAborted::Aborted(vacated) =
                                job.abort(TaskError::DeadlineExceeded)
                        {
                            match pool.upgrade() {
                                Some(inner) => inner.on_aborted(&*job, vacated, Aborted::Expired),
                                // The pool is gone, and its queues with it.
                                None => vacated.account(),
                            }
                        }
                    }
                    Target::Alarm(alarm) => {
                        if let Some(alarm) = alarm.upgrade() {
                            alarm.fire();
                        }
                    }
                }
                st = lock(&shared.state);
            }
        }
    }
}
