//! [`Builder`]: a resolver's settings, validated, and the lookup deadline
//! they give (glibc's `res_send` schedule).

use super::system::{HOSTS, Mode, Source, SystemConfig};
use super::{DnsError, Resolver};
use hickory_resolver::proto::rr::Name;
use sluice::Pool;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

/// Answers of up to this many distinct lookups are cached by default.
pub const DEFAULT_CACHE_CAPACITY: usize = 1024;
/// No answer is cached longer than this by default, whatever its TTL.
pub const DEFAULT_MAX_TTL: Duration = Duration::from_secs(24 * 3600);

/// Builder methods that set one field: `name(arg: Type) => field = value;`
/// gives `pub fn name(mut self, arg: Type) -> Self`, with the docs given.
macro_rules! setters {
    ($($(#[$doc:meta])* $name:ident($arg:ident: $ty:ty) => $field:ident = $value:expr;)*) => {
        $(
            $(#[$doc])*
            pub fn $name(mut self, $arg: $ty) -> Self {
                self.$field = $value;
                self
            }
        )*
    };
}

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
    pub(crate) nameservers: Vec<SocketAddr>,
    pub(crate) no_nameservers: bool,
    pub(crate) search: Vec<String>,
    pub(crate) ndots: usize,
    pub(crate) timeout: Duration,
    pub(crate) attempts: usize,
    pub(crate) rotate: bool,
    pub(crate) edns0: bool,
    pub(crate) tcp_only: bool,
    pub(crate) no_aaaa: bool,
    pub(crate) hosts: Option<PathBuf>,
    pub(crate) mode: Mode,
    pub(crate) pool: Option<Pool>,
    pub(crate) cache_capacity: usize,
    pub(crate) max_ttl: Duration,
    pub(crate) max_queries: Option<usize>,
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

    /// No hosts file: the `files` source is dropped.
    pub fn no_hosts_file(mut self) -> Self {
        self.hosts = None;
        self
    }

    setters! {
        /// Names with at least `n` dots are tried as given before the search
        /// list (default 1); `0..=15`.
        ndots(value: usize) => ndots = value;

        /// How long one query waits for an answer (default 5 s); 1 ms to 5 min.
        timeout(value: Duration) => timeout = value;

        /// How many times a query is sent before the lookup fails (default 2);
        /// `1..=16`.
        attempts(value: usize) => attempts = value;

        /// The hosts file to answer from (default `/etc/hosts`).
        hosts_file(value: impl Into<PathBuf>) => hosts = Some(value.into());

        /// Forces a mode (the system's is chosen by [`Builder::system`]).
        mode(value: Mode) => mode = value;

        /// The pool whose `SlowIo` lane runs `getaddrinfo` in
        /// [`Mode::Getaddrinfo`]. Without one, a pool with default budgets is
        /// built at the first such lookup.
        fallback_pool(value: Pool) => pool = Some(value);

        /// How many answers the cache keeps (default 1024); 0 turns it off.
        cache_capacity(value: usize) => cache_capacity = value;

        /// The longest an answer is cached, whatever its TTL (default 24 h).
        max_ttl(value: Duration) => max_ttl = value;

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
        max_queries_in_flight(value: usize) => max_queries = Some(value);
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
        Ok(Resolver::from_settings(self, deadline, max_queries))
    }
}

/// How long glibc's resolver asks before it gives up (`res_send`): try 0
/// waits `timeout` on each server, try `n` waits `(timeout << n) /
/// servers` (at least 1 s, or `timeout` if that is shorter) on each, for
/// `attempts` tries; each name of the search list gets all of them. One
/// server, `timeout:2 attempts:2`: 2 s + 4 s.
pub(crate) fn glibc_deadline(
    timeout: Duration,
    attempts: usize,
    servers: usize,
    names: usize,
) -> Duration {
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
