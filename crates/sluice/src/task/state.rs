//! The task cell: one allocation shared by the queue (as `Arc<dyn Job>`) and
//! the handle (as `Arc<dyn Output<T>>`), and every transition of its stage.
//!
//! ```text
//!            transition_to_running            transition_to_complete
//!   Queued ───────────────────────▶ Running ──────────────────────────▶ Done ──▶ Taken
//!     │                                                                  ▲  take_output
//!     └────────── transition_to_aborted (cancel, deadline, shutdown) ───┘
//! ```
//!
//! All transitions happen under the cell's `slot` mutex, which also guards the
//! stored waker, so "store the result" and "read the waker" cannot interleave
//! with "check for the result" and "store the waker": no lost wake-up. Leaving
//! `Queued` happens exactly once, and whoever does it owns the accounting of
//! that task's queue slot (see `task/mod.rs`).

use crate::clock;
use crate::lane::Lane;
use crate::loom::lock;
use crate::loom::sync::Mutex;
use crate::loom::sync::atomic::{AtomicU8, Ordering};
use crate::task::{TaskError, Vacated};
use std::any::Any;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::task::{Context, Poll, Waker};
use std::time::Instant;

/// `state` values. The mirror only ever moves forward: QUEUED → RUNNING → DONE
/// or QUEUED → DONE, then DONE → WOKEN where a waker was stored. Once DONE is
/// set the task stays done.
const QUEUED: u8 = 0;
const RUNNING: u8 = 1;
const DONE: u8 = 2;
/// DONE, and the waker the handle stored has been woken and has returned:
/// what an event loop's park spin waits for (`loop_spin.rs`), so that the
/// loop's park that follows finds the wake-up already made.
const WOKEN: u8 = 3;

/// What every task carries besides its closure and result.
pub(crate) struct Header {
    /// The lane the task was submitted to.
    pub(crate) lane: Lane,
    /// Raw clock ticks at submission, for the queue-wait histogram.
    pub(crate) queued_at: u64,
    /// The latest moment the task may start; past it the task fails with
    /// [`TaskError::DeadlineExceeded`] instead of running.
    pub(crate) deadline: Option<Instant>,
    /// A lock-free mirror of the stage, written after the stage changes under
    /// the slot mutex (Release) and read without it (Acquire) by spinning
    /// waiters and by workers skipping tombstones. It is a hint: decisions
    /// are always made under the mutex.
    state: AtomicU8,
}

impl Header {
    /// True while the task has neither started nor been aborted.
    pub(crate) fn is_queued(&self) -> bool {
        self.state.load(Ordering::Acquire) == QUEUED
    }

    /// True once the task's output is ready (or taken).
    pub(crate) fn is_done(&self) -> bool {
        self.state.load(Ordering::Acquire) >= DONE
    }

    /// True once the task is done and the waker stored by the handle's last
    /// pending poll has been woken (a task done with no waker stored never
    /// gets here).
    pub(crate) fn is_woken(&self) -> bool {
        self.state.load(Ordering::Acquire) == WOKEN
    }

    /// Wakes the waker the handle stored, taken from a done task's slot
    /// after the lock is released, then marks the task `WOKEN`.
    fn wake(&self, waker: Waker) {
        waker.wake();
        self.state.store(WOKEN, Ordering::Release);
    }

    /// True if the deadline has passed at `now`.
    pub(crate) fn is_expired(&self, now: Instant) -> bool {
        self.deadline.is_some_and(|d| now >= d)
    }
}

/// The outcome of [`Job::run`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum RunOutcome {
    /// The task had already left `Queued` (cancelled, expired): nothing ran.
    NotQueued,
    /// The closure returned.
    Completed,
    /// The closure panicked; the handle yields [`TaskError::Panicked`].
    Panicked,
}

/// What a worker does around running a task (counting, timing).
pub(crate) trait RunHooks {
    /// The task left `Queued`: `vacated` is its queue slot, to account for.
    fn started(&mut self, vacated: Vacated);
    /// The closure returned or panicked; the handle does not know yet.
    fn finished(&mut self, panicked: bool);
}

/// The outcome of [`Job::abort`].
#[derive(Debug)]
pub(crate) enum TransitionToAborted {
    /// The task was queued and now resolves to the given error; the caller
    /// holds its queue slot and must account for it.
    Aborted(Vacated),
    /// A worker already took it (running or done): nothing changed.
    NotQueued,
}

/// The queue's view of a task: type-erased, run or abort it.
pub(crate) trait Job: Send + Sync + 'static {
    /// The task's header.
    fn header(&self) -> &Header;

    /// Queued → Running → Done, on the worker's thread. `hooks.started` runs
    /// after the transition to running and before the closure;
    /// `hooks.finished` after the closure and before the result is published,
    /// so whoever sees the result also sees it counted.
    fn run(&self, hooks: &mut dyn RunHooks) -> RunOutcome;

    /// Queued → Done with `err`; wakes the handle.
    fn abort(&self, err: TaskError) -> TransitionToAborted;
}

