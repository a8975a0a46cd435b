//! The submit side of a lane (admission, push, wake or spawn) and its
//! worker loop: SEARCHING, CLAIM, BUSY, IDLE (`park/README.md`); resize and
//! shutdown.

use super::LaneCore;
use super::compensation::{DETECTED, WorkerSlot};
use super::cpu_slots::pin_current;
#[cfg(not(loom))]
use super::sched::set_sched;
use crate::clock;
use crate::loom::Unpoison;
use crate::loom::dekker_load;
use crate::loom::lock;
use crate::loom::sync::atomic::Ordering;
use crate::loom::thread;
use crate::metrics::counters::WorkerShard;
use crate::park::{Counters, Wake, spin_until};
use crate::policy::{Admit, LaneShutdown, Refused, Slot};
use crate::task::state::{Job, RunHooks, RunOutcome, TransitionToAborted};
use crate::task::{Aborted, TaskError, Vacated};
use std::sync::Arc;
use std::time::Instant;

/// How long the sole searching worker of a lane spins for new work before it
/// sleeps: long enough that a submit/wait ping-pong never pays for a futex
/// wake-up, short enough that an idle pool is idle.
pub(super) const WORKER_SPIN_NANOS: u64 = 50_000;

impl LaneCore {
    // ===== submit side =====

    /// Reserves a queue slot for one task. With `wait`, a full queue blocks
    /// the caller until there is room; without, it refuses. The slot says
    /// whether the queue was empty before (the only moment a submit can start
    /// a saturated interval, see `push`).
    pub(crate) fn reserve(&self, how: Admit) -> Result<Slot, Refused> {
        let (_, prev) = self.reserve_many(1, how)?;
        Ok(Slot {
            lane: self.settings.lane,
            was_empty: prev == 0,
            first: false,
        })
    }

