//! The lanes policy: three independent lanes, each with its own queue,
//! budget, threads and counters. A flood in one lane cannot delay another,
//! because nothing is shared between lanes but the process.
//!
//! Per lane: a lock-free FIFO (`crossbeam_queue::SegQueue`), an atomic queue
//! depth, a limit (the concurrency budget, resizable), and the sleep/wake
//! protocol of `park/`. Workers start on demand up to the limit and retire
//! after their keep-alive. The worker loop has three phases, marked below:
//! SEARCHING, BUSY and IDLE.

use crate::budget;
use crate::clock;
use crate::lane::Lane;
use crate::loom::sync::atomic::{AtomicUsize, Ordering};
use crate::loom::sync::{Condvar, Mutex};
use crate::loom::thread;
use crate::metrics::LaneSnapshot;
use crate::metrics::counters::{Gauges, LaneMetrics, WorkerShard};
use crate::park::{Park, Wake, spin_until};
use crate::pool::{Aborted, LaneShutdown, Refused};
use crate::task::TaskError;
use crate::task::state::{Job, RunHooks, TransitionToAborted};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How long the sole searching worker of a lane spins for new work before it
/// sleeps: long enough that a submit/wait ping-pong never pays for a futex
/// wake-up, short enough that an idle pool is idle.
const WORKER_SPIN_NANOS: u64 = 50_000;

/// The immutable settings of one lane.
#[derive(Debug, Clone)]
pub(crate) struct LaneSettings {
    pub(crate) lane: Lane,
    pub(crate) limit: usize,
    /// `usize::MAX` when unbounded.
    pub(crate) bound: usize,
    pub(crate) keep_alive: Duration,
    pub(crate) stack_size: usize,
    pub(crate) timed: bool,
    /// The nice value the lane's workers set on themselves (0: unchanged).
    pub(crate) nice: i32,
}

/// The lanes policy: one [`LaneCore`] per lane.
pub(crate) struct Lanes {
    lanes: [Arc<LaneCore>; 3],
}

impl Lanes {
    pub(crate) fn new(settings: [LaneSettings; 3]) -> Self {
        Lanes {
            lanes: settings.map(|s| Arc::new(LaneCore::new(s))),
        }
    }

    pub(crate) fn lane(&self, lane: Lane) -> &Arc<LaneCore> {
        &self.lanes[lane.index()]
    }

    pub(crate) fn iter(&self) -> impl Iterator<Item = &Arc<LaneCore>> {
        self.lanes.iter()
    }
}

/// The queue of one lane. Holds tasks and, after a cancel, their tombstones
/// (aborted cells), which workers pop and drop.
#[cfg(not(loom))]
struct Queue(crossbeam_queue::SegQueue<Arc<dyn Job>>);

#[cfg(not(loom))]
impl Queue {
    fn new() -> Self {
        Queue(crossbeam_queue::SegQueue::new())
    }
    fn push(&self, job: Arc<dyn Job>) {
        self.0.push(job)
    }
    fn pop(&self) -> Option<Arc<dyn Job>> {
        self.0.pop()
    }
}

/// Under loom the queue is a mutex around a `VecDeque`: loom cannot see inside
/// crossbeam, and what the models check is the protocol around the queue.
#[cfg(loom)]
struct Queue(Mutex<std::collections::VecDeque<Arc<dyn Job>>>);

#[cfg(loom)]
impl Queue {
    fn new() -> Self {
        Queue(Mutex::new(std::collections::VecDeque::new()))
    }
    fn push(&self, job: Arc<dyn Job>) {
        self.0.lock().unwrap().push_back(job)
    }
    fn pop(&self) -> Option<Arc<dyn Job>> {
        self.0.lock().unwrap().pop_front()
    }
}

/// One lane: queue, budget, threads, counters.
pub(crate) struct LaneCore {
    settings: LaneSettings,
    queue: Queue,
    /// Live tasks in the queue: incremented by a submitter *before* it pushes
    /// (that is its reservation against the bound), decremented by whoever
    /// moves a task out of `Queued` (see `task/mod.rs`). Tombstones are not
    /// counted. `SeqCst`: it is the submitter's half of the Dekker pair with
    /// `Park::sleep` (README.md).
    depth: AtomicUsize,
    /// The concurrency budget: at most this many threads, each running one
    /// task. Changed by `resize`; read with `SeqCst` where it gates a spawn.
    limit: AtomicUsize,
    /// Submitters blocked in `reserve(wait = true)` on a full queue.
    room_waiters: AtomicUsize,
    room: Mutex<()>,
    room_cv: Condvar,
    park: Park,
    pub(crate) metrics: LaneMetrics,
    /// Join handles of started threads, for shutdown.
    threads: Mutex<Vec<thread::JoinHandle<()>>>,
}

