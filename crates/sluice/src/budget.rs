//! All budget arithmetic, and nowhere else: default lane sizes, the documented
//! maxima, and libuv's sizing rules for the compat policy.
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

/// libuv's `default_threads[4]`: the pool size when `UV_THREADPOOL_SIZE` is unset.
pub const LIBUV_DEFAULT_THREADS: usize = 4;

/// libuv's `MAX_THREADPOOL_SIZE` (1024 since libuv 1.30.0).
pub const LIBUV_MAX_THREADPOOL_SIZE: usize = 1024;

/// libuv's worker stack size since 1.45.0: `config.stack_size = 8u << 20`.
pub const LIBUV_STACK_SIZE: usize = 8 << 20;

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

/// libuv's `slow_work_thread_threshold()`: at most `(nthreads + 1) / 2` threads
/// may run slow I/O at once (libuv's `src/threadpool.c`).
///
/// ```
/// use sluice::budget::slow_work_thread_threshold as t;
/// assert_eq!([t(1), t(2), t(3), t(4), t(6), t(8), t(16)], [1, 1, 2, 2, 3, 4, 8]);
/// ```
pub fn slow_work_thread_threshold(nthreads: usize) -> usize {
    nthreads.div_ceil(2)
}

/// libuv's `init_threads()` sizing of the pool from the raw value of
/// `UV_THREADPOOL_SIZE`, reproduced as measured on Node v20.20.2 (libuv 1.46.0):
///
/// ```c
/// nthreads = ARRAY_SIZE(default_threads);      /* 4 */
/// val = getenv("UV_THREADPOOL_SIZE");
/// if (val != NULL)
///   nthreads = atoi(val);                      /* unsigned int = (int) strtol(val) */
/// if (nthreads == 0)
///   nthreads = 1;
/// if (nthreads > MAX_THREADPOOL_SIZE)
///   nthreads = MAX_THREADPOOL_SIZE;            /* 1024 */
/// ```
///
/// So junk is 1 thread, negative numbers wrap to huge and become 1024, and
/// values that overflow `int` wrap: `"4294967297"` is 1 thread. Every row of
/// the example below was checked against `node` on this project's machines by
/// counting `/proc/self/status` threads before and after the first `fs.stat`.
///
/// ```
/// use sluice::budget::libuv_nthreads as n;
/// assert_eq!(n(None), 4);
/// assert_eq!([n(Some("0")), n(Some("abc")), n(Some("0x10"))], [1, 1, 1]);
/// assert_eq!([n(Some("3abc")), n(Some(" 7")), n(Some("+6"))], [3, 7, 6]);
/// assert_eq!([n(Some("-1")), n(Some("2000")), n(Some("2147483648"))], [1024, 1024, 1024]);
/// assert_eq!([n(Some("4294967297")), n(Some("-99999999999999999999"))], [1, 1]);
/// assert_eq!(n(Some("0000000000000008")), 8);
/// ```
pub fn libuv_nthreads(val: Option<&str>) -> usize {
    let Some(val) = val else {
        return LIBUV_DEFAULT_THREADS;
    };
    // `atoi` is `(int) strtol(val, NULL, 10)` in glibc; `nthreads` is `unsigned int`.
    let nthreads = c_strtol(val) as i32 as u32 as usize;
    if nthreads == 0 {
        1
    } else if nthreads > LIBUV_MAX_THREADPOOL_SIZE {
        LIBUV_MAX_THREADPOOL_SIZE
    } else {
        nthreads
    }
}

/// C's `strtol(s, NULL, 10)` on a 64-bit `long`: skips leading white space,
/// takes an optional sign and the longest run of digits, saturates on overflow,
/// and yields 0 when there are no digits.
fn c_strtol(s: &str) -> i64 {
    let bytes = s.as_bytes();
    let mut i = 0;
    // C's isspace: space, \t, \n, \v, \f, \r.
    while i < bytes.len() && matches!(bytes[i], b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r') {
        i += 1;
    }
    let negative = match bytes.get(i) {
        Some(b'-') => {
            i += 1;
            true
        }
        Some(b'+') => {
            i += 1;
            false
        }
        _ => false,
    };
    let mut value: i64 = 0;
    while let Some(d) = bytes.get(i).filter(|b| b.is_ascii_digit()) {
        let digit = i64::from(d - b'0');
        value = if negative {
            value.saturating_mul(10).saturating_sub(digit)
        } else {
            value.saturating_mul(10).saturating_add(digit)
        };
        i += 1;
    }
    value
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;

    #[test]
    fn strtol_saturates_and_wraps_like_c() {
        assert_eq!(c_strtol("99999999999999999999"), i64::MAX);
        assert_eq!(c_strtol("-99999999999999999999"), i64::MIN);
        assert_eq!(c_strtol("\t\n 12x"), 12);
        assert_eq!(c_strtol("-"), 0);
        assert_eq!(libuv_nthreads(Some("99999999999")), 1024);
        assert_eq!(libuv_nthreads(Some("-4294967295")), 1);
    }
}
