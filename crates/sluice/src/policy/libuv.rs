//! The libuv policy: libuv 1.46's `src/threadpool.c`, reproduced on sluice's
//! tasks and counters so the lab can show the old behaviour on the same code.
//!
//! Read it beside `threadpool.c`; the names are libuv's:
//!
//! - One `mutex` and one `cond` guard everything in [`State`]:
//!   `idle_threads`, `slow_io_work_running`, `nthreads`, `wq`,
//!   `slow_io_pending_wq` and the `run_slow_work_message` sentinel.
//! - [`Libuv::post`] is `post()`: `Cpu` and `FastIo` work (`UV__WORK_CPU`,
//!   `UV__WORK_FAST_IO`) go to the tail of the one FIFO `wq`. `SlowIo` work
//!   (`UV__WORK_SLOW_IO`) goes to `slow_io_pending_wq`, and a single sentinel,
//!   `run_slow_work_message`, stands for all of it in `wq`.
//! - [`worker`] is `worker()`. It waits while `wq` is empty, or holds only the
//!   sentinel and `slow_io_work_running >= slow_work_thread_threshold()`.
//!   A worker that dequeues the sentinel at the threshold puts it back at the
//!   tail; otherwise it runs one slow item and, if more remain, re-posts the
//!   sentinel. So at most `(nthreads + 1) / 2` threads run slow I/O while
//!   other work passes it (`compat::slow_work_thread_threshold`).
//! - Lazy start (`uv_once(&once, init_once)` in `uv__work_submit`): no thread
//!   exists until the first submission, which reads the size once
//!   (`init_threads()`, `compat::libuv_nthreads`) and starts all threads with
//!   8 MiB stacks (`compat::LIBUV_STACK_SIZE`). A size set later is ignored,
//!   exactly as in libuv.
//! - Cancel (`uv__work_cancel`) removes a still-queued request from `wq` or
//!   `slow_io_pending_wq` under `mutex`; a request already taken by a worker
//!   cannot be cancelled.
//!
//! Where sluice differs, on purpose and only outside libuv's own behaviour:
//! - Shutdown: libuv only stops at process exit (`cleanup()` posts
//!   `exit_message`, and workers leave whatever is queued behind it). Here a
//!   closed pool's workers drain every queued request first, then exit, so
//!   no accepted task is lost.
//! - Completion: libuv hands results back through the loop's `wq_async`;
//!   here the worker completes the task's handle directly.
//! - Thread names: libuv 1.46 leaves them unnamed; here they are
//!   `sluice-libuv`, so `/proc` tells them apart from the lanes policy's.

use crate::choice::Policy;
use crate::clock;
use crate::compat;
use crate::error::ConfigError;
use crate::lane::Lane;
use crate::loom::Unpoison;
use crate::loom::lock;
use crate::loom::sync::{Condvar, Mutex, MutexGuard};
use crate::loom::thread;
use crate::metrics::LaneSnapshot;
use crate::metrics::Snapshot;
use crate::metrics::counters::{Gauges, LaneMetrics, ShardLease, WorkerShard};
use crate::policy::{Admit, LaneShutdown, Refused, Scheduler, Slot, Waiters};
use crate::task::state::{Job, RunHooks, TransitionToAborted};
use crate::task::{Aborted, TaskError, Vacated};
use std::collections::VecDeque;
use std::sync::Arc;
use std::time::Instant;

/// Name of the compat policy's worker threads.
pub(crate) const THREAD_NAME: &str = "sluice-libuv";

/// An entry of `wq`.
enum Entry {
    /// A `Cpu` or `FastIo` request.
    Work(Arc<dyn Job>),
    /// libuv's `run_slow_work_message`: "there is slow work in
    /// `slow_io_pending_wq`".
    RunSlowWorkMessage,
}

/// libuv's statics, all guarded by `mutex`.
struct State {
    nthreads: usize,
    idle_threads: usize,
    slow_io_work_running: usize,
    wq: VecDeque<Entry>,
    slow_io_pending_wq: VecDeque<Arc<dyn Job>>,
    /// `!QUEUE_EMPTY(&run_slow_work_message)`: the sentinel is linked into `wq`.
    run_slow_work_message_queued: bool,
    // ----- sluice's additions: shutdown and gauges -----
    /// Set by `close`; workers exit once nothing is queued.
    exiting: bool,
    /// Worker threads alive.
    alive: usize,
    /// Threads running a request.
    busy: usize,
    /// Requests queued per lane (in `wq` or `slow_io_pending_wq`).
    queued: [usize; 3],
}

