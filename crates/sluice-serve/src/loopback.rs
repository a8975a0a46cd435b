//! [`check_url`]: the doctor and the lab's load generator only talk to
//! servers on this machine. A URL whose host is not a loopback address is
//! refused with an error that says so, before any packet is sent.

use axum::http::Uri;
use std::net::IpAddr;

/// A checked `http://` URL on a loopback address.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoopbackUrl {
    /// The host as written (`127.0.0.1`, `[::1]`, `localhost`).
    pub host: String,
    /// The address to connect to.
    pub ip: IpAddr,
    /// The port (80 if the URL has none).
    pub port: u16,
    /// Path and query, `/` at least.
    pub path: String,
    /// The URL as given.
    pub url: String,
}

/// Parses `url` and refuses anything but `http://` on 127.0.0.0/8, `::1`
/// or `localhost`.
///
/// ```
/// use sluice_serve::loopback::check_url;
/// let u = check_url("http://127.0.0.1:8080/metrics")?;
/// assert_eq!((u.port, u.path.as_str()), (8080, "/metrics"));
/// assert_eq!(check_url("http://localhost:9/")?.ip.to_string(), "127.0.0.1");
/// assert_eq!(
///     check_url("http://10.0.0.7:8080/metrics").unwrap_err(),
///     "http://10.0.0.7:8080/metrics: 10.0.0.7 is not a loopback address; only servers on this machine are reached (127.0.0.0/8, [::1], localhost)"
/// );
/// # Ok::<(), String>(())
/// ```
pub fn check_url(url: &str) -> Result<LoopbackUrl, String> {
    let uri: Uri = url.trim().parse().map_err(|_| {
        format!("{url:?} is not a URL; expected one like http://127.0.0.1:8080/metrics")
    })?;
    match uri.scheme_str() {
        Some("http") => {}
        Some(other) => {
            return Err(format!(
                "{url}: scheme {other:?} is not supported; expected http:// (servers on this machine speak plain HTTP)"
            ));
        }
        None => {
            return Err(format!(
                "{url:?} has no scheme; expected one like http://127.0.0.1:8080/metrics"
            ));
        }
    }
    let host = uri.host().ok_or_else(|| {
        format!("{url}: no host; expected one like http://127.0.0.1:8080/metrics")
    })?;
    let bare = host.trim_start_matches('[').trim_end_matches(']');
    let ip: IpAddr = if bare.eq_ignore_ascii_case("localhost") {
        IpAddr::from([127, 0, 0, 1])
    } else {
        bare.parse().map_err(|_| {
            format!("{url}: host {host:?} is not an IP address or localhost; only servers on this machine are reached (127.0.0.0/8, [::1], localhost)")
        })?
    };
    if !ip.is_loopback() {
        return Err(format!(
            "{url}: {host} is not a loopback address; only servers on this machine are reached (127.0.0.0/8, [::1], localhost)"
        ));
    }
    Ok(LoopbackUrl {
        host: host.to_string(),
        ip,
        port: uri.port_u16().unwrap_or(80),
        path: uri
            .path_and_query()
            .map_or_else(|| "/".to_string(), |p| p.as_str().to_string()),
        url: url.trim().to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_what_is_not_plain_http_on_loopback() {
        assert!(check_url("http://[::1]:8080/x").is_ok());
        assert!(check_url("http://127.3.4.5:1/").is_ok());
        for (url, why) in [
            ("https://127.0.0.1/", "scheme \"https\""),
            ("127.0.0.1:8080", "expected one like http://"),
            ("http://example.com/", "not an IP address or localhost"),
            ("http://192.168.1.2/", "not a loopback address"),
            ("not a url at all", "is not a URL"),
        ] {
            let err = check_url(url).unwrap_err();
            assert!(err.contains(why), "{url}: {err}");
        }
        assert_eq!(check_url("http://127.0.0.1").unwrap().path, "/");
    }
}
