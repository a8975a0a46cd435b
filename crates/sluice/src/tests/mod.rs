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

/// How many of a model's tasks are inside a section at once, and the most
/// ever: the budget a model checks, as a count.
#[cfg(loom)]
#[derive(Clone)]
struct Overlap {
    inside: loom::sync::Arc<loom::sync::atomic::AtomicUsize>,
    most: loom::sync::Arc<loom::sync::atomic::AtomicUsize>,
}

#[cfg(loom)]
impl Overlap {
    /// No task inside yet.
    fn new() -> Self {
        let zero = || loom::sync::Arc::new(loom::sync::atomic::AtomicUsize::new(0));
        Self {
            inside: zero(),
            most: zero(),
        }
    }

    /// One pass through the section: counts itself in, notes the most
    /// inside at once, counts itself out.
    fn pass(&self) {
        use loom::sync::atomic::Ordering::SeqCst;
        let now = self.inside.fetch_add(1, SeqCst) + 1;
        self.most.fetch_max(now, SeqCst);
        self.inside.fetch_sub(1, SeqCst);
    }

    /// A task's closure that passes once.
    fn task(&self) -> impl FnOnce() + Send + 'static {
        let overlap = self.clone();
        move || overlap.pass()
    }

    /// The most tasks ever inside at once.
    fn most(&self) -> usize {
        self.most.load(loom::sync::atomic::Ordering::SeqCst)
    }
}

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
