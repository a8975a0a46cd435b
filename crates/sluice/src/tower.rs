//! [`LaneLayer`] (feature `tower`): admission to a lane as a tower `Layer`
//! for HTTP services. Each request reserves a place in the lane's queue
//! before its handler runs; a full lane answers `429 Too Many Requests`
//! with `Retry-After` at once (never queueing on, or blocking, the event
//! loop). The handler finds the place in the request's extensions as
//! [`Admitted`] and runs its blocking part in it.
//!
//! ```
//! use sluice::tower::{Admitted, LaneLayer};
//! use sluice::{Lane, Pool};
//! use tower_service::Service;
//!
//! # futures_executor::block_on(async {
//! let pool = Pool::builder().queue_bound(Lane::Cpu, 8).build()?;
//! let handler = tower::service_fn(|req: http::Request<String>| async move {
//!     let admitted = req.extensions().get::<Admitted>().expect("the layer admitted it");
//!     let sum = admitted.spawn(|| (1..=100u64).sum::<u64>()).expect("spawned once").await?;
//!     Ok::<_, sluice::TaskError>(http::Response::new(sum.to_string()))
//! });
//! let mut svc = tower_layer::Layer::layer(&LaneLayer::new(pool, Lane::Cpu), handler);
//! let resp = svc.call(http::Request::new(String::new())).await?;
//! assert_eq!(resp.status(), 200);
//! assert_eq!(resp.body(), "5050");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! # }).unwrap();
//! ```

use crate::lane::Lane;
use crate::loom::Unpoison;
use crate::loom::sync::Mutex;
use crate::pool::Permit;
use crate::pool::Pool;
use crate::task::Task;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

/// Admits each request to `lane` before the inner service sees it; see the
/// [module docs](self).
#[derive(Debug, Clone)]
pub struct LaneLayer {
    pool: Pool,
    lane: Lane,
    retry_after: Duration,
}

impl LaneLayer {
    /// Admission to `lane` of `pool`, answering `Retry-After: 1` when full.
    pub fn new(pool: Pool, lane: Lane) -> Self {
        LaneLayer {
            pool,
            lane,
            retry_after: Duration::from_secs(1),
        }
    }

    /// The `Retry-After` of a refusal (whole seconds, at least 1).
    pub fn retry_after(mut self, after: Duration) -> Self {
        self.retry_after = after;
        self
    }
}

impl<S> tower_layer::Layer<S> for LaneLayer {
    type Service = LaneService<S>;

    fn layer(&self, inner: S) -> Self::Service {
        LaneService {
            inner,
            layer: self.clone(),
        }
    }
}

/// The service [`LaneLayer`] makes.
#[derive(Debug, Clone)]
pub struct LaneService<S> {
    inner: S,
    layer: LaneLayer,
}

/// The place a request was admitted to, in its extensions. Spend it with
/// [`spawn`](Admitted::spawn); if the handler does not, the place is given
/// back when the request is dropped.
#[derive(Debug, Clone)]
pub struct Admitted(Arc<Mutex<Option<Permit>>>);

impl Admitted {
    /// Runs `f` in the admitted place; `None` if it was already spent.
    pub fn spawn<F, T>(&self, f: F) -> Option<Task<T>>
    where
        F: FnOnce() -> T + Send + 'static,
        T: Send + 'static,
    {
        self.take().map(|p| p.spawn(f))
    }

    /// The permit itself (once).
    pub fn take(&self) -> Option<Permit> {
        self.0.lock().unpoisoned().take()
    }
}

type BoxFuture<T> = Pin<Box<dyn Future<Output = T> + Send>>;

impl<S, ReqB, ResB> tower_service::Service<http::Request<ReqB>> for LaneService<S>
where
    S: tower_service::Service<http::Request<ReqB>, Response = http::Response<ResB>>,
    S::Future: Send + 'static,
    S::Error: Send + 'static,
    ResB: From<String> + Send + 'static,
{
    type Response = http::Response<ResB>;
    type Error = S::Error;
    type Future = BoxFuture<Result<Self::Response, Self::Error>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, mut req: http::Request<ReqB>) -> Self::Future {
        match self.layer.pool.try_reserve(self.layer.lane) {
            Ok(permit) => {
                req.extensions_mut()
                    .insert(Admitted(Arc::new(Mutex::new(Some(permit)))));
                Box::pin(self.inner.call(req))
            }
            Err(busy) => {
                let resp = too_many_requests(busy.lane(), busy.bound(), self.layer.retry_after);
                Box::pin(std::future::ready(Ok(resp)))
            }
        }
    }
}

/// The 429 of a full lane: the lane, its bound, when to retry.
fn too_many_requests<B: From<String>>(
    lane: Lane,
    bound: usize,
    after: Duration,
) -> http::Response<B> {
    let secs = after.as_secs() + u64::from(after.subsec_nanos() > 0);
    let mut resp = http::Response::new(B::from(format!(
        "busy: the {lane} lane's queue is at its bound of {bound}; retry later\n"
    )));
    *resp.status_mut() = http::StatusCode::TOO_MANY_REQUESTS;
    let h = resp.headers_mut();
    h.insert(
        http::header::RETRY_AFTER,
        http::HeaderValue::from(secs.max(1)),
    );
    h.insert(
        http::header::CONTENT_TYPE,
        http::HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    resp
}
