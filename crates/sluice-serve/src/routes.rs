//! The routes of `sluice serve` and what each runs where.
//!
//! | route | work | where | when the `Cpu` queue is at its bound |
//! |-------|------|-------|--------------------------------------|
//! | `/ping` | none | the loop | — |
//! | `/login` | pbkdf2, 100 000 iterations, sha256, 64 bytes | `Cpu` lane | 429 at once |
//! | `/gzip` | gzip of 256 KiB of text | `Cpu` lane | 429 at once |
//! | `/file` | read of a 4 KiB file | `FastIo` lane | (FastIo is unbounded) |
//! | `/metrics` | lanes + loop lag + the doctor's verdict over 1 s windows (`sluice_verdict`), OpenMetrics text | the loop | — |
//!
//! With `--diagnostic-routes`: `/block?ms=N` runs N ms of synchronous work
//! on the loop thread (what a `readFileSync` or a big `JSON.parse` does to
//! Node), `/hold` keeps one `Cpu` thread busy until `/release`, shutdown,
//! its client hanging up, or its timeout (`/hold?ms=N`, default
//! [`DEFAULT_HOLD_MS`]), `/release` answers how many holds it released.
//!
//! Every pool task is held as a [`sluice::CancelOnDrop`]: when a client
//! hangs up, hyper drops its handler, and the task, if still queued, is
//! cancelled (counted in the lane's `cancelled_total`) instead of running
//! for nobody.
//!
//! Admission is the lane's own, as a tower layer: `sluice::tower::LaneLayer`
//! reserves a place in the `Cpu` queue for each `/login` and `/gzip`
//! request (`Pool::try_reserve`) and answers 429 with `Retry-After: 1` past
//! the bound instead of queueing (seed 002's semaphore, built in); the
//! handler runs its hash or compression in that place. `Pool::spawn` is never
//! called for the bounded lane: on a full queue it would block the caller,
//! here the event loop.

use crate::gate::{Gate, HoldEnd};
use axum::Router;
use axum::body::Body;
use axum::extract::{Extension, RawQuery, Request, State};
use axum::http::{StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use sluice::crypto::{self, Digest};
use sluice::tower::{Admitted, LaneLayer};
use sluice::{Busy, Lane, Pool, TaskError, zlib};
use sluice_health::LoopMonitor;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Everything the handlers share.
#[derive(Debug)]
pub struct App {
    /// The lanes.
    pub pool: Pool,
    /// The event loop's lag, for `/metrics`.
    pub lag: LoopMonitor,
    /// The doctor's verdict over 1 s windows, for `/metrics` (`sluice_verdict`).
    pub watch: sluice_health::Watch,
    /// pbkdf2 iterations per `/login`.
    pub login_iterations: u32,
    /// What `/gzip` compresses.
    pub gzip_input: Arc<Vec<u8>>,
    /// What `/file` reads.
    pub file: PathBuf,
    /// What `/hold` waits on.
    pub gate: Arc<Gate>,
    /// Requests counted for shutdown.
    pub requests: Requests,
    /// The connections open.
    pub connections: Arc<crate::conn::Registry>,
}

/// Requests in flight and answered, split at the shutdown signal so the
/// shutdown log adds up. Everything runs on the one loop thread, so the
/// split is exact.
#[derive(Debug, Default)]
pub struct Requests {
    in_flight: AtomicU64,
    signalled: AtomicBool,
    /// In flight at the signal, then answered.
    answered_after: AtomicU64,
    /// In flight at the signal, then dropped unanswered.
    unanswered_after: AtomicU64,
    /// Begun after the signal and answered.
    late: AtomicU64,
}

/// What became of requests after the signal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AfterSignal {
    /// In flight at the signal and answered.
    pub answered: u64,
    /// In flight at the signal and not answered (client gone, or dropped).
    pub unanswered: u64,
    /// Begun after the signal and answered.
    pub late: u64,
}

impl Requests {
    /// The signal came: returns the requests in flight now.
    pub fn signal(&self) -> u64 {
        self.signalled.store(true, Ordering::Relaxed);
        self.in_flight.load(Ordering::Relaxed)
    }

    /// What became of requests since [`Requests::signal`].
    pub fn after_signal(&self) -> AfterSignal {
        AfterSignal {
            answered: self.answered_after.load(Ordering::Relaxed),
            unanswered: self.unanswered_after.load(Ordering::Relaxed),
            late: self.late.load(Ordering::Relaxed),
        }
    }
}

/// The router: the routes above, plus the diagnostic ones if asked for.
pub fn router(app: Arc<App>, diagnostic_routes: bool) -> Router {
    let mut r = Router::new()
        .route("/ping", get(ping))
        .route(
            "/login",
            get(login).post(login).route_layer(cpu_admission(&app)),
        )
        .route("/gzip", get(gzip).route_layer(cpu_admission(&app)))
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

/// Counts requests in flight and what became of them (what shutdown
/// reports).
async fn count(State(app): State<Arc<App>>, req: Request, next: Next) -> Response {
    /// Relaxed: plain counters on the one loop thread, read for a report.
    const R: Ordering = Ordering::Relaxed;
    struct InFlight<'a> {
        requests: &'a Requests,
        /// Begun after the signal.
        late: bool,
        answered: bool,
    }
    impl Drop for InFlight<'_> {
        fn drop(&mut self) {
            let r = self.requests;
            r.in_flight.fetch_sub(1, R);
            if !r.signalled.load(R) {
                return;
            }
            match (self.late, self.answered) {
                (true, true) => drop(r.late.fetch_add(1, R)),
                (true, false) => {}
                (false, true) => drop(r.answered_after.fetch_add(1, R)),
                (false, false) => drop(r.unanswered_after.fetch_add(1, R)),
            }
        }
    }
    let requests = &app.requests;
    requests.in_flight.fetch_add(1, R);
    let mut guard = InFlight {
        requests,
        late: requests.signalled.load(R),
        answered: false,
    };
    let resp = next.run(req).await;
    guard.answered = true;
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

