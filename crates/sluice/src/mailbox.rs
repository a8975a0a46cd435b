//! Completions handed back to an event loop without a lock the loop can
//! wait on.
//!
//! A pool that sits beside an event loop must tell the loop when work is
//! done. libuv's pool does it under a mutex (`wq_mutex`), and Node-API's
//! threadsafe functions hold theirs while they wake the loop: the loop
//! thread, woken, runs straight into the lock the waking worker still holds.
//! When that worker is a low-priority thread on a busy machine, the loop
//! waits for it to be scheduled again, milliseconds at a time.
//!
//! A [`Mailbox`] is a lock-free queue plus one flag, *armed*:
//!
//! - [`post`](Mailbox::post), from any thread: push the item, then set
//!   *armed*; the poster that finds it unset rings the loop's bell (writes a
//!   byte to a pipe, sends a `uv_async`, unparks a thread: whatever the bell
//!   is). One ring per batch, and no lock held while ringing.
//! - [`drain`](Mailbox::drain), on the loop's thread after a ring: clear
//!   *armed*, then pop everything.
//!
//! **No lost wake-up.** Every item is drained by a drain that begins after
//! its post. The flag's read-modify-writes are totally ordered. A poster
//! whose swap comes after the drainer's clear finds the flag unset and rings
//! (a later drain takes its item). A poster whose swap comes before the
//! clear pushed before its swap, and the clear reads its write (or a later
//! one in its release sequence): the push happens-before the clear, so the
//! drain that follows the clear pops the item. A drain may find nothing (a
//! ring for items an earlier drain already took); it never misses one.
//! The loom model `loom_mailbox` checks this over every interleaving of two
//! posters and a draining loop.
//!
//! ```
//! use sluice::mailbox::Mailbox;
//! use std::sync::Arc;
//! use std::sync::atomic::{AtomicUsize, Ordering};
//!
//! let rings = Arc::new(AtomicUsize::new(0));
//! let bell = Arc::clone(&rings);
//! let mailbox = Mailbox::new(move || {
//!     bell.fetch_add(1, Ordering::SeqCst);
//! });
//! assert!(mailbox.post(1));   // the first post of a batch rings
//! assert!(!mailbox.post(2));  // the rest ride on that ring
//! assert_eq!(rings.load(Ordering::SeqCst), 1);
//!
//! let mut got = Vec::new();
//! assert_eq!(mailbox.drain(|n| got.push(n)), 2);
//! assert_eq!(got, [1, 2]);
//! assert!(mailbox.post(3));   // a new batch rings again
//! assert_eq!(rings.load(Ordering::SeqCst), 2);
//! ```

use crate::loom::sync::atomic::{AtomicBool, Ordering};

/// A lock-free queue of completions for one event loop, with a bell rung
/// once per batch. See the [module docs](self) for the protocol.
pub struct Mailbox<T> {
    queue: Queue<T>,
    armed: AtomicBool,
    ring: Box<dyn Fn() + Send + Sync>,
}

impl<T> std::fmt::Debug for Mailbox<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Mailbox")
            .field("armed", &self.armed.load(Ordering::Relaxed))
            .finish_non_exhaustive()
    }
}

impl<T: Send> Mailbox<T> {
    /// A mailbox whose bell is `ring`. `ring` runs on the posting thread,
    /// with no lock held, at most once between two drains (and at least once
    /// after a drain when anything is posted). It should only wake the loop:
    /// a write to a pipe or an eventfd, a `uv_async_send`, an unpark.
    pub fn new(ring: impl Fn() + Send + Sync + 'static) -> Self {
        Mailbox {
            queue: Queue::new(),
            armed: AtomicBool::new(false),
            ring: Box::new(ring),
        }
    }

    /// Posts `item`, from any thread. Rings the bell if no ring is pending
    /// since the last [`drain`](Self::drain); returns whether it rang.
    pub fn post(&self, item: T) -> bool {
        self.queue.push(item);
        // AcqRel: the push above is released to the drainer whose clear
        // reads this write; see the module docs.
        if self.armed.swap(true, Ordering::AcqRel) {
            return false;
        }
        (self.ring)();
        true
    }

    /// Takes every item posted so far, in order per poster, and hands each
    /// to `each`; returns how many. Call it on the loop's thread when the
    /// bell rang (a drain without a ring is harmless).
    pub fn drain(&self, mut each: impl FnMut(T)) -> usize {
        // Clear first, then pop: a post racing with this drain either is
        // popped below or rings again.
        self.armed.swap(false, Ordering::AcqRel);
        let mut n = 0;
        while let Some(item) = self.queue.pop() {
            each(item);
            n += 1;
        }
        n
    }
}

/// The queue: lock-free in production.
#[cfg(not(loom))]
struct Queue<T>(crossbeam_queue::SegQueue<T>);

#[cfg(not(loom))]
impl<T> Queue<T> {
    fn new() -> Self {
        Queue(crossbeam_queue::SegQueue::new())
    }
    fn push(&self, item: T) {
        self.0.push(item)
    }
    fn pop(&self) -> Option<T> {
        self.0.pop()
    }
}

/// Under loom a mutex around a `VecDeque`: loom cannot see inside crossbeam,
/// and what the model checks is the protocol around the queue.
#[cfg(loom)]
struct Queue<T>(crate::loom::sync::Mutex<std::collections::VecDeque<T>>);

#[cfg(loom)]
impl<T> Queue<T> {
    fn new() -> Self {
        Queue(crate::loom::sync::Mutex::new(
            std::collections::VecDeque::new(),
        ))
    }
    fn push(&self, item: T) {
        self.0.lock().unwrap().push_back(item)
    }
    fn pop(&self) -> Option<T> {
        self.0.lock().unwrap().pop_front()
    }
}
