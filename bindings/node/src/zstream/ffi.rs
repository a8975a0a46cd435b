//! The C side of the streams: Node's mode numbers, zlib's `z_stream` and
//! the zlib and brotli functions, found by name among the symbols the
//! process exports, and `node_zlib.cc`'s error shape.

#![allow(unsafe_code)]

use crate::outcome::Failure;
use std::ffi::{c_char, c_int, c_uint, c_ulong, c_void};
use std::sync::OnceLock;

// Node's modes (`node_zlib.h`).
pub(super) const NONE: u32 = 0;
pub(super) const DEFLATE: u32 = 1;
pub(super) const INFLATE: u32 = 2;
pub(super) const GZIP: u32 = 3;
pub(super) const GUNZIP: u32 = 4;
pub(super) const DEFLATERAW: u32 = 5;
pub(super) const INFLATERAW: u32 = 6;
pub(super) const UNZIP: u32 = 7;
pub(super) const BROTLI_DECODE: u32 = 8;
pub(super) const BROTLI_ENCODE: u32 = 9;

pub(super) const Z_NO_FLUSH: c_int = 0;
pub(super) const Z_FINISH: c_int = 4;
pub(super) const Z_OK: c_int = 0;
pub(super) const Z_STREAM_END: c_int = 1;
pub(super) const Z_NEED_DICT: c_int = 2;
pub(super) const Z_DATA_ERROR: c_int = -3;
pub(super) const Z_BUF_ERROR: c_int = -5;
pub(super) const Z_DEFLATED: c_int = 8;

pub(super) const BROTLI_OPERATION_FINISH: c_int = 2;
pub(super) const BROTLI_DECODER_RESULT_ERROR: c_int = 0;
pub(super) const BROTLI_DECODER_RESULT_NEEDS_MORE_INPUT: c_int = 2;

/// zlib's `z_stream` (zlib.h), the same in Chromium's fork.
#[repr(C)]
pub(super) struct ZStream {
    pub(super) next_in: *const u8,
    pub(super) avail_in: c_uint,
    pub(super) total_in: c_ulong,
    pub(super) next_out: *mut u8,
    pub(super) avail_out: c_uint,
    pub(super) total_out: c_ulong,
    pub(super) msg: *const c_char,
    pub(super) state: *mut c_void,
    pub(super) zalloc: Option<unsafe extern "C" fn(*mut c_void, c_uint, c_uint) -> *mut c_void>,
    pub(super) zfree: Option<unsafe extern "C" fn(*mut c_void, *mut c_void)>,
    pub(super) opaque: *mut c_void,
    pub(super) data_type: c_int,
    pub(super) adler: c_ulong,
    pub(super) reserved: c_ulong,
}

pub(super) type ZFn = unsafe extern "C" fn(*mut ZStream, c_int) -> c_int;
pub(super) type ZEnd = unsafe extern "C" fn(*mut ZStream) -> c_int;
pub(super) type ZDict = unsafe extern "C" fn(*mut ZStream, *const u8, c_uint) -> c_int;

/// The zlib functions Node's zlib module calls, from the process.
pub(super) struct ZlibFns {
    pub(super) version: unsafe extern "C" fn() -> *const c_char,
    pub(super) deflate_init2: unsafe extern "C" fn(
        *mut ZStream,
        c_int,
        c_int,
        c_int,
        c_int,
        c_int,
        *const c_char,
        c_int,
    ) -> c_int,
    pub(super) deflate: ZFn,
    pub(super) deflate_end: ZEnd,
    pub(super) deflate_reset: ZEnd,
    pub(super) deflate_params: unsafe extern "C" fn(*mut ZStream, c_int, c_int) -> c_int,
    pub(super) deflate_set_dictionary: ZDict,
    pub(super) inflate_init2:
        unsafe extern "C" fn(*mut ZStream, c_int, *const c_char, c_int) -> c_int,
    pub(super) inflate: ZFn,
    pub(super) inflate_end: ZEnd,
    pub(super) inflate_reset: ZEnd,
    pub(super) inflate_set_dictionary: ZDict,
}

pub(super) type Alloc = Option<unsafe extern "C" fn(*mut c_void, usize) -> *mut c_void>;
pub(super) type Free = Option<unsafe extern "C" fn(*mut c_void, *mut c_void)>;

/// The brotli functions Node's zlib module calls, from the process.
pub(super) struct BrotliFns {
    pub(super) enc_create: unsafe extern "C" fn(Alloc, Free, *mut c_void) -> *mut c_void,
    pub(super) enc_set: unsafe extern "C" fn(*mut c_void, c_int, u32) -> c_int,
    pub(super) enc_stream: unsafe extern "C" fn(
        *mut c_void,
        c_int,
        *mut usize,
        *mut *const u8,
        *mut usize,
        *mut *mut u8,
        *mut usize,
    ) -> c_int,
    pub(super) enc_destroy: unsafe extern "C" fn(*mut c_void),
    pub(super) dec_create: unsafe extern "C" fn(Alloc, Free, *mut c_void) -> *mut c_void,
    pub(super) dec_set: unsafe extern "C" fn(*mut c_void, c_int, u32) -> c_int,
    pub(super) dec_stream: unsafe extern "C" fn(
        *mut c_void,
        *mut usize,
        *mut *const u8,
        *mut usize,
        *mut *mut u8,
        *mut usize,
    ) -> c_int,
    pub(super) dec_error_code: unsafe extern "C" fn(*mut c_void) -> c_int,
    pub(super) dec_error_string: unsafe extern "C" fn(c_int) -> *const c_char,
    pub(super) dec_destroy: unsafe extern "C" fn(*mut c_void),
}

/// The address of `name` among the process's exported symbols, or null.
pub(super) fn symbol(name: &str) -> *mut c_void {
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

pub(super) fn zlib_fns() -> Option<&'static ZlibFns> {
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

pub(super) fn brotli_fns() -> Option<&'static BrotliFns> {
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

/// An error as `node_zlib.cc`'s `CompressionError`: `handle.onerror`'s
/// `(message, errno, code)`.
pub(super) struct ZError {
    pub(super) message: String,
    pub(super) code: String,
    pub(super) errno: i32,
}

impl ZError {
    pub(super) fn new(message: &str, code: &str, errno: i32) -> ZError {
        ZError {
            message: message.into(),
            code: code.into(),
            errno,
        }
    }

    pub(super) fn failure(self) -> Failure {
        Failure {
            errno: Some(self.errno),
            ..Failure::message("zlib", Some(&self.code), self.message)
        }
    }
}

pub(super) fn zlib_strerror(err: c_int) -> &'static str {
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
