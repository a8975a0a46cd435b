//! [`fetch`]: one GET with ureq, errors that say what to check.

use crate::loopback::LoopbackUrl;
use std::time::Duration;

/// GETs `url` and returns its body as text; a refused connection, a
/// timeout or a status other than 200 is an error naming the URL and what
/// to check.
pub fn fetch(url: &LoopbackUrl, timeout: Duration) -> anyhow::Result<String> {
    String::from_utf8(fetch_bytes(url, timeout)?)
        .map_err(|_| anyhow::anyhow!("{}: the answer is not UTF-8 text", url.url))
}

/// [`fetch`], the body as bytes.
pub fn fetch_bytes(url: &LoopbackUrl, timeout: Duration) -> anyhow::Result<Vec<u8>> {
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .timeout_global(Some(timeout))
        .http_status_as_error(false)
        .build()
        .into();
    let mut resp = agent.get(&url.url).call().map_err(|e| {
        let why = match &e {
            ureq::Error::Io(io) if io.kind() == std::io::ErrorKind::ConnectionRefused => {
                "connection refused".to_string()
            }
            ureq::Error::Timeout(_) => format!("no answer within {timeout:?}"),
            other => other.to_string(),
        };
        anyhow::anyhow!(
            "cannot reach {}: {why}; is `sluice serve` running there? (start one with `sluice serve --listen {}:{}`)",
            url.url,
            url.host,
            url.port
        )
    })?;
    let status = resp.status();
    if status != 200 {
        anyhow::bail!(
            "{} answered {status}; the metrics of `sluice serve` are at /metrics",
            url.url
        );
    }
    resp.body_mut()
        .with_config()
        .limit(64 << 20)
        .read_to_vec()
        .map_err(|e| anyhow::anyhow!("reading the body of {}: {e}", url.url))
}
