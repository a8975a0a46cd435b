//! [`Resolver`]: one lookup's path.
//!
//! 1. An IP address literal is its own answer.
//! 2. [`Mode::Getaddrinfo`]: the lookup joins an identical one in flight,
//!    or runs `getaddrinfo` on the pool's `SlowIo` lane. Nothing is cached.
//! 3. [`Mode::Native`]: the sources in order. `files` answers from the
//!    hosts file. `dns` answers from the TTL cache, or joins an identical
//!    lookup in flight, or asks the name servers (`query.rs`: hickory's
//!    name server pool on the caller's tokio runtime, no thread held while
//!    it waits, glibc's search list) and caches the answer for its TTL. A source without an answer passes to the
//!    next; the last error is returned.
//!
//! In flight, an identical lookup (same host, family and runtime) is one
//! shared future: whoever polls it drives it, every caller gets its
//! answer, and it is dropped (and leaves the in-flight map) when its last
//! caller goes away.

use super::builder::Builder;
use super::cache::{Cache, Key};
use super::hosts::HostsFile;
use super::metrics::{Counters, DnsMetrics, dec, inc};
use super::query::{Backend, dns_name};
use super::system::{Mode, Source};
use super::{DnsError, Family, gai, numeric, sort};
use futures_util::FutureExt;
use futures_util::future::{BoxFuture, Shared, WeakShared};
use sluice::sync::lock;
use sluice::{Lane, Pool};
use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// A hickory resolver is kept for at most this many tokio runtimes.
const MAX_RUNTIMES: usize = 8;

/// An async resolver that answers like `getaddrinfo` without holding a
/// pool thread: see the [module docs](super) for what it honours and when
/// it falls back. Cheap to clone (one shared state).
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), sluice_dns::DnsError> {
/// use sluice_dns::{Family, Resolver};
///
/// let dir = std::env::temp_dir().join(format!("sluice-doc-{}", std::process::id()));
/// std::fs::create_dir_all(&dir).unwrap();
/// std::fs::write(dir.join("hosts"), "10.1.2.3 db.internal db\n").unwrap();
/// let resolver = Resolver::builder().no_nameservers().hosts_file(dir.join("hosts")).build()?;
/// assert_eq!(resolver.lookup("DB", Family::V4).await?, vec![std::net::IpAddr::from([10, 1, 2, 3])]);
/// assert!(resolver.lookup("db", Family::V6).await.unwrap_err().is_not_found());
/// assert_eq!(resolver.metrics().hosts_total, 1);
/// # std::fs::remove_dir_all(dir).unwrap();
/// # Ok(())
/// # }
/// ```
#[derive(Clone)]
pub struct Resolver {
    inner: Arc<Inner>,
}

impl std::fmt::Debug for Resolver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Resolver")
            .field("mode", &self.inner.settings.mode)
            .field("nameservers", &self.inner.settings.nameservers)
            .field("metrics", &self.metrics())
            .finish()
    }
}

/// What a flight resolves to.
type Lookup = BoxFuture<'static, Result<Vec<IpAddr>, DnsError>>;

/// A shared in-flight lookup.
type Flight = Shared<Lookup>;

/// Which lookup a flight is: the runtime it runs on (hickory's sockets and
/// timers belong to one), whether it asks DNS or `getaddrinfo`, the host
/// as asked (lowercased) and the family.
type FlightKey = (Option<tokio::runtime::Id>, bool, String, Family);

struct Inner {
    settings: Builder,
    hosts: Option<HostsFile>,
    cache: Mutex<Cache>,
    /// Lookups in flight, by key; the number tells a flight from a later one
    /// under the same key. Held only to find or insert, never across an
    /// await, and never while a flight may be dropped.
    flights: Mutex<HashMap<FlightKey, (u64, WeakShared<Lookup>)>>,
    /// hickory resolvers, one per tokio runtime (their connections'
    /// background tasks run on the runtime that made them).
    backends: Mutex<Vec<(tokio::runtime::Id, Backend)>>,
    /// The pool for `getaddrinfo`, built at the first fallback if not given.
    pool: Mutex<Option<Pool>>,
    counters: Counters,
    next_flight: std::sync::atomic::AtomicU64,
    /// The longest a DNS lookup may take, all attempts and names included.
    deadline: Duration,
    /// Places for lookups asking the name servers (`max_queries_in_flight`).
    queries: Arc<tokio::sync::Semaphore>,
}

