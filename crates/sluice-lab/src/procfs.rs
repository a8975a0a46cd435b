//! Reading a process from `/proc`: its threads, what each is blocked in, its
//! memory. Used to watch subjects from outside, the way the seeds did.
//!
//! The files are read through the `procfs` crate (opened by
//! `sluice_scope::target::proc`, whose errors are `io::Error`s that tell a
//! process gone from one refused); only `syscall` keeps scope's grammar
//! ([`parse_syscall`]), since `procfs`'s refuses a thread blocked outside a
//! system call.

use ::procfs::process::{Process, Task};
use sluice_scope::sample::syscalls::SyscallLine;
use sluice_scope::target::proc::{self, Text, io_error};

/// One thread of a process.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ThreadInfo {
    /// Thread id.
    pub tid: u32,
    /// `comm`: the thread's name.
    pub name: String,
    /// The system call it is blocked in, with its first argument, if it is
    /// blocked in one (`/proc/PID/task/TID/syscall`); `None` when running.
    pub syscall: Option<(i64, u64)>,
}

/// The threads of `pid`, with names and current system calls. Threads that
/// exit while being read are skipped.
pub fn threads(pid: u32) -> std::io::Result<Vec<ThreadInfo>> {
    let mut out = Vec::new();
    for task in tasks(&proc::process(pid)?)? {
        let name = task
            .stat()
            .map(|s| s.comm.trim_end().to_string())
            .unwrap_or_default();
        let syscall = task
            .read::<_, Text>("syscall")
            .ok()
            .and_then(|Text(s)| parse_syscall(&s));
        out.push(ThreadInfo {
            tid: task.tid.unsigned_abs(),
            name,
            syscall,
        });
    }
    Ok(out)
}

/// The threads of `process`, opened; those that exit while listed are left
/// out.
fn tasks(process: &Process) -> std::io::Result<impl Iterator<Item = Task>> {
    Ok(process.tasks().map_err(io_error)?.flatten())
}

/// Parses `/proc/PID/task/TID/syscall` with sluice-scope's grammar:
/// `"0 0x15 0x7f.. ..."` is `read` on fd 21; `"running"` or `"-1 ..."` (not
/// in a system call) is `None`.
pub fn parse_syscall(text: &str) -> Option<(i64, u64)> {
    match SyscallLine::parse(text)? {
        SyscallLine::Blocked { nr, args } => Some((i64::from(nr), args[0])),
        SyscallLine::Running | SyscallLine::InKernel => None,
    }
}

/// The number of threads of `pid`.
pub fn thread_count(pid: u32) -> std::io::Result<usize> {
    Ok(tasks(&proc::process(pid)?)?.count())
}

/// A field of `/proc/PID/status` in kB (`VmSize`, `VmRSS`), or a count
/// (`Threads`).
pub fn status_field(pid: u32, field: &str) -> std::io::Result<u64> {
    let [v] = status_fields(pid, [field])?;
    Ok(v)
}

/// Several fields of `/proc/PID/status`, from one read of it (so they
/// describe the same moment), in the order of `fields`: `Threads`, and
/// `VmSize`, `VmRSS`, `VmHWM` in kB.
pub fn status_fields<const N: usize>(pid: u32, fields: [&str; N]) -> std::io::Result<[u64; N]> {
    let status = proc::process(pid)?.status().map_err(io_error)?;
    let mut out = [0; N];
    for (v, field) in out.iter_mut().zip(fields) {
        *v = match field {
            "Threads" => Some(status.threads),
            "VmSize" => status.vmsize,
            "VmRSS" => status.vmrss,
            "VmHWM" => status.vmhwm,
            _ => None,
        }
        .ok_or_else(|| std::io::Error::other(format!("no {field} in /proc/{pid}/status")))?;
    }
    Ok(out)
}

/// CPU time `pid` has used so far, user plus system, in seconds
/// (`/proc/PID/stat` fields 14 and 15, in clock ticks).
pub fn cpu_seconds(pid: u32) -> std::io::Result<f64> {
    let stat = proc::process(pid)?.stat().map_err(io_error)?;
    Ok((stat.utime + stat.stime) as f64 / clock_ticks_per_second() as f64)
}

/// The machine's load averages over 1, 5 and 15 minutes (`/proc/loadavg`).
pub fn load_average() -> std::io::Result<[f64; 3]> {
    use ::procfs::Current;
    let load = ::procfs::LoadAverage::current().map_err(io_error)?;
    Ok([load.one, load.five, load.fifteen].map(f64::from))
}

/// The fd of `pid` that is open on `path`, if any.
pub fn fd_of(pid: u32, path: &std::path::Path) -> Option<u64> {
    let fds = proc::process(pid).ok()?.fd().ok()?;
    fds.flatten().find_map(|fd| match fd.target {
        ::procfs::process::FDTarget::Path(target) if target == path => u64::try_from(fd.fd).ok(),
        _ => None,
    })
}

/// The CPU a process used over a window in which the measuring thread only
/// slept ([`idle_cpu`]): for checking that an idle pool uses none.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct IdleCpu {
    /// How long the window really was.
    pub window: std::time::Duration,
    /// `utime + stime` of `/proc/self/stat` over the window, in clock ticks
    /// ([`clock_ticks_per_second`]): the whole process, threads that exited
    /// included, and the measuring thread's two reads of that file.
    pub ticks: u64,
    /// The other threads' time on a CPU (first field of
    /// `/proc/self/task/*/schedstat`), in ns: threads alive at both ends,
    /// the measuring thread left out.
    pub others_ns: u64,
    /// The same threads' context switches (voluntary and involuntary, from
    /// `/proc/self/task/*/status`): how often they woke.
    pub others_wakeups: u64,
    /// Threads of the process at the end, the measuring one included.
    pub threads: u64,
}

