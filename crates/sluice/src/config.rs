//! [`Builder`]: validated configuration, from code or from `SLUICE_*`
//! environment variables, and [`ConfigError`].
//!
//! Nothing is ever capped or defaulted silently: zero, junk, negative or
//! above-maximum values are errors that name the setting and its value.

use crate::budget;
use crate::compat;
use crate::lane::Lane;
use crate::loom;
use crate::policy::Policy;
use crate::policy::lanes::{LaneSettings, default_settings};
use crate::pool::Pool;
use std::time::Duration;

/// The environment variables [`Builder::from_env`] reads.
pub const ENV_VARS: [&str; 12] = [
    "SLUICE_CPU_THREADS",
    "SLUICE_FASTIO_THREADS",
    "SLUICE_SLOWIO_THREADS",
    "SLUICE_QUEUE_BOUND",
    "SLUICE_STACK_SIZE",
    "SLUICE_CPU_NICE",
    "SLUICE_ADAPTIVE",
    "SLUICE_CPU_MAX_THREADS",
    "SLUICE_FASTIO_MAX_THREADS",
    "SLUICE_SLOWIO_MAX_THREADS",
    "SLUICE_CPU_AFFINITY",
    "SLUICE_CPU_SCHED",
];

/// A refused configuration value. The message names the setting (an
/// environment variable or a builder call), the value, and what is accepted.
///
/// ```
/// use sluice::{Builder, ConfigError};
///
/// let env = |name: &str| (name == "SLUICE_CPU_THREADS").then(|| "abc".to_string());
/// let err = Builder::from_vars(env).unwrap_err();
/// assert!(matches!(err, ConfigError::NotANumber { .. }));
/// assert!(err.to_string().starts_with("SLUICE_CPU_THREADS=\"abc\" is not a number; expected 1..="));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ConfigError {
    /// The value is not a whole number.
    #[error("{setting}={value:?} is not a number; expected {expected}")]
    NotANumber {
        /// The environment variable or builder call.
        setting: String,
        /// The value as given.
        value: String,
        /// What is accepted, e.g. `1..=1024`.
        expected: String,
        /// Which setting, typed (`None` for one outside [`Knob`]).
        knob: Option<Knob>,
    },
    /// The value of an environment variable is not UTF-8 text.
    #[error("{setting}={value:?} is not valid UTF-8; expected {expected}")]
    NotUnicode {
        /// The environment variable.
        setting: String,
        /// The value, its invalid bytes replaced by U+FFFD.
        value: String,
        /// What is accepted.
        expected: String,
        /// Which setting, typed.
        knob: Option<Knob>,
    },
    /// The value is a number outside the accepted range.
    #[error("{setting}={value:?} is out of range; expected {expected}{why}")]
    OutOfRange {
        /// The environment variable or builder call.
        setting: String,
        /// The value as given.
        value: String,
        /// What is accepted, e.g. `1..=2`.
        expected: String,
        /// Why the range is what it is, starting with a separator, or empty.
        why: String,
        /// Which setting, typed (`None` for one outside [`Knob`]).
        knob: Option<Knob>,
    },
    /// The value is not one of the accepted words.
    #[error("{setting}={value:?} is not accepted; expected {expected}")]
    NotAccepted {
        /// The environment variable or builder call.
        setting: String,
        /// The value as given.
        value: String,
        /// What is accepted.
        expected: String,
        /// Which setting, typed.
        knob: Option<Knob>,
    },
    /// The operating system refused what the setting needs.
    #[error("{setting}: {why}")]
    Refused {
        /// The builder call.
        setting: String,
        /// What the kernel said, and what to do.
        why: String,
        /// Which setting, typed.
        knob: Option<Knob>,
    },
    /// The setting has no meaning under the chosen policy.
    #[error("{setting} is not supported by the {policy} policy: {why}")]
    Unsupported {
        /// The builder call or operation.
        setting: String,
        /// The policy's name.
        policy: &'static str,
        /// What to do instead.
        why: String,
    },
}

impl ConfigError {
    /// The setting refused, typed, where it is one of [`Knob`]: what a
    /// binding maps to its own option names instead of reading the message.
    ///
    /// ```
    /// use sluice::{Builder, Knob, Lane};
    /// let err = Builder::new().threads(Lane::SlowIo, 0).build().unwrap_err();
    /// assert_eq!(err.knob(), Some(Knob::Threads(Some(Lane::SlowIo))));
    /// assert_eq!(err.variable(), None);
    /// ```
    pub fn knob(&self) -> Option<Knob> {
        match self {
            ConfigError::NotANumber { knob, .. }
            | ConfigError::NotUnicode { knob, .. }
            | ConfigError::OutOfRange { knob, .. }
            | ConfigError::NotAccepted { knob, .. }
            | ConfigError::Refused { knob, .. } => *knob,
            ConfigError::Unsupported { .. } => None,
        }
    }

    /// The environment variable ([`ENV_VARS`]) whose value was refused,
    /// when the refused value came from one rather than from a builder call.
    ///
    /// ```
    /// use sluice::Builder;
    /// let env = |name: &str| (name == "SLUICE_CPU_NICE").then(|| "x".to_string());
    /// let err = Builder::from_vars(env).unwrap_err();
    /// assert_eq!(err.variable(), Some("SLUICE_CPU_NICE"));
    /// ```
    pub fn variable(&self) -> Option<&'static str> {
        let setting = match self {
            ConfigError::NotANumber { setting, .. }
            | ConfigError::NotUnicode { setting, .. }
            | ConfigError::OutOfRange { setting, .. }
            | ConfigError::NotAccepted { setting, .. }
            | ConfigError::Refused { setting, .. }
            | ConfigError::Unsupported { setting, .. } => setting,
        };
        ENV_VARS.into_iter().find(|v| v == setting)
    }
}

