//! # sluice
//!
//! A work pool for the blocking work that sits beside an event loop (file
//! system calls, name resolution, hashing, compression), built so that the
//! failures of libuv's thread pool cannot happen:
//!
//! - **Lanes that cannot starve each other.** Work runs in [`Lane::Cpu`],
//!   [`Lane::FastIo`] or [`Lane::SlowIo`], each with its own budget, queue
//!   and threads. A file read behind 64 queued hashes starts at once.
//! - **Sized to the machine.** `Cpu` defaults to the usable cores (cgroup
//!   quota and affinity included); any explicit size is validated, never
//!   capped silently; [`Pool::resize`] works at run time.
//! - **Every task a handle.** [`Task`] is a `Future` and has a blocking
//!   [`wait`](Task::wait); queued work can be cancelled, can carry a
//!   deadline, and a bounded lane refuses with [`Busy`] instead of growing.
//!   A panic fails its own task, never a worker.
//! - **Every queue visible.** Counters, gauges and HDR histograms are always
//!   on; [`Pool::metrics`] returns a [`Snapshot`] with Prometheus and JSON
//!   exports; [`observer::GaugeBlock`] shows each lane's queue depth and
//!   threads to a reader outside the process (`sluice scope`).
//! - **Health beside it.** The `sluice-health` crate (`sluice_health`)
//!   measures a tokio loop's lag and tells a blocked loop from a saturated
//!   lane, with the numbers ([`Snapshot`] in, a verdict out).
//! - **Names without the pool.** The `sluice-dns` crate (`sluice_dns`)
//!   resolves names asynchronously, honouring `/etc/hosts` and
//!   `resolv.conf` like `getaddrinfo`, with a TTL cache and coalescing; it
//!   falls back to `getaddrinfo` on [`Lane::SlowIo`] only where the system's
//!   configuration needs it.
//! - **The old behaviour, on the same code.** [`Policy::Libuv`] reproduces
//!   libuv 1.46's pool exactly (one FIFO, `(n + 1) / 2` slow-I/O threads, lazy
//!   start, `UV_THREADPOOL_SIZE` parsing) so the two can be measured side by
//!   side.
//!
//! ```
//! use sluice::{Lane, Pool, Policy, TaskError};
//!
//! let pool = Pool::builder().build()?;                  // lanes, sized from the machine
//! let task = pool.spawn(Lane::FastIo, || std::fs::read("Cargo.toml"));
//! let bytes = task.wait()??;                             // TaskError, then io::Error
//! assert!(!bytes.is_empty());
//!
//! let compat = Pool::builder().policy(Policy::Libuv { threads: Some(4) }).build()?;
//! assert_eq!(compat.spawn(Lane::Cpu, || 2 + 2).wait()?, 4);
//!
//! let failed = pool.spawn(Lane::Cpu, || -> u8 { panic!("corrupt input") }).wait();
//! assert_eq!(failed, Err(TaskError::Panicked("corrupt input".into())));
//!
//! let snap = pool.metrics();
//! assert_eq!(snap.lane(Lane::FastIo).completed_total, 1);
//! assert_eq!(snap.lane(Lane::Cpu).panicked_total, 1);
//! assert!(snap.to_prometheus().contains("sluice_completed_total{lane=\"fastio\"} 1"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Features
//!
//! The pool itself needs none; each export or helper is a feature, all but
//! the last three on by default:
//!
//! | feature | gives | adds |
//! |---|---|---|
//! | `prometheus` | [`Pool::register`], [`PoolCollector`], `Snapshot::to_prometheus`, `Snapshot::encode_into` | prometheus-client |
//! | `serde` | `Serialize` on the snapshots and reports, `Snapshot::to_json` | serde, serde_json |
//! | `ops` | `sluice::crypto`, `sluice::zlib`, `sluice::fs` | RustCrypto, flate2 |
//! | `tower` | `sluice::tower::LaneLayer` | tower-layer, http |
//! | `metrics` | `sluice::report::MetricsReporter` | metrics |
//! | `tracing` | a span per task, events | tracing |
//!
//! `default-features = false` builds the pool alone (26 crates with sluice
//! itself, 72 with the defaults, as `cargo tree -e normal` lists them).
//!
//! See `ARCHITECTURE.md` in the repository for the map of the modules and
//! `src/park/README.md` for the sleep/wake protocol and its proof sketch.

#![forbid(unsafe_code)]
#![doc(test(attr(deny(warnings))))]

mod blocking;
pub mod budget;
mod checkpoint;
mod choice;
mod clock;
pub mod compat;
mod config;
mod error;
#[cfg(unix)]
pub mod fd;
mod hooks;
mod lane;
mod loom;
pub mod loop_spin;
pub mod mailbox;
mod metrics;
#[cfg(unix)]
pub mod nowait;
pub mod observer;
#[cfg(feature = "ops")]
mod ops;
mod park;
mod policy;
mod pool;
#[cfg(feature = "metrics")]
pub mod report;
pub mod sync;
mod task;
#[cfg(feature = "tower")]
pub mod tower;
mod uring;

#[cfg(test)]
mod tests;

pub use blocking::blocking;
pub use checkpoint::{CHECKPOINT_QUANTUM, checkpoint};
pub use choice::{CpuSched, Policy};
pub use config::Builder;
pub use error::{ConfigError, ENV_VARS, Knob};
pub use lane::{Lane, ParseLaneError};
#[cfg(feature = "prometheus")]
pub use metrics::PoolCollector;
pub use metrics::{BUCKET_BOUNDS, HistogramSnapshot, LaneSnapshot, Snapshot};
pub use pool::{DetachedBatch, Permit, Reserve};
pub use sluice_duration::{DurationError, parse_duration};

/// This crate's version, as `sluice_info{version}` exports it.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
#[cfg(feature = "ops")]
pub use ops::{crypto, fs, zlib};
pub use pool::{Pool, ShutdownReport};
pub use task::{Busy, CancelOnDrop, Task, TaskError};
pub use uring::UringStatus;
