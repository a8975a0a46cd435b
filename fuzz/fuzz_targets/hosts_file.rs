//! The hosts-file parser: never a panic; every name it returns is
//! lowercase, non-empty and has at least one address.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    for (name, addrs) in sluice_dns::parse_hosts(&text) {
        assert!(!name.is_empty());
        assert_eq!(name, name.to_ascii_lowercase());
        assert!(!addrs.is_empty());
    }
});
