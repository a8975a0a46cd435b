//! [`Pool`]: the front door. It validates nothing (the [`Builder`] did),
//! allocates the task cell, and hands it to the policy.

use crate::config::{Builder, ConfigError};
use crate::deadline::Deadlines;
use crate::lane::Lane;
use crate::metrics::Snapshot;
use crate::policy::LaneShutdown;
use crate::policy::lanes::{LaneSettings, Lanes};
use crate::policy::libuv::Libuv;
use crate::policy::{Aborted, Policy, Refused, Scheduler, Vacated};
use crate::task::state::{Cell, Job, Output, TransitionToAborted};
use crate::task::{Busy, Task, TaskError};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A work pool for blocking work, in lanes.
///
/// `Pool` is a cheap handle (`Clone`); the pool lives until the last handle
/// is dropped and its queued work has run. Dropping it never blocks: the
/// workers drain what was accepted, then exit. To wait for that, call
/// [`shutdown`](Pool::shutdown).
///
/// ```
/// use sluice::{Lane, Pool};
///
/// let pool = Pool::builder().build()?;
/// let hash = pool.spawn(Lane::Cpu, || (0..1_000u64).sum::<u64>());
/// let read = pool.spawn(Lane::FastIo, || std::fs::metadata("Cargo.toml").map(|m| m.len()));
/// assert_eq!(hash.wait()?, 499_500);
/// assert!(read.wait()?? > 0);
///
/// let snap = pool.metrics();
/// assert_eq!(snap.lane(Lane::Cpu).completed_total, 1);
/// assert_eq!(snap.lane(Lane::FastIo).completed_total, 1);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone)]
pub struct Pool {
    handle: Arc<Handle>,
}

/// Owned by the `Pool` clones only: when the last one goes, the pool closes.
struct Handle {
    inner: Arc<Inner>,
}

impl Drop for Handle {
    fn drop(&mut self) {
        self.inner.close();
    }
}

/// Shared by the pool handles, the tasks and the deadline reaper.
pub(crate) struct Inner {
    policy: Policy,
    scheduler: Box<dyn Scheduler>,
    deadlines: Deadlines,
    queue_timeout: [Option<Duration>; 3],
}

/// What [`Pool::shutdown`] did.
///
/// ```
/// use sluice::{Lane, Pool};
/// use std::time::Duration;
///
/// let pool = Pool::builder().build()?;
/// let tasks: Vec<_> = (0..4).map(|i| pool.spawn(Lane::FastIo, move || i)).collect();
/// let report = pool.shutdown(Duration::from_secs(5));
/// assert!(report.drained);
/// assert_eq!((report.abandoned, report.still_running), (0, 0));
/// // Accepted work ran; new work is refused.
/// assert_eq!(tasks.into_iter().map(|t| t.wait().unwrap()).sum::<i32>(), 6);
/// assert_eq!(pool.spawn(Lane::Cpu, || 1).wait(), Err(sluice::TaskError::Shutdown));
/// # Ok::<(), sluice::ConfigError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ShutdownReport {
    /// Every worker finished the queued work and exited within the timeout.
    pub drained: bool,
    /// Queued tasks failed with [`TaskError::Shutdown`] at the timeout.
    pub abandoned: u64,
    /// Tasks still running at the timeout; they finish on detached threads
    /// and their handles still get their results.
    pub still_running: u64,
}

impl Pool {
    /// A [`Builder`] with every default.
    ///
    /// ```
    /// let pool = sluice::Pool::builder().build()?;
    /// assert_eq!(pool.policy(), &sluice::Policy::Lanes);
    /// # Ok::<(), sluice::ConfigError>(())
    /// ```
    pub fn builder() -> Builder {
        Builder::new()
    }

    pub(crate) fn new_lanes(
        settings: [LaneSettings; 3],
        queue_timeout: [Option<Duration>; 3],
    ) -> Pool {
        crate::clock::warm_up();
        Pool::from_inner(Policy::Lanes, Box::new(Lanes::new(settings)), queue_timeout)
    }

    pub(crate) fn new_libuv(
        threads: Option<usize>,
        stack_size: usize,
        timed: bool,
        queue_timeout: [Option<Duration>; 3],
    ) -> Pool {
        crate::clock::warm_up();
        Pool::from_inner(
            Policy::Libuv { threads },
            Box::new(Libuv::new(threads, stack_size, timed)),
            queue_timeout,
        )
    }

