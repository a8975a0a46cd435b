//! [`DnsError`]: what a lookup or a resolver's configuration can fail with.
//! Every message names the input and, where there is one, the fix.

use super::Family;
use std::time::Duration;

/// Why a lookup failed, or why a [`Resolver`](super::Resolver) could not be
/// built. `Clone`, because one answer is shared by every caller of a
/// coalesced lookup.
///
/// ```
/// use sluice_dns::{DnsError, Family};
///
/// let err = DnsError::NotFound { host: "db.internal".into(), family: Family::V4 };
/// assert_eq!(err.to_string(), "\"db.internal\" has no IPv4 address (the name does not exist, or has no records of that family)");
/// assert!(err.is_not_found());
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum DnsError {
    /// The host is not something a name server could be asked about.
    #[error("{host:?} is not a valid host name: {reason}")]
    InvalidName {
        /// The host as given.
        host: String,
        /// What is wrong with it.
        reason: String,
    },
    /// No address of the family: NXDOMAIN, an empty answer, or a name in
    /// neither `/etc/hosts` nor DNS.
    #[error(
        "{host:?} has no {family} address (the name does not exist, or has no records of that family)"
    )]
    NotFound {
        /// The host as given.
        host: String,
        /// The family asked for.
        family: Family,
    },
    /// A numeric host of the other family: `getaddrinfo`'s
    /// `EAI_ADDRFAMILY` (`127.1` asked for IPv6, `::1` asked for IPv4).
    #[error("{host:?} is a numeric address that has no {family} form")]
    AddressFamily {
        /// The host as given.
        host: String,
        /// The family asked for.
        family: Family,
    },
    /// The name servers did not answer in time (every attempt timed out), or
    /// `getaddrinfo` gave up with `EAI_AGAIN`.
    #[error(
        "looking up {host:?} timed out after {after:?}: no name server answered; check the nameserver lines of resolv.conf (or the resolver's nameservers) and that they are reachable"
    )]
    Timeout {
        /// The host as given.
        host: String,
        /// How long the lookup waited.
        after: Duration,
    },
    /// Any other failure: a refused query, a malformed answer, a socket error.
    #[error("looking up {host:?} failed: {message}")]
    Failed {
        /// The host as given.
        host: String,
        /// What went wrong.
        message: String,
    },
    /// A lookup that needs the network ran outside a tokio runtime.
    #[error(
        "sluice_dns needs a tokio runtime with I/O and time enabled to ask a name server; call lookup from inside one (for example under #[tokio::main])"
    )]
    NoRuntime,
    /// A builder setting is out of range.
    #[error("{setting}={value} is out of range; expected {expected}")]
    InvalidConfig {
        /// The builder call, e.g. `attempts`.
        setting: &'static str,
        /// The value as given.
        value: String,
        /// What is accepted.
        expected: &'static str,
    },
    /// A resolver that asks DNS was built without a name server.
    #[error(
        "a resolver that asks DNS needs at least one name server: add one with nameserver(addr), or call no_nameservers() for a resolver that answers from IP literals and the hosts file only"
    )]
    NoNameserver,
    /// A system configuration file could not be read.
    #[error("reading {path}: {message}")]
    SystemConfig {
        /// The file.
        path: String,
        /// The error.
        message: String,
    },
}

impl DnsError {
    /// True for [`DnsError::NotFound`].
    ///
    /// ```
    /// use sluice_dns::{DnsError, Family};
    /// assert!(DnsError::NotFound { host: "x".into(), family: Family::Any }.is_not_found());
    /// assert!(!DnsError::NoRuntime.is_not_found());
    /// ```
    pub fn is_not_found(&self) -> bool {
        matches!(self, DnsError::NotFound { .. })
    }

    /// True for [`DnsError::Timeout`].
    ///
    /// ```
    /// use sluice_dns::DnsError;
    /// use std::time::Duration;
    /// let err = DnsError::Timeout { host: "x".into(), after: Duration::from_secs(1) };
    /// assert!(err.is_timeout());
    /// ```
    pub fn is_timeout(&self) -> bool {
        matches!(self, DnsError::Timeout { .. })
    }
}
