//! [`RemoteMemory`]: reading the watched process's memory through
//! `/proc/PID/mem`, with the same permission `/proc/PID/task/*/syscall`
//! needs (the process's user or root; no ptrace stop, the process runs on).
//!
//! Reads are not atomic with respect to the process: a value can change
//! while it is read. Callers read words libuv writes whole (`nthreads`,
//! pointers) and validate anything they chase (see `queue.rs`).

use std::fs::File;
use std::os::unix::fs::FileExt;

/// The memory of one process.
#[derive(Debug)]
pub struct RemoteMemory {
    file: File,
}

impl RemoteMemory {
    /// Opens `/proc/PID/mem`.
    pub fn open(pid: u32) -> std::io::Result<RemoteMemory> {
        Ok(RemoteMemory {
            file: File::open(format!("/proc/{pid}/mem"))?,
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
}