    fn from_inner(
        policy: Policy,
        scheduler: Box<dyn Scheduler>,
        queue_timeout: [Option<Duration>; 3],
    ) -> Pool {
        let inner = Arc::new_cyclic(|weak| Inner {
            policy,
            scheduler,
            deadlines: Deadlines::new(weak.clone()),
            queue_timeout,
        });
        Pool {
            handle: Arc::new(Handle { inner }),
        }
    }

    fn inner(&self) -> &Arc<Inner> {
        &self.handle.inner
    }

    /// The policy this pool runs.
    pub fn policy(&self) -> &Policy {
        &self.inner().policy
    }

    /// Runs `f` on `lane`. The returned [`Task`] resolves to `f`'s value.
    ///
    /// If the lane's queue is bounded and full, this blocks the calling
    /// thread until there is room ([`try_spawn`](Pool::try_spawn) refuses
    /// instead). After [`shutdown`](Pool::shutdown) the task resolves to
    /// [`TaskError::Shutdown`] without running.
    ///
    /// ```
    /// let pool = sluice::Pool::builder().build()?;
    /// let task = pool.spawn(sluice::Lane::SlowIo, || std::net::ToSocketAddrs::to_socket_addrs("localhost:80").map(|a| a.count()));
    /// assert!(task.wait()?? >= 1);
    /// assert_eq!(pool.metrics().lane(sluice::Lane::SlowIo).submitted_total, 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn spawn<F, T>(&self, lane: Lane, f: F) -> Task<T>
    where
        F: FnOnce() -> T + Send + 'static,
        T: Send + 'static,
    {
        let deadline = self.default_deadline(lane);
        self.submit(lane, deadline, f, true)
            .unwrap_or_else(|_| unreachable!("a waiting submit is never refused as full"))
    }

    /// Runs `f` on `lane` unless its queue is at its bound, in which case it
    /// returns [`Busy`] with `f` inside, at once.
    ///
    /// See [`Busy`] for an example.
    pub fn try_spawn<F, T>(&self, lane: Lane, f: F) -> Result<Task<T>, Busy<F>>
    where
        F: FnOnce() -> T + Send + 'static,
        T: Send + 'static,
    {
        let deadline = self.default_deadline(lane);
        self.submit(lane, deadline, f, false)
    }

    /// Runs `f` on `lane` if a worker takes it before `deadline`; otherwise
    /// its task resolves to [`TaskError::DeadlineExceeded`] at the deadline,
    /// without running.
    ///
    /// ```
    /// use sluice::{Lane, Pool, TaskError};
    /// use std::sync::mpsc;
    /// use std::time::{Duration, Instant};
    ///
    /// let pool = Pool::builder().threads(Lane::Cpu, 1).build()?;
    /// let (release, gate) = mpsc::channel::<()>();
    /// let (started_tx, started) = mpsc::channel();
    /// let blocker = pool.spawn(Lane::Cpu, move || { started_tx.send(()).unwrap(); gate.recv().unwrap() });
    /// started.recv()?;
    /// let late = pool.spawn_before(Lane::Cpu, Instant::now() + Duration::from_millis(20), || "too late");
    /// assert_eq!(late.wait(), Err(TaskError::DeadlineExceeded)); // resolves while the lane is still busy
    /// release.send(())?;
    /// blocker.wait()?;
    /// assert_eq!(pool.metrics().lane(Lane::Cpu).expired_total, 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn spawn_before<F, T>(&self, lane: Lane, deadline: Instant, f: F) -> Task<T>
    where
        F: FnOnce() -> T + Send + 'static,
        T: Send + 'static,
    {
        self.submit(lane, Some(deadline), f, true)
            .unwrap_or_else(|_| unreachable!("a waiting submit is never refused as full"))
    }

    fn default_deadline(&self, lane: Lane) -> Option<Instant> {
        self.inner().queue_timeout[lane.index()].map(|t| Instant::now() + t)
    }

