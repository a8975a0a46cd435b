//! The system's name-service configuration, read the way the C library
//! reads it, and the one decision that follows from it: can sluice answer
//! like `getaddrinfo` by itself ([`Mode::Native`]), or must it ask
//! `getaddrinfo` ([`Mode::Getaddrinfo`])?
//!
//! ## When sluice_dns falls back to `getaddrinfo`
//!
//! Exactly when the system asks for something only the C library can do.
//! On glibc (`target_env = "gnu"`):
//!
//! 1. `/etc/nsswitch.conf` is missing, or has no `hosts:` line: glibc's
//!    built-in default, `dns [!UNAVAIL=return] files`, has an action.
//! 2. The `hosts:` line names any source other than `files` and `dns`
//!    (`mdns4_minimal`, `myhostname`, `resolve`, `mymachines`, `nis`,
//!    `ldap`, `sss`, `wins`, ...), or carries an action (`[NOTFOUND=return]`).
//! 3. `LOCALDOMAIN`, `RES_OPTIONS` or `HOSTALIASES` is set in the
//!    environment: glibc applies them, sluice does not.
//!
//! Otherwise sluice answers by itself, asking the sources in the order of
//! the `hosts:` line (`files dns`, `dns files`, `files` or `dns`). On musl
//! (`target_env = "musl"`), which reads no `nsswitch.conf`, the order is
//! always `files` then `dns`, and the environment does not matter. On other
//! platforms every lookup is `getaddrinfo`'s.
//!
//! ## What is read from `/etc/resolv.conf`
//!
//! `nameserver` (at most 3, as glibc; none means `127.0.0.1`), `search` or
//! `domain` (the last one wins; neither means the part of the host name
//! after its first dot, as glibc), and the options `ndots` (glibc caps it
//! at 15), `timeout` (capped at 30 s), `attempts` (capped at 5), `rotate`,
//! `edns0`, `use-vc` (TCP only) and `no-aaaa` (no AAAA queries); a
//! `timeout` or `attempts` of 0 counts as 1. Other
//! options do not change answers and are ignored; a missing file means
//! glibc's defaults (ndots 1, timeout 5 s, attempts 2). Both files are read
//! once, when the resolver is built.

use std::net::{IpAddr, Ipv4Addr, SocketAddr, SocketAddrV6};
use std::time::Duration;

use super::DnsError;

/// Where a name can be found, as named in `/etc/nsswitch.conf`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Source {
    /// The hosts file (`/etc/hosts`).
    Files,
    /// The name servers.
    Dns,
}

/// How a [`Resolver`](super::Resolver) answers.
///
/// ```
/// use sluice_dns::{Mode, Source, SystemConfig};
///
/// let native = SystemConfig::parse(Some("nameserver 10.0.0.53\n"), Some("hosts: files dns\n"), &|_| None, None);
/// assert_eq!(native.mode, Mode::Native { order: vec![Source::Files, Source::Dns] });
///
/// let mdns = SystemConfig::parse(None, Some("hosts: files mdns4_minimal [NOTFOUND=return] dns\n"), &|_| None, None);
/// assert!(matches!(mdns.mode, Mode::Getaddrinfo { .. }));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Mode {
    /// sluice answers by itself, asking the sources in this order; a source
    /// that has no answer passes the lookup to the next.
    Native {
        /// The sources, in order.
        order: Vec<Source>,
    },
    /// Every lookup is `getaddrinfo`, run on a pool's `SlowIo` lane.
    Getaddrinfo {
        /// Why: the configuration sluice cannot reproduce.
        reason: String,
    },
}

/// The name-service configuration of this system (or of texts given to
/// [`SystemConfig::parse`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SystemConfig {
    /// Name servers, in order, port 53.
    pub nameservers: Vec<SocketAddr>,
    /// The search list.
    pub search: Vec<String>,
    /// Names with at least this many dots are tried as given first.
    pub ndots: usize,
    /// How long one query waits for an answer.
    pub timeout: Duration,
    /// How many times each query is sent to the name servers.
    pub attempts: usize,
    /// `options rotate`: spread queries over the name servers.
    pub rotate: bool,
    /// `options edns0`.
    pub edns0: bool,
    /// `options use-vc`: TCP only.
    pub use_vc: bool,
    /// `options no-aaaa`: never ask for AAAA records.
    pub no_aaaa: bool,
    /// Native or `getaddrinfo`, and why.
    pub mode: Mode,
}

