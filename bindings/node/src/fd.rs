//! `fs.open`, `fs.read`, `fs.write`, `fs.close` and `fs.fstat` on the
//! `FastIo` lane: the calls `fs.createReadStream` (and so `express.static`
//! and `send`) and `FileHandle` make, as libuv's `uv_fs_*` make them
//! (`O_CLOEXEC` on every open, `pread`/`pwrite` at a position and
//! `read`/`write` at -1, `EINTR` retried except by `close`, whose `EINTR`
//! is a success). Each blocks in the kernel inside [`sluice::blocking`], so
//! a read of a FIFO or a hung mount counts as blocked, not as work.
//!
//! The descriptors are the caller's numbers: sluice owns none of them.
//! `index.js` has checked every argument; a shape it does not run (a
//! `Buffer` path, a `bigint` position) is Node's own call.

#![allow(unsafe_code)]

use crate::fs::{NOWAIT_READ_MAX, stat_fields};
use crate::inbox::{NowaitOp, settled_now};
use crate::outcome::{Done, Failure};
use crate::pool::submit;
use napi::bindgen_prelude::BufferSlice;
use napi_derive::napi;
use sluice::Lane;
use sluice::nowait::{self, Answer};
use std::io;
use std::os::fd::IntoRawFd;
use std::path::Path;

/// Runs `call` until it is not interrupted by a signal.
fn retry(mut call: impl FnMut() -> isize) -> io::Result<usize> {
    loop {
        let r = call();
        if r >= 0 {
            return Ok(r as usize);
        }
        let e = io::Error::last_os_error();
        if e.kind() != io::ErrorKind::Interrupted {
            return Err(e);
        }
    }
}

/// `plain(fd, buf, len)` (at the file's offset) where `position` is -1, else
/// `positioned(fd, buf, len, position)`: `read`/`pread` or `write`/`pwrite`,
/// blocking, `EINTR` retried.
///
/// # Safety
///
/// `buf` points at `len` bytes that outlive the call, writable where the
/// call writes into them; the kernel touches at most `len` of them.
unsafe fn transfer<P: Copy>(
    fd: i32,
    buf: P,
    len: usize,
    position: f64,
    plain: unsafe extern "C" fn(i32, P, usize) -> isize,
    positioned: unsafe extern "C" fn(i32, P, usize, libc::off_t) -> isize,
) -> io::Result<usize> {
    sluice::blocking(|| {
        retry(|| {
            // SAFETY: the caller's promise on `buf` and `len`.
            unsafe {
                if position < 0.0 {
                    plain(fd, buf, len)
                } else {
                    positioned(fd, buf, len, position as libc::off_t)
                }
            }
        })
    })
}

/// The flags of an open the no-wait path may make: read-only, with at most
/// these beside `O_RDONLY` (0). Anything that may create, truncate or write
/// (`O_CREAT`, `O_TRUNC`, `O_WRONLY`, `O_RDWR`, `O_APPEND`, ...) goes to
/// the lane.
const NOWAIT_OPEN_FLAGS: i32 = libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_CLOEXEC;

/// `fs.open(path, flags, mode)`: the descriptor, or Node's error naming the
/// path (`ENOENT: no such file or directory, open '...'`). With `nowait`, a
/// read-only open of a regular file whose path is in the kernel's lookup
/// cache is made here, on the loop's thread (`sluice::nowait::open_read`).
#[napi]
pub fn fd_open(
    slot: u32,
    path: String,
    flags: i32,
    mode: u32,
    nowait: Option<bool>,
) -> napi::Result<f64> {
    if nowait == Some(true) && flags & !NOWAIT_OPEN_FLAGS == libc::O_RDONLY {
        let follow = flags & libc::O_NOFOLLOW == 0;
        let nonblock = flags & libc::O_NONBLOCK != 0;
        if let Answer::Ready(opened) = nowait::open_read(Path::new(&path), follow, nonblock) {
            let done = match opened {
                // The caller's from here on, as the lane's open hands it.
                Ok(fd) => Done::Number(f64::from(fd.into_raw_fd())),
                Err(e) => Done::Fail(Failure::sys(&e, "open", true)),
            };
            return settled_now(slot, NowaitOp::Open, done);
        }
    }
    submit(slot, Lane::FastIo, move || {
        let Ok(cpath) = std::ffi::CString::new(path) else {
            // index.js sends no path with a NUL; Node refuses it by name.
            let e = io::Error::from_raw_os_error(libc::EINVAL);
            return Done::Fail(Failure::sys(&e, "open", true));
        };
        let opened = sluice::blocking(|| {
            retry(|| {
                // SAFETY: `cpath` is a NUL-terminated path that outlives
                // the call; open reads it and returns a new descriptor
                // (owned by the caller from here on) or -1.
                unsafe { libc::open(cpath.as_ptr(), flags | libc::O_CLOEXEC, mode) as isize }
            })
        });
        match opened {
            Ok(fd) => Done::Number(fd as f64),
            Err(e) => Done::Fail(Failure::sys(&e, "open", true)),
        }
    })
}

