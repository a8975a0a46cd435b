//! [`Target`]: the process watched. Opening one checks, in order, that the
//! PID names a live process (not a thread of one), that `/proc` lets this
//! user read its system calls, and that it has a libuv pool: its executable
//! or a mapped `libuv*.so` exports `uv_queue_work`. Each failure is its own
//! [`ScopeError`], naming the PID and the fix.
//!
//! - `maps.rs`: `/proc/PID/maps`; `image.rs`: the ELF file that holds
//!   libuv and what its symbols say; `memory.rs`: reading the process's
//!   memory.
//! - `discovery.rs`: which threads are libuv's pool; `start_routine.rs`:
//!   telling them by what they were started with.
//! - `addon.rs`: sluice's npm package in the process (the mapped addon
//!   that exports `sluice_scope_lanes`, and where that symbol lies).
//! - `container.rs`: which container and pod the process runs in.
//! - `proc.rs`: `/proc` through the `procfs` crate, its errors as
//!   `io::Error`s.

pub(crate) mod addon;
pub(crate) mod container;
pub mod discovery;
pub mod image;
pub mod maps;
pub mod memory;
pub mod proc;
pub(crate) mod start_routine;

use crate::error::ScopeError;
use crate::target::image::LibuvImage;
use std::io::ErrorKind;
use std::os::unix::fs::MetadataExt;
use std::path::PathBuf;

/// A live process with a libuv pool.
#[derive(Debug, Clone)]
pub struct Target {
    /// Its PID; also the TID of its main thread, which runs the event loop.
    pub pid: u32,
    /// Its `comm` (e.g. `node`).
    pub comm: String,
    /// Its executable, as `/proc/PID/exe` names it.
    pub exe: String,
    /// The file holding its libuv.
    pub image: LibuvImage,
    /// Start time (clock ticks after boot): tells a reused PID apart.
    start_time: u64,
}

impl Target {
    /// Opens process `pid` for watching.
    pub fn open(pid: u32) -> Result<Target, ScopeError> {
        Target::open_cached(pid, &mut ImageCache::default())
    }

    /// Opens process `pid`, reading each ELF file's symbols only if
    /// `cache` has not seen that file (device and inode) before.
    pub fn open_cached(pid: u32, cache: &mut ImageCache) -> Result<Target, ScopeError> {
        let process = proc::process(pid).map_err(|e| match e.kind() {
            ErrorKind::NotFound => ScopeError::NoSuchProcess { pid },
            _ => ScopeError::io(format!("reading /proc/{pid}/status"), e),
        })?;
        let comm = live_process_name(pid, &process)?;
        // The executable and libraries are read by path, through the
        // process's own links (`exe`, `root/...`): a container's files, not
        // this mount namespace's.
        let proc = PathBuf::from(format!("/proc/{pid}"));
        let exe_link = proc.join("exe");
        let exe = readable_executable(pid, &process, &comm)?;
        let maps = maps::of(&process).map_err(|e| match e.kind() {
            ErrorKind::PermissionDenied => denied(pid, proc.join("maps")),
            _ => ScopeError::io(format!("reading /proc/{pid}/maps"), e),
        })?;
        let start_time = start_time(&process).ok_or(ScopeError::Exited { pid })?;
        let exe_inode = std::fs::metadata(&exe_link)
            .map_err(|e| ScopeError::io(format!("reading {}", exe_link.display()), e))?
            .ino();
        let image = match cache.load(&exe_link, &exe, exe_inode, &maps)? {
            Some(image) => Some(image),
            None => shared_libuv(&proc, &maps, cache)?,
        };
        let image = image.ok_or_else(|| ScopeError::NotNode {
            pid,
            comm: comm.clone(),
            exe: exe.clone(),
        })?;
        Ok(Target {
            pid,
            comm,
            exe,
            image,
            start_time,
        })
    }

    /// Whether the process still runs (the same process: a reused PID or a
    /// zombie counts as gone).
    pub fn is_alive(&self) -> bool {
        process_start_time(self.pid) == Some(self.start_time)
    }

