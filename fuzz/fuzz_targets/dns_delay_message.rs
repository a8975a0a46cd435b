//! One message into the DNS delay server's handling: never a panic; an
//! answer, when there is one, parses as a DNS response with the query's id.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sluice_testnet::dns_delay::{DelayConfig, answer_once};
use std::sync::LazyLock;

static CONFIG: LazyLock<DelayConfig> = LazyLock::new(|| {
    let mut c = DelayConfig {
        fast: vec!["*.fast.test".parse().unwrap()],
        ..DelayConfig::default()
    };
    c.answer("::2".parse().unwrap());
    c
});

fuzz_target!(|data: &[u8]| {
    if let Some(answer) = answer_once(&CONFIG, data) {
        assert!(answer.len() >= 12, "a DNS header at least");
        assert_eq!(answer[..2], data[..2], "the query's id");
        assert!(answer[2] & 0x80 != 0, "the QR bit: a response");
    }
});
