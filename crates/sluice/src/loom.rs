//! The sync shim: every synchronization primitive the pool's protocols use
//! comes from here, so that the same code runs on `std` in production and on
//! [loom](https://docs.rs/loom)'s model checker under `--cfg loom`.
//!
//! Modelled on `tokio/src/loom/`: core modules import
//! `crate::loom::sync::{Mutex, Condvar}`, `crate::loom::sync::atomic::*` and
//! `crate::loom::thread`, never `std::sync::{Mutex, Condvar}`, std atomics in
//! protocol state, or `std::thread` directly. The test `sync_shim_is_used`
//! (`tests/shim.rs`) enforces it: clippy's `disallowed-types` cannot, as it
//! sees through the re-exports below.
//!
//! Two things are deliberately *not* swapped:
//! - `Arc` stays `std::sync::Arc`: loom's `Arc` cannot hold `dyn Job`
//!   (unsized coercion is unstable), and reference counting is not one of the
//!   protocols we model.
//! - metric counters use `std::sync::atomic` with `Relaxed` ordering (see
//!   `metrics/counters.rs`): they carry no synchronization, and keeping them out
//!   of loom keeps the models small enough to explore exhaustively.
//!
//! The nondeterministic inputs are pinned under loom: [`usable_cores`] is 2.
//!
//! The poison rule lives here too ([`Unpoison`], [`lock`]): every pool
//! lock ignores poisoning, for the reason written once on `Unpoison`;
//! `sluice::sync` offers the same rule to the crates around the pool.
//!
//! One set of re-exports serves both: `base` is `std`, or `loom` under
//! `--cfg loom`, and only what differs between them (spawning, the pinned
//! inputs) is switched item by item.

#[cfg(not(loom))]
use std as base;

#[cfg(loom)]
use loom as base;

pub(crate) mod sync {
    pub(crate) use super::base::sync::{Condvar, Mutex, MutexGuard};

    pub(crate) mod atomic {
        pub(crate) use super::super::base::sync::atomic::{
            AtomicBool, AtomicU8, AtomicU64, AtomicUsize, Ordering,
        };
    }
}

pub(crate) mod thread {
    pub(crate) use super::base::thread::{JoinHandle, Thread, current, park, yield_now};

    /// Spawns a named thread with the given stack size; under the model
    /// checker a loom thread, names and stack sizes ignored.
    pub(crate) fn spawn_named<F>(
        name: String,
        stack_size: usize,
        f: F,
    ) -> std::io::Result<JoinHandle<()>>
    where
        F: FnOnce() + Send + 'static,
    {
        #[cfg(not(loom))]
        return std::thread::Builder::new()
            .name(name)
            .stack_size(stack_size)
            .spawn(f);
        #[cfg(loom)]
        {
            let _ = (name, stack_size);
            Ok(loom::thread::spawn(f))
        }
    }
}

pub(crate) mod hint {
    pub(crate) use super::base::hint::spin_loop;
}

pub(crate) use base::thread_local;

/// The cores this process may use: `available_parallelism`, which honours
/// the cgroup CPU quota and the affinity mask on Linux.
#[cfg(not(loom))]
pub(crate) fn usable_cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Pinned under loom so that models are deterministic.
#[cfg(loom)]
pub(crate) fn usable_cores() -> usize {
    2
}

/// The load half of a store-load (Dekker) pair: a `SeqCst` load of `a`.
/// Both sides of such a pair are a `SeqCst` read-modify-write of one word
/// and then this load of the other, so the four accesses lie in one total
/// order and at least one side sees the other's write.
///
/// loom treats a `SeqCst` load as `Acquire` (its README: "SeqCst accesses
/// ... are regarded as AcqRel", giving false alarms), so under the model
/// checker the load reads with `fetch_add(0, SeqCst)` instead: a
/// read-modify-write reads the latest value of `a`, which is what the
/// `SeqCst` load reads in the total order. It changes nothing the model
/// could otherwise reach, and lets the models check the rest of the
/// protocol around the pair.
#[inline]
pub(crate) fn dekker_load(a: &sync::atomic::AtomicUsize) -> usize {
    #[cfg(not(loom))]
    return a.load(sync::atomic::Ordering::SeqCst);
    #[cfg(loom)]
    return a.fetch_add(0, sync::atomic::Ordering::SeqCst);
}

/// How many spin rounds a searching worker or a waiting handle may burn
/// before it parks. None under loom: every spin round would multiply the
/// states to explore, and the protocol must be correct without it.
pub(crate) const SPIN_ROUNDS: u32 = if cfg!(loom) { 0 } else { 1 };

/// Locks `m`, whatever a panicking holder left behind: [`Unpoison`] on
/// `m.lock()`. The shim's `Mutex` (loom's under `--cfg loom`); the crates
/// around the pool take [`lock_std`] as `sluice::sync::lock`.
pub(crate) fn lock<T>(m: &sync::Mutex<T>) -> sync::MutexGuard<'_, T> {
    m.lock().unpoisoned()
}

/// Locks a `std` mutex, whatever a panicking holder left behind: the one
/// poison rule ([`Unpoison`]) for the crates around the pool.
///
/// ```
/// use std::sync::{Arc, Mutex};
///
/// let m = Arc::new(Mutex::new(1));
/// let held = Arc::clone(&m);
/// let _ = std::thread::spawn(move || {
///     let _guard = held.lock().unwrap();
///     panic!("a bug while holding the lock");
/// })
/// .join();
/// assert!(m.is_poisoned());
/// *sluice::sync::lock(&m) += 1;
/// assert_eq!(*sluice::sync::lock(&m), 2);
/// ```
pub fn lock_std<T: ?Sized>(m: &std::sync::Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unpoisoned()
}

/// The one poison rule of sluice: a lock, or a condition variable's wait,
/// ignores poisoning, as tokio's `loom::std::Mutex` does.
///
/// Poisoning marks a mutex whose holder panicked, in case it left the
/// state half-made. Every lock that takes this rule keeps its state whole
/// after each statement of its own code and runs no code of its users while
/// held, so a panic under it (a bug) leaves nothing half-made behind, and a
/// poisoned lock would only turn that one bug into a failure of every later
/// call. In the pool, no user code runs while a pool lock is held: a task's
/// closure runs, and an aborted one is dropped, with every lock released
/// (`task/mod.rs`). A lock whose state a panic could leave half-made must
/// not take this rule.
///
/// Implemented for [`std::sync::LockResult`], which `Mutex::lock`,
/// `Condvar::wait` and `Condvar::wait_timeout` return (loom's too):
///
/// ```
/// use sluice::sync::{Unpoison, lock};
/// use std::sync::{Condvar, Mutex};
/// use std::time::Duration;
///
/// let (m, cv) = (Mutex::new(0), Condvar::new());
/// let guard = lock(&m);
/// let (guard, timeout) = cv.wait_timeout(guard, Duration::ZERO).unpoisoned();
/// assert!(timeout.timed_out());
/// assert_eq!(*guard, 0);
/// ```
pub trait Unpoison<G> {
    /// The guard (or the wait's result), poisoned or not.
    fn unpoisoned(self) -> G;
}

impl<G> Unpoison<G> for std::sync::LockResult<G> {
    fn unpoisoned(self) -> G {
        self.unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}
