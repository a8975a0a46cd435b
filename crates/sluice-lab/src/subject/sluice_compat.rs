//! The `sluice-compat` subject: sluice's libuv policy, libuv's rules.

use super::sluice::SluicePool;
use super::{Executor, Need, Rules, Runtime, Subject, SubjectSpec, uv_pool_note};
use crate::PoolSize;
use sluice::{Policy, Pool};

/// sluice running `Policy::Libuv`: libuv 1.46's pool on sluice's code.
pub(crate) struct SluiceCompat;

/// What `sluice-compat` is.
static SPEC: SubjectSpec = SubjectSpec {
    name: "sluice-compat",
    about: "sluice, libuv policy: libuv 1.46's one FIFO and slow-I/O rule, reproduced",
    runtime: Runtime::Rust,
    ratio_label: Some("compat"),
    policy: Some(Policy::Libuv { threads: None }),
    // Like node: the size travels in the environment, read lazily.
    size_in_env: true,
    rules: Rules::Libuv,
    ..SubjectSpec::BASE
};

impl Subject for SluiceCompat {
    fn spec(&self) -> &'static SubjectSpec {
        &SPEC
    }

    fn supports(&self, need: Need) -> Result<(), String> {
        super::sluice::sluice_supports(need)
    }

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
