//! The resolver's counters and their snapshot, [`DnsMetrics`].
//!
//! Every lookup is counted once in `lookups_total` and once by where its
//! answer came from or why it failed. All counters are `Relaxed` atomics:
//! each is an independent tally, read only for reporting, and no other
//! memory is published through them.

use serde::Serialize;
use std::sync::atomic::{AtomicU64, Ordering};

/// A snapshot of a [`Resolver`](super::Resolver)'s counters. Names follow
/// the pool's metrics: counts end in `_total`, `in_flight` is a gauge.
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), sluice::dns::DnsError> {
/// use sluice::dns::{Family, Resolver};
///
/// let resolver = Resolver::builder().no_nameservers().build()?;
/// resolver.lookup("127.0.0.1", Family::V4).await?;
/// let m = resolver.metrics();
/// assert_eq!((m.lookups_total, m.literal_total, m.dns_total), (1, 1, 0));
/// # Ok(())
/// # }
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct DnsMetrics {
    /// Count: calls to `lookup`.
    pub lookups_total: u64,
    /// Count: hosts that were IP address literals, answered without a lookup.
    pub literal_total: u64,
    /// Count: answers from the hosts file.
    pub hosts_total: u64,
    /// Count: answers from the TTL cache.
    pub cache_hits_total: u64,
    /// Count: lookups that joined an identical lookup already in flight
    /// instead of asking again.
    pub coalesced_total: u64,
    /// Count: lookups sent to the name servers (one per distinct host and
    /// family in flight; `Family::Any` asks A and AAAA in parallel).
    pub dns_total: u64,
    /// Count: lookups handed to `getaddrinfo` on the pool's `SlowIo` lane
    /// because the system's configuration needs it (see [`Mode`](super::Mode)).
    pub fallbacks_total: u64,
    /// Count: lookups that ended in [`DnsError::NotFound`](super::DnsError::NotFound).
    pub not_found_total: u64,
    /// Count: lookups that ended in [`DnsError::Timeout`](super::DnsError::Timeout).
    pub timeouts_total: u64,
    /// Count: lookups that ended in any other error.
    pub errors_total: u64,
    /// Gauge: distinct lookups (host and family) asking a name server or
    /// `getaddrinfo` now.
    pub in_flight: u64,
}

/// The live counters behind [`DnsMetrics`].
#[derive(Debug, Default)]
pub(crate) struct Counters {
    pub(crate) lookups: AtomicU64,
    pub(crate) literal: AtomicU64,
    pub(crate) hosts: AtomicU64,
    pub(crate) cache_hits: AtomicU64,
    pub(crate) coalesced: AtomicU64,
    pub(crate) dns: AtomicU64,
    pub(crate) fallbacks: AtomicU64,
    pub(crate) not_found: AtomicU64,
    pub(crate) timeouts: AtomicU64,
    pub(crate) errors: AtomicU64,
    pub(crate) in_flight: AtomicU64,
}

/// Adds one to a counter (Relaxed: an independent tally, see the module doc).
pub(crate) fn inc(c: &AtomicU64) {
    c.fetch_add(1, Ordering::Relaxed);
}

/// Takes one from a gauge (Relaxed, as [`inc`]).
pub(crate) fn dec(c: &AtomicU64) {
    c.fetch_sub(1, Ordering::Relaxed);
}

impl Counters {
    /// The counters now. Each is read on its own (Relaxed), so a snapshot
    /// taken during lookups may be a lookup apart between counters.
    pub(crate) fn snapshot(&self) -> DnsMetrics {
        let r = |c: &AtomicU64| c.load(Ordering::Relaxed);
        DnsMetrics {
            lookups_total: r(&self.lookups),
            literal_total: r(&self.literal),
            hosts_total: r(&self.hosts),
            cache_hits_total: r(&self.cache_hits),
            coalesced_total: r(&self.coalesced),
            dns_total: r(&self.dns),
            fallbacks_total: r(&self.fallbacks),
            not_found_total: r(&self.not_found),
            timeouts_total: r(&self.timeouts),
            errors_total: r(&self.errors),
            in_flight: r(&self.in_flight),
        }
    }
}
