//! Poison-free locking for the crates around the pool (serve, scope, the
//! health and DNS crates, the connection code, the test network): one rule,
//! justified once on [`Unpoison`], the rule the pool's own locks follow
//! through its sync shim.

pub use crate::loom::{Unpoison, lock_std as lock};
