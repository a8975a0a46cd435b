//! [`CpuSlots`]: the CPUs a `Cpu` lane's workers pin themselves to, one
//! worker per CPU (`Builder::cpu_affinity`), and the check that the kernel
//! lets the process pin (`process_cpus`).

use crate::error::ConfigError;
#[cfg(not(loom))]
use crate::error::Knob;
#[cfg(loom)]
use crate::loom;
use crate::loom::lock;
use crate::loom::sync::Mutex;

/// The CPUs a lane's workers pin themselves to, one worker per CPU; a
/// worker that finds none free (threads beyond the budget while others are
/// blocked) runs on the process's whole set.
#[derive(Debug)]
pub(crate) struct CpuSlots {
    cpus: Vec<usize>,
    taken: Mutex<Vec<bool>>,
}

impl CpuSlots {
    pub(crate) fn new(cpus: Vec<usize>) -> Self {
        let taken = Mutex::new(vec![false; cpus.len()]);
        CpuSlots { cpus, taken }
    }

    /// Claims a free CPU: its index in the set and its number.
    pub(super) fn claim(&self) -> Option<(usize, usize)> {
        let mut t = lock(&self.taken);
        let i = t.iter().position(|x| !*x)?;
        t[i] = true;
        Some((i, self.cpus[i]))
    }

    pub(super) fn release(&self, i: usize) {
        lock(&self.taken)[i] = false;
    }
}

/// Pins the calling thread to `cpu` for as long as it lives, then frees it.
pub(super) struct Pinned<'a> {
    slots: &'a CpuSlots,
    index: usize,
}

impl Drop for Pinned<'_> {
    fn drop(&mut self) {
        self.slots.release(self.index);
    }
}

pub(super) fn pin_current(slots: &CpuSlots) -> Option<Pinned<'_>> {
    let (index, cpu) = slots.claim()?;
    let pinned = Pinned { slots, index };
    #[cfg(not(loom))]
    {
        let mut set = rustix::thread::CpuSet::new();
        set.set(cpu);
        // `Builder::build` checked that the kernel lets this process set
        // its threads' affinity; if it refuses now (the set changed under
        // us), the worker runs on the whole set, like an unpinned one.
        if rustix::thread::sched_setaffinity(None, &set).is_err() {
            return None;
        }
    }
    #[cfg(loom)]
    let _ = cpu;
    Some(pinned)
}

/// The CPUs of the process's affinity set, after checking that the kernel
/// lets this process set a thread's affinity (by setting the calling
/// thread's to what it already is).
#[cfg(not(loom))]
pub(crate) fn process_cpus() -> Result<Vec<usize>, ConfigError> {
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
pub(crate) fn process_cpus() -> Result<Vec<usize>, ConfigError> {
    Ok((0..loom::usable_cores()).collect())
}
