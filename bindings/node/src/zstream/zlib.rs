//! `node_zlib.cc`'s `ZlibContext`: one zlib stream of any of Node's zlib
//! modes (deflate, inflate, gzip, gunzip, raw, unzip).

#![allow(unsafe_code)]

use super::ffi::*;
use std::ffi::{CStr, c_int, c_uint};

/// `node_zlib.cc`'s `ZlibContext`.
pub(super) struct ZlibEngine {
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
    pub(super) fn new(fns: &'static ZlibFns, mode: u32) -> ZlibEngine {
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

    pub(super) fn is_deflate(&self) -> bool {
        matches!(self.mode, DEFLATE | GZIP | DEFLATERAW)
    }

    pub(super) fn error(&self, message: &str) -> ZError {
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

    pub(super) fn init(
        &mut self,
        level: i32,
        window_bits: i32,
        mem_level: i32,
        strategy: i32,
        dict: Vec<u8>,
    ) {
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
    pub(super) fn init_zlib(&mut self) -> bool {
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

    pub(super) fn set_dictionary(&mut self) -> Result<(), ZError> {
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

    pub(super) fn params(&mut self, level: i32, strategy: i32) -> Result<(), ZError> {
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

    pub(super) fn reset(&mut self) -> Result<(), ZError> {
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
    pub(super) fn write(
        &mut self,
        flush: c_int,
        input: &[u8],
        out: &mut [u8],
    ) -> Result<usize, ZError> {
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
    pub(super) fn avail_out(&self) -> u32 {
        self.strm.avail_out
    }

    pub(super) fn work(&mut self) {
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
    pub(super) fn sniff_gzip(&mut self) {
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

    pub(super) fn error_info(&self) -> Result<(), ZError> {
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

    pub(super) fn close(&mut self) {
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
