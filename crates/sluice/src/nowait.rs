//! File system answers the kernel gives from its caches, on the calling
//! thread, or none: never a wait for a disk, a network file system or a
//! lock another process holds.
//!
//! A stat of a path whose every directory is in the kernel's lookup cache,
//! or a read of a small file whose pages are in the page cache, takes a few
//! microseconds and cannot block. Handing it to a pool thread costs more
//! than the call: two thread wake-ups (the worker, then the loop) and, on a
//! machine whose cores are busy, a wait of up to a scheduler tick for each
//! (4 ms at 250 Hz). An event loop can make these calls itself if it can be
//! sure they will not wait; Linux says so with two flags:
//!
//! - `openat2(2)` with `RESOLVE_CACHED` (Linux 5.12) opens a path only if
//!   every component of it is in the lookup cache, and fails with `EAGAIN`
//!   where finding one would need I/O;
//! - `preadv2(2)` with `RWF_NOWAIT` (Linux 4.14) reads only what is in the
//!   page cache, and fails with `EAGAIN` where a page would have to be read
//!   from the device.
//!
//! [`stat`] opens the path with `O_PATH` under `RESOLVE_CACHED` and asks
//! the descriptor (`statx(fd, "", AT_EMPTY_PATH)`): the answer `stat(2)`
//! gives, errors included (`ENOENT` from a cached negative entry, `EACCES`,
//! `ENOTDIR`, `ELOOP`), or [`Answer::WouldWait`]. [`read_file`] opens the file
//! with `O_RDONLY | O_NONBLOCK` (a FIFO's open does not wait for a writer)
//! under `RESOLVE_CACHED`, and reads it whole with `RWF_NOWAIT`: regular
//! files of 1 to `max` bytes only, read in one call of exactly their size
//! (a read past the end asks for pages the cache cannot have, and would
//! fail), as Node's `fs.readFile` reads a file whose size `fstat` gave.
//!
//! Where the answer needs I/O, or the kernel refuses the flags (older than
//! 5.12: `EINVAL` or `ENOSYS`; a seccomp filter: `EPERM`; a file system
//! without `RWF_NOWAIT`: `EOPNOTSUPP`), the answer is
//! [`Answer::WouldWait`] and the caller hands the call to
//! [`Lane::FastIo`](crate::Lane::FastIo) as before. A refused `openat2` is
//! remembered for the process ([`available`] turns false): no later call
//! tries it again.
//!
//! ```
//! use sluice::nowait::{self, Answer};
//!
//! let path = std::env::temp_dir().join(format!("sluice-doc-nowait-{}", std::process::id()));
//! std::fs::write(&path, b"hello")?;
//! std::fs::read(&path)?; // its pages and its path are now in the caches
//! match nowait::read_file(&path, 64 * 1024) {
//!     Answer::Ready(bytes) => assert_eq!(bytes?, b"hello"),
//!     // The kernel could not answer without I/O, or refuses the flags:
//!     // read it on the pool instead (`sluice::fs::read`).
//!     Answer::WouldWait => assert_eq!(std::fs::read(&path)?, b"hello"),
//! }
//! match nowait::stat(&path, true) {
//!     Answer::Ready(meta) => assert_eq!(meta?.len(), 5),
//!     Answer::WouldWait => {}
//! }
//! std::fs::remove_file(&path)?;
//! # Ok::<(), std::io::Error>(())
//! ```

use std::fs::Metadata;
use std::io;
use std::os::fd::{AsFd, OwnedFd};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

/// What a no-wait call found.
#[derive(Debug)]
pub enum Answer<T> {
    /// The kernel answered from its caches: the call's result, an error
    /// included (`stat(2)`'s and `read(2)`'s own).
    Ready(io::Result<T>),
    /// The answer needs I/O, or this kernel refuses the flags: make the
    /// call on a pool thread.
    WouldWait,
}

/// Set once the kernel refused `openat2` with `RESOLVE_CACHED`.
///
/// `Relaxed`: a flag that only ever goes from false to true and guards
/// nothing but whether to try a syscall; a thread that reads it late tries
/// once more and is refused again.
static REFUSED: AtomicBool = AtomicBool::new(false);

/// Whether no-wait calls are tried: false once the kernel refused
/// `openat2` with `RESOLVE_CACHED` (or on a system other than Linux).
pub fn available() -> bool {
    cfg!(target_os = "linux") && !REFUSED.load(Ordering::Relaxed)
}

/// `stat(2)` (`follow`) or `lstat(2)` of `path`, if the kernel can answer
/// it from its lookup cache (see the [module docs](self)).
pub fn stat(path: &Path, follow: bool) -> Answer<Metadata> {
    imp::stat(path, follow)
}

