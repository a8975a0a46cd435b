//! [`Builder`]: validated configuration, from code or from `SLUICE_*`
//! environment variables; the errors are [`ConfigError`](crate::ConfigError)
//! (`error.rs`, below the policies, which validate their own settings).
//!
//! Nothing is ever capped or defaulted silently: zero, junk, negative or
//! above-maximum values are errors that name the setting and its value.
//!
//! - `builder.rs`: [`Builder`] and its setters, `Pool::builder`.
//! - `env.rs`: `Builder::from_env` / `from_vars`, the `SLUICE_*` variables.
//! - `build.rs`: `Builder::build`: each setting checked over the policy's
//!   defaults, then the pool.

mod build;
mod builder;
mod env;
#[cfg(all(test, not(loom)))]
mod tests;

pub use builder::Builder;
