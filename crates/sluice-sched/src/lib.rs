//! Sets and reads the Linux scheduling of one thread of this process, named
//! by its thread id (`gettid`): its policy ([`set_policy`], [`policy`]) and
//! its nice value ([`set_nice`], [`nice`]); and the policy of a thread
//! that has not run yet, named by its `JoinHandle` ([`set_policy_of`]).
//! This crate is the one way sluice sets a thread's scheduling.
//!
//! `sched_setscheduler(2)` on Linux takes a thread id: the policy belongs to
//! the thread, not the process. Safe wrappers set the *calling* thread's
//! policy (or a `pthread_t`'s policy and then the caller's nice value);
//! sluice's guarded `Cpu` lane needs another thread's, so this crate holds
//! the `unsafe` calls (`gettid`, `sched_setscheduler`, `sched_getscheduler`),
//! each with its proof, out of the `forbid(unsafe)` core.
//!
//! A nice value is per thread on Linux too (`setpriority(PRIO_PROCESS, tid)`
//! names a thread); [`set_nice`] and [`nice`] wrap rustix's safe calls, so
//! that the core reaches the scheduler through this crate alone.
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
//! use sluice_sched::{Policy, current_tid, nice, policy, set_nice, set_policy};
//! let me = current_tid();
//! let before = policy(me)?;
//! set_policy(me, Policy::Batch)?;
//! assert_eq!(policy(me)?, Policy::Batch);
//! // Back from SCHED_BATCH to SCHED_OTHER needs no privilege (from
//! // SCHED_IDLE it does: see `set_policy`).
//! set_policy(me, before)?;
//! // Raising a nice value needs no privilege (lowering it again does).
//! set_nice(me, 19)?;
//! assert_eq!(nice(me)?, 19);
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

/// The calling thread's id, as [`set_policy`], [`policy`], [`set_nice`] and
/// [`nice`] take it.
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