impl LaneCore {
    fn new(settings: LaneSettings) -> Self {
        LaneCore {
            limit: AtomicUsize::new(settings.limit),
            metrics: LaneMetrics::new(settings.timed),
            settings,
            queue: Queue::new(),
            depth: AtomicUsize::new(0),
            room_waiters: AtomicUsize::new(0),
            room: Mutex::new(()),
            room_cv: Condvar::new(),
            park: Park::new(),
            threads: Mutex::new(Vec::new()),
        }
    }

    pub(crate) fn limit(&self) -> usize {
        self.limit.load(Ordering::SeqCst)
    }

    fn is_bounded(&self) -> bool {
        self.settings.bound != usize::MAX
    }

    // ===== submit side =====

    /// Reserves a queue slot for one task. With `wait`, a full queue blocks
    /// the caller until there is room; without, it refuses. Returns whether
    /// the queue was empty before (the only moment a submit can start a
    /// saturated interval, see `push`).
    pub(crate) fn reserve(&self, wait: bool) -> Result<bool, Refused> {
        let bound = self.settings.bound;
        let prev = if !self.is_bounded() {
            self.depth.fetch_add(1, Ordering::SeqCst)
        } else {
            let mut cur = self.depth.load(Ordering::SeqCst);
            loop {
                if cur >= bound {
                    if !wait {
                        self.metrics.rejected();
                        return Err(Refused::Full { bound });
                    }
                    self.wait_for_room()?;
                    cur = self.depth.load(Ordering::SeqCst);
                    continue;
                }
                match self
                    .depth
                    .compare_exchange(cur, cur + 1, Ordering::SeqCst, Ordering::SeqCst)
                {
                    Ok(_) => break cur,
                    Err(actual) => cur = actual,
                }
            }
        };
        // Checked after the reservation: a close that this load misses comes
        // later in the SeqCst order than our increment, so the closing lane's
        // workers see depth > 0 and stay to run what we push.
        if self.park.is_closed() {
            self.release_slot();
            return Err(Refused::Closed);
        }
        Ok(prev == 0)
    }

    /// Blocks until the queue is below its bound or the lane closes.
    fn wait_for_room(&self) -> Result<(), Refused> {
        self.room_waiters.fetch_add(1, Ordering::SeqCst);
        let mut guard = self.room.lock().unwrap_or_else(|p| p.into_inner());
        let result = loop {
            if self.park.is_closed() {
                break Err(Refused::Closed);
            }
            if self.depth.load(Ordering::SeqCst) < self.settings.bound {
                break Ok(());
            }
            guard = self.room_cv.wait(guard).unwrap_or_else(|p| p.into_inner());
        };
        drop(guard);
        self.room_waiters.fetch_sub(1, Ordering::SeqCst);
        result
    }

    /// Pushes a task whose slot was reserved, and makes sure a worker will
    /// take it: a searcher will find it; otherwise wake a sleeper or start a
    /// thread. If every thread is busy at the limit, the first to finish
    /// takes it.
    pub(crate) fn push(self: &Arc<Self>, job: Arc<dyn Job>, was_empty: bool) {
        self.metrics.submitted();
        self.queue.push(job);
        let c = self.park.counters();
        if c.searching() == 0 {
            self.notify_or_spawn();
        }
        // Under a flood the queue is never empty and this is skipped.
        if was_empty {
            self.check_saturation();
        }
    }

    /// Hands queued work to a sleeper, or starts a thread if below the limit.
    fn notify_or_spawn(self: &Arc<Self>) {
        let c = self.park.counters();
        if c.sleeping() > 0 && self.park.wake_one() {
            return;
        }
        if c.alive() < self.limit() {
            self.spawn_worker();
        }
    }

    /// Starts one worker thread if the lane is below its limit.
    fn spawn_worker(self: &Arc<Self>) -> bool {
        if !self.park.try_add_worker(self.limit()) {
            return false;
        }
        let core = Arc::clone(self);
        let spawned = thread::spawn_named(
            self.settings.lane.thread_name().to_string(),
            self.settings.stack_size,
            move || core.run_worker(),
        );
        match spawned {
            Ok(handle) => {
                let mut threads = self.threads.lock().unwrap_or_else(|p| p.into_inner());
                #[cfg(not(loom))]
                threads.retain(|h| !h.is_finished());
                threads.push(handle);
                true
            }
            Err(err) => {
                self.park.undo_add_worker();
                self.metrics.spawn_failed();
                if self.park.counters().alive() == 0 {
                    // Nobody will ever run what is queued: fail it loudly.
                    self.abandon_queued(TaskError::NoThread(err.to_string()));
                }
                false
            }
        }
    }

