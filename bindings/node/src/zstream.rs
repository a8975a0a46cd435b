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
//! it runs as a task and ends with a [`sluice::checkpoint`].

#![allow(unsafe_code)]

use crate::inbox::Inbox;
use crate::outcome::{Done, Failure};
use crate::pool::submit;
use napi::bindgen_prelude::BufferSlice;
use napi_derive::napi;
use sluice::Lane;
use std::ffi::{CStr, c_char, c_int, c_uint, c_ulong, c_void};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};

// Node's modes (`node_zlib.h`).
const NONE: u32 = 0;
const DEFLATE: u32 = 1;
const INFLATE: u32 = 2;
const GZIP: u32 = 3;
const GUNZIP: u32 = 4;
const DEFLATERAW: u32 = 5;
const INFLATERAW: u32 = 6;
const UNZIP: u32 = 7;
const BROTLI_DECODE: u32 = 8;
const BROTLI_ENCODE: u32 = 9;

const Z_NO_FLUSH: c_int = 0;
const Z_FINISH: c_int = 4;
const Z_OK: c_int = 0;
const Z_STREAM_END: c_int = 1;
const Z_NEED_DICT: c_int = 2;
const Z_DATA_ERROR: c_int = -3;
const Z_BUF_ERROR: c_int = -5;
const Z_DEFLATED: c_int = 8;

const BROTLI_OPERATION_FINISH: c_int = 2;
const BROTLI_DECODER_RESULT_ERROR: c_int = 0;
const BROTLI_DECODER_RESULT_NEEDS_MORE_INPUT: c_int = 2;

/// zlib's `z_stream` (zlib.h), the same in Chromium's fork.
#[repr(C)]
struct ZStream {
    next_in: *const u8,
    avail_in: c_uint,
    total_in: c_ulong,
    next_out: *mut u8,
    avail_out: c_uint,
    total_out: c_ulong,
    msg: *const c_char,
    state: *mut c_void,
    zalloc: Option<unsafe extern "C" fn(*mut c_void, c_uint, c_uint) -> *mut c_void>,
    zfree: Option<unsafe extern "C" fn(*mut c_void, *mut c_void)>,
    opaque: *mut c_void,
    data_type: c_int,
    adler: c_ulong,
    reserved: c_ulong,
}

type ZFn = unsafe extern "C" fn(*mut ZStream, c_int) -> c_int;
type ZEnd = unsafe extern "C" fn(*mut ZStream) -> c_int;
type ZDict = unsafe extern "C" fn(*mut ZStream, *const u8, c_uint) -> c_int;

/// The zlib functions Node's zlib module calls, from the process.
struct ZlibFns {
    version: unsafe extern "C" fn() -> *const c_char,
    deflate_init2: unsafe extern "C" fn(
        *mut ZStream,
        c_int,
        c_int,
        c_int,
        c_int,
        c_int,
        *const c_char,
        c_int,
    ) -> c_int,
    deflate: ZFn,
    deflate_end: ZEnd,
    deflate_reset: ZEnd,
    deflate_params: unsafe extern "C" fn(*mut ZStream, c_int, c_int) -> c_int,
    deflate_set_dictionary: ZDict,
    inflate_init2: unsafe extern "C" fn(*mut ZStream, c_int, *const c_char, c_int) -> c_int,
    inflate: ZFn,
    inflate_end: ZEnd,
    inflate_reset: ZEnd,
    inflate_set_dictionary: ZDict,
}

type Alloc = Option<unsafe extern "C" fn(*mut c_void, usize) -> *mut c_void>;
type Free = Option<unsafe extern "C" fn(*mut c_void, *mut c_void)>;

