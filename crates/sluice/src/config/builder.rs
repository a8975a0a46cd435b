//! [`Builder`] and its setters: each records a value and where it came
//! from; nothing is checked until `build` (`build.rs`).

use crate::choice::{CpuSched, Policy};
use crate::error::Knob;
use crate::lane::Lane;
use crate::pool::Pool;
use std::time::Duration;

/// A value and where it came from, so errors can name it.
#[derive(Debug, Clone)]
pub(super) struct Setting<T> {
    pub(super) value: T,
    /// The raw text as given (for environment variables) or the number.
    pub(super) raw: String,
    /// `SLUICE_CPU_THREADS` or `threads(Lane::Cpu)`.
    pub(super) source: String,
    /// Which setting, typed.
    pub(super) knob: Knob,
}

impl<T: std::fmt::Display> Setting<T> {
    /// A value given in code, its raw text the value printed, by `source`
    /// (the setter: `threads(Lane::Cpu)`, `stack_size`).
    pub(super) fn given(value: T, source: String, knob: Knob) -> Self {
        Setting {
            raw: value.to_string(),
            value,
            source,
            knob,
        }
    }

    /// `lane`'s entry of `slots`, given in code by the lane setter `setter`
    /// (`threads`): its source `threads(Lane::Cpu)`, its knob `knob(Some(lane))`.
    fn set_lane(
        slots: &mut [Option<Self>; 3],
        lane: Lane,
        value: T,
        setter: &str,
        knob: fn(Option<Lane>) -> Knob,
    ) {
        let source = format!("{setter}(Lane::{lane:?})");
        slots[lane.index()] = Some(Setting::given(value, source, knob(Some(lane))));
    }
}

/// Configures and builds a [`Pool`].
///
/// ```
/// use sluice::{Lane, Pool};
/// use std::time::Duration;
///
/// let pool = Pool::builder()
///     .threads(Lane::FastIo, 8)
///     .threads(Lane::SlowIo, 128)
///     .queue_bound(Lane::Cpu, 1_000)
///     .queue_timeout(Lane::Cpu, Duration::from_secs(2))
///     .build()?;
/// assert_eq!(pool.limit(Lane::FastIo), 8);
/// assert_eq!(pool.metrics().lane(Lane::Cpu).queue_bound, Some(1_000));
///
/// // Above the documented maximum: an error, never a cap.
/// let err = Pool::builder().threads(Lane::SlowIo, 5_000).build().unwrap_err();
/// assert_eq!(err.to_string(), "threads(Lane::SlowIo)=\"5000\" is out of range; expected 1..=1024");
/// # Ok::<(), sluice::ConfigError>(())
/// ```
#[derive(Debug, Clone, Default)]
#[must_use = "a builder makes nothing until build()"]
pub struct Builder {
    pub(super) policy: Policy,
    pub(super) threads: [Option<Setting<usize>>; 3],
    pub(super) queue_bound: [Option<Setting<usize>>; 3],
    pub(super) queue_timeout: [Option<Duration>; 3],
    pub(super) keep_alive: [Option<Duration>; 3],
    pub(super) stack_size: Option<Setting<usize>>,
    pub(super) cpu_nice: Option<Setting<usize>>,
    pub(super) max_threads: [Option<Setting<usize>>; 3],
    pub(super) adaptive: [Option<Setting<bool>>; 3],
    pub(super) cpu_affinity: bool,
    pub(super) cpu_sched: Option<Setting<CpuSched>>,
    pub(super) fast_io_uring: FastIoUring,
    pub(super) untimed: bool,
    pub(super) thread_name_prefix: Option<String>,
    pub(super) hooks: crate::hooks::Hooks,
}

/// What [`Builder::fast_io_uring`] asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(super) enum FastIoUring {
    #[default]
    Off,
    On,
    /// On, with the setup made to fail (`EPERM`): the fallback, on demand.
    Refused,
}

impl Builder {
    /// A builder with every default: the lanes policy sized from the machine.
    pub fn new() -> Self {
        Builder::default()
    }

