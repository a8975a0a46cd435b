//! # sluice-serve
//!
//! The demo service of the seeds, on sluice: `sluice serve` (axum on a
//! one-thread tokio event loop; hashing and compression on the `Cpu` lane,
//! file reads on `FastIo`; admission by the lane's queue bound; graceful
//! shutdown) and `sluice doctor`, which reads a running service's metrics
//! over a window and says what is wrong.
//!
//! - `config.rs`: [`ServeConfig`], checked, and the pool it builds.
//! - `routes.rs`: the routes and where each one's work runs.
//! - `server.rs`: [`server::run`]: bind, accept, shut down within a bound.
//! - `conn.rs`: each connection on hyper's HTTP/1 server: header-read and
//!   idle timeouts, the connection cap, closing at shutdown.
//! - `gate.rs`: what the diagnostic `/hold` waits on.
//! - `payload.rs`: the bytes `/gzip` and `/file` use (the Node twin's too).
//! - `loopback.rs`: only servers on this machine are reached.
//! - `doctor/`: fetch, parse (strictly: sluice_health::scrape), diagnose.
//!
//! The `sluice` binary (crate `sluice-cli`) parses flags and calls
//! [`server::run`] or [`doctor::run`]; nothing else.

pub mod config;
/// The connections and their limits ([`sluice_conn`], shared with
/// `sluice scope --prometheus`).
pub use sluice_conn as conn;
pub mod doctor;
pub mod gate;
pub mod loopback;
pub mod payload;
pub mod routes;
pub mod server;

pub use config::{ConfigError, ServeConfig};