/// The files this module reads.
pub const RESOLV_CONF: &str = "/etc/resolv.conf";
/// See [`RESOLV_CONF`].
pub const NSSWITCH_CONF: &str = "/etc/nsswitch.conf";
/// See [`RESOLV_CONF`].
pub const HOSTS: &str = "/etc/hosts";

/// glibc's caps on resolv.conf options (`resolv/resolv.h`).
const MAX_NAMESERVERS: usize = 3;
const MAX_NDOTS: u32 = 15;
const MAX_TIMEOUT_S: u32 = 30;
const MAX_ATTEMPTS: u32 = 5;

impl SystemConfig {
    /// Reads `/etc/resolv.conf`, `/etc/nsswitch.conf`, the host name and the
    /// environment. A missing file is glibc's defaults; a file that exists
    /// but cannot be read is an error naming it.
    ///
    /// ```
    /// let config = sluice_dns::SystemConfig::read()?;
    /// assert!(!config.nameservers.is_empty());
    /// # Ok::<(), sluice_dns::DnsError>(())
    /// ```
    pub fn read() -> Result<SystemConfig, DnsError> {
        let resolv = read_optional(RESOLV_CONF)?;
        let nsswitch = read_optional(NSSWITCH_CONF)?;
        // The UTS namespace's node name, as `/proc/sys/kernel/hostname`
        // shows it (a file `procfs` does not read), without `/proc`.
        let hostname = rustix::system::uname()
            .nodename()
            .to_str()
            .ok()
            .map(str::to_string);
        Ok(SystemConfig::parse(
            resolv.as_deref(),
            nsswitch.as_deref(),
            &|name| std::env::var(name).ok(),
            hostname.as_deref().map(str::trim),
        ))
    }

    /// The configuration these texts give: `resolv` and `nsswitch` are the
    /// files' contents (`None`: missing), `env` looks up environment
    /// variables, `hostname` is the machine's name.
    ///
    /// ```
    /// use sluice_dns::SystemConfig;
    /// use std::time::Duration;
    ///
    /// let c = SystemConfig::parse(
    ///     Some("nameserver 10.0.0.53\nsearch corp.example\noptions ndots:2 timeout:1 attempts:9\n"),
    ///     Some("hosts: files dns\n"),
    ///     &|_| None,
    ///     Some("vm.lab.example"),
    /// );
    /// assert_eq!(c.nameservers, vec!["10.0.0.53:53".parse().unwrap()]);
    /// assert_eq!(c.search, vec!["corp.example".to_string()]);
    /// assert_eq!((c.ndots, c.timeout, c.attempts), (2, Duration::from_secs(1), 5));
    /// ```
    pub fn parse(
        resolv: Option<&str>,
        nsswitch: Option<&str>,
        env: &dyn Fn(&str) -> Option<String>,
        hostname: Option<&str>,
    ) -> SystemConfig {
        let (conf, _ignored) =
            resolv_conf::Config::parse_with_errors(resolv.unwrap_or("").as_bytes());
        let mut nameservers: Vec<SocketAddr> = conf
            .nameservers
            .iter()
            .take(MAX_NAMESERVERS)
            .map(|ns| match ns {
                resolv_conf::ScopedIp::V4(ip) => SocketAddr::new(IpAddr::V4(*ip), 53),
                resolv_conf::ScopedIp::V6(ip, scope) => SocketAddr::V6(SocketAddrV6::new(
                    *ip,
                    53,
                    0,
                    scope.as_deref().and_then(|s| s.parse().ok()).unwrap_or(0),
                )),
            })
            .collect();
        if nameservers.is_empty() {
            nameservers.push(SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), 53));
        }
        // A domain is kept without its trailing dots; one that is nothing
        // but dots (`.`, `...`) names the root and is no search domain.
        let domain = |d: &str| {
            let d = d.trim_end_matches('.');
            (!d.is_empty()).then(|| d.to_string())
        };
        let mut search: Vec<String> = conf
            .get_last_search_or_domain()
            .filter_map(|d| domain(d))
            .collect();
        if search.is_empty()
            && let Some(d) = hostname
                .and_then(|h| h.split_once('.'))
                .and_then(|(_, d)| domain(d))
        {
            search.push(d);
        }
        SystemConfig {
            nameservers,
            search,
            ndots: conf.ndots.min(MAX_NDOTS) as usize,
            // A zero timeout or attempt count would fail every query at
            // once, so either counts as 1.
            timeout: Duration::from_secs(u64::from(conf.timeout.clamp(1, MAX_TIMEOUT_S))),
            attempts: conf.attempts.clamp(1, MAX_ATTEMPTS) as usize,
            rotate: conf.rotate,
            edns0: conf.edns0,
            use_vc: conf.use_vc,
            no_aaaa: conf.no_aaaa,
            mode: mode(nsswitch, env),
        }
    }
}

