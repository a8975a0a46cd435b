//! Sets and reads the Linux scheduling policy of one thread of this process,
//! named by its thread id (`gettid`).
//!
//! `sched_setscheduler(2)` on Linux takes a thread id: the policy belongs to
//! the thread, not the process. Safe wrappers set the *calling* thread's
//! policy (or a `pthread_t`'s policy and then the caller's nice value);
//! sluice's guarded `Cpu` lane needs another thread's, so this crate holds
//! the two `unsafe` calls, each with its proof, out of the `forbid(unsafe)`
//! core.
//!
//! Only the normal policies are offered (`SCHED_OTHER`, `SCHED_BATCH`,
//! `SCHED_IDLE`): their static priority is 0, and the thread's nice value is
//! kept across a change (the kernel's `sched_setscheduler` keeps it).
//!
//! **The caller must know the thread is alive and its own.** A thread id is
//! reused once its thread has exited, by any process; a call with a stale id
//! changes someone else's thread. sluice calls this only for a worker
//! registered in its lane, under the lock the worker takes to deregister
//! before it exits.
//!
//! ```
//! # #[cfg(target_os = "linux")] {
//! use sluice_sched::{Policy, current_tid, policy, set_policy};
//! let me = current_tid();
//! let before = policy(me)?;
//! set_policy(me, Policy::Batch)?;
//! assert_eq!(policy(me)?, Policy::Batch);
//! // Back from SCHED_BATCH to SCHED_OTHER needs no privilege (from
//! // SCHED_IDLE it does: see `set_policy`).
//! set_policy(me, before)?;
//! # }
//! # Ok::<(), std::io::Error>(())
//! ```

#![deny(unsafe_code)]

use std::io;

/// A normal (non-real-time) Linux scheduling policy.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Policy {
    /// `SCHED_OTHER`: the default, weighted by the nice value.
    Other,
    /// `SCHED_BATCH`: like `SCHED_OTHER`, but never preempts on wake-up.
    Batch,
    /// `SCHED_IDLE`: runs only when nothing else wants the core.
    Idle,
}

#[cfg(target_os = "linux")]
impl Policy {
    fn raw(self) -> libc::c_int {
        match self {
            Policy::Other => libc::SCHED_OTHER,
            Policy::Batch => libc::SCHED_BATCH,
            Policy::Idle => libc::SCHED_IDLE,
        }
    }
}

/// The calling thread's id, as `set_policy` and `policy` take it.
#[cfg(target_os = "linux")]
pub fn current_tid() -> i32 {
    // SAFETY: `gettid` takes no arguments, touches no memory of ours and
    // cannot fail.
    #[allow(unsafe_code)]
    unsafe {
        libc::gettid()
    }
}

/// Sets thread `tid`'s policy, keeping its nice value.
///
/// Moving to a lower policy needs no privilege. Leaving `SCHED_IDLE` for
/// `SCHED_OTHER` or `SCHED_BATCH` needs `CAP_SYS_NICE`, or an `RLIMIT_NICE`
/// of at least `20 - nice` (the kernel treats an idle thread as nice 20);
/// otherwise this fails with `EPERM`.
///
/// # Errors
/// The kernel's: `ESRCH` when no thread has that id, `EPERM` as above.
#[cfg(target_os = "linux")]
pub fn set_policy(tid: i32, policy: Policy) -> io::Result<()> {
    let param = KernelSchedParam { sched_priority: 0 };
    // The system call itself, not libc's wrapper: musl's
    // `sched_setscheduler` fails with ENOSYS by design (POSIX names a
    // process there, Linux a thread), glibc's is this same call.
    // SAFETY: `param` is a live, initialized `struct sched_param` of the
    // kernel's layout (one `c_int`, `KernelSchedParam`) on this stack frame
    // for the whole call, and the kernel only reads it. `tid` and the
    // policy are plain integers, passed widened to `c_long` as the variadic
    // `syscall` expects: a wrong id makes the kernel fail with ESRCH (or act
    // on another thread, which the caller rules out, see the crate docs);
    // it cannot make this call touch memory.
    #[allow(unsafe_code)]
    let rc = unsafe {
        libc::syscall(
            libc::SYS_sched_setscheduler,
            libc::c_long::from(tid),
            libc::c_long::from(policy.raw()),
            &raw const param,
        )
    };
    if rc == 0 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}

/// The kernel's `struct sched_param` (include/uapi/linux/sched/types.h): one
/// `int`. libc's type for musl is larger (POSIX sporadic-server fields the
/// kernel never reads), so the system calls take this one.
#[cfg(target_os = "linux")]
#[repr(C)]
struct KernelSchedParam {
    sched_priority: libc::c_int,
}

/// Thread `tid`'s policy.
///
/// # Errors
/// `ESRCH` when no thread has that id; `InvalidData` for a real-time or
/// deadline policy (not one of [`Policy`]).
#[cfg(target_os = "linux")]
pub fn policy(tid: i32) -> io::Result<Policy> {
    // The system call, as in `set_policy` (musl's wrapper is an ENOSYS
    // stub).
    // SAFETY: takes an integer (widened to `c_long` for the variadic
    // `syscall`) and returns one; no memory is passed.
    #[allow(unsafe_code)]
    let rc = unsafe { libc::syscall(libc::SYS_sched_getscheduler, libc::c_long::from(tid)) };
    // A policy or -1: always within `c_int`.
    let rc = libc::c_int::try_from(rc).unwrap_or(libc::c_int::MIN);
    match rc {
        libc::SCHED_OTHER => Ok(Policy::Other),
        libc::SCHED_BATCH => Ok(Policy::Batch),
        libc::SCHED_IDLE => Ok(Policy::Idle),
        -1 => Err(io::Error::last_os_error()),
        other => Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!("thread {tid} runs under real-time or deadline policy {other}"),
        )),
    }
}

/// Elsewhere there is no per-thread policy to set.
#[cfg(not(target_os = "linux"))]
pub fn set_policy(_tid: i32, _policy: Policy) -> io::Result<()> {
    Err(io::Error::new(
        io::ErrorKind::Unsupported,
        "per-thread scheduling policies are Linux only",
    ))
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    #[test]
    fn a_thread_moves_another_threads_policy() {
        let (tx, rx) = std::sync::mpsc::channel();
        let (done_tx, done_rx) = std::sync::mpsc::channel::<()>();
        let t = std::thread::spawn(move || {
            tx.send(current_tid()).unwrap();
            done_rx.recv().unwrap();
        });
        let tid = rx.recv().unwrap();
        assert_ne!(tid, current_tid());
        set_policy(tid, Policy::Idle).unwrap();
        assert_eq!(policy(tid).unwrap(), Policy::Idle);
        assert_eq!(policy(current_tid()).unwrap(), Policy::Other);
        done_tx.send(()).unwrap();
        t.join().unwrap();
    }

    #[test]
    fn an_unknown_thread_is_an_error() {
        // Thread ids are positive; -1 is never one.
        let err = set_policy(-1, Policy::Idle).unwrap_err();
        assert_eq!(err.raw_os_error(), Some(libc::EINVAL));
        assert!(policy(-1).is_err());
    }
}
