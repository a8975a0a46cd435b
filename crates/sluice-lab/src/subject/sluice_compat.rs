//! The `sluice-compat` subject: sluice's libuv policy, libuv's rules.

use super::sluice::{SLUICE_CANNOT, SluicePool};
use super::{Executor, Rules, Runtime, Subject, SubjectSpec, uv_pool_note};
use crate::PoolSize;
use sluice::{Policy, Pool};

/// sluice running `Policy::Libuv`: libuv 1.46's pool on sluice's code.
pub(crate) struct SluiceCompat;

/// What `sluice-compat` is.
pub(super) static SPEC: SubjectSpec = SubjectSpec {
    about: "sluice, libuv policy: libuv 1.46's one FIFO and slow-I/O rule, reproduced",
    ratio_label: Some("compat"),
    policy: Some(Policy::Libuv { threads: None }),
    // Like node: the size travels in the environment, read lazily.
    size_in_env: true,
    rules: Rules::Libuv,
    cannot: SLUICE_CANNOT,
    ..SubjectSpec::new("sluice-compat", Runtime::Rust, &SluiceCompat)
};

impl Subject for SluiceCompat {
    fn pool_note(&self, pool: PoolSize, _cores: usize) -> String {
        uv_pool_note(
            "sluice-compat",
            pool,
            ", read at the first submission like libuv",
        )
    }

    fn executor(&self, _pool: PoolSize) -> anyhow::Result<Box<dyn Executor>> {
        let pool = Pool::builder()
            .policy(Policy::Libuv { threads: None })
            .build()?;
        Ok(Box::new(SluicePool {
            subject: "sluice-compat",
            pool,
        }))
    }
}
