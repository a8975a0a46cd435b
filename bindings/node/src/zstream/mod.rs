//! zlib and brotli streams on the `Cpu` lane: the native half of
//! `sluice/patch`'s replacement for Node's `internalBinding('zlib')`
//! handles (`Zlib`, `BrotliEncoder`, `BrotliDecoder`), which every zlib
//! stream (`createGzip`, `createDeflate`, `createBrotliCompress`, ...) and
//! every convenience form (`deflate`, `inflate`, `brotliCompress`, ...)
//! writes through.
//!
//! The compression libraries are Node's own: the process's zlib
//! (`deflate`, ...: Node's bundled zlib, or the system's that `libnode`
//! links) and brotli (`BrotliEncoderCompressStream`, ...), found by name among the
//! symbols the Node executable (or `libnode`) exports for addons. So the
//! bytes are Node's, chunk for chunk; where a symbol is missing
//! [`zlib_available`] / [`brotli_available`] say so and `index.js` leaves
//! Node's handles alone.
//!
//! Each handle is a port of `node_zlib.cc`'s `ZlibContext` and
//! `BrotliEncoderContext` / `BrotliDecoderContext`: lazy initialisation at
//! the first write, `unzip`'s header sniffing, the dictionary retry, the
//! gzip member loop, and the same error messages, codes and numbers. A
//! write is one call of the library, as Node makes it; on the `Cpu` lane
//! it runs as a task queued ahead of the lane's long ones
//! ([`sluice::Permit::spawn_first`]) and ends with a [`sluice::checkpoint`];
//! a small one runs on the loop's thread (the no-wait path, [`ZlibHandle::write`]).

#![allow(unsafe_code)]

mod brotli;
mod ffi;
mod zlib;

use crate::inbox::{NowaitOp, settled_now};
use crate::outcome::{Done, Failure};
use crate::pool::submit_first;
use brotli::BrotliEngine;
use ffi::*;
use napi::bindgen_prelude::BufferSlice;
use napi_derive::napi;
use sluice::Lane;
use std::ffi::c_int;
use std::sync::{Arc, Mutex, MutexGuard};
use zlib::ZlibEngine;

/// True when the process exports the zlib Node's zlib module uses.
#[napi]
pub fn zlib_available() -> bool {
    zlib_fns().is_some()
}

/// True when the process exports the brotli Node's zlib module uses.
#[napi]
pub fn brotli_available() -> bool {
    brotli_fns().is_some()
}

enum Engine {
    Zlib(ZlibEngine),
    Brotli(BrotliEngine),
    Closed,
}

impl Engine {
    fn write(&mut self, flush: c_int, input: &[u8], out: &mut [u8]) -> Result<[u32; 2], ZError> {
        let (left, avail_out) = match self {
            Engine::Zlib(z) => {
                let left = z.write(flush, input, out)?;
                (left, z.avail_out())
            }
            Engine::Brotli(b) => {
                let left = b.write(flush, input, out)?;
                (left, b.avail_out as u32)
            }
            Engine::Closed => {
                return Err(ZError::new("zlib binding closed", "ERR_INVALID_STATE", -1));
            }
        };
        Ok([avail_out, left as u32])
    }
}

/// What a handle keeps between calls.
struct Shared {
    engine: Engine,
    /// The last async write's input, as copied, and how much of it the
    /// library has read: Node's `processCallback` calls `write` again for
    /// the rest of the same chunk, which is then not copied again.
    input: Vec<u8>,
    read: usize,
    /// The last async write's output and `[availOutAfter, availInAfter]`.
    output: Vec<u8>,
    avail: [u32; 2],
}

/// One zlib or brotli stream: what `new binding.Zlib(mode)` (or
/// `BrotliEncoder`/`BrotliDecoder`) is to Node's zlib module.
#[napi]
pub struct ZlibHandle {
    shared: Arc<Mutex<Shared>>,
}

fn lock(shared: &Mutex<Shared>) -> MutexGuard<'_, Shared> {
    // A panic under the lock left the engine as it was; carry on with it.
    shared
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

fn zlib_out(result: Result<(), ZError>) -> Option<Failure> {
    result.err().map(ZError::failure)
}