/// The brotli functions Node's zlib module calls, from the process.
struct BrotliFns {
    enc_create: unsafe extern "C" fn(Alloc, Free, *mut c_void) -> *mut c_void,
    enc_set: unsafe extern "C" fn(*mut c_void, c_int, u32) -> c_int,
    enc_stream: unsafe extern "C" fn(
        *mut c_void,
        c_int,
        *mut usize,
        *mut *const u8,
        *mut usize,
        *mut *mut u8,
        *mut usize,
    ) -> c_int,
    enc_destroy: unsafe extern "C" fn(*mut c_void),
    dec_create: unsafe extern "C" fn(Alloc, Free, *mut c_void) -> *mut c_void,
    dec_set: unsafe extern "C" fn(*mut c_void, c_int, u32) -> c_int,
    dec_stream: unsafe extern "C" fn(
        *mut c_void,
        *mut usize,
        *mut *const u8,
        *mut usize,
        *mut *mut u8,
        *mut usize,
    ) -> c_int,
    dec_error_code: unsafe extern "C" fn(*mut c_void) -> c_int,
    dec_error_string: unsafe extern "C" fn(c_int) -> *const c_char,
    dec_destroy: unsafe extern "C" fn(*mut c_void),
}

/// The address of `name` among the process's exported symbols, or null.
fn symbol(name: &str) -> *mut c_void {
    let Ok(name) = std::ffi::CString::new(name) else {
        return std::ptr::null_mut();
    };
    // SAFETY: dlsym with RTLD_DEFAULT (the null handle on glibc and musl)
    // searches the global scope and only reads the NUL-terminated name.
    unsafe { libc::dlsym(std::ptr::null_mut(), name.as_ptr()) }
}

/// Reads a function pointer of type `$t` from the symbol `$name`, or
/// returns `None` from the enclosing function.
macro_rules! resolve {
    ($name:expr, $t:ty) => {{
        let p = symbol(&$name);
        if p.is_null() {
            return None;
        }
        // SAFETY: `p` is the non-null address of the exported C function of
        // that name, whose signature `$t` copies from zlib.h / brotli's
        // encode.h and decode.h (the libraries Node's zlib module calls).
        unsafe { std::mem::transmute::<*mut c_void, $t>(p) }
    }};
}

fn zlib_fns() -> Option<&'static ZlibFns> {
    static FNS: OnceLock<Option<ZlibFns>> = OnceLock::new();
    FNS.get_or_init(|| {
        // The unprefixed names: Node's zlib module's (its `Cr_z_` names,
        // where a build has them too, are another copy, whose deflate
        // chooses other matches).
        let n = |f: &str| f.to_string();
        Some(ZlibFns {
            version: resolve!(n("zlibVersion"), unsafe extern "C" fn() -> *const c_char),
            deflate_init2: resolve!(
                n("deflateInit2_"),
                unsafe extern "C" fn(
                    *mut ZStream,
                    c_int,
                    c_int,
                    c_int,
                    c_int,
                    c_int,
                    *const c_char,
                    c_int,
                ) -> c_int
            ),
            deflate: resolve!(n("deflate"), ZFn),
            deflate_end: resolve!(n("deflateEnd"), ZEnd),
            deflate_reset: resolve!(n("deflateReset"), ZEnd),
            deflate_params: resolve!(
                n("deflateParams"),
                unsafe extern "C" fn(*mut ZStream, c_int, c_int) -> c_int
            ),
            deflate_set_dictionary: resolve!(n("deflateSetDictionary"), ZDict),
            inflate_init2: resolve!(
                n("inflateInit2_"),
                unsafe extern "C" fn(*mut ZStream, c_int, *const c_char, c_int) -> c_int
            ),
            inflate: resolve!(n("inflate"), ZFn),
            inflate_end: resolve!(n("inflateEnd"), ZEnd),
            inflate_reset: resolve!(n("inflateReset"), ZEnd),
            inflate_set_dictionary: resolve!(n("inflateSetDictionary"), ZDict),
        })
    })
    .as_ref()
}

