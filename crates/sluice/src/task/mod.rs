//! Tasks: the unit of work, its handle, and its errors.
//!
//! # Task reference types
//!
//! One allocation, the *cell* (`state.rs`), is shared by two owners:
//! - the queue holds it as `Arc<dyn Job>` until a worker runs it or an abort
//!   drops it;
//! - the [`Task`] handle holds it as `Arc<dyn Output<T>>` (plus the pool's
//!   `Inner`, as an [`OnAborted`], to account for a cancel).
//!
//! Either may be dropped first. Dropping the handle does not cancel the work;
//! dropping a [`CancelOnDrop`] (from `Task::cancel_on_drop`) does, if the
//! task is still queued. A task spawned detached
//! ([`Permit::spawn_detached`](crate::Permit::spawn_detached)) has no
//! handle: the queue's reference is the only one, and the worker that runs
//! it (or whoever aborts it) drops the cell. Its stages are the same.
//!
//! # State
//!
//! The cell's stage is `Queued(F) → Running → Done(result) → Taken`, or
//! `Queued(F) → Done(Err(..))` by an abort (cancel, deadline, shutdown).
//! An atomic mirror (`Header::state`) lets waiters spin and workers skip
//! aborted entries without the lock; every decision is made under the lock.
//!
//! # Fields in the cell
//!
//! This section describes how and when it is safe to access a field.
//! - `header.lane`, `header.queued_at`, `header.deadline`: immutable after creation.
//! - `header.state`: written only under the slot mutex, after the stage changes.
//! - `slot.stage`, `slot.waker`: only under the slot mutex. No user code runs
//!   under it: the closure runs, and an aborted closure is dropped, after the
//!   lock is released.
//!
//! # Who accounts for a queue slot
//!
//! A task leaves `Queued` exactly once. The thread that moves it out (a worker
//! in `transition_to_running`, or whoever wins `transition_to_aborted`)
//! decrements the lane's queue depth and bumps exactly one of `started`,
//! `cancelled`, `expired`, `abandoned`. That single rule is what makes the
//! counters balance (see the stress test).

use crate::lane::Lane;

mod error;
mod handle;
pub(crate) mod state;
mod vacated;
pub(crate) mod watch;

pub use error::{Busy, TaskError};
pub use handle::{CancelOnDrop, Task};
pub(crate) use vacated::{Aborted, Vacated};

/// Who accounts for a queued task that its handle cancels: the pool's
/// shared state (`pool::Inner`, which hands it to the policy). A trait, so
/// that tasks sit below the pool and the policies.
pub(crate) trait OnAborted: Send + Sync {
    /// `job` left `Queued` without running, for `why`: account for its
    /// place (`vacated`).
    fn on_aborted(&self, job: &dyn state::Job, vacated: Vacated, why: Aborted);

    /// Tasks queued on `lane` and not yet claimed (for the loop's park
    /// spin, `loop_spin.rs`).
    fn queued(&self, lane: Lane) -> usize;
}
