//! Reading a process from `/proc`: its threads, what each is blocked in, its
//! memory. Used to watch subjects from outside, the way the seeds did.

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

/// Parses `/proc/PID/task/TID/syscall`: `"0 0x15 0x7f.. ..."` is `read` on fd
/// 21; `"running"` or `"-1 ..."` (not in a syscall) is `None`.
pub fn parse_syscall(text: &str) -> Option<(i64, u64)> {
    let mut parts = text.split_whitespace();
    let nr: i64 = parts.next()?.parse().ok()?;
    if nr < 0 {
        return None;
    }
    let arg0 = parts
        .next()
        .and_then(|a| u64::from_str_radix(a.trim_start_matches("0x"), 16).ok())
        .unwrap_or(0);
    Some((nr, arg0))
}

/// The number of threads of `pid`.
pub fn thread_count(pid: u32) -> std::io::Result<usize> {
    Ok(std::fs::read_dir(format!("/proc/{pid}/task"))?.count())
}

/// A field of `/proc/PID/status` in kB (`VmSize`, `VmRSS`), or a count
/// (`Threads`).
pub fn status_field(pid: u32, field: &str) -> std::io::Result<u64> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/status"))?;
    text.lines()
        .find_map(|l| l.strip_prefix(field).and_then(|r| r.strip_prefix(':')))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.parse().ok())
        .ok_or_else(|| std::io::Error::other(format!("no {field} in /proc/{pid}/status")))
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
    fn this_process_is_readable() {
        let me = std::process::id();
        assert!(thread_count(me).unwrap() >= 1);
        assert!(status_field(me, "VmSize").unwrap() > 0);
        assert!(threads(me).unwrap().iter().any(|t| t.tid == me));
    }
}
