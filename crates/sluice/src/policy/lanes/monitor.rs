//! The monitor: counts blocked the workers whose task waits, declared or
//! not: sections of [`crate::blocking`] that last, and tasks of the I/O
//! lanes that wait without saying so (a read of a hung NFS mount, a FIFO, a slow disk) and counts
//! them blocked, so their lane can hand its queue to another thread. Go's
//! `sysmon` does the same for goroutines stuck in a system call (`retake`).
//!
//! - **Only while needed.** No thread exists until a lane first finds every
//!   thread busy with work still queued (`LaneCore::notify_or_spawn` calls
//!   [`Monitor::kick`]). It then wakes every `tick` (200 µs, doubling up to
//!   10 ms while nothing changes) and, once no watched lane has both queued
//!   work and busy workers, parks on a condition variable without a timeout:
//!   an idle pool has no wake-ups. Deactivating is a Dekker pair with
//!   `kick`: the monitor stores `active = false`, then re-reads the lanes;
//!   a submitter raises the depth, then reads `active`.
//! - **Declared sections.** A [`crate::blocking`] section that is still
//!   running [`GRACE_NANOS`] after it began counts as blocked at once, on
//!   every adaptive lane (Go's `sysmon` retaking the P of a system call
//!   that lasts).
//! - **The rule** (I/O lanes). A task is blocked when, between two samples at least
//!   [`WINDOW`] apart, its thread got less than a tenth of the wall time on a
//!   CPU *or waiting for one* (`/proc/thread-self/schedstat`: run time plus
//!   run-queue wait), **and** its thread is asleep when the rule fires (its
//!   state in `/proc/thread-self/stat` is not `R`). The kernel adds a
//!   thread's run-queue wait to schedstat only when the thread runs again,
//!   so a worker preempted mid-task on busy cores shows no progress at all
//!   until then: without the state, every such worker was counted blocked,
//!   and its lane started a thread it did not need (on 2 cores, a burst of
//!   `fs.stat` calls started and retired 14 to 100 threads per 1,000
//!   bursts). Only sleeping (`S`, `D`) counts. A detected task that computes
//!   again is uncounted at the next sample; one that ends is uncounted by
//!   its worker.
//! - **The files.** Each worker opens its own `/proc/thread-self/schedstat`
//!   when it starts (the descriptor stays bound to that thread), moved at
//!   once above the program's numbers ([`crate::fd::above_program_numbers`]:
//!   a program's read of a number it just closed must fail as without
//!   sluice, not read a worker's file), and the
//!   monitor reads it with `pread` at offset 0: one system call per busy
//!   worker per tick, only while a lane is saturated. On the I/O lanes its
//!   `/proc/thread-self/stat` is opened the same way, and read only when the
//!   rule fires. Where the file cannot
//!   be opened (no `/proc`, a kernel without `CONFIG_SCHED_INFO`) detection
//!   is off for that worker; declared sections ([`crate::blocking`]) still
//!   compensate. This is a hot path (every few hundred µs per busy worker
//!   while a lane computes), so it reads `/proc` by hand: the `procfs`
//!   crate, which the other crates read `/proc` through, opens the file
//!   again and allocates on every read.
//! - **The guard** (`CpuSched::Guarded`). While a guarded `Cpu` lane has
//!   a busy worker, the monitor runs and, every [`GUARD_WINDOW`], sums the
//!   run time (the same files) of the workers that computed a task at both
//!   ends of the window. The lane *starves* when they ran less than a
//!   quarter of what they could: one core each, at most the process's
//!   cores, for the window. (Their run-queue wait cannot tell: the kernel
//!   adds it only when a thread runs again, so a starved worker shows
//!   none.) It then moves every worker from `SCHED_IDLE` to `SCHED_OTHER`
//!   at the process's own nice value (where the lane's checkpoints stop
//!   yielding: it keeps a thread's share against the other process), and
//!   lets the lane run twice its budget (`LaneCore::neighbour_share`: a
//!   busy core is shared per runnable thread), for a hold
//!   ([`GUARD_HOLD`]), then back, and judges the next window; a lane that
//!   starves again at once is promoted for twice the hold, up to
//!   [`GUARD_MAX_HOLD`], so a machine that stays busy costs the lane one
//!   window per hold. A lane with no busy worker is not judged.
//! - Under loom the monitor does nothing: the models cover declared
//!   sections, and `/proc` is not a protocol.