/// Sets the policy of the thread behind `thread`, keeping its nice value:
/// for a thread that may not have run yet, so has not told anyone its id.
/// A new thread inherits its creator's policy, and one started by a
/// `SCHED_IDLE` thread can wait a long time for its first slice on a busy
/// machine; this moves it before it runs. Privileges as for [`set_policy`].
///
/// ```
/// # #[cfg(target_os = "linux")] {
/// use sluice_sched::{Policy, current_tid, policy, set_policy_of};
/// let (tx, rx) = std::sync::mpsc::channel();
/// let (done_tx, done_rx) = std::sync::mpsc::channel::<()>();
/// let t = std::thread::spawn(move || {
///     done_rx.recv().unwrap();
///     tx.send(policy(current_tid()).unwrap()).unwrap();
/// });
/// set_policy_of(&t, Policy::Batch)?;
/// done_tx.send(()).unwrap();
/// assert_eq!(rx.recv().unwrap(), Policy::Batch);
/// t.join().unwrap();
/// # }
/// # Ok::<(), std::io::Error>(())
/// ```
///
/// # Errors
/// The kernel's: `ESRCH` once the thread has exited, `EPERM` as for
/// [`set_policy`].
#[cfg(target_os = "linux")]
pub fn set_policy_of<T>(thread: &std::thread::JoinHandle<T>, policy: Policy) -> io::Result<()> {
    use std::os::unix::thread::JoinHandleExt;
    // std names the thread by an integer, libc by its own `pthread_t`: the
    // same integer on glibc, a pointer of that value on musl (which is what
    // std cast to an integer).
    #[allow(clippy::unnecessary_cast)]
    let pthread = thread.as_pthread_t() as libc::pthread_t;
    // SAFETY: `sched_param` holds only integers (one on glibc; on musl also
    // the unused sporadic-server fields), so all-zero bytes are a valid
    // value: priority 0, which the normal policies require.
    #[allow(unsafe_code)]
    let param: libc::sched_param = unsafe { std::mem::zeroed() };
    // SAFETY: `pthread` names a thread that has been neither joined nor
    // detached: `thread` borrows its `JoinHandle` for this whole call, and
    // only joining or dropping the handle ends the descriptor's life, so it
    // is valid here (a thread that has exited keeps its descriptor until
    // then, and glibc and musl answer ESRCH for it). `param` lives on this
    // frame for the whole call and is only read.
    #[allow(unsafe_code)]
    let rc = unsafe { libc::pthread_setschedparam(pthread, policy.raw(), &raw const param) };
    if rc == 0 {
        Ok(())
    } else {
        Err(io::Error::from_raw_os_error(rc))
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

/// Sets thread `tid`'s nice value (the kernel clamps it to `-20..=19`),
/// keeping its policy.
///
/// Raising a nice value needs no privilege. Lowering it below `20 -
/// RLIMIT_NICE` needs `CAP_SYS_NICE` (the kernel's `can_nice`); otherwise
/// this fails with `EACCES`. A `tid` of 0 names the calling thread, as in
/// the kernel's own calls.
///
/// # Errors
/// The kernel's: `ESRCH` when no thread has that id, `EACCES` as above;
/// `EINVAL` for a negative `tid`.
#[cfg(target_os = "linux")]
pub fn set_nice(tid: i32, nice: i32) -> io::Result<()> {
    Ok(rustix::process::setpriority_process(pid(tid)?, nice)?)
}

/// Thread `tid`'s nice value, `-20..=19` (0 names the calling thread).
///
/// # Errors
/// `ESRCH` when no thread has that id; `EINVAL` for a negative `tid`.
#[cfg(target_os = "linux")]
pub fn nice(tid: i32) -> io::Result<i32> {
    Ok(rustix::process::getpriority_process(pid(tid)?)?)
}

/// `tid` as rustix names a thread: `None` for the caller (0), an error for
/// a negative id (no thread has one).
#[cfg(target_os = "linux")]
fn pid(tid: i32) -> io::Result<Option<rustix::process::Pid>> {
    if tid < 0 {
        return Err(io::Error::from_raw_os_error(libc::EINVAL));
    }
    Ok(rustix::process::Pid::from_raw(tid))
}

/// Elsewhere there is no per-thread policy to set.
#[cfg(not(target_os = "linux"))]
pub fn set_policy(_tid: i32, _policy: Policy) -> io::Result<()> {
    Err(io::Error::new(
        io::ErrorKind::Unsupported,
        "per-thread scheduling policies are Linux only",
    ))
}

/// Elsewhere there is no per-thread policy to set.
#[cfg(not(target_os = "linux"))]
pub fn set_policy_of<T>(_thread: &std::thread::JoinHandle<T>, _policy: Policy) -> io::Result<()> {
    Err(io::Error::new(
        io::ErrorKind::Unsupported,
        "per-thread scheduling policies are Linux only",
    ))
}

/// Elsewhere a nice value is the process's, not a thread's.
#[cfg(not(target_os = "linux"))]
pub fn set_nice(_tid: i32, _nice: i32) -> io::Result<()> {
    Err(io::Error::new(
        io::ErrorKind::Unsupported,
        "per-thread nice values are Linux only",
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
        assert_eq!(
            set_nice(-1, 10).unwrap_err().raw_os_error(),
            Some(libc::EINVAL)
        );
        assert_eq!(nice(-1).unwrap_err().raw_os_error(), Some(libc::EINVAL));
    }

    #[test]
    fn a_thread_raises_another_threads_nice_value_and_keeps_its_policy() {
        let (tx, rx) = std::sync::mpsc::channel();
        let (done_tx, done_rx) = std::sync::mpsc::channel::<()>();
        let t = std::thread::spawn(move || {
            tx.send(current_tid()).unwrap();
            done_rx.recv().unwrap();
            // The nice value is the thread's own: what it reads of itself.
            nice(0).unwrap()
        });
        let tid = rx.recv().unwrap();
        let mine = nice(current_tid()).unwrap();
        assert_eq!(
            nice(tid).unwrap(),
            mine,
            "a new thread inherits its creator's"
        );
        set_policy(tid, Policy::Batch).unwrap();
        // Raising needs no privilege; 19 is the highest a thread can have.
        set_nice(tid, 19).unwrap();
        assert_eq!(nice(tid).unwrap(), 19);
        assert_eq!(policy(tid).unwrap(), Policy::Batch, "the policy is kept");
        assert_eq!(nice(current_tid()).unwrap(), mine, "only that thread moved");
        // The kernel clamps: above 19 is 19.
        set_nice(tid, 40).unwrap();
        assert_eq!(nice(tid).unwrap(), 19);
        done_tx.send(()).unwrap();
        assert_eq!(t.join().unwrap(), 19);
    }
}