/// Whether a lookup's local pass may wait for I/O (the hosts file read
/// from the disk) or must not ([`Resolver::lookup_now`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Access {
    Wait,
    NoWait,
}

/// What the local pass of a lookup found.
enum Local {
    /// The lookup's answer.
    Answer(Result<Vec<IpAddr>, DnsError>),
    /// The mode's sources from `next` on need a name server, `getaddrinfo`
    /// (then `next` is 0), or I/O the pass may not wait for; `last` is the
    /// error the sources before it left.
    Sources { next: usize, last: DnsError },
}

/// One source's local answer.
enum Step {
    Found(Vec<IpAddr>),
    Next,
    /// A DNS source with nothing cached: ask the name servers.
    Ask,
    /// A hosts file that could not be read without a wait.
    WouldWait,
}

impl Resolver {
    /// The resolver of settings [`Builder::build`] validated.
    pub(crate) fn from_settings(settings: Builder, deadline: Duration, max_queries: usize) -> Self {
        Resolver {
            inner: Arc::new(Inner {
                hosts: settings.hosts.as_ref().map(HostsFile::new),
                cache: Mutex::new(Cache::new(settings.cache_capacity, settings.max_ttl)),
                flights: Mutex::new(HashMap::new()),
                backends: Mutex::new(Vec::new()),
                pool: Mutex::new(settings.pool.clone()),
                counters: Counters::default(),
                next_flight: std::sync::atomic::AtomicU64::new(0),
                deadline,
                queries: Arc::new(tokio::sync::Semaphore::new(max_queries)),
                settings,
            }),
        }
    }

    /// Its settings.
    pub(crate) fn settings(&self) -> &Builder {
        &self.inner.settings
    }

    /// The name servers of runtime `id`, made by `make` on first use; at
    /// most [`MAX_RUNTIMES`] are kept.
    pub(crate) fn backend_for(
        &self,
        id: tokio::runtime::Id,
        make: impl FnOnce() -> Result<Backend, DnsError>,
    ) -> Result<Backend, DnsError> {
        let mut backends = lock(&self.inner.backends);
        if let Some((_, r)) = backends.iter().find(|(i, _)| *i == id) {
            return Ok(r.clone());
        }
        let r = make()?;
        if backends.len() >= MAX_RUNTIMES {
            drop(backends.remove(0));
        }
        backends.push((id, r.clone()));
        Ok(r)
    }

    /// A [`Builder`] with no name servers, `/etc/hosts`, and the native
    /// mode: the explicit configuration for tests and special cases.
    pub fn builder() -> Builder {
        Builder::default()
    }

    /// The resolver the system's configuration describes
    /// ([`Builder::system`]).
    pub fn system() -> Result<Resolver, DnsError> {
        Builder::system()?.build()
    }

    /// How this resolver answers.
    pub fn mode(&self) -> &Mode {
        &self.inner.settings.mode
    }

    /// How long a lookup asks the name servers before it ends in
    /// [`DnsError::Timeout`]: glibc's `res_send` schedule for the
    /// resolver's timeout, attempts, servers and search list (try `n` waits
    /// `timeout × 2ⁿ / servers` on each server, at least 1 s).
    ///
    /// ```
    /// use std::time::Duration;
    /// let r = sluice_dns::Resolver::builder()
    ///     .nameserver("127.0.0.1:53".parse()?)
    ///     .timeout(Duration::from_secs(2))
    ///     .attempts(2)
    ///     .build()?;
    /// assert_eq!(r.query_deadline(), Duration::from_secs(6)); // 2 s, then 4 s
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn query_deadline(&self) -> Duration {
        self.inner.deadline
    }

    /// The name servers it asks.
    pub fn nameservers(&self) -> &[SocketAddr] {
        &self.inner.settings.nameservers
    }

    /// Its counters now.
    pub fn metrics(&self) -> DnsMetrics {
        self.inner.counters.snapshot()
    }

