//! Asking the name servers as glibc's resolver does (`res_search`,
//! `res_query`, `nss_dns`), checked against glibc 2.36 in a namespace by
//! `crates/sluice-cli/tests/dns_differential.rs`.
//!
//! - The names tried: a name with a final dot is tried alone. Otherwise a
//!   name with at least `ndots` dots is tried as given first, then with
//!   each search domain; one with fewer dots with each search domain
//!   first, then as given. The first name with an answer ends the search.
//!   "No such name" (NXDOMAIN), "no data" and SERVFAIL pass to the next
//!   name; any other failure (a timeout, a refusal) ends the search
//!   domains, and the name as given is still tried if it was not yet. When
//!   none answers: the first name's error if the name was tried as given
//!   first, else "no data" if any name had no data, else SERVFAIL's
//!   "try again" if any had that, else the last error.
//! - For IPv4 and IPv6 at once, A and AAAA are asked for each name
//!   together, and a name that answers either ends the search (as
//!   `nss_dns`'s A-and-AAAA query does).
//! - No name is special: `localhost.`, names under `localhost`, `.test`,
//!   `.invalid`, `.onion` are asked like any other, as glibc 2.36 asks them
//!   (RFC 6761 lets a resolver answer them itself; glibc does not). So
//!   hickory's `NameServerPool` is used directly, without its caching
//!   client, which answers those names itself.
//! - The answer's addresses are kept as the server sent them, repeats
//!   included, as glibc keeps them.

use super::builder::{Builder, glibc_deadline};
use super::{DnsError, Family, Resolver};
use futures_util::StreamExt;
use hickory_resolver::config::{
    ConnectionConfig, NameServerConfig, ProtocolConfig, ResolverOpts, ServerOrderingStrategy,
};
use hickory_resolver::net::runtime::TokioRuntimeProvider;
use hickory_resolver::net::xfer::DnsHandle;
use hickory_resolver::net::{DnsError as WireError, NetError, RetryDnsHandle};
use hickory_resolver::proto::op::{DnsRequestOptions, DnsResponse, Query, ResponseCode};
use hickory_resolver::proto::rr::{Name, RData, RecordType};
use hickory_resolver::{NameServerPool, PoolContext, TlsConfig};
use std::net::IpAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The name servers of one tokio runtime: hickory's pool (one server after
/// the other, or round robin with `rotate`) behind its retry handle.
pub(crate) type Backend = RetryDnsHandle<NameServerPool<TokioRuntimeProvider>>;

/// One name's outcome for one family (or both).
#[derive(Debug, Clone)]
enum Outcome {
    /// Addresses, and the smallest TTL.
    Found(Vec<IpAddr>, u32),
    /// NXDOMAIN: no such name.
    NoName,
    /// The name exists without records of the type asked.
    NoData,
    /// SERVFAIL.
    ServFail,
    /// No server answered in time.
    Timeout,
    /// Anything else (a refusal, a name no query can carry, a network
    /// error).
    Failed(String),
}

impl Resolver {
    /// Asks the name servers about `host` (whose own form [`dns_name`]
    /// accepted), through the search list; the addresses and their
    /// smallest TTL.
    pub(crate) async fn ask_dns(
        &self,
        host: &str,
        family: Family,
    ) -> Result<(Vec<IpAddr>, Duration), DnsError> {
        let backend = self.backend()?;
        let settings = self.settings();
        let started = Instant::now();
        // Each name gets glibc's whole schedule, and no more: a name that
        // times out passes to the next as with glibc.
        let per_name = glibc_deadline(
            settings.timeout,
            settings.attempts,
            settings.nameservers.len(),
            1,
        );
        let searched = search(host, &settings.search, settings.ndots, |name| {
            let asked = ask_name(&backend, settings, name, family);
            async move {
                tokio::time::timeout(per_name, asked)
                    .await
                    .unwrap_or(Outcome::Timeout)
            }
        });
        let outcome = tokio::time::timeout(self.query_deadline(), searched)
            .await
            .unwrap_or(Outcome::Timeout);
        match outcome {
            Outcome::Found(addrs, ttl) => Ok((addrs, Duration::from_secs(u64::from(ttl)))),
            Outcome::NoName | Outcome::NoData => Err(DnsError::NotFound {
                host: host.into(),
                family,
            }),
            Outcome::Timeout => Err(DnsError::Timeout {
                host: host.into(),
                after: started.elapsed(),
            }),
            Outcome::ServFail => Err(DnsError::Failed {
                host: host.into(),
                message: "the name servers answered SERVFAIL (a temporary failure: getaddrinfo's EAI_AGAIN)".into(),
            }),
            Outcome::Failed(message) => Err(DnsError::Failed {
                host: host.into(),
                message,
            }),
        }
    }

