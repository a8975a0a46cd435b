//! The pool's and the resolver's metrics, as text and as JSON.

use crate::dns::RESOLVER;
use crate::pool::pool;
use napi_derive::napi;

/// The pool's metrics as Prometheus text (OpenMetrics), `lib/metrics.js` turns
/// it into text that appends to prom-client's.
#[napi]
pub fn metrics_text() -> napi::Result<String> {
    Ok(pool()?.metrics().to_prometheus())
}

/// The pool's metrics and, once a lookup ran, the resolver's, as JSON:
/// `{"pool": ..., "dns": ... | null}`.
#[napi]
pub fn metrics_json() -> napi::Result<String> {
    let pool = pool()?.metrics().to_json();
    let dns = match RESOLVER.get() {
        Some(Ok(r)) => serde_json::to_string(&r.metrics())
            .map_err(|e| napi::Error::from_reason(e.to_string()))?,
        _ => "null".into(),
    };
    Ok(format!("{{\"pool\":{pool},\"dns\":{dns}}}"))
}
