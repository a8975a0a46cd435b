//! sluice scope's reading of libuv's symbols from an ELF image: arbitrary
//! bytes give an error or a result, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = sluice_scope::target::image::symbols_from_bytes(data);
});
