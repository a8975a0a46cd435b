//! The `sluice` subject: the lanes policy.

use super::{
    Done, Executor, Job, Need, Rules, Runtime, Setting, Subject, SubjectSpec, Tuning, Waves,
    in_batched_waves, in_waves,
};
use crate::PoolSize;
use sluice::{Lane, Pool};

/// sluice's own policy: independent lanes.
pub(crate) struct Sluice;

/// Why sluice scope cannot watch a sluice pool.
pub(crate) const NOT_LIBUV: &str = "sluice scope reads libuv's threadpool in a process, and a sluice pool is not one (its lanes export their own metrics)";

/// A sluice pool as an executor (either policy).
pub(crate) struct SluicePool {
    pub(crate) subject: &'static str,
    pub(crate) pool: Pool,
}

impl Executor for SluicePool {
    fn subject(&self) -> &'static str {
        self.subject
    }

    fn submit(&self, lane: Lane, job: Job) -> Done {
        let task = self.pool.spawn(lane, job);
        Box::pin(async move { task.await.map_err(|e| e.to_string()) })
    }

    fn metrics(&self) -> Option<sluice::Snapshot> {
        Some(self.pool.metrics())
    }

    fn pool(&self) -> Option<&Pool> {
        Some(&self.pool)
    }

    fn run_waves(&self, lane: Lane, f: fn(), in_flight: u64, total: u64) -> Waves<'_> {
        Box::pin(in_waves(total, in_flight, move || self.pool.spawn(lane, f)))
    }

    fn run_batched_waves(
        &self,
        lane: Lane,
        f: fn(),
        in_flight: u64,
        total: u64,
    ) -> Option<Waves<'_>> {
        Some(Box::pin(in_batched_waves(
            total,
            in_flight,
            move |k, wave| *wave = self.pool.spawn_batch(lane, (0..k).map(|_| f)),
        )))
    }
}

/// What `sluice` is.
pub(super) static SPEC: SubjectSpec = SubjectSpec {
    about: "sluice, lanes policy: Cpu, FastIo and SlowIo each with a budget of their own",
    lanes: true,
    ratio_label: Some("sluice"),
    policy: Some(sluice::Policy::Lanes),
    rules: Rules::Lanes,
    settings: &[
        Setting {
            name: "sluice-fixed",
            env: ("SLUICE_ADAPTIVE", "off"),
            tuning: Tuning::FixedBudgets,
            about: "sluice-fixed: the same budgets with SLUICE_ADAPTIVE=off",
        },
        Setting {
            name: "sluice-bound",
            env: ("SLUICE_CPU_AFFINITY", "on"),
            tuning: Tuning::CpuAffinity,
            about: "sluice-bound: sluice with SLUICE_CPU_AFFINITY=on (Builder::cpu_affinity)",
        },
    ],
    cannot: SLUICE_CANNOT,
    ..SubjectSpec::new("sluice", Runtime::Rust, &Sluice)
};

/// What a sluice pool (either policy) cannot do: it serves (`sluice
/// serve`) and is resized inside the process, but sluice scope watches
/// libuv pools only.
pub(crate) const SLUICE_CANNOT: &[(Need, &str)] = &[(Need::Attach, NOT_LIBUV)];

impl Subject for Sluice {
    fn wait_threads(&self, pool: PoolSize, cores: usize) -> usize {
        pool.size()
            .unwrap_or_else(|| sluice::budget::default_threads(Lane::FastIo, cores))
    }

    fn pool_note(&self, pool: PoolSize, cores: usize) -> String {
        let env: Vec<String> = sluice::ENV_VARS
            .iter()
            .filter_map(|v| std::env::var(v).ok().map(|x| format!("{v}={x}")))
            .collect();
        let env = if env.is_empty() {
            String::new()
        } else {
            format!(" (from the environment: {})", env.join(", "))
        };
        let note = match pool {
            PoolSize::Unset => format!(
                "sluice: default budgets (Cpu {}, FastIo {}, SlowIo {}), blocked threads compensated up to max_threads (FastIo {})",
                sluice::budget::default_threads(Lane::Cpu, cores),
                sluice::budget::default_threads(Lane::FastIo, cores),
                sluice::budget::default_threads(Lane::SlowIo, cores),
                sluice::budget::default_max_threads(Lane::FastIo, cores)
            ),
            PoolSize::Size(n) => format!(
                "sluice: pool {n} sets FastIo and SlowIo to {n} and Cpu to {} (Cpu may not exceed the {cores} usable cores); budgets count computing threads, blocked ones are compensated",
                n.min(cores)
            ),
        };
        note + &env
    }

    fn executor(&self, pool: PoolSize) -> anyhow::Result<Box<dyn Executor>> {
        // SLUICE_* variables apply, as in any sluice service (for example
        // SLUICE_ADAPTIVE=off to measure fixed budgets); the pool size wins.
        let mut b = sluice::Builder::from_env()?;
        if let PoolSize::Size(n) = pool {
            let cores = std::thread::available_parallelism().map_or(1, |c| c.get());
            b = b
                .threads(Lane::Cpu, n.min(cores))
                .threads(Lane::FastIo, n)
                .threads(Lane::SlowIo, n);
        }
        Ok(Box::new(SluicePool {
            subject: "sluice",
            pool: b.build()?,
        }))
    }
}