/// A setting of the [`Builder`], typed: what [`ConfigError::knob`] names.
/// A lane of `None` is a setting of every lane (`SLUICE_QUEUE_BOUND`,
/// `SLUICE_ADAPTIVE`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Knob {
    /// [`Builder::threads`], `SLUICE_*_THREADS`.
    Threads(Option<Lane>),
    /// [`Builder::queue_bound`], `SLUICE_QUEUE_BOUND`.
    QueueBound(Option<Lane>),
    /// [`Builder::max_threads`], `SLUICE_*_MAX_THREADS`.
    MaxThreads(Option<Lane>),
    /// [`Builder::adaptive`], `SLUICE_ADAPTIVE`.
    Adaptive(Option<Lane>),
    /// [`Builder::stack_size`], `SLUICE_STACK_SIZE`.
    StackSize,
    /// [`Builder::cpu_nice`], `SLUICE_CPU_NICE`.
    CpuNice,
    /// [`Builder::cpu_sched`], `SLUICE_CPU_SCHED`.
    CpuSched,
    /// [`Builder::cpu_affinity`], `SLUICE_CPU_AFFINITY`.
    CpuAffinity,
    /// A run-time resize of a lane.
    Resize(Option<Lane>),
    /// `Policy::Libuv { threads }`.
    LibuvThreads,
}

/// A value and where it came from, so errors can name it.
#[derive(Debug, Clone)]
struct Setting<T> {
    value: T,
    /// The raw text as given (for environment variables) or the number.
    raw: String,
    /// `SLUICE_CPU_THREADS` or `threads(Lane::Cpu)`.
    source: String,
    /// Which setting, typed.
    knob: Knob,
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
    policy: Policy,
    threads: [Option<Setting<usize>>; 3],
    queue_bound: [Option<Setting<usize>>; 3],
    queue_timeout: [Option<Duration>; 3],
    keep_alive: [Option<Duration>; 3],
    stack_size: Option<Setting<usize>>,
    cpu_nice: Option<Setting<usize>>,
    max_threads: [Option<Setting<usize>>; 3],
    adaptive: [Option<Setting<bool>>; 3],
    cpu_affinity: bool,
    cpu_sched: Option<Setting<CpuSched>>,
    untimed: bool,
    thread_name_prefix: Option<String>,
    hooks: crate::hooks::Hooks,
}

