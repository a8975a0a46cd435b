//! The `SLUICE_*` environment variables: [`Builder::from_env`] and
//! [`Builder::from_vars`], strictly parsed.

use super::builder::{Builder, FastIoUring, Setting};
use crate::budget;
use crate::choice::CpuSched;
use crate::error::{ConfigError, ENV_VARS, Knob};
use crate::lane::Lane;
use crate::loom;

impl Builder {
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
                    knob: var_knob(name),
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
    /// | `SLUICE_FASTIO_URING`   | io_uring for `fs::read` / `fs::stat`       | `on`/`off` (as above), `refused` |
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
                budget::max_threads_why(lane, cores),
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
        if let Some(raw) = lookup("SLUICE_FASTIO_URING") {
            self.fast_io_uring = fast_io_uring_var(raw)?;
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
}

/// `SLUICE_FASTIO_URING`: a switch, or `refused` (the fallback on demand).
fn fast_io_uring_var(raw: String) -> Result<FastIoUring, ConfigError> {
    if raw.trim().eq_ignore_ascii_case("refused") {
        return Ok(FastIoUring::Refused);
    }
    match parse_switch("SLUICE_FASTIO_URING", Knob::FastIoUring, raw) {
        Ok(true) => Ok(FastIoUring::On),
        Ok(false) => Ok(FastIoUring::Off),
        Err(ConfigError::NotAccepted {
            setting,
            value,
            knob,
            ..
        }) => Err(ConfigError::NotAccepted {
            setting,
            value,
            expected: "on, off, 1, 0, true, false, yes, no or refused".to_string(),
            knob,
        }),
        Err(e) => Err(e),
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

/// The setting a variable of [`ENV_VARS`] sets.
pub(super) fn var_knob(var: &str) -> Option<Knob> {
    let lane_of = |vars: &[(Lane, &str); 3]| vars.iter().find(|(_, v)| *v == var).map(|p| p.0);
    if let Some(lane) = lane_of(&THREADS_VARS) {
        return Some(Knob::Threads(Some(lane)));
    }
    if let Some(lane) = lane_of(&MAX_THREADS_VARS) {
        return Some(Knob::MaxThreads(Some(lane)));
    }
    Some(match var {
        "SLUICE_QUEUE_BOUND" => Knob::QueueBound(None),
        "SLUICE_STACK_SIZE" => Knob::StackSize,
        "SLUICE_CPU_NICE" => Knob::CpuNice,
        "SLUICE_ADAPTIVE" => Knob::Adaptive(None),
        "SLUICE_CPU_AFFINITY" => Knob::CpuAffinity,
        "SLUICE_CPU_SCHED" => Knob::CpuSched,
        "SLUICE_FASTIO_URING" => Knob::FastIoUring,
        _ => return None,
    })
}
