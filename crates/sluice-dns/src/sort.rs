//! The order of answers: glibc's `getaddrinfo` sorts every answer with
//! more than one address by RFC 3484/6724's destination address selection
//! with glibc's default tables (those of an `/etc/gai.conf` that sets
//! nothing), and so does [`sort`].
//!
//! Each destination's source address is what the kernel would pick: a UDP
//! socket is connected to it (no packet is sent) and its local address
//! read, as glibc does. The rules glibc applies, in order:
//!
//! 1. reachable (a source address exists) before unreachable;
//! 2. matching scope of source and destination first;
//! 5. matching label of source and destination first;
//! 6. higher precedence first;
//! 8. smaller scope first;
//! 9. longest prefix shared with the source first (IPv6; for IPv4 only a
//!    destination that is its own source, see `common_bits`);
//! 10. otherwise the order the source gave.
//!
//! Rules 3, 4 and 7 (deprecated, home and tunnelled source addresses) need
//! the kernel's address flags, which glibc reads over netlink; they cannot
//! tell apart the loopback and plain addresses sluice is compared with, and
//! are not applied here.

use std::net::{IpAddr, Ipv6Addr, SocketAddr, UdpSocket};

/// glibc's default label table (`default_labels`): prefix, length, label.
const LABELS: &[(u128, u32, u8)] = &[
    (1, 128, 0),            // ::1
    (0x2002 << 112, 16, 2), // 2002::/16
    (0, 96, 3),             // ::/96
    (0xffff << 32, 96, 4),  // ::ffff:0:0/96
    (0xfec0 << 112, 10, 5), // fec0::/10
    (0xfc00 << 112, 7, 6),  // fc00::/7
    (0x2001 << 112, 32, 7), // 2001::/32
    (0, 0, 1),              // ::/0
];

/// glibc's default precedence table (`default_precedence`, RFC 3484's).
const PRECEDENCE: &[(u128, u32, u8)] = &[
    (1, 128, 50),            // ::1
    (0x2002 << 112, 16, 30), // 2002::/16
    (0, 96, 20),             // ::/96
    (0xffff << 32, 96, 10),  // ::ffff:0:0/96
    (0, 0, 40),              // ::/0
];

/// `ip` as glibc's tables see it: IPv4 as IPv4-mapped IPv6.
fn as_v6(ip: IpAddr) -> u128 {
    match ip {
        IpAddr::V4(v4) => u128::from(v4.to_ipv6_mapped()),
        IpAddr::V6(v6) => u128::from(v6),
    }
}

fn lookup(table: &[(u128, u32, u8)], ip: IpAddr) -> u8 {
    let a = as_v6(ip);
    table
        .iter()
        .find(|(prefix, len, _)| *len == 0 || (a ^ prefix) >> (128 - len) == 0)
        .map_or(0, |&(_, _, v)| v)
}

/// glibc's `get_scope`: 2 link-local (and loopback), 5 site-local, 14
/// global; IPv4 169.254/16 and 127/8 are link-local, the rest global.
fn scope(ip: IpAddr) -> u8 {
    match ip {
        IpAddr::V4(v4) => {
            let o = v4.octets();
            if (o[0] == 169 && o[1] == 254) || o[0] == 127 {
                2
            } else {
                14
            }
        }
        IpAddr::V6(v6) => {
            let s = v6.segments();
            if v6.is_multicast() {
                v6.octets()[1] & 0xf
            } else if (s[0] & 0xffc0) == 0xfe80 || v6 == Ipv6Addr::LOCALHOST {
                2
            } else if (s[0] & 0xffc0) == 0xfec0 {
                5
            } else {
                14
            }
        }
    }
}

/// The source address the kernel would use to reach `ip`, if any.
fn source(ip: IpAddr) -> Option<IpAddr> {
    let local: SocketAddr = match ip {
        IpAddr::V4(_) => (std::net::Ipv4Addr::UNSPECIFIED, 0).into(),
        IpAddr::V6(_) => (Ipv6Addr::UNSPECIFIED, 0).into(),
    };
    let socket = UdpSocket::bind(local).ok()?;
    socket.connect((ip, 53)).ok()?;
    socket.local_addr().ok().map(|a| a.ip())
}

/// One destination and what the rules need of it.
struct Candidate {
    ip: IpAddr,
    src: Option<IpAddr>,
    index: usize,
}

/// Rule 9's measure: the leading bits a destination shares with its
/// source. For IPv4, glibc 2.36 counts them only inside the source's
/// subnet, and knows no IPv4 prefix length (its interface list holds IPv6
/// only), so only a destination that *is* its source counts (32). Checked
/// in a namespace: 127.0.0.1 comes before 127.0.0.5 and 127.0.0.3 from lo,
/// and those two keep the hosts file's order either way round.
fn common_bits(c: &Candidate) -> u32 {
    match (c.ip, c.src) {
        (IpAddr::V6(d), Some(IpAddr::V6(s))) => (u128::from(d) ^ u128::from(s)).leading_zeros(),
        (IpAddr::V4(d), Some(IpAddr::V4(s))) if d == s => 32,
        _ => 0,
    }
}