/// The libuv-compatible pool.
pub(crate) struct Libuv {
    shared: Arc<Shared>,
}

struct Shared {
    /// `Policy::Libuv { threads }`; `None` reads `UV_THREADPOOL_SIZE` at the
    /// first submission.
    configured: Option<usize>,
    stack_size: usize,
    /// libuv's `once`: true once `init_threads` ran.
    once: Mutex<bool>,
    /// libuv's `sem` in `init_threads`: workers started so far.
    ready: Mutex<usize>,
    ready_cv: Condvar,
    mutex: Mutex<State>,
    cond: Condvar,
    /// Signalled when the last worker exits.
    exited: Condvar,
    metrics: [LaneMetrics; 3],
    threads: Mutex<Vec<thread::JoinHandle<()>>>,
}

impl Libuv {
    pub(crate) fn new(configured: Option<usize>, stack_size: usize, timed: bool) -> Self {
        Libuv {
            shared: Arc::new(Shared {
                configured,
                stack_size,
                once: Mutex::new(false),
                ready: Mutex::new(0),
                ready_cv: Condvar::new(),
                mutex: Mutex::new(State {
                    nthreads: 0,
                    idle_threads: 0,
                    slow_io_work_running: 0,
                    wq: VecDeque::new(),
                    slow_io_pending_wq: VecDeque::new(),
                    run_slow_work_message_queued: false,
                    exiting: false,
                    alive: 0,
                    busy: 0,
                    queued: [0; 3],
                }),
                cond: Condvar::new(),
                exited: Condvar::new(),
                metrics: [
                    LaneMetrics::new(timed),
                    LaneMetrics::new(timed),
                    LaneMetrics::new(timed),
                ],
                threads: Mutex::new(Vec::new()),
            }),
        }
    }

    /// The pool size, once started (0 before the first submission).
    pub(crate) fn nthreads(&self) -> usize {
        self.shared.lock().nthreads
    }

    pub(crate) fn is_closed(&self) -> bool {
        self.shared.lock().exiting
    }

    /// `uv__work_submit` + `post()`.
    pub(crate) fn post(&self, job: Arc<dyn Job>) {
        let lane = job.header().lane;
        // uv_once(&once, init_once): the size is read now, once.
        self.init_once();
        let mut st = self.shared.lock();
        // Admitted, so counted: whatever happens next (a close that raced
        // this post, no thread at all) is one of the balance's outcomes.
        self.shared.metrics[lane.index()].submitted(1);
        if st.exiting || st.alive == 0 {
            let err = if st.exiting {
                // The pool closed between admission and now.
                TaskError::Shutdown
            } else {
                // init_threads could start no thread at all (libuv aborts here).
                TaskError::NoThread("no libuv-policy worker thread could be started".into())
            };
            drop(st);
            if let TransitionToAborted::Aborted(vacated) = job.abort(err) {
                // Never linked into a queue: nothing to unlink.
                vacated.account();
                self.shared.metrics[lane.index()].abandoned();
            }
            return;
        }
        st.queued[lane.index()] += 1;
        let q = if lane == Lane::SlowIo {
            // Insert into a separate queue.
            st.slow_io_pending_wq.push_back(job);
            if st.run_slow_work_message_queued {
                // Running slow I/O tasks is already scheduled => Nothing to do
                // here. The worker that runs said other task will schedule
                // this one as well.
                self.shared.update_saturation(&st);
                return;
            }
            st.run_slow_work_message_queued = true;
            Entry::RunSlowWorkMessage
        } else {
            Entry::Work(job)
        };
        st.wq.push_back(q);
        if st.idle_threads > 0 {
            self.shared.cond.notify_one();
        }
        self.shared.update_saturation(&st);
    }

    /// `init_once()` / `init_threads()`: size the pool, start every thread,
    /// and wait until each has started (libuv's `uv_sem_wait` loop), so
    /// that all of them exist, named, when the first submission returns.
    fn init_once(&self) {
        let mut once = lock(&self.shared.once);
        if *once {
            return;
        }
        *once = true;
        let nthreads = self.shared.configured.unwrap_or_else(|| {
            let val = std::env::var_os("UV_THREADPOOL_SIZE");
            compat::libuv_nthreads(val.as_ref().map(|v| v.to_string_lossy()).as_deref())
        });
        self.shared.lock().nthreads = nthreads;
        let mut threads = self.shared.threads.lock().unpoisoned();
        let mut started = 0;
        for _ in 0..nthreads {
            let shared = Arc::clone(&self.shared);
            // Counted alive before it runs, so a worker can never see itself
            // as the last one before the others are counted.
            self.shared.lock().alive += 1;
            match thread::spawn_named(THREAD_NAME.to_string(), self.shared.stack_size, move || {
                worker(shared)
            }) {
                Ok(h) => {
                    threads.push(h);
                    started += 1;
                }
                Err(_) => {
                    self.shared.lock().alive -= 1;
                    for m in &self.shared.metrics {
                        m.spawn_failed();
                    }
                }
            }
        }
        // libuv aborts the process if a thread cannot start; here the pool
        // runs with the threads it got, and the threshold follows them.
        self.shared.lock().nthreads = started;
        let mut ready = lock(&self.shared.ready);
        while *ready < started {
            ready = self.shared.ready_cv.wait(ready).unpoisoned();
        }
    }

