//! [`checkpoint`]: a long computation hands its core back now and then.
//!
//! Why a pool needs it: a `Cpu` lane's workers run below the priority of
//! the program's other threads (nice 10, or `SCHED_IDLE` under
//! [`CpuSched::Idle`](crate::CpuSched::Idle) and
//! [`Guarded`](crate::CpuSched::Guarded)), but Linux's scheduler shares a
//! core by weight, not by strict priority: now and then it picks the
//! low-weight worker while a normal thread (an event loop woken by a
//! request) waits on the same core's queue, and the worker keeps the core
//! until the next scheduler tick, up to 4 ms at 250 Hz. A worker that
//! yields every [`CHECKPOINT_QUANTUM`] of computing lets the kernel hand
//! the core over within that time instead. (Measured on this project's
//! 2-core machine with one normal thread and one `SCHED_IDLE` spinner on
//! one core: the spinner took the core for 4.0 ms at a time; yielding
//! every 0.25 ms, 0.33 ms at most.)

use std::cell::Cell;
use std::time::Duration;

/// How long a pool task computes between two of the yields [`checkpoint`]
/// makes.
pub const CHECKPOINT_QUANTUM: Duration = Duration::from_micros(250);

thread_local! {
    /// On a worker of the lanes policy: the clock reading at its task's
    /// start or its last yield. 0 on every other thread.
    static SINCE: Cell<u64> = const { Cell::new(0) };
}

/// A worker starts a task at clock reading `now`.
pub(crate) fn task_started(now: u64) {
    SINCE.with(|s| s.set(now.max(1)));
}

/// Called now and then by a task that computes for long (every few
/// microseconds of work is fine: it reads a thread-local and the CPU's
/// clock): on a worker of a sluice pool, once the task has computed for
/// [`CHECKPOINT_QUANTUM`] since it started or last yielded, yields the core
/// (`sched_yield`) and returns `true`. Anywhere else (a thread of your own,
/// a worker of the libuv policy) and before the quantum is up it does
/// nothing and returns `false`.
///
/// A yield with nothing else to run returns at once; with a thread waiting
/// for the core, the kernel may run it first. The lane keeps its fair share
/// of the cores: a yield gives up the rest of a time slice, not the time
/// owed. `sluice::crypto::pbkdf2` and `sluice::zlib` (feature `ops`) call
/// it; `scrypt`'s work is one call into its crate and does not.
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
        std::thread::yield_now();
        s.set(crate::clock::now().max(1));
        true
    })
}
