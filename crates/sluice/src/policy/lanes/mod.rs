//! The lanes policy: three independent lanes, each with its own queue,
//! budget, threads and counters. A flood in one lane cannot delay another,
//! because nothing is shared between lanes but the process.
//!
//! Per lane: a lock-free FIFO (`crossbeam_queue::SegQueue`), an atomic queue
//! depth (tasks queued and not yet claimed by a worker), a limit (the
//! concurrency budget, resizable), and the sleep/wake protocol of `park/`.
//! Workers start on demand up to the limit and retire after their
//! keep-alive. The worker loop has four phases, marked below: SEARCHING,
//! CLAIM (the popped task leaves `Queued` and the depth before the worker
//! stops searching), BUSY and IDLE.
//!
//! # Blocking compensation (adaptive lanes)
//!
//! A worker is *blocked* while its task waits instead of computing: declared
//! by the task ([`crate::blocking`], like Go's `entersyscall`) or detected by
//! the monitor (`monitor.rs`) on the I/O lanes. While a lane has blocked
//! workers it may run `limit + blocked` threads (its *spawn limit*), up to
//! its `max_threads`; so queued work is handed to a new or sleeping thread
//! the moment a worker blocks (Go's `handoffp`). When the blocked workers
//! wake the lane is over its spawn limit: the surplus finishes its task and
//! retires (`try_retire_busy`), never preempted. On the `Cpu` lane a thread
//! leaving a declared section waits at the *gate* until the lane's threads
//! that are neither blocked nor waiting there fit the budget, so threads
//! computing never exceed the usable cores (`park/README.md`, "blocked").
//!
//! # Files
//!
//! - `mod.rs`: [`Lanes`] (the [`Scheduler`]), the lane's queue and
//!   [`LaneCore`], its counters read as a snapshot.
//! - `settings.rs`: [`LaneSettings`], the defaults, the resize check.
//! - `worker.rs`: the submit side (admission, push, wake or spawn) and the
//!   worker loop (SEARCHING / CLAIM / BUSY / IDLE), resize and shutdown.
//! - `compensation.rs`: [`WorkerSlot`], blocked workers counted, the spawn
//!   limit, the gate, `sluice::blocking` sections.
//! - `cpu_slots.rs`: [`CpuSlots`]: one `Cpu` worker per core (`cpu_affinity`).
//! - `guard.rs`: [`Guard`]: a guarded `Cpu` lane's moves between
//!   `SCHED_IDLE` and `SCHED_OTHER`, and the check that the process may.
//! - `sched.rs`: a worker's scheduling policy (through `sluice-sched`).
//! - `monitor.rs`: the monitor thread (lasting sections, undeclared waits,
//!   the guard's window).

mod compensation;
mod cpu_slots;
mod guard;
pub(crate) mod monitor;
mod sched;
mod settings;
mod worker;

pub(crate) use compensation::{WorkerSlot, enter_blocking};
pub(crate) use cpu_slots::{CpuSlots, process_cpus};
pub(crate) use guard::check_guard;
use settings::check_resize;
pub(crate) use settings::{LaneSettings, default_settings};

use crate::error::ConfigError;
use crate::lane::Lane;
use crate::loom::sync::Condvar;
use crate::loom::sync::Mutex;
use crate::loom::sync::atomic::{AtomicUsize, Ordering};
use crate::loom::thread;
use crate::metrics::counters::{Gauges, LaneMetrics};
use crate::metrics::{LaneSnapshot, Snapshot};
use crate::park::Park;
use crate::policy::{Admit, GaugeWords, LaneShutdown, Refused, Reserved, Scheduler, Slot, Waiters};
use crate::task::state::Job;
use crate::task::{Aborted, Vacated};
use guard::Guard;
use monitor::Monitor;
use std::sync::Arc;
use std::time::Instant;

/// The lanes policy: one [`LaneCore`] per lane.
pub(crate) struct Lanes {
    lanes: [Arc<LaneCore>; 3],
    monitor: Arc<Monitor>,
}

impl Lanes {
    pub(crate) fn new(settings: [LaneSettings; 3]) -> Self {
        let monitor = Monitor::new();
        let lanes = settings.map(|s| Arc::new(LaneCore::new(s, Arc::clone(&monitor))));
        monitor.watch(lanes.iter().filter(|l| l.settings.adaptive));
        if lanes.iter().any(|l| l.guard.is_some()) {
            // Started here, from the builder's thread, so that it inherits
            // the process's policy: started later by a guarded worker, it
            // would run under `SCHED_IDLE` and starve with the lane it
            // watches.
            monitor.kick();
        }
        Lanes { lanes, monitor }
    }