    /// Names the workers `PREFIX-cpu`, `PREFIX-fastio`, `PREFIX-slowio`
    /// instead of `sluice-*` (what `/proc`, `top -H` and debuggers show).
    /// Linux keeps 15 bytes of a thread name, so the prefix may have at
    /// most 8; a longer one, an empty one or one with a NUL byte is an
    /// error at [`build`](Builder::build), never a truncated name. Lanes
    /// policy only.
    ///
    /// ```
    /// use sluice::{Lane, Pool};
    /// let pool = Pool::builder().thread_name_prefix("myapp").build()?;
    /// let name = pool.spawn(Lane::Cpu, || std::thread::current().name().map(String::from)).wait()?;
    /// assert_eq!(name.as_deref(), Some("myapp-cpu"));
    /// let err = Pool::builder().thread_name_prefix("much-too-long").build().unwrap_err();
    /// assert!(err.to_string().starts_with("thread_name_prefix=\"much-too-long\" is out of range"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn thread_name_prefix(mut self, prefix: impl Into<String>) -> Self {
        self.thread_name_prefix = Some(prefix.into());
        self
    }

    /// Runs `f` on every worker thread as it starts, before it takes work
    /// (rayon's `start_handler`, tokio's `on_thread_start`): to set up
    /// thread-local state, a tracing subscriber, a CPU profiler's
    /// registration. Lanes policy only.
    ///
    /// ```
    /// use sluice::{Lane, Pool};
    /// use std::sync::Arc;
    /// use std::sync::atomic::{AtomicUsize, Ordering};
    /// use std::time::Duration;
    ///
    /// let (started, stopped) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
    /// let (s, t) = (Arc::clone(&started), Arc::clone(&stopped));
    /// let pool = Pool::builder()
    ///     .threads(Lane::Cpu, 1)
    ///     .on_thread_start(move || { s.fetch_add(1, Ordering::SeqCst); })
    ///     .on_thread_stop(move || { t.fetch_add(1, Ordering::SeqCst); })
    ///     .build()?;
    /// pool.spawn(Lane::Cpu, || ()).wait()?;
    /// assert_eq!(started.load(Ordering::SeqCst), 1);
    /// assert!(pool.shutdown(Duration::from_secs(5)).drained);
    /// assert_eq!(stopped.load(Ordering::SeqCst), 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn on_thread_start(mut self, f: impl Fn() + Send + Sync + 'static) -> Self {
        self.hooks.start = Some(std::sync::Arc::new(f));
        self
    }

    /// Runs `f` on every worker thread as it exits (retired when idle, or at
    /// shutdown), however it exits. Lanes policy only. See
    /// [`on_thread_start`](Builder::on_thread_start).
    pub fn on_thread_stop(mut self, f: impl Fn() + Send + Sync + 'static) -> Self {
        self.hooks.stop = Some(std::sync::Arc::new(f));
        self
    }

    /// Calls `f` with the lane and the panic message whenever a task
    /// panics, on the worker, before the task's handle gets
    /// [`TaskError::Panicked`](crate::TaskError::Panicked): to log it or
    /// count it where nobody awaits the handle. The worker survives either
    /// way; a panic inside `f` is caught like the task's.
    ///
    /// ```
    /// use sluice::{Lane, Pool, TaskError};
    /// use std::sync::{Arc, Mutex};
    ///
    /// let seen = Arc::new(Mutex::new(Vec::new()));
    /// let log = Arc::clone(&seen);
    /// let pool = Pool::builder()
    ///     .panic_handler(move |lane, msg| log.lock().unwrap().push(format!("{lane}: {msg}")))
    ///     .build()?;
    /// let r = pool.spawn(Lane::Cpu, || -> u8 { panic!("corrupt input") }).wait();
    /// assert_eq!(r, Err(TaskError::Panicked("corrupt input".into())));
    /// assert_eq!(*seen.lock().unwrap(), ["cpu: corrupt input"]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn panic_handler(mut self, f: impl Fn(Lane, &str) + Send + Sync + 'static) -> Self {
        self.hooks.panic = Some(std::sync::Arc::new(f));
        self
    }

    /// Chooses the policy (default [`Policy::Lanes`]).
    pub fn policy(mut self, policy: Policy) -> Self {
        self.policy = policy;
        self
    }

    /// Sets `lane`'s concurrency budget: at most `n` of its tasks run at once.
    /// Checked by [`build`](Builder::build): `1..=usable cores` for `Cpu`,
    /// `1..=1024` for the others. Lanes policy only.
    pub fn threads(mut self, lane: Lane, n: usize) -> Self {
        Setting::set_lane(&mut self.threads, lane, n, "threads", Knob::Threads);
        self
    }

    /// Bounds `lane`'s queue: past `n` queued tasks, [`Pool::try_spawn`]
    /// refuses with [`Busy`](crate::Busy) and [`Pool::spawn`] blocks the caller
    /// until there is room. Default: unbounded. Lanes policy only.
    pub fn queue_bound(mut self, lane: Lane, n: usize) -> Self {
        Setting::set_lane(
            &mut self.queue_bound,
            lane,
            n,
            "queue_bound",
            Knob::QueueBound,
        );
        self
    }

    /// Gives every task of `lane` a queue-wait deadline: one that has not
    /// started `timeout` after submission fails with
    /// [`TaskError::DeadlineExceeded`](crate::TaskError::DeadlineExceeded).
    pub fn queue_timeout(mut self, lane: Lane, timeout: Duration) -> Self {
        self.queue_timeout[lane.index()] = Some(timeout);
        self
    }

    /// How long an idle worker of `lane` waits for work before its thread
    /// exits (defaults: 60 s for `Cpu` and `FastIo`, 10 s for `SlowIo`).
    /// Lanes policy only.
    pub fn keep_alive(mut self, lane: Lane, idle: Duration) -> Self {
        self.keep_alive[lane.index()] = Some(idle);
        self
    }

    /// Worker stack size in bytes (default 2 MiB for lanes, libuv's 8 MiB for
    /// [`Policy::Libuv`]); accepted `64 KiB..=1 GiB`.
    pub fn stack_size(mut self, bytes: usize) -> Self {
        self.stack_size = Some(Setting::given(
            bytes,
            "stack_size".to_string(),
            Knob::StackSize,
        ));
        self
    }

    /// The nice value `Cpu` lane workers set on themselves, `0..=19`
    /// (default 10; 0 leaves them at the process's priority). A worker only
    /// ever lowers its priority: one born at a higher nice value (a process
    /// started under `nice -n 19`) keeps it, even where the process could
    /// raise it (root).
    ///
    /// When CPU work fills every core, a file read or the event loop thread
    /// that wakes up would otherwise wait for the kernel to preempt a CPU
    /// worker, a few milliseconds each time. At a higher nice value the CPU
    /// workers yield at once. The cost: against *other processes* of the same
    /// cgroup at nice 0, the `Cpu` lane gets a smaller share of a contended
    /// core (inside a container, only the container's own threads compete).
    /// Lanes policy only; the libuv policy keeps libuv's behaviour.
    pub fn cpu_nice(mut self, nice: u8) -> Self {
        self.cpu_nice = Some(Setting::given(
            usize::from(nice),
            "cpu_nice".to_string(),
            Knob::CpuNice,
        ));
        self
    }

    /// Turns blocking compensation on or off for `lane` (default on).
    ///
    /// On, a worker whose task waits instead of computing (declared with
    /// [`crate::blocking`], or, on `FastIo` and `SlowIo`, found sleeping by
    /// the pool's monitor) does not count against the lane's budget: the lane
    /// may run `budget + blocked` threads, up to
    /// [`max_threads`](Builder::max_threads). Off, the budget is a fixed
    /// thread count, as in libuv. Lanes policy only.
    ///
    /// ```
    /// use sluice::{Lane, Pool};
    /// let pool = Pool::builder().adaptive(Lane::FastIo, false).build()?;
    /// assert!(!pool.metrics().lane(Lane::FastIo).adaptive);
    /// assert!(pool.metrics().lane(Lane::SlowIo).adaptive);
    /// # Ok::<(), sluice::ConfigError>(())
    /// ```
    pub fn adaptive(mut self, lane: Lane, on: bool) -> Self {
        Setting::set_lane(&mut self.adaptive, lane, on, "adaptive", Knob::Adaptive);
        self
    }

    /// The most threads `lane` may run with blocking compensation, from its
    /// budget up to [`budget::MAX_THREADS`](crate::budget::MAX_THREADS) (defaults:
    /// [`budget::default_max_threads`](crate::budget::default_max_threads)). Below the budget or above the
    /// ceiling is an error. Lanes policy only.
    ///
    /// ```
    /// use sluice::{Lane, Pool};
    /// let pool = Pool::builder().threads(Lane::FastIo, 8).max_threads(Lane::FastIo, 64).build()?;
    /// assert_eq!(pool.metrics().lane(Lane::FastIo).max_threads, Some(64));
    /// let err = Pool::builder().threads(Lane::FastIo, 8).max_threads(Lane::FastIo, 4).build().unwrap_err();
    /// assert_eq!(
    ///     err.to_string(),
    ///     "max_threads(Lane::FastIo)=\"4\" is out of range; expected 8..=1024 (from the lane's budget to the ceiling)"
    /// );
    /// # Ok::<(), sluice::ConfigError>(())
    /// ```
    pub fn max_threads(mut self, lane: Lane, n: usize) -> Self {
        Setting::set_lane(
            &mut self.max_threads,
            lane,
            n,
            "max_threads",
            Knob::MaxThreads,
        );
        self
    }

    /// Pins `Cpu` lane workers one per usable core, on the process's own
    /// affinity set (default off). A worker started beyond the budget while
    /// others are blocked, when every core has its worker, runs unpinned.
    /// [`build`](Builder::build) fails with [`ConfigError::Refused`](crate::ConfigError::Refused) if the
    /// kernel will not report or set thread affinity (a seccomp filter, a
    /// cgroup that forbids it). Lanes policy only.
    ///
    /// Off by default: `sluice lab adaptive` measures it on a mixed load, and
    /// pinning forbids the scheduler from moving a `Cpu` worker off a core the
    /// event loop or an I/O thread needs.
    ///
    /// ```
    /// use sluice::{Lane, Pool};
    /// let pool = Pool::builder().cpu_affinity(true).build()?;
    /// assert_eq!(pool.spawn(Lane::Cpu, || 6 * 7).wait()?, 42);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn cpu_affinity(mut self, on: bool) -> Self {
        self.cpu_affinity = on;
        self
    }

    /// The scheduling policy `Cpu` lane workers set on themselves (default
    /// [`CpuSched::Normal`] at nice 10). With every core busy computing, a
    /// thread that wakes up (the event loop, a file read, a lookup) waits for
    /// the kernel to preempt a `Cpu` worker; `Batch` and `Idle` shorten that
    /// wait, and `Idle` also yields to every other process of the machine.
    /// `Guarded` is `Idle` with a guard: while another process takes the
    /// cores, the lane moves back to `SCHED_OTHER` at the process's nice
    /// value ([`CpuSched::Guarded`]).
    /// `SLUICE_CPU_SCHED=idle sluice lab probe --subjects sluice` measures one
    /// against the default on this machine.
    /// Lowering a policy needs no privilege; where the kernel refuses
    /// anyway, the worker runs under the process's policy. Lanes policy only.
    ///
    /// ```
    /// use sluice::{CpuSched, Lane, Pool};
    /// let pool = Pool::builder().cpu_sched(CpuSched::Idle).build()?;
    /// assert_eq!(pool.spawn(Lane::Cpu, || 6 * 7).wait()?, 42);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn cpu_sched(mut self, sched: CpuSched) -> Self {
        self.cpu_sched = Some(Setting {
            value: sched,
            raw: sched.token().to_string(),
            source: "cpu_sched".to_string(),
            knob: Knob::CpuSched,
        });
        self
    }

    /// Sends [`fs::read`](crate::fs::read) and [`fs::stat`](crate::fs::stat)
    /// through io_uring on the FastIo workers, one ring per worker thread
    /// (default off; `SLUICE_FASTIO_URING=on`). Experimental: see
    /// ARCHITECTURE.md's io_uring section for what it measured. The kernel
    /// is probed once per process at [`build`](Builder::build); where it
    /// refuses (seccomp, an old kernel, a missing opcode), the pool stays on
    /// its threads with the same results, and
    /// [`Pool::fast_io_uring`](crate::Pool::fast_io_uring) says why.
    /// `SLUICE_FASTIO_URING=refused` (or
    /// [`fast_io_uring_refused`](Builder::fast_io_uring_refused)) makes the
    /// setup fail, to try the fallback.
    ///
    /// ```
    /// use sluice::{Pool, fs};
    /// let pool = Pool::builder().fast_io_uring(true).build()?;
    /// assert!(fs::read(&pool, "Cargo.toml").wait()??.starts_with(b"[package]"));
    /// let s = pool.fast_io_uring();
    /// assert!(s.requested);
    /// assert_eq!(s.ring_ops + s.thread_ops, 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn fast_io_uring(mut self, on: bool) -> Self {
        self.fast_io_uring = if on {
            FastIoUring::On
        } else {
            FastIoUring::Off
        };
        self
    }

    /// Asks for io_uring ([`fast_io_uring`](Builder::fast_io_uring)) and
    /// makes its setup fail with `EPERM`, as a seccomp filter would: the
    /// fallback path, on demand (`SLUICE_FASTIO_URING=refused`).
    ///
    /// ```
    /// use sluice::{Pool, fs};
    /// let pool = Pool::builder().fast_io_uring_refused().build()?;
    /// assert!(fs::read(&pool, "Cargo.toml").wait()??.starts_with(b"[package]"));
    /// let s = pool.fast_io_uring();
    /// assert!(s.requested && !s.active);
    /// assert!(s.refused.unwrap().starts_with("io_uring_setup: "));
    /// assert_eq!((s.ring_ops, s.thread_ops), (0, 1));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn fast_io_uring_refused(mut self) -> Self {
        self.fast_io_uring = FastIoUring::Refused;
        self
    }

    /// Turns off the clock reads and histograms (counts stay on). Exists to
    /// measure what timing costs; there is little reason to use it otherwise.
    pub fn timing(mut self, on: bool) -> Self {
        self.untimed = !on;
        self
    }
}

impl Pool {
    /// A [`Builder`] with every default.
    ///
    /// ```
    /// let pool = sluice::Pool::builder().build()?;
    /// assert_eq!(pool.policy(), &sluice::Policy::Lanes);
    /// # Ok::<(), sluice::ConfigError>(())
    /// ```
    pub fn builder() -> Builder {
        Builder::new()
    }
}
