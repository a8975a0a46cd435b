//! gunzip against a reference with Node's rules: `sluice::zlib::gunzip_sync`
//! (zlib's inflate, Node's member loop) and the reference of
//! `crates/sluice/tests/support/gunzip_ref.rs` (its own RFC 1952 parser, a
//! port of zlib's puff.c, Node's member rules) must answer alike: the same
//! bytes, or the same refusal (Z_DATA_ERROR with the same zlib message,
//! Z_BUF_ERROR, or too large). `tests/gunzip_differential.rs` runs the same
//! comparison as a fixed-seed smoke on stable.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../crates/sluice/tests/support/gunzip_ref.rs"]
mod gunzip_ref;

/// Output refused past 4 MiB, by both (a deflate bomb stays cheap).
const LIMIT: usize = 4 << 20;

fuzz_target!(|data: &[u8]| {
    if let Err(e) = gunzip_ref::compare(data, LIMIT) {
        panic!("{e}");
    }
});