    /// A task left `Queued` (started or aborted): give its slot back.
    fn release_slot(&self) {
        let prev = self.depth.fetch_sub(1, Ordering::SeqCst);
        if self.is_bounded() && self.room_waiters.load(Ordering::SeqCst) > 0 {
            let _g = self.room.lock().unwrap_or_else(|p| p.into_inner());
            self.room_cv.notify_all();
        }
        if prev == 1 {
            self.check_saturation();
        }
    }

    /// A queued task was cancelled, expired or abandoned by someone other
    /// than a worker.
    pub(crate) fn on_aborted(&self, why: Aborted) {
        self.release_slot();
        match why {
            Aborted::Cancelled => self.metrics.cancelled(),
            Aborted::Expired => self.metrics.expired(),
            Aborted::Abandoned => self.metrics.abandoned(),
        }
    }

    fn check_saturation(&self) {
        let depth = self.depth.load(Ordering::Relaxed);
        let busy = self.park.counters().busy();
        self.metrics
            .saturation
            .update(depth > 0 && busy >= self.limit());
    }

    // ===== worker side =====

    /// Pops the next live task, dropping tombstones of aborted ones.
    fn pop_live(&self) -> Option<Arc<dyn Job>> {
        loop {
            let job = self.queue.pop()?;
            if job.header().is_queued() {
                return Some(job);
            }
        }
    }

    /// SEARCHING: pop; if nothing, and this is the lane's only searcher, spin
    /// for a short while before giving up.
    fn search(&self) -> Option<Arc<dyn Job>> {
        if let Some(job) = self.pop_live() {
            return Some(job);
        }
        if self.park.counters().searching() != 1 {
            return None;
        }
        let mut found = None;
        spin_until(WORKER_SPIN_NANOS, || {
            found = self.pop_live();
            found.is_some() || self.park.is_closed()
        });
        found
    }

    fn run_worker(self: Arc<Self>) {
        // Under loom every model thread shares one OS thread: leave it alone.
        #[cfg(not(loom))]
        if self.settings.nice != 0 {
            // Linux applies a nice value per thread when given a thread id.
            // Raising it needs no privilege, so this cannot fail with EACCES;
            // if it fails anyway, the worker runs at the process's priority,
            // which is what every other pool does.
            let _ = rustix::process::setpriority_process(
                Some(rustix::thread::gettid()),
                self.settings.nice,
            );
        }
        let shard = self.metrics.shards.lease();
        // Born counted as alive + searching by `spawn_worker`.
        loop {
            // SEARCHING
            let Some(mut job) = self.search() else {
                // IDLE
                let limit = &self.limit;
                match self.park.sleep(
                    self.settings.keep_alive,
                    || self.depth.load(Ordering::SeqCst) > 0,
                    |c| c.alive() > limit.load(Ordering::SeqCst),
                ) {
                    Wake::Search => {
                        // Work is queued but may not be visible to pop yet
                        // (a submitter between its reservation and its push).
                        thread::yield_now();
                        continue;
                    }
                    Wake::Exit => return,
                }
            };
            let before = self.park.work_found();
            // `depth` still counts the task just popped (its slot is released
            // when it starts), hence `> 1`. If that task was cancelled in the
            // meantime this undercounts by one, which only delays the hand-off
            // until this worker pops again; nothing is stranded.
            if before.searching() == 1 && self.depth.load(Ordering::SeqCst) > 1 {
                // The last searcher just became busy with work still queued:
                // hand the search on, or a burst would run one at a time.
                self.notify_or_spawn();
            }
            self.check_saturation();
            // BUSY: run tasks back to back without touching the counters.
            loop {
                self.execute(&job, &shard);
                if self.park.try_retire_busy(self.limit()) {
                    if self.depth.load(Ordering::SeqCst) > 0 {
                        self.notify_or_spawn();
                    }
                    return;
                }
                match self.pop_live() {
                    Some(next) => job = next,
                    None => break,
                }
            }
            self.park.no_work_found();
            self.check_saturation();
        }
    }

