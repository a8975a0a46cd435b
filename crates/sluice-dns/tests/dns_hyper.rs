//! `HyperResolver` inside hyper-util's `HttpConnector`: the connector
//! resolves through sluice_dns (here from a hosts file) and connects; no
//! blocking pool is involved. Feature `hyper`.
#![cfg(feature = "hyper")]

use hyper_util::client::legacy::connect::HttpConnector;
use sluice_dns::{Family, HyperResolver, Resolver};
use tower_service::Service;

#[tokio::test(flavor = "current_thread")]
async fn http_connector_resolves_through_sluice_dns() {
    let dir = std::env::temp_dir().join(format!("sluice-hyper-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let hosts = dir.join("hosts");
    std::fs::write(&hosts, "127.0.0.1 svc.internal\n").unwrap();
    let resolver = Resolver::builder()
        .no_nameservers()
        .hosts_file(&hosts)
        .build()
        .unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let mut connector =
        HttpConnector::new_with_resolver(HyperResolver::new(resolver.clone(), Family::V4));
    let uri: http::Uri = format!("http://svc.internal:{port}/").parse().unwrap();
    let (conn, accepted) = tokio::join!(connector.call(uri), listener.accept());
    conn.unwrap();
    accepted.unwrap();
    let m = resolver.metrics();
    assert_eq!((m.lookups_total, m.hosts_total, m.dns_total), (1, 1, 0));

    // An unknown name is the resolver's error, through the connector.
    let mut plain = HyperResolver::new(resolver.clone(), Family::V4);
    let err = plain
        .call("nowhere.internal".parse().unwrap())
        .await
        .unwrap_err();
    assert!(err.is_not_found(), "{err}");
    std::fs::remove_dir_all(dir).unwrap();
}