    pub(crate) fn lane(&self, lane: Lane) -> &Arc<LaneCore> {
        &self.lanes[lane.index()]
    }

    pub(crate) fn iter(&self) -> impl Iterator<Item = &Arc<LaneCore>> {
        self.lanes.iter()
    }
}

impl Scheduler for Lanes {
    fn admit(&self, lane: Lane, how: Admit) -> Result<Slot, Refused> {
        self.lane(lane).reserve(how)
    }

    fn admit_many(&self, lane: Lane, n: usize, how: Admit) -> Result<Reserved, Refused> {
        let (granted, prev) = self.lane(lane).reserve_many(n, how)?;
        Ok(Reserved::new(lane, granted, prev == 0))
    }

    fn enqueue(&self, slot: Slot, job: Arc<dyn Job>) {
        self.lane(slot.lane).push(slot, job);
    }

    fn enqueue_batch(&self, batch: &mut Vec<(Slot, Arc<dyn Job>)>) {
        if let Some((slot, _)) = batch.first() {
            let lane = slot.lane;
            self.lane(lane).push_batch(batch.drain(..));
        }
    }

    fn release(&self, slot: Slot) {
        self.lane(slot.lane).release_slot();
    }

    fn waiters(&self, lane: Lane) -> Option<&Waiters> {
        let core = self.lane(lane);
        core.is_bounded().then_some(&core.waiters)
    }

    fn limit(&self, lane: Lane) -> usize {
        self.lane(lane).limit()
    }

    fn gauge_words(&self, lane: Lane) -> Option<GaugeWords> {
        Some(self.lane(lane).gauge_words())
    }

    fn queued(&self, lane: Lane) -> usize {
        self.lane(lane).depth()
    }

    fn resize(&self, lane: Lane, n: usize) -> Result<(), ConfigError> {
        let core = self.lane(lane);
        let n = check_resize(lane, n)?;
        if core.settings.adaptive && n > core.settings.max_threads {
            return Err(ConfigError::OutOfRange {
                setting: format!("resize(Lane::{lane:?})"),
                value: n.to_string(),
                expected: format!("1..={}", core.settings.max_threads),
                why: format!(
                    " (the lane's max_threads; raise it with Builder::max_threads(Lane::{lane:?}, n))"
                ),
                knob: Some(crate::error::Knob::Resize(Some(lane))),
            });
        }
        core.resize(n);
        Ok(())
    }

    fn snapshot(&self) -> Snapshot {
        let lanes: Vec<_> = self.iter().map(|l| l.snapshot()).collect();
        Snapshot {
            policy: crate::choice::Policy::Lanes,
            cpu_sched: Some(self.lane(Lane::Cpu).settings.sched),
            threads_alive: lanes.iter().filter_map(|l| l.threads_alive).sum(),
            threads_idle: lanes.iter().filter_map(|l| l.threads_idle).sum(),
            lanes,
        }
    }

    fn close(&self) {
        self.iter().for_each(|l| l.close());
        self.monitor.close();
    }

    fn finish_shutdown(&self, deadline: Instant) -> LaneShutdown {
        let mut total = LaneShutdown::default();
        for l in self.iter() {
            let s = l.finish_shutdown(deadline);
            total.abandoned += s.abandoned;
            total.still_running += s.still_running;
        }
        total
    }

    fn abort(&self, _job: &dyn Job, vacated: Vacated, why: Aborted) {
        self.lane(vacated.lane()).on_aborted(vacated, why);
    }
}

/// The queue of one lane, in two parts: `first` (tasks spawned with
/// [`Permit::spawn_first`](crate::Permit::spawn_first): short work that
/// should not wait behind the lane's long tasks) and `rest`, each FIFO. A
/// pop takes from `first` while it has anything. Both hold tasks and,
/// after a cancel, their tombstones (aborted cells), which workers pop and
/// drop. To the sleep/wake protocol it is one queue (`park/README.md`,
/// "the queue's two parts"): `depth` counts the tasks of both, and a pop
/// that finds neither part holding one is a failed search, after which a
/// worker re-reads `depth` before it sleeps.
#[cfg(not(loom))]
struct Queue {
    first: crossbeam_queue::SegQueue<Arc<dyn Job>>,
    rest: crossbeam_queue::SegQueue<Arc<dyn Job>>,
}

