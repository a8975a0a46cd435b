//! The routes of `sluice serve` and what each runs where.
//!
//! | route | work | where | when the `Cpu` queue is at its bound |
//! |-------|------|-------|--------------------------------------|
//! | `/ping` | none | the loop | — |
//! | `/login` | pbkdf2, 100 000 iterations, sha256, 64 bytes | `Cpu` lane | 429 at once |
//! | `/gzip` | gzip of 256 KiB of text | `Cpu` lane | 429 at once |
//! | `/file` | read of a 4 KiB file | `FastIo` lane | (FastIo is unbounded) |
//! | `/metrics` | lanes + loop lag, Prometheus text | the loop | — |
//!
//! With `--diagnostic-routes`: `/block?ms=N` runs N ms of synchronous work
//! on the loop thread (what a `readFileSync` or a big `JSON.parse` does to
//! Node), `/hold` keeps one `Cpu` thread busy until `/release` (or
//! shutdown), `/release` answers how many holds it released.
//!
//! Admission is the lane's own: `Pool::try_spawn` refuses with `Busy` past
//! the queue bound, and the route answers 429 with `Retry-After: 1` instead
//! of queueing (seed 002's semaphore, built in). `Pool::spawn` is never
//! called for the bounded lane: on a full queue it would block the caller,
//! here the event loop.

use crate::gate::Gate;
use axum::Router;
use axum::body::Body;
use axum::extract::{RawQuery, Request, State};
use axum::http::{StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use sluice::crypto::{self, Digest};
use sluice::health::LoopMonitor;
use sluice::{Busy, Lane, Pool, TaskError, zlib};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Everything the handlers share.
#[derive(Debug)]
pub struct App {
    /// The lanes.
    pub pool: Pool,
    /// The event loop's lag, for `/metrics`.
    pub lag: LoopMonitor,
    /// pbkdf2 iterations per `/login`.
    pub login_iterations: u32,
    /// What `/gzip` compresses.
    pub gzip_input: Arc<Vec<u8>>,
    /// What `/file` reads.
    pub file: PathBuf,
    /// What `/hold` waits on.
    pub gate: Arc<Gate>,
    /// Requests being answered now.
    pub in_flight: AtomicU64,
    /// Requests answered so far.
    pub answered: AtomicU64,
}

/// The router: the routes above, plus the diagnostic ones if asked for.
pub fn router(app: Arc<App>, diagnostic_routes: bool) -> Router {
    let mut r = Router::new()
        .route("/ping", get(ping))
        .route("/login", get(login).post(login))
        .route("/gzip", get(gzip))
        .route("/file", get(file))
        .route("/metrics", get(metrics));
    if diagnostic_routes {
        r = r
            .route("/block", get(block))
            .route("/hold", get(hold))
            .route("/release", get(release));
    }
    r.fallback(not_found)
        .layer(middleware::from_fn_with_state(Arc::clone(&app), count))
        .with_state(app)
}

/// Counts requests in flight and answered (what shutdown reports).
async fn count(State(app): State<Arc<App>>, req: Request, next: Next) -> Response {
    struct InFlight<'a>(&'a App);
    impl Drop for InFlight<'_> {
        fn drop(&mut self) {
            // Relaxed: plain counters read for a report, ordering nothing else.
            self.0.in_flight.fetch_sub(1, Ordering::Relaxed);
        }
    }
    app.in_flight.fetch_add(1, Ordering::Relaxed);
    let _guard = InFlight(&app);
    let resp = next.run(req).await;
    app.answered.fetch_add(1, Ordering::Relaxed);
    resp
}

fn text(status: StatusCode, body: impl Into<String>) -> Response {
    (
        status,
        [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
        body.into(),
    )
        .into_response()
}

fn bytes(content_type: &'static str, body: Vec<u8>) -> Response {
    (
        StatusCode::OK,
        [(header::CONTENT_TYPE, content_type)],
        Body::from(body),
    )
        .into_response()
}

/// 429 for a refused submission: the lane, its bound, when to retry.
fn busy<F>(b: &Busy<F>) -> Response {
    (
        StatusCode::TOO_MANY_REQUESTS,
        [
            (header::RETRY_AFTER, "1"),
            (header::CONTENT_TYPE, "text/plain; charset=utf-8"),
        ],
        format!(
            "busy: the {} lane's queue is at its bound of {}; retry later\n",
            b.lane(),
            b.bound()
        ),
    )
        .into_response()
}

fn task_failed(e: &TaskError) -> Response {
    let status = match e {
        TaskError::Shutdown => StatusCode::SERVICE_UNAVAILABLE,
        _ => StatusCode::INTERNAL_SERVER_ERROR,
    };
    text(status, format!("task failed: {e}\n"))
}

async fn ping() -> &'static str {
    "pong\n"
}

