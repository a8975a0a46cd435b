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

pub(super) type Alloc = Option<unsafe extern "C" fn(*mut c_void, usize) -> *mut c_void>;
pub(super) type Free = Option<unsafe extern "C" fn(*mut c_void, *mut c_void)>;

/// The address of `name` among the process's exported symbols, or null.
pub(super) fn symbol(name: &str) -> *mut c_void {
    let Ok(name) = std::ffi::CString::new(name) else {
        return std::ptr::null_mut();
    };
    // SAFETY: dlsym with RTLD_DEFAULT (the null handle on glibc and musl)
    // searches the global scope and only reads the NUL-terminated name.
    unsafe { libc::dlsym(std::ptr::null_mut(), name.as_ptr()) }
}

/// A struct of C functions found by name among the process's exported
/// symbols, each field written once with its symbol and its type, and the
/// function that finds them all, once (`None` where one is missing).
macro_rules! exported_fns {
    (
        $(#[$doc:meta])*
        $name:ident, $find:ident {
            $($field:ident: $symbol:literal => $t:ty,)*
        }
    ) => {
        $(#[$doc])*
        pub(super) struct $name {
            $(pub(super) $field: $t,)*
        }

        pub(super) fn $find() -> Option<&'static $name> {
            static FNS: OnceLock<Option<$name>> = OnceLock::new();
            FNS.get_or_init(|| {
                Some($name {
                    $($field: {
                        let p = symbol($symbol);
                        if p.is_null() {
                            return None;
                        }
                        // SAFETY: `p` is the non-null address of the exported
                        // C function of that name, whose signature `$t`
                        // copies from zlib.h / brotli's encode.h and decode.h
                        // (the libraries Node's zlib module calls).
                        unsafe { std::mem::transmute::<*mut c_void, $t>(p) }
                    },)*
                })
            })
            .as_ref()
        }
    };
}

// The unprefixed names: Node's zlib module's (its `Cr_z_` names, where a
// build has them too, are another copy, whose deflate chooses other
// matches).
exported_fns! {
    /// The zlib functions Node's zlib module calls, from the process.
    ZlibFns, zlib_fns {
        version: "zlibVersion" => unsafe extern "C" fn() -> *const c_char,
        deflate_init2: "deflateInit2_" => unsafe extern "C" fn(
            *mut ZStream,
            c_int,
            c_int,
            c_int,
            c_int,
            c_int,
            *const c_char,
            c_int,
        ) -> c_int,
        deflate: "deflate" => ZFn,
        deflate_end: "deflateEnd" => ZEnd,
        deflate_reset: "deflateReset" => ZEnd,
        deflate_params: "deflateParams" => unsafe extern "C" fn(*mut ZStream, c_int, c_int) -> c_int,
        deflate_set_dictionary: "deflateSetDictionary" => ZDict,
        inflate_init2: "inflateInit2_" =>
            unsafe extern "C" fn(*mut ZStream, c_int, *const c_char, c_int) -> c_int,
        inflate: "inflate" => ZFn,
        inflate_end: "inflateEnd" => ZEnd,
        inflate_reset: "inflateReset" => ZEnd,
        inflate_set_dictionary: "inflateSetDictionary" => ZDict,
    }
}

exported_fns! {
    /// The brotli functions Node's zlib module calls, from the process.
    BrotliFns, brotli_fns {
        enc_create: "BrotliEncoderCreateInstance" =>
            unsafe extern "C" fn(Alloc, Free, *mut c_void) -> *mut c_void,
        enc_set: "BrotliEncoderSetParameter" => unsafe extern "C" fn(*mut c_void, c_int, u32) -> c_int,
        enc_stream: "BrotliEncoderCompressStream" => unsafe extern "C" fn(
            *mut c_void,
            c_int,
            *mut usize,
            *mut *const u8,
            *mut usize,
            *mut *mut u8,
            *mut usize,
        ) -> c_int,
        enc_destroy: "BrotliEncoderDestroyInstance" => unsafe extern "C" fn(*mut c_void),
        dec_create: "BrotliDecoderCreateInstance" =>
            unsafe extern "C" fn(Alloc, Free, *mut c_void) -> *mut c_void,
        dec_set: "BrotliDecoderSetParameter" => unsafe extern "C" fn(*mut c_void, c_int, u32) -> c_int,
        dec_stream: "BrotliDecoderDecompressStream" => unsafe extern "C" fn(
            *mut c_void,
            *mut usize,
            *mut *const u8,
            *mut usize,
            *mut *mut u8,
            *mut usize,
        ) -> c_int,
        dec_error_code: "BrotliDecoderGetErrorCode" => unsafe extern "C" fn(*mut c_void) -> c_int,
        dec_error_string: "BrotliDecoderErrorString" => unsafe extern "C" fn(c_int) -> *const c_char,
        dec_destroy: "BrotliDecoderDestroyInstance" => unsafe extern "C" fn(*mut c_void),
    }
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
