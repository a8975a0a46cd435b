//! [`Builder::build`]: every setting checked over the policy's defaults
//! (the lanes' own checks are theirs: `policy/lanes/`), then the pool.

use super::builder::{Builder, FastIoUring, Setting};
use crate::budget;
use crate::choice::{CpuSched, Policy};
use crate::compat;
use crate::error::{ConfigError, Knob};
use crate::lane::Lane;
use crate::loom;
use crate::policy::lanes::{CpuSlots, LaneSettings, check_guard, default_settings, process_cpus};
use crate::pool::Pool;

impl Builder {
    /// Validates everything and builds the pool. No thread starts here: the
    /// lanes policy starts workers on demand, the libuv policy at the first
    /// submission.
    pub fn build(self) -> Result<Pool, ConfigError> {
        let stack_size = self.checked_stack_size()?;
        let uring = self.fast_io_uring;
        let pool = match self.policy {
            Policy::Lanes => self.build_lanes(stack_size),
            Policy::Libuv { threads } => self.build_libuv(threads, stack_size),
        }?;
        if uring != FastIoUring::Off {
            pool.enable_uring(uring == FastIoUring::Refused);
        }
        Ok(pool)
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
                budget::max_threads_why(lane, cores),
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
            cpu.pin = Some(std::sync::Arc::new(CpuSlots::new(cpus)));
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
            let s = Setting::given(n, "Policy::Libuv { threads }".into(), Knob::LibuvThreads);
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
            knob: Some(Knob::ThreadNamePrefix),
        });
    }
    Ok(format!("{prefix}-{}", lane.name()))
}

pub(super) fn check_range(
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
