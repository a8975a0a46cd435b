//! [`Resolver`] and its [`Builder`]: one lookup's path.
//!
//! 1. An IP address literal is its own answer.
//! 2. [`Mode::Getaddrinfo`]: the lookup joins an identical one in flight,
//!    or runs `getaddrinfo` on the pool's `SlowIo` lane. Nothing is cached.
//! 3. [`Mode::Native`]: the sources in order. `files` answers from the
//!    hosts file. `dns` answers from the TTL cache, or joins an identical
//!    lookup in flight, or asks the name servers (hickory-resolver, on the
//!    caller's tokio runtime: no thread is held while it waits) and caches
//!    the answer for its TTL. A source without an answer passes to the
//!    next; the last error is returned.
//!
//! In flight, an identical lookup (same host, family and runtime) is one
//! shared future: whoever polls it drives it, every caller gets its
//! answer, and it is dropped (and leaves the in-flight map) when its last
//! caller goes away.

use super::cache::{Cache, Key};
use super::hosts::HostsFile;
use super::metrics::{Counters, DnsMetrics, dec, inc};
use super::system::{HOSTS, Mode, Source, SystemConfig};
use super::{DnsError, Family, gai, numeric, sort};
use futures_util::FutureExt;
use futures_util::future::{BoxFuture, Shared, WeakShared};
use hickory_resolver::TokioResolver;
use hickory_resolver::config::{
    ConnectionConfig, NameServerConfig, ProtocolConfig, ResolveHosts, ResolverConfig, ResolverOpts,
    ServerOrderingStrategy,
};
use hickory_resolver::net::NetError;
use hickory_resolver::net::runtime::TokioRuntimeProvider;
use hickory_resolver::proto::rr::{Name, RData, RecordType};
use sluice::{Lane, Pool};
use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// Answers of up to this many distinct lookups are cached by default.
pub const DEFAULT_CACHE_CAPACITY: usize = 1024;
/// No answer is cached longer than this by default, whatever its TTL.
pub const DEFAULT_MAX_TTL: Duration = Duration::from_secs(24 * 3600);
/// A hickory resolver is kept for at most this many tokio runtimes.
const MAX_RUNTIMES: usize = 8;

/// Builds a [`Resolver`] from explicit settings ([`Resolver::builder`]) or
/// from the system's ([`Builder::system`]). Every setting is validated by
/// [`build`](Builder::build).
///
/// ```
/// use sluice_dns::{Mode, Resolver, Source};
/// use std::time::Duration;
///
/// let resolver = Resolver::builder()
///     .nameserver("127.0.0.1:5353".parse().unwrap())
///     .search(["lab.test"])
///     .ndots(2)
///     .timeout(Duration::from_millis(500))
///     .attempts(1)
///     .no_hosts_file()
///     .build()?;
/// assert_eq!(resolver.mode(), &Mode::Native { order: vec![Source::Dns] });
///
/// let err = Resolver::builder().attempts(0).build().unwrap_err();
/// assert_eq!(err.to_string(), "attempts=0 is out of range; expected 1..=16");
/// # Ok::<(), sluice_dns::DnsError>(())
/// ```
#[derive(Debug, Clone)]
pub struct Builder {
    nameservers: Vec<SocketAddr>,
    no_nameservers: bool,
    search: Vec<String>,
    ndots: usize,
    timeout: Duration,
    attempts: usize,
    rotate: bool,
    edns0: bool,
    tcp_only: bool,
    no_aaaa: bool,
    hosts: Option<PathBuf>,
    mode: Mode,
    pool: Option<Pool>,
    cache_capacity: usize,
    max_ttl: Duration,
    max_queries: Option<usize>,
}

impl Default for Builder {
    fn default() -> Self {
        Builder {
            nameservers: Vec::new(),
            no_nameservers: false,
            search: Vec::new(),
            ndots: 1,
            timeout: Duration::from_secs(5),
            attempts: 2,
            rotate: false,
            edns0: false,
            tcp_only: false,
            no_aaaa: false,
            hosts: Some(PathBuf::from(HOSTS)),
            mode: Mode::Native {
                order: vec![Source::Files, Source::Dns],
            },
            pool: None,
            cache_capacity: DEFAULT_CACHE_CAPACITY,
            max_ttl: DEFAULT_MAX_TTL,
            max_queries: None,
        }
    }
}