fn brotli_fns() -> Option<&'static BrotliFns> {
    static FNS: OnceLock<Option<BrotliFns>> = OnceLock::new();
    FNS.get_or_init(|| {
        type Create = unsafe extern "C" fn(Alloc, Free, *mut c_void) -> *mut c_void;
        type Set = unsafe extern "C" fn(*mut c_void, c_int, u32) -> c_int;
        type Destroy = unsafe extern "C" fn(*mut c_void);
        Some(BrotliFns {
            enc_create: resolve!("BrotliEncoderCreateInstance", Create),
            enc_set: resolve!("BrotliEncoderSetParameter", Set),
            enc_stream: resolve!(
                "BrotliEncoderCompressStream",
                unsafe extern "C" fn(
                    *mut c_void,
                    c_int,
                    *mut usize,
                    *mut *const u8,
                    *mut usize,
                    *mut *mut u8,
                    *mut usize,
                ) -> c_int
            ),
            enc_destroy: resolve!("BrotliEncoderDestroyInstance", Destroy),
            dec_create: resolve!("BrotliDecoderCreateInstance", Create),
            dec_set: resolve!("BrotliDecoderSetParameter", Set),
            dec_stream: resolve!(
                "BrotliDecoderDecompressStream",
                unsafe extern "C" fn(
                    *mut c_void,
                    *mut usize,
                    *mut *const u8,
                    *mut usize,
                    *mut *mut u8,
                    *mut usize,
                ) -> c_int
            ),
            dec_error_code: resolve!(
                "BrotliDecoderGetErrorCode",
                unsafe extern "C" fn(*mut c_void) -> c_int
            ),
            dec_error_string: resolve!(
                "BrotliDecoderErrorString",
                unsafe extern "C" fn(c_int) -> *const c_char
            ),
            dec_destroy: resolve!("BrotliDecoderDestroyInstance", Destroy),
        })
    })
    .as_ref()
}

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

/// An error as `node_zlib.cc`'s `CompressionError`: `handle.onerror`'s
/// `(message, errno, code)`.
struct ZError {
    message: String,
    code: String,
    errno: i32,
}

impl ZError {
    fn new(message: &str, code: &str, errno: i32) -> ZError {
        ZError {
            message: message.into(),
            code: code.into(),
            errno,
        }
    }

    fn failure(self) -> Failure {
        Failure {
            errno: Some(self.errno),
            ..Failure::message("zlib", Some(&self.code), self.message)
        }
    }
}

fn zlib_strerror(err: c_int) -> &'static str {
    match err {
        0 => "Z_OK",
        1 => "Z_STREAM_END",
        2 => "Z_NEED_DICT",
        -1 => "Z_ERRNO",
        -2 => "Z_STREAM_ERROR",
        -3 => "Z_DATA_ERROR",
        -4 => "Z_MEM_ERROR",
        -5 => "Z_BUF_ERROR",
        -6 => "Z_VERSION_ERROR",
        _ => "Z_UNKNOWN_ERROR",
    }
}

/// `node_zlib.cc`'s `ZlibContext`.
struct ZlibEngine {
    fns: &'static ZlibFns,
    /// Boxed: zlib's state points back at its stream, which must not move.
    strm: Box<ZStream>,
    mode: u32,
    level: c_int,
    window_bits: c_int,
    mem_level: c_int,
    strategy: c_int,
    dictionary: Vec<u8>,
    err: c_int,
    flush: c_int,
    gzip_id_bytes_read: u8,
    init_done: bool,
}

// SAFETY: the stream's pointers are zlib's own state (heap memory no other
// thread touches) and, during a call only, the buffers of that call; the
// engine is only ever used under its handle's mutex.
unsafe impl Send for ZlibEngine {}

impl ZlibEngine {
    fn new(fns: &'static ZlibFns, mode: u32) -> ZlibEngine {
        ZlibEngine {
            fns,
            strm: Box::new(ZStream {
                next_in: std::ptr::null(),
                avail_in: 0,
                total_in: 0,
                next_out: std::ptr::null_mut(),
                avail_out: 0,
                total_out: 0,
                msg: std::ptr::null(),
                state: std::ptr::null_mut(),
                zalloc: None,
                zfree: None,
                opaque: std::ptr::null_mut(),
                data_type: 0,
                adler: 0,
                reserved: 0,
            }),
            mode,
            level: 0,
            window_bits: 0,
            mem_level: 0,
            strategy: 0,
            dictionary: Vec::new(),
            err: Z_OK,
            flush: Z_NO_FLUSH,
            gzip_id_bytes_read: 0,
            init_done: false,
        }
    }

