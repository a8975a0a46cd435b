//! The task an event loop waits on, remembered for the loop's park spin
//! (`loop_spin.rs`, above the tasks): once a thread has run a park hook, the
//! first [`Task`](crate::Task) polled pending on it after each park.
//!
//! The reference is weak and there is one per park, not one per task. On a
//! thread that never ran the hook, a pending poll costs one thread-local
//! read.

use crate::task::OnAborted;
use crate::task::state::{Job, Output};
use std::cell::{Cell, RefCell};
use std::sync::{Arc, Weak};

/// A remembered task: its cell, and the pool that can say how deep its
/// lane's queue is.
type Watched = (Weak<dyn Job>, Weak<dyn OnAborted>);

thread_local! {
    /// Set once this thread has run a park hook ([`arm_and_take`]).
    static ARMED: Cell<bool> = const { Cell::new(false) };
    /// The first task polled pending since the last park.
    static WATCHED: RefCell<Option<Watched>> = const { RefCell::new(None) };
}

/// Called by a task's `poll` when it returns pending: remembers the task if
/// this thread runs a park hook and none is remembered yet.
pub(crate) fn note_pending<T: Send + 'static>(
    cell: &Arc<dyn Output<T>>,
    pool: &Arc<dyn OnAborted>,
) {
    if !ARMED.get() {
        return;
    }
    WATCHED.with(|w| {
        let mut w = w.borrow_mut();
        if w.is_none() {
            let job: Weak<dyn Output<T>> = Arc::downgrade(cell);
            *w = Some((job, Arc::downgrade(pool)));
        }
    });
}

/// For the park hook: arms this thread (from now on its pending polls are
/// remembered), and takes the task remembered since the last park, if it
/// and its pool are still alive.
pub(crate) fn arm_and_take() -> Option<(Arc<dyn Job>, Arc<dyn OnAborted>)> {
    ARMED.set(true);
    let (job, pool) = WATCHED.take()?;
    Some((job.upgrade()?, pool.upgrade()?))
}

/// For tests: this thread as a fresh loop thread has it, armed or not.
#[cfg(all(test, not(loom)))]
pub(crate) fn reset(armed: bool) {
    ARMED.set(armed);
    WATCHED.take();
}

/// For tests: whether a task is remembered, and whether it is still alive.
#[cfg(all(test, not(loom)))]
pub(crate) fn remembered() -> Option<bool> {
    WATCHED.with(|w| w.borrow().as_ref().map(|(job, _)| job.strong_count() > 0))
}