    /// Registers its counters in a prometheus-client `registry`, read at
    /// each scrape: `sluice_dns_lookups_total`, `sluice_dns_cache_hits_total`,
    /// ... and the gauge `sluice_dns_in_flight` (the fields of
    /// [`DnsMetrics`]).
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// use sluice_dns::{Family, Resolver};
    /// let resolver = Resolver::builder().no_nameservers().build()?;
    /// let mut registry = prometheus_client::registry::Registry::default();
    /// resolver.register(&mut registry);
    /// resolver.lookup("127.0.0.1", Family::V4).await?;
    /// let mut text = String::new();
    /// prometheus_client::encoding::text::encode(&mut text, &registry)?;
    /// assert!(text.contains("sluice_dns_lookups_total 1"));
    /// assert!(text.contains("sluice_dns_literal_total 1"));
    /// assert!(text.contains("sluice_dns_in_flight 0"));
    /// # Ok(())
    /// # }
    /// ```
    #[cfg(feature = "prometheus")]
    pub fn register(&self, registry: &mut prometheus_client::registry::Registry) {
        registry.register_collector(Box::new(super::metrics::DnsCollector {
            resolver: self.clone(),
        }));
    }

    /// The addresses of `host` in `family`, like `getaddrinfo(host, NULL,
    /// {ai_family})`: see the [module docs](super). Needs a tokio runtime
    /// when it asks a name server.
    pub async fn lookup(&self, host: &str, family: Family) -> Result<Vec<IpAddr>, DnsError> {
        let result = self.resolve(host, family).await;
        self.count(&result);
        result
    }

    /// The answer to [`lookup`](Self::lookup) where it is known without a
    /// wait: an IP address literal, the hosts file (when its path and
    /// pages are in the kernel's caches, [`sluice::nowait`]), or a fresh
    /// answer in the TTL cache; `None` where the lookup needs a name
    /// server, `getaddrinfo`, or I/O that might wait. Made on an event
    /// loop's thread, it answers the names a service looks up most (its
    /// own, `localhost`, its peers' from the hosts file or the cache)
    /// without handing them to another thread. Counted as `lookup` counts
    /// where it answers; a `None` counts nothing (the `lookup` that
    /// follows does).
    ///
    /// ```
    /// use sluice_dns::{Family, Resolver};
    ///
    /// let dir = std::env::temp_dir().join(format!("sluice-doc-now-{}", std::process::id()));
    /// std::fs::create_dir_all(&dir).unwrap();
    /// std::fs::write(dir.join("hosts"), "10.1.2.3 db\n").unwrap();
    /// let resolver = Resolver::builder().no_nameservers().hosts_file(dir.join("hosts")).build()?;
    /// assert_eq!(resolver.lookup_now("10.0.0.7", Family::Any).unwrap()?, vec![std::net::IpAddr::from([10, 0, 0, 7])]);
    /// // The hosts file: answered unless the kernel must read it from the disk.
    /// if let Some(answer) = resolver.lookup_now("db", Family::V4) {
    ///     assert_eq!(answer?, vec![std::net::IpAddr::from([10, 1, 2, 3])]);
    /// }
    /// # std::fs::remove_dir_all(dir).unwrap();
    /// # Ok::<(), sluice_dns::DnsError>(())
    /// ```
    pub fn lookup_now(&self, host: &str, family: Family) -> Option<Result<Vec<IpAddr>, DnsError>> {
        let result = match self.local(host, family, Access::NoWait) {
            Local::Answer(result) => result,
            Local::Sources { .. } => return None,
        };
        self.count(&result);
        Some(result)
    }

    /// Counts a lookup and its outcome.
    fn count(&self, result: &Result<Vec<IpAddr>, DnsError>) {
        let c = &self.inner.counters;
        inc(&c.lookups);
        match result {
            Ok(_) => {}
            Err(DnsError::NotFound { .. }) => inc(&c.not_found),
            Err(DnsError::Timeout { .. }) => inc(&c.timeouts),
            Err(_) => inc(&c.errors),
        }
    }

    async fn resolve(&self, host: &str, family: Family) -> Result<Vec<IpAddr>, DnsError> {
        let (next, mut last) = match self.local(host, family, Access::Wait) {
            Local::Answer(result) => return result,
            Local::Sources { next, last } => (next, last),
        };
        let Mode::Native { order } = &self.inner.settings.mode else {
            return self.flight(host, family, false).await;
        };
        for (at, source) in order.iter().enumerate().skip(next) {
            if at > next {
                match self.source_local(*source, host, family, &mut last, Access::Wait) {
                    Step::Found(addrs) => return Ok(addrs),
                    Step::Next => continue,
                    Step::Ask | Step::WouldWait => {}
                }
            }
            // A DNS source the local pass could not answer: the name servers.
            match self.flight(host, family, true).await {
                Ok(mut addrs) => {
                    sort::sort(&mut addrs);
                    return Ok(addrs);
                }
                Err(e @ (DnsError::NoRuntime | DnsError::InvalidName { .. })) => {
                    return Err(e);
                }
                Err(e) => last = e,
            }
        }
        Err(last)
    }