    fn is_deflate(&self) -> bool {
        matches!(self.mode, DEFLATE | GZIP | DEFLATERAW)
    }

    fn error(&self, message: &str) -> ZError {
        let message = if self.strm.msg.is_null() {
            message.to_string()
        } else {
            // SAFETY: a non-null `msg` is a NUL-terminated static string of
            // zlib's (its error texts).
            unsafe { CStr::from_ptr(self.strm.msg) }
                .to_string_lossy()
                .into_owned()
        };
        ZError {
            message,
            code: zlib_strerror(self.err).into(),
            errno: self.err,
        }
    }

    fn init(&mut self, level: i32, window_bits: i32, mem_level: i32, strategy: i32, dict: Vec<u8>) {
        self.level = level;
        self.window_bits = window_bits;
        self.mem_level = mem_level;
        self.strategy = strategy;
        match self.mode {
            GZIP | GUNZIP => self.window_bits += 16,
            UNZIP => self.window_bits += 32,
            DEFLATERAW | INFLATERAW => self.window_bits *= -1,
            _ => {}
        }
        self.dictionary = dict;
    }

    /// Initialises zlib at the first use; true on that first call.
    fn init_zlib(&mut self) -> bool {
        if self.init_done {
            return false;
        }
        let size = std::mem::size_of::<ZStream>() as c_int;
        // SAFETY: `strm` is a zeroed z_stream that stays at its place (a
        // box) until `deflateEnd`/`inflateEnd`; the version string is the
        // library's own, as the zlib.h macros pass it.
        self.err = unsafe {
            let version = (self.fns.version)();
            if self.is_deflate() {
                (self.fns.deflate_init2)(
                    &mut *self.strm,
                    self.level,
                    Z_DEFLATED,
                    self.window_bits,
                    self.mem_level,
                    self.strategy,
                    version,
                    size,
                )
            } else if matches!(self.mode, INFLATE | GUNZIP | INFLATERAW | UNZIP) {
                (self.fns.inflate_init2)(&mut *self.strm, self.window_bits, version, size)
            } else {
                return false;
            }
        };
        if self.err != Z_OK {
            self.dictionary.clear();
            self.mode = NONE;
            return true;
        }
        let _ = self.set_dictionary();
        self.init_done = true;
        true
    }

    fn set_dictionary(&mut self) -> Result<(), ZError> {
        if self.dictionary.is_empty() {
            return Ok(());
        }
        let len = self.dictionary.len() as c_uint;
        // SAFETY: the stream is initialised (init_zlib) and the dictionary
        // is read for `len` bytes during the call.
        self.err = unsafe {
            match self.mode {
                DEFLATE | DEFLATERAW => (self.fns.deflate_set_dictionary)(
                    &mut *self.strm,
                    self.dictionary.as_ptr(),
                    len,
                ),
                INFLATERAW => (self.fns.inflate_set_dictionary)(
                    &mut *self.strm,
                    self.dictionary.as_ptr(),
                    len,
                ),
                _ => Z_OK,
            }
        };
        if self.err != Z_OK {
            return Err(self.error("Failed to set dictionary"));
        }
        Ok(())
    }

    fn params(&mut self, level: i32, strategy: i32) -> Result<(), ZError> {
        if self.init_zlib() && self.err != Z_OK {
            return Err(self.error("Failed to init stream before set parameters"));
        }
        self.err = Z_OK;
        if matches!(self.mode, DEFLATE | DEFLATERAW) {
            // deflateParams first flushes with deflate(Z_BLOCK), which
            // refuses null buffers: it gets empty ones (no room: any output
            // still pending stays pending for the next write).
            let mut scratch = [0u8; 1];
            self.strm.next_in = scratch.as_ptr();
            self.strm.avail_in = 0;
            self.strm.next_out = scratch.as_mut_ptr();
            self.strm.avail_out = 0;
            // SAFETY: the stream is initialised for deflate, and its
            // buffers are the empty scratch ones, valid during the call.
            self.err = unsafe { (self.fns.deflate_params)(&mut *self.strm, level, strategy) };
            self.strm.next_in = std::ptr::null();
            self.strm.next_out = std::ptr::null_mut();
        }
        if self.err != Z_OK && self.err != Z_BUF_ERROR {
            return Err(self.error("Failed to set parameters"));
        }
        Ok(())
    }

