//! All budget arithmetic of sluice's lanes, and nowhere else: default lane
//! sizes and the documented maxima (libuv's own sizing rules are in
//! [`compat`](crate::compat)).
//!
//! | lane      | default budget        | maximum              | idle thread retires after |
//! |-----------|-----------------------|----------------------|---------------------------|
//! | `Cpu`     | usable cores          | usable cores         | 60 s                      |
//! | `FastIo`  | max(4, usable cores)  | [`MAX_THREADS`]      | 60 s                      |
//! | `SlowIo`  | 64                    | [`MAX_THREADS`]      | 10 s                      |
//!
//! "Usable cores" is `std::thread::available_parallelism()`, which honours the
//! cgroup CPU quota and the affinity mask. `Cpu` may not exceed it: more CPU
//! threads than cores only moves the queue from the pool into the kernel's run
//! queue, where nobody can see it. Asking for more is an error, not a cap.
//!
//! # Budgets count computing threads, not waiting ones
//!
//! With blocking compensation on (the default), a worker whose task waits
//! (a [`crate::blocking`] section, or one the monitor finds sleeping) does
//! not count against its lane's budget: the lane may run `budget + blocked`
//! threads, up to its `max_threads`:
//!
//! | lane      | default `max_threads`             | ceiling          |
//! |-----------|-----------------------------------|------------------|
//! | `Cpu`     | usable cores + 64                 | [`MAX_THREADS`]  |
//! | `FastIo`  | 512 (tokio's `spawn_blocking` cap)| [`MAX_THREADS`]  |
//! | `SlowIo`  | 512                               | [`MAX_THREADS`]  |
//!
//! So the budget is what the lane may *compute* at once, and the rule for
//! the defaults is about work that runs, not work that waits:
//! - `Cpu`: the usable cores, since its threads compute; a `Cpu` thread
//!   leaving a blocking section waits for a computing place, so threads
//!   computing never exceed the cores. `max_threads` leaves room for 64
//!   tasks waiting at once on top.
//! - `FastIo`: `max(4, cores)`, unchanged. Page-cache reads and `stat`s are
//!   short system calls that mostly copy memory (their sections end within
//!   the grace and are never counted); more threads than cores only queue
//!   in the kernel, and 4 keeps small machines from serializing on one slow
//!   disk request. What used to argue for a bigger budget, a read that hangs
//!   (NFS, a FIFO, a failing disk), no longer holds the lane: it is
//!   compensated. On 2 cores `sluice lab adaptive` measured 16 and 64 held
//!   reads at 100 ms in 108 and 141 ms with this budget (fixed: 404 and
//!   1646 ms), and reads of a healthy file beside 64 hung ones at p50
//!   0.04 ms (fixed: 1505 ms); numbers taken at a load average of 29.
//! - `SlowIo`: 64, unchanged: its tasks wait on the network most of the
//!   time, and compensation only counts the waits it sees; 64 is the
//!   concurrency of lookups the lane admits before it needs to see one.
//!
//! Threads above the budget retire as soon as their task ends and the
//! blocked workers are back; idle threads at or below it after their
//! keep-alive, as before.

use crate::lane::Lane;
use std::time::Duration;

/// The most threads any lane may be given (the same ceiling as libuv's
/// `MAX_THREADPOOL_SIZE`, but refused loudly instead of cut silently).
pub const MAX_THREADS: usize = 1024;

/// The largest queue bound a lane accepts.
pub const MAX_QUEUE_BOUND: usize = 1 << 24;

/// Default stack size of a lanes-policy worker thread: 2 MiB.
pub const DEFAULT_STACK_SIZE: usize = 2 << 20;

/// Smallest accepted worker stack: 64 KiB.
pub const MIN_STACK_SIZE: usize = 64 << 10;

/// Largest accepted worker stack: 1 GiB.
pub const MAX_STACK_SIZE: usize = 1 << 30;

/// The nice value of `Cpu` lane workers: they yield a core to the event
/// loop and the I/O lanes when cores are scarce (see [`crate::Builder::cpu_nice`]).
pub const DEFAULT_CPU_NICE: i32 = 10;

/// The largest nice value Linux accepts.
pub const MAX_NICE: i32 = 19;

/// The default `max_threads` of `lane` (threads alive, compensation
/// included) on a machine with `cores` usable cores.
///
/// ```
/// use sluice::{Lane, budget};
/// assert_eq!(budget::default_max_threads(Lane::Cpu, 2), 66);
/// assert_eq!(budget::default_max_threads(Lane::FastIo, 2), 512);
/// ```
pub fn default_max_threads(lane: Lane, cores: usize) -> usize {
    match lane {
        Lane::Cpu => (cores.max(1) + 64).min(MAX_THREADS),
        Lane::FastIo | Lane::SlowIo => 512,
    }
}

/// The default budget of `lane` on a machine with `cores` usable cores.
///
/// ```
/// use sluice::{Lane, budget};
/// assert_eq!(budget::default_threads(Lane::Cpu, 2), 2);
/// assert_eq!(budget::default_threads(Lane::FastIo, 2), 4);
/// assert_eq!(budget::default_threads(Lane::FastIo, 16), 16);
/// assert_eq!(budget::default_threads(Lane::SlowIo, 2), 64);
/// ```
pub fn default_threads(lane: Lane, cores: usize) -> usize {
    let cores = cores.max(1);
    match lane {
        Lane::Cpu => cores,
        Lane::FastIo => cores.max(4),
        Lane::SlowIo => 64,
    }
}

/// The documented maximum budget of `lane` on a machine with `cores` usable cores.
///
/// ```
/// use sluice::{Lane, budget};
/// assert_eq!(budget::max_threads(Lane::Cpu, 8), 8);
/// assert_eq!(budget::max_threads(Lane::SlowIo, 8), budget::MAX_THREADS);
/// ```
pub fn max_threads(lane: Lane, cores: usize) -> usize {
    match lane {
        Lane::Cpu => cores.clamp(1, MAX_THREADS),
        Lane::FastIo | Lane::SlowIo => MAX_THREADS,
    }
}

/// How long an idle worker of `lane` waits for work before its thread exits.
pub fn default_keep_alive(lane: Lane) -> Duration {
    match lane {
        Lane::Cpu | Lane::FastIo => Duration::from_secs(60),
        Lane::SlowIo => Duration::from_secs(10),
    }
}

/// Why a lane's budget stops at [`max_threads`], for a refusal's message:
/// the `Cpu` lane's is the usable cores; the others' need no reason.
pub(crate) fn max_threads_why(lane: Lane, cores: usize) -> String {
    if lane == Lane::Cpu {
        format!(
            " (the usable cores: more Cpu threads than cores only moves the queue into the kernel; {cores} found by available_parallelism)"
        )
    } else {
        String::new()
    }
}
