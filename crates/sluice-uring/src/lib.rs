//! sluice's experimental io_uring path for FastIo's `fs::read` and
//! `fs::stat` (see `sluice::Builder::fast_io_uring`): the only unsafe code
//! it needs, apart from the safe `sluice` crate.
//!
//! - [`probe`] probes the kernel once per process: `io_uring_setup`, the
//!   probe API (`IORING_OP_OPENAT`, `READ`, `CLOSE`, `STATX`) and a sparse
//!   fixed-file table. Its error names what refused (seccomp's `EPERM`, an
//!   old kernel's `ENOSYS`, `kernel.io_uring_disabled`, a missing opcode).
//! - **One ring per thread** (a FastIo worker), made on the thread's first
//!   call and dropped when it exits. A worker runs one task at a time and
//!   waits for it anyway, so its own ring needs no lock, no completion
//!   routing between threads and no reaper; a ring the lane's workers
//!   shared would need all three.
//! - [`read`] is one `io_uring_enter`: the chain `OPENAT` (into fixed slot
//!   0) → `READ` (up to [`READ_CAP`]) → `CLOSE`, hard-linked so the close
//!   runs whatever the read did. [`stat`] is one `STATX` with std's flags
//!   and mask. Both answer `None` where the caller's thread path must
//!   answer instead (no ring on this thread, a file of [`READ_CAP`] bytes
//!   or more, a path with a NUL byte, a failed `io_uring_enter`).

#![allow(unsafe_code)] // two blocks, each with its proof

use io_uring::{IoUring, Probe, opcode, squeue, types};
use std::cell::RefCell;
use std::ffi::CString;
use std::io;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;
use std::sync::OnceLock;

/// The most bytes one chained read takes; a larger file is for the thread
/// path.
pub const READ_CAP: usize = 64 * 1024;

/// Entries of each thread's ring (a chain takes 3).
const RING_ENTRIES: u32 = 8;

/// Probes the kernel once per process; later calls return the first
/// answer. `Err` says what refused.
///
/// ```
/// // Either answer is fine: the call must not panic.
/// let _ = sluice_uring::probe();
/// ```
pub fn probe() -> Result<(), String> {
    static PROBE: OnceLock<Result<(), String>> = OnceLock::new();
    PROBE.get_or_init(probe_kernel).clone()
}

/// `what: error`, as a refusal's text.
pub fn refusal(what: &str, e: &io::Error) -> String {
    format!("{what}: {e}")
}

/// The process's probe: a ring, the opcodes, a sparse file table.
fn probe_kernel() -> Result<(), String> {
    let ring = IoUring::new(RING_ENTRIES).map_err(|e| refusal("io_uring_setup", &e))?;
    let mut p = Probe::new();
    ring.submitter()
        .register_probe(&mut p)
        .map_err(|e| refusal("IORING_REGISTER_PROBE", &e))?;
    for (code, name) in [
        (opcode::OpenAt::CODE, "IORING_OP_OPENAT"),
        (opcode::Read::CODE, "IORING_OP_READ"),
        (opcode::Close::CODE, "IORING_OP_CLOSE"),
        (opcode::Statx::CODE, "IORING_OP_STATX"),
    ] {
        if !p.is_supported(code) {
            return Err(format!("{name} is not supported by this kernel"));
        }
    }
    Ring::new()
        .map(drop)
        .map_err(|e| refusal("a worker's ring", &e))
}

/// A worker's ring and every buffer the kernel may write into or read
/// from, kept together so that a ring the kernel may still use is leaked
/// whole (see [`Ring::chain`]).
struct Ring {
    ring: IoUring,
    path: CString,
    buf: Box<[u8]>,
    statx: Box<libc::statx>,
    /// `io_uring_enter` failed with entries maybe still in the kernel.
    broken: bool,
}

thread_local! {
    /// `None`: not made yet; `Some(None)`: cannot be made on this thread.
    static RING: RefCell<Option<Option<Box<Ring>>>> = const { RefCell::new(None) };
}

fn with_ring<T>(f: impl FnOnce(&mut Ring) -> Option<io::Result<T>>) -> Option<io::Result<T>> {
    RING.with(|cell| {
        let mut slot = cell.borrow_mut();
        let ring = slot.get_or_insert_with(|| Ring::new().ok().map(Box::new));
        let r = f(ring.as_mut()?);
        if let Some(broken) = ring.take_if(|r| r.broken) {
            // The kernel may still write into its buffers: never free them.
            std::mem::forget(broken);
        }
        r
    })
}

impl Ring {
    fn new() -> io::Result<Ring> {
        let ring = IoUring::new(RING_ENTRIES)?;
        ring.submitter().register_files_sparse(1)?;
        Ok(Ring {
            ring,
            path: CString::default(),
            buf: vec![0; READ_CAP].into_boxed_slice(),
            // SAFETY: `statx` is plain integers; all zeros is a valid value.
            statx: Box::new(unsafe { std::mem::zeroed() }),
            broken: false,
        })
    }

