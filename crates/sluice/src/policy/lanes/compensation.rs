//! Blocking compensation: each adaptive worker's [`WorkerSlot`], the
//! blocked workers counted (declared `sluice::blocking` sections that last,
//! waits the monitor detects), the spawn limit they raise, the surplus shed
//! and the `Cpu` gate.

use super::LaneCore;
use super::monitor::Schedstat;
use super::sched::current_tid;
use crate::clock;
use crate::lane::Lane;
use crate::loom::Unpoison;
use crate::loom::lock;
use crate::loom::sync::atomic::{AtomicU8, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// What a worker's current task is doing, as far as compensation knows.
pub(super) const COMPUTING: u8 = 0;
/// Inside a [`crate::blocking`] section, not (yet) counted blocked: most
/// sections are short system calls that return before anyone needs the
/// thread (Go's `entersyscall`, whose P `sysmon` retakes only from a call
/// that lasts).
pub(super) const DECLARED: u8 = 1;
/// Inside a section that lasted past the monitor's grace: counted blocked.
pub(super) const COUNTED: u8 = 2;
/// Found waiting by the monitor without a section: counted blocked.
pub(super) const DETECTED: u8 = 3;

/// One adaptive worker, as its lane and the monitor see it.
pub(crate) struct WorkerSlot {
    /// `COMPUTING`, `DECLARED`, `COUNTED` or `DETECTED`. The lane's `blocked`
    /// counts the slots in `COUNTED` or `DETECTED`. The monitor raises
    /// `blocked` *before* its CAS into a counted state (and lowers it again
    /// if the CAS fails); whoever moves a slot out of a counted state lowers
    /// it after. So `blocked` may briefly over-count, never under-count.
    pub(super) state: AtomicU8,
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

impl WorkerSlot {
    pub(crate) fn is_computing(&self) -> bool {
        self.state.load(Ordering::SeqCst) == COMPUTING
    }

    /// In a section the monitor has not counted yet.
    pub(crate) fn is_declared_uncounted(&self) -> bool {
        self.state.load(Ordering::SeqCst) == DECLARED
    }
}

impl LaneCore {
    // ===== blocking compensation =====

    /// Registers this worker thread for compensation: its slot (for the
    /// monitor) and the thread-local that [`crate::blocking`] reads.
    pub(super) fn register_slot(self: &Arc<Self>) -> Arc<WorkerSlot> {
        let slot = Arc::new(WorkerSlot {
            state: AtomicU8::new(COMPUTING),
            task_started: AtomicU64::new(0),
            section_started: AtomicU64::new(0),
            schedstat: if self.settings.detect || self.guard.is_some() {
                Schedstat::open_current(self.settings.detect)
            } else {
                None
            },
            tid: current_tid(),
        });
        {
            let mut slots = lock(&self.slots);
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

    /// The worker thread leaves (it is no longer counted alive).
    pub(super) fn on_exit(&self, slot: Option<&WorkerSlot>) {
        if let Some(slot) = slot {
            CURRENT.with(|c| c.borrow_mut().take());
            self.slots
                .lock()
                .unpoisoned()
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
    pub(super) fn count_blocked(self: &Arc<Self>, slot: &WorkerSlot, from: u8, to: u8) -> bool {
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
    pub(super) fn shed_surplus(&self) {
        let c = self.park.counters();
        if c.sleeping() > 0 && c.alive() > self.spawn_limit() {
            self.park.wake_all();
        }
    }

    /// Wakes `Cpu` threads waiting at the gate, if any, to re-check it.
    pub(super) fn notify_gate(&self) {
        if self.returning.load(Ordering::SeqCst) > 0 {
            let _g = lock(&self.gate);
            self.gate_cv.notify_all();
        }
    }

    /// `Cpu` lane: the calling worker leaves a blocking section. It computes
    /// again only once the lane's threads that are neither blocked nor
    /// waiting here, itself included, fit the budget; meanwhile surplus
    /// threads retire as their tasks end (`try_retire_busy`) and surplus
    /// sleepers exit (woken here to see it).
    pub(super) fn return_to_compute(&self) {
        let mut g = lock(&self.gate);
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
                .unpoisoned()
                .0;
        }
    }
}

/// The adaptive worker running on this thread, for [`crate::blocking`].
pub(super) struct Current {
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
pub(super) const COUNT_AT_ONCE: bool = cfg!(loom);

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
