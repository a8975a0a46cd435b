//! `getaddrinfo(3)`, the C library's resolver: what [`Mode::Getaddrinfo`]
//! runs on a pool's `SlowIo` lane. Blocking; never call it on an event
//! loop thread.
//!
//! [`Mode::Getaddrinfo`]: super::Mode::Getaddrinfo

use super::{DnsError, Family};
use dns_lookup::{AddrFamily, AddrInfoHints, LookupErrorKind, SockType};
use std::net::IpAddr;
use std::time::Instant;

/// glibc's `EAI_ADDRFAMILY` (`netdb.h`; dns-lookup has no kind for it).
const EAI_ADDRFAMILY: i32 = -9;

/// The addresses `getaddrinfo(host, NULL, {family, SOCK_STREAM})` returns,
/// in its order, repeats kept (two hosts-file lines of one address give it
/// twice). With `Family::V4` only an A query is sent, as
/// Node's `dns.lookup(host, {family: 4})` does.
///
/// ```
/// use sluice_dns::{Family, getaddrinfo};
/// let addrs = getaddrinfo("127.0.0.1", Family::V4)?;
/// assert_eq!(addrs, vec![std::net::IpAddr::from([127, 0, 0, 1])]);
/// # Ok::<(), sluice_dns::DnsError>(())
/// ```
pub fn getaddrinfo(host: &str, family: Family) -> Result<Vec<IpAddr>, DnsError> {
    let started = Instant::now();
    let hints = AddrInfoHints {
        socktype: SockType::Stream.into(),
        address: match family {
            Family::Any => 0,
            Family::V4 => AddrFamily::Inet.into(),
            Family::V6 => AddrFamily::Inet6.into(),
        },
        ..AddrInfoHints::default()
    };
    // A lookup waits on the network: on a pool worker, the section counts as
    // blocked once it lasts, and its lane hands its queue on.
    let found = sluice::blocking(|| dns_lookup::getaddrinfo(Some(host), None, Some(hints)))
        .map_err(|e| match e.kind() {
            LookupErrorKind::NoName | LookupErrorKind::NoData => DnsError::NotFound {
                host: host.to_string(),
                family,
            },
            _ if e.error_num() == EAI_ADDRFAMILY => DnsError::AddressFamily {
                host: host.to_string(),
                family,
            },
            LookupErrorKind::Again => DnsError::Timeout {
                host: host.to_string(),
                after: started.elapsed(),
            },
            _ => DnsError::Failed {
                host: host.to_string(),
                message: format!("getaddrinfo: {}", std::io::Error::from(e)),
            },
        })?;
    let mut addrs: Vec<IpAddr> = Vec::new();
    for info in found {
        let info = info.map_err(|e| DnsError::Failed {
            host: host.to_string(),
            message: format!("getaddrinfo returned an address it could not decode: {e}"),
        })?;
        let ip = info.sockaddr.ip();
        if family.admits(ip) {
            addrs.push(ip);
        }
    }
    if addrs.is_empty() {
        return Err(DnsError::NotFound {
            host: host.to_string(),
            family,
        });
    }
    Ok(addrs)
}
