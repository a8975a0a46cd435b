//! The `tokio` subject: tokio's blocking pool (`spawn_blocking`).

use super::{Done, Executor, Job, Need, Runtime, Subject, SubjectSpec, Waves, in_waves};
use crate::PoolSize;
use sluice::Lane;

/// tokio's `spawn_blocking`: one elastic pool for every kind of work.
pub(crate) struct Tokio;

struct TokioPool {
    rt: tokio::runtime::Runtime,
}

impl Executor for TokioPool {
    fn subject(&self) -> &'static str {
        "tokio"
    }

    fn submit(&self, _lane: Lane, job: Job) -> Done {
        let handle = self.rt.spawn_blocking(job);
        Box::pin(async move { handle.await.map_err(|e| e.to_string()) })
    }

    fn run_waves(&self, _lane: Lane, f: fn(), in_flight: u64, total: u64) -> Waves<'_> {
        Box::pin(in_waves(total, in_flight, move || {
            self.rt.spawn_blocking(f)
        }))
    }
}

/// What `tokio` is.
pub(super) static SPEC: SubjectSpec = SubjectSpec {
    about: "tokio's spawn_blocking: one elastic pool, no lanes",
    cannot: &[
        (
            Need::HttpServer,
            "sluice serve has no tokio spawn_blocking mode",
        ),
        (
            Need::Attach,
            "sluice scope reads libuv's threadpool, and tokio's blocking pool is not one",
        ),
        (
            Need::SetSizeInside,
            "max_blocking_threads is fixed when the runtime is built",
        ),
    ],
    ..SubjectSpec::new("tokio", Runtime::Rust, &Tokio)
};

impl Subject for Tokio {
    // No lanes: everything is spawn_blocking.
    fn lane_label(&self, _lane: Lane) -> String {
        "spawn_blocking".into()
    }

    // tokio's default max_blocking_threads.
    fn wait_threads(&self, pool: PoolSize, _cores: usize) -> usize {
        pool.size().unwrap_or(512)
    }

    fn pool_note(&self, pool: PoolSize, _cores: usize) -> String {
        match pool {
            PoolSize::Unset => "tokio: max_blocking_threads unset (tokio's default, 512)".into(),
            PoolSize::Size(n) => format!("tokio: max_blocking_threads({n})"),
        }
    }

    fn executor(&self, pool: PoolSize) -> anyhow::Result<Box<dyn Executor>> {
        // A runtime that only hosts the blocking pool; the child's event loop
        // is a separate current-thread runtime, as for the sluice subjects.
        let mut b = tokio::runtime::Builder::new_multi_thread();
        b.worker_threads(1).thread_name("tokio-blocking");
        if let PoolSize::Size(n) = pool {
            b.max_blocking_threads(n);
        }
        Ok(Box::new(TokioPool {
            rt: b.enable_all().build()?,
        }))
    }
}
