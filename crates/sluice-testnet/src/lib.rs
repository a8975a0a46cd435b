//! # sluice-testnet
//!
//! The network sluice's DNS tests and experiments run against, without
//! touching the machine's own:
//!
//! - [`dns_delay`]: the DNS delay server (`sluice dns-delay`, and
//!   in-process): holds every query a fixed time, counts names in flight.
//! - [`netns`]: namespaced runs: a child in its own network and mount
//!   namespace whose only name server is the delay server.
//!
//! Used by the lab, the `sluice` binary and the core's DNS tests.

pub mod dns_delay;
pub mod netns;