/// The whole of the regular file at `path`, if it has 1 to `max` bytes and
/// the kernel can give them from its caches (see the [module docs](self)).
/// A file that is empty, larger than `max`, not a regular file, or shorter
/// than its size by the time it is read, is [`Answer::WouldWait`]: the
/// pool's read handles it. An error opening the file (`ENOENT`, `EACCES`,
/// `ELOOP`...) is [`Answer::Ready`] with that error, as `open(2)` gives it;
/// a later one (the `fstat` or the read failed) is [`Answer::WouldWait`],
/// for the pool's read to meet and report.
pub fn read_file(path: &Path, max: u64) -> Answer<Vec<u8>> {
    imp::read_file(path, max)
}

/// `open(path, O_RDONLY | O_CLOEXEC)` (with `O_NOFOLLOW` unless `follow`,
/// with `O_NONBLOCK` if `nonblock`) of a regular file whose path is in the
/// lookup cache: the descriptor, `open(2)`'s error, or
/// [`Answer::WouldWait`]. The path is first looked at with `O_PATH` (a
/// cached stat, as [`stat`]), and only a regular file is opened: opening a
/// FIFO would wait for a writer, and opening a device can have effects of
/// its own (a serial line's modem lines), so those are the pool's. The
/// file is opened with `O_NONBLOCK`, which a regular file ignores, then
/// set back to the flags asked for: a file swapped for a FIFO between the
/// look and the open is then opened without waiting (and read on the pool).
pub fn open_read(path: &Path, follow: bool, nonblock: bool) -> Answer<OwnedFd> {
    imp::open_read(path, follow, nonblock)
}

/// `preadv2(fd, buf, offset, RWF_NOWAIT)` (`offset` `None`: at the file's
/// offset, which advances): the bytes the page cache holds from there, up
/// to `buf`'s length (possibly fewer, as any read may give), or
/// [`Answer::WouldWait`] where none are cached, the file is not one the
/// kernel reads without a wait (a pipe with nothing in it, a socket, a
/// terminal, a file system without `RWF_NOWAIT`), or any error at all: the
/// pool's read then meets the same error and reports it.
pub fn read(fd: impl AsFd, buf: &mut [u8], offset: Option<u64>) -> Answer<usize> {
    imp::read(fd.as_fd(), buf, offset)
}

#[cfg(target_os = "linux")]
mod imp {
    use super::{Answer, REFUSED};
    use crate::fd::Opened;
    use rustix::fs::{CWD, Mode, OFlags, ResolveFlags, fcntl_setfl, openat2};
    use rustix::io::{Errno, ReadWriteFlags, preadv2};
    use std::fs::{File, Metadata};
    use std::io::IoSliceMut;
    use std::os::fd::{BorrowedFd, OwnedFd};
    use std::path::Path;
    use std::sync::atomic::Ordering;

    /// An `openat2` under `RESOLVE_CACHED`: the file, or what to do instead.
    fn open_cached(path: &Path, flags: OFlags) -> Answer<File> {
        if !super::available() {
            return Answer::WouldWait;
        }
        match openat2(
            CWD,
            path,
            flags | OFlags::CLOEXEC,
            Mode::empty(),
            ResolveFlags::CACHED,
        ) {
            Ok(fd) => Answer::Ready(Ok(File::from(fd))),
            Err(Errno::AGAIN) => Answer::WouldWait,
            Err(Errno::NOSYS | Errno::INVAL | Errno::PERM | Errno::NOTSUP) => {
                // This kernel (or its seccomp filter) refuses openat2 or
                // RESOLVE_CACHED: the pool's threads, from now on.
                REFUSED.store(true, Ordering::Relaxed);
                Answer::WouldWait
            }
            Err(e) => Answer::Ready(Err(e.into())),
        }
    }

    pub(super) fn stat(path: &Path, follow: bool) -> Answer<Metadata> {
        let flags = if follow {
            OFlags::PATH
        } else {
            OFlags::PATH | OFlags::NOFOLLOW
        };
        match open_cached(path, flags) {
            Answer::Ready(Ok(file)) => Answer::Ready(Opened::new(file).map(|(_, meta)| meta)),
            Answer::Ready(Err(e)) => Answer::Ready(Err(e)),
            Answer::WouldWait => Answer::WouldWait,
        }
    }

