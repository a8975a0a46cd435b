//! Sampling a process: what one reading of a thread means, one sample of
//! the pool, the loop and sluice's lanes, and [`Session`](session::Session),
//! one watched process window after window.
//!
//! - `syscalls.rs`: the grammar of `/proc/PID/task/TID/syscall`.
//! - `classify.rs`: a thread's state in one sample.
//! - `sampler.rs`: one sample of every pool thread and the loop thread.
//! - `queue.rs`: libuv's queue depth, read from memory.
//! - `lanes.rs`: sluice's own lanes (the npm package's threads), beside
//!   libuv's pool; `lane_gauges.rs`: their queue depths and thread counts,
//!   read from the gauge block the package publishes.
//! - `session.rs`: attach, then one report per window.

pub mod classify;
pub(crate) mod lane_gauges;
pub(crate) mod lanes;
pub(crate) mod queue;
pub(crate) mod sampler;
pub mod session;
pub mod syscalls;

pub use lanes::LaneReport;
