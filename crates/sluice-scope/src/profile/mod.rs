//! `sluice scope PID --profile DURATION`: which JavaScript holds the loop.
//!
//! - `cpuprofile.rs`: V8's `.cpuprofile`, parsed and checked.
//! - `analysis.rs`: shares of the window, self and total time, the
//!   program's functions with Node's and V8's frames folded in.
//! - `sync_api.rs`: the synchronous APIs, named (`crypto.pbkdf2Sync`,
//!   `RegExp exec`, `JSON.parse`).
//! - `flame.rs`: folded stacks and the flame graph (inferno).
//! - `take.rs`: one profile: the inspector opened, the profiler run while
//!   scope samples the same window, the inspector closed, files written.
//! - `report.rs`: [`ProfileReport`] and its text.

pub mod analysis;
pub mod cpuprofile;
pub mod flame;
pub(crate) mod report;
pub mod sync_api;
pub mod take;

pub use report::{Files, InspectorReport, ProfileReport};
pub use take::{Consent, ProfileConfig, take};
