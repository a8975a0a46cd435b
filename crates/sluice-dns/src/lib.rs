//! # sluice-dns
//!
//! Name resolution that never occupies a pool thread. The pool itself is
//! the `sluice` crate; this crate uses its [`SlowIo`] lane only for the
//! `getaddrinfo` fallback.
//!
//! Node resolves names with `getaddrinfo` on libuv's pool (`dns.lookup`):
//! every lookup holds a pool thread for as long as the name server takes,
//! and libuv lets lookups use at most half the pool. `dns.resolve4` leaves
//! the pool but ignores `/etc/hosts`. [`lookup`] does both right: it asks
//! the name servers asynchronously (hickory-resolver on the caller's tokio
//! runtime: a lookup waiting on a slow server holds no thread at all) and
//! answers like `getaddrinfo` does:
//!
//! - the hosts file first (`/etc/hosts`, re-read when it changes), then the
//!   name servers, in the order of `/etc/nsswitch.conf`'s `hosts:` line;
//! - `/etc/resolv.conf`'s `nameserver`, `search`/`domain`, `ndots`,
//!   `timeout`, `attempts`, `rotate`, `edns0`, `use-vc`, `no-aaaa`
//!   (see [`SystemConfig`]);
//! - answers cached for their TTL (a TTL of 0 is not cached), identical
//!   lookups in flight coalesced into one query, every lookup bounded by
//!   glibc's retry schedule (try `n` waits `timeout × 2ⁿ / servers` on each
//!   server; [`Resolver::query_deadline`], then [`DnsError::Timeout`]), and
//!   at most [`default_max_queries`] lookups asking at once.
//!
//! Where the system's configuration asks for what only the C library can
//! do (an nsswitch source other than `files` and `dns`, an nsswitch action,
//! glibc's resolver environment variables: the exact list is in
//! [`system`](SystemConfig)'s docs), the resolver is in
//! [`Mode::Getaddrinfo`] and runs `getaddrinfo` on a pool's [`SlowIo`]
//! lane instead, where its budget applies and its wait is visible in the
//! pool's metrics. [`Resolver::mode`] says which, and why.
//!
//! glibc's own rules, matched in the native mode (and checked against
//! glibc 2.36 in a namespace by `crates/sluice-cli/tests/dns_differential.rs`):
//!
//! - numeric hosts in every `inet_aton` form (`127.1`, `2130706433`,
//!   `0x7f.0.0.1`, `0177.0.0.1`) are addresses, not names
//!   ([`parse_numeric`]); one of the other family is
//!   [`DnsError::AddressFamily`] (`EAI_ADDRFAMILY`);
//! - names may hold any byte but `.` (`my_host`, `app_db_1`), in the hosts
//!   file and in queries; a name with a final dot skips hosts entries
//!   written without it;
//! - names no query can carry (over 253 characters, a label over 63 bytes,
//!   an empty label) and, for IPv4, digits-and-dots names `inet_aton`
//!   refused (`08.0.0.1`) are not found, without a query;
//! - every answer of more than one address is sorted as glibc sorts it
//!   (RFC 3484/6724 destination selection with glibc's default tables:
//!   `::1` before `127.0.0.1` for `localhost`), repeats kept (two hosts
//!   lines `127.0.0.1 localhost` give it twice, as glibc does);
//! - the search list as glibc's `res_search` walks it (`ndots`, a final
//!   dot, which answers pass to the next name; both families asked together
//!   for each name), and no name is special: `localhost.`, `*.localhost`
//!   not in the hosts file, `*.test`, `*.invalid`, `*.onion` are asked of
//!   the name server, as glibc 2.36 asks them (see `query.rs`).
//!
//! Differences from `getaddrinfo` in the native mode: hickory re-sends an
//! unanswered UDP query every 333 ms within each attempt's timeout (glibc
//! waits the whole timeout); an `/etc/gai.conf` that sets anything is not
//! read (its defaults are applied); a search domain of `.` alone is
//! dropped (glibc asks the bare name at its place in the list).
//!
//! | item | what |
//! |------|------|
//! | [`lookup`] | one lookup with the system's resolver (built at the first call) |
//! | [`Resolver`], [`Builder`] | a resolver with explicit or system settings |
//! | [`Family`] | `Any`, `V4`, `V6`: `getaddrinfo`'s `ai_family` |
//! | [`SystemConfig`], [`Mode`], [`Source`] | what the system asks for, and how it is honoured |
//! | [`DnsMetrics`] | lookups, hosts and cache answers, coalesced, timeouts, fallbacks |
//! | [`getaddrinfo`] | the C library's resolver (blocking) |
//! | [`parse_numeric`] | a host as glibc reads a numeric one (`inet_aton`, then IPv6) |
//! | `HyperResolver` (feature `hyper`) | the resolver as hyper-util's `Service<Name>` |
//!
//! Features: `prometheus` (on by default: `Resolver::register`,
//! `DnsCollector`), `serde` (on by default: `Serialize` on [`DnsMetrics`])
//! and `hyper` (`HyperResolver`, adds hyper-util).
//!
//! ```no_run
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> Result<(), sluice_dns::DnsError> {
//! use sluice_dns::Family;
//!
//! let addrs = sluice_dns::lookup("example.com", Family::V4).await?;
//! println!("{addrs:?}");
//! # Ok(())
//! # }
//! ```
//!
//! [`SlowIo`]: sluice::Lane::SlowIo

#![forbid(unsafe_code)]
#![doc(test(attr(deny(warnings))))]

mod builder;
mod cache;
mod error;
mod gai;
mod hosts;
#[cfg(feature = "hyper")]
mod hyper;
mod metrics;
mod numeric;
mod query;
mod resolver;
mod sort;
mod system;

pub use error::DnsError;

/// Parses hosts-file text as glibc reads `/etc/hosts` (the reader the
/// resolver uses): each name, lowercased, with its addresses in file
/// order. Lines without an address are skipped; `#` starts a comment. For
/// tests and fuzzing.
///
/// ```
/// let t = sluice_dns::parse_hosts("127.0.0.1 localhost Box # x\nnot-an-ip name\n::1 localhost\n");
/// assert_eq!(t["box"], vec!["127.0.0.1".parse::<std::net::IpAddr>()?]);
/// assert_eq!(t["localhost"].len(), 2);
/// assert!(!t.contains_key("name"));
/// # Ok::<(), std::net::AddrParseError>(())
/// ```
pub fn parse_hosts(text: &str) -> std::collections::HashMap<String, Vec<std::net::IpAddr>> {
    hosts::parse(text)
}
pub use builder::{Builder, DEFAULT_CACHE_CAPACITY, DEFAULT_MAX_TTL, default_max_queries};
pub use gai::getaddrinfo;
#[cfg(feature = "hyper")]
pub use hyper::HyperResolver;
#[cfg(feature = "prometheus")]
pub use metrics::DnsCollector;
pub use metrics::DnsMetrics;
pub use numeric::parse_numeric;
pub use resolver::Resolver;
pub use system::{HOSTS, Mode, NSSWITCH_CONF, RESOLV_CONF, Source, SystemConfig};

use std::net::IpAddr;
use std::sync::OnceLock;

/// Which addresses a lookup wants: `getaddrinfo`'s `ai_family`.
///
/// ```
/// use sluice_dns::Family;
/// assert_eq!("4".parse::<Family>(), Ok(Family::V4));
/// assert_eq!(Family::V6.to_string(), "IPv6");
/// assert!("ipx".parse::<Family>().unwrap_err().contains("expected any, 4 or 6"));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Family {
    /// IPv4 and IPv6 (`AF_UNSPEC`).
    Any,
    /// IPv4 only (`AF_INET`): one A query.
    V4,
    /// IPv6 only (`AF_INET6`): one AAAA query.
    V6,
}

