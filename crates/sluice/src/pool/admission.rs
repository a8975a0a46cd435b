//! Awaitable admission: [`Pool::reserve`](crate::Pool::reserve) waits for
//! room in a bounded lane without blocking its caller's thread, and gives a
//! [`Permit`] that holds one queue place until it is spent on a task.
//!
//! # The waiter queue
//!
//! Each bounded lane keeps a FIFO of the reservations that found it full
//! ([`Waiters`]). Only the reservation at the front tries the lane; the
//! others wait their turn, so waiters are admitted in arrival order.
//!
//! - **No lost wake-up.** A waiter queues itself and stores its waker
//!   *before* it tries the lane. Whoever frees a place (a task leaving the
//!   queue, a permit dropped) decrements the depth *then* looks for waiters:
//!   either the front's try saw the room, or the wake comes after its waker
//!   was stored. Both sides' accesses to the waiter count are
//!   read-modify-writes, so the argument holds without sequential
//!   consistency (loom model `loom_reserve`).
//! - **Cancel-safe.** Dropping a [`Reserve`] removes its entry; if it was at
//!   the front it passes its turn on (wakes the next), since the room it may
//!   have been woken for is still there. A reservation that got its place
//!   returns it ready: nothing is held between polls but the queue entry.
//! - **Admitted, then handed on.** The front waiter that gets a place leaves
//!   the queue and wakes the next: more room may have been freed at once.
//!
//! Blocking [`spawn`](crate::Pool::spawn) and
//! [`try_spawn`](crate::Pool::try_spawn) do not queue here: they take room
//! whenever they find it, before waiters that have not been polled yet.

use super::Inner;
use crate::lane::Lane;
use crate::loom::lock;
use crate::loom::sync::Mutex;
use crate::loom::sync::atomic::{AtomicBool, Ordering};
use crate::policy::{Admit, Refused, Slot};
use crate::task::{Task, TaskError};
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll, Waker};
use std::time::Instant;

/// One place in a lane's queue, reserved by [`Pool::reserve`](crate::Pool::reserve).
///
/// Spend it on a task with [`spawn`](Permit::spawn); dropping it unspent
/// gives the place back (and lets the next waiter in).
///
/// ```
/// use sluice::{Lane, Pool};
///
/// let pool = Pool::builder().threads(Lane::Cpu, 1).queue_bound(Lane::Cpu, 1).build()?;
/// let permit = futures_executor::block_on(pool.reserve(Lane::Cpu))?;
/// assert_eq!(permit.lane(), Lane::Cpu);
/// assert_eq!(permit.spawn(|| 6 * 7).wait()?, 42);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[must_use = "a permit holds a queue place until it is spent or dropped"]
pub struct Permit {
    inner: Arc<Inner>,
    slot: Option<Slot>,
    lane: Lane,
}

impl Permit {
    /// A place in `lane`; `None`: the pool is shut down, and what is
    /// spawned resolves to [`TaskError::Shutdown`].
    pub(crate) fn new(inner: Arc<Inner>, slot: Option<Slot>, lane: Lane) -> Permit {
        Permit { inner, slot, lane }
    }

    /// The lane this place is in.
    pub fn lane(&self) -> Lane {
        self.lane
    }

    /// Runs `f` in the reserved place. It cannot be refused as full; it has
    /// the lane's default queue timeout, if one is set.
    #[must_use = "the task's result is only seen through its handle"]
    pub fn spawn<F, T>(mut self, f: F) -> Task<T>
    where
        F: FnOnce() -> T + Send + 'static,
        T: Send + 'static,
    {
        let slot = self.slot.take();
        let deadline = self.inner.default_deadline(self.lane);
        self.inner.submit_in(slot, self.lane, deadline, f)
    }