    /// `uv__work_cancel`, after the task's cell already moved to `Done`:
    /// unlink it from whichever queue still holds it.
    pub(crate) fn on_aborted(&self, job: &dyn Job, vacated: Vacated, why: Aborted) {
        // The slot is `queued[lane]`, taken down below when the entry is
        // unlinked (or already by the worker that dequeued it).
        vacated.account();
        let lane = job.header().lane;
        let target = job as *const dyn Job;
        let mut st = self.shared.lock();
        let removed = if lane == Lane::SlowIo {
            let pos = st
                .slow_io_pending_wq
                .iter()
                .position(|j| std::ptr::addr_eq(Arc::as_ptr(j), target));
            pos.and_then(|i| st.slow_io_pending_wq.remove(i)).is_some()
        } else {
            let pos = st.wq.iter().position(
                |e| matches!(e, Entry::Work(j) if std::ptr::addr_eq(Arc::as_ptr(j), target)),
            );
            pos.and_then(|i| st.wq.remove(i)).is_some()
        };
        // If a worker dequeued it first, that worker already took it off
        // `queued` and will find its cell done and skip it.
        if removed {
            st.queued[lane.index()] -= 1;
        }
        self.shared.update_saturation(&st);
        drop(st);
        let m = &self.shared.metrics[lane.index()];
        match why {
            Aborted::Cancelled => m.cancelled(),
            Aborted::Expired => m.expired(),
            Aborted::Abandoned => m.abandoned(),
        }
    }

    /// Refuses new work; workers drain the queues, then exit.
    fn close(&self) {
        let mut st = self.shared.lock();
        st.exiting = true;
        self.shared.cond.notify_all();
    }

    /// Waits for the workers to exit until `deadline`, then fails whatever
    /// is still queued.
    fn finish_shutdown(&self, deadline: Instant) -> LaneShutdown {
        let mut st = self.shared.lock();
        while st.alive > 0 {
            let now = Instant::now();
            if now >= deadline {
                break;
            }
            st = self
                .shared
                .exited
                .wait_timeout(st, deadline - now)
                .unpoisoned()
                .0;
        }
        if st.alive == 0 {
            drop(st);
            let handles: Vec<_> = std::mem::take(&mut *self.shared.threads.lock().unpoisoned());
            for h in handles {
                let _ = h.join();
            }
            return LaneShutdown::default();
        }
        let mut left: Vec<Arc<dyn Job>> = st
            .wq
            .drain(..)
            .filter_map(|e| match e {
                Entry::Work(j) => Some(j),
                Entry::RunSlowWorkMessage => None,
            })
            .collect();
        left.extend(st.slow_io_pending_wq.drain(..));
        st.run_slow_work_message_queued = false;
        st.queued = [0; 3];
        let still_running = st.busy as u64;
        drop(st);
        let mut abandoned = 0;
        for job in left {
            if let TransitionToAborted::Aborted(vacated) = job.abort(TaskError::Shutdown) {
                // `queued` was cleared above.
                vacated.account();
                self.shared.metrics[job.header().lane.index()].abandoned();
                abandoned += 1;
            }
        }
        LaneShutdown {
            abandoned,
            still_running,
        }
    }

    fn snapshot(&self, lane: Lane) -> LaneSnapshot {
        let t = self.shared.metrics[lane.index()].totals();
        let st = self.shared.lock();
        let limit = match lane {
            Lane::SlowIo => compat::slow_work_thread_threshold(st.nthreads),
            Lane::Cpu | Lane::FastIo => st.nthreads,
        };
        t.snapshot(Gauges {
            guard: None,
            lane,
            limit: limit as u64,
            queue_bound: None,
            queue_depth: st.queued[lane.index()] as u64,
            reservations_waiting: 0,
            threads: None,
            adaptive: None,
        })
    }

