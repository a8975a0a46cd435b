//! Numeric hosts as glibc's `getaddrinfo` reads them before it asks any
//! source: IPv4 in every form `inet_aton` accepts (`127.1`, `2130706433`,
//! `0x7f.0.0.1`, octal `0177.0.0.1`), the whole string and nothing after
//! it, then IPv6 as `inet_pton` reads it.

use std::net::{IpAddr, Ipv4Addr};

/// `host` as an address, the way glibc's `getaddrinfo` parses it without
/// asking a source: `inet_aton`'s forms first, then an IPv6 literal.
/// `None`: a name to look up.
///
/// ```
/// use sluice_dns::parse_numeric;
/// use std::net::IpAddr;
/// let ip = |s: &str| s.parse::<IpAddr>().unwrap();
/// assert_eq!(parse_numeric("127.1"), Some(ip("127.0.0.1")));
/// assert_eq!(parse_numeric("2130706433"), Some(ip("127.0.0.1")));
/// assert_eq!(parse_numeric("0x7f.0.0.1"), Some(ip("127.0.0.1")));
/// assert_eq!(parse_numeric("0177.0.0.1"), Some(ip("127.0.0.1")));
/// assert_eq!(parse_numeric("1.2.3"), Some(ip("1.2.0.3")));
/// assert_eq!(parse_numeric("::1"), Some(ip("::1")));
/// assert_eq!(parse_numeric("08.0.0.1"), None);   // 8 is not an octal digit: a name
/// assert_eq!(parse_numeric("127.0.0.1."), None); // a trailing dot: a name
/// ```
pub fn parse_numeric(host: &str) -> Option<IpAddr> {
    inet_aton(host)
        .map(IpAddr::V4)
        .or_else(|| host.parse::<std::net::Ipv6Addr>().ok().map(IpAddr::V6))
}

/// glibc's `__inet_aton_exact`: one to four parts separated by dots, each
/// decimal, octal (a leading `0`) or hex (`0x`); the last part fills the
/// bytes the others leave (`a.b.c` is `a.b.0.c` when `c` < 256).
fn inet_aton(s: &str) -> Option<Ipv4Addr> {
    let mut parts = [0u32; 4];
    let mut n = 0;
    for part in s.split('.') {
        if n == 4 {
            return None;
        }
        parts[n] = number(part)?;
        n += 1;
    }
    let (head, last) = (&parts[..n - 1], parts[n - 1]);
    if head.iter().any(|&p| p > 0xff) {
        return None;
    }
    let room = 8 * (5 - n as u32); // bits the last part may fill
    if room < 32 && last >> room != 0 {
        return None;
    }
    let value = head
        .iter()
        .enumerate()
        .fold(last, |acc, (i, &p)| acc | p << (24 - 8 * i as u32));
    Some(Ipv4Addr::from(value))
}

/// One part: `0x…` hex (at least one digit), `0…` octal, else decimal; at
/// most 32 bits.
fn number(part: &str) -> Option<u32> {
    let (digits, radix) =
        if let Some(hex) = part.strip_prefix("0x").or_else(|| part.strip_prefix("0X")) {
            (hex, 16)
        } else if part.len() > 1 && part.starts_with('0') {
            (&part[1..], 8)
        } else {
            (part, 10)
        };
    if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
        return None;
    }
    let mut value: u64 = 0;
    for c in digits.chars() {
        value = value * u64::from(radix) + u64::from(c.to_digit(radix)?);
        if value > u64::from(u32::MAX) {
            return None;
        }
    }
    u32::try_from(value).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What glibc 2.36's `getaddrinfo(host, AF_INET)` gave for each (read
    /// through Node's `dns.lookup`, which passes these to it), `None` where
    /// it looked the string up as a name.
    #[test]
    fn inet_aton_forms_as_glibc_reads_them() {
        let cases: &[(&str, Option<&str>)] = &[
            ("127.1", Some("127.0.0.1")),
            ("2130706433", Some("127.0.0.1")),
            ("0x7f.0.0.1", Some("127.0.0.1")),
            ("0X7F.1", Some("127.0.0.1")),
            ("0x7F.0x1", Some("127.0.0.1")),
            ("1.2.3", Some("1.2.0.3")),
            ("0177.0.0.1", Some("127.0.0.1")),
            ("01.02.03.04", Some("1.2.3.4")),
            ("1.2.3.04", Some("1.2.3.4")),
            ("0", Some("0.0.0.0")),
            ("00", Some("0.0.0.0")),
            ("0xffffffff", Some("255.255.255.255")),
            ("4294967295", Some("255.255.255.255")),
            ("037777777777", Some("255.255.255.255")),
            ("00000000000000000000001", Some("0.0.0.1")),
            ("0x0000000000000001", Some("0.0.0.1")),
            ("1.16777215", Some("1.255.255.255")),
            ("1.2.65535", Some("1.2.255.255")),
            ("0x", None),
            ("0x.1", None),
            ("1.0x", None),
            ("0xg", None),
            ("09", None),
            ("08.0.0.1", None),
            ("1.2.3.08", None),
            ("1e2", None),
            ("1.16777216", None),
            ("1.2.65536", None),
            ("255.255.255.256", None),
            ("0x1ffffffff", None),
            ("040000000000", None),
            ("4294967296", None),
            ("1.2.3.4.5", None),
            ("1.2.3.4.", None),
            (".1.2.3", None),
            ("127.0.0.1.", None),
            ("127.1 x", None),
            (" 127.1", None),
            ("", None),
        ];
        for (host, want) in cases {
            let want = want.map(|w| w.parse::<Ipv4Addr>().unwrap());
            assert_eq!(inet_aton(host), want, "{host:?}");
        }
    }

    #[test]
    fn ipv6_literals_after_inet_aton() {
        assert_eq!(parse_numeric("::1"), Some("::1".parse().unwrap()));
        assert_eq!(
            parse_numeric("::ffff:1.2.3.4"),
            Some("::ffff:1.2.3.4".parse().unwrap())
        );
        assert_eq!(parse_numeric("::ffff:127.1"), None);
        assert_eq!(parse_numeric("[::1]"), None);
    }
}