#[napi]
impl ZlibHandle {
    /// A handle for Node's `mode` (1..=7 zlib, 8 brotli decode, 9 encode).
    #[napi(constructor)]
    pub fn new(mode: u32) -> napi::Result<ZlibHandle> {
        let missing = |what: &str| {
            napi::Error::from_reason(format!("sluice: the process exports no {what} functions"))
        };
        let engine = match mode {
            DEFLATE..=UNZIP => Engine::Zlib(ZlibEngine::new(
                zlib_fns().ok_or_else(|| missing("zlib"))?,
                mode,
            )),
            BROTLI_DECODE | BROTLI_ENCODE => Engine::Brotli(BrotliEngine::new(
                brotli_fns().ok_or_else(|| missing("brotli"))?,
                mode == BROTLI_ENCODE,
            )),
            _ => {
                return Err(napi::Error::from_reason(format!(
                    "sluice: zlib mode {mode}"
                )));
            }
        };
        Ok(ZlibHandle {
            shared: Arc::new(Mutex::new(Shared {
                engine,
                input: Vec::new(),
                read: 0,
                output: Vec::new(),
                avail: [0, 0],
            })),
        })
    }

    /// zlib's `init(windowBits, level, memLevel, strategy, ..., dictionary)`:
    /// records the settings; zlib itself starts at the first write.
    #[napi]
    pub fn init_zlib(
        &self,
        window_bits: i32,
        level: i32,
        mem_level: i32,
        strategy: i32,
        dictionary: Option<BufferSlice<'_>>,
    ) {
        let dict = dictionary.map(|d| d.to_vec()).unwrap_or_default();
        if let Engine::Zlib(z) = &mut lock(&self.shared).engine {
            z.init(level, window_bits, mem_level, strategy, dict);
        }
    }

    /// brotli's `init(params)`: `params[key]` for every key not `u32::MAX`.
    #[napi]
    pub fn init_brotli(&self, params: Vec<u32>) -> Option<Failure> {
        let mut shared = lock(&self.shared);
        let Engine::Brotli(b) = &mut shared.engine else {
            return None;
        };
        let set = b.init().and_then(|()| {
            for (key, &value) in params.iter().enumerate() {
                if value != u32::MAX {
                    b.set_param(key as u32, value)?;
                }
            }
            Ok(())
        });
        zlib_out(set)
    }

    /// `params(level, strategy)` (brotli: nothing, as in Node).
    #[napi]
    pub fn params(&self, level: i32, strategy: i32) -> Option<Failure> {
        match &mut lock(&self.shared).engine {
            Engine::Zlib(z) => zlib_out(z.params(level, strategy)),
            _ => None,
        }
    }

    /// `reset()`.
    #[napi]
    pub fn reset(&self) -> Option<Failure> {
        match &mut lock(&self.shared).engine {
            Engine::Zlib(z) => zlib_out(z.reset()),
            Engine::Brotli(b) => zlib_out(b.init()),
            Engine::Closed => None,
        }
    }

    /// `close()`: frees the library's state (a write in flight finishes first).
    #[napi]
    pub fn close(&self) {
        let mut shared = lock(&self.shared);
        shared.engine = Engine::Closed;
        shared.input = Vec::new();
        shared.output = Vec::new();
    }

    /// The synchronous `writeSync(flush, in, in_off, in_len, out, out_off,
    /// out_len)`, on the calling thread (`zlib.deflateSync` and the like):
    /// `[availOutAfter, availInAfter]`, or the error for `onerror`.
    #[napi(ts_return_type = "Array<number> | Failure")]
    #[allow(clippy::too_many_arguments)] // Node's writeSync's seven, and self
    pub fn write_sync(
        &self,
        flush: i32,
        input: Option<BufferSlice<'_>>,
        in_off: u32,
        in_len: u32,
        mut out: BufferSlice<'_>,
        out_off: u32,
        out_len: u32,
    ) -> napi::Either<Vec<u32>, Failure> {
        let input: &[u8] = match &input {
            Some(b) => window(b, in_off, in_len),
            None => &[],
        };
        let start = (out_off as usize).min(out.len());
        let end = start.saturating_add(out_len as usize).min(out.len());
        let mut shared = lock(&self.shared);
        match shared.engine.write(flush, input, &mut out[start..end]) {
            Ok(avail) => napi::Either::A(avail.to_vec()),
            Err(e) => napi::Either::B(e.failure()),
        }
    }

