//! The pool of this process: built from `SLUICE_*` (or by
//! [`configure`](crate::configure::configure)), how work is submitted to it
//! and settled, and what it says about itself.

use crate::inbox::Settle;
use crate::outcome::{Done, Failure};
use napi_derive::napi;
use sluice::{ConfigError, CpuSched, Lane, Pool};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::OnceLock;

/// The pool of this process: one for the main thread and every worker
/// thread, since a Node-API addon is loaded once per process.
pub(crate) static POOL: OnceLock<Pool> = OnceLock::new();

/// The pool, built from `SLUICE_*` environment variables at the first call
/// (or by [`warm`](crate::warm::warm)) when
/// [`configure`](crate::configure::configure) was not called. A refused
/// variable is an error of its own, `ERR_SLUICE_ENV: SLUICE_X="v" ...`, that
/// `lib/pool.js` reports once, naming the variable and its value.
pub(crate) fn pool() -> napi::Result<&'static Pool> {
    if let Some(pool) = POOL.get() {
        return Ok(pool);
    }
    let pool = sluice::Builder::from_env()
        .and_then(|b| build(b, false))
        .map_err(|e| napi::Error::from_reason(env_message(&e)))?;
    let pool = POOL.get_or_init(|| pool);
    crate::scope_lanes::publish(pool);
    Ok(pool)
}

/// `ERR_SLUICE_ENV` and the variable's own error for one that came from a
/// `SLUICE_*` variable, else `ERR_SLUICE_POOL` and the error.
pub(crate) fn env_message(err: &ConfigError) -> String {
    match err.variable() {
        Some(_) => format!("ERR_SLUICE_ENV: {err}"),
        None => format!("ERR_SLUICE_POOL: {err}"),
    }
}

/// Builds the pool of this process. Unless a `Cpu` policy was chosen
/// (`cpuSched`, `SLUICE_CPU_SCHED`), the package's default is `guarded`:
/// `SCHED_IDLE`, so that the event loop preempts a hashing worker at once,
/// and `SCHED_OTHER` at the process's nice value while another process
/// starves the lane. A
/// process that may not take a thread out of `SCHED_IDLE` (no
/// `CAP_SYS_NICE`, `ulimit -e` below 20 - nice) gets the library's default,
/// `normal`; `metricsJson().pool.cpu_sched` says which is in force.
pub(crate) fn build(b: sluice::Builder, chosen: bool) -> Result<Pool, ConfigError> {
    // An empty variable is an unset one, as `Builder::from_env` reads it.
    let chosen = chosen || std::env::var_os("SLUICE_CPU_SCHED").is_some_and(|v| !v.is_empty());
    if !chosen {
        match b.clone().cpu_sched(CpuSched::Guarded).build() {
            Err(ConfigError::Refused { .. }) => {}
            built => return built,
        }
    }
    b.build()
}

/// Submits `work` to `lane` for the inbox in `slot` and returns the
/// operation's id. A bounded lane that is full settles it at once with a
/// `"busy"` failure.
pub(crate) fn submit(
    slot: u32,
    lane: Lane,
    work: impl FnOnce() -> Done + Send + 'static,
) -> napi::Result<f64> {
    submit_in(slot, lane, false, work)
}

/// As [`submit`], ahead of the lane's queued tasks
/// ([`sluice::Permit::spawn_first`]): for short work (a zlib stream's
/// write) that must not wait behind a queue of long tasks (password hashes).
pub(crate) fn submit_first(
    slot: u32,
    lane: Lane,
    work: impl FnOnce() -> Done + Send + 'static,
) -> napi::Result<f64> {
    submit_in(slot, lane, true, work)
}

fn submit_in(
    slot: u32,
    lane: Lane,
    first: bool,
    work: impl FnOnce() -> Done + Send + 'static,
) -> napi::Result<f64> {
    let inbox = crate::inbox::core(slot)?;
    let pool = pool()?;
    let settle = Settle::open(&inbox);
    let id = settle.id;
    let call = Call { settle, work };
    // Past a turn's first calls (as many as the lane has threads), an
    // unbounded lane's calls are gathered and handed over together (`turn`).
    let call = if first {
        call
    } else {
        match crate::turn::gather(pool, lane, at_once(pool, lane), call) {
            Some(call) => call,
            None => return Ok(id),
        }
    };
    match pool.try_reserve(lane) {
        Ok(place) if first => drop(place.spawn_first(move || call.run())),
        // No handle: the outcome goes to the inbox, so the worker holds the
        // task's only reference and the loop thread never touches it again.
        Ok(place) => place.spawn_detached(move || call.run()),
        Err(busy) => call.settle.finish(Done::Fail(Failure {
            lane: Some(lane_name(busy.lane())),
            bound: Some(busy.bound() as f64),
            ..Failure::new("busy")
        })),
    }
    Ok(id)
}