    /// The name servers of the current runtime, set up on first use.
    fn backend(&self) -> Result<Backend, DnsError> {
        let id = tokio::runtime::Handle::try_current()
            .map_err(|_| DnsError::NoRuntime)?
            .id();
        self.backend_for(id, || backend(self.settings()))
    }
}

/// glibc's search (`res_search`): the names tried for `host`, in order,
/// each asked with `ask` until one answers. See the [module docs](self).
async fn search<F, Fut>(host: &str, domains: &[String], ndots: usize, ask: F) -> Outcome
where
    F: Fn(String) -> Fut,
    Fut: std::future::Future<Output = Outcome>,
{
    let trailing_dot = host.ends_with('.');
    let bare = host.strip_suffix('.').unwrap_or(host);
    // glibc counts every dot, a final one too.
    let dots = host.matches('.').count();
    let mut saved = None;
    if dots >= ndots || trailing_dot {
        let outcome = ask(host.to_string()).await;
        if matches!(outcome, Outcome::Found(..)) || trailing_dot {
            return outcome;
        }
        saved = Some(outcome);
    }
    let (mut no_data, mut serv_fail) = (false, false);
    let mut last = Outcome::NoName;
    for domain in domains {
        let outcome = ask(format!("{bare}.{domain}")).await;
        match outcome {
            Outcome::Found(..) => return outcome,
            Outcome::NoData => no_data = true,
            Outcome::NoName => {}
            Outcome::ServFail => serv_fail = true,
            Outcome::Timeout | Outcome::Failed(_) => {
                last = outcome;
                break;
            }
        }
        last = outcome;
    }
    if saved.is_none() {
        let outcome = ask(host.to_string()).await;
        if matches!(outcome, Outcome::Found(..)) {
            return outcome;
        }
        last = outcome;
    }
    match saved {
        Some(first) => first,
        None if no_data => Outcome::NoData,
        None if serv_fail => Outcome::ServFail,
        None => last,
    }
}

/// Asks the A and/or AAAA records of one name (as given: no search).
async fn ask_name(backend: &Backend, s: &Builder, name: String, family: Family) -> Outcome {
    let Ok(name) = query_name(&name) else {
        // glibc's query builder refuses it: nothing is sent, and the
        // search ends here.
        return Outcome::Failed(format!("{name:?} cannot be sent in a query"));
    };
    let mut options = DnsRequestOptions::default();
    options.use_edns = s.edns0;
    let ask = |rtype: RecordType| {
        let name = name.clone();
        async move {
            if rtype == RecordType::AAAA && s.no_aaaa {
                return Outcome::NoData;
            }
            let mut responses = backend.lookup(Query::query(name, rtype), options);
            outcome(responses.next().await, rtype)
        }
    };
    match family {
        Family::V4 => ask(RecordType::A).await,
        Family::V6 => ask(RecordType::AAAA).await,
        Family::Any => {
            let (a, aaaa) =
                futures_util::future::join(ask(RecordType::A), ask(RecordType::AAAA)).await;
            merge(a, aaaa)
        }
    }
}