    /// [`Target::is_alive`] as a closure another thread can keep.
    pub fn liveness(&self) -> Box<dyn Fn() -> bool + Send> {
        let (pid, started) = (self.pid, self.start_time);
        Box::new(move || process_start_time(pid) == Some(started))
    }

    /// The TIDs of its threads, in no particular order.
    pub fn tids(&self) -> Result<Vec<u32>, ScopeError> {
        Ok(self.tasks()?.map(|t| t.tid.unsigned_abs()).collect())
    }

    /// Its threads, opened: those that exit while listed are left out.
    fn tasks(&self) -> Result<impl Iterator<Item = procfs::process::Task>, ScopeError> {
        let exited_or = |e: std::io::Error| {
            if e.kind() == ErrorKind::NotFound {
                ScopeError::Exited { pid: self.pid }
            } else {
                ScopeError::io(format!("listing /proc/{}/task", self.pid), e)
            }
        };
        let process = proc::process(self.pid).map_err(exited_or)?;
        let tasks = process.tasks().map_err(proc::io_error).map_err(exited_or)?;
        Ok(tasks.flatten())
    }

    /// Its threads as its own PID namespace numbers them (what glibc keeps
    /// in `struct pthread`) and as this `/proc` does: the same outside
    /// containers, different inside one (`NSpid` in `status`).
    pub fn tid_map(&self) -> Result<TidMap, ScopeError> {
        let mut inner_to_host = std::collections::BTreeMap::new();
        let mut main_inner = self.pid;
        for task in self.tasks()? {
            let tid = task.tid.unsigned_abs();
            let inner = task
                .status()
                .ok()
                .and_then(|s| s.nspid?.last().copied())
                .map_or(tid, i32::unsigned_abs);
            if tid == self.pid {
                main_inner = inner;
            }
            inner_to_host.insert(inner, tid);
        }
        Ok(TidMap {
            inner_to_host,
            main_inner,
        })
    }

    /// The name (`comm`) of thread `tid`, if it still exists.
    pub fn thread_name(&self, tid: u32) -> Option<String> {
        let stat = proc::task(self.pid, tid).ok()?.stat().ok()?;
        Some(stat.comm.trim_end().to_string())
    }

    /// When thread `tid` started (clock ticks after boot), if it exists.
    pub fn thread_start_time(&self, tid: u32) -> Option<u64> {
        Some(proc::task(self.pid, tid).ok()?.stat().ok()?.starttime)
    }
}

/// A process's threads: their TIDs in its own PID namespace, and here.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TidMap {
    /// Namespace TID -> TID in this `/proc`.
    pub inner_to_host: std::collections::BTreeMap<u32, u32>,
    /// The main thread's namespace TID (its PID there).
    pub main_inner: u32,
}

impl TidMap {
    /// Whether `inner` is one of its threads other than the main thread.
    pub fn is_other(&self, inner: u32) -> bool {
        inner != self.main_inner && self.inner_to_host.contains_key(&inner)
    }

    /// The TID here of namespace TID `inner`.
    pub fn host(&self, inner: u32) -> Option<u32> {
        self.inner_to_host.get(&inner).copied()
    }
}

/// ELF files already read, by device and inode: whether each holds libuv,
/// and its symbols if so (not placed in any process).
#[derive(Debug, Default)]
pub struct ImageCache {
    images: std::collections::HashMap<(u64, u64), Option<LibuvImage>>,
}

/// Reading `path` of process `pid` was refused: to root, or to this user.
fn denied(pid: u32, path: PathBuf) -> ScopeError {
    if rustix::process::geteuid().is_root() {
        ScopeError::DeniedToRoot { pid, path }
    } else {
        ScopeError::PermissionDenied { pid, path }
    }
}

/// The `comm` of `process` (number `pid`), after checking that it is a
/// process (not a thread of one) and has not exited. The name is `stat`'s:
/// `procfs` cuts `status`'s `Name` at its first `:` (`PM2 v5.3.0: God`).
fn live_process_name(pid: u32, process: &procfs::process::Process) -> Result<String, ScopeError> {
    let read_err = |what: &str, e: procfs::ProcError| match proc::io_error(e) {
        e if e.kind() == ErrorKind::NotFound => ScopeError::NoSuchProcess { pid },
        e => ScopeError::io(format!("reading /proc/{pid}/{what}"), e),
    };
    let status = process.status().map_err(|e| read_err("status", e))?;
    let tgid = status.tgid.unsigned_abs();
    if tgid != pid {
        return Err(ScopeError::NotAProcess { pid, tgid });
    }
    let stat = process.stat().map_err(|e| read_err("stat", e))?;
    if stat.state == 'Z' || stat.state == 'X' {
        return Err(ScopeError::Exited { pid });
    }
    Ok(stat.comm)
}

