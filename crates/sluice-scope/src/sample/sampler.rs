//! The /proc sampler: one [`Tick`] reads `/proc/PID/task/TID/syscall` of
//! every pool thread and of the loop thread and classifies each.
//!
//! The files stay open between ticks and are re-read with `pread` at
//! offset 0, so a tick costs one system call per thread (no open, no path
//! lookup). CPU time per thread comes from `schedstat` (nanoseconds on a
//! CPU), read once per window, not per tick.
//!
//! It does not use the `procfs` crate, the workspace's reader of `/proc`
//! everywhere else (`target/proc.rs`): a tick runs hundreds of times a
//! second for every pool thread, and must not allocate or open anything.
//! `procfs` opens the file again and builds a `String` (or a parsed
//! struct) for each read; here each file is opened once, read into one
//! reused buffer with one `pread`, and parsed in place
//! (`syscalls.rs`). `lanes.rs` samples sluice's lane threads through the
//! same `Watched` files, for the same reason.

use crate::sample::classify::{self, IdleWait, ThreadState};
use crate::sample::syscalls::SyscallLine;
use std::fs::File;
use std::os::unix::fs::FileExt;

/// One thread's open files.
#[derive(Debug)]
pub(crate) struct Watched {
    pub(crate) tid: u32,
    syscall: Option<File>,
    schedstat: Option<File>,
}

impl Watched {
    pub(crate) fn open(pid: u32, tid: u32) -> Watched {
        let open = |f: &str| File::open(format!("/proc/{pid}/task/{tid}/{f}")).ok();
        Watched {
            tid,
            syscall: open("syscall"),
            schedstat: open("schedstat"),
        }
    }

    pub(crate) fn line(&self, buf: &mut [u8]) -> Option<SyscallLine> {
        let n = self.syscall.as_ref()?.read_at(buf, 0).ok()?;
        SyscallLine::parse(std::str::from_utf8(&buf[..n]).ok()?)
    }

    fn cpu_ns(&self, buf: &mut [u8]) -> Option<u64> {
        let n = self.schedstat.as_ref()?.read_at(buf, 0).ok()?;
        std::str::from_utf8(&buf[..n])
            .ok()?
            .split_whitespace()
            .next()?
            .parse()
            .ok()
    }
}

/// One sample of the pool and the loop.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tick {
    /// Each pool thread's state, in the order of [`Sampler::pool_tids`].
    pub pool: Vec<ThreadState>,
    /// The loop thread's state.
    pub loop_state: ThreadState,
}

impl Tick {
    /// How many pool threads were busy.
    pub fn busy(&self) -> usize {
        self.pool.iter().filter(|s| s.is_busy()).count()
    }
}

/// Samples the pool threads and the loop thread of one process.
#[derive(Debug)]
pub(crate) struct Sampler {
    pid: u32,
    pool: Vec<Watched>,
    idle: IdleWait,
    main: Watched,
    buf: Vec<u8>,
}

impl Sampler {
    /// A sampler of process `pid`'s loop (its main thread) and the pool
    /// threads `pool`, idle when waiting as `idle` says.
    pub(crate) fn new(pid: u32, pool: &[u32], idle: IdleWait) -> Sampler {
        Sampler {
            pid,
            pool: pool.iter().map(|&t| Watched::open(pid, t)).collect(),
            idle,
            main: Watched::open(pid, pid),
            buf: vec![0u8; 256],
        }
    }

    /// Replaces the pool threads (after a new discovery), keeping the open
    /// files of threads that stay.
    pub(crate) fn set_pool(&mut self, pool: &[u32], idle: IdleWait) {
        let mut old = std::mem::take(&mut self.pool);
        self.pool = pool
            .iter()
            .map(|&t| match old.iter().position(|w| w.tid == t) {
                Some(i) => old.swap_remove(i),
                None => Watched::open(self.pid, t),
            })
            .collect();
        self.idle = idle;
    }

    /// The pool threads sampled, in [`Tick::pool`] order.
    pub(crate) fn pool_tids(&self) -> Vec<u32> {
        self.pool.iter().map(|w| w.tid).collect()
    }

    /// Samples every thread once.
    pub(crate) fn tick(&mut self) -> Tick {
        let buf = &mut self.buf;
        let pool = self
            .pool
            .iter()
            .map(|w| classify::pool_thread(w.line(buf), &self.idle))
            .collect();
        Tick {
            pool,
            loop_state: classify::loop_thread(self.main.line(buf)),
        }
    }

    /// Nanoseconds on a CPU so far: each pool thread (in order), then the
    /// loop thread; `None` for a thread that is gone or hides it.
    pub(crate) fn cpu_ns(&mut self) -> (Vec<Option<u64>>, Option<u64>) {
        let buf = &mut self.buf;
        let pool = self.pool.iter().map(|w| w.cpu_ns(buf)).collect();
        (pool, self.main.cpu_ns(buf))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn samples_a_thread_of_this_process() {
        // A thread parked in a futex wait (std's channel recv), seen as
        // idle under AnyFutex; the main thread (this test's caller is not
        // the process's main thread, so only the pool side is checked).
        let parked = crate::target::Parked::start();
        let tid = parked.tid;
        let mut s = Sampler::new(std::process::id(), &[tid], IdleWait::AnyFutex);
        // The thread reaches its futex wait soon after sending; sample
        // until it has (a count of samples, no time bound asserted).
        let mut idle = false;
        for _ in 0..100_000 {
            if s.tick().pool == vec![ThreadState::Idle] {
                idle = true;
                break;
            }
            std::thread::yield_now();
        }
        assert!(idle, "the parked thread was never seen idle");
        assert_eq!(s.pool_tids(), vec![tid]);
        let (cpu, _) = s.cpu_ns();
        assert!(cpu[0].is_some());
        parked.end();
        // `join` returns when the kernel clears the thread's tid, a moment
        // before its /proc entry goes: sample until it has gone.
        let mut last = s.tick().pool;
        for _ in 0..100_000 {
            if last == vec![ThreadState::Gone] {
                break;
            }
            std::thread::yield_now();
            last = s.tick().pool;
        }
        assert_eq!(last, vec![ThreadState::Gone]);
    }
}
