//! [`Pool`]: the front door. It validates nothing (the
//! [`Builder`](crate::Builder) did), allocates the task cell, and hands it
//! to the policy.
//!
//! The facade: `mod.rs` ([`Pool`], the shared `Inner`), `admission.rs`
//! (awaitable admission: [`Permit`], [`Reserve`]), `deadline.rs` (the
//! reaper of queued tasks' deadlines). Above the policies, which never
//! name it.

mod admission;
mod batch;
mod deadline;

pub(crate) use admission::Alarm;
pub use admission::{Permit, Reserve};
pub use batch::DetachedBatch;

use crate::choice::Policy;
use crate::error::ConfigError;
use crate::hooks::PanicHook;
use crate::lane::Lane;
use crate::metrics::Snapshot;
use crate::policy::LaneShutdown;
use crate::policy::lanes::{LaneSettings, Lanes};
use crate::policy::libuv::Libuv;
use crate::policy::{Admit, Refused, Reserved, Scheduler, Slot, Waiters};
use crate::task::state::{Cell, Job, Output, TransitionToAborted};
use crate::task::{Aborted, Busy, OnAborted, Task, TaskError, Vacated};
use deadline::Deadlines;
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How many tasks of a [`Pool::spawn_batch`] are made before they are
/// handed to the lane together: small enough that workers start on the
/// first ones while the rest are made, large enough that the hand-on (one
/// read of the lane's counters) is paid once per many tasks.
const BATCH_CHUNK: usize = 32;

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
    /// `Builder::panic_handler`.
    panic_hook: Option<PanicHook>,
    /// `Builder::fast_io_uring` (see `crate::uring`).
    uring: Arc<crate::uring::Switch>,
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
#[non_exhaustive]
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
    pub(crate) fn new_lanes(
        settings: [LaneSettings; 3],
        queue_timeout: [Option<Duration>; 3],
        panic_hook: Option<PanicHook>,
    ) -> Pool {
        crate::clock::warm_up();
        Pool::from_inner(
            Policy::Lanes,
            Box::new(Lanes::new(settings)),
            queue_timeout,
            panic_hook,
        )
    }

    pub(crate) fn new_libuv(
        threads: Option<usize>,
        stack_size: usize,
        timed: bool,
        queue_timeout: [Option<Duration>; 3],
        panic_hook: Option<PanicHook>,
    ) -> Pool {
        crate::clock::warm_up();
        Pool::from_inner(
            Policy::Libuv { threads },
            Box::new(Libuv::new(threads, stack_size, timed)),
            queue_timeout,
            panic_hook,
        )
    }

    fn from_inner(
        policy: Policy,
        scheduler: Box<dyn Scheduler>,
        queue_timeout: [Option<Duration>; 3],
        panic_hook: Option<PanicHook>,
    ) -> Pool {
        let inner = Arc::new_cyclic(|weak| Inner {
            policy,
            scheduler,
            deadlines: Deadlines::new(weak.clone()),
            queue_timeout,
            panic_hook,
            uring: Arc::default(),
        });
        Pool {
            handle: Arc::new(Handle { inner }),
        }
    }

    fn inner(&self) -> &Arc<Inner> {
        &self.handle.inner
    }

    /// Where `lane`'s gauge words live (`observer.rs`), if the policy keeps
    /// them as single words.
    pub(crate) fn gauge_words(&self, lane: Lane) -> Option<crate::policy::GaugeWords> {
        self.inner().scheduler.gauge_words(lane)
    }

    /// The shared state, for observers that must not keep the pool open.
    #[cfg_attr(not(feature = "metrics"), allow(dead_code))]
    pub(crate) fn shared(&self) -> Arc<Inner> {
        Arc::clone(&self.handle.inner)
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
        self.inner().default_deadline(lane)
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
        let how = if wait { Admit::Wait } else { Admit::Refuse };
        let slot = match inner.admit(lane, how) {
            Ok(slot) => Some(slot),
            Err(Refused::Full { bound }) => {
                #[cfg(feature = "tracing")]
                tracing::debug!(
                    lane = lane.name(),
                    bound,
                    "sluice: refused, the lane's queue is at its bound"
                );
                return Err(Busy::new(lane, bound, f));
            }
            Err(Refused::Closed) => None,
        };
        Ok(inner.submit_in(slot, lane, deadline, f))
    }

    /// Runs every closure of `fs` on `lane`, handed over in batches: each
    /// takes its place in the queue, and the lane is told once per 32 tasks
    /// and after the last (at most one wake-up for each, where
    /// [`spawn`](Pool::spawn) would make one per task that finds no worker
    /// searching), so workers start on the first tasks while the later ones
    /// are made. The handles come back in `fs`'s order.
    ///
    /// As for [`spawn`](Pool::spawn): a bounded lane that is full blocks
    /// the caller until there is room (the tasks admitted before are queued
    /// first, so they can make that room), and after
    /// [`shutdown`](Pool::shutdown) the tasks resolve to
    /// [`TaskError::Shutdown`] without running. The lane's default queue
    /// timeout ([`Builder::queue_timeout`](crate::Builder::queue_timeout))
    /// applies to each.
    ///
    /// ```
    /// use sluice::{Lane, Pool};
    /// let pool = Pool::builder().build()?;
    /// let tasks = pool.spawn_batch(Lane::Cpu, (1..=4u64).map(|i| move || i * i));
    /// let squares: Vec<u64> = tasks.into_iter().map(|t| t.wait()).collect::<Result<_, _>>()?;
    /// assert_eq!(squares, [1, 4, 9, 16]);
    /// assert_eq!(pool.metrics().lane(Lane::Cpu).submitted_total, 4);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn spawn_batch<I, F, T>(&self, lane: Lane, fs: I) -> Vec<Task<T>>
    where
        I: IntoIterator<Item = F>,
        F: FnOnce() -> T + Send + 'static,
        T: Send + 'static,
    {
        self.spawn_batch_in_parts(lane, fs, BATCH_CHUNK)
    }

    /// [`spawn_batch`](Pool::spawn_batch), handing tasks on in parts of
    /// `part` (at least 1): the loom models try parts smaller than theirs.
    pub(crate) fn spawn_batch_in_parts<I, F, T>(
        &self,
        lane: Lane,
        fs: I,
        part: usize,
    ) -> Vec<Task<T>>
    where
        I: IntoIterator<Item = F>,
        F: FnOnce() -> T + Send + 'static,
        T: Send + 'static,
    {
        let part = part.max(1);
        let inner = self.inner();
        let mut fs = fs.into_iter();
        let mut tasks = Vec::with_capacity(fs.size_hint().0);
        // What is reserved and made but not yet queued; queued and given
        // back when dropped, also if `fs` panics.
        let mut held = Held {
            inner,
            reserved: Reserved::none(lane),
            batch: Vec::with_capacity(fs.size_hint().0.min(part)),
        };
        while let Some(f) = fs.next() {
            let slot = match held.reserved.take() {
                Some(slot) => Some(slot),
                // Places for this task and those `fs` promises after it,
                // up to a part, in one reservation. Quiet: a full lane here
                // is no rejection, the batch waits below.
                None => match inner.admit_many(
                    lane,
                    fs.size_hint().0.saturating_add(1).min(part),
                    Admit::Quiet,
                ) {
                    Ok(reserved) => {
                        held.reserved = reserved;
                        held.reserved.take()
                    }
                    Err(Refused::Full { .. }) => {
                        // Full: queue what this batch holds (it may be what
                        // keeps the lane busy), then wait like `spawn`.
                        inner.enqueue_batch(&mut held.batch);
                        match inner.admit(lane, Admit::Wait) {
                            Ok(slot) => Some(slot),
                            Err(Refused::Closed) => None,
                            Err(Refused::Full { .. }) => {
                                unreachable!("a waiting admit is never refused as full")
                            }
                        }
                    }
                    Err(Refused::Closed) => None,
                },
            };
            let deadline = self.default_deadline(lane);
            let (task, job) = inner.prepare(slot.is_some(), lane, deadline, f);
            if let (Some(slot), Some(job)) = (slot, job) {
                held.batch.push((slot, job));
                if held.batch.len() == part {
                    // Hand on what is ready, so workers start on it while
                    // the rest is still being made.
                    inner.enqueue_batch(&mut held.batch);
                }
            }
            tasks.push(task);
        }
        drop(held);
        tasks
    }

    /// An empty [`DetachedBatch`] for `lane`: detached tasks gathered on
    /// this thread and handed to the lane together, with one reservation
    /// and one notification per [`submit`](DetachedBatch::submit).
    pub fn detached_batch(&self, lane: Lane) -> DetachedBatch {
        DetachedBatch::new(Arc::clone(self.inner()), lane)
    }

    /// Waits, without blocking the calling thread, for a place in `lane`'s
    /// queue: the awaitable [`spawn`](Pool::spawn) for async callers.
    ///
    /// Waiters are admitted in arrival order (FIFO). The future is
    /// cancel-safe: dropping it (a `select!` that took another branch, a
    /// timeout) holds no place and costs the waiters behind it nothing. An
    /// unbounded lane is ready at once. It resolves to
    /// [`TaskError::Shutdown`] once the pool is shut down.
    ///
    /// ```
    /// use sluice::{Lane, Pool};
    /// use std::sync::mpsc;
    ///
    /// # futures_executor::block_on(async {
    /// let pool = Pool::builder().threads(Lane::Cpu, 1).queue_bound(Lane::Cpu, 1).build()?;
    /// let (release, gate) = mpsc::channel::<()>();
    /// let (started_tx, started) = mpsc::channel();
    /// let running = pool.spawn(Lane::Cpu, move || { started_tx.send(()).unwrap(); gate.recv().unwrap() });
    /// started.recv()?;
    /// let queued = pool.reserve(Lane::Cpu).await?.spawn(|| 1);  // the one queue place
    /// assert!(pool.try_spawn(Lane::Cpu, || 2).is_err());        // full: try_spawn refuses
    ///
    /// let third = pool.reserve(Lane::Cpu);                      // waits, without blocking a thread
    /// release.send(())?;                                        // the lane drains...
    /// let task = third.await?.spawn(|| 3);                      // ...and the waiter gets the place
    /// assert_eq!((running.await?, queued.await?, task.await?), ((), 1, 3));
    /// assert_eq!(pool.metrics().lane(Lane::Cpu).rejected_total, 1);  // only try_spawn's refusal
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// # }).unwrap();
    /// ```
    pub fn reserve(&self, lane: Lane) -> Reserve {
        Reserve::new(Arc::clone(self.inner()), lane, None)
    }

    /// A place in `lane`'s queue now, or [`Busy`] at once if it is at its
    /// bound (counted in `rejected_total`, like
    /// [`try_spawn`](Pool::try_spawn), and, like it, not queued behind
    /// waiting [`reserve`](Pool::reserve) calls). After shutdown the permit's
    /// task resolves to [`TaskError::Shutdown`].
    ///
    /// ```
    /// use sluice::{Lane, Pool};
    /// let pool = Pool::builder().threads(Lane::Cpu, 1).queue_bound(Lane::Cpu, 1).build()?;
    /// let first = pool.try_reserve(Lane::Cpu)?;            // the one queue place
    /// let busy = pool.try_reserve(Lane::Cpu).unwrap_err();
    /// assert_eq!((busy.lane(), busy.bound()), (Lane::Cpu, 1));
    /// drop(first);                                          // given back
    /// assert_eq!(pool.try_reserve(Lane::Cpu)?.spawn(|| 7).wait()?, 7);
    /// assert_eq!(pool.metrics().lane(Lane::Cpu).rejected_total, 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn try_reserve(&self, lane: Lane) -> Result<Permit, Busy<()>> {
        let inner = self.inner();
        match inner.admit(lane, Admit::Refuse) {
            Ok(slot) => Ok(Permit::new(Arc::clone(inner), Some(slot), lane)),
            Err(Refused::Full { bound }) => Err(Busy::new(lane, bound, ())),
            Err(Refused::Closed) => Ok(Permit::new(Arc::clone(inner), None, lane)),
        }
    }

    /// [`reserve`](Pool::reserve) with a deadline: if no place is free by
    /// `deadline`, it resolves to [`TaskError::DeadlineExceeded`] (at the
    /// deadline: the pool's deadline thread wakes it, whatever runtime polls
    /// it).
    ///
    /// ```
    /// use sluice::{Lane, Pool, TaskError};
    /// use std::sync::mpsc;
    /// use std::time::{Duration, Instant};
    ///
    /// let pool = Pool::builder().threads(Lane::Cpu, 1).queue_bound(Lane::Cpu, 1).build()?;
    /// let (release, gate) = mpsc::channel::<()>();
    /// let (started_tx, started) = mpsc::channel();
    /// let running = pool.spawn(Lane::Cpu, move || { started_tx.send(()).unwrap(); gate.recv().unwrap() });
    /// started.recv()?;
    /// let queued = pool.spawn(Lane::Cpu, || ());                 // the lane is now full
    /// let late = pool.reserve_before(Lane::Cpu, Instant::now() + Duration::from_millis(20));
    /// assert_eq!(futures_executor::block_on(late).unwrap_err(), TaskError::DeadlineExceeded);
    /// release.send(())?;
    /// running.wait()?;
    /// queued.wait()?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn reserve_before(&self, lane: Lane, deadline: Instant) -> Reserve {
        Reserve::new(Arc::clone(self.inner()), lane, Some(deadline))
    }

    /// Runs `f` on `lane` once there is room, waiting for it without
    /// blocking the calling thread: `self.reserve(lane).await?.spawn(f)`.
    ///
    /// ```
    /// use sluice::{Lane, Pool};
    /// # futures_executor::block_on(async {
    /// let pool = Pool::builder().queue_bound(Lane::Cpu, 4).build()?;
    /// let task = pool.spawn_async(Lane::Cpu, || 2 + 2).await?;
    /// assert_eq!(task.await?, 4);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// # }).unwrap();
    /// ```
    pub async fn spawn_async<F, T>(&self, lane: Lane, f: F) -> Result<Task<T>, TaskError>
    where
        F: FnOnce() -> T + Send + 'static,
        T: Send + 'static,
    {
        Ok(self.reserve(lane).await?.spawn(f))
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
    /// The same range as [`Builder::threads`](crate::Builder::threads) applies. The libuv policy
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

    /// Where FastIo's experimental io_uring path stands: asked for, active
    /// or refused (and why), and how many `fs::read` / `fs::stat` calls
    /// went through the rings or the threads. See
    /// [`Builder::fast_io_uring`](crate::Builder::fast_io_uring).
    pub fn fast_io_uring(&self) -> crate::UringStatus {
        self.inner().uring.status()
    }

    /// Turns on the io_uring path (the builder, once, before the pool is
    /// handed out).
    pub(crate) fn enable_uring(&self, refuse: bool) {
        self.inner().uring.enable(refuse);
    }

    /// The io_uring switch, where the pool asked for io_uring.
    #[cfg_attr(not(feature = "ops"), allow(dead_code))]
    pub(crate) fn uring(&self) -> Option<Arc<crate::uring::Switch>> {
        let s = &self.inner().uring;
        s.status_requested().then(|| Arc::clone(s))
    }

    /// A snapshot of every counter and gauge. See [`Snapshot`].
    pub fn metrics(&self) -> Snapshot {
        self.inner().snapshot()
    }

    /// Registers this pool's series in a prometheus-client `registry`, next
    /// to the service's own: they are read from the pool at each scrape.
    /// The series are those of [`Snapshot::to_prometheus`] (`sluice_*`,
    /// labelled `lane`, plus `sluice_info{policy,version}`); use
    /// `registry.sub_registry_with_label` to tell two pools apart.
    ///
    /// ```
    /// use prometheus_client::metrics::counter::Counter;
    /// use prometheus_client::registry::Registry;
    /// use sluice::{Lane, Pool};
    ///
    /// let mut registry = Registry::default();
    /// let requests = Counter::<u64>::default();
    /// registry.register("myapp_requests", "Requests served", requests.clone());
    /// let pool = Pool::builder().build()?;
    /// pool.register(&mut registry);
    ///
    /// requests.inc();
    /// pool.spawn(Lane::Cpu, || ()).wait()?;
    /// let mut text = String::new();
    /// prometheus_client::encoding::text::encode(&mut text, &registry)?;
    /// assert!(text.contains("myapp_requests_total 1"));
    /// assert!(text.contains("sluice_completed_total{lane=\"cpu\"} 1"));
    /// assert_eq!(text.matches("# EOF").count(), 1);
    /// assert!(text.ends_with("# EOF\n"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[cfg(feature = "prometheus")]
    pub fn register(&self, registry: &mut prometheus_client::registry::Registry) {
        registry.register_collector(Box::new(self.collector()));
    }

    /// This pool as a prometheus-client collector (see [`Pool::register`]).
    #[must_use = "a collector exports nothing until it is registered"]
    #[cfg(feature = "prometheus")]
    pub fn collector(&self) -> crate::PoolCollector {
        crate::PoolCollector::new(Arc::clone(self.inner()) as Arc<dyn crate::metrics::Snapshots>)
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
        #[cfg(feature = "tracing")]
        tracing::info!(
            drained,
            abandoned = total.abandoned,
            still_running = total.still_running,
            "sluice: pool shut down"
        );
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
    pub(crate) fn snapshot(&self) -> Snapshot {
        self.scheduler.snapshot()
    }

    pub(crate) fn default_deadline(&self, lane: Lane) -> Option<Instant> {
        self.queue_timeout[lane.index()].map(|t| Instant::now() + t)
    }

    pub(crate) fn admit(&self, lane: Lane, how: Admit) -> Result<Slot, Refused> {
        self.scheduler.admit(lane, how)
    }

    /// Gives back a place that was reserved and not used.
    pub(crate) fn release(&self, slot: Slot) {
        self.scheduler.release(slot);
    }

    pub(crate) fn waiters(&self, lane: Lane) -> Option<&Waiters> {
        self.scheduler.waiters(lane)
    }

    /// Wakes `alarm` at `at` (the deadline thread).
    pub(crate) fn watch_alarm(&self, at: Instant, alarm: &Arc<Alarm>) {
        self.deadlines.watch_alarm(at, alarm);
    }

    /// Queues `f` in the place `slot` (`None`: the pool refused as closed;
    /// the task resolves to [`TaskError::Shutdown`]).
    pub(crate) fn submit_in<F, T>(
        self: &Arc<Self>,
        slot: Option<Slot>,
        lane: Lane,
        deadline: Option<Instant>,
        f: F,
    ) -> Task<T>
    where
        F: FnOnce() -> T + Send + 'static,
        T: Send + 'static,
    {
        let (task, job) = self.prepare(slot.is_some(), lane, deadline, f);
        if let (Some(slot), Some(job)) = (slot, job) {
            self.scheduler.enqueue(slot, job);
        }
        task
    }

    /// Reserves places for up to `n` tasks of `lane` at once
    /// ([`Scheduler::admit_many`]).
    pub(crate) fn admit_many(&self, lane: Lane, n: usize, how: Admit) -> Result<Reserved, Refused> {
        self.scheduler.admit_many(lane, n, how)
    }

    /// Queues every admitted task of `batch` (one lane) with one
    /// notification ([`Scheduler::enqueue_batch`]), leaving `batch` empty.
    pub(crate) fn enqueue_batch(&self, batch: &mut Vec<(Slot, Arc<dyn Job>)>) {
        if !batch.is_empty() {
            self.scheduler.enqueue_batch(batch);
        }
    }

    /// [`submit_in`](Inner::submit_in) with no handle: the queue holds the
    /// cell's only reference, so nothing on the submitting thread touches
    /// it again, and no [`Task`] is made or dropped. What `f` returns is
    /// dropped on the worker; an `f` that is never run (a closed pool, an
    /// expired deadline) is dropped unrun.
    pub(crate) fn submit_detached<F>(
        &self,
        slot: Option<Slot>,
        lane: Lane,
        deadline: Option<Instant>,
        f: F,
    ) where
        F: FnOnce() + Send + 'static,
    {
        let cell = self.cell(lane, deadline, f);
        let job = self.admit_cell(slot.is_some(), deadline, &cell);
        // The submitter's reference goes before the job is queued, so the
        // worker holds the only one and frees the cell where it ran it.
        drop(cell);
        if let (Some(slot), Some(job)) = (slot, job) {
            self.scheduler.enqueue(slot, job);
        }
    }

    /// The cell of `f`, its closure wrapped for the panic hook (and
    /// tracing).
    fn cell<F, T>(
        &self,
        lane: Lane,
        deadline: Option<Instant>,
        f: F,
    ) -> Arc<Cell<impl FnOnce() -> T + Send + 'static, T>>
    where
        F: FnOnce() -> T + Send + 'static,
        T: Send + 'static,
    {
        let hook = self.panic_hook.clone();
        #[cfg(feature = "tracing")]
        let f = traced(lane, f);
        let f = move || match hook {
            None => f(),
            Some(hook) => match catch_unwind(AssertUnwindSafe(f)) {
                Ok(v) => v,
                Err(payload) => {
                    let msg = crate::task::state::panic_text(&*payload);
                    // A panicking handler must not hide the task's own panic.
                    let _ = catch_unwind(AssertUnwindSafe(|| hook(lane, &msg)));
                    resume_unwind(payload)
                }
            },
        };
        Arc::new(Cell::new(lane, deadline, f))
    }

    /// With `admitted`, the job to queue for `cell` (watched by the
    /// deadline thread if it has a deadline); without, the cell is resolved
    /// to [`TaskError::Shutdown`] at once and nothing is queued.
    fn admit_cell<F, T>(
        &self,
        admitted: bool,
        deadline: Option<Instant>,
        cell: &Arc<Cell<F, T>>,
    ) -> Option<Arc<dyn Job>>
    where
        F: FnOnce() -> T + Send + 'static,
        T: Send + 'static,
    {
        if admitted {
            let job: Arc<dyn Job> = cell.clone();
            if deadline.is_some() {
                self.deadlines.watch(&job);
            }
            Some(job)
        } else {
            // Refused, not accepted: no counter moves, and there was no
            // queue slot to give back.
            if let TransitionToAborted::Aborted(vacated) = cell.abort(TaskError::Shutdown) {
                vacated.account();
            }
            None
        }
    }

    /// The cell of `f` and its handle; with `admitted`, the job to queue
    /// (watched by the deadline thread if it has a deadline); without, the
    /// task is resolved to [`TaskError::Shutdown`] at once.
    pub(crate) fn prepare<F, T>(
        self: &Arc<Self>,
        admitted: bool,
        lane: Lane,
        deadline: Option<Instant>,
        f: F,
    ) -> (Task<T>, Option<Arc<dyn Job>>)
    where
        F: FnOnce() -> T + Send + 'static,
        T: Send + 'static,
    {
        let cell = self.cell(lane, deadline, f);
        let queued = self.admit_cell(admitted, deadline, &cell);
        let output: Arc<dyn Output<T>> = cell;
        (
            Task::new(output, Arc::clone(self) as Arc<dyn OnAborted>),
            queued,
        )
    }

    /// Stops accepting work; workers drain and exit. Does not wait.
    fn close(&self) {
        self.scheduler.close();
    }
}

#[cfg(feature = "prometheus")]
impl crate::metrics::Snapshots for Inner {
    fn snapshot(&self) -> Snapshot {
        Inner::snapshot(self)
    }
}

impl OnAborted for Inner {
    /// A queued task was moved to `Done` by someone other than a worker
    /// (cancel, deadline reaper): account for its slot.
    fn on_aborted(&self, job: &dyn Job, vacated: Vacated, why: Aborted) {
        self.scheduler.abort(job, vacated, why);
    }

    fn queued(&self, lane: Lane) -> usize {
        self.scheduler.queued(lane)
    }
}

impl Drop for Inner {
    fn drop(&mut self) {
        self.deadlines.close();
    }
}

/// `f` inside a `sluice.task` span (feature `tracing`): made at submission,
/// so it follows the submitter's current span; entered on the worker, with
/// the queue wait and the run time recorded in microseconds.
#[cfg(feature = "tracing")]
fn traced<F, T>(lane: Lane, f: F) -> impl FnOnce() -> T + Send + 'static
where
    F: FnOnce() -> T + Send + 'static,
    T: Send + 'static,
{
    let span = tracing::debug_span!(
        "sluice.task",
        lane = lane.name(),
        queue_wait_us = tracing::field::Empty,
        run_time_us = tracing::field::Empty,
    );
    let queued = Instant::now();
    move || {
        let started = Instant::now();
        span.record("queue_wait_us", (started - queued).as_micros() as u64);
        let out = span.in_scope(f);
        span.record("run_time_us", started.elapsed().as_micros() as u64);
        out
    }
}

/// A batch's places reserved and tasks made but not yet queued
/// ([`Pool::spawn_batch`]): dropping it queues the tasks and gives the
/// unused places back, so a batch whose iterator panics strands nothing
/// in the lane's depth.
struct Held<'a> {
    inner: &'a Inner,
    reserved: Reserved,
    batch: Vec<(Slot, Arc<dyn Job>)>,
}

impl Drop for Held<'_> {
    fn drop(&mut self) {
        self.inner.enqueue_batch(&mut self.batch);
        while let Some(slot) = self.reserved.take() {
            self.inner.release(slot);
        }
    }
}