/// The process's executable, after checking that this user may read what
/// scope reads (its executable link and its main thread's `syscall`).
fn readable_executable(
    pid: u32,
    process: &procfs::process::Process,
    comm: &str,
) -> Result<String, ScopeError> {
    let proc = PathBuf::from(format!("/proc/{pid}"));
    let exe = match process.exe().map_err(proc::io_error) {
        Ok(p) => p.display().to_string(),
        Err(e) if e.kind() == ErrorKind::PermissionDenied => {
            return Err(denied(pid, proc.join("exe")));
        }
        Err(_) => {
            return Err(ScopeError::NotNode {
                pid,
                comm: comm.to_string(),
                exe: "no executable: a kernel thread".into(),
            });
        }
    };
    let syscall = proc.join(format!("task/{pid}/syscall"));
    let read = process
        .task_main_thread()
        .and_then(|t| t.read::<_, proc::Text>("syscall"));
    if let Err(e) = read.map_err(proc::io_error) {
        return Err(match e.kind() {
            ErrorKind::PermissionDenied => denied(pid, syscall),
            ErrorKind::NotFound => ScopeError::Exited { pid },
            _ => ScopeError::io(format!("reading {}", syscall.display()), e),
        });
    }
    Ok(exe)
}

/// libuv in a mapped `libuv*.so` (a distribution's node may link it as a
/// shared library), read through the process's root.
fn shared_libuv(
    proc: &std::path::Path,
    maps: &[maps::Mapping],
    cache: &mut ImageCache,
) -> Result<Option<LibuvImage>, ScopeError> {
    let mut seen = Vec::new();
    for m in maps {
        let name = m.path.rsplit('/').next().unwrap_or("");
        if !name.starts_with("libuv") || seen.contains(&m.inode) {
            continue;
        }
        seen.push(m.inode);
        let path = proc.join("root").join(m.path.trim_start_matches('/'));
        if let Some(img) = cache.load(&path, &m.path, m.inode, maps)? {
            return Ok(Some(img));
        }
    }
    Ok(None)
}

impl ImageCache {
    /// [`LibuvImage::load`], reading the file only the first time.
    fn load(
        &mut self,
        path: &std::path::Path,
        shown: &str,
        inode: u64,
        maps: &[crate::target::maps::Mapping],
    ) -> Result<Option<LibuvImage>, ScopeError> {
        let Ok(meta) = std::fs::metadata(path) else {
            return LibuvImage::load(path, shown, inode, maps);
        };
        let key = (meta.dev(), meta.ino());
        let parsed = match self.images.get(&key) {
            Some(p) => p.clone(),
            None => {
                let p = LibuvImage::parse(path, shown)?;
                self.images.insert(key, p.clone());
                p
            }
        };
        parsed
            .map(|img| {
                LibuvImage {
                    path: path.to_path_buf(),
                    shown: shown.to_string(),
                    ..img
                }
                .placed(inode, maps)
            })
            .transpose()
    }

    /// How many files were read.
    pub fn len(&self) -> usize {
        self.images.len()
    }

    /// Whether none was.
    pub fn is_empty(&self) -> bool {
        self.images.is_empty()
    }
}

/// What thread `tid` of process `pid` is blocked in (its `syscall` file),
/// if it exists. Read in the sampler's grammar: `procfs`'s parse refuses
/// the `-1 SP PC` of a thread blocked outside a system call.
pub(crate) fn syscall_line(pid: u32, tid: u32) -> Option<crate::sample::syscalls::SyscallLine> {
    let proc::Text(line) = proc::task(pid, tid).ok()?.read("syscall").ok()?;
    crate::sample::syscalls::SyscallLine::parse(&line)
}

