//! [`RemoteMemory`]: reading the watched process's memory through
//! `/proc/PID/mem`, with the same permission `/proc/PID/task/*/syscall`
//! needs (the process's user or root; no ptrace stop, the process runs on).
//!
//! Its `Gather` reads many scattered words in one system call
//! (`process_vm_readv`, the same permission): sluice's lane gauges, a few
//! words each sample (`sample/lane_gauges.rs`).
//!
//! Reads are not atomic with respect to the process: a value can change
//! while it is read. Callers read words libuv writes whole (`nthreads`,
//! pointers) and validate anything they chase (see `queue.rs`).

use std::fs::File;
use std::io::IoSliceMut;
use std::os::unix::fs::FileExt;

/// The memory of one process.
#[derive(Debug)]
pub struct RemoteMemory {
    pid: u32,
    file: File,
}

/// Reads many ranges of a process's memory as one reading: what the lane
/// gauges' reader needs, so that its tests can stand a fake process in.
pub(crate) trait Gather {
    /// Fills each buffer from its address, in order; an error if any range
    /// could not be read whole.
    fn gather(&self, parts: &mut [(u64, &mut [u8])]) -> std::io::Result<()>;
}

impl RemoteMemory {
    /// Opens `/proc/PID/mem`.
    pub fn open(pid: u32) -> std::io::Result<RemoteMemory> {
        let process = crate::target::proc::process(pid)?;
        Ok(RemoteMemory {
            pid,
            file: process.mem().map_err(crate::target::proc::io_error)?,
        })
    }

    /// Fills `buf` from address `addr`.
    pub fn read(&self, addr: u64, buf: &mut [u8]) -> std::io::Result<()> {
        self.file.read_exact_at(buf, addr)
    }

    /// The native-endian `u32` at `addr`.
    pub fn u32(&self, addr: u64) -> std::io::Result<u32> {
        let mut b = [0u8; 4];
        self.read(addr, &mut b)?;
        Ok(u32::from_ne_bytes(b))
    }

    /// The native-endian `u64` (a pointer on x86_64) at `addr`.
    pub fn u64(&self, addr: u64) -> std::io::Result<u64> {
        let mut b = [0u8; 8];
        self.read(addr, &mut b)?;
        Ok(u64::from_ne_bytes(b))
    }
}

impl Gather for RemoteMemory {
    /// One `process_vm_readv` for every range: the kernel copies them in
    /// order, and a short count (a range unmapped) is an error.
    fn gather(&self, parts: &mut [(u64, &mut [u8])]) -> std::io::Result<()> {
        use nix::sys::uio::{RemoteIoVec, process_vm_readv};
        let remote: Vec<RemoteIoVec> = parts
            .iter()
            .map(|(addr, buf)| {
                Ok(RemoteIoVec {
                    base: usize::try_from(*addr).map_err(|_| {
                        std::io::Error::new(
                            std::io::ErrorKind::InvalidInput,
                            format!("address {addr:#x} beyond this machine's"),
                        )
                    })?,
                    len: buf.len(),
                })
            })
            .collect::<std::io::Result<_>>()?;
        let want: usize = remote.iter().map(|r| r.len).sum();
        let mut local: Vec<IoSliceMut<'_>> = parts
            .iter_mut()
            .map(|(_, buf)| IoSliceMut::new(buf))
            .collect();
        let pid = nix::unistd::Pid::from_raw(self.pid as i32);
        let got = process_vm_readv(pid, &mut local, &remote).map_err(std::io::Error::from)?;
        if got != want {
            return Err(std::io::Error::new(
                std::io::ErrorKind::UnexpectedEof,
                format!("read {got} of {want} bytes (a range is not mapped)"),
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_this_process() {
        let value: u64 = 0x1234_5678_9abc_def0;
        let boxed = Box::new(value);
        let addr = &*boxed as *const u64 as u64;
        let mem = RemoteMemory::open(std::process::id()).unwrap();
        assert_eq!(mem.u64(addr).unwrap(), value);
        assert_eq!(mem.u32(addr).unwrap(), 0x9abc_def0);
        assert!(mem.u64(0).is_err(), "address 0 is never mapped");
    }

    #[test]
    fn gathers_scattered_words_in_one_reading() {
        let a = Box::new(7u64);
        let b = Box::new([1u8, 2, 3]);
        let mem = RemoteMemory::open(std::process::id()).unwrap();
        let (mut x, mut y) = ([0u8; 8], [0u8; 3]);
        mem.gather(&mut [
            (&*a as *const u64 as u64, &mut x),
            (b.as_ptr() as u64, &mut y),
        ])
        .unwrap();
        assert_eq!((u64::from_ne_bytes(x), y), (7, [1, 2, 3]));
        let err = mem
            .gather(&mut [(&*a as *const u64 as u64, &mut x), (0, &mut y)])
            .unwrap_err();
        assert!(err.to_string().contains("read 8 of 11 bytes"), "{err}");
    }
}
