//! Hooks for the package's tests, built only with the cargo feature
//! `test-hooks` (`node scripts/build.js`, the debug build the tests use):
//! never in a release build or a prebuilt addon (`scripts/prebuild.js`
//! refuses one that has them).

use crate::outcome::{Done, Failure, libc_enomem};
use crate::pool::submit;
use napi_derive::napi;
use sluice::Lane;

/// A task that panics on the `Cpu` lane: the test of "a panic becomes a
/// rejected promise".
#[napi]
pub fn panic_for_test(slot: u32, message: String) -> napi::Result<f64> {
    submit(slot, Lane::Cpu, move || panic!("{message}"))
}

/// An outcome of `len` zero bytes, allocated untouched (the kernel maps
/// zero pages only when they are read): the test of a result past
/// `buffer.kMaxLength` that V8 refuses, which must settle its own call
/// with an error and leave the rest of the batch alone. As every operation
/// does, it checks the size against `max_buffer` (the limit the inbox hands
/// JavaScript, `buffer.constants.MAX_LENGTH`) before it allocates, and
/// asks the allocator with `try_reserve`: a size past what can be
/// allocated (2^53 bytes, Node 22's `MAX_LENGTH`, where the tests lift the
/// limit) settles with `ENOMEM` instead of aborting the process.
#[napi]
pub fn oversized_for_test(slot: u32, len: f64, max_buffer: f64) -> napi::Result<f64> {
    submit(slot, Lane::FastIo, move || {
        if len > max_buffer {
            return Done::Fail(Failure::buffer_too_large(max_buffer as usize));
        }
        // A length past the address space is one no allocator has room for.
        let len = if len >= usize::MAX as f64 {
            usize::MAX
        } else {
            len as usize
        };
        match zeroed(len) {
            Some(bytes) => Done::Bytes(bytes),
            None => {
                let e = std::io::Error::from_raw_os_error(libc_enomem());
                Done::Fail(Failure::sys(&e, "read", false))
            }
        }
    })
}

/// `len` zero bytes from the allocator's zeroed memory (untouched pages,
/// as `vec![0; len]` gets them), or `None` where it has no room: `vec!`
/// would abort the process there.
#[allow(unsafe_code)]
fn zeroed(len: usize) -> Option<Vec<u8>> {
    if len == 0 {
        return Some(Vec::new());
    }
    // Refuses a size past isize::MAX, which no allocation can have.
    let layout = std::alloc::Layout::array::<u8>(len).ok()?;
    // SAFETY: `layout` has a non-zero size (len > 0), as `alloc_zeroed` asks.
    let ptr = unsafe { std::alloc::alloc_zeroed(layout) };
    if ptr.is_null() {
        return None;
    }
    // SAFETY: `ptr` comes from the global allocator with `layout` (size
    // `len`, alignment 1, u8's), its `len` bytes are initialised (zeroed),
    // and the Vec takes sole ownership with capacity `len`, the allocated size.
    Some(unsafe { Vec::from_raw_parts(ptr, len, len) })
}
