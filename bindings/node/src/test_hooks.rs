//! Hooks for the package's tests, built only with the cargo feature
//! `test-hooks` (`node scripts/build.js`, the debug build the tests use):
//! never in a release build or a prebuilt addon (`scripts/prebuild.js`
//! refuses one that has them).

use crate::inbox::Inbox;
use crate::outcome::Done;
use crate::pool::submit;
use napi_derive::napi;
use sluice::Lane;

/// A task that panics on the `Cpu` lane: the test of "a panic becomes a
/// rejected promise".
#[napi]
pub fn panic_for_test(inbox: &Inbox, message: String) -> napi::Result<f64> {
    submit(inbox, Lane::Cpu, move || panic!("{message}"))
}

/// An outcome of `len` zero bytes, allocated untouched (the kernel maps
/// zero pages only when they are read): the test of a result past
/// `buffer.kMaxLength` that V8 refuses, which must settle its own call
/// with an error and leave the rest of the batch alone.
#[napi]
pub fn oversized_for_test(inbox: &Inbox, len: f64) -> napi::Result<f64> {
    let len = len as usize;
    submit(inbox, Lane::FastIo, move || Done::Bytes(vec![0u8; len]))
}
