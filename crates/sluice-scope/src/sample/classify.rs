//! Classification of one sample of one thread: [`ThreadState`].
//!
//! - A **pool thread** is *idle* when it waits on libuv's condition
//!   variable ([`IdleWait`]: a futex word inside `cond` when the symbols say
//!   where it is; otherwise the words the pool's idle threads were seen
//!   waiting on). Anything else is *busy*: on a CPU (`running`: runnable,
//!   whether a CPU is free or not), or blocked in some other system call,
//!   named (`read`, `pread64` for a file read; `connect`, `sendto`,
//!   `recvfrom`, `poll` for `getaddrinfo`'s DNS; `futex` for a lock).
//! - The **loop thread** (the main thread) is *idle* in `epoll_pwait` (or
//!   `epoll_wait`, `epoll_pwait2`); anything else is *busy*: the loop is
//!   running JavaScript or callbacks, or blocked in a synchronous call.

use crate::sample::syscalls::{self, SyscallLine};
use std::ops::Range;

/// How an idle pool thread is recognised.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum IdleWait {
    /// A futex wait on a word inside libuv's `cond` (runtime addresses),
    /// from the symbol table: exact.
    Cond(Range<u64>),
    /// A futex wait on one of these words: the words the pool's idle
    /// threads were seen waiting on (no symbols).
    Words(Vec<u64>),
    /// A futex wait on a word in libuv's static data (these runtime
    /// ranges): libuv's `cond` lives there, but without symbols its exact
    /// place is unknown.
    Data(Vec<Range<u64>>),
    /// Any futex wait (threads named `libuv-worker`, no symbols): a pool
    /// thread blocked on some other lock counts as idle.
    AnyFutex,
}

impl IdleWait {
    /// Whether a futex wait on `word` is the pool's idle wait.
    pub fn matches(&self, word: u64) -> bool {
        match self {
            IdleWait::Cond(r) => r.contains(&word),
            IdleWait::Words(w) => w.contains(&word),
            IdleWait::Data(d) => d.iter().any(|r| r.contains(&word)),
            IdleWait::AnyFutex => true,
        }
    }
}

/// What a thread was doing at one sample.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ThreadState {
    /// Waiting for work: a pool thread on libuv's condition variable, the
    /// loop thread in its epoll wait.
    Idle,
    /// Runnable (on a CPU or waiting for one), or in the kernel outside a
    /// system call.
    OnCpu,
    /// Blocked in system call `nr` (not the idle wait).
    Blocked(u32),
    /// The thread no longer exists.
    Gone,
}

impl ThreadState {
    /// Busy: neither idle nor gone.
    pub fn is_busy(self) -> bool {
        matches!(self, ThreadState::OnCpu | ThreadState::Blocked(_))
    }

    /// Blocked in a network system call: on a pool thread, the C
    /// library's resolver (`getaddrinfo`, `getnameinfo`: libuv's slow I/O)
    /// waiting on a name server.
    ///
    /// ```
    /// use sluice_scope::sample::classify::ThreadState;
    /// assert!(ThreadState::Blocked(7).in_resolver()); // poll
    /// assert!(!ThreadState::Blocked(0).in_resolver()); // read
    /// assert!(!ThreadState::OnCpu.in_resolver());
    /// ```
    pub fn in_resolver(self) -> bool {
        let ThreadState::Blocked(nr) = self else {
            return false;
        };
        matches!(
            syscalls::name(nr),
            Some(
                "connect"
                    | "sendto"
                    | "recvfrom"
                    | "sendmsg"
                    | "recvmsg"
                    | "sendmmsg"
                    | "recvmmsg"
                    | "poll"
                    | "ppoll"
                    | "select"
                    | "pselect6"
                    | "socket"
            )
        )
    }

    /// A short label: `idle`, `cpu`, the system call's name (`read`,
    /// `connect`, `futex`, ...; `syscall` when unnamed), or `gone`.
    ///
    /// ```
    /// use sluice_scope::sample::classify::ThreadState;
    /// assert_eq!(ThreadState::OnCpu.label(), "cpu");
    /// assert_eq!(ThreadState::Blocked(0).label(), "read");
    /// assert_eq!(ThreadState::Blocked(99_999).label(), "syscall");
    /// ```
    pub fn label(self) -> &'static str {
        match self {
            ThreadState::Idle => "idle",
            ThreadState::OnCpu => "cpu",
            ThreadState::Blocked(nr) => syscalls::name(nr).unwrap_or("syscall"),
            ThreadState::Gone => "gone",
        }
    }
}