    /// (alive, idle) threads.
    pub(crate) fn threads(&self) -> (usize, usize) {
        let st = self.shared.lock();
        (st.alive, st.idle_threads)
    }
}

impl Scheduler for Libuv {
    fn admit(&self, lane: Lane, _how: Admit) -> Result<Slot, Refused> {
        // libuv's queue is unbounded; a closed pool refuses.
        if self.is_closed() {
            return Err(Refused::Closed);
        }
        Ok(Slot {
            lane,
            was_empty: false,
            first: false,
        })
    }

    fn enqueue(&self, slot: Slot, job: Arc<dyn Job>) {
        debug_assert_eq!(slot.lane, job.header().lane);
        self.post(job);
    }

    fn release(&self, _slot: Slot) {
        // libuv's queue is unbounded: admission reserved nothing.
    }

    fn waiters(&self, _lane: Lane) -> Option<&Waiters> {
        None
    }

    fn limit(&self, lane: Lane) -> usize {
        match lane {
            Lane::SlowIo => compat::slow_work_thread_threshold(self.nthreads()),
            Lane::Cpu | Lane::FastIo => self.nthreads(),
        }
    }

    fn queued(&self, lane: Lane) -> usize {
        self.shared.lock().queued[lane.index()]
    }

    fn resize(&self, lane: Lane, _n: usize) -> Result<(), ConfigError> {
        Err(ConfigError::Unsupported {
            setting: format!("resize(Lane::{lane:?})"),
            policy: "libuv",
            why: "libuv reads its size once, at the first submission".to_string(),
        })
    }

    fn snapshot(&self) -> Snapshot {
        let (alive, idle) = self.threads();
        Snapshot {
            policy: Policy::Libuv {
                threads: self.shared.configured,
            },
            cpu_sched: None,
            threads_alive: alive as u64,
            threads_idle: idle as u64,
            lanes: Lane::ALL
                .iter()
                .map(|&l| Libuv::snapshot(self, l))
                .collect(),
        }
    }

    fn close(&self) {
        Libuv::close(self);
    }

    fn finish_shutdown(&self, deadline: Instant) -> LaneShutdown {
        Libuv::finish_shutdown(self, deadline)
    }

    fn abort(&self, job: &dyn Job, vacated: Vacated, why: Aborted) {
        self.on_aborted(job, vacated, why);
    }
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, State> {
        lock(&self.mutex)
    }

    fn threshold(st: &State) -> usize {
        compat::slow_work_thread_threshold(st.nthreads)
    }

    /// A lane is saturated when it has queued work and no thread may take it:
    /// all threads busy, or (slow I/O) the threshold reached.
    fn update_saturation(&self, st: &State) {
        let all_busy = st.busy >= st.nthreads;
        for lane in Lane::ALL {
            let blocked = all_busy
                || (lane == Lane::SlowIo && st.slow_io_work_running >= Self::threshold(st));
            self.metrics[lane.index()]
                .saturation
                .update(|| st.queued[lane.index()] > 0 && blocked);
        }
    }
}

/// libuv's `worker()`.
fn worker(shared: Arc<Shared>) {
    let shards: [ShardLease<'_>; 3] = [
        shared.metrics[0].shards.lease(),
        shared.metrics[1].shards.lease(),
        shared.metrics[2].shards.lease(),
    ];
    // uv_sem_post(sem): tell init_threads this thread is up.
    {
        let mut ready = lock(&shared.ready);
        *ready += 1;
        shared.ready_cv.notify_all();
    }
    let mut st = shared.lock();
    loop {
        // `mutex` should always be locked at this point.

        // Keep waiting while either no work is present or only slow I/O
        // and we're at the threshold for that.
        while st.wq.is_empty()
            || (st.wq.len() == 1
                && matches!(st.wq[0], Entry::RunSlowWorkMessage)
                && st.slow_io_work_running >= Shared::threshold(&st))
        {
            if st.exiting && st.wq.is_empty() && st.slow_io_pending_wq.is_empty() {
                st.alive -= 1;
                if st.alive == 0 {
                    shared.exited.notify_all();
                }
                // Like libuv's exit_message, pass the news on.
                shared.cond.notify_all();
                return;
            }
            st.idle_threads += 1;
            st = shared.cond.wait(st).unpoisoned();
            st.idle_threads -= 1;
        }

        let mut is_slow_work = false;
        let job = match st.wq.pop_front() {
            Some(Entry::Work(job)) => {
                st.queued[job.header().lane.index()] -= 1;
                job
            }
            Some(Entry::RunSlowWorkMessage) => match run_slow_work(&shared, &mut st) {
                Some(job) => {
                    is_slow_work = true;
                    job
                }
                None => continue,
            },
            None => continue,
        };
        st.busy += 1;
        shared.update_saturation(&st);
        drop(st);

        execute(&shared, &job, &shards);

        // Lock `mutex` since that is expected at the start of the next iteration.
        st = shared.lock();
        st.busy -= 1;
        if is_slow_work {
            // `slow_io_work_running` is protected by `mutex`.
            st.slow_io_work_running -= 1;
        }
        shared.update_saturation(&st);
    }
}