/// The Linux scheduling policy of `Cpu` lane workers (see
/// [`Builder::cpu_sched`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum CpuSched {
    /// `SCHED_OTHER` at the lane's nice value ([`Builder::cpu_nice`]): the
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
    /// least `20 - nice` (`ulimit -e`); [`Builder::build`] refuses the
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

    fn parse(setting: &str, raw: &str) -> Result<CpuSched, ConfigError> {
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

    /// A builder with defaults overridden by the `SLUICE_*` environment
    /// variables that are set (see [`Builder::from_vars`]).
    pub fn from_env() -> Result<Self, ConfigError> {
        Builder::check_env()?;
        Builder::from_vars(|name| std::env::var(name).ok())
    }

    /// Refuses any of [`ENV_VARS`] whose value is not UTF-8: such a value
    /// can be neither read nor passed for unset. [`Builder::from_env`]
    /// calls it; callers of [`Builder::from_vars`] reading the process's
    /// environment call it first.
    ///
    /// ```
    /// use sluice::Builder;
    /// Builder::check_env()?;
    /// let pool = Builder::from_vars(|k| std::env::var(k).ok())?.build()?;
    /// assert_eq!(pool.metrics().lane(sluice::Lane::Cpu).submitted_total, 0);
    /// # Ok::<(), sluice::ConfigError>(())
    /// ```
    pub fn check_env() -> Result<(), ConfigError> {
        for name in ENV_VARS {
            if let Some(v) = std::env::var_os(name)
                && v.to_str().is_none()
            {
                return Err(ConfigError::NotUnicode {
                    setting: name.to_string(),
                    value: v.to_string_lossy().into_owned(),
                    expected: "a whole number".to_string(),
                    knob: None,
                });
            }
        }
        Ok(())
    }

    /// Like [`Builder::from_env`], reading variables through `lookup`:
    ///
    /// | variable                | meaning                                    | accepted               |
    /// |-------------------------|--------------------------------------------|------------------------|
    /// | `SLUICE_CPU_THREADS`    | `Cpu` budget                               | 1..=usable cores       |
    /// | `SLUICE_FASTIO_THREADS` | `FastIo` budget                            | 1..=1024               |
    /// | `SLUICE_SLOWIO_THREADS` | `SlowIo` budget                            | 1..=1024               |
    /// | `SLUICE_QUEUE_BOUND`    | queue bound of every lane                  | 1..=16777216           |
    /// | `SLUICE_STACK_SIZE`     | worker stack size in bytes                 | 65536..=1073741824     |
    /// | `SLUICE_CPU_NICE`       | nice value of `Cpu` workers                | 0..=19                 |
    /// | `SLUICE_ADAPTIVE`       | blocking compensation, every lane          | `on`/`off`/`1`/`0`/`true`/`false` |
    /// | `SLUICE_CPU_MAX_THREADS`    | `Cpu` threads, compensation included   | budget..=1024          |
    /// | `SLUICE_FASTIO_MAX_THREADS` | `FastIo` threads, compensation included| budget..=1024          |
    /// | `SLUICE_SLOWIO_MAX_THREADS` | `SlowIo` threads, compensation included| budget..=1024          |
    /// | `SLUICE_CPU_AFFINITY`   | pin `Cpu` workers one per core             | `on`/`off` (as above)  |
    /// | `SLUICE_CPU_SCHED`      | scheduling policy of `Cpu` workers         | `normal`/`batch`/`idle`|
    ///
    /// An empty value is an unset one (the default applies), for every
    /// variable. Surrounding white space is ignored; anything else that is not a
    /// whole number in range is an error naming the variable and its value.
    ///
    /// ```
    /// use sluice::{Builder, Lane};
    ///
    /// let env = |name: &str| match name {
    ///     "SLUICE_FASTIO_THREADS" => Some("16".to_string()),
    ///     "SLUICE_QUEUE_BOUND" => Some(" 500 ".to_string()),
    ///     _ => None,
    /// };
    /// let pool = Builder::from_vars(env)?.build()?;
    /// assert_eq!(pool.limit(Lane::FastIo), 16);
    /// assert_eq!(pool.metrics().lane(Lane::SlowIo).queue_bound, Some(500));
    ///
    /// let neg = |name: &str| (name == "SLUICE_SLOWIO_THREADS").then(|| "-3".to_string());
    /// let err = Builder::from_vars(neg).unwrap_err();
    /// assert_eq!(err.to_string(), "SLUICE_SLOWIO_THREADS=\"-3\" is out of range; expected 1..=1024");
    /// # Ok::<(), sluice::ConfigError>(())
    /// ```
    pub fn from_vars(lookup: impl Fn(&str) -> Option<String>) -> Result<Self, ConfigError> {
        let cores = loom::usable_cores();
        // An empty value is an unset one, for every variable.
        let lookup = |name: &str| lookup(name).filter(|v| !v.is_empty());
        let count = |var: &str, knob, min, max, why| count_var(lookup, var, knob, min, max, why);
        let mut b = Builder::new();
        for (lane, var) in THREADS_VARS {
            let max = budget::max_threads(lane, cores);
            b.threads[lane.index()] = count(
                var,
                Knob::Threads(Some(lane)),
                1,
                max,
                cores_why(lane, cores),
            )?;
        }
        let bound = count(
            "SLUICE_QUEUE_BOUND",
            Knob::QueueBound(None),
            1,
            budget::MAX_QUEUE_BOUND,
            String::new(),
        )?;
        b.queue_bound = Lane::ALL.map(|_| bound.clone());
        b.stack_size = count(
            "SLUICE_STACK_SIZE",
            Knob::StackSize,
            budget::MIN_STACK_SIZE,
            budget::MAX_STACK_SIZE,
            String::new(),
        )?;
        for (lane, var) in MAX_THREADS_VARS {
            // The lower bound (the lane's budget) is checked by `build`.
            let knob = Knob::MaxThreads(Some(lane));
            b.max_threads[lane.index()] = count(var, knob, 1, budget::MAX_THREADS, String::new())?;
        }
        b.cpu_and_adaptive_vars(lookup)?;
        Ok(b)
    }

    /// The `Cpu` lane's switches and words, `SLUICE_ADAPTIVE` (every
    /// lane's) and `SLUICE_CPU_NICE`, read by [`Builder::from_vars`] after
    /// the counts.
    fn cpu_and_adaptive_vars(
        &mut self,
        lookup: impl Fn(&str) -> Option<String>,
    ) -> Result<(), ConfigError> {
        if let Some(raw) = lookup("SLUICE_CPU_AFFINITY") {
            self.cpu_affinity = parse_switch("SLUICE_CPU_AFFINITY", Knob::CpuAffinity, raw)?;
        }
        if let Some(raw) = lookup("SLUICE_CPU_SCHED") {
            self.cpu_sched = Some(Setting {
                value: CpuSched::parse("SLUICE_CPU_SCHED", &raw)?,
                raw,
                source: "SLUICE_CPU_SCHED".to_string(),
                knob: Knob::CpuSched,
            });
        }
        if let Some(raw) = lookup("SLUICE_ADAPTIVE") {
            let adaptive = Setting {
                value: parse_switch("SLUICE_ADAPTIVE", Knob::Adaptive(None), raw.clone())?,
                raw,
                source: "SLUICE_ADAPTIVE".to_string(),
                knob: Knob::Adaptive(None),
            };
            self.adaptive = Lane::ALL.map(|_| Some(adaptive.clone()));
        }
        self.cpu_nice = count_var(
            &lookup,
            "SLUICE_CPU_NICE",
            Knob::CpuNice,
            0,
            budget::MAX_NICE as usize,
            String::new(),
        )?;
        Ok(())
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
        self.threads[lane.index()] = Some(Setting {
            value: n,
            raw: n.to_string(),
            source: format!("threads(Lane::{lane:?})"),
            knob: Knob::Threads(Some(lane)),
        });
        self
    }

    /// Bounds `lane`'s queue: past `n` queued tasks, [`Pool::try_spawn`]
    /// refuses with [`Busy`](crate::Busy) and [`Pool::spawn`] blocks the caller
    /// until there is room. Default: unbounded. Lanes policy only.
    pub fn queue_bound(mut self, lane: Lane, n: usize) -> Self {
        self.queue_bound[lane.index()] = Some(Setting {
            value: n,
            raw: n.to_string(),
            source: format!("queue_bound(Lane::{lane:?})"),
            knob: Knob::QueueBound(Some(lane)),
        });
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
        self.stack_size = Some(Setting {
            value: bytes,
            raw: bytes.to_string(),
            source: "stack_size".to_string(),
            knob: Knob::StackSize,
        });
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
        self.cpu_nice = Some(Setting {
            value: usize::from(nice),
            raw: nice.to_string(),
            source: "cpu_nice".to_string(),
            knob: Knob::CpuNice,
        });
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
        self.adaptive[lane.index()] = Some(Setting {
            value: on,
            raw: on.to_string(),
            source: format!("adaptive(Lane::{lane:?})"),
            knob: Knob::Adaptive(Some(lane)),
        });
        self
    }

    /// The most threads `lane` may run with blocking compensation, from its
    /// budget up to [`budget::MAX_THREADS`] (defaults:
    /// [`budget::default_max_threads`]). Below the budget or above the
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
        self.max_threads[lane.index()] = Some(Setting {
            value: n,
            raw: n.to_string(),
            source: format!("max_threads(Lane::{lane:?})"),
            knob: Knob::MaxThreads(Some(lane)),
        });
        self
    }

    /// Pins `Cpu` lane workers one per usable core, on the process's own
    /// affinity set (default off). A worker started beyond the budget while
    /// others are blocked, when every core has its worker, runs unpinned.
    /// [`build`](Builder::build) fails with [`ConfigError::Refused`] if the
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

    /// Turns off the clock reads and histograms (counts stay on). Exists to
    /// measure what timing costs; there is little reason to use it otherwise.
    pub fn timing(mut self, on: bool) -> Self {
        self.untimed = !on;
        self
    }

    /// Validates everything and builds the pool. No thread starts here: the
    /// lanes policy starts workers on demand, the libuv policy at the first
    /// submission.
    pub fn build(self) -> Result<Pool, ConfigError> {
        let stack_size = self.checked_stack_size()?;
        match self.policy {
            Policy::Lanes => self.build_lanes(stack_size),
            Policy::Libuv { threads } => self.build_libuv(threads, stack_size),
        }
    }

    /// The workers' stack size: the one set, checked, or the policy's.
    fn checked_stack_size(&self) -> Result<usize, ConfigError> {
        match &self.stack_size {
            Some(s) => check_range(
                s,
                budget::MIN_STACK_SIZE,
                budget::MAX_STACK_SIZE,
                String::new(),
            ),
            None => Ok(match self.policy {
                Policy::Lanes => budget::DEFAULT_STACK_SIZE,
                Policy::Libuv { .. } => compat::LIBUV_STACK_SIZE,
            }),
        }
    }

    /// The lanes policy: each lane's settings over its defaults, lane by
    /// lane, then the `Cpu` lane's own.
    fn build_lanes(self, stack_size: usize) -> Result<Pool, ConfigError> {
        let cores = loom::usable_cores();
        let mut settings = Lane::ALL.map(|lane| default_settings(lane, cores));
        for lane in Lane::ALL {
            self.lane_settings(lane, cores, stack_size, &mut settings[lane.index()])?;
        }
        self.cpu_settings(&mut settings[Lane::Cpu.index()])?;
        Ok(Pool::new_lanes(
            settings,
            self.queue_timeout,
            self.hooks.panic.clone(),
        ))
    }

    /// What is set for `lane`, checked, written over its defaults `s`:
    /// budget, queue bound, keep-alive, thread name, hooks, compensation
    /// and its ceiling.
    fn lane_settings(
        &self,
        lane: Lane,
        cores: usize,
        stack_size: usize,
        s: &mut LaneSettings,
    ) -> Result<(), ConfigError> {
        if let Some(t) = &self.threads[lane.index()] {
            s.limit = check_range(
                t,
                1,
                budget::max_threads(lane, cores),
                cores_why(lane, cores),
            )?;
        }
        if let Some(b) = &self.queue_bound[lane.index()] {
            s.bound = check_range(b, 1, budget::MAX_QUEUE_BOUND, String::new())?;
        }
        if let Some(k) = self.keep_alive[lane.index()] {
            s.keep_alive = k;
        }
        s.stack_size = stack_size;
        s.timed = !self.untimed;
        if let Some(p) = &self.thread_name_prefix {
            s.thread_name = thread_name(p, lane)?;
        }
        s.hooks = self.hooks.clone();
        if let Some(a) = &self.adaptive[lane.index()] {
            s.adaptive = a.value;
        }
        match &self.max_threads[lane.index()] {
            Some(m) => {
                s.max_threads = check_range(
                    m,
                    s.limit,
                    budget::MAX_THREADS,
                    " (from the lane's budget to the ceiling)".to_string(),
                )?;
            }
            // A budget set above the default maximum raises it.
            None => s.max_threads = s.max_threads.max(s.limit),
        }
        Ok(())
    }

    /// The `Cpu` lane's own settings, checked, written over `cpu`: nice
    /// value, scheduling policy, affinity.
    fn cpu_settings(&self, cpu: &mut LaneSettings) -> Result<(), ConfigError> {
        if let Some(n) = &self.cpu_nice {
            cpu.nice = check_range(n, 0, budget::MAX_NICE as usize, String::new())? as i32;
        }
        if let Some(sched) = &self.cpu_sched {
            if sched.value == CpuSched::Guarded {
                check_guard(&sched.source, cpu)?;
            }
            cpu.sched = sched.value;
        }
        if self.cpu_affinity {
            let cpus = process_cpus()?;
            cpu.pin = Some(std::sync::Arc::new(crate::policy::lanes::CpuSlots::new(
                cpus,
            )));
        }
        Ok(())
    }

    /// The libuv policy: libuv's pool size checked, and every setting libuv
    /// has no equivalent of refused.
    fn build_libuv(self, threads: Option<usize>, stack_size: usize) -> Result<Pool, ConfigError> {
        let lacks = self.libuv_lacks();
        let (before_size, after_size) = lacks.split_at(LIBUV_LACKS_BEFORE_SIZE);
        refuse_under_libuv(before_size)?;
        if let Some(n) = threads {
            let s = Setting {
                value: n,
                raw: n.to_string(),
                source: "Policy::Libuv { threads }".to_string(),
                knob: Knob::LibuvThreads,
            };
            check_range(&s, 1, compat::LIBUV_MAX_THREADPOOL_SIZE, String::new())?;
        }
        refuse_under_libuv(after_size)?;
        Ok(Pool::new_libuv(
            threads,
            stack_size,
            !self.untimed,
            self.queue_timeout,
            self.hooks.panic.clone(),
        ))
    }

    /// What libuv has no equivalent of, in the order refused: where it is
    /// set, the setting's name, and why libuv lacks it. The first
    /// [`LIBUV_LACKS_BEFORE_SIZE`] are refused before the pool size is
    /// checked.
    fn libuv_lacks(&self) -> [(Option<&str>, &'static str); 10] {
        fn first<T>(set: &[Option<Setting<T>>; 3]) -> Option<&str> {
            set.iter().flatten().next().map(|s| s.source.as_str())
        }
        let no_compensation = "libuv's pool has a fixed size and no compensation";
        [
            (
                first(&self.threads),
                "libuv has one pool size for every lane; set Policy::Libuv { threads }",
            ),
            (first(&self.queue_bound), "libuv's queue is unbounded"),
            (
                self.cpu_nice.as_ref().map(|n| n.source.as_str()),
                "libuv runs every thread at the process's priority",
            ),
            (first(&self.max_threads), no_compensation),
            (first(&self.adaptive), no_compensation),
            (
                self.cpu_sched.as_ref().map(|s| s.source.as_str()),
                "libuv runs every thread under the process's scheduling policy",
            ),
            (
                self.cpu_affinity.then_some("cpu_affinity"),
                "libuv's threads run wherever the process may",
            ),
            (
                self.keep_alive
                    .iter()
                    .any(Option::is_some)
                    .then_some("keep_alive"),
                "libuv's threads live as long as the process",
            ),
            (
                self.thread_name_prefix
                    .is_some()
                    .then_some("thread_name_prefix"),
                "libuv's threads are all named libuv-worker",
            ),
            (
                (self.hooks.start.is_some() || self.hooks.stop.is_some())
                    .then_some("on_thread_start / on_thread_stop"),
                "the libuv policy reproduces libuv's workers, which run no user code but the task",
            ),
        ]
    }
}