impl Family {
    /// True if `ip` belongs to this family.
    ///
    /// ```
    /// use sluice_dns::Family;
    /// let v4: std::net::IpAddr = "10.0.0.1".parse().unwrap();
    /// assert!(Family::V4.admits(v4) && Family::Any.admits(v4) && !Family::V6.admits(v4));
    /// ```
    pub fn admits(self, ip: IpAddr) -> bool {
        match self {
            Family::Any => true,
            Family::V4 => ip.is_ipv4(),
            Family::V6 => ip.is_ipv6(),
        }
    }
}

impl std::fmt::Display for Family {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Family::Any => "IPv4 or IPv6",
            Family::V4 => "IPv4",
            Family::V6 => "IPv6",
        })
    }
}

impl std::str::FromStr for Family {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        match s.to_ascii_lowercase().as_str() {
            "any" | "0" | "unspec" => Ok(Family::Any),
            "4" | "v4" | "ipv4" | "inet" => Ok(Family::V4),
            "6" | "v6" | "ipv6" | "inet6" => Ok(Family::V6),
            _ => Err(format!("family {s:?}: expected any, 4 or 6")),
        }
    }
}

static SYSTEM: OnceLock<Result<Resolver, DnsError>> = OnceLock::new();

/// The system's resolver ([`Resolver::system`]), built at the first call
/// (which reads `/etc/resolv.conf` and `/etc/nsswitch.conf`) and shared by
/// every later [`lookup`].
///
/// ```
/// let resolver = sluice_dns::system_resolver()?;
/// assert!(!resolver.nameservers().is_empty() || matches!(resolver.mode(), sluice_dns::Mode::Getaddrinfo { .. }));
/// # Ok::<(), sluice_dns::DnsError>(())
/// ```
pub fn system_resolver() -> Result<&'static Resolver, DnsError> {
    SYSTEM
        .get_or_init(Resolver::system)
        .as_ref()
        .map_err(Clone::clone)
}

/// Looks `host` up with the system's resolver: the addresses
/// `getaddrinfo(host, NULL, {family})` would return, without holding a
/// pool thread (see the [module docs](self)).
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), sluice_dns::DnsError> {
/// use sluice_dns::Family;
/// let addrs = sluice_dns::lookup("127.0.0.1", Family::Any).await?;
/// assert_eq!(addrs.len(), 1);
/// # Ok(())
/// # }
/// ```
pub async fn lookup(host: &str, family: Family) -> Result<Vec<IpAddr>, DnsError> {
    system_resolver()?.lookup(host, family).await
}
