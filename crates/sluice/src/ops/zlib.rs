//! gzip and gunzip on [`Lane::Cpu`]: what Node runs as `zlib.gzip` and
//! `zlib.gunzip` on its pool.
//!
//! The header is Node's (no name, no time stamp, OS byte 3) and the deflate
//! is zlib's own (flate2 on the C zlib, not a port). On the test vectors the
//! bytes equal Node's (`tests/ops_vectors.rs`). They are not guaranteed to
//! for every input: Node 20 bundles Chromium's fork of zlib, whose matcher
//! can choose other matches (measured: 256 KiB of the lab's text gives
//! 159 300 bytes from Node and 167 632 from the system zlib). Deflate streams
//! are not unique; both decompress to the same input, checked both ways.
//!
//! ```
//! use sluice::{Pool, zlib};
//!
//! let pool = Pool::builder().build()?;
//! let data = b"hello hello hello hello".repeat(100);
//! let packed = zlib::gzip(&pool, &data, zlib::DEFAULT_LEVEL).wait()??;
//! assert!(packed.len() < data.len());
//! assert_eq!(zlib::gunzip(&pool, &packed).wait()??, data);
//! assert!(zlib::gunzip(&pool, b"not gzip").wait()?.is_err());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::lane::Lane;
use crate::pool::Pool;
use crate::task::Task;
use std::io::{self, Read, Write};

/// zlib's default compression level (`Z_DEFAULT_COMPRESSION` is 6).
pub const DEFAULT_LEVEL: u32 = 6;

/// Compresses `data` as gzip at `level` (0..=9) (`zlib.gzip`).
pub fn gzip(pool: &Pool, data: &[u8], level: u32) -> Task<io::Result<Vec<u8>>> {
    let data = data.to_vec();
    pool.spawn(Lane::Cpu, move || gzip_sync(&data, level))
}

/// [`gzip`] on the calling thread (`zlib.gzipSync`): for code that submits
/// the work itself, e.g. with [`Pool::try_spawn`]. Never call it on an event
/// loop's thread.
///
/// ```
/// let packed = sluice::zlib::gzip_sync(b"hello", sluice::zlib::DEFAULT_LEVEL)?;
/// assert_eq!(packed[..4], [0x1f, 0x8b, 8, 0]); // gzip magic, deflate, no flags
/// assert!(sluice::zlib::gzip_sync(b"hello", 10).is_err());
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn gzip_sync(data: &[u8], level: u32) -> io::Result<Vec<u8>> {
    if level > 9 {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("gzip level {level}; expected 0..=9"),
        ));
    }
    let mut enc = flate2::GzBuilder::new().operating_system(3).write(
        Vec::with_capacity(data.len() / 2 + 64),
        flate2::Compression::new(level),
    );
    // In pieces, with a checkpoint after each: at levels 1..=9 deflate's
    // output does not depend on how its input is cut (no flush between
    // pieces). Level 0 stores, a copy with nothing to hand back, and its
    // stored blocks would follow the pieces: one write.
    let piece = if level == 0 { data.len().max(1) } else { PIECE };
    for piece in data.chunks(piece) {
        enc.write_all(piece)?;
        crate::checkpoint();
    }
    enc.finish()
}

/// Bytes compressed, or produced by decompression, between two
/// [`checkpoint`](crate::checkpoint)s (at level 6, 16 KiB of text deflate
/// in a fraction of a millisecond).
const PIECE: usize = 16 << 10;

/// A reader that lets the pool's other work in while a long decompression
/// (or any long read) runs on a pool thread: each `read` asks the inner
/// reader for at most 16 KiB and then calls [`checkpoint`](crate::checkpoint).
/// On a lanes-policy worker that yields the core once the task has computed
/// for [`CHECKPOINT_QUANTUM`](crate::CHECKPOINT_QUANTUM); elsewhere it costs a
/// thread-local read. The bytes are the inner reader's, unchanged.
///
/// [`gunzip`] reads through one; a task of your own that decompresses on
/// [`Lane::Cpu`] can too:
///
/// ```
/// use std::io::Read;
/// use sluice::zlib::Checkpointed;
///
/// let packed = sluice::zlib::gzip_sync(&[7u8; 100_000], 6)?;
/// let mut out = Vec::new();
/// Checkpointed::new(flate2::read::GzDecoder::new(&packed[..])).read_to_end(&mut out)?;
/// assert_eq!(out, [7u8; 100_000]);
///
/// // Each read is at most 16 KiB, whatever the buffer.
/// let mut big = vec![0u8; 100_000];
/// let mut r = Checkpointed::new(&out[..]);
/// assert_eq!(r.read(&mut big)?, 16 << 10);
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Debug)]
pub struct Checkpointed<R> {
    inner: R,
}

impl<R> Checkpointed<R> {
    /// Wraps `inner`.
    pub fn new(inner: R) -> Self {
        Checkpointed { inner }
    }

    /// The inner reader, e.g. to read on after one gzip member.
    pub fn into_inner(self) -> R {
        self.inner
    }
}

impl<R: Read> Read for Checkpointed<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let len = buf.len().min(PIECE);
        let n = self.inner.read(&mut buf[..len])?;
        crate::checkpoint();
        Ok(n)
    }
}

/// Decompresses gzip `data` (`zlib.gunzip`); concatenated members are read
/// in turn, as Node does. Corrupt input is an `InvalidData` error.
pub fn gunzip(pool: &Pool, data: &[u8]) -> Task<io::Result<Vec<u8>>> {
    let data = data.to_vec();
    pool.spawn(Lane::Cpu, move || {
        let mut out = Vec::with_capacity(data.len() * 3);
        let mut members = Checkpointed::new(flate2::read::MultiGzDecoder::new(&data[..]));
        match members.read_to_end(&mut out) {
            Ok(_) => Ok(out),
            Err(e) => Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!("gunzip: not valid gzip data ({e})"),
            )),
        }
    })
}
