//! [`Guard`]: a `Cpu` lane under [`CpuSched::Guarded`](crate::CpuSched::Guarded)
//! moves its workers between `SCHED_IDLE` and `SCHED_OTHER`
//! (`LaneCore::guard_move`, called by the monitor), and the check at build
//! that the process may take a worker out of `SCHED_IDLE` (`check_guard`).

use super::{LaneCore, LaneSettings};
use crate::error::{ConfigError, Knob};
use crate::loom::lock;
use crate::loom::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;

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
    pub(super) fn new(lane_nice: i32) -> Self {
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
pub(super) fn guard_nices(lane_nice: i32) -> (i32, i32) {
    use rustix::process::{Resource, getrlimit};
    use rustix::thread::{CapabilitySet, capabilities};
    let born = sluice_sched::nice(sluice_sched::current_tid()).unwrap_or(0);
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
pub(super) fn guard_nices(lane_nice: i32) -> (i32, i32) {
    (0, lane_nice)
}

impl LaneCore {
    /// A guarded lane starves (`promote`) or has the cores again: moves
    /// every registered worker to `SCHED_OTHER` or `SCHED_IDLE`. Under the
    /// `slots` lock, so each tid belongs to a live worker of this lane.
    ///
    /// The move also changes the spawn limit by the lane's neighbour share
    /// ([`LaneCore::neighbour_share`]): promoted, a sleeper is woken or a
    /// thread started per queued task up to that share, as a grown budget
    /// does (`resize`); back to `SCHED_IDLE`, sleepers above the limit are
    /// woken to exit, and busy ones retire after their task
    /// (`try_retire_busy`).
    pub(crate) fn guard_move(self: &Arc<Self>, promote: bool) {
        let Some(g) = &self.guard else { return };
        {
            let slots = lock(&self.slots);
            g.promoted.store(promote, Ordering::SeqCst);
            if promote {
                g.promotions.fetch_add(1, Ordering::Relaxed);
            }
            for slot in slots.iter() {
                self.guard_set(g, slot.tid, promote);
            }
            if promote {
                self.promote_unregistered();
            }
        }
        if promote {
            // Out of `slots`'s lock: a new worker registers under it.
            let queued = self.depth();
            for _ in 0..queued.min(self.neighbour_share()) {
                if !self.park.wake_one() && !self.spawn_worker() {
                    break;
                }
            }
        } else {
            self.shed_surplus();
        }
    }

    /// Promotion reaches the threads not registered yet too. A thread
    /// inherits its creator's policy, and a worker started by a worker
    /// under `SCHED_IDLE` (a searcher handing the search on, compensation)
    /// is idle until it registers; while the lane starves, its first slice
    /// can be a second away. Every thread of the lane still held by its
    /// `JoinHandle` leaves `SCHED_IDLE` now (the registered ones again,
    /// which changes nothing); it takes the promoted nice value as it
    /// registers. A thread started after this sees `promoted` in
    /// `start_counted` (both under `threads`'s lock, after the store).
    pub(super) fn promote_unregistered(&self) {
        #[cfg(not(loom))]
        for h in lock(&self.threads).iter() {
            promote_thread(h);
        }
    }

    /// Moves one worker (the caller holds `slots`'s lock, and `tid` is in
    /// `slots`). Promoted: its nice value is lowered first (a thread under
    /// `SCHED_IDLE` may leave it only at a nice value the process may
    /// set), then the policy; where the lower nice value is refused, the
    /// worker still leaves `SCHED_IDLE` at the lane's. Back to
    /// `SCHED_IDLE`: the policy, then the lane's nice value again (raising
    /// one needs no privilege).
    pub(super) fn guard_set(&self, g: &Guard, tid: i32, promote: bool) {
        #[cfg(not(loom))]
        {
            let nice = |n: i32| sluice_sched::set_nice(tid, n).is_ok();
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
}

/// Takes the thread behind `h` out of `SCHED_IDLE`, by its handle (it may
/// not have run yet). ESRCH for one that has exited; EPERM is ruled out by
/// `check_guard`, and such a thread stays as it was.
#[cfg(not(loom))]
pub(super) fn promote_thread(h: &std::thread::JoinHandle<()>) {
    let _ = sluice_sched::set_policy_of(h, sluice_sched::Policy::Other);
}

/// `CpuSched::Guarded` needs an adaptive `Cpu` lane and the right to take
/// a worker out of `SCHED_IDLE` again.
pub(crate) fn check_guard(source: &str, cpu: &LaneSettings) -> Result<(), ConfigError> {
    if !cpu.adaptive {
        return Err(ConfigError::Refused {
            setting: source.to_string(),
            why: "guarded needs the adaptive Cpu lane: its monitor watches the workers \
                  (leave adaptive(Lane::Cpu) on, or choose normal, batch or idle)"
                .to_string(),
            knob: Some(Knob::CpuSched),
        });
    }
    may_leave_idle(source, cpu.nice)
}

/// Whether this process may move a thread of nice `nice` (or higher) from
/// `SCHED_IDLE` back to `SCHED_OTHER`: `CAP_SYS_NICE`, or `RLIMIT_NICE`
/// of at least `20 - nice` (the kernel's rule, `is_nice_reduction`).
#[cfg(not(loom))]
fn may_leave_idle(source: &str, nice: i32) -> Result<(), ConfigError> {
    use rustix::process::{Resource, getrlimit};
    use rustix::thread::{CapabilitySet, capabilities};
    // A worker runs at the lane's nice value or the process's, whichever
    // is higher.
    let born = sluice_sched::nice(sluice_sched::current_tid()).unwrap_or(0);
    let nice = nice.max(born);
    let cap = capabilities(None).is_ok_and(|c| c.effective.contains(CapabilitySet::SYS_NICE));
    let have = getrlimit(Resource::Nice).current.unwrap_or(u64::MAX);
    let Some(need) = idle_exit_refused(cap, have, nice) else {
        return Ok(());
    };
    Err(ConfigError::Refused {
        setting: source.to_string(),
        why: format!(
            "guarded must be able to take a Cpu worker out of SCHED_IDLE, which needs CAP_SYS_NICE \
             or RLIMIT_NICE >= {need} (`ulimit -e` is {have} here); raise the limit or choose idle or normal"
        ),
        knob: Some(Knob::CpuSched),
    })
}

/// The kernel's rule for leaving `SCHED_IDLE` (`is_nice_reduction`): with
/// `CAP_SYS_NICE`, always; else `RLIMIT_NICE` must reach `20 - nice`.
/// `Some(that limit)` when refused.
#[cfg(not(loom))]
fn idle_exit_refused(cap_sys_nice: bool, rlimit_nice: u64, nice: i32) -> Option<u64> {
    let need = (20 - nice.clamp(-20, 19)) as u64;
    (!cap_sys_nice && rlimit_nice < need).then_some(need)
}

#[cfg(loom)]
fn may_leave_idle(_source: &str, _nice: i32) -> Result<(), ConfigError> {
    Ok(())
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;

    #[test]
    fn leaving_sched_idle_follows_the_kernels_rule() {
        // CAP_SYS_NICE: always.
        assert_eq!(idle_exit_refused(true, 0, 10), None);
        // No capability: RLIMIT_NICE must reach 20 - nice.
        assert_eq!(idle_exit_refused(false, 0, 10), Some(10));
        assert_eq!(idle_exit_refused(false, 9, 10), Some(10));
        assert_eq!(idle_exit_refused(false, 10, 10), None);
        assert_eq!(idle_exit_refused(false, 1, 19), None);
        assert_eq!(idle_exit_refused(false, 0, 19), Some(1));
    }
}
