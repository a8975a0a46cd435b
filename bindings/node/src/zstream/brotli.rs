//! `node_zlib.cc`'s `BrotliEncoderContext` / `BrotliDecoderContext`.

#![allow(unsafe_code)]

use super::ffi::*;
use std::ffi::{CStr, c_int, c_void};

/// `BrotliEncoderContext` / `BrotliDecoderContext`.
pub(super) struct BrotliEngine {
    fns: &'static BrotliFns,
    encode: bool,
    state: *mut c_void,
    flush: c_int,
    last_result: c_int,
    error: c_int,
    error_string: String,
    pub(super) avail_out: usize,
    /// The encoder's quality (`BROTLI_PARAM_QUALITY`), brotli's default
    /// until set.
    quality: u32,
}

/// `BROTLI_PARAM_QUALITY` (the encoder's parameter 1).
const PARAM_QUALITY: u32 = 1;
/// brotli's default quality (`BROTLI_DEFAULT_QUALITY`).
const DEFAULT_QUALITY: u32 = 11;
/// The highest encoder quality whose small writes run on the loop's thread:
/// up to 5, brotli compresses a few KiB in tens of microseconds (the
/// `compression` middleware's default is 4); from 10 on it takes
/// milliseconds.
const QUICK_QUALITY: u32 = 5;

// SAFETY: the state is brotli's heap memory, used by one thread at a time
// (under the handle's mutex); brotli keeps no thread-local state.
unsafe impl Send for BrotliEngine {}

impl BrotliEngine {
    /// Whether a small write is quick: a decoder's always, an encoder's at
    /// a quality of [`QUICK_QUALITY`] or less (brotli's default, 11, is
    /// slow: its writes never run on the loop's thread).
    pub(super) fn quick(&self) -> bool {
        !self.encode || self.quality <= QUICK_QUALITY
    }

    pub(super) fn new(fns: &'static BrotliFns, encode: bool) -> BrotliEngine {
        BrotliEngine {
            fns,
            encode,
            state: std::ptr::null_mut(),
            flush: 0,
            last_result: 1,
            error: 0,
            error_string: String::new(),
            avail_out: 0,
            quality: DEFAULT_QUALITY,
        }
    }

    pub(super) fn destroy(&mut self) {
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
    pub(super) fn init(&mut self) -> Result<(), ZError> {
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

    pub(super) fn set_param(&mut self, key: u32, value: u32) -> Result<(), ZError> {
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
        if self.encode && key == PARAM_QUALITY {
            self.quality = value;
        }
        Ok(())
    }

    pub(super) fn write(
        &mut self,
        flush: c_int,
        input: &[u8],
        out: &mut [u8],
    ) -> Result<usize, ZError> {
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

    pub(super) fn error_info(&self) -> Result<(), ZError> {
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
