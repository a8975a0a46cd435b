//! The target's main thread, seen from `/proc/PID/task/PID/syscall`.
//!
//! Node opens the SIGUSR1 inspector, and runs every command it is sent, on
//! the main thread: between two pieces of JavaScript (V8 interrupts), or
//! when the loop turns. A main thread held in a system call, or in native
//! code that never checks for interrupts (`crypto.pbkdf2Sync`), holds the
//! inspector too. So scope looks before it signals ([`check_not_blocked`]):
//! a main thread that stays in one system call other than its loop's wait
//! gets no SIGUSR1, since the inspector would open when that call returns,
//! at a time scope cannot promise to be there to close it.
//!
//! "Its loop's wait" is an `epoll_wait` on the main loop's own epoll fd
//! (`backend_fd` of libuv's `default_loop_struct`, read from memory where
//! the symbol is known). `execSync` runs a private loop: its `epoll_wait`
//! is on another fd, and counts as blocked.

use super::error::InspectorError;
use crate::sample::classify::{self, ThreadState};
use crate::sample::syscalls::{self, SyscallLine};
use crate::target::Target;
use crate::target::memory::RemoteMemory;
use std::time::{Duration, Instant};

/// How long scope looks at the main thread before SIGUSR1.
pub(crate) const PRECHECK: Duration = Duration::from_millis(300);

/// `backend_fd`'s offset in libuv 1.x's `uv_loop_t` on 64-bit Linux: after
/// `data`, `active_handles`, `handle_queue`, `active_reqs`,
/// `internal_fields`, `stop_flag` and the private `flags`.
const BACKEND_FD_OFFSET: u64 = 64;

/// What the main thread is doing, in one reading.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Main {
    /// In its loop's wait: the loop turns.
    InLoop,
    /// On a CPU: JavaScript (takes interrupts) or native code (may not).
    OnCpu,
    /// In a system call other than its loop's wait: `nr`, and for an
    /// `epoll_wait`, the fd (a private loop, `execSync`'s).
    Blocked { nr: u32, epoll_fd: Option<u64> },
    /// The thread is gone.
    Gone,
}

impl Main {
    /// In words, for messages.
    pub(crate) fn describe(self) -> String {
        match self {
            Main::InLoop => "waiting in its event loop".into(),
            Main::OnCpu => "running (busy outside any system call: a long synchronous call)".into(),
            Main::Blocked {
                epoll_fd: Some(fd), ..
            } => format!(
                "blocked in epoll_wait on fd {fd}, not its event loop's (a synchronous call that runs its own loop: execSync, spawnSync)"
            ),
            Main::Blocked { nr, .. } => format!(
                "blocked in the system call {} (a long synchronous call)",
                syscalls::name(nr).unwrap_or("?")
            ),
            Main::Gone => "gone".into(),
        }
    }
}

/// Watches one process's main thread.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct MainThread {
    pid: u32,
    /// The main loop's epoll fd, when libuv's symbols and the process's
    /// memory tell it; without it any `epoll_wait` counts as the loop's.
    loop_fd: Option<u64>,
}

impl MainThread {
    /// Process `pid`'s main thread, its loop's fd unknown.
    pub(crate) fn new(pid: u32) -> MainThread {
        MainThread { pid, loop_fd: None }
    }

    /// The main thread of `target`, its loop's epoll fd read from memory.
    pub(crate) fn of(target: &Target) -> MainThread {
        let loop_fd = target.image.symbols.default_loop.and_then(|at| {
            let mem = RemoteMemory::open(target.pid).ok()?;
            let fd = mem.u32(target.image.runtime(at) + BACKEND_FD_OFFSET).ok()?;
            // An fd the process holds as an epoll instance, or not libuv's.
            let info = crate::target::proc::process(target.pid)
                .ok()?
                .fd_from_fd(i32::try_from(fd).ok()?)
                .ok()?;
            let epoll = procfs::process::FDTarget::AnonInode("[eventpoll]".into());
            (info.target == epoll).then_some(u64::from(fd))
        });
        MainThread {
            pid: target.pid,
            loop_fd,
        }
    }

    /// Whether the main loop's epoll fd is known: a reading of
    /// [`Main::InLoop`] is then that loop's wait, not any `epoll_wait`.
    pub(crate) fn knows_loop(&self) -> bool {
        self.loop_fd.is_some()
    }

    /// One reading.
    pub(crate) fn now(&self) -> Main {
        let line = crate::target::syscall_line(self.pid, self.pid);
        match (classify::loop_thread(line), line) {
            (ThreadState::Gone, _) => Main::Gone,
            (ThreadState::OnCpu, _) => Main::OnCpu,
            (ThreadState::Idle, Some(SyscallLine::Blocked { nr, args })) => match self.loop_fd {
                Some(fd) if args[0] != fd => Main::Blocked {
                    nr,
                    epoll_fd: Some(args[0]),
                },
                _ => Main::InLoop,
            },
            (ThreadState::Idle, _) => Main::InLoop,
            (ThreadState::Blocked(nr), _) => Main::Blocked { nr, epoll_fd: None },
        }
    }
}

/// Refuses SIGUSR1 when the main thread stays in one system call other
/// than its loop's wait for all of [`PRECHECK`] (read every 2 ms): the
/// inspector would open only when that call returns. A reading in the loop
/// or on a CPU ends the check (a CPU-bound main thread running JavaScript
/// takes the inspector's interrupt; native code that does not is caught
/// after SIGUSR1, by the inspector's silence).
pub(crate) fn check_not_blocked(main: &MainThread) -> Result<(), InspectorError> {
    let start = Instant::now();
    let first = main.now();
    let Main::Blocked { .. } = first else {
        return Ok(());
    };
    while start.elapsed() < PRECHECK {
        std::thread::sleep(Duration::from_millis(2));
        if main.now() != first {
            return Ok(());
        }
    }
    Err(InspectorError::MainThreadBlocked {
        pid: main.pid,
        main_thread: first.describe(),
        for_ms: PRECHECK.as_millis() as u64,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn describes_each_state() {
        assert_eq!(Main::InLoop.describe(), "waiting in its event loop");
        assert!(
            Main::Blocked {
                nr: 61,
                epoll_fd: None
            }
            .describe()
            .contains("system call wait4")
        );
        assert!(
            Main::Blocked {
                nr: 281,
                epoll_fd: Some(18)
            }
            .describe()
            .contains("epoll_wait on fd 18, not its event loop's")
        );
    }

    #[test]
    fn this_thread_is_not_blocked() {
        // This test runs on a thread that reads /proc: the main thread of
        // the test binary waits in a futex (the harness), so it is
        // blocked; a process whose main thread exits is gone.
        let main = MainThread::new(std::process::id());
        assert!(matches!(main.now(), Main::Blocked { .. } | Main::OnCpu));
        assert_eq!(MainThread::new(u32::MAX).now(), Main::Gone);
    }
}