    /// What can be said of `host` without a name server or `getaddrinfo`:
    /// the answer, or the index of the first source in the mode's order that
    /// needs one (or, with [`Access::NoWait`], I/O that might wait), with
    /// the error the sources before it left.
    fn local(&self, host: &str, family: Family, access: Access) -> Local {
        let c = &self.inner.counters;
        if let Some(ip) = numeric::parse_numeric(host) {
            inc(&c.literal);
            return Local::Answer(numeric_answer(host, ip, family));
        }
        if host.is_empty() {
            return Local::Answer(Err(DnsError::InvalidName {
                host: host.into(),
                reason: "the name is empty".into(),
            }));
        }
        let mut last = DnsError::NotFound {
            host: host.into(),
            family,
        };
        let order = match &self.inner.settings.mode {
            Mode::Getaddrinfo { .. } => return Local::Sources { next: 0, last },
            Mode::Native { order } => order,
        };
        for (at, source) in order.iter().enumerate() {
            match self.source_local(*source, host, family, &mut last, access) {
                Step::Found(addrs) => return Local::Answer(Ok(addrs)),
                Step::Next => {}
                Step::Ask | Step::WouldWait => return Local::Sources { next: at, last },
            }
        }
        Local::Answer(Err(last))
    }

    /// One source's answer without a name server: found, nothing (the next
    /// source, `last` updated where the source says why), a DNS source that
    /// must ask, or (with [`Access::NoWait`]) a hosts file the kernel could
    /// not read without a wait.
    fn source_local(
        &self,
        source: Source,
        host: &str,
        family: Family,
        last: &mut DnsError,
        access: Access,
    ) -> Step {
        let c = &self.inner.counters;
        match source {
            Source::Files => {
                let found = match (&self.inner.hosts, access) {
                    (None, _) => None,
                    (Some(h), Access::Wait) => h.lookup(host, family),
                    (Some(h), Access::NoWait) => match h.lookup_now(host, family) {
                        Some(found) => found,
                        None => return Step::WouldWait,
                    },
                };
                match found {
                    Some(mut addrs) => {
                        inc(&c.hosts);
                        sort::sort(&mut addrs);
                        Step::Found(addrs)
                    }
                    None => Step::Next,
                }
            }
            Source::Dns => {
                if let Err(e) = dns_name(host, family) {
                    // glibc sends no query for it either: not found.
                    *last = e;
                    return Step::Next;
                }
                if family == Family::V4 && all_numeric(host) {
                    // glibc's DNS source refuses an IPv4 lookup of
                    // digits and dots that inet_aton did not take
                    // (`08.0.0.1`, `1.2.3.4.5`) without a query.
                    return Step::Next;
                }
                let key: Key = (host.to_ascii_lowercase(), family);
                let cached = lock(&self.inner.cache).get(&key, Instant::now());
                match cached {
                    Some(mut addrs) => {
                        inc(&c.cache_hits);
                        sort::sort(&mut addrs);
                        Step::Found(addrs)
                    }
                    None => Step::Ask,
                }
            }
        }
    }

    /// Joins the lookup of `host` in flight, or starts it.
    async fn flight(&self, host: &str, family: Family, dns: bool) -> Result<Vec<IpAddr>, DnsError> {
        let runtime = tokio::runtime::Handle::try_current().ok().map(|h| h.id());
        if dns && runtime.is_none() {
            return Err(DnsError::NoRuntime);
        }
        let key: FlightKey = (runtime, dns, host.to_ascii_lowercase(), family);
        let mut alive: Vec<Flight> = Vec::new();
        let flight: Flight = {
            let mut flights = lock(&self.inner.flights);
            match flights.get(&key).and_then(|(_, weak)| weak.upgrade()) {
                Some(shared) => {
                    inc(&self.inner.counters.coalesced);
                    shared
                }
                None => {
                    // Forget flights whose callers all went away. A flight
                    // upgraded here is dropped after the lock is released:
                    // dropping the last handle of a flight runs its guard,
                    // which takes this lock.
                    if flights.len() > 64 {
                        flights.retain(|_, (_, weak)| match weak.upgrade() {
                            Some(live) => {
                                alive.push(live);
                                true
                            }
                            None => false,
                        });
                    }
                    let no = self
                        .inner
                        .next_flight
                        .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let shared = self
                        .start(key.clone(), no, host.to_string(), family, dns)
                        .shared();
                    let weak = shared
                        .downgrade()
                        .expect("a flight not yet polled has no output");
                    flights.insert(key, (no, weak));
                    shared
                }
            }
        };
        drop(alive);
        flight.await
    }