    fn reset(&mut self) -> Result<(), ZError> {
        if self.init_zlib() && self.err != Z_OK {
            return Err(self.error("Failed to init stream before reset"));
        }
        self.err = Z_OK;
        // SAFETY: the stream is initialised for the mode's direction.
        self.err = unsafe {
            match self.mode {
                DEFLATE | DEFLATERAW | GZIP => (self.fns.deflate_reset)(&mut *self.strm),
                INFLATE | INFLATERAW | GUNZIP => (self.fns.inflate_reset)(&mut *self.strm),
                _ => Z_OK,
            }
        };
        if self.err != Z_OK {
            return Err(self.error("Failed to reset stream"));
        }
        self.set_dictionary()
    }

    /// `DoThreadPoolWork` on `input` into `out`; returns the bytes of
    /// `input` left unread, or Node's error (`GetErrorInfo`).
    fn write(&mut self, flush: c_int, input: &[u8], out: &mut [u8]) -> Result<usize, ZError> {
        self.flush = flush;
        self.strm.next_in = input.as_ptr();
        self.strm.avail_in = input.len() as c_uint;
        self.strm.next_out = out.as_mut_ptr();
        self.strm.avail_out = out.len() as c_uint;
        self.work();
        let result = self.error_info();
        let left = self.strm.avail_in as usize;
        self.strm.next_in = std::ptr::null();
        self.strm.next_out = std::ptr::null_mut();
        result.map(|()| left)
    }

    /// Bytes of the last write's output buffer left unwritten.
    fn avail_out(&self) -> u32 {
        self.strm.avail_out
    }

    fn work(&mut self) {
        if self.init_zlib() && self.err != Z_OK {
            return;
        }
        let fns = self.fns;
        let strm: *mut ZStream = &mut *self.strm;
        match self.mode {
            // SAFETY: the stream is initialised, and its next_in/next_out
            // point into this write's buffers for avail_in/avail_out bytes.
            DEFLATE | GZIP | DEFLATERAW => self.err = unsafe { (fns.deflate)(strm, self.flush) },
            UNZIP | INFLATE | GUNZIP | INFLATERAW => {
                if self.mode == UNZIP {
                    self.sniff_gzip();
                }
                // SAFETY: as above.
                self.err = unsafe { (fns.inflate)(strm, self.flush) };
                if self.mode != INFLATERAW && self.err == Z_NEED_DICT && !self.dictionary.is_empty()
                {
                    let len = self.dictionary.len() as c_uint;
                    // SAFETY: as above; the dictionary is read during the call.
                    self.err = unsafe {
                        (fns.inflate_set_dictionary)(strm, self.dictionary.as_ptr(), len)
                    };
                    if self.err == Z_OK {
                        // SAFETY: as above.
                        self.err = unsafe { (fns.inflate)(strm, self.flush) };
                    } else if self.err == Z_DATA_ERROR {
                        // Tells a bad dictionary from bad input, as Node does.
                        self.err = Z_NEED_DICT;
                    }
                }
                while self.strm.avail_in > 0
                    && self.mode == GUNZIP
                    && self.err == Z_STREAM_END
                    // SAFETY: avail_in > 0, so next_in points at a byte of the input.
                    && unsafe { *self.strm.next_in } != 0
                {
                    // Another member (or garbage, which inflate refuses);
                    // zero bytes are padding.
                    let _ = self.reset();
                    // SAFETY: as above.
                    self.err = unsafe { (fns.inflate)(strm, self.flush) };
                }
            }
            _ => {}
        }
    }