/// One response (or failure) as an [`Outcome`]: the records of `rtype` in
/// the answer, in the server's order.
fn outcome(response: Option<Result<DnsResponse, NetError>>, rtype: RecordType) -> Outcome {
    match response {
        None => Outcome::Failed("the name servers sent nothing".into()),
        Some(Ok(message)) => {
            let mut ttl = u32::MAX;
            let mut addrs = Vec::new();
            for record in &message.answers {
                let ip = match (&record.data, rtype) {
                    (RData::A(a), RecordType::A) => IpAddr::V4(a.0),
                    (RData::AAAA(a), RecordType::AAAA) => IpAddr::V6(a.0),
                    _ => continue,
                };
                ttl = ttl.min(record.ttl);
                addrs.push(ip);
            }
            if addrs.is_empty() {
                Outcome::NoData
            } else {
                Outcome::Found(addrs, ttl)
            }
        }
        Some(Err(NetError::Dns(WireError::NoRecordsFound(none)))) => {
            if none.response_code == ResponseCode::NXDomain {
                Outcome::NoName
            } else {
                Outcome::NoData
            }
        }
        Some(Err(NetError::Dns(WireError::ResponseCode(ResponseCode::ServFail)))) => {
            Outcome::ServFail
        }
        Some(Err(NetError::Timeout)) => Outcome::Timeout,
        Some(Err(e)) => Outcome::Failed(e.to_string()),
    }
}

/// The outcome of asking A and AAAA together, as `res_query` judges a
/// pair: either's addresses (A first); else a timeout or failure of
/// either; else the A answer's error, or the AAAA answer's when A had "no
/// data".
fn merge(a: Outcome, aaaa: Outcome) -> Outcome {
    match (a, aaaa) {
        (Outcome::Found(mut a, t1), Outcome::Found(b, t2)) => {
            a.extend(b);
            Outcome::Found(a, t1.min(t2))
        }
        (found @ Outcome::Found(..), _) | (_, found @ Outcome::Found(..)) => found,
        (Outcome::Timeout, _) | (_, Outcome::Timeout) => Outcome::Timeout,
        (failed @ Outcome::Failed(_), _) | (_, failed @ Outcome::Failed(_)) => failed,
        (Outcome::NoData, other) => other,
        (first, _) => first,
    }
}

/// `host` as a name to send to a name server, under the rules of glibc's
/// query builder (`res_mkquery`): at most 253 characters before an optional
/// final dot, labels of 1 to 63 bytes. Any byte is allowed in a label
/// (`_` included, as in `app_db_1`); only non-ASCII names go through IDNA.
/// Names it refuses are not found: glibc asks no server about them.
pub(crate) fn dns_name(host: &str, family: Family) -> Result<Name, DnsError> {
    let bare = host.strip_suffix('.').unwrap_or(host);
    if bare.is_empty() || bare.len() > 253 || bare.split('.').any(|l| l.is_empty() || l.len() > 63)
    {
        return Err(DnsError::NotFound {
            host: host.into(),
            family,
        });
    }
    query_name(host).map_err(|reason| DnsError::InvalidName {
        host: host.into(),
        reason,
    })
}

/// `name` as hickory's fully qualified [`Name`] (it was checked by
/// [`dns_name`], or is such a name with a search domain appended).
fn query_name(name: &str) -> Result<Name, String> {
    let bare = name.strip_suffix('.').unwrap_or(name);
    if bare.len() > 253 || bare.split('.').any(|l| l.is_empty() || l.len() > 63) {
        return Err(format!("{name:?} is too long for a query"));
    }
    let parsed = if name.is_ascii() {
        Name::from_ascii(name)
    } else {
        Name::from_utf8(name)
    };
    let mut parsed = parsed.map_err(|e| e.to_string())?;
    parsed.set_fqdn(true);
    Ok(parsed)
}

