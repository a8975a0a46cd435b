//! Model-checked tests of the concurrency core. Ordinary tests live beside
//! the code they test and in `tests/`.
//!
//! Run with:
//! `LOOM_MAX_PREEMPTIONS=2 RUSTFLAGS="--cfg loom -C debug-assertions" cargo test -p sluice --lib --release`

#[cfg(all(loom, not(debug_assertions)))]
compile_error!("loom models need debug assertions: add -C debug-assertions to RUSTFLAGS");
