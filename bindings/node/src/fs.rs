//! `fs.readFile` and `fs.stat` on the `FastIo` lane, and [`Cancel`], the
//! flag a caller's `AbortSignal` sets.

use crate::inbox::{NowaitOp, settled_now};
use crate::outcome::{Done, Failure, STAT_FIELDS, libc_enomem};
use crate::pool::submit;
use napi_derive::napi;
use sluice::Lane;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// Node's largest `readFile` (`kIoMaxLength`, 2 GiB - 1): a larger file is
/// refused with `ERR_FS_FILE_TOO_LARGE` before anything is allocated.
pub(crate) const IO_MAX_LENGTH: u64 = (1 << 31) - 1;

/// How much a bounded read asks the allocator for at a time, and the most
/// one `read` of a known length takes.
pub(crate) const READ_CHUNK: usize = 512 * 1024;

/// A flag the caller's `AbortSignal` sets: work that has not started when
/// it is set settles as `"aborted"` without running; a file read stops at
/// its next chunk.
#[napi]
pub struct Cancel {
    pub(crate) flag: Arc<AtomicBool>,
}

#[napi]
impl Cancel {
    /// A flag, not set.
    #[napi(constructor)]
    #[allow(clippy::new_without_default)]
    pub fn new() -> Cancel {
        Cancel {
            flag: Arc::new(AtomicBool::new(false)),
        }
    }

    /// Sets the flag (the signal aborted).
    #[napi]
    pub fn cancel(&self) {
        self.flag.store(true, Ordering::Relaxed);
    }
}

/// `fs.readFile(path)` on the `FastIo` lane: `open` (the error names the
/// path), `fstat`, then `read` (it does not name it, as in Node). As in
/// Node, a file over 2 GiB is refused with `ERR_FS_FILE_TOO_LARGE`: by its
/// size before anything is allocated, or, for a file whose size `fstat`
/// does not tell (a pipe, `/proc`), once the read passes 2 GiB. `cancel`
/// (the caller's `signal`) stops it before it opens the file or between
/// chunks. With `nowait`, a file of up to [`NOWAIT_READ_MAX`] bytes whose
/// path and pages are in the kernel's caches is read here, on the loop's
/// thread, without a wait (`sluice::nowait`): its outcome is posted at
/// once, and delivered as the lane's would be.
#[napi]
pub fn read_file(
    slot: u32,
    path: String,
    cancel: Option<&Cancel>,
    nowait: Option<bool>,
) -> napi::Result<f64> {
    if nowait == Some(true) {
        let answer = sluice::nowait::read_file(std::path::Path::new(&path), NOWAIT_READ_MAX);
        if let sluice::nowait::Answer::Ready(result) = answer {
            let done = match result {
                Ok(bytes) => Done::Bytes(bytes),
                // Only the open's error is answered here (`nowait::read_file`).
                Err(e) => Done::Fail(Failure::sys(&e, "open", true)),
            };
            return settled_now(slot, NowaitOp::ReadFile, done);
        }
    }
    let cancel = cancel.map(|c| c.flag.clone());
    submit(slot, Lane::FastIo, move || {
        read_whole(&path, cancel.as_deref())
    })
}

/// The largest file `readFile` reads on the loop's thread (`nowait`):
/// 64 KiB, a copy of some microseconds; a larger file goes to the lane.
pub const NOWAIT_READ_MAX: u64 = 64 * 1024;

/// `read_file`'s work, on the worker.
pub(crate) fn read_whole(path: &str, cancel: Option<&AtomicBool>) -> Done {
    {
        let cancelled = || cancel.is_some_and(|c| c.load(Ordering::Relaxed));
        if cancelled() {
            return Done::Fail(Failure::aborted());
        }
        let file = match std::fs::File::open(path) {
            Ok(f) => f,
            Err(e) => return Done::Fail(Failure::sys(&e, "open", true)),
        };
        // An `Opened`: a stray close of its number by the program (a
        // handle's descriptor closed twice) neither aborts a debug addon
        // when the read ends nor lets it close what took the number since.
        let (file, size) = match sluice::fd::Opened::new(file) {
            Ok((f, m)) if m.is_file() => (f, m.len()),
            Ok((f, _)) => (f, 0),
            Err(e) => return Done::Fail(Failure::sys(&e, "fstat", false)),
        };
        if size > IO_MAX_LENGTH {
            return Done::Fail(Failure::file_too_large(size));
        }
        let mut bytes = Vec::new();
        if bytes.try_reserve_exact(size as usize).is_err() {
            let e = std::io::Error::from_raw_os_error(libc_enomem());
            return Done::Fail(Failure::sys(&e, "read", false));
        }
        if size > 0 {
            // As Node's readFile: a regular file is read to the length
            // fstat gave, or to an earlier end, and no further (one `read`
            // for a small file, not a second to see the end).
            return match read_sized(file.file(), &mut bytes, size as usize, cancel) {
                Ok(()) => Done::Bytes(bytes),
                Err(_) if cancelled() => Done::Fail(Failure::aborted()),
                Err(e) => Done::Fail(Failure::sys(&e, "read", false)),
            };
        }
        let max = IO_MAX_LENGTH as usize;
        match read_bounded(file.file(), &mut bytes, max, cancel) {
            Ok(true) => Done::Bytes(bytes),
            Ok(false) => Done::Fail(Failure::file_too_large(bytes.len() as u64)),
            Err(_) if cancelled() => Done::Fail(Failure::aborted()),
            Err(e) => Done::Fail(Failure::sys(&e, "read", false)),
        }
    }
}