    /// The asynchronous `write(...)` on the `Cpu` lane. `input` is copied,
    /// or, with `input` null and `more` true, is the rest of the previous
    /// write's input. The outcome is nothing or the error for `onerror`;
    /// then [`ZlibHandle::take`] hands over the output. With `nowait`, a
    /// small write ([`NOWAIT_WRITE_MAX`] bytes of input or less, an output
    /// of at most [`NOWAIT_OUTPUT_MAX`], not brotli's encoder at a quality
    /// above 5) runs here,
    /// on the loop's thread: tens of microseconds of zlib, less than a
    /// thread hop costs, and it never waits behind long work on the lane
    /// (a static file's gzip behind a flood of password hashes). Its
    /// outcome is posted at once and delivered on a later turn, as the
    /// lane's would be.
    #[napi]
    #[allow(clippy::too_many_arguments)] // Node's write's, the inbox and nowait
    pub fn write(
        &self,
        slot: u32,
        flush: i32,
        input: Option<BufferSlice<'_>>,
        in_off: u32,
        in_len: u32,
        more: bool,
        out_len: u32,
        nowait: Option<bool>,
    ) -> napi::Result<f64> {
        let small = {
            let mut shared = lock(&self.shared);
            if !more {
                shared.input = match &input {
                    Some(b) => window(b, in_off, in_len).to_vec(),
                    None => Vec::new(),
                };
                shared.read = 0;
            }
            let left = shared.input.len().saturating_sub(shared.read);
            let slow = matches!(&shared.engine, Engine::Brotli(b) if !b.quick());
            left <= NOWAIT_WRITE_MAX && out_len as usize <= NOWAIT_OUTPUT_MAX && !slow
        };
        if nowait == Some(true) && small {
            let done = run_write(&self.shared, flush, out_len);
            return settled_now(slot, NowaitOp::Zlib, done);
        }
        let shared = self.shared.clone();
        // Ahead of the lane's queued tasks: a write is at most a few
        // milliseconds of the library (one call, its output bounded by
        // `out_len`), and must not wait behind a flood of password hashes.
        submit_first(slot, Lane::Cpu, move || {
            let done = run_write(&shared, flush, out_len);
            sluice::checkpoint();
            done
        })
    }

    /// After a write: copies its output into `out` at `out_off` and
    /// returns `[availOutAfter, availInAfter]`.
    #[napi]
    pub fn take(&self, mut out: BufferSlice<'_>, out_off: u32) -> Vec<u32> {
        let shared = lock(&self.shared);
        let start = (out_off as usize).min(out.len());
        let n = shared.output.len().min(out.len() - start);
        out[start..start + n].copy_from_slice(&shared.output[..n]);
        shared.avail.to_vec()
    }
}

/// The most input a write runs on the loop's thread (`nowait`): a static
/// file of a few KiB, or a flush.
pub const NOWAIT_WRITE_MAX: usize = 8 * 1024;

/// The largest output buffer of a write run on the loop's thread: what
/// bounds an inflate's work (Node's streams pass 16 KiB).
pub const NOWAIT_OUTPUT_MAX: usize = 64 * 1024;

/// One write of the library on the handle's last input: its outcome, the
/// output kept for [`ZlibHandle::take`].
fn run_write(shared: &Mutex<Shared>, flush: i32, out_len: u32) -> Done {
    let mut guard = lock(shared);
    let s = &mut *guard;
    let mut output = std::mem::take(&mut s.output);
    output.clear();
    output.resize(out_len as usize, 0);
    let input = s.input.get(s.read..).unwrap_or(&[]);
    let result = s.engine.write(flush, input, &mut output);
    let done = match result {
        Ok(avail) => {
            s.read = s.input.len() - avail[1] as usize;
            s.avail = avail;
            output.truncate(out_len.saturating_sub(avail[0]) as usize);
            Done::Unit
        }
        Err(e) => Done::Fail(e.failure()),
    };
    s.output = output;
    done
}

/// `len` bytes of `b` from `off`, clamped to the buffer (Node checks the
/// bounds before; this only keeps a wrong call from reading past them).
fn window(b: &[u8], off: u32, len: u32) -> &[u8] {
    let start = (off as usize).min(b.len());
    let end = start.saturating_add(len as usize).min(b.len());
    &b[start..end]
}
