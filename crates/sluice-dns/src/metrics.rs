//! The resolver's counters and their snapshot, [`DnsMetrics`].
//!
//! Every lookup is counted once in `lookups_total` and once by where its
//! answer came from or why it failed. All counters are `Relaxed` atomics:
//! each is an independent tally, read only for reporting, and no other
//! memory is published through them.

use std::sync::atomic::{AtomicU64, Ordering};

/// A snapshot of a [`Resolver`](super::Resolver)'s counters. Names follow
/// the pool's metrics: counts end in `_total`, `in_flight` is a gauge.
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), sluice_dns::DnsError> {
/// use sluice_dns::{Family, Resolver};
///
/// let resolver = Resolver::builder().no_nameservers().build()?;
/// resolver.lookup("127.0.0.1", Family::V4).await?;
/// let m = resolver.metrics();
/// assert_eq!((m.lookups_total, m.literal_total, m.dns_total), (1, 1, 0));
/// # Ok(())
/// # }
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
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

#[cfg(feature = "prometheus")]
impl DnsMetrics {
    /// Encodes these counters as `sluice_dns_*` series (counters as
    /// `sluice_dns_<name>_total`, `sluice_dns_in_flight` a gauge).
    pub(crate) fn encode(
        &self,
        encoder: &mut prometheus_client::encoding::DescriptorEncoder<'_>,
    ) -> Result<(), std::fmt::Error> {
        use prometheus_client::encoding::EncodeMetric;
        use prometheus_client::metrics::counter::ConstCounter;
        use prometheus_client::metrics::gauge::ConstGauge;
        let counters: [(&str, &str, u64); 10] = [
            ("sluice_dns_lookups", "Calls to lookup", self.lookups_total),
            (
                "sluice_dns_literal",
                "Hosts that were IP literals, answered without a lookup",
                self.literal_total,
            ),
            (
                "sluice_dns_hosts",
                "Answers from the hosts file",
                self.hosts_total,
            ),
            (
                "sluice_dns_cache_hits",
                "Answers from the TTL cache",
                self.cache_hits_total,
            ),
            (
                "sluice_dns_coalesced",
                "Lookups that joined an identical one in flight",
                self.coalesced_total,
            ),
            (
                "sluice_dns_dns",
                "Lookups sent to the name servers",
                self.dns_total,
            ),
            (
                "sluice_dns_fallbacks",
                "Lookups handed to getaddrinfo on the SlowIo lane",
                self.fallbacks_total,
            ),
            (
                "sluice_dns_not_found",
                "Lookups that found no address",
                self.not_found_total,
            ),
            (
                "sluice_dns_timeouts",
                "Lookups that timed out",
                self.timeouts_total,
            ),
            (
                "sluice_dns_errors",
                "Lookups that failed otherwise",
                self.errors_total,
            ),
        ];
        for (name, help, v) in counters {
            let c = ConstCounter::new(v);
            c.encode(encoder.encode_descriptor(name, help, None, c.metric_type())?)?;
        }
        let g = ConstGauge::new(i64::try_from(self.in_flight).unwrap_or(i64::MAX));
        g.encode(encoder.encode_descriptor(
            "sluice_dns_in_flight",
            "Distinct lookups asking a name server or getaddrinfo now",
            None,
            g.metric_type(),
        )?)
    }
}

#[cfg(feature = "prometheus")]
/// A [`Resolver`](super::Resolver)'s counters in a prometheus-client
/// registry, read at each scrape (see
/// [`Resolver::register`](super::Resolver::register)).
#[derive(Clone)]
pub struct DnsCollector {
    pub(crate) resolver: super::Resolver,
}

#[cfg(feature = "prometheus")]
impl std::fmt::Debug for DnsCollector {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DnsCollector").finish_non_exhaustive()
    }
}

#[cfg(feature = "prometheus")]
impl prometheus_client::collector::Collector for DnsCollector {
    fn encode(
        &self,
        mut encoder: prometheus_client::encoding::DescriptorEncoder<'_>,
    ) -> Result<(), std::fmt::Error> {
        self.resolver.metrics().encode(&mut encoder)
    }
}