/// Admission to the `Cpu` lane for `/login` and `/gzip`: a request past the
/// queue bound is answered 429 with `Retry-After: 1` before its handler
/// runs; an admitted one carries its queue place ([`Admitted`]).
fn cpu_admission(app: &App) -> LaneLayer {
    LaneLayer::new(app.pool.clone(), Lane::Cpu)
}

/// A 500 for a request whose admitted place was spent already (a bug).
fn place_spent() -> Response {
    text(
        StatusCode::INTERNAL_SERVER_ERROR,
        "the request's Cpu place was already spent\n",
    )
}

async fn login(State(app): State<Arc<App>>, Extension(admitted): Extension<Admitted>) -> Response {
    let iterations = app.login_iterations;
    let job = move || crypto::pbkdf2_sync(b"secret", b"salt", iterations, 64, Digest::Sha256);
    match admitted.spawn(job) {
        None => place_spent(),
        Some(task) => match task.cancel_on_drop().await {
            Ok(Ok(key)) => text(StatusCode::OK, format!("{}\n", hex(&key))),
            Ok(Err(e)) => text(StatusCode::INTERNAL_SERVER_ERROR, format!("{e}\n")),
            Err(e) => task_failed(&e),
        },
    }
}

async fn gzip(State(app): State<Arc<App>>, Extension(admitted): Extension<Admitted>) -> Response {
    let input = Arc::clone(&app.gzip_input);
    let job = move || zlib::gzip_sync(&input, zlib::DEFAULT_LEVEL);
    match admitted.spawn(job) {
        None => place_spent(),
        Some(task) => match task.cancel_on_drop().await {
            Ok(Ok(packed)) => bytes("application/gzip", packed),
            Ok(Err(e)) => text(StatusCode::INTERNAL_SERVER_ERROR, format!("gzip: {e}\n")),
            Err(e) => task_failed(&e),
        },
    }
}

async fn file(State(app): State<Arc<App>>) -> Response {
    match sluice::fs::read(&app.pool, &app.file)
        .cancel_on_drop()
        .await
    {
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
    let pool = app.pool.metrics();
    let verdict = app.watch.observe(sluice_health::Sample::from_snapshot(
        &pool,
        Some(&lag.sample),
    ));
    let body = sluice_health::exposition(&pool, Some(&lag.sample), Some(&verdict));
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
    query_ms(query.unwrap_or(""), MAX_BLOCK_MS)
}

/// `ms` in 1..=`max` from a query such as `ms=300`.
fn query_ms(query: &str, max: u64) -> Result<u64, String> {
    let usage = format!("expected ?ms=N with N in 1..={max}");
    let raw = query
        .split('&')
        .find_map(|kv| kv.strip_prefix("ms="))
        .ok_or_else(|| format!("no ms given; {usage}"))?;
    match raw.parse::<u64>() {
        Ok(n) if (1..=max).contains(&n) => Ok(n),
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

/// How long a `/hold` keeps its thread without `?ms=N`.
pub const DEFAULT_HOLD_MS: u64 = 60_000;

/// The longest `/hold?ms=N`.
pub const MAX_HOLD_MS: u64 = 600_000;

async fn hold(State(app): State<Arc<App>>, RawQuery(query): RawQuery) -> Response {
    let ms = match query.as_deref().map(|q| query_ms(q, MAX_HOLD_MS)) {
        None => DEFAULT_HOLD_MS,
        Some(Ok(ms)) => ms,
        Some(Err(e)) => return text(StatusCode::BAD_REQUEST, format!("/hold: {e}\n")),
    };
    /// Ends the hold when the handler is dropped (its client hung up).
    struct Abandon(Arc<Gate>, Arc<AtomicBool>);
    impl Drop for Abandon {
        fn drop(&mut self) {
            self.1.store(true, Ordering::Relaxed);
            self.0.wake_all();
        }
    }
    let gate = Arc::clone(&app.gate);
    let abandoned = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&abandoned);
    let job = move || gate.hold_for(Duration::from_millis(ms), &flag);
    match app.pool.try_spawn(Lane::Cpu, job) {
        Err(b) => busy(&b),
        Ok(task) => {
            let _abandon = Abandon(Arc::clone(&app.gate), abandoned);
            match task.cancel_on_drop().await {
                Ok(HoldEnd::Released) => text(StatusCode::OK, "released\n"),
                Ok(HoldEnd::TimedOut) => {
                    text(StatusCode::OK, format!("hold timed out after {ms} ms\n"))
                }
                Ok(HoldEnd::Abandoned) => text(StatusCode::OK, "abandoned\n"),
                Err(e) => task_failed(&e),
            }
        }
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
            "no ms given; expected ?ms=N with N in 1..=60000"
        );
        assert_eq!(
            block_ms(Some("ms=0")).unwrap_err(),
            "ms=\"0\": expected ?ms=N with N in 1..=60000"
        );
        assert!(block_ms(Some("ms=abc")).is_err());
    }
}
