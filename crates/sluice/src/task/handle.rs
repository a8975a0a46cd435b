//! [`Task`]: the handle to one piece of submitted work.

use crate::lane::Lane;
use crate::loom::thread;
use crate::park::spin_until;
use crate::task::state::{Job, Output, TransitionToAborted};
use crate::task::{Aborted, OnAborted, TaskError};
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll, Wake, Waker};

/// How long [`Task::wait`] spins on the task's state before it parks the
/// thread: long enough to catch a short task without a futex round trip.
const WAIT_SPIN_NANOS: u64 = 20_000;

/// A handle to a task submitted with [`Pool::spawn`](crate::Pool::spawn).
///
/// It is a [`Future`] for async callers (any executor: the worker wakes the
/// stored waker) and has [`wait`](Task::wait) for blocking ones. Either way
/// it resolves exactly once, to the closure's value or to a [`TaskError`].
///
/// Dropping a `Task` neither cancels the work nor leaks it: the work still
/// runs and its result is dropped. Where nobody will want the result once
/// the handle is gone (a request whose client hung up), use
/// [`Task::cancel_on_drop`]: its drop pulls the task off its queue.
///
/// ```
/// use sluice::{Lane, Pool};
///
/// let pool = Pool::builder().build()?;
///
/// // Blocking callers wait.
/// let task = pool.spawn(Lane::Cpu, || (1..=10u64).product::<u64>());
/// assert_eq!(task.wait()?, 3_628_800);
///
/// // Async callers await; the outer `?` is the task's, the inner one the closure's.
/// let bytes = futures_executor::block_on(async {
///     pool.spawn(Lane::FastIo, || std::fs::read("Cargo.toml")).await
/// })??;
/// assert!(!bytes.is_empty());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[must_use = "a task runs whether or not its handle is kept; drop it explicitly to detach, or await it for the result"]
pub struct Task<T> {
    cell: Arc<dyn Output<T>>,
    pool: Arc<dyn OnAborted>,
}

impl<T: Send + 'static> Task<T> {
    pub(crate) fn new(cell: Arc<dyn Output<T>>, pool: Arc<dyn OnAborted>) -> Self {
        Task { cell, pool }
    }

    /// The lane the task was submitted to.
    ///
    /// ```
    /// # let pool = sluice::Pool::builder().build()?;
    /// let task = pool.spawn(sluice::Lane::SlowIo, || ());
    /// assert_eq!(task.lane(), sluice::Lane::SlowIo);
    /// # Ok::<(), sluice::ConfigError>(())
    /// ```
    pub fn lane(&self) -> Lane {
        self.cell.header().lane
    }

    /// True once the task has a result (its value or an error) ready to take.
    ///
    /// ```
    /// # let pool = sluice::Pool::builder().build()?;
    /// let task = pool.spawn(sluice::Lane::Cpu, || 1);
    /// while !task.is_finished() { std::thread::yield_now(); }
    /// assert_eq!(task.wait(), Ok(1));
    /// # Ok::<(), sluice::ConfigError>(())
    /// ```
    pub fn is_finished(&self) -> bool {
        self.cell.header().is_done()
    }

    /// Pulls the task off its queue if it has not started. Returns true if it
    /// did: the handle then yields [`TaskError::Cancelled`]. Returns false if a
    /// worker already took it (started work runs to completion) or it had
    /// already finished.
    ///
    /// ```
    /// use sluice::{Lane, Pool, TaskError};
    /// use std::sync::mpsc;
    ///
    /// let pool = Pool::builder().threads(Lane::Cpu, 1).build()?;
    /// let (release, gate) = mpsc::channel::<()>();
    /// let (started_tx, started) = mpsc::channel();
    /// let blocker = pool.spawn(Lane::Cpu, move || { started_tx.send(()).unwrap(); gate.recv().unwrap() });
    /// started.recv()?;                                // the lane's one thread is busy
    /// let queued = pool.spawn(Lane::Cpu, || "never runs");
    /// assert!(queued.cancel());                       // still queued: pulled
    /// assert!(!blocker.cancel());                     // already running: not pulled
    /// release.send(())?;
    /// assert_eq!(queued.wait(), Err(TaskError::Cancelled));
    /// assert_eq!(blocker.wait(), Ok(()));
    /// let lane = pool.metrics().lane(Lane::Cpu).clone();
    /// assert_eq!((lane.cancelled_total, lane.started_total), (1, 1));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn cancel(&self) -> bool {
        match self.cell.abort(TaskError::Cancelled) {
            TransitionToAborted::Aborted(vacated) => {
                let job: &dyn Job = &*self.cell;
                self.pool.on_aborted(job, vacated, Aborted::Cancelled);
                true
            }
            TransitionToAborted::NotQueued => false,
        }
    }

    /// A handle whose drop cancels the task if it is still queued (counted
    /// in the lane's `cancelled_total`, like [`Task::cancel`]); work already
    /// running still runs to its end, and its result is dropped.
    ///
    /// The drop-cancels form for callers whose interest can vanish: an
    /// async request handler is dropped when its client hangs up, and with
    /// it the handle, so the queued work nobody waits for never runs.
    ///
    /// ```
    /// use sluice::{Lane, Pool};
    /// use std::sync::mpsc;
    ///
    /// let pool = Pool::builder().threads(Lane::Cpu, 1).build()?;
    /// let (release, gate) = mpsc::channel::<()>();
    /// let (started_tx, started) = mpsc::channel();
    /// let blocker = pool.spawn(Lane::Cpu, move || { started_tx.send(()).unwrap(); gate.recv().unwrap() });
    /// started.recv()?;                                  // the lane's one thread is busy
    ///
    /// let queued = pool.spawn(Lane::Cpu, || "nobody waits").cancel_on_drop();
    /// drop(queued);                                     // still queued: pulled
    /// let kept = pool.spawn(Lane::Cpu, || 7).cancel_on_drop();
    /// release.send(())?;
    /// blocker.wait()?;
    /// assert_eq!(kept.wait(), Ok(7));                   // awaited or waited: runs as usual
    /// let lane = pool.metrics().lane(Lane::Cpu).clone();
    /// assert_eq!((lane.cancelled_total, lane.started_total), (1, 2));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn cancel_on_drop(self) -> CancelOnDrop<T> {
        CancelOnDrop { task: Some(self) }
    }

    /// Blocks the calling thread until the task resolves.
    ///
    /// It spins briefly first (about 20 µs), so a short task's result is
    /// picked up without a sleep and wake-up; then it parks the thread.
    ///
    /// ```
    /// # let pool = sluice::Pool::builder().build()?;
    /// assert_eq!(pool.spawn(sluice::Lane::Cpu, || 40 + 2).wait(), Ok(42));
    /// # Ok::<(), sluice::ConfigError>(())
    /// ```
    pub fn wait(self) -> Result<T, TaskError> {
        let header = self.cell.header();
        if spin_until(WAIT_SPIN_NANOS, || header.is_done()) {
            // Done: the poll returns Ready and never stores the waker, so
            // skip making a thread waker (an allocation and a handle clone).
            if let Poll::Ready(result) = self
                .cell
                .poll_output(&mut Context::from_waker(Waker::noop()))
            {
                return result;
            }
        }
        let waker = Waker::from(Arc::new(ThreadWaker(thread::current())));
        let mut cx = Context::from_waker(&waker);
        loop {
            match self.cell.poll_output(&mut cx) {
                Poll::Ready(result) => return result,
                Poll::Pending => thread::park(),
            }
        }
    }
}