/// One call's work and the guard that settles it.
pub(crate) struct Call<W> {
    settle: Settle,
    work: W,
}

impl<W: FnOnce() -> Done> Call<W> {
    /// Runs the work and settles the call (`run_settled`).
    pub(crate) fn run(self) {
        run_settled(self.settle, self.work)
    }
}

/// How many of a turn's calls go to `lane` at once before the rest are
/// gathered (`turn`): the lane's thread budget, which can take that many
/// on together. `None` for a bounded lane, which never gathers: a full
/// queue must answer `"busy"` at the call. Read from the pool once.
fn at_once(pool: &Pool, lane: Lane) -> Option<usize> {
    static AT_ONCE: OnceLock<[Option<usize>; 3]> = OnceLock::new();
    AT_ONCE.get_or_init(|| {
        let m = pool.metrics();
        Lane::ALL.map(|l| {
            let l = m.lane(l);
            let limit = usize::try_from(l.limit).unwrap_or(usize::MAX).max(1);
            l.queue_bound.is_none().then_some(limit)
        })
    })[crate::turn::lane_index(lane)]
}

/// Runs `work` and settles the promise with its outcome. A panic settles
/// it as a `"panic"` failure and then goes on unwinding, so the pool counts
/// it (`panicked_total`) like any task's panic.
pub(crate) fn run_settled(settle: Settle, work: impl FnOnce() -> Done) {
    match catch_unwind(AssertUnwindSafe(work)) {
        Ok(done) => settle.finish(done),
        Err(payload) => {
            let message = panic_message(payload.as_ref());
            settle.finish(Done::Fail(Failure::message("panic", None, message)));
            std::panic::resume_unwind(payload);
        }
    }
}

/// The panic's message, when it was a string.
pub(crate) fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic without a message".into())
}

/// The lane names JavaScript sees: the metrics' labels.
pub(crate) fn lane_name(lane: Lane) -> String {
    lane.name().to_string()
}

/// A `SLUICE_*` variable the pool refuses.
#[napi(object)]
#[derive(Debug, Clone)]
pub struct EnvProblem {
    /// The variable, `SLUICE_CPU_THREADS`.
    pub variable: String,
    /// Its value, as set.
    pub value: Option<String>,
    /// The pool's error, naming both: `SLUICE_CPU_THREADS="4" is out of range; ...`.
    pub message: String,
}

/// Whether the `SLUICE_*` variables build a pool, before anything is run:
/// the variable the pool refuses, or nothing (also once the pool exists).
/// `lib/pool.js` asks when it loads, and reports a refusal once.
#[napi]
pub fn check_env() -> Option<EnvProblem> {
    if POOL.get().is_some() {
        return None;
    }
    // No thread starts in `build`: the pool made here is dropped unused.
    let err = sluice::Builder::from_env()
        .and_then(|b| build(b, false))
        .err()?;
    let variable = err.variable()?.to_string();
    let value = match &err {
        ConfigError::NotANumber { value, .. }
        | ConfigError::NotUnicode { value, .. }
        | ConfigError::OutOfRange { value, .. }
        | ConfigError::NotAccepted { value, .. } => Some(value.clone()),
        _ => None,
    };
    Some(EnvProblem {
        variable,
        value,
        message: err.to_string(),
    })
}

/// True once the pool exists (configured or used).
#[napi]
pub fn is_configured() -> bool {
    POOL.get().is_some()
}

/// How the addon was compiled: `"release"` (`npm run build`) or `"debug"`
/// (`npm run build:debug`, unoptimised: its hashes and gzip run many times
/// slower, so a debug addon is for tests, not for measurements).
#[napi]
pub fn build_profile() -> &'static str {
    // Read through `black_box` so the whole mark stays in the file:
    // `scripts/prebuild.js` finds it in a cross-built addon it cannot load.
    let mark: &'static str = std::hint::black_box(PROFILE_MARK);
    mark.rsplit_once('=').map_or(mark, |(_, profile)| profile)
}

/// The build profile as the addon's bytes say it, for packaging scripts
/// that check a file without loading it.
pub(crate) const PROFILE_MARK: &str = if cfg!(debug_assertions) {
    "sluice-addon-build-profile=debug"
} else {
    "sluice-addon-build-profile=release"
};

/// The cheapest task there is, on the `FastIo` lane: what a round trip
/// from JavaScript to a sluice worker and back costs.
#[napi]
pub fn noop(slot: u32) -> napi::Result<f64> {
    submit(slot, Lane::FastIo, || Done::Unit)
}