/// The file's text, `None` if it does not exist.
fn read_optional(path: &str) -> Result<Option<String>, DnsError> {
    match std::fs::read_to_string(path) {
        Ok(t) => Ok(Some(t)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(DnsError::SystemConfig {
            path: path.to_string(),
            message: e.to_string(),
        }),
    }
}

/// The environment variables glibc's resolver applies and sluice does not.
#[cfg(any(target_env = "gnu", test))]
const GLIBC_ENV: [&str; 3] = ["LOCALDOMAIN", "RES_OPTIONS", "HOSTALIASES"];

#[cfg(target_env = "musl")]
fn mode(_nsswitch: Option<&str>, _env: &dyn Fn(&str) -> Option<String>) -> Mode {
    Mode::Native {
        order: vec![Source::Files, Source::Dns],
    }
}

#[cfg(not(any(target_env = "musl", target_env = "gnu")))]
fn mode(_nsswitch: Option<&str>, _env: &dyn Fn(&str) -> Option<String>) -> Mode {
    Mode::Getaddrinfo {
        reason: "sluice_dns reproduces glibc's and musl's resolvers only; on this platform the C library answers".into(),
    }
}

#[cfg(any(target_env = "gnu", test))]
#[cfg_attr(not(target_env = "gnu"), allow(dead_code))]
fn mode_glibc(nsswitch: Option<&str>, env: &dyn Fn(&str) -> Option<String>) -> Mode {
    for var in GLIBC_ENV {
        if env(var).is_some_and(|v| !v.is_empty()) {
            return Mode::Getaddrinfo {
                reason: format!(
                    "{var} is set in the environment; glibc applies it and sluice_dns does not"
                ),
            };
        }
    }
    match hosts_sources(nsswitch) {
        Ok(order) => Mode::Native { order },
        Err(reason) => Mode::Getaddrinfo { reason },
    }
}

#[cfg(target_env = "gnu")]
fn mode(nsswitch: Option<&str>, env: &dyn Fn(&str) -> Option<String>) -> Mode {
    mode_glibc(nsswitch, env)
}

/// The sources of the `hosts:` line, or why sluice cannot follow it.
#[cfg_attr(not(any(target_env = "gnu", test)), allow(dead_code))]
fn hosts_sources(nsswitch: Option<&str>) -> Result<Vec<Source>, String> {
    const DEFAULT: &str = "glibc's built-in default, `hosts: dns [!UNAVAIL=return] files`, has an action sluice_dns does not implement";
    let Some(text) = nsswitch else {
        return Err(format!("there is no {NSSWITCH_CONF}; {DEFAULT}"));
    };
    let Some(line) = text
        .lines()
        .map(|l| l.split('#').next().unwrap_or(""))
        .find_map(|l| l.trim_start().strip_prefix("hosts:"))
    else {
        return Err(format!("{NSSWITCH_CONF} has no hosts line; {DEFAULT}"));
    };
    let line = line.trim();
    let mut order = Vec::new();
    for word in line.split_whitespace() {
        let source = match word {
            "files" => Source::Files,
            "dns" => Source::Dns,
            w if w.starts_with('[') => {
                return Err(format!(
                    "{NSSWITCH_CONF} has `hosts: {line}`, whose action {w} sluice_dns does not implement"
                ));
            }
            w => {
                return Err(format!(
                    "{NSSWITCH_CONF} has `hosts: {line}`, and only getaddrinfo can ask the {w} source"
                ));
            }
        };
        if !order.contains(&source) {
            order.push(source);
        }
    }
    if order.is_empty() {
        return Err(format!(
            "{NSSWITCH_CONF} has an empty hosts line; {DEFAULT}"
        ));
    }
    Ok(order)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn no_env(_: &str) -> Option<String> {
        None
    }

    /// The fuzzer's find (fuzz target `resolv_conf`): `search ...` gave a
    /// search list holding an empty domain (the dots trimmed after the
    /// check for empty ones). Domains of dots alone are the root: left out.
    #[test]
    fn a_search_domain_of_dots_alone_is_no_search_domain() {
        let crash =
            String::from_utf8_lossy(include_bytes!("testdata/fuzz-resolv-conf-crash-25da8779"));
        let c = SystemConfig::parse(Some(&crash), None, &no_env, Some("host.fuzz.test"));
        assert_eq!(c.search, vec!["fuzz.test".to_string()]);
        let c = SystemConfig::parse(
            Some("search ... a.example. . b.example\n"),
            None,
            &no_env,
            None,
        );
        assert_eq!(
            c.search,
            vec!["a.example".to_string(), "b.example".to_string()]
        );
        let c = SystemConfig::parse(Some("search ..\n"), None, &no_env, Some("host.."));
        assert!(c.search.is_empty(), "{:?}", c.search);
    }

    #[test]
    fn only_files_and_dns_without_actions_are_native() {
        let native = |t: &str| hosts_sources(Some(t));
        assert_eq!(
            native("passwd: files\nhosts:   files dns # comment\n"),
            Ok(vec![Source::Files, Source::Dns])
        );
        assert_eq!(
            native("hosts: dns files\n"),
            Ok(vec![Source::Dns, Source::Files])
        );
        assert_eq!(native("hosts: files\n"), Ok(vec![Source::Files]));
        let why = native("hosts: files myhostname dns\n").unwrap_err();
        assert!(
            why.contains("only getaddrinfo can ask the myhostname source"),
            "{why}"
        );
        let why = native("hosts: files [NOTFOUND=return] dns\n").unwrap_err();
        assert!(why.contains("action [NOTFOUND=return]"), "{why}");
        assert!(
            native("passwd: files\n")
                .unwrap_err()
                .contains("no hosts line")
        );
        assert!(
            hosts_sources(None)
                .unwrap_err()
                .contains("there is no /etc/nsswitch.conf")
        );
        assert!(native("hosts:\n").unwrap_err().contains("empty hosts line"));
    }

    #[test]
    fn glibc_environment_variables_force_getaddrinfo() {
        let ns = Some("hosts: files dns\n");
        assert_eq!(
            mode_glibc(ns, &no_env),
            Mode::Native {
                order: vec![Source::Files, Source::Dns]
            }
        );
        let env = |v: &str| (v == "RES_OPTIONS").then(|| "ndots:3".to_string());
        match mode_glibc(ns, &env) {
            Mode::Getaddrinfo { reason } => {
                assert!(reason.starts_with("RES_OPTIONS is set"), "{reason}")
            }
            m => panic!("{m:?}"),
        }
    }

    #[test]
    fn resolv_conf_follows_glibc_defaults_and_caps() {
        let c = SystemConfig::parse(None, None, &no_env, Some("vm"));
        assert_eq!(c.nameservers, vec!["127.0.0.1:53".parse().unwrap()]);
        assert!(c.search.is_empty());
        assert_eq!(
            (c.ndots, c.timeout, c.attempts),
            (1, Duration::from_secs(5), 2)
        );
        let c = SystemConfig::parse(
            Some(
                "nameserver 10.0.0.1\nnameserver 10.0.0.2\nnameserver fe80::1%2\nnameserver 10.0.0.4\nsearch a.example b.example\ndomain c.example\noptions ndots:20 timeout:99 attempts:0 rotate use-vc no-aaaa edns0 trust-ad\n",
            ),
            None,
            &no_env,
            Some("vm.d.example"),
        );
        assert_eq!(c.nameservers.len(), 3);
        assert_eq!(c.nameservers[2], "[fe80::1%2]:53".parse().unwrap());
        assert_eq!(
            c.search,
            vec!["c.example".to_string()],
            "the last of search/domain wins"
        );
        assert_eq!(
            (c.ndots, c.timeout, c.attempts),
            (15, Duration::from_secs(30), 1)
        );
        assert!(c.rotate && c.use_vc && c.no_aaaa && c.edns0);
        let c = SystemConfig::parse(
            Some("nameserver 10.0.0.1\n"),
            None,
            &no_env,
            Some("vm.d.example"),
        );
        assert_eq!(
            c.search,
            vec!["d.example".to_string()],
            "the host name's domain"
        );
    }
}