    /// The future of one flight. Its guard leaves the in-flight map and the
    /// gauge when it completes or is dropped unfinished.
    fn start(&self, key: FlightKey, no: u64, host: String, family: Family, dns: bool) -> Lookup {
        let this = self.clone();
        let c = &self.inner.counters;
        inc(if dns { &c.dns } else { &c.fallbacks });
        inc(&c.in_flight);
        let guard = FlightGuard {
            inner: self.inner.clone(),
            key,
            no,
        };
        async move {
            let _guard = guard;
            if dns {
                // Wait for a place first: the deadline starts with the query.
                let _place = this
                    .inner
                    .queries
                    .clone()
                    .acquire_owned()
                    .await
                    .map_err(|_| DnsError::Failed {
                        host: host.clone(),
                        message: "the resolver is shutting down".into(),
                    })?;
                let (addrs, ttl) = this.ask_dns(&host, family).await?;
                let key: Key = (host.to_ascii_lowercase(), family);
                lock(&this.inner.cache).insert(key, addrs.clone(), ttl, Instant::now());
                Ok(addrs)
            } else {
                this.ask_getaddrinfo(host, family).await
            }
        }
        .boxed()
    }

    /// Runs `getaddrinfo` on the fallback pool's `SlowIo` lane.
    async fn ask_getaddrinfo(&self, host: String, family: Family) -> Result<Vec<IpAddr>, DnsError> {
        let pool = {
            let mut pool = lock(&self.inner.pool);
            match &*pool {
                Some(p) => p.clone(),
                None => {
                    let p = Pool::builder().build().map_err(|e| DnsError::Failed {
                        host: host.clone(),
                        message: format!("building the pool for getaddrinfo: {e}"),
                    })?;
                    *pool = Some(p.clone());
                    p
                }
            }
        };
        let h = host.clone();
        pool.spawn(Lane::SlowIo, move || gai::getaddrinfo(&h, family))
            .await
            .map_err(|e| DnsError::Failed {
                host,
                message: format!("the SlowIo task running getaddrinfo failed: {e}"),
            })?
    }
}

/// The answer for a numeric host, as glibc's `getaddrinfo` gives it: the
/// address when it is of `family`; an IPv4-mapped IPv6 address asked for
/// IPv4 as its IPv4 address; else `EAI_ADDRFAMILY`.
fn numeric_answer(host: &str, ip: IpAddr, family: Family) -> Result<Vec<IpAddr>, DnsError> {
    if family.admits(ip) {
        return Ok(vec![ip]);
    }
    match (ip, family) {
        (IpAddr::V6(v6), Family::V4) => v6.to_ipv4_mapped().map(|v4| vec![IpAddr::V4(v4)]),
        _ => None,
    }
    .ok_or_else(|| DnsError::AddressFamily {
        host: host.into(),
        family,
    })
}

/// Digits and dots only, starting with a digit, not ending with a dot: a
/// name glibc's DNS source answers "not found" for IPv4 without asking
/// (`nss_dns`'s "all-numeric" rule; a final dot makes it a name again).
fn all_numeric(host: &str) -> bool {
    host.starts_with(|c: char| c.is_ascii_digit())
        && !host.ends_with('.')
        && host.chars().all(|c| c.is_ascii_digit() || c == '.')
}

/// Removes a flight from the in-flight map and the gauge, once.
struct FlightGuard {
    inner: Arc<Inner>,
    key: FlightKey,
    no: u64,
}

impl Drop for FlightGuard {
    fn drop(&mut self) {
        dec(&self.inner.counters.in_flight);
        let mut flights = lock(&self.inner.flights);
        if flights.get(&self.key).is_some_and(|(no, _)| *no == self.no) {
            flights.remove(&self.key);
        }
    }
}
