//! System calls as `/proc/PID/task/TID/syscall` shows them: the line's
//! grammar ([`SyscallLine`]) and the x86_64 numbers scope names ([`name`]).
//!
//! The kernel writes one of three lines (`fs/proc/base.c`,
//! `proc_pid_syscall`): `running` when the thread is runnable (on a CPU or
//! waiting for one), `-1 SP PC` when it is in the kernel outside a system
//! call (a page fault, an interrupt), or `NR ARG1 .. ARG6 SP PC` when it is
//! blocked in system call `NR`.

/// x86_64 `futex`.
pub const FUTEX: u32 = 202;
/// x86_64 `epoll_wait`.
pub const EPOLL_WAIT: u32 = 232;
/// x86_64 `epoll_pwait` (libuv's loop on Linux).
pub const EPOLL_PWAIT: u32 = 281;
/// x86_64 `epoll_pwait2`.
pub const EPOLL_PWAIT2: u32 = 441;
/// `FUTEX_WAIT`.
pub const FUTEX_WAIT: u64 = 0;
/// `FUTEX_WAIT_BITSET` (glibc's condition variables).
pub const FUTEX_WAIT_BITSET: u64 = 9;
/// The futex op bits that name the command (without `FUTEX_PRIVATE_FLAG`
/// and `FUTEX_CLOCK_REALTIME`).
pub const FUTEX_CMD_MASK: u64 = 0x7f;

/// One read of `/proc/PID/task/TID/syscall`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SyscallLine {
    /// Runnable: on a CPU or waiting for one.
    Running,
    /// In the kernel, not in a system call (fault, interrupt): working.
    InKernel,
    /// Blocked in system call `nr` with its first two arguments.
    Blocked {
        /// The x86_64 system call number.
        nr: u32,
        /// `arg1` and `arg2` (for `futex`: the word's address and the op).
        args: [u64; 2],
    },
}

impl SyscallLine {
    /// Parses the file's text; `None` if it is none of the three forms.
    ///
    /// ```
    /// use sluice_scope::sample::syscalls::SyscallLine;
    /// assert_eq!(SyscallLine::parse("running\n"), Some(SyscallLine::Running));
    /// assert_eq!(
    ///     SyscallLine::parse("202 0x566f9c8 0x189 0x0 0x0 0x0 0xffffffff 0x7f 0x7f"),
    ///     Some(SyscallLine::Blocked { nr: 202, args: [0x566f9c8, 0x189] })
    /// );
    /// ```
    pub fn parse(text: &str) -> Option<SyscallLine> {
        let text = text.trim();
        if text == "running" {
            return Some(SyscallLine::Running);
        }
        let mut parts = text.split_whitespace();
        let nr: i64 = parts.next()?.parse().ok()?;
        if nr < 0 {
            return Some(SyscallLine::InKernel);
        }
        let mut arg = || {
            parts
                .next()
                .and_then(|a| u64::from_str_radix(a.trim_start_matches("0x"), 16).ok())
                .unwrap_or(0)
        };
        let args = [arg(), arg()];
        Some(SyscallLine::Blocked {
            nr: u32::try_from(nr).ok()?,
            args,
        })
    }

    /// The futex word a thread waits on, if it is in `FUTEX_WAIT` or
    /// `FUTEX_WAIT_BITSET`.
    pub fn futex_wait_word(&self) -> Option<u64> {
        match *self {
            SyscallLine::Blocked {
                nr,
                args: [addr, op],
            } if nr == FUTEX && matches!(op & FUTEX_CMD_MASK, FUTEX_WAIT | FUTEX_WAIT_BITSET) => {
                Some(addr)
            }
            _ => None,
        }
    }
}

/// Whether `nr` is one of the epoll waits libuv's loop idles in.
pub fn is_epoll_wait(nr: u32) -> bool {
    matches!(nr, EPOLL_WAIT | EPOLL_PWAIT | EPOLL_PWAIT2)
}

