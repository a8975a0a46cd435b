//! [`Waiters`]: the FIFO of reservations waiting for room in a bounded
//! lane (`Pool::reserve`, `pool/admission.rs`). The policy owns one per
//! bounded lane and wakes the front when a place frees.

use crate::loom::lock;
use crate::loom::sync::atomic::{AtomicUsize, Ordering};
use crate::loom::sync::{Mutex, MutexGuard};
use std::collections::VecDeque;
use std::task::Waker;

/// The reservations waiting for room in one lane, in arrival order.
#[derive(Default)]
pub(crate) struct Waiters {
    /// Mirrors `queue.len()`, so that freeing a place costs one load when
    /// nobody waits.
    len: AtomicUsize,
    queue: Mutex<Queue>,
}

#[derive(Default)]
struct Queue {
    next_id: u64,
    entries: VecDeque<(u64, Waker)>,
}

impl Waiters {
    fn lock(&self) -> MutexGuard<'_, Queue> {
        lock(&self.queue)
    }

    /// Nobody waits (a new reservation may try the lane at once).
    pub(crate) fn is_empty(&self) -> bool {
        self.len.load(Ordering::SeqCst) == 0
    }

    /// Queues a waiter at the back; returns its id.
    pub(crate) fn push(&self, waker: &Waker) -> u64 {
        let mut q = self.lock();
        let id = q.next_id;
        q.next_id += 1;
        q.entries.push_back((id, waker.clone()));
        self.len.swap(q.entries.len(), Ordering::AcqRel);
        id
    }

    /// Stores `id`'s current waker; true if it is at the front.
    pub(crate) fn update(&self, id: u64, waker: &Waker) -> bool {
        let mut q = self.lock();
        let front = q.entries.front().map(|e| e.0);
        if let Some(entry) = q.entries.iter_mut().find(|e| e.0 == id)
            && !entry.1.will_wake(waker)
        {
            entry.1 = waker.clone();
        }
        front == Some(id)
    }

    /// Removes `id`; if it was at the front, wakes the next (its turn came).
    pub(crate) fn remove(&self, id: u64) {
        let next = {
            let mut q = self.lock();
            let Some(pos) = q.entries.iter().position(|e| e.0 == id) else {
                return;
            };
            q.entries.remove(pos);
            self.len.swap(q.entries.len(), Ordering::AcqRel);
            if pos == 0 {
                q.entries.front().map(|e| e.1.clone())
            } else {
                None
            }
        };
        if let Some(w) = next {
            w.wake();
        }
    }

    /// Someone waits, read as a read-modify-write: it reads the latest
    /// `len` in its modification order, so that a waiter's `push` (a
    /// read-modify-write too) either comes after this read, and then the
    /// waiter's own try sees the freed place, or is seen here.
    pub(crate) fn anyone_waits(&self) -> bool {
        self.len.fetch_add(0, Ordering::AcqRel) > 0
    }

    /// A place was freed: the front waiter's turn.
    pub(crate) fn wake_front(&self) {
        if !self.anyone_waits() {
            return;
        }
        let front = self.lock().entries.front().map(|e| e.1.clone());
        if let Some(w) = front {
            w.wake();
        }
    }

    /// The lane closed: every waiter learns it.
    pub(crate) fn wake_all(&self) {
        if !self.anyone_waits() {
            return;
        }
        let all: Vec<Waker> = self.lock().entries.iter().map(|e| e.1.clone()).collect();
        for w in all {
            w.wake();
        }
    }

    /// Waiters queued now.
    pub(crate) fn len(&self) -> usize {
        self.len.load(Ordering::SeqCst)
    }
}