/// `fs.read(fd, buffer, offset, length, position)`: the bytes read (at most
/// `length`; `index.js` copies them into the caller's buffer), from
/// `position`, or from the file's offset where it is -1. With `nowait`,
/// what the page cache holds is read here, on the loop's thread
/// (`sluice::nowait::read`, `RWF_NOWAIT`); a read it cannot make (nothing
/// cached, a pipe, a socket, any error) goes to the lane.
#[napi]
pub fn fd_read(
    slot: u32,
    fd: i32,
    length: u32,
    position: f64,
    nowait: Option<bool>,
) -> napi::Result<f64> {
    if nowait == Some(true) && fd >= 0 && u64::from(length) <= NOWAIT_READ_MAX {
        let mut buf = vec![0u8; length as usize];
        let at = (position >= 0.0).then_some(position as u64);
        // SAFETY: `fd` is the caller's open descriptor (index.js checked the
        // number), borrowed for this call only, on the loop's thread; the
        // read passes the number to the kernel, which answers EBADF for one
        // that is not open (then the lane reads, and reports it).
        let fd = unsafe { std::os::fd::BorrowedFd::borrow_raw(fd) };
        if let Answer::Ready(Ok(n)) = nowait::read(fd, &mut buf, at) {
            buf.truncate(n);
            return settled_now(slot, NowaitOp::Read, Done::Bytes(buf));
        }
    }
    submit(slot, Lane::FastIo, move || {
        let mut buf = Vec::new();
        if buf.try_reserve_exact(length as usize).is_err() {
            let e = io::Error::from_raw_os_error(libc::ENOMEM);
            return Done::Fail(Failure::sys(&e, "read", false));
        }
        buf.resize(length as usize, 0);
        let len = buf.len();
        // SAFETY: `buf` has `len` writable bytes and outlives the call.
        let read = unsafe {
            transfer(
                fd,
                buf.as_mut_ptr().cast(),
                len,
                position,
                libc::read,
                libc::pread,
            )
        };
        match read {
            Ok(n) => {
                buf.truncate(n);
                Done::Bytes(buf)
            }
            Err(e) => Done::Fail(Failure::sys(&e, "read", false)),
        }
    })
}

/// `fs.write(fd, buffer, offset, length, position)` (and the string form,
/// encoded by `index.js`): the bytes written, at `position`, or at the
/// file's offset where it is -1. The bytes are copied at the call.
#[napi]
pub fn fd_write(slot: u32, fd: i32, data: BufferSlice<'_>, position: f64) -> napi::Result<f64> {
    let data = data.to_vec();
    submit(slot, Lane::FastIo, move || {
        // SAFETY: `data` has `data.len()` readable bytes and outlives the
        // call; write only reads them.
        let written = unsafe {
            transfer(
                fd,
                data.as_ptr().cast(),
                data.len(),
                position,
                libc::write,
                libc::pwrite,
            )
        };
        match written {
            Ok(n) => Done::Number(n as f64),
            Err(e) => Done::Fail(Failure::sys(&e, "write", false)),
        }
    })
}

/// `fs.close(fd)`: `EINTR` (and `EINPROGRESS`) count as closed, as in
/// libuv: the descriptor is gone either way on Linux.
#[napi]
pub fn fd_close(slot: u32, fd: i32) -> napi::Result<f64> {
    submit(slot, Lane::FastIo, move || {
        // SAFETY: close takes a number and touches no memory; the caller
        // gave up the descriptor by asking.
        let r = sluice::blocking(|| unsafe { libc::close(fd) });
        if r == 0 {
            return Done::Unit;
        }
        let e = io::Error::last_os_error();
        match e.raw_os_error() {
            Some(libc::EINTR | libc::EINPROGRESS) => Done::Unit,
            _ => Done::Fail(Failure::sys(&e, "close", false)),
        }
    })
}

/// `fs.fstat(fd)`: Node's `Stats`, as `stat` gives it, or with `fields`
/// its numbers as a `Float64Array` (what Node's binding gives `FileHandle`).
#[napi]
pub fn fd_fstat(slot: u32, fd: i32, fields: bool) -> napi::Result<f64> {
    submit(slot, Lane::FastIo, move || {
        use std::os::fd::FromRawFd;
        // SAFETY: the File is never dropped (ManuallyDrop), so the caller's
        // descriptor is not closed; `metadata` only passes the number to
        // statx/fstat, which answer EBADF for one that is not open.
        let file = std::mem::ManuallyDrop::new(unsafe { std::fs::File::from_raw_fd(fd) });
        match sluice::blocking(|| file.metadata()) {
            Ok(m) if fields => Done::Fields(stat_fields(&m)),
            Ok(m) => Done::Stat(stat_fields(&m)),
            Err(e) => Done::Fail(Failure::sys(&e, "fstat", false)),
        }
    })
}