/// When process `pid` started (clock ticks after boot): `None` if it does
/// not exist or is a zombie. With the PID it names one process for good.
pub fn process_start_time(pid: u32) -> Option<u64> {
    start_time(&proc::process(pid).ok()?)
}

fn start_time(process: &procfs::process::Process) -> Option<u64> {
    let stat = process.stat().ok()?;
    (stat.state != 'Z' && stat.state != 'X').then_some(stat.starttime)
}

/// `/proc/PID/cmdline` split into its arguments (NUL-separated; empty ones
/// dropped, invalid UTF-8 replaced), `argv[0]` first. Read as bytes:
/// `procfs`'s own `cmdline` refuses a process whose arguments are not
/// UTF-8.
pub(crate) fn argv(pid: u32) -> std::io::Result<Vec<String>> {
    let proc::Bytes(raw) = proc::process(pid)?
        .read("cmdline")
        .map_err(proc::io_error)?;
    Ok(raw
        .split(|b| *b == 0)
        .filter(|a| !a.is_empty())
        .map(|a| String::from_utf8_lossy(a).into_owned())
        .collect())
}

/// The ids of the processes in `/proc`, in the directory's order; those
/// that exit while listed are left out.
pub(crate) fn process_ids() -> std::io::Result<impl Iterator<Item = u32>> {
    Ok(procfs::process::all_processes()
        .map_err(proc::io_error)?
        .flatten()
        .map(|p| p.pid.unsigned_abs()))
}

/// For tests: a thread of this process parked in a futex wait (a channel's
/// `recv`) until [`Parked::end`].
#[cfg(test)]
pub(crate) struct Parked {
    /// Its thread id.
    pub(crate) tid: u32,
    stop: std::sync::mpsc::Sender<()>,
    thread: std::thread::JoinHandle<()>,
}

#[cfg(test)]
impl Parked {
    /// Starts the thread; returns once it has its id.
    pub(crate) fn start() -> Parked {
        let (tx, rx) = std::sync::mpsc::channel::<u32>();
        let (stop, stop_rx) = std::sync::mpsc::channel::<()>();
        let thread = std::thread::spawn(move || {
            tx.send(rustix::thread::gettid().as_raw_nonzero().get() as u32)
                .unwrap();
            let _ = stop_rx.recv();
        });
        let tid = rx.recv().unwrap();
        Parked { tid, stop, thread }
    }

    /// Wakes the thread and waits until it has ended.
    pub(crate) fn end(self) {
        self.stop.send(()).unwrap();
        self.thread.join().unwrap();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stat_fields_count_after_the_command_name() {
        use procfs::FromRead;
        let stat = "42 (a b) c) S 1 42 42 0 -1 4194560 100 0 0 0 7 3 0 0 20 0 1 0 12345 1000 \
                    10 18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 17 0 0 0 0 0 0";
        let stat = procfs::process::Stat::from_read(stat.as_bytes()).unwrap();
        assert_eq!(stat.comm, "a b) c");
        assert_eq!(stat.ppid, 1);
        assert_eq!(stat.utime, 7);
        assert_eq!(stat.starttime, 12345);
    }

    #[test]
    fn a_missing_process_is_named() {
        // PIDs are at most 2^22 on Linux; this one cannot exist.
        let err = Target::open(99_999_999).unwrap_err();
        assert!(matches!(err, ScopeError::NoSuchProcess { pid: 99_999_999 }));
        assert!(err.to_string().starts_with("no process 99999999:"), "{err}");
    }

    #[test]
    fn a_process_without_libuv_is_not_node() {
        let err = Target::open(std::process::id()).unwrap_err();
        assert!(matches!(err, ScopeError::NotNode { .. }), "{err}");
        assert!(err.to_string().contains("is not a Node process"), "{err}");
    }

    #[test]
    fn a_thread_is_not_a_process() {
        let parked = Parked::start();
        let tid = parked.tid;
        let err = Target::open(tid).unwrap_err();
        parked.end();
        assert!(
            matches!(err, ScopeError::NotAProcess { pid, tgid } if pid == tid && tgid == std::process::id()),
            "{err}"
        );
    }
}
