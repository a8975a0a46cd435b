//! `/proc` through the `procfs` crate, the workspace's one reader of it
//! (ARCHITECTURE.md, "One of each"): a process or one of its threads opened
//! by number, and `procfs`'s errors turned back into the `io::Error` the
//! same read gives, so callers keep telling "gone" (`NotFound`) from
//! "refused" (`PermissionDenied`) and their messages keep the system's
//! words.
//!
//! Where `procfs` parses a file as scope needs it (`stat`, `status`, the
//! `fd` links, `net/tcp`, `cgroup`), its parse is used. Where its parse
//! would change what scope reads, the file is still opened through
//! `procfs` but read as [`Text`] or `Bytes` and parsed by scope, and the
//! reason is written where that happens: `syscall` (its parse refuses the
//! `-1 SP PC` of a thread blocked outside a system call), `maps` (it fails
//! the whole file on one odd line, and panics on some file names),
//! `cmdline` and `environ` (it refuses arguments that are not UTF-8, and
//! keeps the last of a repeated variable where `getenv` takes the first),
//! `mounts` (it leaves a space in a mount point escaped). A process's name
//! is `stat`'s `comm`: `procfs` cuts `status`'s `Name` at its first `:`.
//!
//! Paths into a process's own root (`exe`, `root/...`) are still built by
//! hand where a path is needed (the ELF reader's cache and messages): there
//! `procfs` has a file to open, not a path to give. The sampler
//! (`sample/sampler.rs`) is the exception for its hot path: it holds its
//! files open and reads each with one `pread` per sample, without
//! allocating.

use procfs::ProcError;
use procfs::process::{Process, Task};
use std::io::{self, ErrorKind, Read};

/// Process `pid`'s directory in `/proc`, opened; `NotFound` if there is no
/// such process.
pub fn process(pid: u32) -> io::Result<Process> {
    let pid = i32::try_from(pid).map_err(|_| io::Error::from(rustix::io::Errno::NOENT))?;
    Process::new(pid).map_err(io_error)
}

/// Thread `tid` of process `pid`, opened; `NotFound` if either is gone.
pub fn task(pid: u32, tid: u32) -> io::Result<Task> {
    let tid = i32::try_from(tid).map_err(|_| io::Error::from(rustix::io::Errno::NOENT))?;
    process(pid)?.task_from_tid(tid).map_err(io_error)
}

/// A `procfs` error as the `io::Error` the same read gives: its own error
/// where it kept one, else `ENOENT` for a file or process that is gone
/// (`procfs` also files `ESRCH` there) and `EACCES` for one refused; a
/// file it could not parse is `InvalidData`, naming the file.
pub fn io_error(e: ProcError) -> io::Error {
    match e {
        ProcError::Io(inner, _) => inner,
        ProcError::NotFound(_) => rustix::io::Errno::NOENT.into(),
        ProcError::PermissionDenied(_) => rustix::io::Errno::ACCESS.into(),
        ProcError::Incomplete(path) => io::Error::new(
            ErrorKind::UnexpectedEof,
            match path {
                Some(p) => format!("{} ended early", p.display()),
                None => "a /proc file ended early".to_string(),
            },
        ),
        e => io::Error::new(ErrorKind::InvalidData, e.to_string()),
    }
}

/// A `/proc` file's text as the kernel wrote it, for the files whose
/// grammar scope keeps (the module's map says which and why).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Text(pub String);

impl procfs::FromRead for Text {
    fn from_read<R: Read>(mut r: R) -> procfs::ProcResult<Self> {
        let mut text = String::new();
        r.read_to_string(&mut text)?;
        Ok(Text(text))
    }
}

/// A `/proc` file's bytes, for the files that need not be UTF-8
/// (`cmdline`, `environ`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Bytes(pub(crate) Vec<u8>);

impl procfs::FromRead for Bytes {
    fn from_read<R: Read>(mut r: R) -> procfs::ProcResult<Self> {
        let mut bytes = Vec::new();
        r.read_to_end(&mut bytes)?;
        Ok(Bytes(bytes))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_process_is_not_found() {
        // PIDs are at most 2^22 on Linux; neither can exist.
        for pid in [99_999_999, u32::MAX] {
            let err = process(pid).unwrap_err();
            assert_eq!(err.kind(), ErrorKind::NotFound, "{err}");
            assert_eq!(
                err.raw_os_error(),
                Some(rustix::io::Errno::NOENT.raw_os_error())
            );
        }
        let me = std::process::id();
        assert_eq!(
            task(me, 99_999_999).unwrap_err().kind(),
            ErrorKind::NotFound
        );
    }

    #[test]
    fn errors_keep_their_kind() {
        let denied = io_error(ProcError::PermissionDenied(None));
        assert_eq!(denied.kind(), ErrorKind::PermissionDenied);
        assert_eq!(
            denied.to_string(),
            io::Error::from_raw_os_error(13).to_string()
        );
        let io = io_error(ProcError::Io(io::Error::from_raw_os_error(5), None));
        assert_eq!(io.raw_os_error(), Some(5));
        let short = io_error(ProcError::Incomplete(Some("/proc/1/stat".into())));
        assert_eq!(short.to_string(), "/proc/1/stat ended early");
        let bad = io_error(ProcError::Other("x".into()));
        assert_eq!(bad.kind(), ErrorKind::InvalidData);
    }

    #[test]
    fn this_process_reads_as_text_and_bytes() {
        let me = process(std::process::id()).unwrap();
        let Text(stat) = me.read("stat").unwrap();
        assert!(
            stat.starts_with(&format!("{} (", std::process::id())),
            "{stat}"
        );
        let Bytes(cmdline) = me.read("cmdline").unwrap();
        assert!(!cmdline.is_empty());
    }
}