/// The handle's view of a task.
pub(crate) trait Output<T>: Job {
    /// Takes the output if it is ready, or stores `cx`'s waker.
    fn poll_output(&self, cx: &mut Context<'_>) -> Poll<Result<T, TaskError>>;
}

enum Stage<F, T> {
    Queued(F),
    Running,
    Done(Result<T, TaskError>),
    Taken,
}

struct Slot<F, T> {
    stage: Stage<F, T>,
    waker: Option<Waker>,
}

/// The concrete task: header plus the slot guarded by its mutex.
pub(crate) struct Cell<F, T> {
    header: Header,
    slot: Mutex<Slot<F, T>>,
}

impl<F, T> Cell<F, T>
where
    F: FnOnce() -> T + Send + 'static,
    T: Send + 'static,
{
    pub(crate) fn new(lane: Lane, deadline: Option<Instant>, f: F) -> Self {
        Cell {
            header: Header {
                lane,
                queued_at: clock::now(),
                deadline,
                state: AtomicU8::new(QUEUED),
            },
            slot: Mutex::new(Slot {
                stage: Stage::Queued(f),
                waker: None,
            }),
        }
    }

    /// Queued → Running: takes the closure out, if the task is still queued.
    fn transition_to_running(&self) -> Option<F> {
        let mut slot = lock(&self.slot);
        match std::mem::replace(&mut slot.stage, Stage::Running) {
            Stage::Queued(f) => {
                self.header.state.store(RUNNING, Ordering::Release);
                Some(f)
            }
            other => {
                slot.stage = other;
                None
            }
        }
    }

    /// Running/Queued → Done: stores the result and hands back the waker to
    /// wake after the lock is released.
    fn transition_to_complete(&self, result: Result<T, TaskError>) -> Option<Waker> {
        let mut slot = lock(&self.slot);
        slot.stage = Stage::Done(result);
        self.header.state.store(DONE, Ordering::Release);
        slot.waker.take()
    }
}

impl<F, T> Job for Cell<F, T>
where
    F: FnOnce() -> T + Send + 'static,
    T: Send + 'static,
{
    fn header(&self) -> &Header {
        &self.header
    }

    fn run(&self, hooks: &mut dyn RunHooks) -> RunOutcome {
        let Some(f) = self.transition_to_running() else {
            return RunOutcome::NotQueued;
        };
        hooks.started(Vacated::new(self.header.lane));
        let (result, outcome) = match catch_unwind(AssertUnwindSafe(f)) {
            Ok(value) => (Ok(value), RunOutcome::Completed),
            Err(payload) => (
                Err(TaskError::Panicked(panic_message(payload))),
                RunOutcome::Panicked,
            ),
        };
        hooks.finished(outcome == RunOutcome::Panicked);
        if let Some(waker) = self.transition_to_complete(result) {
            self.header.wake(waker);
        }
        outcome
    }

    fn abort(&self, err: TaskError) -> TransitionToAborted {
        let (closure, waker) = {
            let mut slot = lock(&self.slot);
            if !matches!(slot.stage, Stage::Queued(_)) {
                return TransitionToAborted::NotQueued;
            }
            let closure = std::mem::replace(&mut slot.stage, Stage::Done(Err(err)));
            self.header.state.store(DONE, Ordering::Release);
            (closure, slot.waker.take())
        };
        // The closure (and whatever it captured) is dropped outside the lock:
        // its destructor may be arbitrary user code.
        drop(closure);
        if let Some(waker) = waker {
            self.header.wake(waker);
        }
        TransitionToAborted::Aborted(Vacated::new(self.header.lane))
    }
}

impl<F, T> Output<T> for Cell<F, T>
where
    F: FnOnce() -> T + Send + 'static,
    T: Send + 'static,
{
    fn poll_output(&self, cx: &mut Context<'_>) -> Poll<Result<T, TaskError>> {
        let mut slot = lock(&self.slot);
        match std::mem::replace(&mut slot.stage, Stage::Taken) {
            Stage::Done(result) => Poll::Ready(result),
            Stage::Taken => {
                // Polled after completion: a contract violation of `Future`.
                // Returning Pending forever would hang the caller silently.
                panic!("sluice::Task polled after it returned Ready")
            }
            other => {
                slot.stage = other;
                match &mut slot.waker {
                    Some(w) if w.will_wake(cx.waker()) => {}
                    w => *w = Some(cx.waker().clone()),
                }
                Poll::Pending
            }
        }
    }
}

/// The text of a panic payload: `&str` and `String` payloads as they are,
/// anything else as a fixed note.
/// The message of a panic payload, by reference.
pub(crate) fn panic_text(payload: &(dyn Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else if let Some(s) = payload.downcast_ref::<&'static str>() {
        (*s).to_string()
    } else {
        "non-string panic payload".to_string()
    }
}

pub(crate) fn panic_message(payload: Box<dyn Any + Send>) -> String {
    match payload.downcast::<String>() {
        Ok(s) => *s,
        Err(payload) => match payload.downcast::<&'static str>() {
            Ok(s) => (*s).to_string(),
            Err(_) => "non-string panic payload".to_string(),
        },
    }
}
