//! `dns.lookup` through `sluice-dns` on the addon's tokio runtime: no pool
//! thread waits on a name server.

use crate::inbox::{NowaitOp, Settle};
use crate::outcome::{Done, Failure};
use crate::pool::pool;
use napi_derive::napi;
use sluice_dns::{DnsError, Family, Resolver};
use std::sync::OnceLock;

/// The tokio runtime `dns.lookup` runs on (built at the first lookup).
pub(crate) static RUNTIME: OnceLock<Result<tokio::runtime::Runtime, String>> = OnceLock::new();

/// The system resolver, its `getaddrinfo` fallback on [`POOL`]'s `SlowIo`.
pub(crate) static RESOLVER: OnceLock<Result<Resolver, String>> = OnceLock::new();

pub(crate) fn runtime() -> Result<&'static tokio::runtime::Runtime, String> {
    RUNTIME
        .get_or_init(|| {
            tokio::runtime::Builder::new_multi_thread()
                .worker_threads(1)
                .thread_name("sluice-dns")
                .enable_all()
                .build()
                .map_err(|e| format!("sluice: the DNS runtime could not start: {e}"))
        })
        .as_ref()
        .map_err(Clone::clone)
}

pub(crate) fn resolver() -> Result<&'static Resolver, String> {
    RESOLVER
        .get_or_init(|| {
            let pool = pool().map_err(|e| e.reason.clone())?;
            sluice_dns::Builder::system()
                .and_then(|b| b.fallback_pool(pool.clone()).build())
                .map_err(|e| format!("sluice: {e}"))
        })
        .as_ref()
        .map_err(Clone::clone)
}

/// Node's code for a failed lookup (`getaddrinfo`'s, as Node renames it).
pub(crate) fn dns_failure(err: &DnsError) -> Failure {
    let code = match err {
        DnsError::NotFound { .. } | DnsError::InvalidName { .. } => "ENOTFOUND",
        DnsError::AddressFamily { .. } => "EAI_ADDRFAMILY",
        DnsError::Timeout { .. } => "EAI_AGAIN",
        _ => "EAI_FAIL",
    };
    Failure::message("dns", Some(code), err.to_string())
}

/// A lookup's outcome: the addresses as text, or Node's failure.
fn addrs_done(result: Result<Vec<std::net::IpAddr>, sluice_dns::DnsError>) -> Done {
    match result {
        Ok(addrs) => Done::Addrs(addrs.iter().map(ToString::to_string).collect()),
        Err(e) => Done::Fail(dns_failure(&e)),
    }
}

/// libuv's `uv_getaddrinfo` copies the name into a 256-byte buffer: a name
/// that does not fit with its NUL is `EINVAL`, before any lookup.
pub(crate) const LIBUV_MAX_HOST: usize = 256;

/// `dns.lookup(host, { family })` through `sluice_dns` on the addon's
/// tokio runtime: no pool thread waits on a name server. `family` is 0, 4
/// or 6; the addresses come back in the resolver's order. With `nowait`, a
/// name the resolver can answer without a wait (the hosts file from the
/// kernel's caches, a fresh cached answer: `Resolver::lookup_now`) is
/// answered here, on the loop's thread, its outcome posted at once.
#[napi]
pub fn lookup(slot: u32, host: String, family: u32, nowait: Option<bool>) -> napi::Result<f64> {
    let family = match family {
        4 => Family::V4,
        6 => Family::V6,
        _ => Family::Any,
    };
    let inbox = crate::inbox::core(slot)?;
    let settle = Settle::open(&inbox);
    let id = settle.id;
    if host.len() >= LIBUV_MAX_HOST {
        let message =
            format!("getaddrinfo EINVAL {host}: libuv refuses names of 256 bytes or more");
        settle.finish(Done::Fail(Failure::message("dns", Some("EINVAL"), message)));
        return Ok(id);
    }
    let (runtime, resolver) = match runtime().and_then(|rt| Ok((rt, resolver()?))) {
        Ok(both) => both,
        Err(message) => {
            settle.finish(Done::Fail(Failure::message(
                "dns",
                Some("EAI_FAIL"),
                message,
            )));
            return Ok(id);
        }
    };
    if nowait == Some(true)
        && let Some(result) = resolver.lookup_now(&host, family)
    {
        inbox.count_nowait(NowaitOp::Lookup);
        settle.finish(addrs_done(result));
        return Ok(id);
    }
    runtime.spawn(async move {
        settle.finish(addrs_done(resolver.lookup(&host, family).await));
    });
    Ok(id)
}
