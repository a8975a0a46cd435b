//! Reading a process from `/proc`: its threads, what each is blocked in, its
//! memory. Used to watch subjects from outside, the way the seeds did.

use sluice_scope::sample::syscalls::SyscallLine;
use std::path::PathBuf;

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
    let dir = PathBuf::from(format!("/proc/{pid}/task"));
    let mut out = Vec::new();
    for entry in std::fs::read_dir(&dir)? {
        let Ok(entry) = entry else { continue };
        let Ok(tid) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let name = std::fs::read_to_string(entry.path().join("comm"))
            .map(|s| s.trim_end().to_string())
            .unwrap_or_default();
        let syscall = std::fs::read_to_string(entry.path().join("syscall"))
            .ok()
            .and_then(|s| parse_syscall(&s));
        out.push(ThreadInfo { tid, name, syscall });
    }
    Ok(out)
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
    Ok(std::fs::read_dir(format!("/proc/{pid}/task"))?.count())
}

/// A field of `/proc/PID/status` in kB (`VmSize`, `VmRSS`), or a count
/// (`Threads`).
pub fn status_field(pid: u32, field: &str) -> std::io::Result<u64> {
    let [v] = status_fields(pid, [field])?;
    Ok(v)
}

/// Several fields of `/proc/PID/status`, from one read of it (so they
/// describe the same moment), in the order of `fields`.
pub fn status_fields<const N: usize>(pid: u32, fields: [&str; N]) -> std::io::Result<[u64; N]> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/status"))?;
    let mut out = [0; N];
    for (v, field) in out.iter_mut().zip(fields) {
        *v = text
            .lines()
            .find_map(|l| l.strip_prefix(field).and_then(|r| r.strip_prefix(':')))
            .and_then(|v| v.split_whitespace().next())
            .and_then(|v| v.parse().ok())
            .ok_or_else(|| std::io::Error::other(format!("no {field} in /proc/{pid}/status")))?;
    }
    Ok(out)
}

/// CPU time `pid` has used so far, user plus system, in seconds
/// (`/proc/PID/stat` fields 14 and 15, in clock ticks).
pub fn cpu_seconds(pid: u32) -> std::io::Result<f64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat"))?;
    let bad = || std::io::Error::other(format!("unreadable /proc/{pid}/stat: {stat:?}"));
    let after_comm = stat.rfind(')').map(|i| &stat[i + 2..]).ok_or_else(bad)?;
    // Fields from 3 (state) on: utime is field 14, stime 15.
    let mut f = after_comm.split_whitespace().skip(14 - 3);
    let ticks = |v: Option<&str>| v.and_then(|v| v.parse::<u64>().ok()).ok_or_else(bad);
    let total = ticks(f.next())? + ticks(f.next())?;
    Ok(total as f64 / rustix::param::clock_ticks_per_second() as f64)
}

/// The machine's load averages over 1, 5 and 15 minutes (`/proc/loadavg`).
pub fn load_average() -> std::io::Result<[f64; 3]> {
    let text = std::fs::read_to_string("/proc/loadavg")?;
    let mut it = text
        .split_whitespace()
        .map(|v| v.parse::<f64>().unwrap_or(f64::NAN));
    Ok([
        it.next().unwrap_or(f64::NAN),
        it.next().unwrap_or(f64::NAN),
        it.next().unwrap_or(f64::NAN),
    ])
}

/// The fd of `pid` that is open on `path`, if any.
pub fn fd_of(pid: u32, path: &std::path::Path) -> Option<u64> {
    let dir = std::fs::read_dir(format!("/proc/{pid}/fd")).ok()?;
    for entry in dir.flatten() {
        if std::fs::read_link(entry.path()).is_ok_and(|target| target == path) {
            return entry.file_name().to_string_lossy().parse().ok();
        }
    }
    None
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
    let me = std::fs::read_link("/proc/thread-self")?;
    let me = me.file_name().map(|n| n.to_string_lossy().into_owned());
    let before = others(me.as_deref())?;
    let t0 = std::time::Instant::now();
    let ticks0 = stat_ticks()?;
    std::thread::sleep(window);
    let ticks1 = stat_ticks()?;
    let window = t0.elapsed();
    let after = others(me.as_deref())?;
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
type ThreadTimes = (std::collections::BTreeMap<String, (u64, u64)>, u64);

fn others(me: Option<&str>) -> std::io::Result<ThreadTimes> {
    let mut out = std::collections::BTreeMap::new();
    let mut threads = 0;
    for task in std::fs::read_dir("/proc/self/task")?.flatten() {
        threads += 1;
        let tid = task.file_name().to_string_lossy().into_owned();
        if Some(tid.as_str()) == me {
            continue;
        }
        let dir = task.path();
        // A thread that exits while being read is left out.
        let Ok(sched) = std::fs::read_to_string(dir.join("schedstat")) else {
            continue;
        };
        let Ok(status) = std::fs::read_to_string(dir.join("status")) else {
            continue;
        };
        let ns = sched
            .split_whitespace()
            .next()
            .and_then(|n| n.parse::<u64>().ok())
            .unwrap_or(0);
        let switches = status
            .lines()
            .filter(|l| l.contains("ctxt_switches:"))
            .filter_map(|l| l.split_whitespace().nth(1)?.parse::<u64>().ok())
            .sum::<u64>();
        out.insert(tid, (ns, switches));
    }
    Ok((out, threads))
}

fn stat_ticks() -> std::io::Result<u64> {
    let stat = std::fs::read_to_string("/proc/self/stat")?;
    parse_stat_ticks(&stat)
        .ok_or_else(|| std::io::Error::other(format!("malformed /proc/self/stat: {stat:?}")))
}

/// The kernel's `USER_HZ`: the unit of `utime` and `stime` (usually 100).
pub fn clock_ticks_per_second() -> u64 {
    rustix::param::clock_ticks_per_second()
}

/// `utime + stime` (fields 14 and 15) of a `/proc/PID/stat` line. The
/// command name (field 2) may hold spaces and parentheses, so fields are
/// counted after its last `)`.
pub fn parse_stat_ticks(stat: &str) -> Option<u64> {
    let rest = stat.get(stat.rfind(')')? + 1..)?;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // `rest` starts at field 3 (state): utime is field 14, stime 15.
    let utime: u64 = fields.get(11)?.parse().ok()?;
    let stime: u64 = fields.get(12)?.parse().ok()?;
    Some(utime + stime)
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
        let line = "42 (a) b (c)) S 1 42 42 0 -1 4194560 100 0 0 0 7 3 0 0 20 0 1 0 5 1000 10";
        assert_eq!(parse_stat_ticks(line), Some(10));
        assert_eq!(parse_stat_ticks("42 (a) S 1"), None);
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