#[cfg(not(loom))]
impl Queue {
    fn new() -> Self {
        Queue {
            first: crossbeam_queue::SegQueue::new(),
            rest: crossbeam_queue::SegQueue::new(),
        }
    }
    fn push(&self, job: Arc<dyn Job>, first: bool) {
        if first {
            self.first.push(job)
        } else {
            self.rest.push(job)
        }
    }
    fn pop(&self) -> Option<Arc<dyn Job>> {
        self.first.pop().or_else(|| self.rest.pop())
    }
}

/// Under loom the queue is a mutex around two `VecDeque`s: loom cannot see
/// inside crossbeam, and what the models check is the protocol around the
/// queue.
#[cfg(loom)]
struct Queue(Mutex<[std::collections::VecDeque<Arc<dyn Job>>; 2]>);

#[cfg(loom)]
impl Queue {
    fn new() -> Self {
        Queue(Mutex::new(Default::default()))
    }
    fn push(&self, job: Arc<dyn Job>, first: bool) {
        self.0.lock().unwrap()[usize::from(!first)].push_back(job)
    }
    fn pop(&self) -> Option<Arc<dyn Job>> {
        let mut parts = self.0.lock().unwrap();
        parts[0].pop_front().or_else(|| parts[1].pop_front())
    }
}

/// One lane: queue, budget, threads, counters.
pub(crate) struct LaneCore {
    settings: LaneSettings,
    queue: Queue,
    /// Tasks queued and not yet claimed: incremented by a submitter *before*
    /// it pushes (that is its reservation against the bound), decremented
    /// once by whoever moves the task out of `Queued` (see `task/mod.rs`): a
    /// worker claiming what it popped, or a cancel, the reaper, shutdown.
    /// Tombstones are not counted. A worker claims before it stops
    /// searching, so a reader that loads the counters first and `depth`
    /// second never counts a task a searcher has already taken (README.md,
    /// "queued and not yet claimed"). `SeqCst`: it is the submitter's half
    /// of the Dekker pair with `Park::sleep` (README.md).
    ///
    /// Invariant (no stranded task): each task counted here is (1) reserved
    /// by a submitter that will push it and then wake or start a worker if
    /// none searches; (2) in the queue, where a searcher, the next busy
    /// worker, or the worker woken or started for it pops it (a sleeper
    /// re-reads `depth` after announcing its sleep); or (3) popped by a
    /// worker that still searches, or is busy and claims it at once. A
    /// claim that loses to a cancel, the deadline or shutdown leaves the
    /// decrement to the winner, which tells the waiter; the worker pops
    /// again. Only a claim or an abort, each under the cell's lock, takes a
    /// task out, so none is counted twice or dropped uncounted.
    depth: AtomicUsize,
    /// The concurrency budget: at most this many threads, each running one
    /// task. Changed by `resize`; read with `SeqCst` where it gates a spawn.
    limit: AtomicUsize,
    /// Submitters blocked in `reserve(wait = true)` on a full queue.
    room_waiters: AtomicUsize,
    room: Mutex<()>,
    room_cv: Condvar,
    /// Reservations awaiting room (`Pool::reserve`), woken one at a time
    /// as places free up (`admission.rs`).
    pub(crate) waiters: Waiters,
    park: Park,
    pub(crate) metrics: LaneMetrics,
    /// Join handles of started threads, for shutdown.
    threads: Mutex<Vec<thread::JoinHandle<()>>>,
    /// Workers whose task is blocked (declared or detected); see
    /// [`WorkerSlot::state`]. `SeqCst`: it widens the spawn limit.
    pub(crate) blocked: AtomicUsize,
    /// `Cpu` lane: threads that left a blocking section and wait at the gate
    /// for a computing place. Changed only under `gate`.
    returning: AtomicUsize,
    gate: Mutex<()>,
    gate_cv: Condvar,
    /// The adaptive workers alive, for the monitor.
    pub(crate) slots: Mutex<Vec<Arc<WorkerSlot>>>,
    monitor: Arc<Monitor>,
    /// `Some` for a guarded `Cpu` lane.
    pub(crate) guard: Option<Guard>,
}