/// The name of x86_64 system call `nr`, for the calls a pool thread or an
/// event loop blocks in; `None` for the rest (shown as `syscall`).
///
/// ```
/// assert_eq!(sluice_scope::sample::syscalls::name(17), Some("pread64"));
/// assert_eq!(sluice_scope::sample::syscalls::name(42), Some("connect"));
/// assert_eq!(sluice_scope::sample::syscalls::name(100_000), None);
/// ```
pub fn name(nr: u32) -> Option<&'static str> {
    Some(match nr {
        0 => "read",
        1 => "write",
        2 => "open",
        3 => "close",
        4 => "stat",
        5 => "fstat",
        6 => "lstat",
        7 => "poll",
        8 => "lseek",
        9 => "mmap",
        11 => "munmap",
        16 => "ioctl",
        17 => "pread64",
        18 => "pwrite64",
        19 => "readv",
        20 => "writev",
        21 => "access",
        23 => "select",
        35 => "nanosleep",
        40 => "sendfile",
        41 => "socket",
        42 => "connect",
        43 => "accept",
        44 => "sendto",
        45 => "recvfrom",
        46 => "sendmsg",
        47 => "recvmsg",
        61 => "wait4",
        72 => "fcntl",
        73 => "flock",
        74 => "fsync",
        75 => "fdatasync",
        76 => "truncate",
        77 => "ftruncate",
        78 => "getdents",
        82 => "rename",
        83 => "mkdir",
        84 => "rmdir",
        87 => "unlink",
        89 => "readlink",
        90 => "chmod",
        92 => "chown",
        137 => "statfs",
        138 => "fstatfs",
        202 => "futex",
        217 => "getdents64",
        230 => "clock_nanosleep",
        232 => "epoll_wait",
        257 => "openat",
        262 => "newfstatat",
        270 => "pselect6",
        271 => "ppoll",
        281 => "epoll_pwait",
        285 => "fallocate",
        288 => "accept4",
        295 => "preadv",
        296 => "pwritev",
        299 => "recvmmsg",
        307 => "sendmmsg",
        316 => "renameat2",
        318 => "getrandom",
        326 => "copy_file_range",
        327 => "preadv2",
        328 => "pwritev2",
        332 => "statx",
        426 => "io_uring_enter",
        437 => "openat2",
        441 => "epoll_pwait2",
        449 => "futex_waitv",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_three_forms_parse() {
        assert_eq!(SyscallLine::parse("running"), Some(SyscallLine::Running));
        assert_eq!(
            SyscallLine::parse("-1 0x7ffd 0x55"),
            Some(SyscallLine::InKernel)
        );
        assert_eq!(
            SyscallLine::parse("0 0x15 0x7ffd 0x1 0x0 0x0 0x0 0x7ffc 0x7f\n"),
            Some(SyscallLine::Blocked {
                nr: 0,
                args: [0x15, 0x7ffd]
            })
        );
        assert_eq!(SyscallLine::parse(""), None);
        assert_eq!(SyscallLine::parse("junk"), None);
    }

    #[test]
    fn only_futex_waits_have_a_wait_word() {
        let wait = SyscallLine::parse("202 0x566f9c8 0x189 0x0").unwrap();
        assert_eq!(wait.futex_wait_word(), Some(0x566f9c8));
        let plain_wait = SyscallLine::parse("202 0x1000 0x80 0x0").unwrap();
        assert_eq!(plain_wait.futex_wait_word(), Some(0x1000));
        // FUTEX_WAKE (1) is not a wait.
        let wake = SyscallLine::parse("202 0x1000 0x81 0x1").unwrap();
        assert_eq!(wake.futex_wait_word(), None);
        let read = SyscallLine::parse("0 0x3 0x0").unwrap();
        assert_eq!(read.futex_wait_word(), None);
    }

    #[test]
    fn epoll_waits_are_the_loops_idle() {
        assert!(is_epoll_wait(EPOLL_PWAIT));
        assert!(is_epoll_wait(EPOLL_WAIT));
        assert!(!is_epoll_wait(FUTEX));
    }
}
