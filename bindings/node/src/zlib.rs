//! `zlib.gzip` and `zlib.gunzip` on the `Cpu` lane, with Node's rules and
//! messages.

use crate::outcome::{Done, Failure, libc_enomem};
use crate::pool::submit;
use napi::bindgen_prelude::Buffer;
use napi_derive::napi;
use sluice::Lane;

/// `zlib.gzip(buffer, { level })` on the `Cpu` lane; `level` -1 is zlib's
/// default (6).
#[napi]
pub fn gzip(slot: u32, data: Buffer, level: i32) -> napi::Result<f64> {
    let level = if level < 0 {
        sluice::zlib::DEFAULT_LEVEL
    } else {
        level.unsigned_abs()
    };
    let data = data.to_vec();
    submit(slot, Lane::Cpu, move || {
        match sluice::zlib::gzip_sync(&data, level) {
            Ok(packed) => Done::Bytes(packed),
            Err(e) => Done::Fail(Failure::message("invalid", None, e.to_string())),
        }
    })
}

/// `zlib.gunzip(buffer, { maxOutputLength })` on the `Cpu` lane, with
/// Node's rules and messages (`sluice::zlib::gunzip_sync`: members in turn,
/// zero padding ends the data, other trailing bytes are read as a member).
/// Output past `max_output` bytes (the caller's `maxOutputLength`, else
/// `buffer.kMaxLength`) stops the inflation with Node's
/// `ERR_BUFFER_TOO_LARGE`.
#[napi]
pub fn gunzip(slot: u32, data: Buffer, max_output: f64) -> napi::Result<f64> {
    let data = data.to_vec();
    // A limit past the address space is no limit at all.
    let max = if max_output >= usize::MAX as f64 {
        usize::MAX
    } else {
        max_output.max(0.0) as usize
    };
    submit(slot, Lane::Cpu, move || gunzip_members(&data, max))
}

pub(crate) fn gunzip_members(data: &[u8], max: usize) -> Done {
    use sluice::zlib::GunzipError;
    match sluice::zlib::gunzip_sync(data, max) {
        Ok(out) => Done::Bytes(out),
        Err(GunzipError::TooLarge { .. }) => Done::Fail(Failure::buffer_too_large(max)),
        Err(GunzipError::NoMemory) => Done::Fail(Failure::sys(
            &std::io::Error::from_raw_os_error(libc_enomem()),
            "inflate",
            false,
        )),
        Err(e) => Done::Fail(Failure::message("zlib", Some(e.code()), e.to_string())),
    }
}
