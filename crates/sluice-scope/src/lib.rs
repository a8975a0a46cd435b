//! # sluice-scope
//!
//! Watch a running Node process's libuv pool from outside, with no change
//! to the process: `sluice scope PID`.
//!
//! - `target.rs`: the process (live, readable, has libuv); `maps.rs`,
//!   `image.rs`: where libuv is and what its symbols say; `memory.rs`:
//!   reading the process's memory.
//! - `discovery.rs`: which threads are the pool.
//! - `syscalls.rs`, `classify.rs`: what one sample of a thread means.
//! - `sampler.rs`: one sample of every pool thread and the loop thread.
//! - `queue.rs`: libuv's queue depth, read from memory.
//! - `doctor.rs`: the verdict: loop blocked, pool saturated, healthy.
//! - `probe/`: probe mode (uprobes through tracefs, root).

pub mod classify;
pub mod discovery;
pub mod doctor;
pub mod error;
pub mod image;
pub mod maps;
pub mod memory;
pub mod probe;
pub mod queue;
pub mod sampler;
pub mod syscalls;
pub mod target;

pub use doctor::Verdict;
pub use error::{ProbeRefusal, ScopeError};
