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

use crate::admission::Waiters;
use crate::budget;
use crate::clock;
use crate::config::{ConfigError, check_resize};
use crate::lane::Lane;
use crate::loom::sync::atomic::{AtomicBool, AtomicU8};
use crate::loom::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use crate::loom::sync::{Condvar, Mutex};
use crate::loom::thread;
use crate::metrics::LaneSnapshot;
use crate::metrics::Snapshot;
use crate::metrics::counters::{Gauges, LaneMetrics, WorkerShard};
use crate::park::{Counters, Park, Wake, spin_until};
use crate::policy::monitor::{Monitor, Schedstat};
use crate::policy::{Aborted, Admit, LaneShutdown, Refused, Scheduler, Slot, Vacated};
use crate::task::TaskError;
use crate::task::state::{Job, RunHooks, RunOutcome, TransitionToAborted};
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
    /// The scheduling policy the lane's workers set on themselves.
    pub(crate) sched: crate::CpuSched,
    /// Blocking compensation on: blocked workers do not count against the
    /// budget, up to `max_threads` threads.
    pub(crate) adaptive: bool,
    /// The most threads the lane runs, compensation included (>= `limit`).
    pub(crate) max_threads: usize,
    /// The monitor looks for undeclared blocked workers (I/O lanes only).
    pub(crate) detect: bool,
    /// `Cpu` lane with `Builder::cpu_affinity(true)`: the CPUs of the
    /// process's affinity set; each worker pins itself to a free one.
    pub(crate) pin: Option<Arc<CpuSlots>>,
    /// The workers' thread name (`sluice-cpu`, or the builder's prefix).
    pub(crate) thread_name: String,
    /// `on_thread_start` / `on_thread_stop`.
    pub(crate) hooks: crate::hooks::Hooks,
}

/// The CPUs a lane's workers pin themselves to, one worker per CPU; a
/// worker that finds none free (threads beyond the budget while others are
/// blocked) runs on the process's whole set.
#[derive(Debug)]
pub(crate) struct CpuSlots {
    cpus: Vec<usize>,
    taken: Mutex<Vec<bool>>,
}

impl CpuSlots {
    pub(crate) fn new(cpus: Vec<usize>) -> Self {
        let taken = Mutex::new(vec![false; cpus.len()]);
        CpuSlots { cpus, taken }
    }

    /// Claims a free CPU: its index in the set and its number.
    fn claim(&self) -> Option<(usize, usize)> {
        let mut t = self.taken.lock().unwrap_or_else(|p| p.into_inner());
        let i = t.iter().position(|x| !*x)?;
        t[i] = true;
        Some((i, self.cpus[i]))
    }

    fn release(&self, i: usize) {
        self.taken.lock().unwrap_or_else(|p| p.into_inner())[i] = false;
    }
}

/// Pins the calling thread to `cpu` for as long as it lives, then frees it.
struct Pinned<'a> {
    slots: &'a CpuSlots,
    index: usize,
}

impl Drop for Pinned<'_> {
    fn drop(&mut self) {
        self.slots.release(self.index);
    }
}

