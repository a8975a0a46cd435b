//! Listening TCP sockets in a process's network namespace, and which of
//! them the process holds: `/proc/PID/net/tcp` and `tcp6` list the
//! namespace's sockets (state `0A` is LISTEN) with their inodes;
//! `/proc/PID/fd/*` links to `socket:[INODE]` for the ones it holds. This
//! tells "the inspector is open" from "someone else has the port" without
//! sending a byte.

use std::collections::HashSet;
use std::io;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};

/// One listening socket.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Listener {
    /// Its local address.
    pub addr: SocketAddr,
    /// Its inode.
    pub inode: u64,
}

/// The listening TCP sockets of process `pid`'s network namespace.
pub fn listening(pid: u32) -> io::Result<Vec<Listener>> {
    let mut out = Vec::new();
    for (file, v6) in [("tcp", false), ("tcp6", true)] {
        match std::fs::read_to_string(format!("/proc/{pid}/net/{file}")) {
            Ok(text) => out.extend(parse_table(&text, v6)),
            Err(e) if e.kind() == io::ErrorKind::NotFound && v6 => {} // no IPv6
            Err(e) => return Err(e),
        }
    }
    Ok(out)
}

/// The socket inodes process `pid` holds open.
pub fn held_inodes(pid: u32) -> io::Result<HashSet<u64>> {
    let mut out = HashSet::new();
    for entry in std::fs::read_dir(format!("/proc/{pid}/fd"))? {
        let Ok(link) = std::fs::read_link(entry?.path()) else {
            continue; // closed meanwhile
        };
        if let Some(inode) = link
            .to_str()
            .and_then(|l| l.strip_prefix("socket:["))
            .and_then(|l| l.strip_suffix(']'))
            .and_then(|l| l.parse().ok())
        {
            out.insert(inode);
        }
    }
    Ok(out)
}

/// The listening sockets process `pid` holds.
pub fn held_listeners(pid: u32) -> io::Result<Vec<Listener>> {
    let held = held_inodes(pid)?;
    Ok(listening(pid)?
        .into_iter()
        .filter(|l| held.contains(&l.inode))
        .collect())
}

/// Who holds the socket `inode`: `process 4242 (node)`, from a walk of
/// `/proc/*/fd` (processes this user may read).
pub fn owner_of(inode: u64) -> Option<String> {
    for pid in crate::target::process_ids().ok()? {
        if held_inodes(pid).is_ok_and(|h| h.contains(&inode)) {
            let comm = std::fs::read_to_string(format!("/proc/{pid}/comm")).unwrap_or_default();
            return Some(format!("process {pid} ({})", comm.trim()));
        }
    }
    None
}

/// The LISTEN rows of one `/proc/net/tcp{,6}` table.
fn parse_table(text: &str, v6: bool) -> Vec<Listener> {
    text.lines()
        .skip(1)
        .filter_map(|line| {
            let cols: Vec<&str> = line.split_whitespace().collect();
            if cols.get(3) != Some(&"0A") {
                return None;
            }
            let (ip, port) = cols.get(1)?.split_once(':')?;
            let port = u16::from_str_radix(port, 16).ok()?;
            let ip = if v6 { parse_v6(ip)? } else { parse_v4(ip)? };
            Some(Listener {
                addr: SocketAddr::new(ip, port),
                inode: cols.get(9)?.parse().ok()?,
            })
        })
        .collect()
}

/// `0100007F` (host byte order, little-endian here) is 127.0.0.1.
fn parse_v4(hex: &str) -> Option<IpAddr> {
    let n = u32::from_str_radix(hex, 16).ok()?;
    Some(IpAddr::V4(Ipv4Addr::from(n.to_le_bytes())))
}

/// Four 32-bit words, each in host byte order.
fn parse_v6(hex: &str) -> Option<IpAddr> {
    if hex.len() != 32 {
        return None;
    }
    let mut bytes = [0u8; 16];
    for w in 0..4 {
        let word = u32::from_str_radix(&hex[w * 8..w * 8 + 8], 16).ok()?;
        bytes[w * 4..w * 4 + 4].copy_from_slice(&word.to_le_bytes());
    }
    Some(IpAddr::V6(Ipv6Addr::from(bytes)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_kernel_tables_parse() {
        let v4 = "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n\
           0: 0100007F:2405 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 123456 1 0000000000000000 100 0 0 10 0\n\
           1: 0100007F:2405 0100007F:D431 01 00000000:00000000 00:00000000 00000000     0        0 777 1 0000000000000000 100 0 0 10 0\n";
        assert_eq!(
            parse_table(v4, false),
            [Listener {
                addr: "127.0.0.1:9221".parse().unwrap(),
                inode: 123456
            }]
        );
        let v6 = "  sl  local_address                         remote_address                        st\n\
           0: 00000000000000000000000001000000:2405 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 42 1\n";
        assert_eq!(
            parse_table(v6, true)[0].addr,
            "[::1]:9221".parse::<SocketAddr>().unwrap()
        );
    }

    #[test]
    fn a_listener_of_our_own_is_found_and_held() {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let port = l.local_addr().unwrap().port();
        let me = std::process::id();
        let mine = held_listeners(me).unwrap();
        let found = mine.iter().find(|x| x.addr.port() == port).expect("listed");
        assert!(
            owner_of(found.inode)
                .unwrap()
                .starts_with(&format!("process {me} "))
        );
    }
}