    /// Runs one popped task: fails it if its deadline passed, else runs it
    /// and records its queue wait and run time.
    fn execute(&self, job: &Arc<dyn Job>, shard: &WorkerShard) {
        let header = job.header();
        if header.deadline.is_some() && header.is_expired(Instant::now()) {
            if job.abort(TaskError::DeadlineExceeded) == TransitionToAborted::Aborted {
                self.release_slot();
                shard.expired();
            }
            return;
        }
        job.run(&mut Hooks {
            lane: self,
            shard,
            queued_at: header.queued_at,
            started_at: 0,
        });
    }

    // ===== resize and shutdown =====

    /// Changes the budget. Growing starts or wakes workers for queued work
    /// at once; shrinking lets busy workers finish their task, then retire.
    pub(crate) fn resize(self: &Arc<Self>, n: usize) {
        let old = self.limit.swap(n, Ordering::SeqCst);
        if n > old {
            let queued = self.depth.load(Ordering::SeqCst);
            for _ in 0..queued.min(n - old) {
                if !self.park.wake_one() && !self.spawn_worker() {
                    break;
                }
            }
        } else if n < old {
            self.park.wake_all();
        }
        self.check_saturation();
    }

    /// Refuses new work; workers drain the queue, then exit.
    pub(crate) fn close(self: &Arc<Self>) {
        self.park.close();
        {
            let _g = self.room.lock().unwrap_or_else(|p| p.into_inner());
            self.room_cv.notify_all();
        }
        // Retired workers leave nobody to drain: start one.
        if self.depth.load(Ordering::SeqCst) > 0 && self.park.counters().alive() == 0 {
            self.spawn_worker();
        }
    }

    /// Waits for the workers to drain and exit until `deadline`; then fails
    /// whatever is still queued with [`TaskError::Shutdown`].
    pub(crate) fn finish_shutdown(&self, deadline: Instant) -> LaneShutdown {
        let drained = self.park.wait_exited(deadline);
        if drained {
            let handles: Vec<_> =
                std::mem::take(&mut *self.threads.lock().unwrap_or_else(|p| p.into_inner()));
            for h in handles {
                // A worker never panics (task panics are caught), so join
                // only fails if the thread was killed; nothing to do then.
                let _ = h.join();
            }
            return LaneShutdown::default();
        }
        let abandoned = self.abandon_queued(TaskError::Shutdown);
        LaneShutdown {
            abandoned,
            still_running: self.park.counters().busy() as u64,
        }
    }

    /// Fails every queued task with `err`. Returns how many.
    fn abandon_queued(&self, err: TaskError) -> u64 {
        let mut n = 0;
        while let Some(job) = self.queue.pop() {
            if job.abort(err.clone()) == TransitionToAborted::Aborted {
                self.on_aborted(Aborted::Abandoned);
                n += 1;
            }
        }
        n
    }

    // ===== metrics =====

    pub(crate) fn snapshot(&self) -> LaneSnapshot {
        let t = self.metrics.totals();
        let c = self.park.counters();
        t.snapshot(Gauges {
            lane: self.settings.lane,
            limit: self.limit() as u64,
            queue_bound: self.is_bounded().then_some(self.settings.bound as u64),
            queue_depth: self.depth.load(Ordering::Relaxed) as u64,
            threads: Some((c.alive() as u64, (c.searching() + c.sleeping()) as u64)),
        })
    }
}

/// Counts and times one task for a lanes-policy worker.
struct Hooks<'a> {
    lane: &'a LaneCore,
    shard: &'a WorkerShard,
    queued_at: u64,
    started_at: u64,
}

impl RunHooks for Hooks<'_> {
    fn started(&mut self) {
        self.lane.release_slot();
        if self.lane.metrics.timed {
            self.started_at = clock::now();
            self.shard
                .started(clock::nanos_between(self.queued_at, self.started_at), true);
        } else {
            self.shard.started(0, false);
        }
    }

    fn finished(&mut self, panicked: bool) {
        let timed = self.lane.metrics.timed;
        let run_ns = if timed {
            clock::nanos_between(self.started_at, clock::now())
        } else {
            0
        };
        self.shard.finished(run_ns, panicked, timed);
    }
}

/// The default settings of `lane` for a machine with `cores` usable cores.
pub(crate) fn default_settings(lane: Lane, cores: usize) -> LaneSettings {
    LaneSettings {
        lane,
        limit: budget::default_threads(lane, cores),
        bound: usize::MAX,
        keep_alive: budget::default_keep_alive(lane),
        stack_size: budget::DEFAULT_STACK_SIZE,
        timed: true,
        nice: if lane == Lane::Cpu {
            budget::DEFAULT_CPU_NICE
        } else {
            0
        },
    }
}