impl<T: Send + 'static> Future for Task<T> {
    type Output = Result<T, TaskError>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let poll = self.cell.poll_output(cx);
        if poll.is_pending() {
            crate::task::watch::note_pending(&self.cell, &self.pool);
        }
        poll
    }
}

impl<T: Send + 'static> fmt::Debug for Task<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Task")
            .field("lane", &self.lane())
            .field("finished", &self.is_finished())
            .finish()
    }
}

/// A [`Task`] whose drop cancels it if it has not started: made by
/// [`Task::cancel_on_drop`]. It is a [`Future`] and has
/// [`wait`](CancelOnDrop::wait), like the task it wraps.
pub struct CancelOnDrop<T: Send + 'static> {
    /// `None` only after `wait` or `detach` took it out.
    task: Option<Task<T>>,
}

impl<T: Send + 'static> CancelOnDrop<T> {
    /// The wrapped task, no longer cancelled on drop.
    ///
    /// ```
    /// # let pool = sluice::Pool::builder().build()?;
    /// let task = pool.spawn(sluice::Lane::Cpu, || 3).cancel_on_drop().detach();
    /// assert_eq!(task.wait(), Ok(3));
    /// # Ok::<(), sluice::ConfigError>(())
    /// ```
    pub fn detach(mut self) -> Task<T> {
        self.task.take().expect("taken only by consuming methods")
    }

    /// Blocks the calling thread until the task resolves (see [`Task::wait`]).
    pub fn wait(self) -> Result<T, TaskError> {
        self.detach().wait()
    }

    /// The lane the task was submitted to.
    pub fn lane(&self) -> Lane {
        self.task().lane()
    }

    /// Cancels the task now if it is still queued (see [`Task::cancel`]).
    pub fn cancel(&self) -> bool {
        self.task().cancel()
    }

    fn task(&self) -> &Task<T> {
        self.task.as_ref().expect("taken only by consuming methods")
    }
}

impl<T: Send + 'static> Future for CancelOnDrop<T> {
    type Output = Result<T, TaskError>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let task = self.task.as_mut().expect("taken only by consuming methods");
        Pin::new(task).poll(cx)
    }
}

impl<T: Send + 'static> Drop for CancelOnDrop<T> {
    fn drop(&mut self) {
        if let Some(task) = &self.task
            && !task.is_finished()
        {
            task.cancel();
        }
    }
}

impl<T: Send + 'static> fmt::Debug for CancelOnDrop<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CancelOnDrop")
            .field("task", &self.task)
            .finish()
    }
}

/// Wakes a thread blocked in [`Task::wait`].
struct ThreadWaker(thread::Thread);

impl Wake for ThreadWaker {
    fn wake(self: Arc<Self>) {
        self.0.unpark();
    }

    fn wake_by_ref(self: &Arc<Self>) {
        self.0.unpark();
    }
}