impl Builder {
    /// The system's settings: [`SystemConfig::read`], `/etc/hosts`, and
    /// the [`Mode`] the configuration allows.
    ///
    /// ```
    /// let builder = sluice_dns::Builder::system()?;
    /// let resolver = builder.build()?;
    /// assert_eq!(resolver.metrics().lookups_total, 0);
    /// # Ok::<(), sluice_dns::DnsError>(())
    /// ```
    pub fn system() -> Result<Builder, DnsError> {
        Ok(Builder::from_config(SystemConfig::read()?))
    }

    /// The settings of `config` (with `/etc/hosts` as the hosts file).
    pub fn from_config(config: SystemConfig) -> Builder {
        Builder {
            nameservers: config.nameservers,
            search: config.search,
            ndots: config.ndots,
            timeout: config.timeout,
            attempts: config.attempts,
            rotate: config.rotate,
            edns0: config.edns0,
            tcp_only: config.use_vc,
            no_aaaa: config.no_aaaa,
            mode: config.mode,
            ..Builder::default()
        }
    }

    /// Adds a name server (any port).
    pub fn nameserver(mut self, addr: SocketAddr) -> Self {
        self.nameservers.push(addr);
        self
    }

    /// No name servers: only literals and the hosts file answer. Without
    /// this, a native resolver needs at least one name server.
    pub fn no_nameservers(mut self) -> Self {
        self.nameservers.clear();
        self.no_nameservers = true;
        self
    }

    /// The search list (replaces any).
    pub fn search<S: Into<String>>(mut self, domains: impl IntoIterator<Item = S>) -> Self {
        self.search = domains.into_iter().map(Into::into).collect();
        self
    }

    /// Names with at least `n` dots are tried as given before the search
    /// list (default 1); `0..=15`.
    pub fn ndots(mut self, n: usize) -> Self {
        self.ndots = n;
        self
    }

    /// How long one query waits for an answer (default 5 s); 1 ms to 5 min.
    pub fn timeout(mut self, t: Duration) -> Self {
        self.timeout = t;
        self
    }

    /// How many times a query is sent before the lookup fails (default 2);
    /// `1..=16`.
    pub fn attempts(mut self, n: usize) -> Self {
        self.attempts = n;
        self
    }

    /// The hosts file to answer from (default `/etc/hosts`).
    pub fn hosts_file(mut self, path: impl Into<PathBuf>) -> Self {
        self.hosts = Some(path.into());
        self
    }

    /// No hosts file: the `files` source is dropped.
    pub fn no_hosts_file(mut self) -> Self {
        self.hosts = None;
        self
    }

    /// Forces a mode (the system's is chosen by [`Builder::system`]).
    pub fn mode(mut self, mode: Mode) -> Self {
        self.mode = mode;
        self
    }

    /// The pool whose `SlowIo` lane runs `getaddrinfo` in
    /// [`Mode::Getaddrinfo`]. Without one, a pool with default budgets is
    /// built at the first such lookup.
    pub fn fallback_pool(mut self, pool: Pool) -> Self {
        self.pool = Some(pool);
        self
    }

    /// How many answers the cache keeps (default 1024); 0 turns it off.
    pub fn cache_capacity(mut self, n: usize) -> Self {
        self.cache_capacity = n;
        self
    }

    /// The longest an answer is cached, whatever its TTL (default 24 h).
    pub fn max_ttl(mut self, t: Duration) -> Self {
        self.max_ttl = t;
        self
    }

    /// At most `n` lookups ask the name servers at once (default:
    /// [`default_max_queries`], from the open-file limit); the others wait
    /// for a place, without their timeout running. hickory opens a UDP
    /// socket per query: past the process's file limit a query fails
    /// ("no connections available") instead of waiting, so an unbounded
    /// burst of 5000 lookups under a limit of 1024 lost 90 % of them.
    ///
    /// ```
    /// let err = sluice_dns::Resolver::builder().max_queries_in_flight(0).build().unwrap_err();
    /// assert_eq!(err.to_string(), "max_queries_in_flight=0 is out of range; expected 1..=65536");
    /// ```
    pub fn max_queries_in_flight(mut self, n: usize) -> Self {
        self.max_queries = Some(n);
        self
    }

