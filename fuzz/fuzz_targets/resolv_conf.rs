//! resolv.conf and nsswitch.conf parsing (and RES_OPTIONS/LOCALDOMAIN from
//! the environment): never a panic, the documented bounds hold.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sluice_dns::SystemConfig;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    // The input splits into resolv.conf, nsswitch.conf and RES_OPTIONS.
    let mut parts = text.splitn(3, '\u{0}');
    let resolv = parts.next();
    let nsswitch = parts.next();
    let options = parts.next().map(str::to_string);
    let env = move |k: &str| (k == "RES_OPTIONS").then(|| options.clone()).flatten();
    let c = SystemConfig::parse(resolv, nsswitch, &env, Some("host.fuzz.test"));
    assert!(
        c.nameservers.len() <= 3,
        "glibc uses at most three name servers"
    );
    // glibc's caps (resolv/resolv.h), documented on SystemConfig::parse.
    assert!(c.ndots <= 15, "{}", c.ndots);
    assert!((1..=30).contains(&c.timeout.as_secs()), "{:?}", c.timeout);
    assert!((1..=5).contains(&c.attempts), "{}", c.attempts);
    assert!(c.search.iter().all(|d| !d.is_empty()), "{:?}", c.search);
});