#[cfg(not(loom))]
use crate::loom::Unpoison;
#[cfg(not(loom))]
use crate::loom::lock;
use crate::policy::lanes::LaneCore;
use std::sync::{Arc, Weak};

/// The shortest wall time over which a task's CPU time is judged.
pub(crate) const WINDOW: std::time::Duration = std::time::Duration::from_micros(500);

/// How long a declared section ([`crate::blocking`]) runs before it counts
/// as blocked. Shorter sections (a page-cache read) return before anyone
/// needs their thread.
pub(crate) const GRACE_NANOS: u64 = 50_000;

/// The wall time over which the guard judges a lane.
#[cfg(not(loom))]
pub(crate) const GUARD_WINDOW: std::time::Duration = std::time::Duration::from_millis(50);

/// How long a starving guarded lane first stays promoted.
#[cfg(not(loom))]
pub(crate) const GUARD_HOLD: std::time::Duration = std::time::Duration::from_millis(500);

/// The longest hold (after repeated starvation right after a return).
#[cfg(not(loom))]
pub(crate) const GUARD_MAX_HOLD: std::time::Duration = std::time::Duration::from_secs(8);

#[cfg(not(loom))]
pub(crate) use imp::{Monitor, Schedstat};

#[cfg(not(loom))]
mod imp {
    use super::*;
    use crate::fd::Opened;
    use crate::policy::lanes::WorkerSlot;
    use std::collections::HashMap;
    use std::fs::File;
    use std::os::unix::fs::FileExt;
    // The monitor does not run under loom, but takes its primitives from the
    // shim like the rest of the core.
    use crate::loom::sync::atomic::{AtomicBool, Ordering};
    use crate::loom::sync::{Condvar, Mutex, MutexGuard};
    use std::time::{Duration, Instant};

    const BASE_TICK: Duration = Duration::from_micros(200);
    const MAX_TICK: Duration = Duration::from_millis(10);

    /// A thread's `/proc/thread-self/schedstat` (and, on a detecting lane,
    /// its `/proc/thread-self/stat`), opened by that thread and held for the
    /// thread's life: each an [`Opened`], so that a program's stray close
    /// of its number neither aborts a debug build when the worker exits nor
    /// lets the worker close what took the number since.
    pub(crate) struct Schedstat {
        schedstat: Opened,
        /// The thread's `/proc/thread-self/stat`, for its state; `None`
        /// where it could not be opened (the rule then judges by schedstat
        /// alone, as before).
        stat: Option<Opened>,
    }

    impl Schedstat {
        /// Opens the calling thread's files; `None` where the kernel has no
        /// schedstat. Its state file only with `state`: the lanes whose
        /// monitor detects waits read it (a guarded `Cpu` lane's guard
        /// reads schedstat alone).
        pub(crate) fn open_current(state: bool) -> Option<Self> {
            // Above the program's numbers: a worker starts at any time, and
            // its files must not take a number the program just closed.
            let open = |path: &str| {
                let file = crate::fd::above_program_numbers(File::open(path).ok()?);
                Opened::new(file).ok().map(|(opened, _)| opened)
            };
            Some(Schedstat {
                schedstat: open("/proc/thread-self/schedstat")?,
                stat: state.then(|| open("/proc/thread-self/stat")).flatten(),
            })
        }

        /// Whether the thread runs or waits for a CPU (state `R`), as
        /// opposed to sleeping; `None` where it cannot be read.
        pub(crate) fn runnable(&self) -> Option<bool> {
            // "pid (comm) S ...": the state follows the last ')' (a comm
            // may hold one), within the first 64 bytes (a pid of at most 7
            // digits, a comm of at most 15 bytes; only numbers follow).
            let mut buf = [0u8; 64];
            let n = self.stat.as_ref()?.file().read_at(&mut buf, 0).ok()?;
            let text = &buf[..n];
            let close = text.iter().rposition(|&b| b == b')')?;
            text.get(close + 2).map(|&state| state == b'R')
        }