    /// Validates the settings and builds the resolver. Nothing is read or
    /// sent until the first lookup.
    pub fn build(mut self) -> Result<Resolver, DnsError> {
        let bad = |setting, value: String, expected| {
            Err(DnsError::InvalidConfig {
                setting,
                value,
                expected,
            })
        };
        let max_queries = self.max_queries.unwrap_or_else(default_max_queries);
        if !(1..=65536).contains(&max_queries) {
            return bad(
                "max_queries_in_flight",
                max_queries.to_string(),
                "1..=65536",
            );
        }
        if self.ndots > 15 {
            return bad("ndots", self.ndots.to_string(), "0..=15");
        }
        if !(1..=16).contains(&self.attempts) {
            return bad("attempts", self.attempts.to_string(), "1..=16");
        }
        if self.timeout < Duration::from_millis(1) || self.timeout > Duration::from_secs(300) {
            return bad("timeout", format!("{:?}", self.timeout), "1ms..=300s");
        }
        if let Mode::Native { order } = &mut self.mode {
            if self.hosts.is_none() {
                order.retain(|s| *s != Source::Files);
            }
            if self.no_nameservers {
                order.retain(|s| *s != Source::Dns);
            } else if order.contains(&Source::Dns) && self.nameservers.is_empty() {
                return Err(DnsError::NoNameserver);
            }
        }
        for d in &self.search {
            if Name::from_utf8(d).is_err() {
                return bad("search", format!("{d:?}"), "domain names");
            }
        }
        let deadline = glibc_deadline(
            self.timeout,
            self.attempts,
            self.nameservers.len(),
            self.search.len() + 1,
        );
        Ok(Resolver {
            inner: Arc::new(Inner {
                hosts: self.hosts.as_ref().map(HostsFile::new),
                cache: Mutex::new(Cache::new(self.cache_capacity, self.max_ttl)),
                flights: Mutex::new(HashMap::new()),
                backends: Mutex::new(Vec::new()),
                pool: Mutex::new(self.pool.clone()),
                counters: Counters::default(),
                next_flight: std::sync::atomic::AtomicU64::new(0),
                deadline,
                queries: Arc::new(tokio::sync::Semaphore::new(max_queries)),
                settings: self,
            }),
        })
    }
}

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
    backends: Mutex<Vec<(tokio::runtime::Id, TokioResolver)>>,
    /// The pool for `getaddrinfo`, built at the first fallback if not given.
    pool: Mutex<Option<Pool>>,
    counters: Counters,
    next_flight: std::sync::atomic::AtomicU64,
    /// The longest a DNS lookup may take, all attempts and names included.
    deadline: Duration,
    /// Places for lookups asking the name servers (`max_queries_in_flight`).
    queries: Arc<tokio::sync::Semaphore>,
}

/// How long glibc's resolver asks before it gives up (`res_send`): try 0
/// waits `timeout` on each server, try `n` waits `(timeout << n) /
/// servers` (at least 1 s, or `timeout` if that is shorter) on each, for
/// `attempts` tries; each name of the search list gets all of them. One
/// server, `timeout:2 attempts:2`: 2 s + 4 s.
fn glibc_deadline(timeout: Duration, attempts: usize, servers: usize, names: usize) -> Duration {
    let servers = servers.max(1) as u32;
    let floor = timeout.min(Duration::from_secs(1));
    let per_name: Duration = (0..attempts.min(16) as u32)
        .map(|n| {
            let each = if n == 0 {
                timeout
            } else if timeout.subsec_nanos() == 0 {
                // glibc counts whole seconds (integer division).
                Duration::from_secs(((timeout.as_secs() << n) / u64::from(servers)).max(1))
            } else {
                (timeout * (1 << n) / servers).max(floor)
            };
            each * servers
        })
        .sum();
    per_name * names.max(1) as u32
}

/// The default bound on lookups asking name servers at once: a quarter of
/// the open-file limit left after 128 descriptors for the program (a
/// lookup of both families holds two UDP sockets, and a truncated answer a
/// TCP one more), at least 16 and at most 4096. With the usual soft limit
/// of 1024 it is 224.
///
/// ```
/// let n = sluice_dns::default_max_queries();
/// assert!((16..=4096).contains(&n));
/// ```
pub fn default_max_queries() -> usize {
    let soft = rustix::process::getrlimit(rustix::process::Resource::Nofile).current;
    match soft {
        Some(n) => {
            (usize::try_from(n).unwrap_or(usize::MAX).saturating_sub(128) / 4).clamp(16, 4096)
        }
        None => 4096,
    }
}

