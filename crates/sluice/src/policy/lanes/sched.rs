//! A worker's scheduling policy, set through `sluice-sched` (the one way
//! sluice sets a thread's policy and nice value), and the calling thread's
//! id.

#[cfg(not(loom))]
use crate::choice::CpuSched;

/// The calling thread's id (0 under loom, where threads share one).
pub(super) fn current_tid() -> i32 {
    #[cfg(not(loom))]
    {
        sluice_sched::current_tid()
    }
    #[cfg(loom)]
    0
}

/// Sets the calling worker's scheduling policy (`Normal`: left as it is),
/// before its nice value is raised. Moving to `SCHED_BATCH` or `SCHED_IDLE`
/// needs no privilege and keeps the thread's nice value (the process's; the
/// caller raises it next); if the kernel refuses anyway, the worker keeps
/// the process's policy, which is what every other pool does.
#[cfg(not(loom))]
pub(super) fn set_sched(sched: CpuSched) {
    let policy = match sched {
        // A guarded worker moves to `SCHED_IDLE` as it registers.
        CpuSched::Normal | CpuSched::Guarded => return,
        CpuSched::Batch => sluice_sched::Policy::Batch,
        CpuSched::Idle => sluice_sched::Policy::Idle,
    };
    let _ = sluice_sched::set_policy(sluice_sched::current_tid(), policy);
}