        /// Nanoseconds on a CPU plus nanoseconds waiting for one.
        pub(crate) fn cpu_and_wait_ns(&self) -> Option<u64> {
            self.run_and_wait_ns().map(|(run, wait)| run + wait)
        }

        /// Nanoseconds on a CPU, and nanoseconds runnable but waiting.
        pub(crate) fn run_and_wait_ns(&self) -> Option<(u64, u64)> {
            let mut buf = [0u8; 96];
            let n = self.schedstat.file().read_at(&mut buf, 0).ok()?;
            let text = std::str::from_utf8(&buf[..n]).ok()?;
            let mut fields = text.split_ascii_whitespace();
            let run: u64 = fields.next()?.parse().ok()?;
            let wait: u64 = fields.next()?.parse().ok()?;
            Some((run, wait))
        }
    }

    #[derive(Default)]
    struct State {
        active: bool,
        started: bool,
        closed: bool,
    }

    /// One per pool; watches the lanes that detect.
    pub(crate) struct Monitor {
        active: AtomicBool,
        state: Mutex<State>,
        cv: Condvar,
        lanes: Mutex<Vec<Weak<LaneCore>>>,
    }

    /// The last sample of one worker's task.
    struct Sample {
        task: u64,
        cpu_ns: u64,
        at: Instant,
    }

    impl Monitor {
        pub(crate) fn new() -> Arc<Self> {
            Arc::new(Monitor {
                active: AtomicBool::new(false),
                state: Mutex::new(State::default()),
                cv: Condvar::new(),
                lanes: Mutex::new(Vec::new()),
            })
        }

        /// The lanes to watch (called once, at construction).
        pub(crate) fn watch<'a>(&self, lanes: impl Iterator<Item = &'a Arc<LaneCore>>) {
            let mut l = lock(&self.lanes);
            l.extend(lanes.map(Arc::downgrade));
        }

        /// A watched lane has work queued behind busy workers: make sure the
        /// monitor runs. One load when it already does.
        pub(crate) fn kick(self: &Arc<Self>) {
            if self.active.load(Ordering::SeqCst) {
                return;
            }
            let mut st = self.lock();
            if st.active || st.closed {
                return;
            }
            st.active = true;
            self.active.store(true, Ordering::SeqCst);
            if st.started {
                self.cv.notify_one();
                return;
            }
            let me = Arc::downgrade(self);
            let spawned = crate::loom::thread::spawn_named(
                "sluice-monitor".to_string(),
                256 << 10,
                move || run(me),
            );
            match spawned {
                Ok(_) => st.started = true,
                // No monitor: declared sections still compensate; try again
                // at the next kick.
                Err(_) => {
                    st.active = false;
                    self.active.store(false, Ordering::SeqCst);
                }
            }
        }

        /// The pool closed: the monitor thread exits.
        pub(crate) fn close(&self) {
            let mut st = self.lock();
            st.closed = true;
            self.cv.notify_all();
        }