/// Reads `file` into `out` until it holds `len` bytes or the file ends, in
/// reads of at most [`READ_CHUNK`]; `cancel`, when set, stops it between
/// them (`Interrupted`). `out` has room for `len` bytes already (the
/// caller reserved it): [`read_chunk`] reads into that room, never past
/// it.
fn read_sized(
    file: &std::fs::File,
    out: &mut Vec<u8>,
    len: usize,
    cancel: Option<&AtomicBool>,
) -> std::io::Result<()> {
    while out.len() < len {
        let upto = len.min(out.len().saturating_add(READ_CHUNK));
        if read_chunk(file, out, upto, cancel)? == 0 {
            break;
        }
    }
    Ok(())
}

/// Reads `file` to its end into `out`, at most `max` bytes: `Ok(false)`
/// past `max` (nothing more is read). Memory is asked for in chunks and
/// with `try_reserve`, so a read that no memory is left for fails with
/// `ENOMEM` instead of aborting the process; `cancel`, when set, stops it
/// between chunks (`Interrupted`).
pub(crate) fn read_bounded(
    file: &std::fs::File,
    out: &mut Vec<u8>,
    max: usize,
    cancel: Option<&AtomicBool>,
) -> std::io::Result<bool> {
    loop {
        if out.len() == out.capacity() {
            // One byte past `max` tells "exactly max" from "more".
            let room = max.saturating_add(1).saturating_sub(out.len());
            out.try_reserve(room.min(READ_CHUNK))
                .map_err(|_| std::io::Error::from_raw_os_error(libc_enomem()))?;
        }
        let upto = out.capacity();
        if read_chunk(file, out, upto, cancel)? == 0 {
            return Ok(true);
        }
        if out.len() > max {
            return Ok(false);
        }
    }
}

/// One `read` of `file` into `out`'s spare capacity, up to `upto` bytes in
/// all (retried on `EINTR`): `out` keeps what it held plus what was read,
/// and the count read comes back (0: the end). The bytes are read into the
/// capacity the caller reserved, never zeroed first and never past it
/// (`upto` above the capacity reads to the capacity). `cancel`, when set,
/// stops it before the read (`Interrupted`).
///
/// Why `unsafe`: `Vec::resize` would zero each chunk before the read
/// overwrites it (a 4 KiB `readFile` zeroed 4 KiB; a read of unknown
/// length, a `/proc` file, zeroed the 512 KiB chunk it reserved, twice),
/// and the standard library's safe read into spare capacity (`read_buf`)
/// is not stable.
#[allow(unsafe_code)]
fn read_chunk(
    file: &std::fs::File,
    out: &mut Vec<u8>,
    upto: usize,
    cancel: Option<&AtomicBool>,
) -> std::io::Result<usize> {
    let len = out.len();
    let want = upto.min(out.capacity()).saturating_sub(len);
    loop {
        if cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
            return Err(std::io::ErrorKind::Interrupted.into());
        }
        match rustix::io::read(file, &mut out.spare_capacity_mut()[..want]) {
            Ok((got, _)) => {
                let n = got.len();
                // SAFETY: `got` is the first `n` elements of the spare
                // capacity, which `read` initialised (rustix hands back
                // exactly the prefix the kernel wrote), so `out`'s first
                // `len + n` bytes are initialised, and `len + n <= len +
                // want <= capacity`.
                unsafe { out.set_len(len + n) };
                return Ok(n);
            }
            Err(rustix::io::Errno::INTR) => {}
            Err(e) => return Err(e.into()),
        }
    }
}

/// `fs.stat(path)` on the `FastIo` lane: the fields in the order of Node's
/// `Stats` constructor, each time as seconds and nanoseconds. With
/// `nowait`, a path the kernel's lookup cache holds is answered here, on
/// the loop's thread (`sluice::nowait`), its outcome posted at once.
#[napi]
pub fn stat(slot: u32, path: String, nowait: Option<bool>) -> napi::Result<f64> {
    if nowait == Some(true)
        && let sluice::nowait::Answer::Ready(result) =
            sluice::nowait::stat(std::path::Path::new(&path), true)
    {
        return settled_now(slot, NowaitOp::Stat, stat_done(result));
    }
    submit(slot, Lane::FastIo, move || {
        stat_done(std::fs::metadata(&path))
    })
}

/// A stat's outcome: Node's fields, or `stat`'s error naming the path.
fn stat_done(result: std::io::Result<std::fs::Metadata>) -> Done {
    match result {
        Ok(m) => Done::Stat(stat_fields(&m)),
        Err(e) => Done::Fail(Failure::sys(&e, "stat", true)),
    }
}

/// dev, mode, nlink, uid, gid, rdev, blksize, ino, size, blocks, then
/// (seconds, nanoseconds) of atime, mtime, ctime, birthtime.
pub(crate) fn stat_fields(m: &std::fs::Metadata) -> [f64; STAT_FIELDS] {
    use std::os::unix::fs::MetadataExt;
    let birth = m
        .created()
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map(|d| (d.as_secs() as f64, f64::from(d.subsec_nanos())))
        .unwrap_or((0.0, 0.0));
    [
        m.dev() as f64,
        f64::from(m.mode()),
        m.nlink() as f64,
        f64::from(m.uid()),
        f64::from(m.gid()),
        m.rdev() as f64,
        m.blksize() as f64,
        m.ino() as f64,
        m.size() as f64,
        m.blocks() as f64,
        m.atime() as f64,
        m.atime_nsec() as f64,
        m.mtime() as f64,
        m.mtime_nsec() as f64,
        m.ctime() as f64,
        m.ctime_nsec() as f64,
        birth.0,
        birth.1,
    ]
}
