//! `sluice.configure(options)`: the pool built from the caller's options
//! on top of `SLUICE_*`, and a refusal that names the option, from the
//! core's typed setting ([`sluice::Knob`]).

use crate::pool::{POOL, build};
use crate::warm::warm;
use napi_derive::napi;
use sluice::{ConfigError, CpuSched, Lane};

/// The pool's settings, all optional; `lib/pool.js` has checked their types.
#[napi(object)]
#[derive(Debug, Clone, Default)]
pub struct PoolOptions {
    /// Threads of the `Cpu` lane.
    pub cpu: Option<u32>,
    /// Threads of the `FastIo` lane.
    pub fast_io: Option<u32>,
    /// Threads of the `SlowIo` lane.
    pub slow_io: Option<u32>,
    /// Queue bound of the `Cpu` lane.
    pub cpu_queue_bound: Option<u32>,
    /// Queue bound of the `FastIo` lane.
    pub fast_io_queue_bound: Option<u32>,
    /// Queue bound of the `SlowIo` lane.
    pub slow_io_queue_bound: Option<u32>,
    /// Worker stack size in bytes.
    pub stack_size: Option<u32>,
    /// Nice value of the `Cpu` workers.
    pub cpu_nice: Option<u32>,
    /// Scheduling policy of the `Cpu` workers: `normal`, `batch` or `idle`
    /// (unset: `SLUICE_CPU_SCHED`, else the library's `normal` at nice 10).
    pub cpu_sched: Option<String>,
}

/// The JavaScript option of a builder setting.
pub(crate) fn option_name(knob: sluice::Knob) -> Option<&'static str> {
    use sluice::Knob;
    Some(match knob {
        Knob::Threads(Some(Lane::Cpu)) => "cpu",
        Knob::Threads(Some(Lane::FastIo)) => "fastIo",
        Knob::Threads(Some(Lane::SlowIo)) => "slowIo",
        Knob::QueueBound(Some(Lane::Cpu)) => "cpuQueueBound",
        Knob::QueueBound(Some(Lane::FastIo)) => "fastIoQueueBound",
        Knob::QueueBound(Some(Lane::SlowIo)) => "slowIoQueueBound",
        Knob::StackSize => "stackSize",
        Knob::CpuNice => "cpuNice",
        Knob::CpuSched => "cpuSched",
        _ => return None,
    })
}

/// Why [`configure`] built no pool, for `lib/pool.js` to throw: the
/// option is passed through from the core's typed setting
/// ([`ConfigError::knob`]), never read back from a message.
#[napi(object)]
#[derive(Debug, Clone)]
pub struct Refusal {
    /// `ERR_OUT_OF_RANGE` (an option's value), `ERR_SLUICE_ENV` (a
    /// `SLUICE_*` variable's), `ERR_INVALID_ARG_VALUE` or
    /// `ERR_SLUICE_CONFIGURED` (the pool exists already).
    pub code: String,
    /// The option refused (`cpu`, `fastIoQueueBound`, ...), where one was.
    pub option: Option<String>,
    /// The `SLUICE_*` variable refused, where one was.
    pub variable: Option<String>,
    /// What was refused and what is accepted, naming the option or variable.
    pub message: String,
}

impl Refusal {
    fn new(code: &str, message: impl Into<String>) -> Refusal {
        Refusal {
            code: code.into(),
            option: None,
            variable: None,
            message: message.into(),
        }
    }

    /// The core's refusal: of a `SLUICE_*` variable's value, else of an
    /// option's, named by its typed setting.
    fn of(err: &ConfigError) -> Refusal {
        if let Some(variable) = err.variable() {
            return Refusal {
                variable: Some(variable.into()),
                ..Refusal::new("ERR_SLUICE_ENV", err.to_string())
            };
        }
        let option = err.knob().and_then(option_name);
        let message = match (err, option) {
            (
                ConfigError::OutOfRange {
                    value,
                    expected,
                    why,
                    ..
                },
                Some(option),
            ) => format!("option \"{option}\" = {value} is out of range; expected {expected}{why}"),
            (
                ConfigError::NotANumber {
                    value, expected, ..
                },
                Some(option),
            ) => format!("option \"{option}\" = {value:?} is not a number; expected {expected}"),
            (other, _) => other.to_string(),
        };
        Refusal {
            option: option.map(Into::into),
            ..Refusal::new("ERR_OUT_OF_RANGE", message)
        }
    }
}

/// Builds the process's pool with `options` on top of the `SLUICE_*`
/// environment variables, then warms it. Returns the [`Refusal`] of a value
/// the pool refuses, naming the option, or of a pool that exists already
/// (configured, or built by a call); nothing once the pool is built.
#[napi]
pub fn configure(options: PoolOptions) -> napi::Result<Option<Refusal>> {
    const CONFIGURED: &str = "ERR_SLUICE_CONFIGURED";
    if POOL.get().is_some() {
        return Ok(Some(Refusal::new(
            CONFIGURED,
            "sluice.configure() must run before the first sluice call and only once; the pool of this process is already built",
        )));
    }
    let mut b = match sluice::Builder::from_env() {
        Ok(b) => b,
        Err(e) => return Ok(Some(Refusal::of(&e))),
    };
    let lanes = [Lane::Cpu, Lane::FastIo, Lane::SlowIo];
    let threads = [options.cpu, options.fast_io, options.slow_io];
    let bounds = [
        options.cpu_queue_bound,
        options.fast_io_queue_bound,
        options.slow_io_queue_bound,
    ];
    for ((lane, n), bound) in lanes.into_iter().zip(threads).zip(bounds) {
        if let Some(n) = n {
            b = b.threads(lane, n as usize);
        }
        if let Some(bound) = bound {
            b = b.queue_bound(lane, bound as usize);
        }
    }
    if let Some(bytes) = options.stack_size {
        b = b.stack_size(bytes as usize);
    }
    if let Some(nice) = options.cpu_nice {
        let Ok(nice) = u8::try_from(nice) else {
            return Ok(Some(Refusal {
                option: Some("cpuNice".into()),
                ..Refusal::new(
                    "ERR_OUT_OF_RANGE",
                    format!("option \"cpuNice\" = {nice} is out of range; expected 0..=19"),
                )
            }));
        };
        b = b.cpu_nice(nice);
    }
    if let Some(raw) = &options.cpu_sched {
        // The core's parser (`lib/pool.js` has checked the token already).
        let Ok(sched) = raw.parse::<CpuSched>() else {
            return Ok(Some(Refusal {
                option: Some("cpuSched".into()),
                ..Refusal::new(
                    "ERR_INVALID_ARG_VALUE",
                    format!(
                        "option \"cpuSched\" = {raw:?} is not accepted; expected 'normal', 'batch', 'idle' or 'guarded'"
                    ),
                )
            }));
        };
        b = b.cpu_sched(sched);
    }
    let pool = match build(b, options.cpu_sched.is_some()) {
        Ok(pool) => pool,
        Err(e) => return Ok(Some(Refusal::of(&e))),
    };
    if POOL.set(pool).is_err() {
        return Ok(Some(Refusal::new(
            CONFIGURED,
            "sluice.configure() raced another thread's first use; the pool of this process is already built",
        )));
    }
    if let Some(pool) = POOL.get() {
        crate::scope_lanes::publish(pool);
    }
    warm()?;
    Ok(None)
}