/// Sorts `addrs` as glibc's `getaddrinfo` orders its answer.
pub(crate) fn sort(addrs: &mut [IpAddr]) {
    if addrs.len() < 2 {
        return;
    }
    let mut candidates: Vec<Candidate> = addrs
        .iter()
        .enumerate()
        .map(|(index, &ip)| Candidate {
            ip,
            src: source(ip),
            index,
        })
        .collect();
    let bits: Vec<u32> = candidates.iter().map(common_bits).collect();
    candidates.sort_by(|a, b| {
        use std::cmp::Ordering::Equal;
        let key = |c: &Candidate| {
            let reachable = c.src.is_some();
            let (scope_match, label_match) = match c.src {
                Some(s) => (
                    scope(s) == scope(c.ip),
                    lookup(LABELS, s) == lookup(LABELS, c.ip),
                ),
                None => (false, false),
            };
            (reachable, scope_match, label_match)
        };
        let (ka, kb) = (key(a), key(b));
        // Rules 1, 2 and 5: true first (rules 2 and 5 only when reachable).
        kb.0.cmp(&ka.0)
            .then_with(|| if ka.0 { kb.1.cmp(&ka.1) } else { Equal })
            .then_with(|| if ka.0 { kb.2.cmp(&ka.2) } else { Equal })
            // Rule 6: higher precedence first.
            .then_with(|| lookup(PRECEDENCE, b.ip).cmp(&lookup(PRECEDENCE, a.ip)))
            // Rule 8: smaller scope first.
            .then_with(|| scope(a.ip).cmp(&scope(b.ip)))
            // Rule 9: same family, reachable: longer shared prefix first.
            .then_with(|| {
                if ka.0 && a.ip.is_ipv4() == b.ip.is_ipv4() {
                    bits[b.index].cmp(&bits[a.index])
                } else {
                    Equal
                }
            })
            // Rule 10: as given.
            .then_with(|| a.index.cmp(&b.index))
    });
    for (slot, c) in addrs.iter_mut().zip(candidates) {
        *slot = c.ip;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    #[test]
    fn glibc_tables() {
        assert_eq!(lookup(PRECEDENCE, ip("::1")), 50);
        assert_eq!(lookup(PRECEDENCE, ip("127.0.0.1")), 10);
        assert_eq!(lookup(PRECEDENCE, ip("fd00::2")), 40);
        assert_eq!(lookup(PRECEDENCE, ip("2002::1")), 30);
        assert_eq!(lookup(LABELS, ip("::1")), 0);
        assert_eq!(lookup(LABELS, ip("10.0.0.1")), 4);
        assert_eq!(lookup(LABELS, ip("fd00::1")), 6);
        assert_eq!(lookup(LABELS, ip("2001:0:53::1")), 7); // Teredo
        assert_eq!(lookup(LABELS, ip("2001:db8::1")), 1);
        assert_eq!(lookup(LABELS, ip("2a00::1")), 1);
        assert_eq!(scope(ip("127.0.0.1")), 2);
        assert_eq!(scope(ip("169.254.1.1")), 2);
        assert_eq!(scope(ip("10.0.0.1")), 14);
        assert_eq!(scope(ip("fe80::1")), 2);
        assert_eq!(scope(ip("::1")), 2);
        assert_eq!(scope(ip("ff05::1")), 5);
    }

    #[test]
    fn loopback_v6_first_as_glibc_gives_localhost() {
        let mut v = vec![ip("127.0.0.1"), ip("::1")];
        sort(&mut v);
        // ::1 is reachable wherever lo has it; then its precedence (50)
        // beats 127.0.0.1's (10). Without ::1 on lo, 127.0.0.1 first.
        if source(ip("::1")).is_some() && source(ip("127.0.0.1")).is_some() {
            assert_eq!(v, vec![ip("::1"), ip("127.0.0.1")]);
        } else if source(ip("127.0.0.1")).is_some() {
            assert_eq!(v, vec![ip("127.0.0.1"), ip("::1")]);
        } else {
            eprintln!("skipping: no loopback address is reachable here");
        }
    }

    #[test]
    fn one_address_or_none_is_left_alone() {
        let mut v: Vec<IpAddr> = vec![];
        sort(&mut v);
        let mut one = vec![ip("10.0.0.1")];
        sort(&mut one);
        assert_eq!(one, vec![ip("10.0.0.1")]);
    }
}