    /// Reserves queue slots for up to `n` tasks (at least one) with one
    /// read-modify-write of `depth`: a batch's part. Returns how many were
    /// reserved (all `n` on an unbounded lane; on a bounded one no more
    /// than its room, and at least one) and the depth before them. A full
    /// bounded queue does what `how` says, as for one task.
    pub(crate) fn reserve_many(&self, n: usize, how: Admit) -> Result<(usize, usize), Refused> {
        let n = n.max(1);
        let bound = self.settings.bound;
        let (granted, prev) = if !self.is_bounded() {
            (n, self.depth.fetch_add(n, Ordering::SeqCst))
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
                let granted = n.min(bound - cur);
                match self.depth.compare_exchange(
                    cur,
                    cur + granted,
                    Ordering::SeqCst,
                    Ordering::SeqCst,
                ) {
                    Ok(_) => break (granted, cur),
                    Err(actual) => cur = actual,
                }
            }
        };
        // Checked after the reservation: a close that this load misses comes
        // later in the SeqCst order than our increment, so the closing lane's
        // workers see depth > 0 and stay to run what we push.
        if self.park.is_closed() {
            for _ in 0..granted {
                self.release_slot();
            }
            return Err(Refused::Closed);
        }
        Ok((granted, prev))
    }

    /// Blocks until the queue is below its bound or the lane closes.
    pub(super) fn wait_for_room(&self) -> Result<(), Refused> {
        self.room_waiters.fetch_add(1, Ordering::SeqCst);
        let mut guard = lock(&self.room);
        let result = loop {
            if self.park.is_closed() {
                break Err(Refused::Closed);
            }
            // The room pair (park/README.md, "Waiting for room").
            if dekker_load(&self.depth) < self.settings.bound {
                break Ok(());
            }
            guard = self.room_cv.wait(guard).unpoisoned();
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
        self.metrics.submitted(1);
        let was_empty = self.enqueue(slot, job);
        self.hand_on(was_empty);
    }

    /// Pushes tasks whose slots were reserved, every one before the
    /// counters are read, then makes sure a worker will take them: one
    /// notification for the batch, as [`push`](Self::push) makes for one
    /// task. A woken worker searches, claims one task and, as the last
    /// searcher turning busy, wakes the next (`park/README.md`, "batches"):
    /// the wake-ups chain from worker to worker, never from the submitter.
    pub(crate) fn push_batch(
        self: &Arc<Self>,
        batch: impl ExactSizeIterator<Item = (Slot, Arc<dyn Job>)>,
    ) {
        // Counted before any is queued, as `push` counts: a worker never
        // starts a task that `submitted_total` does not hold yet.
        self.metrics.submitted(batch.len() as u64);
        let mut was_empty = false;
        for (slot, job) in batch {
            was_empty |= self.enqueue(slot, job);
        }
        self.hand_on(was_empty);
    }

    /// Queues one task whose slot was reserved (and that the caller
    /// counted as submitted); whether the queue was empty when the slot was
    /// taken.
    fn enqueue(&self, slot: Slot, job: Arc<dyn Job>) -> bool {
        let Slot {
            lane,
            was_empty,
            first,
        } = slot;
        debug_assert_eq!(lane, self.settings.lane);
        self.queue.push(job, first);
        was_empty
    }

    /// After tasks were pushed, every one of them before this reads the
    /// counters: if no worker searches, wake a sleeper or start a thread;
    /// and check saturation when the queue was empty before them.
    fn hand_on(self: &Arc<Self>, was_empty: bool) {
        let c = self.park.counters();
        if c.searching() == 0 {
            self.notify_or_spawn();
        }
        // Under a flood the queue is never empty and this is skipped.
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
    pub(super) fn spawn_worker(self: &Arc<Self>) -> bool {
        let before = self.park.try_add_worker(self.spawn_limit());
        self.start_counted(before)
    }

    /// Starts one worker thread if the lane is below its spawn limit, no
    /// worker is searching, and a task is queued and not yet claimed (see
    /// [`Park::try_add_searcher`]).
    pub(super) fn spawn_searcher(self: &Arc<Self>) -> bool {
        let before = self
            .park
            .try_add_searcher(self.spawn_limit(), || self.depth() > 0);
        self.start_counted(before)
    }

    /// Starts the thread of a worker just counted (`before`: the counters
    /// before it was; `None`: none was counted).
    pub(super) fn start_counted(self: &Arc<Self>, before: Option<Counters>) -> bool {
        let Some(before) = before else {
            return false;
        };
        if before.alive() >= self.limit() + self.neighbour_share() {
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
                let mut threads = lock(&self.threads);
                #[cfg(not(loom))]
                threads.retain(|h| !h.is_finished());
                // A promotion that came before this lock was taken did
                // not see this thread (`promote_unregistered`).
                #[cfg(not(loom))]
                if self
                    .guard
                    .as_ref()
                    .is_some_and(|g| g.promoted.load(Ordering::SeqCst))
                {
                    super::guard::promote_thread(&handle);
                }
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
    pub(super) fn vacate(&self, vacated: Vacated) {
        debug_assert_eq!(vacated.lane(), self.settings.lane);
        vacated.account();
        self.release_slot();
    }

    /// Gives one reserved slot back (also for a reservation refused as closed).
    pub(crate) fn release_slot(&self) {
        let prev = self.depth.fetch_sub(1, Ordering::SeqCst);
        if self.is_bounded() && dekker_load(&self.room_waiters) > 0 {
            let _g = lock(&self.room);
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
    pub(super) fn check_saturation(&self) {
        self.metrics.saturation.update(|| {
            // Counters first, then `depth` (see `on_blocked`).
            let busy = self.park.counters().busy();
            busy >= self.spawn_limit() && self.depth() > 0
        });
    }

    // ===== worker side =====

    /// Pops the next live task, dropping tombstones of aborted ones.
    pub(super) fn pop_live(&self) -> Option<Arc<dyn Job>> {
        loop {
            let job = self.queue.pop()?;
            if job.header().is_queued() {
                return Some(job);
            }
        }
    }

    /// SEARCHING: pop; if nothing, and this is the lane's only searcher, spin
    /// for a short while before giving up.
    pub(super) fn search(&self) -> Option<Arc<dyn Job>> {
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

    pub(super) fn run_worker(self: Arc<Self>) {
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
            let tid = sluice_sched::current_tid();
            let born = sluice_sched::nice(tid).unwrap_or(0);
            set_sched(self.settings.sched);
            // Set even when it equals `born`: `set_sched` may have passed
            // through nice 0. Raising a nice value needs no privilege, so
            // this cannot fail with EACCES; if it fails anyway, the worker
            // runs at the process's priority, as every other pool does.
            let _ = sluice_sched::set_nice(tid, self.settings.nice.max(born));
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
    pub(super) fn execute(
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
    pub(super) fn turn_busy(self: &Arc<Self>) {
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
            let _g = lock(&self.room);
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
            let handles: Vec<_> = std::mem::take(&mut *lock(&self.threads));
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
    pub(super) fn abandon_queued(&self, err: TaskError) -> u64 {
        let mut n = 0;
        while let Some(job) = self.queue.pop() {
            if let TransitionToAborted::Aborted(vacated) = job.abort(err.clone()) {
                self.on_aborted(vacated, Aborted::Abandoned);
                n += 1;
            }
        }
        n
    }
}

/// Counts and times one task for a lanes-policy worker.
pub(super) struct Hooks<'a> {
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