    /// `unzip`: gzip if the input starts with 1f 8b, else zlib's format.
    fn sniff_gzip(&mut self) {
        let avail = self.strm.avail_in as usize;
        if avail == 0 {
            return;
        }
        // SAFETY: next_in points at `avail` bytes of this write's input.
        let head = unsafe { std::slice::from_raw_parts(self.strm.next_in, avail) };
        let mut at = 0;
        if self.gzip_id_bytes_read == 0 {
            if head[0] != 0x1f {
                self.mode = INFLATE;
                return;
            }
            self.gzip_id_bytes_read = 1;
            at = 1;
            if avail == 1 {
                return;
            }
        }
        if self.gzip_id_bytes_read == 1 {
            if head[at] == 0x8b {
                self.gzip_id_bytes_read = 2;
                self.mode = GUNZIP;
            } else {
                self.mode = INFLATE;
            }
        }
    }

    fn error_info(&self) -> Result<(), ZError> {
        match self.err {
            Z_OK | Z_BUF_ERROR if self.strm.avail_out != 0 && self.flush == Z_FINISH => {
                Err(self.error("unexpected end of file"))
            }
            Z_OK | Z_BUF_ERROR | Z_STREAM_END => Ok(()),
            Z_NEED_DICT if self.dictionary.is_empty() => Err(self.error("Missing dictionary")),
            Z_NEED_DICT => Err(self.error("Bad dictionary")),
            _ => Err(self.error("Zlib error")),
        }
    }

    fn close(&mut self) {
        if !self.init_done {
            return;
        }
        // SAFETY: the stream was initialised and is ended once (init_done
        // is cleared), freeing zlib's state.
        unsafe {
            if self.is_deflate() {
                (self.fns.deflate_end)(&mut *self.strm);
            } else if self.mode != NONE {
                (self.fns.inflate_end)(&mut *self.strm);
            }
        }
        self.init_done = false;
        self.mode = NONE;
    }
}

impl Drop for ZlibEngine {
    fn drop(&mut self) {
        self.close();
    }
}

/// `BrotliEncoderContext` / `BrotliDecoderContext`.
struct BrotliEngine {
    fns: &'static BrotliFns,
    encode: bool,
    state: *mut c_void,
    flush: c_int,
    last_result: c_int,
    error: c_int,
    error_string: String,
    avail_out: usize,
}

// SAFETY: the state is brotli's heap memory, used by one thread at a time
// (under the handle's mutex); brotli keeps no thread-local state.
unsafe impl Send for BrotliEngine {}

impl BrotliEngine {
    fn new(fns: &'static BrotliFns, encode: bool) -> BrotliEngine {
        BrotliEngine {
            fns,
            encode,
            state: std::ptr::null_mut(),
            flush: 0,
            last_result: 1,
            error: 0,
            error_string: String::new(),
            avail_out: 0,
        }
    }

    fn destroy(&mut self) {
        if self.state.is_null() {
            return;
        }
        // SAFETY: `state` came from the matching create function and is
        // destroyed once (set to null below).
        unsafe {
            if self.encode {
                (self.fns.enc_destroy)(self.state);
            } else {
                (self.fns.dec_destroy)(self.state);
            }
        }
        self.state = std::ptr::null_mut();
    }

    /// `Init` (and `ResetStream`, which is `Init` again, as in Node: the
    /// parameters set before are not set again).
    fn init(&mut self) -> Result<(), ZError> {
        self.destroy();
        // SAFETY: null allocator functions select brotli's malloc/free.
        self.state = unsafe {
            if self.encode {
                (self.fns.enc_create)(None, None, std::ptr::null_mut())
            } else {
                (self.fns.dec_create)(None, None, std::ptr::null_mut())
            }
        };
        if self.state.is_null() {
            return Err(ZError::new(
                "Initialization failed",
                "ERR_ZLIB_INITIALIZATION_FAILED",
                -1,
            ));
        }
        self.last_result = 1;
        self.error = 0;
        Ok(())
    }

    fn set_param(&mut self, key: u32, value: u32) -> Result<(), ZError> {
        // SAFETY: the state is live (init succeeded before any parameter).
        let ok = unsafe {
            if self.encode {
                (self.fns.enc_set)(self.state, key as c_int, value)
            } else {
                (self.fns.dec_set)(self.state, key as c_int, value)
            }
        };
        if ok == 0 {
            return Err(ZError::new(
                "Setting parameter failed",
                "ERR_BROTLI_PARAM_SET_FAILED",
                -1,
            ));
        }
        Ok(())
    }

