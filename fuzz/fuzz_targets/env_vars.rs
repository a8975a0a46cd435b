//! UV_THREADPOOL_SIZE (libuv's rules) and the SLUICE_* variables: never a
//! panic; libuv's size is always 1..=1024; a SLUICE_* value is either
//! accepted or refused with an error naming the variable.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let n = sluice::compat::libuv_nthreads(Some(&text));
    assert!((1..=1024).contains(&n), "{n}");
    for var in sluice::ENV_VARS {
        let value = text.to_string();
        let lookup = move |k: &str| (k == var).then(|| value.clone());
        if let Err(e) = sluice::Builder::from_vars(lookup) {
            assert!(e.to_string().contains(var), "{e}");
        }
    }
});