fn pin_current(slots: &CpuSlots) -> Option<Pinned<'_>> {
    let (index, cpu) = slots.claim()?;
    let pinned = Pinned { slots, index };
    #[cfg(not(loom))]
    {
        let mut set = rustix::thread::CpuSet::new();
        set.set(cpu);
        // `Builder::build` checked that the kernel lets this process set
        // its threads' affinity; if it refuses now (the set changed under
        // us), the worker runs on the whole set, like an unpinned one.
        if rustix::thread::sched_setaffinity(None, &set).is_err() {
            return None;
        }
    }
    #[cfg(loom)]
    let _ = cpu;
    Some(pinned)
}

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

    fn enqueue(&self, slot: Slot, job: Arc<dyn Job>) {
        self.lane(slot.lane).push(slot, job);
    }

    fn enqueue_batch(&self, batch: Vec<(Slot, Arc<dyn Job>)>) {
        if let Some((slot, _)) = batch.first() {
            let lane = slot.lane;
            self.lane(lane).push_batch(batch);
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
                knob: Some(crate::config::Knob::Resize(Some(lane))),
            });
        }
        core.resize(n);
        Ok(())
    }

    fn snapshot(&self) -> Snapshot {
        let lanes: Vec<_> = self.iter().map(|l| l.snapshot()).collect();
        Snapshot {
            policy: crate::policy::Policy::Lanes,
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

/// What a worker's current task is doing, as far as compensation knows.
const COMPUTING: u8 = 0;
/// Inside a [`crate::blocking`] section, not (yet) counted blocked: most
/// sections are short system calls that return before anyone needs the
/// thread (Go's `entersyscall`, whose P `sysmon` retakes only from a call
/// that lasts).
const DECLARED: u8 = 1;
/// Inside a section that lasted past the monitor's grace: counted blocked.
const COUNTED: u8 = 2;
/// Found waiting by the monitor without a section: counted blocked.
const DETECTED: u8 = 3;

/// One adaptive worker, as its lane and the monitor see it.
pub(crate) struct WorkerSlot {
    /// `COMPUTING`, `DECLARED`, `COUNTED` or `DETECTED`. The lane's `blocked`
    /// counts the slots in `COUNTED` or `DETECTED`. The monitor raises
    /// `blocked` *before* its CAS into a counted state (and lowers it again
    /// if the CAS fails); whoever moves a slot out of a counted state lowers
    /// it after. So `blocked` may briefly over-count, never under-count.
    state: AtomicU8,
    /// Raw clock ticks at which the current task started; 0 between tasks.
    /// Written by the worker, read by the monitor.
    pub(crate) task_started: AtomicU64,
    /// Raw clock ticks at which the current blocking section began.
    pub(crate) section_started: AtomicU64,
    /// The thread's scheduler statistics, for the monitor (detecting and
    /// guarded lanes).
    pub(crate) schedstat: Option<Schedstat>,
    /// The thread's id, for the guard's policy changes. Valid while the
    /// slot is in its lane's `slots`: the worker registers it and removes
    /// it itself, under `slots`'s lock, before it exits.
    pub(crate) tid: i32,
}

/// A `Cpu` lane under [`crate::CpuSched::Guarded`]: its workers run
/// `SCHED_IDLE` until the monitor finds the lane starving and promotes them
/// to `SCHED_OTHER` at the process's own nice value (`policy/monitor.rs`):
/// against another process's threads the lane then weighs what any thread
/// of the process weighs, and its checkpoints stop yielding
/// (`checkpoint.rs`), so it keeps a thread's fair share.
pub(crate) struct Guard {
    /// True while the workers run `SCHED_OTHER`. Written only under the
    /// lane's `slots` lock, with every registered worker moved alike; a
    /// worker registering reads it under the same lock. Shared with the
    /// workers' checkpoints (they yield only while it is false).
    pub(crate) promoted: Arc<AtomicBool>,
    /// Moves to `SCHED_OTHER`.
    pub(crate) promotions: AtomicU64,
    /// Policy changes the kernel refused (the worker kept its policy).
    pub(crate) refused: AtomicU64,
    /// The nice value of a promoted worker: the process's, or the lowest
    /// above it that the process may set (`RLIMIT_NICE`), at most the
    /// lane's.
    promoted_nice: i32,
    /// The nice value of a worker under `SCHED_IDLE`: the lane's (or the
    /// process's, if higher), as every worker starts.
    idle_nice: i32,
}

impl Guard {
    fn new(lane_nice: i32) -> Self {
        let (promoted_nice, idle_nice) = guard_nices(lane_nice);
        Guard {
            promoted: Arc::new(AtomicBool::new(false)),
            promotions: AtomicU64::new(0),
            refused: AtomicU64::new(0),
            promoted_nice,
            idle_nice,
        }
    }
}

/// The nice values of a guarded lane's workers: promoted, and idle. A
/// process may lower a thread's nice value to `20 - RLIMIT_NICE`, or to
/// anything with `CAP_SYS_NICE` (the kernel's `can_nice`); a worker never
/// goes below the process's own value.
#[cfg(not(loom))]
fn guard_nices(lane_nice: i32) -> (i32, i32) {
    use rustix::process::{Resource, getrlimit};
    use rustix::thread::{CapabilitySet, capabilities};
    let born = rustix::process::getpriority_process(None).unwrap_or(0);
    let idle = lane_nice.max(born);
    let cap = capabilities(None).is_ok_and(|c| c.effective.contains(CapabilitySet::SYS_NICE));
    let floor = if cap {
        born
    } else {
        // `None` is RLIM_INFINITY.
        let limit = getrlimit(Resource::Nice).current.unwrap_or(40).min(40) as i32;
        born.max(20 - limit)
    };
    (floor.min(idle), idle)
}

#[cfg(loom)]
fn guard_nices(lane_nice: i32) -> (i32, i32) {
    (0, lane_nice)
}

/// The calling thread's id (0 under loom, where threads share one).
fn current_tid() -> i32 {
    #[cfg(not(loom))]
    {
        sluice_sched::current_tid()
    }
    #[cfg(loom)]
    0
}

impl WorkerSlot {
    pub(crate) fn is_computing(&self) -> bool {
        self.state.load(Ordering::SeqCst) == COMPUTING
    }

    /// In a section the monitor has not counted yet.
    pub(crate) fn is_declared_uncounted(&self) -> bool {
        self.state.load(Ordering::SeqCst) == DECLARED
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
    /// blocked worker when adaptive, never above `max_threads`.
    pub(crate) fn spawn_limit(&self) -> usize {
        let limit = self.limit();
        if !self.settings.adaptive {
            return limit;
        }
        let blocked = self.blocked.load(Ordering::SeqCst);
        (limit + blocked).min(self.settings.max_threads.max(limit))
    }

    /// Tasks queued and not yet claimed by a worker now (`SeqCst`).
    pub(crate) fn depth(&self) -> usize {
        self.depth.load(Ordering::SeqCst)
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

    // ===== submit side =====

    /// Reserves a queue slot for one task. With `wait`, a full queue blocks
    /// the caller until there is room; without, it refuses. The slot says
    /// whether the queue was empty before (the only moment a submit can start
    /// a saturated interval, see `push`).
    pub(crate) fn reserve(&self, how: Admit) -> Result<Slot, Refused> {
        let bound = self.settings.bound;
        let prev = if !self.is_bounded() {
            self.depth.fetch_add(1, Ordering::SeqCst)
        } else {
            let mut cur = self.depth.load(Ordering::SeqCst);
            loop {
                if cur >= bound {
                    match how {
                        Admit::Wait => {}
                        Admit::Refuse => {
                            self.metrics.rejected();
                            return Err(Refused::Full { bound });
                        }
                        // A waiter must learn of a close even while full.
                        Admit::Quiet if self.park.is_closed() => return Err(Refused::Closed),
                        Admit::Quiet => return Err(Refused::Full { bound }),
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
        Ok(Slot {
            lane: self.settings.lane,
            was_empty: prev == 0,
        })
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
    pub(crate) fn push(self: &Arc<Self>, slot: Slot, job: Arc<dyn Job>) {
        let Slot { lane, was_empty } = slot;
        debug_assert_eq!(lane, self.settings.lane);
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

    /// Pushes tasks whose slots were reserved, every one before the
    /// counters are read, then makes sure a worker will take them: one
    /// notification for the batch, as [`push`](Self::push) makes for one
    /// task. A woken worker searches, claims one task and, as the last
    /// searcher turning busy, wakes the next (`park/README.md`, "batches"):
    /// the wake-ups chain from worker to worker, never from the submitter.
    pub(crate) fn push_batch(self: &Arc<Self>, batch: Vec<(Slot, Arc<dyn Job>)>) {
        let mut was_empty = false;
        for (slot, job) in batch {
            let Slot {
                lane,
                was_empty: empty,
            } = slot;
            debug_assert_eq!(lane, self.settings.lane);
            was_empty |= empty;
            self.metrics.submitted();
            self.queue.push(job);
        }
        let c = self.park.counters();
        if c.searching() == 0 {
            self.notify_or_spawn();
        }
        if was_empty {
            self.check_saturation();
        }
    }

    /// Hands queued work to a sleeper, or starts a thread if below the
    /// spawn limit. If neither, every thread is busy: the monitor looks for
    /// blocked ones (detecting lanes; it costs one load when already on).
    pub(crate) fn notify_or_spawn(self: &Arc<Self>) {
        let c = self.park.counters();
        if c.sleeping() > 0 && self.park.wake_one() {
            return;
        }
        if c.alive() < self.spawn_limit() && self.spawn_searcher() {
            return;
        }
        if self.settings.adaptive {
            self.monitor.kick();
        }
    }

    /// Starts one worker thread if the lane is below its spawn limit.
    fn spawn_worker(self: &Arc<Self>) -> bool {
        let before = self.park.try_add_worker(self.spawn_limit());
        self.start_counted(before)
    }

    /// Starts one worker thread if the lane is below its spawn limit, no
    /// worker is searching, and a task is queued and not yet claimed (see
    /// [`Park::try_add_searcher`]).
    fn spawn_searcher(self: &Arc<Self>) -> bool {
        let before = self
            .park
            .try_add_searcher(self.spawn_limit(), || self.depth() > 0);
        self.start_counted(before)
    }

    /// Starts the thread of a worker just counted (`before`: the counters
    /// before it was; `None`: none was counted).
    fn start_counted(self: &Arc<Self>, before: Option<Counters>) -> bool {
        let Some(before) = before else {
            return false;
        };
        if before.alive() >= self.limit() {
            self.metrics.compensated();
            #[cfg(feature = "tracing")]
            tracing::debug!(
                lane = self.settings.lane.name(),
                threads = before.alive() + 1,
                budget = self.limit(),
                "sluice: a thread beyond the budget, for blocked workers"
            );
        }
        self.metrics.peak_threads(before.alive() + 1);
        let core = Arc::clone(self);
        let spawned = thread::spawn_named(
            self.settings.thread_name.clone(),
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
    fn vacate(&self, vacated: Vacated) {
        debug_assert_eq!(vacated.lane(), self.settings.lane);
        vacated.account();
        self.release_slot();
    }

    /// Gives one reserved slot back (also for a reservation refused as closed).
    pub(crate) fn release_slot(&self) {
        let prev = self.depth.fetch_sub(1, Ordering::SeqCst);
        if self.is_bounded() && self.room_waiters.load(Ordering::SeqCst) > 0 {
            let _g = self.room.lock().unwrap_or_else(|p| p.into_inner());
            self.room_cv.notify_all();
        }
        if self.is_bounded() {
            self.waiters.wake_front();
        }
        if prev == 1 {
            self.check_saturation();
        }
    }

    /// A queued task was cancelled, expired or abandoned by someone other
    /// than a worker.
    pub(crate) fn on_aborted(&self, vacated: Vacated, why: Aborted) {
        self.vacate(vacated);
        match why {
            Aborted::Cancelled => self.metrics.cancelled(),
            Aborted::Expired => self.metrics.expired(),
            Aborted::Abandoned => self.metrics.abandoned(),
        }
    }

    /// Re-evaluates the saturation clock. The predicate is re-read after the
    /// clock changes (`Saturation::update`), so a stale reading cannot leave
    /// an interval open on an idle lane.
    fn check_saturation(&self) {
        self.metrics.saturation.update(|| {
            // Counters first, then `depth` (see `on_blocked`).
            let busy = self.park.counters().busy();
            busy >= self.spawn_limit() && self.depth() > 0
        });
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
        let _hooks = crate::hooks::ThreadScope::enter(&self.settings.hooks);
        // Checkpoints yield only under SCHED_IDLE (checkpoint.rs). Not
        // under loom: its atomics may not outlive a model in a thread-local.
        #[cfg(not(loom))]
        crate::checkpoint::worker_started(match (&self.guard, self.settings.sched) {
            (Some(g), _) => crate::checkpoint::Yields::Unpromoted(Arc::clone(&g.promoted)),
            (None, crate::CpuSched::Idle) => crate::checkpoint::Yields::Always,
            (None, _) => crate::checkpoint::Yields::Never,
        });
        // Under loom every model thread shares one OS thread: leave it alone.
        #[cfg(not(loom))]
        {
            // Linux keeps a nice value per thread; a new thread inherits its
            // creator's. A worker only ever lowers its priority: the lane's
            // nice value, or the one it was born with if that is higher (a
            // process started under `nice -n 19` keeps its workers at 19,
            // even where root could raise them).
            let tid = Some(rustix::thread::gettid());
            let born = rustix::process::getpriority_process(tid).unwrap_or(0);
            set_sched(self.settings.sched);
            // Set even when it equals `born`: `set_sched` may have passed
            // through nice 0. Raising a nice value needs no privilege, so
            // this cannot fail with EACCES; if it fails anyway, the worker
            // runs at the process's priority, as every other pool does.
            let _ = rustix::process::setpriority_process(tid, self.settings.nice.max(born));
        }
        let _pinned = self.settings.pin.as_deref().and_then(pin_current);
        let shard = self.metrics.shards.lease();
        let slot = self.settings.adaptive.then(|| self.register_slot());
        let slot = slot.as_deref();
        // Born counted as alive + searching by `spawn_worker`.
        let mut woken = false;
        loop {
            // SEARCHING
            let Some(job) = self.search() else {
                if std::mem::take(&mut woken) {
                    // Woken for work that pop cannot see yet (a submitter
                    // between its reservation and its push): let it run,
                    // then search again. Only here: a worker that finds its
                    // task keeps the core it was woken onto, where a yield
                    // would hand it back to whatever it just preempted.
                    thread::yield_now();
                    continue;
                }
                // IDLE
                match self.park.sleep(
                    self.settings.keep_alive,
                    || self.depth.load(Ordering::SeqCst) > 0,
                    |c| c.alive() > self.spawn_limit(),
                ) {
                    Wake::Search => {
                        woken = true;
                        continue;
                    }
                    Wake::Exit => {
                        self.on_exit(slot);
                        return;
                    }
                }
            };
            // CLAIM: the task leaves `Queued` and gives its slot back
            // (`depth -= 1`) while this worker still counts as searching; only
            // then does the worker turn busy (`Hooks::started` calls
            // `turn_busy`). A task cancelled or expired since it was pushed
            // is not work found: search on.
            if !self.execute(&job, &shard, slot, true) {
                continue;
            }
            // BUSY: run tasks back to back without touching the counters.
            loop {
                // Over the spawn limit (shrunk, or blocked workers woke up):
                // this thread's task is done, so it is the one to go.
                if self.park.try_retire_busy(self.spawn_limit()) {
                    if self.depth() > 0 {
                        self.notify_or_spawn();
                    }
                    self.on_exit(slot);
                    return;
                }
                match self.pop_live() {
                    Some(next) => {
                        self.execute(&next, &shard, slot, false);
                    }
                    None => break,
                }
            }
            self.park.no_work_found();
            self.check_saturation();
        }
    }

    /// Runs one popped task: fails it if its deadline passed, else claims
    /// it, runs it and records its queue wait and run time. `searching`:
    /// the worker still counts as searching, and turns busy when its claim
    /// succeeds. True if the task ran (this worker claimed it); false if it
    /// was cancelled first or had expired.
    fn execute(
        self: &Arc<Self>,
        job: &Arc<dyn Job>,
        shard: &WorkerShard,
        slot: Option<&WorkerSlot>,
        searching: bool,
    ) -> bool {
        let header = job.header();
        if header.deadline.is_some() && header.is_expired(Instant::now()) {
            if let TransitionToAborted::Aborted(vacated) = job.abort(TaskError::DeadlineExceeded) {
                self.vacate(vacated);
                shard.expired();
            }
            return false;
        }
        let outcome = job.run(&mut Hooks {
            lane: self,
            turn_busy: searching,
            slot,
            shard,
            queued_at: header.queued_at,
            started_at: 0,
        });
        outcome != RunOutcome::NotQueued
    }

    /// The searching worker claimed a task (its slot is already given back):
    /// searching → busy. If it was the last searcher and more is queued,
    /// hand the search on, or a burst would run one task at a time. `depth`
    /// no longer counts the task this worker holds, so any count is work
    /// nobody has taken.
    fn turn_busy(self: &Arc<Self>) {
        let before = self.park.work_found();
        if self.guard.is_some() {
            // The guard samples a lane while it computes. Busy is raised
            // just above (the Dekker pair with the monitor's
            // `try_deactivate`, which keeps it running while any worker is
            // busy), so one kick per busy spell is enough: one load when
            // the monitor already runs.
            self.monitor.kick();
        }
        if before.searching() == 1 && self.depth() > 0 {
            self.notify_or_spawn();
        }
        self.check_saturation();
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
        self.waiters.wake_all();
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
            if let TransitionToAborted::Aborted(vacated) = job.abort(err.clone()) {
                self.on_aborted(vacated, Aborted::Abandoned);
                n += 1;
            }
        }
        n
    }

    // ===== blocking compensation =====

    /// Registers this worker thread for compensation: its slot (for the
    /// monitor) and the thread-local that [`crate::blocking`] reads.
    fn register_slot(self: &Arc<Self>) -> Arc<WorkerSlot> {
        let slot = Arc::new(WorkerSlot {
            state: AtomicU8::new(COMPUTING),
            task_started: AtomicU64::new(0),
            section_started: AtomicU64::new(0),
            schedstat: if self.settings.detect || self.guard.is_some() {
                Schedstat::open_current()
            } else {
                None
            },
            tid: current_tid(),
        });
        {
            let mut slots = self.slots.lock().unwrap_or_else(|p| p.into_inner());
            slots.push(Arc::clone(&slot));
            // Under the lock the monitor holds while it moves the lane's
            // workers: this worker joins them under the lane's policy now.
            // Set either way: a thread inherits its creator's policy, and
            // a worker started by an idle worker (compensation) is idle.
            if let Some(g) = &self.guard {
                self.guard_set(g, slot.tid, g.promoted.load(Ordering::SeqCst));
            }
        }
        CURRENT.with(|c| {
            *c.borrow_mut() = Some(Current {
                lane: Arc::clone(self),
                slot: Arc::clone(&slot),
            })
        });
        slot
    }

    /// A guarded lane starves (`promote`) or has the cores again: moves
    /// every registered worker to `SCHED_OTHER` or `SCHED_IDLE`. Under the
    /// `slots` lock, so each tid belongs to a live worker of this lane.
    pub(crate) fn guard_move(&self, promote: bool) {
        let Some(g) = &self.guard else { return };
        let slots = self.slots.lock().unwrap_or_else(|p| p.into_inner());
        g.promoted.store(promote, Ordering::SeqCst);
        if promote {
            g.promotions.fetch_add(1, Ordering::Relaxed);
        }
        for slot in slots.iter() {
            self.guard_set(g, slot.tid, promote);
        }
    }

    /// Moves one worker (the caller holds `slots`'s lock, and `tid` is in
    /// `slots`). Promoted: its nice value is lowered first (a thread under
    /// `SCHED_IDLE` may leave it only at a nice value the process may
    /// set), then the policy; where the lower nice value is refused, the
    /// worker still leaves `SCHED_IDLE` at the lane's. Back to
    /// `SCHED_IDLE`: the policy, then the lane's nice value again (raising
    /// one needs no privilege).
    fn guard_set(&self, g: &Guard, tid: i32, promote: bool) {
        #[cfg(not(loom))]
        {
            let pid = rustix::process::Pid::from_raw(tid);
            let nice = |n: i32| rustix::process::setpriority_process(pid, n).is_ok();
            let ok = if promote {
                let _ = nice(g.promoted_nice);
                sluice_sched::set_policy(tid, sluice_sched::Policy::Other).is_ok()
            } else {
                sluice_sched::set_policy(tid, sluice_sched::Policy::Idle).is_ok()
                    && nice(g.idle_nice)
            };
            if !ok {
                g.refused.fetch_add(1, Ordering::Relaxed);
            }
        }
        #[cfg(loom)]
        let _ = (g, tid, promote);
    }

    /// The worker thread leaves (it is no longer counted alive).
    fn on_exit(&self, slot: Option<&WorkerSlot>) {
        if let Some(slot) = slot {
            CURRENT.with(|c| c.borrow_mut().take());
            self.slots
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .retain(|s| !std::ptr::eq(&**s, slot));
        }
        self.notify_gate();
    }

    /// A worker was found blocked (by itself or by the monitor) and counted:
    /// hand queued work on, to a returning thread, a sleeper or a new one.
    pub(crate) fn on_blocked(self: &Arc<Self>) {
        self.notify_gate();
        // As in `push`: a searcher will take the queued work (and, as the
        // last searcher turning busy, hand the search on). The counters are
        // read first: a worker claims its task before it stops searching, so
        // with no searcher seen, `depth` holds no task a worker has taken.
        if self.park.counters().searching() == 0 && self.depth() > 0 {
            self.notify_or_spawn();
        }
    }

    /// Counts `slot` blocked by moving it `from` → `to` (the monitor's
    /// only transitions into a counted state). True if this call did.
    fn count_blocked(self: &Arc<Self>, slot: &WorkerSlot, from: u8, to: u8) -> bool {
        // Raised first: the worker lowers it only after leaving `to`.
        self.blocked.fetch_add(1, Ordering::SeqCst);
        if slot
            .state
            .compare_exchange(from, to, Ordering::SeqCst, Ordering::SeqCst)
            .is_err()
        {
            self.blocked.fetch_sub(1, Ordering::SeqCst);
            return false;
        }
        self.on_blocked();
        true
    }

    /// The monitor saw `slot`'s task `task` waiting without a section: count
    /// it blocked. True if this call did.
    pub(crate) fn mark_detected(self: &Arc<Self>, slot: &WorkerSlot, task: u64) -> bool {
        if slot.task_started.load(Ordering::SeqCst) != task {
            return false;
        }
        let done = self.count_blocked(slot, COMPUTING, DETECTED);
        if done {
            self.metrics.detected();
        }
        done
    }

    /// The monitor saw `slot` in a section for longer than the grace: count
    /// it blocked. True if this call did.
    pub(crate) fn promote_declared(self: &Arc<Self>, slot: &WorkerSlot) -> bool {
        self.count_blocked(slot, DECLARED, COUNTED)
    }

    /// A detected task computes again (monitor) or ended (worker): uncount it.
    pub(crate) fn unmark_detected(&self, slot: &WorkerSlot) -> bool {
        if slot
            .state
            .compare_exchange(DETECTED, COMPUTING, Ordering::SeqCst, Ordering::SeqCst)
            .is_ok()
        {
            self.blocked.fetch_sub(1, Ordering::SeqCst);
            self.shed_surplus();
            true
        } else {
            false
        }
    }

    /// `blocked` went down: threads above the spawn limit that sleep now
    /// would otherwise wait out their keep-alive; wake them to exit (busy
    /// ones retire after their task).
    fn shed_surplus(&self) {
        let c = self.park.counters();
        if c.sleeping() > 0 && c.alive() > self.spawn_limit() {
            self.park.wake_all();
        }
    }

    /// Wakes `Cpu` threads waiting at the gate, if any, to re-check it.
    fn notify_gate(&self) {
        if self.returning.load(Ordering::SeqCst) > 0 {
            let _g = self.gate.lock().unwrap_or_else(|p| p.into_inner());
            self.gate_cv.notify_all();
        }
    }

    /// `Cpu` lane: the calling worker leaves a blocking section. It computes
    /// again only once the lane's threads that are neither blocked nor
    /// waiting here, itself included, fit the budget; meanwhile surplus
    /// threads retire as their tasks end (`try_retire_busy`) and surplus
    /// sleepers exit (woken here to see it).
    fn return_to_compute(&self) {
        let mut g = self.gate.lock().unwrap_or_else(|p| p.into_inner());
        self.returning.fetch_add(1, Ordering::SeqCst);
        self.blocked.fetch_sub(1, Ordering::SeqCst);
        loop {
            let alive = self.park.counters().alive();
            let blocked = self.blocked.load(Ordering::SeqCst);
            let returning = self.returning.load(Ordering::SeqCst);
            if alive - blocked - returning < self.limit() {
                self.returning.fetch_sub(1, Ordering::SeqCst);
                return;
            }
            self.park.wake_all();
            g = self
                .gate_cv
                .wait_timeout(g, Duration::from_millis(1))
                .unwrap_or_else(|p| p.into_inner())
                .0;
        }
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

/// Counts and times one task for a lanes-policy worker.
struct Hooks<'a> {
    lane: &'a Arc<LaneCore>,
    /// The worker is searching: the claim turns it busy.
    turn_busy: bool,
    slot: Option<&'a WorkerSlot>,
    shard: &'a WorkerShard,
    queued_at: u64,
    started_at: u64,
}

impl RunHooks for Hooks<'_> {
    fn started(&mut self, vacated: Vacated) {
        // The claim: the slot first, then (a searching worker) busy.
        self.lane.vacate(vacated);
        if std::mem::take(&mut self.turn_busy) {
            self.lane.turn_busy();
        }
        // Read for every task: the checkpoint's quantum starts here too.
        self.started_at = clock::now();
        crate::checkpoint::task_started(self.started_at);
        if let Some(slot) = self.slot {
            slot.task_started
                .store(self.started_at.max(1), Ordering::SeqCst);
        }
        if self.lane.metrics.timed {
            self.shard
                .started(clock::nanos_between(self.queued_at, self.started_at), true);
        } else {
            self.shard.started(0, false);
        }
    }

    fn finished(&mut self, panicked: bool) {
        if let Some(slot) = self.slot {
            slot.task_started.store(0, Ordering::SeqCst);
            if slot.state.load(Ordering::SeqCst) == DETECTED {
                self.lane.unmark_detected(slot);
            }
        }
        let timed = self.lane.metrics.timed;
        let run_ns = if timed {
            clock::nanos_between(self.started_at, clock::now())
        } else {
            0
        };
        self.shard.finished(run_ns, panicked, timed);
    }
}

/// The adaptive worker running on this thread, for [`crate::blocking`].
struct Current {
    lane: Arc<LaneCore>,
    slot: Arc<WorkerSlot>,
}

// loom's `thread_local!` takes no `const { }` initializer.
#[allow(clippy::missing_const_for_thread_local)]
mod current {
    use super::Current;
    crate::loom::thread_local! {
        pub(super) static CURRENT: std::cell::RefCell<Option<Current>> = std::cell::RefCell::new(None);
    }
}
use current::CURRENT;

/// A blocking section of the current worker, counted in its lane's
/// `blocked` until dropped.
pub(crate) struct BlockingSection {
    lane: Arc<LaneCore>,
    slot: Arc<WorkerSlot>,
}

/// Under loom the monitor does not run, so a section is counted blocked as
/// it begins: the models check the counting protocol (the same CAS as the
/// monitor's promotion) without the grace.
const COUNT_AT_ONCE: bool = cfg!(loom);

/// Enters a blocking section if this thread is a worker of an adaptive lane
/// and not already in one (nested sections count once).
pub(crate) fn enter_blocking() -> Option<BlockingSection> {
    CURRENT.with(|c| {
        let c = c.borrow();
        let cur = c.as_ref()?;
        let state = &cur.slot.state;
        loop {
            match state.load(Ordering::SeqCst) {
                DECLARED | COUNTED => return None,
                DETECTED => {
                    // Already counted by the monitor: the section takes it over.
                    if state
                        .compare_exchange(DETECTED, COUNTED, Ordering::SeqCst, Ordering::SeqCst)
                        .is_ok()
                    {
                        break;
                    }
                }
                _ if COUNT_AT_ONCE => {
                    // The monitor's promotion, done by the worker itself.
                    if cur.lane.count_blocked(&cur.slot, COMPUTING, COUNTED) {
                        break;
                    }
                }
                _ => {
                    cur.slot
                        .section_started
                        .store(clock::now().max(1), Ordering::SeqCst);
                    if state
                        .compare_exchange(COMPUTING, DECLARED, Ordering::SeqCst, Ordering::SeqCst)
                        .is_ok()
                    {
                        break;
                    }
                }
            }
        }
        cur.lane.metrics.declared();
        Some(BlockingSection {
            lane: Arc::clone(&cur.lane),
            slot: Arc::clone(&cur.slot),
        })
    })
}

impl Drop for BlockingSection {
    fn drop(&mut self) {
        // Only this thread moves a slot out of DECLARED or COUNTED.
        let was = self.slot.state.swap(COMPUTING, Ordering::SeqCst);
        if was != COUNTED {
            // Never counted: the section ended within the grace.
            return;
        }
        if self.lane.settings.lane == Lane::Cpu {
            self.lane.return_to_compute();
        } else {
            self.lane.blocked.fetch_sub(1, Ordering::SeqCst);
            self.lane.shed_surplus();
        }
    }
}

/// Sets the calling worker's scheduling policy (`Normal`: left as it is),
/// before its nice value is raised. Moving to `SCHED_BATCH` or `SCHED_IDLE`
/// needs no privilege; if the kernel refuses anyway, the worker keeps the
/// process's policy, which is what every other pool does.
#[cfg(not(loom))]
fn set_sched(sched: crate::CpuSched) {
    use thread_priority::unix::{
        NormalThreadSchedulePolicy, ThreadSchedulePolicy, set_thread_priority_and_policy,
        thread_native_id,
    };
    use thread_priority::{ThreadPriority, ThreadPriorityValue};
    let policy = match sched {
        // A guarded worker moves to `SCHED_IDLE` as it registers.
        crate::CpuSched::Normal | crate::CpuSched::Guarded => return,
        crate::CpuSched::Batch => NormalThreadSchedulePolicy::Batch,
        crate::CpuSched::Idle => NormalThreadSchedulePolicy::Idle,
    };
    // The crate sets the policy, then a nice value: 48 of its 0..=99 scale
    // is nice 0 (and `Min` is the only value `SCHED_IDLE` takes, also nice
    // 0), so the worker's nice stays the process's; the caller raises it
    // next. An error after the policy was set (a process started at a
    // positive nice value may not go back to 0 unprivileged) leaves the
    // policy in force.
    let priority = match policy {
        NormalThreadSchedulePolicy::Idle => ThreadPriority::Min,
        _ => match ThreadPriorityValue::try_from(48u8) {
            Ok(v) => ThreadPriority::Crossplatform(v),
            Err(_) => return,
        },
    };
    let _ = set_thread_priority_and_policy(
        thread_native_id(),
        priority,
        ThreadSchedulePolicy::Normal(policy),
    );
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
        sched: crate::CpuSched::Normal,
        adaptive: true,
        max_threads: budget::default_max_threads(lane, cores),
        detect: lane != Lane::Cpu,
        pin: None,
        thread_name: lane.thread_name().to_string(),
        hooks: crate::hooks::Hooks::default(),
    }
}
