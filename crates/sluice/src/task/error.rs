//! [`TaskError`]: why a task's handle yields no value; [`Busy`]: why a lane refused one.

use crate::lane::Lane;
use std::fmt;

/// Why a [`Task`](crate::Task) produced no value.
///
/// Every accepted task resolves exactly once: to its value, or to one of these.
///
/// ```
/// use sluice::{Lane, Pool, TaskError};
///
/// let pool = Pool::builder().build()?;
/// let task = pool.spawn(Lane::Cpu, || -> u32 { panic!("bad input") });
/// match task.wait() {
///     Err(TaskError::Panicked(msg)) => assert_eq!(msg, "bad input"),
///     other => panic!("unexpected: {other:?}"),
/// }
/// // The worker survived: the lane still runs work.
/// assert_eq!(pool.spawn(Lane::Cpu, || 7).wait()?, 7);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum TaskError {
    /// [`Task::cancel`](crate::Task::cancel) pulled the task off its queue before it started.
    #[error("task cancelled before it started")]
    Cancelled,
    /// The task panicked; the message is the panic payload when it was a string.
    /// The worker thread survived.
    #[error("task panicked: {0}")]
    Panicked(String),
    /// The pool shut down before the task could start.
    #[error("pool shut down before the task started")]
    Shutdown,
    /// The task's queue-wait deadline passed before a worker took it.
    #[error("task waited past its queue deadline without starting")]
    DeadlineExceeded,
    /// No worker thread could be started to run the task (the operating
    /// system refused `pthread_create`); the message is its error.
    #[error("no worker thread could be started: {0}")]
    NoThread(String),
}

impl TaskError {
    /// True for [`TaskError::Cancelled`].
    ///
    /// ```
    /// assert!(sluice::TaskError::Cancelled.is_cancelled());
    /// ```
    pub fn is_cancelled(&self) -> bool {
        matches!(self, TaskError::Cancelled)
    }

    /// True for [`TaskError::Panicked`].
    ///
    /// ```
    /// assert!(sluice::TaskError::Panicked("x".into()).is_panic());
    /// ```
    pub fn is_panic(&self) -> bool {
        matches!(self, TaskError::Panicked(_))
    }
}

/// A lane refused work because its queue is at its bound: the 429 of an
/// overloaded service, built in. It gives the closure back, with the lane and
/// its bound, so the caller decides what to do with it.
///
/// ```
/// use sluice::{Lane, Pool};
/// use std::sync::mpsc;
///
/// let pool = Pool::builder().threads(Lane::Cpu, 1).queue_bound(Lane::Cpu, 1).build()?;
/// let (release, gate) = mpsc::channel::<()>();
/// let (started_tx, started) = mpsc::channel();
/// let running = pool.spawn(Lane::Cpu, move || { started_tx.send(()).unwrap(); gate.recv().unwrap() });
/// started.recv()?;                                   // the only thread is busy
/// let queued = pool.try_spawn(Lane::Cpu, || 1)?;     // fills the queue (bound 1)
/// let busy = pool.try_spawn(Lane::Cpu, || 2).unwrap_err();
/// assert_eq!(busy.lane(), Lane::Cpu);
/// assert_eq!(busy.bound(), 1);
/// assert_eq!((busy.into_inner())(), 2);              // the closure comes back
/// release.send(())?;
/// running.wait()?;
/// assert_eq!(queued.wait()?, 1);
/// assert_eq!(pool.metrics().lane(Lane::Cpu).rejected_total, 1);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Busy<F> {
    lane: Lane,
    bound: usize,
    task: F,
}

impl<F> Busy<F> {
    pub(crate) fn new(lane: Lane, bound: usize, task: F) -> Self {
        Busy { lane, bound, task }
    }

    /// The lane that refused the task.
    pub fn lane(&self) -> Lane {
        self.lane
    }

    /// The lane's queue bound at the moment it refused.
    pub fn bound(&self) -> usize {
        self.bound
    }

    /// The refused closure, to run elsewhere, retry later or drop.
    pub fn into_inner(self) -> F {
        self.task
    }
}

impl<F> fmt::Debug for Busy<F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Busy")
            .field("lane", &self.lane)
            .field("bound", &self.bound)
            .finish_non_exhaustive()
    }
}

impl<F> fmt::Display for Busy<F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "lane {} is busy: its queue holds {} tasks, its bound",
            self.lane, self.bound
        )
    }
}

impl<F> std::error::Error for Busy<F> {}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;

    #[test]
    fn messages_name_the_cause() {
        assert_eq!(
            TaskError::DeadlineExceeded.to_string(),
            "task waited past its queue deadline without starting"
        );
        assert_eq!(
            TaskError::Panicked("boom".into()).to_string(),
            "task panicked: boom"
        );
        let busy = Busy::new(Lane::FastIo, 8, ());
        assert_eq!(
            busy.to_string(),
            "lane fastio is busy: its queue holds 8 tasks, its bound"
        );
    }
}