/// Sleeps for `window` on the calling thread and returns the CPU this
/// process used meanwhile. The per-thread files are read outside the
/// `/proc/self/stat` window, and the calling thread is left out of the
/// per-thread sums, so the measurement's own reading (which grows with the
/// number of threads) is not counted.
pub fn idle_cpu(window: std::time::Duration) -> std::io::Result<IdleCpu> {
    let me = rustix::thread::gettid().as_raw_nonzero().get();
    let before = others(me)?;
    let t0 = std::time::Instant::now();
    let ticks0 = stat_ticks()?;
    std::thread::sleep(window);
    let ticks1 = stat_ticks()?;
    let window = t0.elapsed();
    let after = others(me)?;
    let (mut ns, mut wakeups) = (0, 0);
    for (tid, (ns1, sw1)) in &after.0 {
        if let Some((ns0, sw0)) = before.0.get(tid) {
            ns += ns1.saturating_sub(*ns0);
            wakeups += sw1.saturating_sub(*sw0);
        }
    }
    Ok(IdleCpu {
        window,
        ticks: ticks1.saturating_sub(ticks0),
        others_ns: ns,
        others_wakeups: wakeups,
        threads: after.1,
    })
}

/// Per thread other than `me`: (ns on a CPU, context switches); and the
/// number of threads, `me` included.
type ThreadTimes = (std::collections::BTreeMap<i32, (u64, u64)>, u64);

fn others(me: i32) -> std::io::Result<ThreadTimes> {
    let mut out = std::collections::BTreeMap::new();
    let mut threads = 0;
    for task in tasks(&Process::myself().map_err(io_error)?)? {
        threads += 1;
        if task.tid == me {
            continue;
        }
        // A thread that exits while being read is left out.
        let Ok(sched) = task.schedstat() else {
            continue;
        };
        let Ok(status) = task.status() else {
            continue;
        };
        let switches = status.voluntary_ctxt_switches.unwrap_or(0)
            + status.nonvoluntary_ctxt_switches.unwrap_or(0);
        out.insert(task.tid, (sched.sum_exec_runtime, switches));
    }
    Ok((out, threads))
}

/// `utime + stime` of this process, in clock ticks.
fn stat_ticks() -> std::io::Result<u64> {
    let stat = Process::myself()
        .and_then(|me| me.stat())
        .map_err(io_error)?;
    Ok(stat.utime + stat.stime)
}

/// The kernel's `USER_HZ`: the unit of `utime` and `stime` (usually 100).
pub fn clock_ticks_per_second() -> u64 {
    ::procfs::ticks_per_second()
}

/// x86_64 `read(2)`.
pub const SYS_READ: i64 = 0;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn syscall_lines_parse() {
        assert_eq!(
            parse_syscall("0 0x15 0x7ffd 0x1 0x0 0x0 0x0 0x7ffc 0x7f\n"),
            Some((0, 21))
        );
        assert_eq!(
            parse_syscall("202 0x55d1 0x80 0x0 0x0 0x0 0x0 0x1 0x2"),
            Some((202, 0x55d1))
        );
        assert_eq!(parse_syscall("running\n"), None);
        assert_eq!(parse_syscall("-1 0x7ffd 0x1"), None);
    }

    #[test]
    fn stat_ticks_skip_a_command_with_spaces() {
        use ::procfs::FromRead;
        let line = "42 (a) b (c)) S 1 42 42 0 -1 4194560 100 0 0 0 7 3 0 0 20 0 1 0 5 1000 10 \
                    18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 17 0 0 0 0 0 0";
        let stat = ::procfs::process::Stat::from_read(line.as_bytes()).unwrap();
        assert_eq!(stat.utime + stat.stime, 10);
        assert!(::procfs::process::Stat::from_read("42 (a) S 1".as_bytes()).is_err());
    }

    #[test]
    fn idle_cpu_sees_a_busy_thread_and_leaves_the_caller_out() {
        use std::sync::atomic::{AtomicBool, Ordering};
        let stop = std::sync::Arc::new(AtomicBool::new(false));
        let spin = {
            let stop = stop.clone();
            std::thread::spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    std::hint::spin_loop();
                }
            })
        };
        let used = idle_cpu(std::time::Duration::from_millis(30)).unwrap();
        stop.store(true, Ordering::Relaxed);
        spin.join().unwrap();
        assert!(used.threads >= 2, "{used:?}");
        assert!(
            used.others_ns > 0,
            "the spinning thread was on a CPU: {used:?}"
        );
    }

    #[test]
    fn this_process_is_readable() {
        let me = std::process::id();
        assert!(thread_count(me).unwrap() >= 1);
        assert!(status_field(me, "VmSize").unwrap() > 0);
        assert!(threads(me).unwrap().iter().any(|t| t.tid == me));
        let before = cpu_seconds(me).unwrap();
        // Burn a few ticks' worth of CPU: the counter cannot go down.
        let mut x = 0u64;
        for i in 0..2_000_000u64 {
            x = std::hint::black_box(x.wrapping_add(i * i));
        }
        assert!(cpu_seconds(me).unwrap() >= before);
        assert_eq!(load_average().unwrap().len(), 3);
    }
}