/// What `worker()` does on dequeuing `run_slow_work_message`: the slow
/// I/O request to run now, if the threshold allows one and one is left
/// (`None`: start over, as libuv's `continue`).
fn run_slow_work(shared: &Shared, st: &mut State) -> Option<Arc<dyn Job>> {
    st.run_slow_work_message_queued = false;
    // If we're at the slow I/O threshold, re-schedule until after
    // all other work in the queue is done.
    if st.slow_io_work_running >= Shared::threshold(st) {
        st.wq.push_back(Entry::RunSlowWorkMessage);
        st.run_slow_work_message_queued = true;
        return None;
    }
    // If we encountered a request to run slow I/O work but there
    // is none to run, that means it's cancelled => Start over.
    let job = st.slow_io_pending_wq.pop_front()?;
    st.queued[Lane::SlowIo.index()] -= 1;
    st.slow_io_work_running += 1;
    // If there is more slow I/O work, schedule it to be run as well.
    if !st.slow_io_pending_wq.is_empty() {
        st.wq.push_back(Entry::RunSlowWorkMessage);
        st.run_slow_work_message_queued = true;
        if st.idle_threads > 0 {
            shared.cond.notify_one();
        }
    }
    Some(job)
}

/// `w->work(w)`, with sluice's deadline check and counters.
fn execute(shared: &Shared, job: &Arc<dyn Job>, shards: &[ShardLease<'_>; 3]) {
    let header = job.header();
    let lane = header.lane.index();
    let shard = &shards[lane];
    if header.deadline.is_some() && header.is_expired(Instant::now()) {
        if let TransitionToAborted::Aborted(vacated) = job.abort(TaskError::DeadlineExceeded) {
            // `queued` was taken down when the entry left `wq`.
            vacated.account();
            shard.expired();
        }
        return;
    }
    job.run(&mut Hooks {
        timed: shared.metrics[lane].timed,
        shard,
        queued_at: header.queued_at,
        started_at: 0,
    });
}

/// Counts and times one request for a libuv-policy worker. The queue slot
/// was already given back when the request left `wq`.
struct Hooks<'a> {
    timed: bool,
    shard: &'a WorkerShard,
    queued_at: u64,
    started_at: u64,
}

impl RunHooks for Hooks<'_> {
    fn started(&mut self, vacated: Vacated) {
        // `queued` was taken down when the entry left `wq`.
        vacated.account();
        if self.timed {
            self.started_at = clock::now();
            self.shard
                .started(clock::nanos_between(self.queued_at, self.started_at), true);
        } else {
            self.shard.started(0, false);
        }
    }

    fn finished(&mut self, panicked: bool) {
        let run_ns = if self.timed {
            clock::nanos_between(self.started_at, clock::now())
        } else {
            0
        };
        self.shard.finished(run_ns, panicked, self.timed);
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;
    use crate::task::state::Cell;

    /// `post` racing `close`: the task was admitted while the pool was open
    /// and reaches `post` after the close. It used to be counted abandoned
    /// but never submitted, so `submitted = ... + abandoned` broke.
    #[test]
    fn a_post_that_races_close_keeps_the_counters_balanced() {
        let uv = Libuv::new(Some(1), compat::LIBUV_STACK_SIZE, true);
        let slot = uv
            .admit(Lane::FastIo, Admit::Wait)
            .expect("open pool admits");
        Scheduler::close(&uv);
        let cell = Arc::new(Cell::new(Lane::FastIo, None, || 1));
        uv.enqueue(slot, cell.clone());
        assert!(cell.header().is_done());
        assert!(
            Scheduler::finish_shutdown(&uv, Instant::now() + std::time::Duration::from_secs(5))
                == LaneShutdown::default()
        );
        let l = Libuv::snapshot(&uv, Lane::FastIo);
        assert_eq!((l.submitted_total, l.abandoned_total), (1, 1));
        assert_eq!(
            l.submitted_total,
            l.queue_depth
                + l.started_total
                + l.cancelled_total
                + l.expired_total
                + l.abandoned_total
        );
    }
}