async fn login(State(app): State<Arc<App>>) -> Response {
    let iterations = app.login_iterations;
    let job = move || crypto::pbkdf2_sync(b"secret", b"salt", iterations, 64, Digest::Sha256);
    match app.pool.try_spawn(Lane::Cpu, job) {
        Err(b) => busy(&b),
        Ok(task) => match task.await {
            Ok(Ok(key)) => text(StatusCode::OK, format!("{}\n", hex(&key))),
            Ok(Err(e)) => text(StatusCode::INTERNAL_SERVER_ERROR, format!("{e}\n")),
            Err(e) => task_failed(&e),
        },
    }
}

async fn gzip(State(app): State<Arc<App>>) -> Response {
    let input = Arc::clone(&app.gzip_input);
    let job = move || zlib::gzip_sync(&input, zlib::DEFAULT_LEVEL);
    match app.pool.try_spawn(Lane::Cpu, job) {
        Err(b) => busy(&b),
        Ok(task) => match task.await {
            Ok(Ok(packed)) => bytes("application/gzip", packed),
            Ok(Err(e)) => text(StatusCode::INTERNAL_SERVER_ERROR, format!("gzip: {e}\n")),
            Err(e) => task_failed(&e),
        },
    }
}

async fn file(State(app): State<Arc<App>>) -> Response {
    match sluice::fs::read(&app.pool, &app.file).await {
        Ok(Ok(data)) => bytes("application/octet-stream", data),
        Ok(Err(e)) => text(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("reading {}: {e}\n", app.file.display()),
        ),
        Err(e) => task_failed(&e),
    }
}

async fn metrics(State(app): State<Arc<App>>) -> Response {
    let lag = app.lag.snapshot();
    let body = sluice::health::to_prometheus(&app.pool.metrics(), Some(&lag.sample));
    (
        StatusCode::OK,
        [(
            header::CONTENT_TYPE,
            "application/openmetrics-text; version=1.0.0; charset=utf-8",
        )],
        body,
    )
        .into_response()
}

/// The longest `/block` accepted.
pub const MAX_BLOCK_MS: u64 = 60_000;

/// `ms` from a query such as `ms=300`, or a message naming what is wrong.
fn block_ms(query: Option<&str>) -> Result<u64, String> {
    let usage = format!("expected /block?ms=N with N in 1..={MAX_BLOCK_MS}");
    let raw = query
        .unwrap_or("")
        .split('&')
        .find_map(|kv| kv.strip_prefix("ms="))
        .ok_or_else(|| format!("no ms given; {usage}"))?;
    match raw.parse::<u64>() {
        Ok(n) if (1..=MAX_BLOCK_MS).contains(&n) => Ok(n),
        _ => Err(format!("ms={raw:?}: {usage}")),
    }
}

async fn block(RawQuery(query): RawQuery) -> Response {
    let ms = match block_ms(query.as_deref()) {
        Ok(ms) => ms,
        Err(e) => return text(StatusCode::BAD_REQUEST, format!("{e}\n")),
    };
    // Synchronous work on the loop thread, on purpose: nothing else on the
    // loop runs until it ends (timers, other requests, /metrics).
    let t = Instant::now();
    while t.elapsed() < Duration::from_millis(ms) {
        std::hint::spin_loop();
    }
    text(StatusCode::OK, format!("blocked the loop for {ms} ms\n"))
}

async fn hold(State(app): State<Arc<App>>) -> Response {
    let gate = Arc::clone(&app.gate);
    match app.pool.try_spawn(Lane::Cpu, move || gate.hold()) {
        Err(b) => busy(&b),
        Ok(task) => match task.await {
            Ok(()) => text(StatusCode::OK, "released\n"),
            Err(e) => task_failed(&e),
        },
    }
}

async fn release(State(app): State<Arc<App>>) -> Response {
    let n = app.gate.release();
    text(StatusCode::OK, format!("released {n} holds\n"))
}

async fn not_found(req: Request) -> Response {
    text(
        StatusCode::NOT_FOUND,
        format!(
            "no route {}; routes: /ping /login /gzip /file /metrics\n",
            req.uri().path()
        ),
    )
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn block_ms_names_what_is_wrong() {
        assert_eq!(block_ms(Some("ms=300")), Ok(300));
        assert_eq!(block_ms(Some("x=1&ms=5")), Ok(5));
        assert_eq!(
            block_ms(None).unwrap_err(),
            "no ms given; expected /block?ms=N with N in 1..=60000"
        );
        assert_eq!(
            block_ms(Some("ms=0")).unwrap_err(),
            "ms=\"0\": expected /block?ms=N with N in 1..=60000"
        );
        assert!(block_ms(Some("ms=abc")).is_err());
    }
}
