//! The two choices every layer reads: the [`Policy`] (the builder takes
//! it, the pool builds it, the snapshot reports it) and the `Cpu` lane's
//! [`CpuSched`].

use crate::error::{ConfigError, Knob};

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
#[non_exhaustive]
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
        /// (see [`compat::libuv_nthreads`](crate::compat::libuv_nthreads)).
        /// `Some(n)` must be in `1..=1024`.
        threads: Option<usize>,
    },
}

impl std::fmt::Display for Policy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
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

/// The Linux scheduling policy of `Cpu` lane workers (see
/// [`Builder::cpu_sched`](crate::Builder::cpu_sched)).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum CpuSched {
    /// `SCHED_OTHER` at the lane's nice value ([`Builder::cpu_nice`](crate::Builder::cpu_nice)): the
    /// default.
    #[default]
    Normal,
    /// `SCHED_BATCH` at the lane's nice value: the kernel treats the workers
    /// as CPU-bound and does not let them preempt a thread that wakes up.
    Batch,
    /// `SCHED_IDLE`: the workers run only on cores no other thread of the
    /// machine wants, below even nice 19.
    Idle,
    /// `SCHED_IDLE` while the lane gets the cores it can use, `SCHED_OTHER`
    /// at the process's own nice value while it starves (or the lowest
    /// above it `RLIMIT_NICE` allows, at most the lane's), where its
    /// checkpoints stop yielding: beside another process, each worker
    /// weighs what any thread of the process weighs. The pool's monitor
    /// samples the computing workers' run time every 50 ms; a lane whose
    /// workers ran less than a quarter of what they could (one core each,
    /// at most the process's cores) is promoted for a hold (0.5 s,
    /// doubling up to 8 s each time a return to `SCHED_IDLE` starves again
    /// at once).
    ///
    /// Leaving `SCHED_IDLE` needs `CAP_SYS_NICE` or an `RLIMIT_NICE` of at
    /// least `20 - nice` (`ulimit -e`); [`Builder::build`](crate::Builder::build) refuses the
    /// policy where the process has neither, and an adaptive `Cpu` lane
    /// (the monitor watches its workers).
    Guarded,
}

impl CpuSched {
    /// The token of the policy: `normal`, `batch` or `idle` (the values of
    /// `SLUICE_CPU_SCHED`).
    ///
    /// ```
    /// assert_eq!(sluice::CpuSched::Idle.token(), "idle");
    /// ```
    pub fn token(self) -> &'static str {
        match self {
            CpuSched::Normal => "normal",
            CpuSched::Batch => "batch",
            CpuSched::Idle => "idle",
            CpuSched::Guarded => "guarded",
        }
    }

    /// Reads a token (`normal` or `other`, `batch`, `idle`, `guarded`; case
    /// and surrounding white space aside), naming `setting` if refused.
    pub(crate) fn parse(setting: &str, raw: &str) -> Result<CpuSched, ConfigError> {
        match raw.trim().to_ascii_lowercase().as_str() {
            "normal" | "other" => Ok(CpuSched::Normal),
            "batch" => Ok(CpuSched::Batch),
            "idle" => Ok(CpuSched::Idle),
            "guarded" => Ok(CpuSched::Guarded),
            _ => Err(ConfigError::NotAccepted {
                setting: setting.to_string(),
                value: raw.to_string(),
                expected: "normal, batch, idle or guarded".to_string(),
                knob: Some(Knob::CpuSched),
            }),
        }
    }
}

/// Reads a `SLUICE_CPU_SCHED` token, as the builder and the bindings do.
///
/// ```
/// use sluice::CpuSched;
/// assert_eq!("Idle".parse::<CpuSched>(), Ok(CpuSched::Idle));
/// assert_eq!(" other ".parse::<CpuSched>(), Ok(CpuSched::Normal));
/// let err = "fast".parse::<CpuSched>().unwrap_err();
/// assert_eq!(err.knob(), Some(sluice::Knob::CpuSched));
/// assert_eq!(err.to_string(), "cpu_sched=\"fast\" is not accepted; expected normal, batch, idle or guarded");
/// ```
impl std::str::FromStr for CpuSched {
    type Err = ConfigError;

    fn from_str(s: &str) -> Result<CpuSched, ConfigError> {
        CpuSched::parse("cpu_sched", s)
    }
}