    /// Submits `entries` (user data 0..N) and waits for all N completions:
    /// their results by user data. On a failure of `io_uring_enter` other
    /// than `EINTR`, the kernel may still hold the entries, so the thread's
    /// ring is marked broken and `with_ring` leaks it with its buffers (never
    /// freed under the kernel) and the call
    /// answers `None` (the thread path takes it).
    fn chain<const N: usize>(&mut self, entries: [squeue::Entry; N]) -> Option<[i32; N]> {
        // SAFETY: every pointer in `entries` points into `self.path`,
        // `self.buf` or `self.statx`, which live as long as the ring: below
        // we wait until all N completions are reaped before returning, and
        // where waiting fails the ring and its buffers are leaked. The
        // queue is empty here (every earlier chain was reaped whole), so the
        // N entries fit in its RING_ENTRIES.
        if unsafe { self.ring.submission().push_multiple(&entries) }.is_err() {
            return None;
        }
        let mut results = [0; N];
        let mut reaped = 0;
        while reaped < N {
            match self.ring.submit_and_wait(N - reaped) {
                Ok(_) => {}
                Err(e) if e.raw_os_error() == Some(libc::EINTR) => {}
                Err(_) => {
                    self.broken = true;
                    return None;
                }
            }
            for cqe in self.ring.completion() {
                if let Some(r) = results.get_mut(cqe.user_data() as usize) {
                    *r = cqe.result();
                    reaped += 1;
                }
            }
        }
        Some(results)
    }

    /// `path` as the ring's C string; `None` (the thread path answers)
    /// where it holds a NUL byte, as std refuses it.
    fn set_path(&mut self, path: &Path) -> Option<*const libc::c_char> {
        self.path = CString::new(path.as_os_str().as_bytes()).ok()?;
        Some(self.path.as_ptr())
    }

    /// `std::fs::read(path)` in one chain; `None` where the thread path
    /// must answer (a file of 64 KiB or more, a broken ring).
    fn read_in(&mut self, path: &Path) -> Option<io::Result<Vec<u8>>> {
        let name = self.set_path(path)?;
        let slot = types::DestinationSlot::try_from_slot_target(0).ok()?;
        let buf = self.buf.as_mut_ptr();
        let open = opcode::OpenAt::new(types::Fd(libc::AT_FDCWD), name)
            // A direct open refuses O_CLOEXEC (EINVAL): the file never gets
            // a descriptor in the process's table, so no exec can inherit it.
            .flags(libc::O_RDONLY)
            .file_index(Some(slot))
            .build()
            .flags(squeue::Flags::IO_HARDLINK)
            .user_data(0);
        let read = opcode::Read::new(types::Fixed(0), buf, READ_CAP as u32)
            .offset(0)
            .build()
            .flags(squeue::Flags::IO_HARDLINK)
            .user_data(1);
        let close = opcode::Close::new(types::Fixed(0)).build().user_data(2);
        let [opened, read, _closed] = self.chain([open, read, close])?;
        // std ignores the close's result too (dropping a `File`).
        Some(match (opened, read) {
            (o, _) if o < 0 => Err(io::Error::from_raw_os_error(-o)),
            (_, r) if r < 0 => Err(io::Error::from_raw_os_error(-r)),
            (_, r) if r as usize >= READ_CAP => return None,
            (_, r) => Ok(self.buf[..r as usize].to_vec()),
        })
    }

    /// `std::fs::metadata(path)` as one `STATX`, with std's flags and mask.
    fn stat_in(&mut self, path: &Path) -> Option<io::Result<libc::statx>> {
        let name = self.set_path(path)?;
        let buf: *mut libc::statx = &mut *self.statx;
        let statx = opcode::Statx::new(types::Fd(libc::AT_FDCWD), name, buf.cast())
            .flags(libc::AT_STATX_SYNC_AS_STAT)
            .mask(libc::STATX_BASIC_STATS | libc::STATX_BTIME)
            .build()
            .user_data(0);
        let [r] = self.chain([statx])?;
        Some(if r < 0 {
            Err(io::Error::from_raw_os_error(-r))
        } else {
            Ok(*self.statx)
        })
    }
}

/// `std::fs::read(path)` through this thread's ring, with std's bytes and
/// errors; `None` where the thread path must answer.
pub fn read(path: &Path) -> Option<io::Result<Vec<u8>>> {
    with_ring(|ring| ring.read_in(path))
}

/// `std::fs::metadata(path)`'s `statx` through this thread's ring; `None`
/// where the thread path must answer.
pub fn stat(path: &Path) -> Option<io::Result<libc::statx>> {
    with_ring(|ring| ring.stat_in(path))
}