/// Locks `m`, ignoring poisoning: every critical section here leaves its
/// data consistent (no user code runs under these locks).
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Resolver {
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
        let c = &self.inner.counters;
        inc(&c.lookups);
        let result = self.resolve(host, family).await;
        match &result {
            Ok(_) => {}
            Err(DnsError::NotFound { .. }) => inc(&c.not_found),
            Err(DnsError::Timeout { .. }) => inc(&c.timeouts),
            Err(_) => inc(&c.errors),
        }
        result
    }

    async fn resolve(&self, host: &str, family: Family) -> Result<Vec<IpAddr>, DnsError> {
        let c = &self.inner.counters;
        if let Some(ip) = numeric::parse_numeric(host) {
            inc(&c.literal);
            return numeric_answer(host, ip, family);
        }
        if host.is_empty() {
            return Err(DnsError::InvalidName {
                host: host.into(),
                reason: "the name is empty".into(),
            });
        }
        let order = match &self.inner.settings.mode {
            Mode::Getaddrinfo { .. } => {
                return self.flight(host, family, false).await;
            }
            Mode::Native { order } => order,
        };
        let mut last = DnsError::NotFound {
            host: host.into(),
            family,
        };
        for source in order {
            match source {
                Source::Files => {
                    let found = self
                        .inner
                        .hosts
                        .as_ref()
                        .and_then(|h| h.lookup(host, family));
                    if let Some(mut addrs) = found {
                        inc(&c.hosts);
                        sort::sort(&mut addrs);
                        return Ok(addrs);
                    }
                }
                Source::Dns => {
                    if let Err(e) = dns_name(host, family) {
                        // glibc sends no query for it either: not found.
                        last = e;
                        continue;
                    }
                    if family == Family::V4 && all_numeric(host) {
                        // glibc's DNS source refuses an IPv4 lookup of
                        // digits and dots that inet_aton did not take
                        // (`08.0.0.1`, `1.2.3.4.5`) without a query.
                        continue;
                    }
                    let key: Key = (host.to_ascii_lowercase(), family);
                    let cached = lock(&self.inner.cache).get(&key, Instant::now());
                    if let Some(mut addrs) = cached {
                        inc(&c.cache_hits);
                        sort::sort(&mut addrs);
                        return Ok(addrs);
                    }
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
            }
        }
        Err(last)
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

    /// Asks the name servers; the addresses and the smallest TTL.
    async fn ask_dns(
        &self,
        host: &str,
        family: Family,
    ) -> Result<(Vec<IpAddr>, Duration), DnsError> {
        let backend = self.backend()?;
        let name = dns_name(host, family)?;
        let no_aaaa = self.inner.settings.no_aaaa;
        let ask = |rtype: RecordType| {
            let backend = backend.clone();
            let name = name.clone();
            async move {
                if rtype == RecordType::AAAA && no_aaaa {
                    return Answer::NotFound;
                }
                Answer::from(backend.lookup(name, rtype).await)
            }
        };
        let started = Instant::now();
        let asked = async {
            match family {
                Family::V4 => ask(RecordType::A).await,
                Family::V6 => ask(RecordType::AAAA).await,
                Family::Any => {
                    let (a, aaaa) =
                        futures_util::future::join(ask(RecordType::A), ask(RecordType::AAAA)).await;
                    a.merge(aaaa)
                }
            }
        };
        let answer = tokio::time::timeout(self.inner.deadline, asked)
            .await
            .unwrap_or(Answer::Timeout);
        match answer {
            Answer::Found(addrs, ttl) => Ok((addrs, Duration::from_secs(u64::from(ttl)))),
            Answer::NotFound => Err(DnsError::NotFound {
                host: host.into(),
                family,
            }),
            Answer::Timeout => Err(DnsError::Timeout {
                host: host.into(),
                after: started.elapsed(),
            }),
            Answer::Failed(message) => Err(DnsError::Failed {
                host: host.into(),
                message,
            }),
        }
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

    /// The hickory resolver of the current runtime, built on first use.
    fn backend(&self) -> Result<TokioResolver, DnsError> {
        let id = tokio::runtime::Handle::try_current()
            .map_err(|_| DnsError::NoRuntime)?
            .id();
        let mut backends = lock(&self.inner.backends);
        if let Some((_, r)) = backends.iter().find(|(i, _)| *i == id) {
            return Ok(r.clone());
        }
        let r = hickory(&self.inner.settings)?;
        if backends.len() >= MAX_RUNTIMES {
            backends.remove(0);
        }
        backends.push((id, r.clone()));
        Ok(r)
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

/// `host` as a name to send to a name server, under the rules of glibc's
/// query builder (`res_mkquery`): at most 253 characters before an optional
/// final dot, labels of 1 to 63 bytes. Any byte is allowed in a label
/// (`_` included, as in `app_db_1`); only non-ASCII names go through IDNA.
/// Names it refuses are not found: glibc asks no server about them.
fn dns_name(host: &str, family: Family) -> Result<Name, DnsError> {
    let not_found = || DnsError::NotFound {
        host: host.into(),
        family,
    };
    let bare = host.strip_suffix('.').unwrap_or(host);
    if bare.is_empty() || bare.len() > 253 || bare.split('.').any(|l| l.is_empty() || l.len() > 63)
    {
        return Err(not_found());
    }
    let parsed = if host.is_ascii() {
        Name::from_ascii(host)
    } else {
        Name::from_utf8(host)
    };
    parsed.map_err(|e| DnsError::InvalidName {
        host: host.into(),
        reason: e.to_string(),
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

/// One query type's outcome.
enum Answer {
    Found(Vec<IpAddr>, u32),
    NotFound,
    Timeout,
    Failed(String),
}

impl From<Result<hickory_resolver::lookup::Lookup, NetError>> for Answer {
    fn from(r: Result<hickory_resolver::lookup::Lookup, NetError>) -> Self {
        match r {
            Ok(lookup) => {
                let mut ttl = u32::MAX;
                let mut addrs = Vec::new();
                for record in lookup.answers() {
                    ttl = ttl.min(record.ttl);
                    let ip = match &record.data {
                        RData::A(a) => IpAddr::V4(a.0),
                        RData::AAAA(a) => IpAddr::V6(a.0),
                        _ => continue,
                    };
                    if !addrs.contains(&ip) {
                        addrs.push(ip);
                    }
                }
                if addrs.is_empty() {
                    Answer::NotFound
                } else {
                    Answer::Found(addrs, ttl)
                }
            }
            Err(e) if e.is_no_records_found() => Answer::NotFound,
            Err(NetError::Timeout) => Answer::Timeout,
            Err(e) => Answer::Failed(e.to_string()),
        }
    }
}

impl Answer {
    /// The answer for `Family::Any`: IPv4 first, then IPv6; a found family
    /// wins over a missing one, a timeout over "not found".
    fn merge(self, other: Answer) -> Answer {
        match (self, other) {
            (Answer::Found(mut a, t1), Answer::Found(b, t2)) => {
                a.extend(b);
                Answer::Found(a, t1.min(t2))
            }
            (found @ Answer::Found(..), _) | (_, found @ Answer::Found(..)) => found,
            (Answer::Failed(m), _) | (_, Answer::Failed(m)) => Answer::Failed(m),
            (Answer::Timeout, _) | (_, Answer::Timeout) => Answer::Timeout,
            (Answer::NotFound, Answer::NotFound) => Answer::NotFound,
        }
    }
}

/// A hickory resolver for `s`: the name servers over UDP (TCP when an
/// answer is truncated, or only TCP with `use-vc`), queried one after the
/// other like glibc, with hickory's own cache and hosts file off (sluice
/// has its own).
fn hickory(s: &Builder) -> Result<TokioResolver, DnsError> {
    let protocols: &[ProtocolConfig] = if s.tcp_only {
        &[ProtocolConfig::Tcp]
    } else {
        &[ProtocolConfig::Udp, ProtocolConfig::Tcp]
    };
    let servers = s
        .nameservers
        .iter()
        .map(|addr| {
            let connections = protocols
                .iter()
                .map(|p| {
                    let mut c = ConnectionConfig::new(p.clone());
                    c.port = addr.port();
                    c
                })
                .collect();
            NameServerConfig::new(addr.ip(), true, connections)
        })
        .collect();
    let mut opts = ResolverOpts::default();
    opts.ndots = s.ndots;
    opts.timeout = s.timeout;
    // Our deadline (glibc's) ends a lookup; hickory's own retries, each
    // `timeout` long, must not end it sooner.
    let deadline = glibc_deadline(s.timeout, s.attempts, s.nameservers.len(), 1);
    opts.attempts = usize::try_from(deadline.as_millis() / s.timeout.as_millis().max(1))
        .unwrap_or(usize::MAX)
        .clamp(s.attempts, 1024);
    opts.edns0 = s.edns0;
    opts.cache_size = 0;
    opts.use_hosts_file = ResolveHosts::Never;
    opts.num_concurrent_reqs = 1;
    opts.server_ordering_strategy = if s.rotate {
        ServerOrderingStrategy::RoundRobin
    } else {
        ServerOrderingStrategy::UserProvidedOrder
    };
    let search = s
        .search
        .iter()
        .filter_map(|d| Name::from_utf8(d).ok())
        .collect();
    let config = ResolverConfig::from_parts(None, search, servers);
    let mut builder =
        hickory_resolver::Resolver::builder_with_config(config, TokioRuntimeProvider::default());
    *builder.options_mut() = opts;
    builder.build().map_err(|e| DnsError::Failed {
        host: String::new(),
        message: format!("building the resolver: {e}"),
    })
}
