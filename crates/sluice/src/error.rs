//! [`ConfigError`]: a refused setting, named (its [`Knob`], its variable
//! of [`ENV_VARS`] or its builder call) with its value and what is accepted.
//!
//! Below the policies: each policy validates its own settings and names
//! them so; the [`Builder`](crate::Builder) (`config/`) above them gathers
//! the settings.

use crate::lane::Lane;

/// The environment variables [`Builder::from_env`](crate::Builder::from_env) reads.
pub const ENV_VARS: [&str; 13] = [
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
    "SLUICE_FASTIO_URING",
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

/// A setting of the [`Builder`](crate::Builder), typed: what [`ConfigError::knob`] names.
/// A lane of `None` is a setting of every lane (`SLUICE_QUEUE_BOUND`,
/// `SLUICE_ADAPTIVE`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Knob {
    /// [`Builder::threads`](crate::Builder::threads), `SLUICE_*_THREADS`.
    Threads(Option<Lane>),
    /// [`Builder::queue_bound`](crate::Builder::queue_bound), `SLUICE_QUEUE_BOUND`.
    QueueBound(Option<Lane>),
    /// [`Builder::max_threads`](crate::Builder::max_threads), `SLUICE_*_MAX_THREADS`.
    MaxThreads(Option<Lane>),
    /// [`Builder::adaptive`](crate::Builder::adaptive), `SLUICE_ADAPTIVE`.
    Adaptive(Option<Lane>),
    /// [`Builder::stack_size`](crate::Builder::stack_size), `SLUICE_STACK_SIZE`.
    StackSize,
    /// [`Builder::cpu_nice`](crate::Builder::cpu_nice), `SLUICE_CPU_NICE`.
    CpuNice,
    /// [`Builder::cpu_sched`](crate::Builder::cpu_sched), `SLUICE_CPU_SCHED`.
    CpuSched,
    /// [`Builder::cpu_affinity`](crate::Builder::cpu_affinity), `SLUICE_CPU_AFFINITY`.
    CpuAffinity,
    /// [`Builder::fast_io_uring`](crate::Builder::fast_io_uring), `SLUICE_FASTIO_URING`.
    FastIoUring,
    /// A run-time resize of a lane.
    Resize(Option<Lane>),
    /// `Policy::Libuv { threads }`.
    LibuvThreads,
    /// [`Builder::thread_name_prefix`](crate::Builder::thread_name_prefix).
    ThreadNamePrefix,
}
