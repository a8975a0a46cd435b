//! Descriptors sluice opens for itself, closed at the end only while their
//! number still names the file opened.
//!
//! A program that closes a number twice can close one of sluice's
//! descriptors under it: Node's `test-dgram-bind-fd`, for one, hands a raw
//! UDP handle's descriptor to a `dgram` socket and leaves the handle open,
//! so that descriptor is closed by the socket and again when Node closes
//! the handle at exit; a worker that opened a file meanwhile got that
//! number. Dropping a [`std::fs::File`] then closes the number again: in a
//! debug build std's IO-safety check aborts the process ("owned file
//! descriptor already closed"); in a release build the close fails, or,
//! where the program has opened something else under that number since,
//! closes the program's descriptor. libuv's pool, whose `uv_fs_close` is a
//! bare `close(2)`, never aborts; neither should sluice, and it must not
//! close what is not its own.
//!
//! [`Opened`] keeps a file's identity (device and inode, from one `fstat`
//! when it is adopted) and, when dropped, closes the descriptor only when
//! an `fstat` of its number still finds that file; otherwise the number is
//! left alone (closed already, or someone else's). One window stays: a
//! thread that closes the number and opens another file under it between
//! that `fstat` and the `close`. A stray close cannot be undone, and reads
//! made after it may read whatever took the number; what this type
//! guarantees is that sluice neither aborts on it nor closes a descriptor
//! it did not open.
//!
//! [`above_program_numbers`] narrows the other direction: a descriptor
//! sluice opens while the program runs (a new worker's
//! `/proc/thread-self/schedstat`) would take the lowest free number, often
//! one the program has just closed, so the program's read or close of that
//! stale number would reach sluice's file instead of failing with `EBADF`
//! as it does without sluice. Moved to a high number at once, it holds the
//! low one for the two system calls of the move only.

use std::fs::{File, Metadata};
use std::io;
use std::os::fd::{AsRawFd, IntoRawFd, RawFd};
use std::os::unix::fs::MetadataExt;

/// The lowest number [`above_program_numbers`] moves a descriptor to, where
/// the open-file limit allows: a program's own descriptors take the lowest
/// free numbers, so they reach this one only with hundreds open. The
/// kernel's table for the process grows to it once (8 bytes a number).
pub const HIGH_FLOOR: RawFd = 512;

/// `file`, just opened by sluice for itself, moved to the lowest free number
/// at or above [`HIGH_FLOOR`] (half the soft open-file limit where that is
/// lower), its low number closed; `file` as it was where the limit leaves
/// no room or the move fails (nothing is lost: only the number differs).
///
/// ```
/// use std::os::fd::AsRawFd;
/// let f = sluice::fd::above_program_numbers(std::fs::File::open("/proc/self/stat").unwrap());
/// let limit = rustix::process::getrlimit(rustix::process::Resource::Nofile).current.unwrap_or(u64::MAX);
/// if limit >= 1024 {
///     assert!(f.as_raw_fd() >= sluice::fd::HIGH_FLOOR);
/// }
/// ```
pub fn above_program_numbers(file: File) -> File {
    let limit = rustix::process::getrlimit(rustix::process::Resource::Nofile)
        .current
        .unwrap_or(u64::MAX);
    // Below HIGH_FLOOR, so it fits a RawFd.
    let floor = RawFd::try_from(limit / 2).map_or(HIGH_FLOOR, |half| half.min(HIGH_FLOOR));
    if file.as_raw_fd() >= floor || floor < 3 {
        return file;
    }
    match rustix::io::fcntl_dupfd_cloexec(&file, floor) {
        // `moved` is a new descriptor that this call owns; `file` is
        // dropped (its low number closed) as it goes out of scope.
        Ok(moved) => File::from(moved),
        Err(_) => file,
    }
}

/// A file sluice opened, closed at drop only while its number still names
/// it (see the module's docs).
#[derive(Debug)]
pub struct Opened {
    /// `Some` until dropped or handed over.
    file: Option<File>,
    /// The file's device and inode when it was adopted.
    id: (u64, u64),
}

impl Opened {
    /// Adopts `file`, just opened, with its metadata (one `fstat`, which
    /// gives the identity kept). Its error is `fstat`'s; the descriptor is
    /// then closed as a drop would close it.
    pub fn new(file: File) -> io::Result<(Opened, Metadata)> {
        match file.metadata() {
            Ok(meta) => {
                let id = (meta.dev(), meta.ino());
                Ok((
                    Opened {
                        file: Some(file),
                        id,
                    },
                    meta,
                ))
            }
            Err(e) => {
                if e.raw_os_error() == Some(libc::EBADF) {
                    // Closed under us already: nothing of ours to close.
                    std::mem::forget(file);
                }
                Err(e)
            }
        }
    }

    /// The file, to read or write (`Read` and `Write` are implemented for
    /// `&File`).
    pub fn file(&self) -> &File {
        self.file
            .as_ref()
            .expect("an Opened holds its file until it is dropped or handed over")
    }

    /// Whether the number still names the file adopted.
    fn still_ours(file: &File, id: (u64, u64)) -> bool {
        file.metadata()
            .is_ok_and(|meta| (meta.dev(), meta.ino()) == id)
    }
}

impl IntoRawFd for Opened {
    /// Hands the descriptor over: whoever takes it closes it.
    fn into_raw_fd(mut self) -> RawFd {
        self.file
            .take()
            .expect("an Opened holds its file until it is dropped or handed over")
            .into_raw_fd()
    }
}

impl Drop for Opened {
    fn drop(&mut self) {
        if let Some(file) = self.file.take() {
            if Opened::still_ours(&file, self.id) {
                drop(file);
            } else {
                // Not ours any more: forgetting the `File` closes nothing.
                std::mem::forget(file);
            }
        }
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;
    use std::io::{Read, Seek, Write};
    use std::os::fd::AsRawFd;

    fn temp_with(bytes: &[u8]) -> File {
        let mut f = tempfile::tempfile().unwrap();
        f.write_all(bytes).unwrap();
        f.rewind().unwrap();
        f
    }

    #[test]
    fn reads_and_closes_its_own_file() {
        let (opened, meta) = Opened::new(temp_with(b"abc")).unwrap();
        assert_eq!(meta.len(), 3);
        let mut text = String::new();
        opened.file().read_to_string(&mut text).unwrap();
        assert_eq!(text, "abc");
        let fd = opened.file().as_raw_fd();
        drop(opened);
        // Closed: the number names nothing, or (another test's thread
        // opened a file meanwhile) another file.
        let probe = std::fs::metadata(format!("/proc/self/fd/{fd}"));
        assert!(probe.map_or(true, |m| (m.dev(), m.ino()) != (meta.dev(), meta.ino())));
    }
}