    /// Runs `f` in the reserved place with no handle: for work that hands
    /// its outcome on by itself (a channel, an event loop's inbox), so that
    /// no [`Task`] is made, and nothing on the submitting thread touches
    /// the task again once it is queued. It cannot be refused as full; it
    /// has the lane's default queue timeout, if one is set. An `f` that
    /// never runs (the pool shut down, the deadline passed) is dropped
    /// unrun, as a cancelled task's closure is: put what must always
    /// happen in its captures' `Drop`.
    ///
    /// ```
    /// use sluice::{Lane, Pool};
    /// use std::sync::mpsc;
    ///
    /// let pool = Pool::builder().build()?;
    /// let (tx, rx) = mpsc::channel();
    /// pool.try_reserve(Lane::FastIo)?.spawn_detached(move || tx.send(6 * 7).unwrap());
    /// assert_eq!(rx.recv()?, 42);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn spawn_detached<F>(mut self, f: F)
    where
        F: FnOnce() + Send + 'static,
    {
        let slot = self.slot.take();
        let deadline = self.inner.default_deadline(self.lane);
        self.inner.submit_detached(slot, self.lane, deadline, f);
    }

    /// Runs `f` in the reserved place, ahead of the lane's tasks that were
    /// queued without `spawn_first`: a worker that finishes its task takes
    /// the oldest of these first. For short work that must not wait behind
    /// a queue of long tasks in the same lane (a zlib stream's chunk behind
    /// a flood of password hashes); it still waits for a worker to be
    /// free, and tasks queued this way run in the order they came. A steady
    /// stream of them keeps the others waiting: use it for work much
    /// shorter than the lane's long tasks. The libuv policy has one queue,
    /// as libuv does, and runs it as [`spawn`](Self::spawn).
    ///
    /// ```
    /// use sluice::{Lane, Pool};
    /// use std::sync::{Arc, Barrier, Mutex};
    ///
    /// let pool = Pool::builder().threads(Lane::Cpu, 1).build()?;
    /// let gate = Arc::new(Barrier::new(2));
    /// let held = Arc::clone(&gate);
    /// let busy = pool.spawn(Lane::Cpu, move || { held.wait(); });
    /// let order = Arc::new(Mutex::new(Vec::new()));
    /// let log = |name: &'static str| { let o = Arc::clone(&order); move || o.lock().unwrap().push(name) };
    /// let long = pool.spawn(Lane::Cpu, log("long"));                          // queued first
    /// let short = pool.try_reserve(Lane::Cpu)?.spawn_first(log("short"));     // runs first
    /// gate.wait();
    /// busy.wait()?; long.wait()?; short.wait()?;
    /// assert_eq!(*order.lock().unwrap(), ["short", "long"]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use = "the task's result is only seen through its handle"]
    pub fn spawn_first<F, T>(mut self, f: F) -> Task<T>
    where
        F: FnOnce() -> T + Send + 'static,
        T: Send + 'static,
    {
        let slot = self.slot.take().map(|mut slot| {
            slot.first = true;
            slot
        });
        let deadline = self.inner.default_deadline(self.lane);
        self.inner.submit_in(slot, self.lane, deadline, f)
    }

    /// Runs `f` in the reserved place, if a worker takes it before
    /// `deadline` (see [`Pool::spawn_before`](crate::Pool::spawn_before)).
    #[must_use = "the task's result is only seen through its handle"]
    pub fn spawn_before<F, T>(mut self, deadline: Instant, f: F) -> Task<T>
    where
        F: FnOnce() -> T + Send + 'static,
        T: Send + 'static,
    {
        let slot = self.slot.take().expect("a permit is spent once");
        self.inner
            .submit_in(Some(slot), self.lane, Some(deadline), f)
    }
}

impl Drop for Permit {
    fn drop(&mut self) {
        if let Some(slot) = self.slot.take() {
            self.inner.release(slot);
        }
    }
}

impl fmt::Debug for Permit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Permit")
            .field("lane", &self.lane)
            .field("place", &self.slot.is_some())
            .finish()
    }
}

/// A timer the deadline reaper fires: it wakes a waiting [`Reserve`].
#[derive(Default)]
pub(crate) struct Alarm {
    fired: AtomicBool,
    waker: Mutex<Option<Waker>>,
}