    fn write(&mut self, flush: c_int, input: &[u8], out: &mut [u8]) -> Result<usize, ZError> {
        self.flush = flush;
        let mut avail_in = input.len();
        let mut next_in = input.as_ptr();
        let mut avail_out = out.len();
        let mut next_out = out.as_mut_ptr();
        if self.state.is_null() {
            return Err(ZError::new(
                "Initialization failed",
                "ERR_ZLIB_INITIALIZATION_FAILED",
                -1,
            ));
        }
        // SAFETY: the state is live; next_in/next_out point at avail_in /
        // avail_out bytes of this call's buffers, and brotli advances them
        // within those bounds.
        self.last_result = unsafe {
            if self.encode {
                (self.fns.enc_stream)(
                    self.state,
                    flush,
                    &mut avail_in,
                    &mut next_in,
                    &mut avail_out,
                    &mut next_out,
                    std::ptr::null_mut(),
                )
            } else {
                (self.fns.dec_stream)(
                    self.state,
                    &mut avail_in,
                    &mut next_in,
                    &mut avail_out,
                    &mut next_out,
                    std::ptr::null_mut(),
                )
            }
        };
        self.avail_out = avail_out;
        if !self.encode && self.last_result == BROTLI_DECODER_RESULT_ERROR {
            // SAFETY: the state is live; the error string is a static
            // NUL-terminated name.
            unsafe {
                self.error = (self.fns.dec_error_code)(self.state);
                let s = (self.fns.dec_error_string)(self.error);
                let name = if s.is_null() {
                    String::new()
                } else {
                    CStr::from_ptr(s).to_string_lossy().into_owned()
                };
                self.error_string = format!("ERR_{name}");
            }
        }
        self.error_info().map(|()| avail_in)
    }

    fn error_info(&self) -> Result<(), ZError> {
        if self.encode {
            if self.last_result == 0 {
                return Err(ZError::new(
                    "Compression failed",
                    "ERR_BROTLI_COMPRESSION_FAILED",
                    -1,
                ));
            }
            return Ok(());
        }
        if self.error != 0 {
            return Err(ZError::new(
                "Decompression failed",
                &self.error_string,
                self.error,
            ));
        }
        if self.flush == BROTLI_OPERATION_FINISH
            && self.last_result == BROTLI_DECODER_RESULT_NEEDS_MORE_INPUT
        {
            return Err(ZError::new(
                "unexpected end of file",
                "Z_BUF_ERROR",
                Z_BUF_ERROR,
            ));
        }
        Ok(())
    }
}

impl Drop for BrotliEngine {
    fn drop(&mut self) {
        self.destroy();
    }
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
    /// then [`ZlibHandle::take`] hands over the output.
    #[napi]
    #[allow(clippy::too_many_arguments)] // Node's write's, and the inbox
    pub fn write(
        &self,
        inbox: &Inbox,
        flush: i32,
        input: Option<BufferSlice<'_>>,
        in_off: u32,
        in_len: u32,
        more: bool,
        out_len: u32,
    ) -> napi::Result<f64> {
        {
            let mut shared = lock(&self.shared);
            if !more {
                shared.input = match &input {
                    Some(b) => window(b, in_off, in_len).to_vec(),
                    None => Vec::new(),
                };
                shared.read = 0;
            }
        }
        let shared = self.shared.clone();
        submit(inbox, Lane::Cpu, move || {
            let mut guard = lock(&shared);
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
            drop(guard);
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

/// `len` bytes of `b` from `off`, clamped to the buffer (Node checks the
/// bounds before; this only keeps a wrong call from reading past them).
fn window(b: &[u8], off: u32, len: u32) -> &[u8] {
    let start = (off as usize).min(b.len());
    let end = start.saturating_add(len as usize).min(b.len());
    &b[start..end]
}
