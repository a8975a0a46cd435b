//! Brings the loopback interface up: one `RTM_NEWLINK` request over a
//! netlink socket (what `ip link set lo up` sends), with safe calls only.
//! A new network namespace starts with `lo` down.

use anyhow::{Context, bail};
use nix::sys::socket::{
    AddressFamily, MsgFlags, NetlinkAddr, SockFlag, SockProtocol, SockType, recv, sendto, socket,
};
use std::os::fd::AsRawFd;

const RTM_NEWLINK: u16 = 16;
const NLM_F_REQUEST: u16 = 0x1;
const NLM_F_ACK: u16 = 0x4;
const NLMSG_ERROR: u16 = 2;
const IFF_UP: u32 = 0x1;
const AF_UNSPEC: u8 = 0;

/// Sets `IFF_UP` on `lo` in the current network namespace.
pub(crate) fn up() -> anyhow::Result<()> {
    let index = nix::net::if_::if_nametoindex("lo")
        .context("finding the loopback interface (lo) in the new network namespace")?;
    let fd = socket(
        AddressFamily::Netlink,
        SockType::Raw,
        SockFlag::SOCK_CLOEXEC,
        SockProtocol::NetlinkRoute,
    )
    .context("opening a netlink socket to bring lo up")?;
    let msg = newlink_up(index as i32, 1);
    sendto(
        fd.as_raw_fd(),
        &msg,
        &NetlinkAddr::new(0, 0),
        MsgFlags::empty(),
    )
    .context("asking the kernel to bring lo up")?;
    let mut buf = [0u8; 1024];
    let n = recv(fd.as_raw_fd(), &mut buf, MsgFlags::empty())
        .context("reading the kernel's answer to bringing lo up")?;
    match ack_errno(&buf[..n]) {
        Some(0) => Ok(()),
        Some(errno) => Err(std::io::Error::from_raw_os_error(-errno))
            .context("the kernel refused to bring lo up"),
        None => bail!("the kernel's answer to bringing lo up is not a netlink ack"),
    }
}

/// `struct nlmsghdr` + `struct ifinfomsg`, native endian: set `IFF_UP`
/// (`ifi_change` = `IFF_UP`) on interface `index`.
fn newlink_up(index: i32, seq: u32) -> Vec<u8> {
    let mut m = Vec::with_capacity(32);
    m.extend_from_slice(&32u32.to_ne_bytes()); // nlmsg_len
    m.extend_from_slice(&RTM_NEWLINK.to_ne_bytes()); // nlmsg_type
    m.extend_from_slice(&(NLM_F_REQUEST | NLM_F_ACK).to_ne_bytes()); // nlmsg_flags
    m.extend_from_slice(&seq.to_ne_bytes()); // nlmsg_seq
    m.extend_from_slice(&0u32.to_ne_bytes()); // nlmsg_pid
    m.push(AF_UNSPEC); // ifi_family
    m.push(0); // padding
    m.extend_from_slice(&0u16.to_ne_bytes()); // ifi_type
    m.extend_from_slice(&index.to_ne_bytes()); // ifi_index
    m.extend_from_slice(&IFF_UP.to_ne_bytes()); // ifi_flags
    m.extend_from_slice(&IFF_UP.to_ne_bytes()); // ifi_change
    m
}

/// The error code of an `NLMSG_ERROR` reply (0 is an ack).
fn ack_errno(reply: &[u8]) -> Option<i32> {
    let ty = u16::from_ne_bytes(reply.get(4..6)?.try_into().ok()?);
    if ty != NLMSG_ERROR {
        return None;
    }
    Some(i32::from_ne_bytes(reply.get(16..20)?.try_into().ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_request_is_one_header_and_one_ifinfomsg() {
        let m = newlink_up(1, 7);
        assert_eq!(m.len(), 32);
        assert_eq!(u32::from_ne_bytes(m[0..4].try_into().unwrap()), 32);
        assert_eq!(u16::from_ne_bytes(m[4..6].try_into().unwrap()), RTM_NEWLINK);
        assert_eq!(i32::from_ne_bytes(m[20..24].try_into().unwrap()), 1);
        let mut ack = vec![0u8; 36];
        ack[4..6].copy_from_slice(&NLMSG_ERROR.to_ne_bytes());
        assert_eq!(ack_errno(&ack), Some(0));
        ack[16..20].copy_from_slice(&(-1i32).to_ne_bytes());
        assert_eq!(ack_errno(&ack), Some(-1));
        assert_eq!(ack_errno(&[0u8; 3]), None);
    }
}
