//! From samples to a verdict.
//!
//! - `aggregate.rs`: a window of samples into a [`Report`](aggregate::Report).
//! - `doctor.rs`: the verdict: loop blocked, pool saturated, slow I/O
//!   throttled, healthy, unknown (the vocabulary is `sluice_health`'s).
//! - `onset.rs`: since when the loop and the pool have been in trouble.
//! - `summary.rs`: the table printed when a run ends.
//! - `watched.rs`: one process of `--all` and its windows so far.

pub mod aggregate;
pub mod doctor;
pub(crate) mod onset;
pub mod summary;
pub(crate) mod watched;