/// How many of [`Builder::libuv_lacks`] are refused before libuv's pool
/// size is checked (the lanes' settings; the threads' name and hooks come
/// after).
const LIBUV_LACKS_BEFORE_SIZE: usize = 8;

/// The first of `lacks` that is set, as [`ConfigError::Unsupported`].
fn refuse_under_libuv(lacks: &[(Option<&str>, &'static str)]) -> Result<(), ConfigError> {
    match lacks.iter().find_map(|&(set, why)| set.map(|s| (s, why))) {
        Some((setting, why)) => Err(ConfigError::Unsupported {
            setting: setting.to_string(),
            policy: "libuv",
            why: why.to_string(),
        }),
        None => Ok(()),
    }
}

/// `PREFIX-lane`, checked to fit Linux's 15-byte thread names.
fn thread_name(prefix: &str, lane: Lane) -> Result<String, ConfigError> {
    let max = 15
        - Lane::ALL
            .iter()
            .map(|l| l.name().len() + 1)
            .max()
            .unwrap_or(0);
    if prefix.is_empty() || prefix.len() > max || prefix.contains('\0') {
        return Err(ConfigError::OutOfRange {
            setting: "thread_name_prefix".to_string(),
            value: prefix.to_string(),
            expected: format!("1..={max} bytes without NUL"),
            why: " (Linux keeps 15 bytes of a thread name, and the lane's name follows the prefix)"
                .to_string(),
            knob: None,
        });
    }
    Ok(format!("{prefix}-{}", lane.name()))
}

/// `CpuSched::Guarded` needs an adaptive `Cpu` lane and the right to take
/// a worker out of `SCHED_IDLE` again.
fn check_guard(source: &str, cpu: &crate::policy::lanes::LaneSettings) -> Result<(), ConfigError> {
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
    let born = rustix::process::getpriority_process(None).unwrap_or(0);
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

/// The CPUs of the process's affinity set, after checking that the kernel
/// lets this process set a thread's affinity (by setting the calling
/// thread's to what it already is).
#[cfg(not(loom))]
fn process_cpus() -> Result<Vec<usize>, ConfigError> {
    use rustix::thread::{CpuSet, sched_getaffinity, sched_setaffinity};
    let refused = |call: &str, e: rustix::io::Errno| ConfigError::Refused {
        setting: "cpu_affinity".to_string(),
        why: format!("the kernel refused {call} ({e}); build the pool without cpu_affinity(true)"),
        knob: Some(Knob::CpuAffinity),
    };
    let process = sched_getaffinity(Some(rustix::process::getpid()))
        .map_err(|e| refused("sched_getaffinity", e))?;
    let mine = sched_getaffinity(None).map_err(|e| refused("sched_getaffinity", e))?;
    sched_setaffinity(None, &mine).map_err(|e| refused("sched_setaffinity", e))?;
    let cpus: Vec<usize> = (0..CpuSet::MAX_CPU)
        .filter(|&c| process.is_set(c))
        .collect();
    if cpus.is_empty() {
        return Err(ConfigError::Refused {
            setting: "cpu_affinity".to_string(),
            why: "the process's affinity set is empty".to_string(),
            knob: Some(Knob::CpuAffinity),
        });
    }
    Ok(cpus)
}

#[cfg(loom)]
fn process_cpus() -> Result<Vec<usize>, ConfigError> {
    Ok((0..loom::usable_cores()).collect())
}

fn cores_why(lane: Lane, cores: usize) -> String {
    if lane == Lane::Cpu {
        format!(
            " (the usable cores: more Cpu threads than cores only moves the queue into the kernel; {cores} found by available_parallelism)"
        )
    } else {
        String::new()
    }
}

fn check_range(
    s: &Setting<usize>,
    min: usize,
    max: usize,
    why: String,
) -> Result<usize, ConfigError> {
    if s.value < min || s.value > max {
        Err(ConfigError::OutOfRange {
            setting: s.source.clone(),
            value: s.raw.clone(),
            expected: format!("{min}..={max}"),
            why,
            knob: Some(s.knob),
        })
    } else {
        Ok(s.value)
    }
}

/// Parses an on/off environment variable, strictly.
fn parse_switch(setting: &str, knob: Knob, raw: String) -> Result<bool, ConfigError> {
    match raw.trim().to_ascii_lowercase().as_str() {
        "1" | "on" | "true" | "yes" => Ok(true),
        "0" | "off" | "false" | "no" => Ok(false),
        _ => Err(ConfigError::NotAccepted {
            setting: setting.to_string(),
            value: raw,
            expected: "on, off, 1, 0, true, false, yes or no".to_string(),
            knob: Some(knob),
        }),
    }
}

/// The variable of each lane's budget.
const THREADS_VARS: [(Lane, &str); 3] = [
    (Lane::Cpu, "SLUICE_CPU_THREADS"),
    (Lane::FastIo, "SLUICE_FASTIO_THREADS"),
    (Lane::SlowIo, "SLUICE_SLOWIO_THREADS"),
];

/// The variable of each lane's thread ceiling.
const MAX_THREADS_VARS: [(Lane, &str); 3] = [
    (Lane::Cpu, "SLUICE_CPU_MAX_THREADS"),
    (Lane::FastIo, "SLUICE_FASTIO_MAX_THREADS"),
    (Lane::SlowIo, "SLUICE_SLOWIO_MAX_THREADS"),
];

/// The whole number in `var`, if set, in `min..=max` ([`parse_count`]).
fn count_var(
    lookup: impl Fn(&str) -> Option<String>,
    var: &str,
    knob: Knob,
    min: usize,
    max: usize,
    why: String,
) -> Result<Option<Setting<usize>>, ConfigError> {
    let Some(raw) = lookup(var) else {
        return Ok(None);
    };
    Ok(Some(Setting {
        value: parse_count(var, Some(knob), &raw, min, max, why)?,
        raw,
        source: var.to_string(),
        knob,
    }))
}

/// Parses a whole number from an environment variable, strictly.
pub(crate) fn parse_count(
    setting: &str,
    knob: Option<Knob>,
    raw: &str,
    min: usize,
    max: usize,
    why: String,
) -> Result<usize, ConfigError> {
    let text = raw.trim();
    let expected = format!("{min}..={max}");
    let Ok(n) = text.parse::<i128>() else {
        return Err(ConfigError::NotANumber {
            setting: setting.to_string(),
            value: raw.to_string(),
            expected,
            knob,
        });
    };
    if n < min as i128 || n > max as i128 {
        return Err(ConfigError::OutOfRange {
            setting: setting.to_string(),
            value: raw.to_string(),
            expected,
            why,
            knob,
        });
    }
    Ok(n as usize)
}

/// Checks a run-time resize value.
pub(crate) fn check_resize(lane: Lane, n: usize) -> Result<usize, ConfigError> {
    let cores = loom::usable_cores();
    let s = Setting {
        value: n,
        raw: n.to_string(),
        source: format!("resize(Lane::{lane:?})"),
        knob: Knob::Resize(Some(lane)),
    };
    check_range(
        &s,
        1,
        budget::max_threads(lane, cores),
        cores_why(lane, cores),
    )
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

    fn env(pairs: &'static [(&'static str, &'static str)]) -> impl Fn(&str) -> Option<String> {
        move |name| {
            pairs
                .iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| v.to_string())
        }
    }

    /// What `b` builds into: the error's text, or each lane's limit, bound,
    /// thread ceiling and compensation switch (`default` where the value is
    /// the machine's default, so the text is the same on every machine).
    fn outcome(b: Result<Builder, ConfigError>) -> String {
        let cores = loom::usable_cores();
        let shown = |v: Option<u64>, default: usize| match v {
            Some(v) if v == default as u64 => "default".to_string(),
            Some(v) => v.to_string(),
            None => "none".to_string(),
        };
        match b.and_then(Builder::build) {
            Err(e) => e.to_string(),
            Ok(pool) => {
                let lanes: Vec<String> = pool
                    .metrics()
                    .lanes
                    .iter()
                    .map(|l| {
                        format!(
                            "{} limit={} bound={:?} max={} adaptive={}",
                            l.lane.name(),
                            shown(Some(l.limit), budget::default_threads(l.lane, cores)),
                            l.queue_bound,
                            shown(l.max_threads, budget::default_max_threads(l.lane, cores)),
                            l.adaptive
                        )
                    })
                    .collect();
                format!("built: {}", lanes.join("; "))
            }
        }
    }

    /// `from_vars` over these variables, with these values.
    fn vars(pairs: &[(&str, &str)]) -> Result<Builder, ConfigError> {
        let pairs: Vec<(String, String)> = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        Builder::from_vars(move |name| {
            pairs
                .iter()
                .find(|(k, _)| k == name)
                .map(|(_, v)| v.clone())
        })
    }

    /// Environments: each variable's refusals, then which of several wrong
    /// variables is named (each case drops the one named before).
    const ENV_CASES: &[(&str, &[(&str, &str)])] = &[
        ("cpu threads junk", &[("SLUICE_CPU_THREADS", "abc")]),
        ("cpu threads zero", &[("SLUICE_CPU_THREADS", "0")]),
        ("cpu threads over", &[("SLUICE_CPU_THREADS", "1025")]),
        ("fastio threads neg", &[("SLUICE_FASTIO_THREADS", "-1")]),
        ("bound junk", &[("SLUICE_QUEUE_BOUND", "1e3")]),
        ("bound zero", &[("SLUICE_QUEUE_BOUND", "0")]),
        ("stack small", &[("SLUICE_STACK_SIZE", "1024")]),
        ("stack junk", &[("SLUICE_STACK_SIZE", "2M")]),
        ("max junk", &[("SLUICE_CPU_MAX_THREADS", "many")]),
        ("max zero", &[("SLUICE_SLOWIO_MAX_THREADS", "0")]),
        ("affinity junk", &[("SLUICE_CPU_AFFINITY", "pinned")]),
        ("sched junk", &[("SLUICE_CPU_SCHED", "fifo")]),
        ("adaptive junk", &[("SLUICE_ADAPTIVE", "2")]),
        ("nice over", &[("SLUICE_CPU_NICE", "20")]),
        ("nice neg", &[("SLUICE_CPU_NICE", "-5")]),
        ("nice junk", &[("SLUICE_CPU_NICE", "low")]),
        ("bound huge", &HUGE_BOUND),
        ("max below budget", &BELOW_BUDGET),
        ("every variable wrong", &WRONG),
        ("vars after threads", WRONG.split_at(7).0),
        ("vars after bound", WRONG.split_at(6).0),
        ("vars after stack", WRONG.split_at(5).0),
        ("vars after max", WRONG.split_at(4).0),
        ("vars after affinity", WRONG.split_at(3).0),
        ("vars after sched", WRONG.split_at(2).0),
        ("every variable right", &RIGHT),
        ("no variable", &[]),
    ];

    /// A number beyond every integer type.
    const HUGE_BOUND: [(&str, &str); 1] = [(
        "SLUICE_QUEUE_BOUND",
        "999999999999999999999999999999999999999",
    )];

    /// A ceiling below the lane's budget.
    const BELOW_BUDGET: [(&str, &str); 2] = [
        ("SLUICE_FASTIO_THREADS", "9"),
        ("SLUICE_FASTIO_MAX_THREADS", "8"),
    ];

    /// Every variable accepted (but the Cpu budget, whose default is the
    /// machine's).
    const RIGHT: [(&str, &str); 10] = [
        ("SLUICE_FASTIO_THREADS", " 3 "),
        ("SLUICE_SLOWIO_THREADS", "5"),
        ("SLUICE_QUEUE_BOUND", "77"),
        ("SLUICE_STACK_SIZE", "65536"),
        ("SLUICE_CPU_NICE", "0"),
        ("SLUICE_ADAPTIVE", "no"),
        ("SLUICE_CPU_MAX_THREADS", "1024"),
        ("SLUICE_SLOWIO_MAX_THREADS", "6"),
        ("SLUICE_CPU_AFFINITY", "off"),
        ("SLUICE_CPU_SCHED", "Batch"),
    ];

    /// Every variable wrong, the last read first.
    const WRONG: [(&str, &str); 9] = [
        ("SLUICE_CPU_NICE", "x"),
        ("SLUICE_ADAPTIVE", "x"),
        ("SLUICE_CPU_SCHED", "x"),
        ("SLUICE_CPU_AFFINITY", "x"),
        ("SLUICE_SLOWIO_MAX_THREADS", "x"),
        ("SLUICE_STACK_SIZE", "x"),
        ("SLUICE_QUEUE_BOUND", "x"),
        ("SLUICE_SLOWIO_THREADS", "x"),
        ("SLUICE_FASTIO_THREADS", "x"),
    ];

    /// Builder calls under the lanes policy, one setting each: each refusal.
    fn lanes_cases() -> Vec<(&'static str, Builder)> {
        let b = Builder::new;
        vec![
            ("builder threads zero", b().threads(Lane::FastIo, 0)),
            ("builder cpu over", b().threads(Lane::Cpu, 1025)),
            (
                "builder bound over",
                b().queue_bound(Lane::SlowIo, 16_777_217),
            ),
            ("builder stack small", b().stack_size(100)),
            ("builder nice over", b().cpu_nice(20)),
            (
                "builder max below",
                b().threads(Lane::SlowIo, 10).max_threads(Lane::SlowIo, 9),
            ),
            (
                "builder max over",
                b().threads(Lane::FastIo, 4).max_threads(Lane::FastIo, 1025),
            ),
            ("prefix long", b().thread_name_prefix("nine-char")),
            ("prefix empty", b().thread_name_prefix("")),
            ("prefix nul", b().thread_name_prefix("a\0b")),
        ]
    }

    /// Builder calls under the lanes policy that set several things at
    /// once: which refusal is named, and what the settings build into.
    fn lanes_combined_cases() -> Vec<(&'static str, Builder)> {
        let b = Builder::new;
        vec![
            (
                "stack before lanes",
                b().threads(Lane::Cpu, 0).stack_size(1),
            ),
            (
                "cpu lane before fastio",
                b().threads(Lane::FastIo, 0)
                    .threads(Lane::Cpu, 1)
                    .max_threads(Lane::Cpu, 0),
            ),
            (
                "threads before bound, prefix, max",
                b().max_threads(Lane::Cpu, 0)
                    .thread_name_prefix("")
                    .queue_bound(Lane::Cpu, 0)
                    .threads(Lane::Cpu, 0),
            ),
            (
                "the cpu lane's prefix before fastio's threads",
                b().threads(Lane::FastIo, 0).thread_name_prefix(""),
            ),
            (
                "bound before prefix, max",
                b().max_threads(Lane::Cpu, 0)
                    .thread_name_prefix("")
                    .queue_bound(Lane::Cpu, 0),
            ),
            (
                "prefix before max",
                b().max_threads(Lane::Cpu, 0).thread_name_prefix(""),
            ),
            (
                "lanes before nice",
                b().cpu_nice(30).max_threads(Lane::SlowIo, 0),
            ),
            (
                "guarded without compensation",
                b().cpu_sched(CpuSched::Guarded).adaptive(Lane::Cpu, false),
            ),
            (
                "nice before guarded",
                b().cpu_sched(CpuSched::Guarded)
                    .adaptive(Lane::Cpu, false)
                    .cpu_nice(20),
            ),
            (
                "builder settings",
                b().threads(Lane::SlowIo, 40)
                    .queue_bound(Lane::FastIo, 9)
                    .adaptive(Lane::Cpu, false)
                    .max_threads(Lane::FastIo, 500)
                    .keep_alive(Lane::Cpu, Duration::from_secs(1))
                    .thread_name_prefix("app")
                    .cpu_nice(19)
                    .cpu_sched(CpuSched::Idle)
                    .timing(false),
            ),
        ]
    }

    /// Builder calls under the libuv policy: each setting it refuses, and
    /// which is named first.
    fn libuv_cases() -> Vec<(&'static str, Builder)> {
        let libuv = |threads| Builder::new().policy(Policy::Libuv { threads });
        let b = || libuv(Some(4));
        let second = Duration::from_secs(1);
        vec![
            ("libuv threads", b().threads(Lane::SlowIo, 2)),
            ("libuv bound", b().queue_bound(Lane::Cpu, 2)),
            ("libuv nice", b().cpu_nice(1)),
            ("libuv max", b().max_threads(Lane::FastIo, 2)),
            ("libuv adaptive", b().adaptive(Lane::Cpu, true)),
            ("libuv sched", b().cpu_sched(CpuSched::Batch)),
            ("libuv affinity", b().cpu_affinity(true)),
            ("libuv keep alive", b().keep_alive(Lane::SlowIo, second)),
            ("libuv zero", libuv(Some(0))),
            ("libuv over", libuv(Some(1025))),
            ("libuv prefix", b().thread_name_prefix("x")),
            ("libuv start hook", b().on_thread_start(|| ())),
            ("libuv stop hook", b().on_thread_stop(|| ())),
            ("libuv stack small", b().stack_size(1)),
            (
                "libuv first refusal",
                libuv(Some(0))
                    .on_thread_start(|| ())
                    .thread_name_prefix("x")
                    .keep_alive(Lane::Cpu, second)
                    .cpu_affinity(true)
                    .cpu_sched(CpuSched::Idle)
                    .adaptive(Lane::Cpu, true)
                    .max_threads(Lane::Cpu, 2)
                    .cpu_nice(3)
                    .queue_bound(Lane::Cpu, 2)
                    .threads(Lane::Cpu, 1),
            ),
            (
                "libuv panic handler",
                b().panic_handler(|_, _| ())
                    .queue_timeout(Lane::Cpu, second),
            ),
        ]
    }

    /// Every refusal of `from_vars` and `build`, and which one wins when
    /// several settings are wrong, compared with `testdata/config.txt`
    /// (`CORES` stands for the usable cores).
    #[test]
    fn every_refusal_reads_as_on_file() {
        let mut cases: Vec<(&str, Result<Builder, ConfigError>)> = ENV_CASES
            .iter()
            .map(|&(name, pairs)| (name, vars(pairs)))
            .collect();
        cases.extend(lanes_cases().into_iter().map(|(n, b)| (n, Ok(b))));
        cases.extend(lanes_combined_cases().into_iter().map(|(n, b)| (n, Ok(b))));
        cases.extend(libuv_cases().into_iter().map(|(n, b)| (n, Ok(b))));
        let env_then_libuv =
            vars(&[("SLUICE_ADAPTIVE", "on")]).map(|b| b.policy(Policy::Libuv { threads: None }));
        cases.insert(cases.len() - 2, ("libuv env", env_then_libuv));
        let mut text = String::new();
        for (name, b) in cases {
            text.push_str(&format!("{name}: {}\n", outcome(b)));
        }
        let cores = loom::usable_cores();
        let text = text
            .replace(&format!("1..={cores} "), "1..=CORES ")
            .replace(&format!("1..={cores}\n"), "1..=CORES\n")
            .replace(&format!("; {cores} found"), "; CORES found");
        crate::tests::golden::same(&text, include_str!("../testdata/config.txt"), "config.txt");
    }

    #[test]
    fn junk_zero_negative_and_huge_are_refused_with_the_variable_named() {
        for (var, val, want) in [
            (
                "SLUICE_FASTIO_THREADS",
                "abc",
                "SLUICE_FASTIO_THREADS=\"abc\" is not a number; expected 1..=1024",
            ),
            (
                "SLUICE_FASTIO_THREADS",
                "0",
                "SLUICE_FASTIO_THREADS=\"0\" is out of range; expected 1..=1024",
            ),
            (
                "SLUICE_SLOWIO_THREADS",
                "2000",
                "SLUICE_SLOWIO_THREADS=\"2000\" is out of range; expected 1..=1024",
            ),
            (
                "SLUICE_QUEUE_BOUND",
                "1.5",
                "SLUICE_QUEUE_BOUND=\"1.5\" is not a number; expected 1..=16777216",
            ),
            (
                "SLUICE_QUEUE_BOUND",
                " ",
                "SLUICE_QUEUE_BOUND=\" \" is not a number; expected 1..=16777216",
            ),
            (
                "SLUICE_STACK_SIZE",
                "4096",
                "SLUICE_STACK_SIZE=\"4096\" is out of range; expected 65536..=1073741824",
            ),
            (
                "SLUICE_CPU_NICE",
                "20",
                "SLUICE_CPU_NICE=\"20\" is out of range; expected 0..=19",
            ),
        ] {
            let pairs: &'static [(&str, &str)] = Box::leak(Box::new([(var, val)]));
            let err = Builder::from_vars(env(pairs)).unwrap_err();
            assert_eq!(err.to_string(), want);
        }
    }

    #[test]
    fn an_empty_variable_is_an_unset_one() {
        for var in ENV_VARS {
            let pairs: &'static [(&str, &str)] = Box::leak(Box::new([(var, "")]));
            let b = Builder::from_vars(env(pairs)).unwrap();
            assert!(b.threads.iter().all(Option::is_none), "{var}");
            assert!(b.cpu_sched.is_none() && b.stack_size.is_none(), "{var}");
        }
    }

    #[test]
    fn errors_name_their_setting_typed() {
        let err = Builder::from_vars(env(&[("SLUICE_CPU_THREADS", "100000")])).unwrap_err();
        assert_eq!(err.knob(), Some(Knob::Threads(Some(Lane::Cpu))));
        assert_eq!(err.variable(), Some("SLUICE_CPU_THREADS"));
        let err = Builder::from_vars(env(&[("SLUICE_CPU_SCHED", "fast")])).unwrap_err();
        assert_eq!(err.knob(), Some(Knob::CpuSched));
        assert_eq!(err.variable(), Some("SLUICE_CPU_SCHED"));
        let err = Builder::new()
            .queue_bound(Lane::FastIo, 0)
            .build()
            .unwrap_err();
        assert_eq!(err.knob(), Some(Knob::QueueBound(Some(Lane::FastIo))));
        assert_eq!(err.variable(), None);
        let err = Builder::new().stack_size(1).build().unwrap_err();
        assert_eq!(err.knob(), Some(Knob::StackSize));
    }

    #[test]
    fn adaptive_and_max_threads_from_the_environment() {
        let b = Builder::from_vars(env(&[
            ("SLUICE_ADAPTIVE", " Off "),
            ("SLUICE_SLOWIO_MAX_THREADS", "100"),
        ]))
        .unwrap();
        assert!(
            b.adaptive
                .iter()
                .all(|a| a.as_ref().map(|a| a.value) == Some(false))
        );
        assert_eq!(b.max_threads[2].as_ref().map(|m| m.value), Some(100));
        assert!(
            Builder::from_vars(env(&[("SLUICE_CPU_AFFINITY", "on")]))
                .unwrap()
                .cpu_affinity
        );
        let err = Builder::from_vars(env(&[("SLUICE_ADAPTIVE", "maybe")])).unwrap_err();
        assert_eq!(
            err.to_string(),
            "SLUICE_ADAPTIVE=\"maybe\" is not accepted; expected on, off, 1, 0, true, false, yes or no"
        );
        let err = Builder::from_vars(env(&[("SLUICE_FASTIO_MAX_THREADS", "5000")])).unwrap_err();
        assert_eq!(
            err.to_string(),
            "SLUICE_FASTIO_MAX_THREADS=\"5000\" is out of range; expected 1..=1024"
        );
        // Below the lane's budget: refused at build, naming the variable.
        let err = Builder::from_vars(env(&[
            ("SLUICE_SLOWIO_THREADS", "64"),
            ("SLUICE_SLOWIO_MAX_THREADS", "10"),
        ]))
        .unwrap()
        .build()
        .unwrap_err();
        assert_eq!(
            err.to_string(),
            "SLUICE_SLOWIO_MAX_THREADS=\"10\" is out of range; expected 64..=1024 (from the lane's budget to the ceiling)"
        );
    }

    #[test]
    fn cpu_nice_is_read_from_the_environment() {
        let b = Builder::from_vars(env(&[("SLUICE_CPU_NICE", " 0 ")])).unwrap();
        assert_eq!(b.cpu_nice.as_ref().map(|n| n.value), Some(0));
        assert!(Builder::from_vars(env(&[])).unwrap().cpu_nice.is_none());
    }

    #[test]
    fn cpu_above_cores_names_the_reason() {
        let cores = loom::usable_cores();
        let err = Builder::new()
            .threads(Lane::Cpu, cores + 1)
            .build()
            .unwrap_err();
        let text = err.to_string();
        assert!(
            text.starts_with(&format!(
                "threads(Lane::Cpu)=\"{}\" is out of range; expected 1..={cores} (the usable cores",
                cores + 1
            )),
            "{text}"
        );
    }

    #[test]
    fn libuv_refuses_lane_settings() {
        let err = Builder::new()
            .policy(Policy::Libuv { threads: Some(4) })
            .threads(Lane::FastIo, 2)
            .build()
            .unwrap_err();
        assert!(matches!(err, ConfigError::Unsupported { .. }));
        let err = Builder::new()
            .policy(Policy::Libuv {
                threads: Some(2000),
            })
            .build()
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "Policy::Libuv { threads }=\"2000\" is out of range; expected 1..=1024"
        );
    }
}
