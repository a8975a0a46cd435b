//! # sluice-scope
//!
//! Watch a running Node process's libuv pool from outside, with no change
//! to the process: `sluice scope PID`.
//!
//! - `target/`: the process (live, readable, has libuv): `maps.rs`,
//!   `image.rs` (where libuv is and what its symbols say), `memory.rs`
//!   (reading its memory), `discovery.rs` (which threads are the pool),
//!   `start_routine.rs` (telling them by what they were started with),
//!   `addon.rs` (sluice's npm package: the addon that exports
//!   `sluice_scope_lanes`), `container.rs` (its container and pod).
//! - `sample/`: what one sample means (`syscalls.rs`, `classify.rs`), one
//!   sample of every pool thread and the loop thread (`sampler.rs`),
//!   libuv's queue depth from memory (`queue.rs`), sluice's own lanes
//!   (`lanes.rs`) and their queues from the package's gauge block
//!   (`lane_gauges.rs`), and [`Session`]: one watched process, window
//!   after window.
//! - `verdict/`: a window of samples into a [`Report`] (`aggregate.rs`),
//!   the doctor's [`Verdict`] (`doctor.rs`), since when the loop and the
//!   pool have been in trouble (`onset.rs`), the table at the end
//!   (`summary.rs`), one process of `--all` and its windows so far
//!   (`watched.rs`).
//! - `run/`: the two drivers: [`run()`] (one process) and `run::all` (`--all`,
//!   every Node process on the host and in its containers, one watcher
//!   thread each).
//! - `face/`: the terminal view, text lines, JSON lines, the Prometheus
//!   exporter; `config.rs`: the validated command line.
//! - `probe/`: probe mode (uprobes through tracefs, root).
//! - `inspector/`: the target's own V8 inspector, opened with SIGUSR1 and
//!   closed again; the DevTools protocol.
//! - `profile/`: `--profile`: a CPU profile of the main thread, analysed
//!   (what held the loop), a flame graph, the `.cpuprofile`.

pub mod config;
pub(crate) mod error;
pub(crate) mod face;
pub mod inspector;
pub mod probe;
pub mod profile;
pub mod run;
pub mod sample;
pub mod target;
pub mod verdict;

pub use config::ScopeConfig;
pub use error::{ProbeRefusal, ScopeError};
pub use run::{End, RunOutcome, run};
pub use sample::session::{Options, Session};
pub use verdict::aggregate::Report;
pub use verdict::doctor::Verdict;
