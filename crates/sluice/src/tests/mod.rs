//! Model-checked tests of the concurrency core, run under
//! [loom](https://docs.rs/loom), which explores every interleaving of the
//! threads in a model (up to a bound on preemptions) and fails on a
//! deadlock, a lost wake-up (a model that never finishes) or a failed assert.
//!
//! Each model is one lane, one or two workers and two or three tasks: small
//! enough to explore exhaustively, large enough to hit the races of
//! `park/README.md`. Run them with:
//!
//! ```text
//! LOOM_MAX_PREEMPTIONS=2 RUSTFLAGS="--cfg loom -C debug-assertions" \
//!     cargo test -p sluice-pool --lib --release -- loom
//! ```
//!
//! `golden.rs` (not under loom) compares whole outputs with `testdata/`.

#[cfg(not(loom))]
pub(crate) mod golden;

#[cfg(all(loom, not(debug_assertions)))]
compile_error!("loom models need debug assertions: add -C debug-assertions to RUSTFLAGS");

#[cfg(loom)]
mod loom_batch;
#[cfg(loom)]
mod loom_blocking;
#[cfg(loom)]
mod loom_cancel_vs_start;
#[cfg(loom)]
mod loom_claim;
#[cfg(loom)]
mod loom_lane_budget;
#[cfg(loom)]
mod loom_mailbox;
#[cfg(loom)]
mod loom_reserve;
#[cfg(loom)]
mod loom_resize;
#[cfg(loom)]
mod loom_shutdown;
#[cfg(loom)]
mod loom_submit_wake;
