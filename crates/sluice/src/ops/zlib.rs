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
//! gunzip is Node's too: [`gunzip_sync`] runs `node_zlib.cc`'s loop on
//! zlib's inflate, so Node's multi-member and padding rules hold and every
//! refusal has Node's message, `code` and `errno` ([`GunzipError`]).
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

/// Decompresses gzip `data` (`zlib.gunzip`) with Node's rules (see
/// [`gunzip_sync`]). A refusal is an `InvalidData` error whose inner error
/// is the [`GunzipError`] (`err.get_ref()`), with Node's message.
pub fn gunzip(pool: &Pool, data: &[u8]) -> Task<io::Result<Vec<u8>>> {
    let data = data.to_vec();
    pool.spawn(Lane::Cpu, move || {
        gunzip_sync(&data, usize::MAX).map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))
    })
}

/// Why [`gunzip_sync`] refused its input: the error Node's `zlib.gunzip`
/// gives for the same bytes, with its `code`, `errno` and message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GunzipError {
    /// The data is not valid gzip (`Z_DATA_ERROR`, errno -3); `message` is
    /// zlib's own: `incorrect header check`, `unknown compression method`,
    /// `unknown header flags set`, `header crc mismatch`, `invalid block
    /// type`, `incorrect data check`, `incorrect length check`, ...
    Data {
        /// zlib's message, which Node uses as the error's message.
        message: String,
    },
    /// The input ends inside a member (`Z_BUF_ERROR`, errno -5, `unexpected
    /// end of file`); also an empty input.
    UnexpectedEnd,
    /// The output would be longer than the limit given (Node's
    /// `ERR_BUFFER_TOO_LARGE` RangeError, for `maxOutputLength` or
    /// `buffer.kMaxLength`).
    TooLarge {
        /// The limit, in bytes.
        limit: usize,
    },
    /// The output's memory could not be had (`ENOMEM`): the allocator
    /// refused, and the data read so far was let go.
    NoMemory,
}

impl GunzipError {
    /// Node's `code`: `Z_DATA_ERROR`, `Z_BUF_ERROR` or `ERR_BUFFER_TOO_LARGE`.
    pub fn code(&self) -> &'static str {
        match self {
            GunzipError::Data { .. } => "Z_DATA_ERROR",
            GunzipError::UnexpectedEnd => "Z_BUF_ERROR",
            GunzipError::TooLarge { .. } => "ERR_BUFFER_TOO_LARGE",
            GunzipError::NoMemory => "ENOMEM",
        }
    }

    /// Node's `errno` (zlib's return code): -3 or -5; none for
    /// [`TooLarge`](GunzipError::TooLarge) and
    /// [`NoMemory`](GunzipError::NoMemory).
    pub fn errno(&self) -> Option<i32> {
        match self {
            GunzipError::Data { .. } => Some(-3),
            GunzipError::UnexpectedEnd => Some(-5),
            GunzipError::TooLarge { .. } | GunzipError::NoMemory => None,
        }
    }
}

impl std::fmt::Display for GunzipError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GunzipError::Data { message } => f.write_str(message),
            GunzipError::UnexpectedEnd => f.write_str("unexpected end of file"),
            GunzipError::TooLarge { limit } => {
                write!(f, "Cannot create a Buffer larger than {limit} bytes")
            }
            GunzipError::NoMemory => f.write_str("out of memory for the output"),
        }
    }
}

impl std::error::Error for GunzipError {}

/// [`gunzip`] on the calling thread, refusing output longer than
/// `max_output` bytes (`usize::MAX`: no limit) before it is allocated: at
/// most `max_output + 1` bytes are held. Never call it on an event loop's
/// thread.
///
/// The rules are Node's (`node_zlib.cc`, inflate in gzip mode, on zlib
/// itself): members are read in turn; after a member, input that starts
/// with a zero byte ends the data and is ignored with all that follows it
/// (padding, even another member after the zeros); input that starts with
/// any other byte is read as the next member, so garbage is refused with
/// zlib's message (`incorrect header check`, or `unknown compression method`
/// after `1f 8b`) and a piece of a header is `unexpected end of file`.
/// Header fields (FEXTRA, FNAME, FCOMMENT, FHCRC) of any length are read.
///
/// ```
/// use sluice::zlib::{gunzip_sync, gzip_sync, GunzipError};
///
/// let one = gzip_sync(b"abc", 6)?;
/// let padded = [&one[..], &[0; 10], b"ignored"].concat();
/// assert_eq!(gunzip_sync(&padded, usize::MAX)?, b"abc");
/// let both = [&one[..], &gzip_sync(b"def", 6)?].concat();
/// assert_eq!(gunzip_sync(&both, usize::MAX)?, b"abcdef");
///
/// let garbage = [&one[..], &[0x1f, 0x8b, 0xff, 0xff]].concat();
/// let e = gunzip_sync(&garbage, usize::MAX).unwrap_err();
/// assert_eq!((e.code(), e.to_string().as_str()), ("Z_DATA_ERROR", "unknown compression method"));
/// assert_eq!(gunzip_sync(&one[..9], usize::MAX), Err(GunzipError::UnexpectedEnd));
/// assert_eq!(gunzip_sync(&one, 2), Err(GunzipError::TooLarge { limit: 2 }));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn gunzip_sync(data: &[u8], max_output: usize) -> Result<Vec<u8>, GunzipError> {
    use flate2::{Decompress, FlushDecompress, Status};
    let mut out: Vec<u8> = Vec::new();
    let mut z = Decompress::new_gzip(15);
    let mut at = 0;
    loop {
        // Room for the next piece of output: at most one byte past the limit
        // (that byte tells a refusal), so no more than that is ever held.
        let len = out.len();
        let room = PIECE.min(max_output.saturating_add(1) - len);
        if out.capacity() - len < room {
            // Doubling, clamped to the limit.
            let grow = room.max(len).min(max_output.saturating_add(1) - len);
            out.try_reserve_exact(grow)
                .map_err(|_| GunzipError::NoMemory)?;
        }
        out.resize(len + room, 0);
        let (in_before, out_before) = (z.total_in(), z.total_out());
        // Z_FINISH, as Node's gunzipSync writes its one chunk.
        let status = z.decompress(&data[at..], &mut out[len..], FlushDecompress::Finish);
        at += usize::try_from(z.total_in() - in_before).unwrap_or(usize::MAX);
        let made = usize::try_from(z.total_out() - out_before).unwrap_or(usize::MAX);
        out.truncate(len + made);
        if out.len() > max_output {
            return Err(GunzipError::TooLarge { limit: max_output });
        }
        crate::checkpoint();
        match status {
            Err(e) => {
                return Err(GunzipError::Data {
                    message: e.message().unwrap_or("Zlib error").to_string(),
                });
            }
            // A member ended: Node reads on only if the next byte is not
            // zero (`node_zlib.cc`: zero bytes are padding, and end it all).
            Ok(Status::StreamEnd) => {
                if at < data.len() && data[at] != 0 {
                    z = Decompress::new_gzip(15);
                    continue;
                }
                return Ok(out);
            }
            // Z_OK or Z_BUF_ERROR: with room left in the output, zlib wants
            // input that is not there (Node: `unexpected end of file`).
            Ok(Status::Ok | Status::BufError) => {
                if made < room {
                    return Err(GunzipError::UnexpectedEnd);
                }
            }
        }
    }
}
