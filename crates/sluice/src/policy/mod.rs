//! Policies: how the pool turns lanes into threads. One file per policy.
//!
//! - `lanes.rs`: [`Policy::Lanes`], sluice's own: independent lanes.
//! - `libuv.rs`: [`Policy::Libuv`], libuv 1.46's thread pool, reproduced.
//!
//! Both run the same task cells (`task/`) and keep the same counters
//! (`metrics/`), so the lab compares policies, not implementations.

pub(crate) mod lanes;
pub(crate) mod libuv;

/// How a [`Pool`](crate::Pool) schedules its lanes.
///
/// ```
/// use sluice::{Lane, Policy, Pool};
///
/// // The default: each lane its own budget and threads.
/// let pool = Pool::builder().build()?;
/// assert_eq!(pool.policy(), &Policy::Lanes);
///
/// // libuv's pool, to reproduce Node's behaviour: one FIFO over 4 threads,
/// // slow I/O limited to (4 + 1) / 2 = 2 of them.
/// let compat = Pool::builder().policy(Policy::Libuv { threads: Some(4) }).build()?;
/// compat.spawn(Lane::Cpu, || ()).wait()?;
/// let snap = compat.metrics();
/// assert_eq!(snap.threads_alive, 4);
/// assert_eq!(snap.lane(Lane::SlowIo).limit, 2);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Policy {
    /// Independent lanes (`Cpu`, `FastIo`, `SlowIo`), each with its own
    /// budget, queue, threads and counters. Sized from the machine by default.
    #[default]
    Lanes,
    /// libuv 1.46's thread pool: one FIFO shared by `Cpu` and `FastIo`, at most
    /// `(threads + 1) / 2` threads on `SlowIo`, every thread started at the
    /// first submission.
    Libuv {
        /// The pool size. `None` reads `UV_THREADPOOL_SIZE` at the first
        /// submission with libuv's rules, silent clamping included
        /// (see [`budget::libuv_nthreads`](crate::budget::libuv_nthreads)).
        /// `Some(n)` must be in `1..=1024`.
        threads: Option<usize>,
    },
}

impl Policy {
    /// `"lanes"` or `"libuv"`.
    pub fn name(&self) -> &'static str {
        match self {
            Policy::Lanes => "lanes",
            Policy::Libuv { .. } => "libuv",
        }
    }
}