    pub(super) fn open_read(path: &Path, follow: bool, nonblock: bool) -> Answer<OwnedFd> {
        match stat(path, follow) {
            Answer::Ready(Ok(meta)) if meta.is_file() => {}
            _ => return Answer::WouldWait,
        }
        let nofollow = if follow {
            OFlags::empty()
        } else {
            OFlags::NOFOLLOW
        };
        let file = match open_cached(path, OFlags::RDONLY | OFlags::NONBLOCK | nofollow) {
            Answer::Ready(Ok(file)) => file,
            Answer::Ready(Err(e)) => return Answer::Ready(Err(e)),
            Answer::WouldWait => return Answer::WouldWait,
        };
        if !nonblock && fcntl_setfl(&file, OFlags::RDONLY).is_err() {
            return Answer::WouldWait;
        }
        Answer::Ready(Ok(OwnedFd::from(file)))
    }

    pub(super) fn read(fd: BorrowedFd<'_>, buf: &mut [u8], offset: Option<u64>) -> Answer<usize> {
        let at = offset.unwrap_or(u64::MAX);
        match preadv2(fd, &mut [IoSliceMut::new(buf)], at, ReadWriteFlags::NOWAIT) {
            Ok(n) => Answer::Ready(Ok(n)),
            Err(_) => Answer::WouldWait,
        }
    }

    pub(super) fn read_file(path: &Path, max: u64) -> Answer<Vec<u8>> {
        let file = match open_cached(path, OFlags::RDONLY | OFlags::NONBLOCK | OFlags::NOCTTY) {
            Answer::Ready(Ok(file)) => file,
            Answer::Ready(Err(e)) => return Answer::Ready(Err(e)),
            Answer::WouldWait => return Answer::WouldWait,
        };
        // Only open's own error is an answer: a later one (fstat's, read's)
        // is the pool's read's to report, which names its call.
        let Ok((opened, meta)) = Opened::new(file) else {
            return Answer::WouldWait;
        };
        let size = meta.len();
        if !meta.is_file() || size == 0 || size > max {
            return Answer::WouldWait;
        }
        let Ok(len) = usize::try_from(size) else {
            return Answer::WouldWait;
        };
        let mut bytes = Vec::new();
        if bytes.try_reserve_exact(len).is_err() {
            return Answer::WouldWait;
        }
        bytes.resize(len, 0);
        match preadv2(
            opened.file(),
            &mut [IoSliceMut::new(&mut bytes)],
            0,
            ReadWriteFlags::NOWAIT,
        ) {
            Ok(n) if n == len => Answer::Ready(Ok(bytes)),
            // Shorter than its size (it shrank, or part of it is not cached
            // and the kernel gave what was): the pool reads it.
            Ok(_) => Answer::WouldWait,
            Err(_) => Answer::WouldWait,
        }
    }
}

#[cfg(not(target_os = "linux"))]
mod imp {
    use super::Answer;
    use std::fs::Metadata;
    use std::os::fd::{BorrowedFd, OwnedFd};
    use std::path::Path;

    pub(super) fn stat(_path: &Path, _follow: bool) -> Answer<Metadata> {
        Answer::WouldWait
    }

    pub(super) fn read_file(_path: &Path, _max: u64) -> Answer<Vec<u8>> {
        Answer::WouldWait
    }

    pub(super) fn open_read(_path: &Path, _follow: bool, _nonblock: bool) -> Answer<OwnedFd> {
        Answer::WouldWait
    }

    pub(super) fn read(
        _fd: BorrowedFd<'_>,
        _buf: &mut [u8],
        _offset: Option<u64>,
    ) -> Answer<usize> {
        Answer::WouldWait
    }
}

#[cfg(all(test, not(loom), target_os = "linux"))]
mod tests {
    use super::*;
    use std::os::unix::fs::MetadataExt;

    fn dir() -> tempfile::TempDir {
        tempfile::tempdir().unwrap()
    }

    // A path just written and read is in the kernel's caches. Where the
    // kernel refuses the flags (older than 5.12, a seccomp filter) the
    // answer is WouldWait and `available()` says so: the test then checks
    // only that it fell back.
    fn ready<T: std::fmt::Debug>(answer: Answer<T>) -> Option<io::Result<T>> {
        match answer {
            Answer::Ready(r) => Some(r),
            Answer::WouldWait => {
                assert!(
                    !available(),
                    "a path just written and read is answered from the caches"
                );
                None
            }
        }
    }

    #[test]
    fn stat_and_lstat_answer_as_std_does() {
        let d = dir();
        let file = d.path().join("f");
        std::fs::write(&file, b"12345").unwrap();
        let link = d.path().join("l");
        std::os::unix::fs::symlink(&file, &link).unwrap();
        let _ = std::fs::metadata(&link);
        let _ = std::fs::symlink_metadata(&link);
        let want = std::fs::metadata(&file).unwrap();
        if let Some(meta) = ready(stat(&file, true)) {
            let meta = meta.unwrap();
            assert_eq!(
                (meta.ino(), meta.len(), meta.mode()),
                (want.ino(), 5, want.mode())
            );
        }
        // Following a link may need more than the lookup cache (a target
        // too long to sit in the inode is read from a page): answered, or
        // left to the pool.
        if let Answer::Ready(meta) = stat(&link, true) {
            assert_eq!(meta.unwrap().ino(), want.ino());
        }
        if let Some(meta) = ready(stat(&link, false)) {
            let meta = meta.unwrap();
            assert!(meta.file_type().is_symlink());
            assert_eq!(meta.ino(), std::fs::symlink_metadata(&link).unwrap().ino());
        }
    }

