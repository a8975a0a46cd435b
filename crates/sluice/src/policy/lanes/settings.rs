//! [`LaneSettings`]: one lane's immutable settings, their defaults for the
//! machine, and the check of a run-time resize.

use super::CpuSlots;
use crate::budget;
use crate::choice::CpuSched;
use crate::error::{ConfigError, Knob};
use crate::lane::Lane;
use crate::loom;
use std::sync::Arc;
use std::time::Duration;

/// The immutable settings of one lane.
#[derive(Debug, Clone)]
pub(crate) struct LaneSettings {
    pub(crate) lane: Lane,
    pub(crate) limit: usize,
    /// `usize::MAX` when unbounded.
    pub(crate) bound: usize,
    pub(crate) keep_alive: Duration,
    pub(crate) stack_size: usize,
    pub(crate) timed: bool,
    /// The nice value the lane's workers set on themselves (0: unchanged).
    pub(crate) nice: i32,
    /// The scheduling policy the lane's workers set on themselves.
    pub(crate) sched: crate::CpuSched,
    /// Blocking compensation on: blocked workers do not count against the
    /// budget, up to `max_threads` threads.
    pub(crate) adaptive: bool,
    /// The most threads the lane runs, compensation included (>= `limit`).
    pub(crate) max_threads: usize,
    /// The monitor looks for undeclared blocked workers (I/O lanes only).
    pub(crate) detect: bool,
    /// `Cpu` lane with `Builder::cpu_affinity(true)`: the CPUs of the
    /// process's affinity set; each worker pins itself to a free one.
    pub(crate) pin: Option<Arc<CpuSlots>>,
    /// The workers' thread name (`sluice-cpu`, or the builder's prefix).
    pub(crate) thread_name: String,
    /// `on_thread_start` / `on_thread_stop`.
    pub(crate) hooks: crate::hooks::Hooks,
}

/// The default settings of `lane` for a machine with `cores` usable cores.
pub(crate) fn default_settings(lane: Lane, cores: usize) -> LaneSettings {
    LaneSettings {
        lane,
        limit: budget::default_threads(lane, cores),
        bound: usize::MAX,
        keep_alive: budget::default_keep_alive(lane),
        stack_size: budget::DEFAULT_STACK_SIZE,
        timed: true,
        nice: if lane == Lane::Cpu {
            budget::DEFAULT_CPU_NICE
        } else {
            0
        },
        sched: CpuSched::Normal,
        adaptive: true,
        max_threads: budget::default_max_threads(lane, cores),
        detect: lane != Lane::Cpu,
        pin: None,
        thread_name: lane.thread_name().to_string(),
        hooks: crate::hooks::Hooks::default(),
    }
}

/// Checks a run-time resize value.
pub(crate) fn check_resize(lane: Lane, n: usize) -> Result<usize, ConfigError> {
    let cores = loom::usable_cores();
    let max = budget::max_threads(lane, cores);
    if (1..=max).contains(&n) {
        return Ok(n);
    }
    Err(ConfigError::OutOfRange {
        setting: format!("resize(Lane::{lane:?})"),
        value: n.to_string(),
        expected: format!("1..={max}"),
        why: budget::max_threads_why(lane, cores),
        knob: Some(Knob::Resize(Some(lane))),
    })
}