/// The name servers of `s` for one runtime: over UDP (TCP when an answer
/// is truncated, or only TCP with `use-vc`), queried one after the other
/// like glibc (round robin with `rotate`), each try waiting `timeout`.
pub(crate) fn backend(s: &Builder) -> Result<Backend, DnsError> {
    let protocols: &[ProtocolConfig] = if s.tcp_only {
        &[ProtocolConfig::Tcp]
    } else {
        &[ProtocolConfig::Udp, ProtocolConfig::Tcp]
    };
    let servers: Vec<NameServerConfig> = s
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
    opts.timeout = s.timeout;
    // Our deadline (glibc's) ends a lookup; hickory's own retries, each
    // `timeout` long, must not end it sooner.
    let deadline = glibc_deadline(s.timeout, s.attempts, s.nameservers.len(), 1);
    let attempts = usize::try_from(deadline.as_millis() / s.timeout.as_millis().max(1))
        .unwrap_or(usize::MAX)
        .clamp(s.attempts, 1024);
    opts.attempts = attempts;
    opts.edns0 = s.edns0;
    opts.cache_size = 0;
    opts.num_concurrent_reqs = 1;
    opts.server_ordering_strategy = if s.rotate {
        ServerOrderingStrategy::RoundRobin
    } else {
        ServerOrderingStrategy::UserProvidedOrder
    };
    let tls = TlsConfig::new().map_err(|e| DnsError::Failed {
        host: String::new(),
        message: format!("building the resolver: {e}"),
    })?;
    let context = Arc::new(PoolContext::new(opts, tls));
    let pool = NameServerPool::from_config(servers, context, TokioRuntimeProvider::default());
    Ok(RetryDnsHandle::new(pool, attempts))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    /// The names `search` asks for `host`, every one answering `answer`.
    fn asked(host: &str, domains: &[&str], ndots: usize, answer: Outcome) -> Vec<String> {
        let asked = Mutex::new(Vec::new());
        let domains: Vec<String> = domains.iter().map(|d| d.to_string()).collect();
        let rt = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        rt.block_on(search(host, &domains, ndots, |name| {
            asked.lock().unwrap().push(name);
            let answer = answer.clone();
            async move { answer }
        }));
        asked.into_inner().unwrap()
    }

    #[test]
    fn the_names_tried_follow_res_search() {
        let d = ["a.test", "b.test"];
        // Fewer dots than ndots: the search list first, then as given.
        assert_eq!(
            asked("db", &d, 1, Outcome::NoName),
            ["db.a.test", "db.b.test", "db"]
        );
        // Enough dots: as given first.
        assert_eq!(
            asked("x.y", &d, 1, Outcome::NoName),
            ["x.y", "x.y.a.test", "x.y.b.test"]
        );
        assert_eq!(
            asked("x.y", &d, 2, Outcome::NoName),
            ["x.y.a.test", "x.y.b.test", "x.y"]
        );
        // A final dot: that name alone.
        assert_eq!(asked("db.", &d, 1, Outcome::NoName), ["db."]);
        // A timeout ends the search domains; the name as given is still
        // tried.
        assert_eq!(asked("db", &d, 1, Outcome::Timeout), ["db.a.test", "db"]);
        // An answer ends the search.
        assert_eq!(
            asked(
                "db",
                &d,
                1,
                Outcome::Found(vec![IpAddr::from([10, 0, 0, 1])], 0)
            ),
            ["db.a.test"]
        );
    }

    #[test]
    fn a_pair_is_judged_as_res_query_judges_it() {
        let ip = IpAddr::from([10, 0, 0, 1]);
        assert!(matches!(
            merge(Outcome::NoData, Outcome::Found(vec![ip], 5)),
            Outcome::Found(..)
        ));
        assert!(matches!(
            merge(Outcome::NoData, Outcome::NoName),
            Outcome::NoName
        ));
        assert!(matches!(
            merge(Outcome::NoName, Outcome::NoData),
            Outcome::NoName
        ));
        assert!(matches!(
            merge(Outcome::NoData, Outcome::Timeout),
            Outcome::Timeout
        ));
    }
}