    fn submit<F, T>(
        &self,
        lane: Lane,
        deadline: Option<Instant>,
        f: F,
        wait: bool,
    ) -> Result<Task<T>, Busy<F>>
    where
        F: FnOnce() -> T + Send + 'static,
        T: Send + 'static,
    {
        let inner = self.inner();
        let slot = match inner.scheduler.admit(lane, wait) {
            Ok(slot) => Some(slot),
            Err(Refused::Full { bound }) => return Err(Busy::new(lane, bound, f)),
            Err(Refused::Closed) => None,
        };
        let cell = Arc::new(Cell::new(lane, deadline, f));
        let job: Arc<dyn Job> = cell.clone();
        match slot {
            Some(slot) => {
                if deadline.is_some() {
                    inner.deadlines.watch(&job);
                }
                inner.scheduler.enqueue(slot, job);
            }
            None => {
                // Refused, not accepted: no counter moves, and there was no
                // queue slot to give back.
                if let TransitionToAborted::Aborted(vacated) = cell.abort(TaskError::Shutdown) {
                    vacated.account();
                }
            }
        }
        let output: Arc<dyn Output<T>> = cell;
        Ok(Task::new(output, Arc::clone(inner)))
    }

    /// The current concurrency budget of `lane`. Under the libuv policy: the
    /// pool size for `Cpu` and `FastIo` and the slow-I/O threshold for
    /// `SlowIo` (0 before the first submission starts the pool).
    ///
    /// ```
    /// use sluice::{Lane, Pool};
    /// let pool = Pool::builder().threads(Lane::SlowIo, 32).build()?;
    /// assert_eq!(pool.limit(Lane::SlowIo), 32);
    /// # Ok::<(), sluice::ConfigError>(())
    /// ```
    pub fn limit(&self, lane: Lane) -> usize {
        self.inner().scheduler.limit(lane)
    }

    /// Changes `lane`'s budget at run time. It applies to queued work at
    /// once: growing starts workers for what is queued; shrinking lets
    /// running tasks finish, then retires the extra threads.
    ///
    /// The same range as [`Builder::threads`] applies. The libuv policy
    /// cannot be resized (libuv cannot either).
    ///
    /// ```
    /// use sluice::{Lane, Pool};
    /// let pool = Pool::builder().threads(Lane::FastIo, 2).build()?;
    /// pool.resize(Lane::FastIo, 16)?;
    /// assert_eq!(pool.limit(Lane::FastIo), 16);
    /// assert!(pool.resize(Lane::FastIo, 0).is_err());
    /// # Ok::<(), sluice::ConfigError>(())
    /// ```
    pub fn resize(&self, lane: Lane, n: usize) -> Result<(), ConfigError> {
        self.inner().scheduler.resize(lane, n)
    }

    /// A snapshot of every counter and gauge. See [`Snapshot`].
    pub fn metrics(&self) -> Snapshot {
        self.inner().scheduler.snapshot()
    }

    /// Refuses new work, lets the workers drain every accepted task, and
    /// waits up to `timeout` for them to exit. Tasks still queued at the
    /// timeout fail with [`TaskError::Shutdown`]; tasks still running finish
    /// on their (detached) threads. Nothing is lost silently: the report
    /// says how many of each. Calling it again is harmless.
    ///
    /// See [`ShutdownReport`] for an example.
    pub fn shutdown(&self, timeout: Duration) -> ShutdownReport {
        let deadline = Instant::now() + timeout;
        let inner = self.inner();
        inner.close();
        let total = inner.scheduler.finish_shutdown(deadline);
        let drained = total == LaneShutdown::default();
        if drained {
            inner.deadlines.close();
        }
        ShutdownReport {
            drained,
            abandoned: total.abandoned,
            still_running: total.still_running,
        }
    }
}

impl std::fmt::Debug for Pool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Pool")
            .field("policy", self.policy())
            .finish_non_exhaustive()
    }
}

impl Inner {
    /// Stops accepting work; workers drain and exit. Does not wait.
    fn close(&self) {
        self.scheduler.close();
    }

    /// A queued task was moved to `Done` by someone other than a worker
    /// (cancel, deadline reaper): account for its slot.
    pub(crate) fn on_aborted(&self, job: &dyn Job, vacated: Vacated, why: Aborted) {
        self.scheduler.abort(job, vacated, why);
    }
}

impl Drop for Inner {
    fn drop(&mut self) {
        self.deadlines.close();
    }
}
