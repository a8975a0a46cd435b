//! [`HyperResolver`]: a [`Resolver`] as hyper-util's resolver, so an HTTP
//! client resolves names without `spawn_blocking` (hyper-util's default,
//! `GaiResolver`, runs `getaddrinfo` on tokio's blocking pool). Feature
//! `hyper`.

use super::{DnsError, Family, Resolver};
use futures_util::FutureExt;
use futures_util::future::BoxFuture;
use hyper_util::client::legacy::connect::dns::Name;
use std::net::SocketAddr;
use std::task::{Context, Poll};

/// `tower_service::Service<Name>` over a [`Resolver`], for
/// `hyper_util::client::legacy::connect::HttpConnector::new_with_resolver`.
/// Answers are socket addresses with port 0 (the connector sets the port).
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// use hyper_util::client::legacy::connect::HttpConnector;
/// use sluice_dns::{Family, HyperResolver, Resolver};
/// use tower_service::Service;
///
/// let resolver = Resolver::system()?;
/// let mut hyper_resolver = HyperResolver::new(resolver.clone(), Family::Any);
/// let addrs: Vec<_> = hyper_resolver.call("127.0.0.1".parse()?).await?.collect();
/// assert_eq!(addrs, vec!["127.0.0.1:0".parse()?]);
/// assert_eq!(resolver.metrics().literal_total, 1);
///
/// let _connector = HttpConnector::new_with_resolver(HyperResolver::new(resolver, Family::Any));
/// # Ok(())
/// # }
/// ```
#[derive(Debug, Clone)]
pub struct HyperResolver {
    resolver: Resolver,
    family: Family,
}

impl HyperResolver {
    /// Resolves with `resolver`, asking for `family`.
    pub fn new(resolver: Resolver, family: Family) -> Self {
        HyperResolver { resolver, family }
    }

    /// The system's resolver ([`super::system_resolver`]), both families.
    pub fn system() -> Result<Self, DnsError> {
        Ok(HyperResolver::new(
            super::system_resolver()?.clone(),
            Family::Any,
        ))
    }
}

impl tower_service::Service<Name> for HyperResolver {
    type Response = std::vec::IntoIter<SocketAddr>;
    type Error = DnsError;
    type Future = BoxFuture<'static, Result<Self::Response, DnsError>>;

    fn poll_ready(&mut self, _cx: &mut Context<'_>) -> Poll<Result<(), DnsError>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, name: Name) -> Self::Future {
        let resolver = self.resolver.clone();
        let family = self.family;
        async move {
            let addrs = resolver.lookup(name.as_str(), family).await?;
            Ok(addrs
                .into_iter()
                .map(|ip| SocketAddr::new(ip, 0))
                .collect::<Vec<_>>()
                .into_iter())
        }
        .boxed()
    }
}
