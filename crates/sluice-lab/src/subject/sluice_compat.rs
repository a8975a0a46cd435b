//! The `sluice-compat` subject: sluice's libuv policy, libuv's rules.

use super::sluice::SluicePool;
use super::{Executor, Kind, Subject, rust_child_command};
use crate::PoolSize;
use crate::lab::Lab;
use sluice::{Policy, Pool};
use std::process::Command;

/// sluice running `Policy::Libuv`: libuv 1.46's pool on sluice's code.
pub(crate) struct SluiceCompat;

impl Subject for SluiceCompat {
    fn name(&self) -> &'static str {
        "sluice-compat"
    }

    fn about(&self) -> &'static str {
        "sluice, libuv policy: libuv 1.46's one FIFO and slow-I/O rule, reproduced"
    }

    fn kind(&self) -> Kind {
        Kind::Rust
    }

    fn unavailable(&self, _lab: &Lab) -> Option<String> {
        None
    }

    fn pool_note(&self, pool: PoolSize, _cores: usize) -> String {
        match pool {
            PoolSize::Unset => {
                "sluice-compat: UV_THREADPOOL_SIZE unset (libuv's default, 4)".into()
            }
            PoolSize::Size(n) => format!(
                "sluice-compat: UV_THREADPOOL_SIZE={n}, read at the first submission like libuv"
            ),
        }
    }

    fn command(
        &self,
        lab: &Lab,
        experiment: &str,
        pool: PoolSize,
        params: &serde_json::Value,
    ) -> anyhow::Result<Command> {
        let mut cmd = rust_child_command(lab, self.name(), experiment, pool, params);
        // Like node: the size travels in the environment, read lazily.
        match pool {
            PoolSize::Unset => cmd.env_remove("UV_THREADPOOL_SIZE"),
            PoolSize::Size(n) => cmd.env("UV_THREADPOOL_SIZE", n.to_string()),
        };
        Ok(cmd)
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
