//! Listening TCP sockets in a process's network namespace, and which of
//! them the process holds: `/proc/PID/net/tcp` and `tcp6` list the
//! namespace's sockets (state `0A` is LISTEN) with their inodes;
//! `/proc/PID/fd/*` links to `socket:[INODE]` for the ones it holds. This
//! tells "the inspector is open" from "someone else has the port" without
//! sending a byte.

use crate::target::proc::{self, io_error};
use procfs::net::{TcpNetEntry, TcpState};
use procfs::process::FDTarget;
use std::collections::HashSet;
use std::io;
use std::net::SocketAddr;

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
    let process = proc::process(pid)?;
    let mut out = listeners(process.tcp().map_err(io_error)?);
    match process.tcp6().map_err(io_error) {
        Ok(v6) => out.extend(listeners(v6)),
        Err(e) if e.kind() == io::ErrorKind::NotFound => {} // no IPv6
        Err(e) => return Err(e),
    }
    Ok(out)
}

/// The socket inodes process `pid` holds open; descriptors closed while
/// they are read are left out.
pub fn held_inodes(pid: u32) -> io::Result<HashSet<u64>> {
    let fds = proc::process(pid)?.fd().map_err(io_error)?;
    let mut out = HashSet::new();
    for fd in fds {
        if let FDTarget::Socket(inode) = fd.map_err(io_error)?.target {
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
            let comm = proc::process(pid)
                .ok()
                .and_then(|p| p.stat().ok())
                .map(|s| s.comm)
                .unwrap_or_default();
            return Some(format!("process {pid} ({})", comm.trim()));
        }
    }
    None
}

/// The LISTEN rows of one `/proc/net/tcp{,6}` table.
fn listeners(table: Vec<TcpNetEntry>) -> Vec<Listener> {
    table
        .into_iter()
        .filter(|e| e.state == TcpState::Listen)
        .map(|e| Listener {
            addr: e.local_address,
            inode: e.inode,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One table's LISTEN rows, parsed by `procfs` as the live file is.
    fn parse_table(text: &str, _v6: bool) -> Vec<Listener> {
        use procfs::FromReadSI;
        let table =
            procfs::net::TcpNetEntries::from_read(text.as_bytes(), procfs::current_system_info())
                .unwrap();
        listeners(table.0)
    }

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
