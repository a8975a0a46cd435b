//! What a Rust subject's child process runs workloads on.

use sluice::Lane;
use std::future::Future;
use std::pin::Pin;

/// A boxed job for an [`Executor`].
pub type Job = Box<dyn FnOnce() + Send + 'static>;

/// A future that resolves when a submitted job has run (or failed to).
pub type Done = Pin<Box<dyn Future<Output = Result<(), String>> + Send + 'static>>;

/// A pool that runs blocking jobs: a sluice `Pool` under either policy, or
/// tokio's `spawn_blocking`.
pub trait Executor: Send + Sync {
    /// The subject's name.
    fn subject(&self) -> &'static str;
    /// Submits `job` to `lane` (tokio ignores lanes: it has one pool).
    fn submit(&self, lane: Lane, job: Job) -> Done;
    /// The pool's own counters, if it has any.
    fn metrics(&self) -> Option<sluice::Snapshot> {
        None
    }
    /// The sluice pool behind this executor, for workloads that call
    /// sluice's own operations (`sluice::fs`, ...); `None` for tokio.
    fn pool(&self) -> Option<&sluice::Pool> {
        None
    }
}

/// Runs `f` on `lane` of `exec` and returns its value.
pub async fn run_on<T, F>(exec: &dyn Executor, lane: Lane, f: F) -> Result<T, String>
where
    F: FnOnce() -> T + Send + 'static,
    T: Send + 'static,
{
    let (tx, rx) = tokio::sync::oneshot::channel();
    exec.submit(
        lane,
        Box::new(move || {
            let _ = tx.send(f());
        }),
    )
    .await?;
    rx.await
        .map_err(|_| "job finished without a value".to_string())
}

/// What an experiment's child side gets: the executor, the event loop
/// (a tokio current-thread runtime, the analogue of Node's loop), and the
/// pool size it was started with.
pub struct ChildContext {
    /// The subject's pool.
    pub exec: Box<dyn Executor>,
    /// The event loop thread's runtime.
    pub rt: tokio::runtime::Runtime,
    /// The pool size the child was started with.
    pub pool: crate::PoolSize,
}

impl ChildContext {
    /// Runs `f` on `lane` from the event loop and waits for it.
    pub fn block_on<F: Future>(&self, f: F) -> F::Output {
        self.rt.block_on(f)
    }
}