/// A pool thread's state from its syscall line.
///
/// ```
/// use sluice_scope::sample::classify::{IdleWait, ThreadState, pool_thread};
/// use sluice_scope::sample::syscalls::SyscallLine;
/// let cond = IdleWait::Cond(0x566f9a0..0x566f9d0);
/// let idle = SyscallLine::parse("202 0x566f9c8 0x189 0x0").unwrap();
/// let lock = SyscallLine::parse("202 0x7f0010 0x80 0x2").unwrap();
/// assert_eq!(pool_thread(Some(idle), &cond), ThreadState::Idle);
/// assert_eq!(pool_thread(Some(lock), &cond), ThreadState::Blocked(202));
/// assert_eq!(pool_thread(Some(SyscallLine::Running), &cond), ThreadState::OnCpu);
/// assert_eq!(pool_thread(None, &cond), ThreadState::Gone);
/// ```
pub fn pool_thread(line: Option<SyscallLine>, idle: &IdleWait) -> ThreadState {
    match line {
        None => ThreadState::Gone,
        Some(SyscallLine::Running | SyscallLine::InKernel) => ThreadState::OnCpu,
        Some(l @ SyscallLine::Blocked { nr, .. }) => match l.futex_wait_word() {
            Some(word) if idle.matches(word) => ThreadState::Idle,
            _ => ThreadState::Blocked(nr),
        },
    }
}

/// The loop thread's state from its syscall line.
///
/// ```
/// use sluice_scope::sample::classify::{ThreadState, loop_thread};
/// use sluice_scope::sample::syscalls::SyscallLine;
/// let waiting = SyscallLine::parse("281 0xe 0x7ffd 0x400 0x3e8").unwrap();
/// let sync_read = SyscallLine::parse("0 0x11 0x7ffd 0x10000").unwrap();
/// assert_eq!(loop_thread(Some(waiting)), ThreadState::Idle);
/// assert_eq!(loop_thread(Some(sync_read)), ThreadState::Blocked(0));
/// ```
pub fn loop_thread(line: Option<SyscallLine>) -> ThreadState {
    match line {
        None => ThreadState::Gone,
        Some(SyscallLine::Running | SyscallLine::InKernel) => ThreadState::OnCpu,
        Some(SyscallLine::Blocked { nr, .. }) if syscalls::is_epoll_wait(nr) => ThreadState::Idle,
        Some(SyscallLine::Blocked { nr, .. }) => ThreadState::Blocked(nr),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heuristic_words_match_only_themselves() {
        let w = IdleWait::Words(vec![0x10, 0x14]);
        let on = |addr: u64| SyscallLine::Blocked {
            nr: 202,
            args: [addr, 0x189],
        };
        assert_eq!(pool_thread(Some(on(0x14)), &w), ThreadState::Idle);
        assert_eq!(pool_thread(Some(on(0x18)), &w), ThreadState::Blocked(202));
        assert_eq!(
            pool_thread(Some(on(0x18)), &IdleWait::AnyFutex),
            ThreadState::Idle
        );
    }

    #[test]
    fn reads_and_dns_calls_are_busy_and_named() {
        let idle = IdleWait::AnyFutex;
        for (line, label) in [
            ("0 0x15 0x7ffd 0x1", "read"),
            ("17 0x15 0x7ffd 0x1", "pread64"),
            ("42 0x3 0x7ffd 0x10", "connect"),
            ("7 0x7ffd 0x1 0x1388", "poll"),
            ("45 0x3 0x7ffd 0x800", "recvfrom"),
        ] {
            let s = pool_thread(SyscallLine::parse(line), &idle);
            assert!(s.is_busy(), "{line}");
            assert_eq!(s.label(), label);
        }
        assert!(!ThreadState::Idle.is_busy());
        assert!(!ThreadState::Gone.is_busy());
        assert_eq!(
            pool_thread(Some(SyscallLine::InKernel), &idle),
            ThreadState::OnCpu
        );
    }
}
