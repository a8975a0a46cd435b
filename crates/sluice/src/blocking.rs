//! [`blocking`]: a task says "this part waits, it does not compute".

/// Runs `f`, telling the pool that the calling task waits in it (a system
/// call that may block: a read of a slow file system, a name lookup, a lock
/// held elsewhere) rather than computing, like Go's `entersyscall`.
///
/// On a worker of an adaptive lane (the default, see
/// [`Builder::adaptive`](crate::Builder::adaptive)), the worker counts as
/// *blocked* for the duration: its lane may start or wake one more thread
/// for queued work, up to its `max_threads`, so a lane whose threads are all
/// waiting keeps running its queue. Anywhere else (another thread, a lane
/// with compensation off, the libuv policy, a section nested in another) it
/// just runs `f`. A `Cpu` lane thread leaving the section waits until the
/// lane's computing threads fit its budget again, so threads computing never
/// exceed the usable cores. `sluice::fs` (feature `ops`) and the `getaddrinfo`
/// fallback of `sluice_dns` already use it.
///
/// ```
/// use sluice::{Lane, Pool};
/// use std::sync::{Arc, Barrier};
///
/// // One FastIo thread of budget, yet four tasks wait together: each
/// // declared wait lets the lane start another thread.
/// let pool = Pool::builder().threads(Lane::FastIo, 1).build()?;
/// let all_in = Arc::new(Barrier::new(4));
/// let tasks: Vec<_> = (0..4)
///     .map(|_| {
///         let all_in = Arc::clone(&all_in);
///         pool.spawn(Lane::FastIo, move || sluice::blocking(|| all_in.wait()).is_leader())
///     })
///     .collect();
/// let leaders = tasks.into_iter().map(|t| t.wait()).filter(|r| *r == Ok(true)).count();
/// assert_eq!(leaders, 1);
/// let fastio = pool.metrics().lane(Lane::FastIo).clone();
/// assert_eq!(fastio.compensated_total, 3); // threads started beyond the budget of 1
/// assert_eq!(fastio.blocking_sections_total, 4);
/// assert_eq!(fastio.blocked_threads, Some(0));
/// # Ok::<(), sluice::ConfigError>(())
/// ```
pub fn blocking<R>(f: impl FnOnce() -> R) -> R {
    let section = crate::policy::lanes::enter_blocking();
    let result = f();
    drop(section);
    result
}