    #[test]
    fn a_missing_file_is_enoent_or_waits_for_the_lookup() {
        let d = dir();
        let missing = d.path().join("nope");
        // Looked up once: the kernel keeps a negative entry.
        assert!(std::fs::metadata(&missing).is_err());
        match stat(&missing, true) {
            Answer::Ready(r) => assert_eq!(r.unwrap_err().kind(), io::ErrorKind::NotFound),
            Answer::WouldWait => {}
        }
    }

    #[test]
    fn read_gives_the_bytes_and_leaves_what_it_does_not_read_to_the_pool() {
        let d = dir();
        let file = d.path().join("f");
        let text: Vec<u8> = (0..10_000u32).map(|i| (i % 251) as u8).collect();
        std::fs::write(&file, &text).unwrap();
        assert_eq!(std::fs::read(&file).unwrap(), text);
        if let Some(bytes) = ready(read_file(&file, 64 * 1024)) {
            assert_eq!(bytes.unwrap(), text);
        }
        // Larger than max, empty, a directory: the pool's.
        assert!(matches!(read_file(&file, 9_999), Answer::WouldWait));
        let empty = d.path().join("e");
        std::fs::write(&empty, b"").unwrap();
        assert!(matches!(read_file(&empty, 64), Answer::WouldWait));
        match read_file(d.path(), 64) {
            // A directory opens read-only; not a regular file: the pool's
            // read says EISDIR.
            Answer::WouldWait => {}
            Answer::Ready(r) => panic!("a directory read inline: {r:?}"),
        }
        // A missing file: open's own error.
        let missing = d.path().join("nope");
        assert!(std::fs::read(&missing).is_err());
        if let Answer::Ready(r) = read_file(&missing, 64) {
            assert_eq!(r.unwrap_err().kind(), io::ErrorKind::NotFound);
        }
    }

    #[test]
    fn open_read_then_read_from_the_cache() {
        let d = dir();
        let file = d.path().join("f");
        std::fs::write(&file, b"0123456789").unwrap();
        std::fs::read(&file).unwrap();
        let Some(fd) = ready(open_read(&file, true, false)) else {
            return;
        };
        let fd = fd.unwrap();
        let flags = rustix::fs::fcntl_getfl(&fd).unwrap();
        assert!(
            !flags.contains(rustix::fs::OFlags::NONBLOCK),
            "set back to the flags asked for"
        );
        assert!(
            rustix::io::fcntl_getfd(&fd)
                .unwrap()
                .contains(rustix::io::FdFlags::CLOEXEC)
        );
        let mut buf = [0u8; 4];
        // At the file's offset, which advances; then at a position.
        assert_eq!(ready(read(&fd, &mut buf, None)).unwrap().unwrap(), 4);
        assert_eq!(&buf, b"0123");
        assert_eq!(ready(read(&fd, &mut buf, None)).unwrap().unwrap(), 4);
        assert_eq!(&buf, b"4567");
        assert_eq!(ready(read(&fd, &mut buf, Some(8))).unwrap().unwrap(), 2);
        assert_eq!(&buf[..2], b"89");
        // A directory is not opened here.
        assert!(matches!(
            open_read(d.path(), true, false),
            Answer::WouldWait
        ));
        // A missing path: the pool's (the look found nothing to open).
        assert!(matches!(
            open_read(&d.path().join("nope"), true, false),
            Answer::WouldWait
        ));
        // A pipe with nothing in it is left to the pool.
        let (r, _w) = rustix::pipe::pipe().unwrap();
        let mut one = [0u8; 1];
        assert!(matches!(read(&r, &mut one, None), Answer::WouldWait));
    }

    #[test]
    fn a_fifo_is_never_waited_on() {
        let d = dir();
        let fifo = d.path().join("p");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if !made.is_ok_and(|s| s.success()) {
            return; // no mkfifo here
        }
        let _ = std::fs::symlink_metadata(&fifo);
        // No writer: a blocking open would hang this test.
        assert!(matches!(read_file(&fifo, 64), Answer::WouldWait));
        assert!(matches!(open_read(&fifo, true, false), Answer::WouldWait));
    }
}
