//! # sluice-scope
//!
//! Watch a running Node process's libuv pool from outside, with no change
//! to the process: `sluice scope PID`.
//!
//! - `target.rs`: the process (live, readable, has libuv); `maps.rs`,
//!   `image.rs`: where libuv is and what its symbols say; `memory.rs`:
//!   reading the process's memory.
//! - `discovery.rs`: which threads are the pool; `start_routine.rs`:
//!   telling them by what they were started with.
//! - `syscalls.rs`, `classify.rs`: what one sample of a thread means.
//! - `sampler.rs`: one sample of every pool thread and the loop thread.
//! - `queue.rs`: libuv's queue depth, read from memory.
//! - `lanes.rs`: sluice's own lanes (the npm package's threads), beside
//!   libuv's pool.
//! - `aggregate.rs`: a window of samples into a [`Report`].
//! - `onset.rs`: since when the loop and the pool have been in trouble.
//! - `doctor.rs`: the verdict: loop blocked, pool saturated, slow I/O
//!   throttled, healthy.
//! - `probe/`: probe mode (uprobes through tracefs, root).
//! - `inspector/`: the target's own V8 inspector, opened with SIGUSR1 and
//!   closed again; the DevTools protocol.
//! - `profile/`: `--profile`: a CPU profile of the main thread, analysed
//!   (what held the loop), a flame graph, the `.cpuprofile`.
//! - `session.rs`: one watched process, window after window.
//! - `host/`: `--all`, every Node process on the host (and in its
//!   containers), one watcher thread each.
//! - `config.rs`: the validated command line; `face/`: the terminal view,
//!   text lines, JSON lines, the Prometheus exporter; `summary.rs`: the
//!   table at the end. [`run`] drives them.

pub mod aggregate;
pub mod classify;
pub mod config;
pub mod discovery;
pub mod doctor;
pub mod error;
pub mod face;
pub mod host;
pub mod image;
pub mod inspector;
pub mod lanes;
pub mod maps;
pub mod memory;
pub mod onset;
pub mod probe;
pub mod profile;
pub mod queue;
pub mod sampler;
pub mod session;
pub mod start_routine;
pub mod summary;
pub mod syscalls;
pub mod target;

pub use aggregate::Report;
pub use config::ScopeConfig;
pub use doctor::Verdict;
pub use error::{ProbeRefusal, ScopeError};
pub use face::{End, RunOutcome, run};
pub use session::{Options, Session};