impl Alarm {
    fn set_waker(&self, w: &Waker) {
        *lock(&self.waker) = Some(w.clone());
    }

    fn fired(&self) -> bool {
        self.fired.load(Ordering::SeqCst)
    }

    /// The deadline passed.
    pub(crate) fn fire(&self) {
        self.fired.store(true, Ordering::SeqCst);
        let w = lock(&self.waker).take();
        if let Some(w) = w {
            w.wake();
        }
    }
}

/// The future of [`Pool::reserve`](crate::Pool::reserve): a [`Permit`]
/// once the lane has room, in arrival order among waiters.
///
/// Cancel-safe: dropping it before it is ready leaves no trace (no place
/// held, no turn lost for the waiters behind it).
#[must_use = "futures do nothing unless awaited"]
pub struct Reserve {
    inner: Arc<Inner>,
    lane: Lane,
    deadline: Option<Instant>,
    alarm: Option<Arc<Alarm>>,
    id: Option<u64>,
    done: bool,
}

impl Reserve {
    pub(crate) fn new(inner: Arc<Inner>, lane: Lane, deadline: Option<Instant>) -> Reserve {
        Reserve {
            inner,
            lane,
            deadline,
            alarm: None,
            id: None,
            done: false,
        }
    }

    fn finish(&mut self, r: Result<Permit, TaskError>) -> Poll<Result<Permit, TaskError>> {
        self.done = true;
        if let (Some(id), Some(w)) = (self.id.take(), self.inner.waiters(self.lane)) {
            w.remove(id);
        }
        Poll::Ready(r)
    }

    fn try_admit(&mut self) -> Option<Poll<Result<Permit, TaskError>>> {
        match self.inner.admit(self.lane, Admit::Quiet) {
            Ok(slot) => {
                let permit = Permit::new(Arc::clone(&self.inner), Some(slot), self.lane);
                Some(self.finish(Ok(permit)))
            }
            Err(Refused::Closed) => Some(self.finish(Err(TaskError::Shutdown))),
            Err(Refused::Full { .. }) => None,
        }
    }
}

impl Future for Reserve {
    type Output = Result<Permit, TaskError>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = self.get_mut();
        assert!(!this.done, "Reserve polled after it completed");
        let inner = Arc::clone(&this.inner);
        let Some(waiters) = inner.waiters(this.lane) else {
            // An unbounded lane: never full.
            return this
                .try_admit()
                .expect("an unbounded lane admits or is closed");
        };
        if let Some(at) = this.deadline
            && (Instant::now() >= at || this.alarm.as_ref().is_some_and(|a| a.fired()))
        {
            return this.finish(Err(TaskError::DeadlineExceeded));
        }
        let front = match this.id {
            None => {
                if waiters.is_empty()
                    && let Some(ready) = this.try_admit()
                {
                    return ready;
                }
                let id = waiters.push(cx.waker());
                this.id = Some(id);
                waiters.update(id, cx.waker())
            }
            Some(id) => waiters.update(id, cx.waker()),
        };
        if front && let Some(ready) = this.try_admit() {
            return ready;
        }
        if let Some(at) = this.deadline {
            let alarm = this.alarm.get_or_insert_with(|| {
                let a = Arc::new(Alarm::default());
                inner.watch_alarm(at, &a);
                a
            });
            alarm.set_waker(cx.waker());
            if alarm.fired() || Instant::now() >= at {
                return this.finish(Err(TaskError::DeadlineExceeded));
            }
        }
        Poll::Pending
    }
}

impl Drop for Reserve {
    fn drop(&mut self) {
        if let (Some(id), Some(w)) = (self.id.take(), self.inner.waiters(self.lane)) {
            w.remove(id);
        }
    }
}

impl fmt::Debug for Reserve {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Reserve")
            .field("lane", &self.lane)
            .field("deadline", &self.deadline)
            .field("waiting", &self.id.is_some())
            .finish()
    }
}