        fn lock(&self) -> MutexGuard<'_, State> {
            lock(&self.state)
        }

        fn lanes(&self) -> Vec<Arc<LaneCore>> {
            let l = lock(&self.lanes);
            l.iter().filter_map(Weak::upgrade).collect()
        }

        /// Parks until kicked. False when the monitor must exit.
        fn wait_active(&self) -> bool {
            let mut st = self.lock();
            loop {
                if st.closed {
                    return false;
                }
                if st.active {
                    return true;
                }
                st = self.cv.wait(st).unpoisoned();
            }
        }

        /// Goes inactive unless a lane needs the monitor after all (the
        /// re-check of the Dekker pair with `kick`).
        fn try_deactivate(&self) -> bool {
            {
                let mut st = self.lock();
                st.active = false;
                self.active.store(false, Ordering::SeqCst);
            }
            if self.lanes().iter().any(|l| needs_monitor(l)) {
                self.kick_from_inside();
                return false;
            }
            true
        }

        fn kick_from_inside(&self) {
            let mut st = self.lock();
            st.active = true;
            self.active.store(true, Ordering::SeqCst);
        }
    }

    fn needs_monitor(lane: &LaneCore) -> bool {
        needs_detect(lane) || needs_guard(lane)
    }

    /// Work queued behind busy workers: look for blocked ones.
    fn needs_detect(lane: &LaneCore) -> bool {
        lane.depth() > 0 && lane.counters().busy() > 0
    }

    /// A guarded lane computes: judge whether it starves.
    fn needs_guard(lane: &LaneCore) -> bool {
        lane.guard.is_some() && lane.counters().busy() > 0
    }

    /// Each worker's run time (ns), and whether it was computing a task,
    /// keyed by its slot.
    type Times = HashMap<usize, (u64, bool)>;

    /// The guard's view of one lane (see the module docs).
    struct GuardWindow {
        /// When the window began, and each worker's run time and state then.
        start: Option<(Instant, Times)>,
        /// The hold of the next promotion.
        hold: Duration,
        /// While promoted: when the hold ends.
        until: Option<Instant>,
        /// Just moved back to `SCHED_IDLE`: the window being judged decides
        /// whether the next hold doubles.
        probing: bool,
        /// The process's cores.
        cores: u64,
    }

    impl GuardWindow {
        fn new() -> Self {
            GuardWindow {
                start: None,
                hold: GUARD_HOLD,
                until: None,
                probing: false,
                cores: crate::loom::usable_cores() as u64,
            }
        }

        /// Each registered worker's run time, and whether it computes.
        fn sample(lane: &LaneCore) -> Times {
            let slots = lock(&lane.slots);
            slots
                .iter()
                .filter_map(|s| {
                    let (run, _) = s.schedstat.as_ref()?.run_and_wait_ns()?;
                    let busy = s.task_started.load(Ordering::SeqCst) != 0 && s.is_computing();
                    Some((Arc::as_ptr(s) as usize, (run, busy)))
                })
                .collect()
        }

        /// One monitor tick while the lane computes. True when the lane's
        /// policy changed.
        fn tick(&mut self, lane: &Arc<LaneCore>) -> bool {
            let now = Instant::now();
            if self.until.is_some_and(|u| now >= u) {
                // The hold is over: back to the cores nobody else wants,
                // and judge the next window.
                lane.guard_move(false);
                self.until = None;
                self.probing = true;
                self.start = None;
                return true;
            }
            let Some((at, before)) = &self.start else {
                self.start = Some((now, Self::sample(lane)));
                return false;
            };
            let wall = now.duration_since(*at);
            if wall < GUARD_WINDOW {
                return false;
            }
            let after = Self::sample(lane);
            // The workers computing at both ends of the window, and what
            // they ran. (The kernel adds a thread's run-queue wait to
            // schedstat only when the thread runs again, so a starved
            // worker shows no wait at all: demand is read from the
            // workers' own state instead.)
            let (mut run, mut computing) = (0u64, 0u64);
            for (k, (r1, busy1)) in &after {
                if let (Some((r0, true)), true) = (before.get(k), *busy1) {
                    run += r1.saturating_sub(*r0);
                    computing += 1;
                }
            }
            self.start = Some((now, after));
            if self.until.is_some() || computing == 0 {
                return false;
            }
            let wall_ns = wall.as_nanos() as u64;
            let could = computing.min(self.cores).saturating_mul(wall_ns);
            let starving = run.saturating_mul(4) < could;
            let probed = std::mem::take(&mut self.probing);
            if !starving {
                if probed {
                    self.hold = GUARD_HOLD;
                }
                return false;
            }
            if probed {
                self.hold = (self.hold * 2).min(GUARD_MAX_HOLD);
            }
            lane.guard_move(true);
            self.until = Some(now + self.hold);
            self.start = None;
            true
        }
    }

    fn run(me: Weak<Monitor>) {
        let mut samples: HashMap<usize, Sample> = HashMap::new();
        let mut guards: HashMap<usize, GuardWindow> = HashMap::new();
        let guarded = me
            .upgrade()
            .is_some_and(|m| m.lanes().iter().any(|l| l.guard.is_some()));
        if guarded {
            // The guard must run while its lane starves: never under
            // `SCHED_IDLE`, whoever started this thread (a guarded pool may
            // leave it, `Builder::build` checked).
            let _ =
                sluice_sched::set_policy(sluice_sched::current_tid(), sluice_sched::Policy::Other);
        }
        let mut tick = BASE_TICK;
        loop {
            let Some(monitor) = me.upgrade() else { return };
            if !monitor.wait_active() {
                return;
            }
            drop(monitor);
            std::thread::sleep(tick);
            let Some(monitor) = me.upgrade() else { return };
            let lanes = monitor.lanes();
            if lanes.is_empty() {
                return;
            }
            let mut needed = false;
            let mut changed = false;
            let mut live = Vec::new();
            for lane in &lanes {
                if lane.guard.is_some() {
                    let w = guards
                        .entry(Arc::as_ptr(lane) as usize)
                        .or_insert_with(GuardWindow::new);
                    if needs_guard(lane) {
                        needed = true;
                        changed |= w.tick(lane);
                    } else {
                        // Idle: the next busy spell starts a new window.
                        w.start = None;
                    }
                }
                if !needs_detect(lane) {
                    continue;
                }
                needed = true;
                let slots: Vec<Arc<WorkerSlot>> = lock(&lane.slots).clone();
                for slot in slots {
                    let key = Arc::as_ptr(&slot) as usize;
                    live.push(key);
                    let last = samples.remove(&key);
                    changed |= look_at(lane, &slot, last, &mut samples, key);
                }
            }
            samples.retain(|k, _| live.contains(k));
            if !needed {
                samples.clear();
                tick = BASE_TICK;
                if monitor.try_deactivate() {
                    continue;
                }
            }
            tick = if changed {
                BASE_TICK
            } else {
                (tick * 2).min(MAX_TICK)
            };
        }
    }

    /// Samples one worker; counts it blocked or computing again. True when
    /// something changed (a new task seen, a task marked or unmarked).
    fn look_at(
        lane: &Arc<LaneCore>,
        slot: &WorkerSlot,
        last: Option<Sample>,
        samples: &mut HashMap<usize, Sample>,
        key: usize,
    ) -> bool {
        let task = slot.task_started.load(Ordering::SeqCst);
        if task == 0 {
            return false;
        }
        if slot.is_declared_uncounted() {
            let since = slot.section_started.load(Ordering::SeqCst);
            if crate::clock::nanos_between(since, crate::clock::now()) >= GRACE_NANOS {
                return lane.promote_declared(slot);
            }
            // Not yet: look again at the next tick.
            return true;
        }
        // A guarded Cpu lane's workers have the file too, for the guard.
        let Some(stat) = slot.schedstat.as_ref().filter(|_| lane.detects()) else {
            return false;
        };
        let Some(cpu_ns) = stat.cpu_and_wait_ns() else {
            return false;
        };
        let now = Instant::now();
        let fresh = Sample {
            task,
            cpu_ns,
            at: now,
        };
        match last {
            Some(s) if s.task == task => {
                let wall = now.duration_since(s.at);
                if wall < WINDOW {
                    samples.insert(key, s);
                    return false;
                }
                // No progress, and not merely preempted (runnable threads
                // show none until they run again; see the module docs).
                let waiting = cpu_ns.saturating_sub(s.cpu_ns).saturating_mul(10)
                    < wall.as_nanos() as u64
                    && stat.runnable() != Some(true);
                samples.insert(key, fresh);
                if waiting && slot.is_computing() {
                    lane.mark_detected(slot, task)
                } else if !waiting {
                    lane.unmark_detected(slot)
                } else {
                    false
                }
            }
            _ => {
                samples.insert(key, fresh);
                true
            }
        }
    }
}

#[cfg(loom)]
pub(crate) use stub::{Monitor, Schedstat};

#[cfg(loom)]
mod stub {
    use super::*;

    /// No `/proc` under loom.
    pub(crate) struct Schedstat;

    impl Schedstat {
        pub(crate) fn open_current(_state: bool) -> Option<Self> {
            None
        }
    }

    /// Under loom the monitor never runs.
    pub(crate) struct Monitor;

    impl Monitor {
        pub(crate) fn new() -> Arc<Self> {
            Arc::new(Monitor)
        }
        pub(crate) fn watch<'a>(&self, _lanes: impl Iterator<Item = &'a Arc<LaneCore>>) {}
        pub(crate) fn kick(self: &Arc<Self>) {}
        pub(crate) fn close(&self) {}
    }

    #[allow(dead_code)]
    fn _unused(_: Weak<LaneCore>) {}
}