impl LaneCore {
    fn new(settings: LaneSettings, monitor: Arc<Monitor>) -> Self {
        LaneCore {
            blocked: AtomicUsize::new(0),
            returning: AtomicUsize::new(0),
            gate: Mutex::new(()),
            gate_cv: Condvar::new(),
            slots: Mutex::new(Vec::new()),
            monitor,
            guard: (settings.sched == crate::CpuSched::Guarded).then(|| Guard::new(settings.nice)),
            limit: AtomicUsize::new(settings.limit),
            metrics: LaneMetrics::new(settings.timed),
            settings,
            queue: Queue::new(),
            depth: AtomicUsize::new(0),
            room_waiters: AtomicUsize::new(0),
            room: Mutex::new(()),
            room_cv: Condvar::new(),
            waiters: Waiters::default(),
            park: Park::new(),
            threads: Mutex::new(Vec::new()),
        }
    }

    pub(crate) fn limit(&self) -> usize {
        self.limit.load(Ordering::SeqCst)
    }

    /// How many threads the lane may run now: its budget, plus one per
    /// blocked worker when adaptive, plus the budget again while a guarded
    /// lane is promoted ([`LaneCore::neighbour_share`]), never above
    /// `max_threads`.
    pub(crate) fn spawn_limit(&self) -> usize {
        let limit = self.limit();
        if !self.settings.adaptive {
            return limit;
        }
        let blocked = self.blocked.load(Ordering::SeqCst);
        (limit + blocked + self.neighbour_share()).min(self.settings.max_threads.max(limit))
    }

    /// The threads a guarded `Cpu` lane runs beyond its budget while it is
    /// promoted: the budget again (0 otherwise). A lane is promoted when
    /// its computing workers ran less than a quarter of what they could
    /// (`monitor.rs`): other threads, usually other processes', take its
    /// cores. Linux shares a busy core per
    /// runnable thread at equal weight, so a lane of `n` threads beside
    /// `h` spinning threads gets `n / (n + h)` of the cores, whatever its
    /// budget says. Twice the budget keeps, on a 2-core machine, the share
    /// libuv's 4 threads take there (2 hogs: two thirds of the cores where
    /// the budget alone gets half); the extra threads start only for queued
    /// work, run `SCHED_OTHER` like the rest, and retire after their task
    /// when the hold ends (`guard_move`).
    pub(crate) fn neighbour_share(&self) -> usize {
        match &self.guard {
            Some(g) if g.promoted.load(Ordering::SeqCst) => self.limit(),
            _ => 0,
        }
    }

    /// Tasks queued and not yet claimed by a worker now (`SeqCst`).
    pub(crate) fn depth(&self) -> usize {
        self.depth.load(Ordering::SeqCst)
    }

    /// Where this lane's queue depth and thread counters live, for a reader
    /// outside the process (`observer.rs`).
    pub(crate) fn gauge_words(&self) -> GaugeWords {
        GaugeWords {
            queue_depth: std::ptr::from_ref(&self.depth).addr(),
            threads: self.park.counters_addr(),
        }
    }

    /// The monitor looks for undeclared blocked workers in this lane.
    pub(crate) fn detects(&self) -> bool {
        self.settings.detect
    }

    /// The lane's thread counters now.
    pub(crate) fn counters(&self) -> crate::park::Counters {
        self.park.counters()
    }

    pub(crate) fn is_bounded(&self) -> bool {
        self.settings.bound != usize::MAX
    }

    // ===== metrics =====

    pub(crate) fn snapshot(&self) -> LaneSnapshot {
        let t = self.metrics.totals();
        let c = self.park.counters();
        t.snapshot(Gauges {
            guard: self.guard.as_ref().map(|g| {
                (
                    g.promoted.load(Ordering::Relaxed),
                    g.promotions.load(Ordering::Relaxed),
                    g.refused.load(Ordering::Relaxed),
                )
            }),
            lane: self.settings.lane,
            limit: self.limit() as u64,
            queue_bound: self.is_bounded().then_some(self.settings.bound as u64),
            queue_depth: self.depth.load(Ordering::Relaxed) as u64,
            reservations_waiting: self.waiters.len() as u64,
            threads: Some((c.alive() as u64, (c.searching() + c.sleeping()) as u64)),
            adaptive: Some(crate::metrics::counters::AdaptiveGauges {
                on: self.settings.adaptive,
                max_threads: self.settings.max_threads as u64,
                blocked: self.blocked.load(Ordering::Relaxed) as u64,
            }),
        })
    }
}
