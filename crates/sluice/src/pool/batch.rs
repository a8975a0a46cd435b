//! [`DetachedBatch`]: detached tasks made on one thread and handed to their
//! lane together, with one reservation and one notification for the lot.

use super::Inner;
use crate::lane::Lane;
use crate::policy::{Admit, Refused, Reserved};
use crate::task::TaskError;
use crate::task::state::{Job, TransitionToAborted};
use std::sync::Arc;
use std::time::Instant;

/// Detached tasks ([`Permit::spawn_detached`](crate::Permit::spawn_detached)'s
/// kind: no handle, what `f` returns is dropped on the worker) gathered on
/// the submitting thread and handed to one lane together by
/// [`submit`](DetachedBatch::submit), or when the batch is dropped.
///
/// Made with [`Pool::detached_batch`](crate::Pool::detached_batch). Each
/// task handed over alone touches the lane's shared words (its depth, the
/// queue's tail, the workers' counters) while the workers are popping from
/// it; a batch touches them once per [`submit`](DetachedBatch::submit): one
/// reservation of every place, the tasks pushed back to back, and at most
/// one wake-up. That is for a thread that makes bursts of small tasks (an
/// event loop's turn): nothing runs until the batch is submitted, so submit
/// before the thread waits or goes on to long work.
///
/// A task's queue wait starts when it is added: the time it spends in the
/// batch counts as queued. The lane's default queue timeout
/// ([`Builder::queue_timeout`](crate::Builder::queue_timeout)) applies to
/// each task from that moment. On a bounded lane a submit that finds the
/// queue full blocks until there is room, as
/// [`Pool::spawn_batch`](crate::Pool::spawn_batch) does; after
/// [`Pool::shutdown`](crate::Pool::shutdown) the tasks are dropped unrun.
///
/// ```
/// use sluice::{Lane, Pool};
/// use std::sync::mpsc;
///
/// let pool = Pool::builder().build()?;
/// let (tx, rx) = mpsc::channel();
/// let mut batch = pool.detached_batch(Lane::FastIo);
/// for i in 0..8u64 {
///     let tx = tx.clone();
///     batch.spawn(move || tx.send(i * i).unwrap());
/// }
/// assert_eq!(batch.len(), 8);
/// batch.submit(); // one reservation, one notification
/// assert!(batch.is_empty());
/// drop(tx);
/// assert_eq!(rx.iter().sum::<u64>(), 140);
/// assert_eq!(pool.metrics().lane(Lane::FastIo).submitted_total, 8);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct DetachedBatch {
    inner: Arc<Inner>,
    lane: Lane,
    /// The tasks made and not yet queued, each with its deadline.
    jobs: Vec<(Arc<dyn Job>, Option<Instant>)>,
}

impl DetachedBatch {
    pub(super) fn new(inner: Arc<Inner>, lane: Lane) -> DetachedBatch {
        DetachedBatch {
            inner,
            lane,
            jobs: Vec::new(),
        }
    }

    /// The lane the batch's tasks go to.
    pub fn lane(&self) -> Lane {
        self.lane
    }

    /// Adds `f` to the batch. It runs once the batch is submitted.
    pub fn spawn<F>(&mut self, f: F)
    where
        F: FnOnce() + Send + 'static,
    {
        let deadline = self.inner.default_deadline(self.lane);
        let job: Arc<dyn Job> = self.inner.cell(self.lane, deadline, f);
        self.jobs.push((job, deadline));
    }

    /// How many tasks wait in the batch.
    pub fn len(&self) -> usize {
        self.jobs.len()
    }

    /// True when no task waits in the batch.
    pub fn is_empty(&self) -> bool {
        self.jobs.is_empty()
    }

    /// Hands every task in the batch to the lane, in the order they were
    /// added: one reservation of their places (on a bounded lane, as many
    /// as there is room for, then a wait for each further one), the tasks
    /// pushed, and one notification. The batch is empty afterwards and can
    /// be used again.
    pub fn submit(&mut self) {
        if self.jobs.is_empty() {
            return;
        }
        let inner = &*self.inner;
        let mut queued = Vec::with_capacity(self.jobs.len());
        let mut jobs = self.jobs.drain(..);
        let mut left = jobs.len();
        while left > 0 {
            let mut places = match inner.admit_many(self.lane, left, Admit::Quiet) {
                Ok(places) => places,
                Err(Refused::Full { .. }) => {
                    // Full: queue what is reserved (it may be what keeps the
                    // lane busy), then wait for one place, as spawn_batch.
                    inner.enqueue_batch(&mut queued);
                    match inner.admit(self.lane, Admit::Wait) {
                        Ok(slot) => Reserved::one(slot),
                        Err(_) => break,
                    }
                }
                Err(Refused::Closed) => break,
            };
            while let Some(slot) = places.take() {
                let Some((job, deadline)) = jobs.next() else {
                    // Never: places are granted for at most `left` tasks.
                    inner.release(slot);
                    continue;
                };
                if deadline.is_some() {
                    inner.deadlines.watch(&job);
                }
                queued.push((slot, job));
                left -= 1;
            }
        }
        inner.enqueue_batch(&mut queued);
        // Refused as closed: resolved without running, as a refused spawn's.
        for (job, _) in jobs {
            if let TransitionToAborted::Aborted(vacated) = job.abort(TaskError::Shutdown) {
                vacated.account();
            }
        }
    }
}

impl Drop for DetachedBatch {
    /// Submits what the batch still holds.
    fn drop(&mut self) {
        self.submit();
    }
}

impl std::fmt::Debug for DetachedBatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DetachedBatch")
            .field("lane", &self.lane)
            .field("len", &self.jobs.len())
            .finish()
    }
}
