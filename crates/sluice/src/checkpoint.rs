//! [`checkpoint`]: a long computation hands its core back now and then.
//!
//! Why a pool needs it: a `Cpu` lane's workers under `SCHED_IDLE`
//! ([`CpuSched::Idle`](crate::CpuSched::Idle), and
//! [`Guarded`](crate::CpuSched::Guarded) while no other process starves
//! the lane) run below every other thread of the machine, but Linux's
//! scheduler still picks them now and then while a normal thread (an event
//! loop woken by a request) waits on the same core's queue, and the worker
//! keeps the core until the next scheduler tick, up to 4 ms at 250 Hz. A
//! worker that yields every [`CHECKPOINT_QUANTUM`] of computing lets the
//! kernel hand the core over within that time instead. (Measured on this
//! project's 2-core machine with one normal thread and one `SCHED_IDLE`
//! spinner on one core: the spinner took the core for 4.0 ms at a time;
//! yielding every 0.25 ms, 0.33 ms at most.)
//!
//! **Only there.** A worker under `SCHED_OTHER` or `SCHED_BATCH` (the
//! `normal` and `batch` policies, a promoted guarded lane, the I/O lanes)
//! does not yield: `sched_yield` gives the rest of the time slice to the
//! next thread of the core's queue, and beside another process that
//! computes (two `while(1)` loops on 2 cores) that is the other process's
//! thread, which then runs its whole slice (~1.4 ms on this machine's
//! 6.18 kernel) for the worker's 0.25 ms. Measured on this project's
//! 2-core machine (load 13-20 from other builds), two spinning threads
//! beside two `while(1)` processes took 3.0 s for their work without
//! yields and 11.0 s yielding every 0.25 ms (at nice 0; at nice 10, 12.3 s
//! and 37.0 s). Under `SCHED_OTHER` the loop is served by the kernel's
//! wake-up preemption alone (EEVDF: a woken thread with the earlier
//! deadline takes the core, at worst at the next tick): the price of
//! keeping the lane's share of a machine shared with other processes.

use crate::loom::sync::atomic::{AtomicBool, Ordering};
use std::cell::{Cell, RefCell};
use std::sync::Arc;
use std::time::Duration;

/// How long a pool task computes between two of the yields [`checkpoint`]
/// makes.
pub const CHECKPOINT_QUANTUM: Duration = Duration::from_micros(250);

thread_local! {
    /// On a worker of the lanes policy: the clock reading at its task's
    /// start or its last yield. 0 on every other thread.
    static SINCE: Cell<u64> = const { Cell::new(0) };
    /// On a worker of the lanes policy: when its checkpoint yields.
    static YIELDS: RefCell<Yields> = const { RefCell::new(Yields::Never) };
}

/// When a worker's [`checkpoint`] yields: only while the worker runs
/// `SCHED_IDLE` (see the module docs).
#[derive(Clone)]
#[cfg_attr(loom, allow(dead_code))]
pub(crate) enum Yields {
    /// `SCHED_OTHER` or `SCHED_BATCH`.
    Never,
    /// `SCHED_IDLE`.
    Always,
    /// A guarded lane: `SCHED_IDLE` while the flag (the guard's
    /// `promoted`) is false.
    Unpromoted(Arc<AtomicBool>),
}

impl Yields {
    fn now(&self) -> bool {
        match self {
            Yields::Never => false,
            Yields::Always => true,
            Yields::Unpromoted(promoted) => !promoted.load(Ordering::Relaxed),
        }
    }
}

/// A worker of the lanes policy starts: its checkpoints yield as `yields`
/// says.
#[cfg_attr(loom, allow(dead_code))]
pub(crate) fn worker_started(yields: Yields) {
    YIELDS.with(|y| *y.borrow_mut() = yields);
}

/// A worker starts a task at clock reading `now`.
pub(crate) fn task_started(now: u64) {
    SINCE.with(|s| s.set(now.max(1)));
}

/// Called now and then by a task that computes for long (every few
/// microseconds of work is fine: it reads a thread-local and the CPU's
/// clock): on a sluice worker that runs `SCHED_IDLE` (a `Cpu` lane under
/// [`CpuSched::Idle`](crate::CpuSched::Idle), or under
/// [`Guarded`](crate::CpuSched::Guarded) while not promoted), once the
/// task has computed for [`CHECKPOINT_QUANTUM`] since it started or last
/// yielded, yields the core (`sched_yield`) and returns `true`. Anywhere
/// else (a worker under `SCHED_OTHER` or `SCHED_BATCH`, where a yield would
/// hand the core to another process's thread as often as to the
/// program's own; a thread of your own; a worker of the libuv policy) and
/// before the quantum is up it does nothing and returns `false`.
///
/// A yield with nothing else to run returns at once; with a thread waiting
/// for the core, the kernel may run it first. `sluice::crypto::pbkdf2` and
/// `sluice::zlib` (feature `ops`) call it; `scrypt`'s work is one call
/// into its crate and does not.
///
/// ```
/// use sluice::{Lane, Pool};
///
/// let pool = Pool::builder().build()?;
/// // A long computation on the Cpu lane, checking in every 1000 steps.
/// let sum = pool.spawn(Lane::Cpu, || {
///     let mut x = 0u64;
///     for i in 0..10_000_000u64 {
///         x = x.wrapping_add(i * i);
///         if i % 1000 == 0 {
///             sluice::checkpoint();
///         }
///     }
///     x
/// });
/// assert_eq!(sum.wait(), Ok((0..10_000_000u64).fold(0u64, |x, i| x.wrapping_add(i * i))));
/// // Not a pool thread: nothing to hand back.
/// assert!(!sluice::checkpoint());
/// # Ok::<(), sluice::ConfigError>(())
/// ```
pub fn checkpoint() -> bool {
    SINCE.with(|s| {
        let since = s.get();
        if since == 0 {
            return false;
        }
        let quantum = CHECKPOINT_QUANTUM.as_nanos() as u64;
        if crate::clock::nanos_between(since, crate::clock::now()) < quantum {
            return false;
        }
        if !YIELDS.with(|y| y.borrow().now()) {
            // Not under SCHED_IDLE: the next quantum starts here.
            s.set(crate::clock::now().max(1));
            return false;
        }
        std::thread::yield_now();
        s.set(crate::clock::now().max(1));
        true
    })
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;

    #[test]
    fn a_guarded_worker_yields_only_while_not_promoted() {
        let promoted = Arc::new(AtomicBool::new(false));
        let y = Yields::Unpromoted(Arc::clone(&promoted));
        assert!(y.now());
        promoted.store(true, Ordering::Relaxed);
        assert!(!y.now());
        assert!(Yields::Always.now());
        assert!(!Yields::Never.now());
    }
}
