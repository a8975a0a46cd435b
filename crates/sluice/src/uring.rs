//! FastIo's experimental io_uring path for [`fs::read`](crate::fs::read) and
//! [`fs::stat`](crate::fs::stat), off by default
//! ([`Builder::fast_io_uring`](crate::Builder::fast_io_uring),
//! `SLUICE_FASTIO_URING`).
//!
//! - **Probe once.** The first pool that asks probes the kernel once for the
//!   process: `io_uring_setup`, the probe API (`IORING_OP_OPENAT`, `READ`,
//!   `CLOSE`, `STATX`) and a sparse fixed-file table. A refusal (seccomp's
//!   `EPERM`, an old kernel's `ENOSYS`, `kernel.io_uring_disabled`, a missing
//!   opcode) leaves the pool on its threads; [`Pool::fast_io_uring`] says why,
//!   and a `tracing` event (feature `tracing`) is logged.
//! - **One ring per FastIo worker thread**, made on the worker's first call
//!   and dropped when the worker exits. A worker runs one task at a time and
//!   waits for it anyway, so its own ring needs no lock, no completion
//!   routing between threads, and no reaper thread; a ring shared by the
//!   lane's workers would need all three. A worker whose ring cannot be made
//!   (an fd or memlock limit) uses the thread path, counted.
//! - **Submitted and reaped by the worker, in one `io_uring_enter`.** A read
//!   is one chain `OPENAT` (into fixed slot 0) → `READ` (up to 64 KiB) →
//!   `CLOSE`, hard-linked so the close runs whatever the read did; a stat is
//!   one `STATX`. The thread path makes 4–5 system calls for a small read
//!   (`openat`, `statx`, `read`, `read`, `close`). A file that fills the
//!   64 KiB is read again by the thread path. The thread hop to the worker
//!   stays: this saves system calls, not the hand-off.
//!
//! [`Pool::fast_io_uring`]: crate::Pool::fast_io_uring

use std::io;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};

/// What [`Pool::fast_io_uring`](crate::Pool::fast_io_uring) reports.
///
/// ```
/// let pool = sluice::Pool::builder().build()?;
/// let s = pool.fast_io_uring();
/// assert!(!s.requested && !s.active);
/// assert_eq!((s.ring_ops, s.thread_ops), (0, 0));
/// # Ok::<(), sluice::ConfigError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct UringStatus {
    /// The pool asked for io_uring (builder or `SLUICE_FASTIO_URING`).
    pub requested: bool,
    /// The probe passed: `fs::read` and `fs::stat` go through the rings.
    pub active: bool,
    /// Why io_uring was refused, where it was requested and refused.
    pub refused: Option<String>,
    /// `fs::read` / `fs::stat` calls answered through a ring.
    pub ring_ops: u64,
    /// Calls of those two answered by the thread path while io_uring was
    /// requested: refused, a worker without a ring, a file over 64 KiB.
    pub thread_ops: u64,
}

/// A pool's io_uring switch (in the pool's shared state).
#[derive(Debug, Default)]
pub(crate) struct Switch {
    /// Set once at build where requested: `Ok` where the probe passed.
    probe: OnceLock<Result<(), String>>,
    ring_ops: AtomicU64,
    thread_ops: AtomicU64,
}

impl Switch {
    /// Turns io_uring on, probing once per process (`refuse` makes the
    /// setup fail with `EPERM` instead, as a seccomp filter would).
    pub(crate) fn enable(&self, refuse: bool) {
        let probe = if refuse {
            Err(sluice_uring::refusal(
                "io_uring_setup",
                &io::Error::from_raw_os_error(libc::EPERM),
            ))
        } else {
            sluice_uring::probe()
        };
        #[cfg(feature = "tracing")]
        if let Err(why) = &probe {
            tracing::warn!(why = %why, "sluice: io_uring refused; FastIo stays on its threads");
        }
        let _ = self.probe.set(probe);
    }

    /// The pool asked for io_uring.
    pub(crate) fn status_requested(&self) -> bool {
        self.probe.get().is_some()
    }

    fn active(&self) -> bool {
        matches!(self.probe.get(), Some(Ok(())))
    }

    /// What the pool's status says.
    pub(crate) fn status(&self) -> UringStatus {
        UringStatus {
            requested: self.probe.get().is_some(),
            active: self.active(),
            refused: self.probe.get().and_then(|p| p.clone().err()),
            ring_ops: self.ring_ops.load(Ordering::Relaxed),
            thread_ops: self.thread_ops.load(Ordering::Relaxed),
        }
    }

    /// `through_ring()` where the pool is on io_uring, `threads()`
    /// otherwise or where the ring answers `None` (see `sluice_uring`).
    /// Only `sluice::fs` (feature `ops`) sends calls through it.
    #[cfg(feature = "ops")]
    pub(crate) fn run<T>(
        &self,
        through_ring: impl FnOnce() -> Option<io::Result<T>>,
        threads: impl FnOnce() -> io::Result<T>,
    ) -> io::Result<T> {
        if self.probe.get().is_none() {
            return threads();
        }
        if self.active()
            && let Some(r) = through_ring()
        {
            self.ring_ops.fetch_add(1, Ordering::Relaxed);
            return r;
        }
        self.thread_ops.fetch_add(1, Ordering::Relaxed);
        threads()
    }
}
