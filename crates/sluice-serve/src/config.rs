//! [`ServeConfig`]: what `sluice serve` runs with, checked before anything
//! starts, and the pool it builds.

use sluice::{Lane, Pool, budget};
use sluice_duration::Range;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

/// `--listen` when not given.
pub const DEFAULT_LISTEN: &str = "127.0.0.1:8080";

/// `--cpu-queue` when not given: at most this many Cpu tasks wait; past it
/// `/login` and `/gzip` answer 429 at once. With 40 ms hashes on 2 cores
/// that bounds a login's queue wait near 64 × 40 / 2 ≈ 1.3 s.
pub const DEFAULT_CPU_QUEUE: usize = 64;

/// `/login`'s pbkdf2 iterations (seed 002: 100 000, sha256, 64 bytes).
pub const LOGIN_ITERATIONS: u32 = 100_000;

/// `/gzip`'s input size: 256 KiB (seed 000 §5).
pub const GZIP_BYTES: usize = 256 * 1024;

/// `/file`'s size when the server writes its own file: 4 KiB (seed 000 §5).
pub const FILE_BYTES: usize = 4096;

/// How `sluice serve` runs. Every field has a flag; [`ServeConfig::default`]
/// is what `sluice serve` does without any.
#[derive(Debug, Clone, PartialEq)]
pub struct ServeConfig {
    /// `--listen IP:PORT` (port 0: any free port; the one bound is printed).
    pub listen: String,
    /// `--cpu-threads N`: the `Cpu` lane's budget (default: the usable
    /// cores, or `SLUICE_CPU_THREADS`).
    pub cpu_threads: Option<usize>,
    /// `--fastio-threads N` (default: max(4, cores), or `SLUICE_FASTIO_THREADS`).
    pub fastio_threads: Option<usize>,
    /// `--slowio-threads N` (default 64, or `SLUICE_SLOWIO_THREADS`).
    pub slowio_threads: Option<usize>,
    /// `--cpu-queue N`: the `Cpu` lane's queue bound, the admission limit
    /// (default [`DEFAULT_CPU_QUEUE`]).
    pub cpu_queue: Option<usize>,
    /// `--libuv`: serve on sluice's libuv policy instead of the lanes (one
    /// FIFO for every kind of work, `UV_THREADPOOL_SIZE` threads read at the
    /// first task, nothing refused): the same server on libuv's pool, for
    /// comparisons. Lane flags, `--cpu-queue` and `--cpu-nice` do not apply.
    pub libuv: bool,
    /// `--cpu-nice N`: the nice value of `Cpu` workers, 0..=19 (default 10,
    /// or `SLUICE_CPU_NICE`): above 0 they yield a core to the loop at once.
    pub cpu_nice: Option<u8>,
    /// `--login-iterations N`: pbkdf2 iterations per `/login`.
    pub login_iterations: u32,
    /// `--file PATH`: what `/file` reads (default: a 4 KiB file the server
    /// writes in a temporary directory and removes at exit).
    pub file: Option<PathBuf>,
    /// `--lag-resolution DURATION`: the loop-lag monitor's timer period.
    pub lag_resolution: Duration,
    /// `--diagnostic-routes`: also serve `/block`, `/hold` and `/release`.
    pub diagnostic_routes: bool,
    /// `--shutdown-timeout DURATION`: how long shutdown may take in all:
    /// answering the requests in flight, then draining the pool.
    pub shutdown_timeout: Duration,
    /// `--header-read-timeout DURATION`: a request's head must arrive within
    /// this, from when the connection waits for it (default
    /// [`DEFAULT_HEADER_READ_TIMEOUT`]).
    pub header_read_timeout: Duration,
    /// `--idle-timeout DURATION`: a keep-alive connection with no request for
    /// this long is closed (default [`DEFAULT_IDLE_TIMEOUT`]).
    pub idle_timeout: Duration,
    /// `--max-connections N`: connections open at once (default: the
    /// open-file limit less [`FD_RESERVE`], at most
    /// [`DEFAULT_MAX_CONNECTIONS`]).
    pub max_connections: Option<usize>,
}

/// `--lag-resolution`'s range: 1 ms to 1 s.
pub const LAG_RESOLUTION: Range = Range::new(Duration::from_millis(1), Duration::from_secs(1));

/// `--shutdown-timeout`'s range: 100 ms (time to answer what is in flight)
/// to 1 h.
pub const SHUTDOWN_TIMEOUT: Range =
    Range::new(Duration::from_millis(100), Duration::from_secs(3600));

/// `--header-read-timeout`'s range: 1 ms to 1 h.
pub const HEADER_READ_TIMEOUT: Range =
    Range::new(Duration::from_millis(1), Duration::from_secs(3600));

/// `--idle-timeout`'s range: 1 ms to 1 h.
pub const IDLE_TIMEOUT: Range = Range::new(Duration::from_millis(1), Duration::from_secs(3600));

/// `--header-read-timeout` when not given: 10 s.
pub use sluice_conn::DEFAULT_HEADER_READ_TIMEOUT;

/// `--idle-timeout` when not given: 5 s (Node's `keepAliveTimeout`).
pub use sluice_conn::DEFAULT_IDLE_TIMEOUT;

/// `--max-connections` when not given and the open-file limit allows it.
pub use sluice_conn::DEFAULT_MAX_CONNECTIONS;

/// File descriptors kept free of connections: the pool's files, the
/// runtime's, `/file`'s reads. `--max-connections` may be at most the
/// open-file limit less this.
pub use sluice_conn::FD_RESERVE;

impl Default for ServeConfig {
    fn default() -> Self {
        ServeConfig {
            listen: DEFAULT_LISTEN.to_string(),
            cpu_threads: None,
            fastio_threads: None,
            slowio_threads: None,
            cpu_queue: None,
            cpu_nice: None,
            libuv: false,
            login_iterations: LOGIN_ITERATIONS,
            file: None,
            lag_resolution: Duration::from_millis(10),
            diagnostic_routes: false,
            shutdown_timeout: Duration::from_secs(30),
            header_read_timeout: DEFAULT_HEADER_READ_TIMEOUT,
            idle_timeout: DEFAULT_IDLE_TIMEOUT,
            max_connections: None,
        }
    }
}

/// A setting `sluice serve` refuses, with the flag and the fix in the text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigError(pub String);

impl std::fmt::Display for ConfigError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ConfigError {}

fn check(flag: &str, n: usize, max: usize, why: &str) -> Result<usize, ConfigError> {
    if (1..=max).contains(&n) {
        Ok(n)
    } else {
        Err(ConfigError(format!(
            "{flag} {n} is out of range; expected 1..={max}{why}"
        )))
    }
}

impl ServeConfig {
    /// `--listen` as a socket address.
    ///
    /// ```
    /// use sluice_serve::ServeConfig;
    /// let bad = ServeConfig { listen: "localhost".into(), ..Default::default() };
    /// assert_eq!(
    ///     bad.listen_addr().unwrap_err().to_string(),
    ///     "--listen \"localhost\": expected IP:PORT, such as 127.0.0.1:8080 (port 0 picks a free port)"
    /// );
    /// assert_eq!(ServeConfig::default().listen_addr()?.port(), 8080);
    /// # Ok::<(), sluice_serve::ConfigError>(())
    /// ```
    pub fn listen_addr(&self) -> Result<SocketAddr, ConfigError> {
        self.listen.trim().parse().map_err(|_| {
            ConfigError(format!(
                "--listen {:?}: expected IP:PORT, such as {DEFAULT_LISTEN} (port 0 picks a free port)",
                self.listen
            ))
        })
    }

    /// The connection limits, checked against the open-file limit
    /// (`RLIMIT_NOFILE`'s soft value).
    ///
    /// ```
    /// use sluice_serve::ServeConfig;
    /// let c = ServeConfig { max_connections: Some(100), ..Default::default() };
    /// assert_eq!(c.limits_under(1024)?.max_connections, 100);
    /// assert_eq!(ServeConfig::default().limits_under(300)?.max_connections, 236);
    /// assert_eq!(
    ///     c.limits_under(128).unwrap_err().to_string(),
    ///     "--max-connections 100 is out of range: the open-file limit is 128 and 64 descriptors are kept for the server; expected 1..=64, or raise the limit (ulimit -n)"
    /// );
    /// # Ok::<(), sluice_serve::ConfigError>(())
    /// ```
    pub fn limits_under(&self, nofile: u64) -> Result<crate::conn::Limits, ConfigError> {
        let room = usize::try_from(nofile)
            .unwrap_or(usize::MAX)
            .saturating_sub(FD_RESERVE);
        let max_connections = match self.max_connections {
            Some(n) if (1..=room).contains(&n) => n,
            Some(n) => {
                return Err(ConfigError(format!(
                    "--max-connections {n} is out of range: the open-file limit is {nofile} and {FD_RESERVE} descriptors are kept for the server; expected 1..={room}, or raise the limit (ulimit -n)"
                )));
            }
            None if room == 0 => {
                return Err(ConfigError(format!(
                    "the open-file limit is {nofile}: too low to serve ({FD_RESERVE} descriptors are kept for the server); raise it (ulimit -n)"
                )));
            }
            None => room.min(DEFAULT_MAX_CONNECTIONS),
        };
        for (flag, d, range) in [
            (
                "--header-read-timeout",
                self.header_read_timeout,
                HEADER_READ_TIMEOUT,
            ),
            ("--idle-timeout", self.idle_timeout, IDLE_TIMEOUT),
        ] {
            range
                .check(flag, d)
                .map_err(|e| ConfigError(e.to_string()))?;
        }
        Ok(crate::conn::Limits {
            header_read_timeout: self.header_read_timeout,
            idle_timeout: self.idle_timeout,
            max_connections,
        })
    }

    /// [`limits_under`](ServeConfig::limits_under) this process's open-file
    /// limit.
    pub fn limits(&self) -> Result<crate::conn::Limits, ConfigError> {
        let nofile = rustix::process::getrlimit(rustix::process::Resource::Nofile)
            .current
            .unwrap_or(u64::MAX);
        self.limits_under(nofile)
    }

    /// The `Cpu` queue bound in force (none under `--libuv`).
    pub fn cpu_queue_bound(&self) -> Option<usize> {
        (!self.libuv).then(|| self.cpu_queue.unwrap_or(DEFAULT_CPU_QUEUE))
    }

    /// Checks every setting; the pool is built from `SLUICE_*` variables
    /// read through `env` (see `sluice::Builder::from_vars`), then the
    /// flags, which win.
    ///
    /// `SLUICE_QUEUE_BOUND` is refused: it would bound `FastIo` too, and a
    /// full `FastIo` queue would make `/file` block the event loop; the
    /// `Cpu` bound is `--cpu-queue`.
    ///
    /// ```
    /// use sluice::Lane;
    /// use sluice_serve::ServeConfig;
    ///
    /// let c = ServeConfig { cpu_threads: Some(1), cpu_queue: Some(2), ..Default::default() };
    /// let pool = c.pool(|_| None)?;
    /// assert_eq!(pool.limit(Lane::Cpu), 1);
    /// assert_eq!(pool.metrics().lane(Lane::Cpu).queue_bound, Some(2));
    /// assert_eq!(pool.metrics().lane(Lane::FastIo).queue_bound, None);
    ///
    /// let c = ServeConfig { cpu_queue: Some(0), ..Default::default() };
    /// assert_eq!(c.pool(|_| None).unwrap_err().to_string(), "--cpu-queue 0 is out of range; expected 1..=16777216");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn pool(&self, env: impl Fn(&str) -> Option<String>) -> Result<Pool, ConfigError> {
        if let Some(v) = env("SLUICE_QUEUE_BOUND") {
            return Err(ConfigError(format!(
                "SLUICE_QUEUE_BOUND={v:?} is not used by sluice serve: it would bound FastIo too, and a full FastIo queue would block the event loop; unset it and pass --cpu-queue N for the admission bound"
            )));
        }
        if self.login_iterations == 0 {
            return Err(ConfigError(
                "--login-iterations 0 is out of range; expected at least 1".into(),
            ));
        }
        LAG_RESOLUTION
            .check("--lag-resolution", self.lag_resolution)
            .map_err(|e| ConfigError(e.to_string()))?;
        SHUTDOWN_TIMEOUT
            .check("--shutdown-timeout", self.shutdown_timeout)
            .map_err(|e| ConfigError(e.to_string()))?;
        if self.libuv {
            let lanes_only = [
                ("--cpu-threads", self.cpu_threads.is_some()),
                ("--fastio-threads", self.fastio_threads.is_some()),
                ("--slowio-threads", self.slowio_threads.is_some()),
                ("--cpu-queue", self.cpu_queue.is_some()),
                ("--cpu-nice", self.cpu_nice.is_some()),
            ];
            if let Some((flag, _)) = lanes_only.iter().find(|(_, set)| *set) {
                return Err(ConfigError(format!(
                    "{flag} does not apply with --libuv: libuv's pool has one size for every kind of work (UV_THREADPOOL_SIZE), one unbounded queue and no priorities; drop {flag} or --libuv"
                )));
            }
            return Pool::builder()
                .policy(sluice::Policy::Libuv { threads: None })
                .build()
                .map_err(|e| ConfigError(e.to_string()));
        }
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let mut b = sluice::Builder::from_vars(env).map_err(|e| ConfigError(e.to_string()))?;
        let lanes = [
            (Lane::Cpu, "--cpu-threads", self.cpu_threads),
            (Lane::FastIo, "--fastio-threads", self.fastio_threads),
            (Lane::SlowIo, "--slowio-threads", self.slowio_threads),
        ];
        for (lane, flag, n) in lanes {
            if let Some(n) = n {
                let why = if lane == Lane::Cpu {
                    " (the usable cores: more Cpu threads than cores only add switching)"
                } else {
                    ""
                };
                b = b.threads(lane, check(flag, n, budget::max_threads(lane, cores), why)?);
            }
        }
        if let Some(n) = self.cpu_nice {
            if n > 19 {
                return Err(ConfigError(format!(
                    "--cpu-nice {n} is out of range; expected 0..=19"
                )));
            }
            b = b.cpu_nice(n);
        }
        let bound = check(
            "--cpu-queue",
            self.cpu_queue.unwrap_or(DEFAULT_CPU_QUEUE),
            budget::MAX_QUEUE_BOUND,
            "",
        )?;
        b.queue_bound(Lane::Cpu, bound)
            .build()
            .map_err(|e| ConfigError(e.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Why `c` builds no pool under the environment `env`.
    fn refusal(c: &ServeConfig, env: impl Fn(&str) -> Option<String>) -> String {
        c.pool(env).unwrap_err().to_string()
    }

    #[test]
    fn a_duration_past_its_range_is_refused_by_name_not_added_to_a_clock() {
        for (c, want) in [
            (
                ServeConfig {
                    shutdown_timeout: Duration::MAX,
                    ..Default::default()
                },
                "--shutdown-timeout \"",
            ),
            (
                ServeConfig {
                    shutdown_timeout: Duration::ZERO,
                    ..Default::default()
                },
                "--shutdown-timeout \"0s\" is out of range; expected 100ms..=1h",
            ),
            (
                ServeConfig {
                    lag_resolution: Duration::ZERO,
                    ..Default::default()
                },
                "--lag-resolution \"0s\" is out of range; expected 1ms..=1s",
            ),
        ] {
            let e = refusal(&c, |_| None);
            assert!(e.starts_with(want), "{e}");
        }
        let c = ServeConfig {
            idle_timeout: Duration::MAX,
            ..Default::default()
        };
        let e = c.limits_under(1024).unwrap_err().to_string();
        assert!(e.starts_with("--idle-timeout \""), "{e}");
        assert!(e.ends_with("is out of range; expected 1ms..=1h"), "{e}");
    }

    #[test]
    fn flags_are_checked_by_name() {
        let c = ServeConfig {
            fastio_threads: Some(5000),
            ..Default::default()
        };
        assert_eq!(
            refusal(&c, |_| None),
            "--fastio-threads 5000 is out of range; expected 1..=1024"
        );
        let c = ServeConfig {
            cpu_threads: Some(10_000),
            ..Default::default()
        };
        assert!(
            refusal(&c, |_| None).starts_with("--cpu-threads 10000 is out of range; expected 1..=")
        );
        let env = |k: &str| (k == "SLUICE_QUEUE_BOUND").then(|| "8".to_string());
        assert!(refusal(&ServeConfig::default(), env).contains("pass --cpu-queue N"));
        let env = |k: &str| (k == "SLUICE_FASTIO_THREADS").then(|| "x".to_string());
        assert_eq!(
            refusal(&ServeConfig::default(), env),
            "SLUICE_FASTIO_THREADS=\"x\" is not a number; expected 1..=1024"
        );
    }

    #[test]
    fn libuv_refuses_the_lanes_flags() {
        let c = ServeConfig {
            libuv: true,
            ..Default::default()
        };
        let pool = c.pool(|_| None).unwrap();
        assert!(matches!(pool.policy(), sluice::Policy::Libuv { .. }));
        assert_eq!(c.cpu_queue_bound(), None);
        let c = ServeConfig {
            libuv: true,
            cpu_queue: Some(4),
            ..Default::default()
        };
        assert!(refusal(&c, |_| None).starts_with("--cpu-queue does not apply with --libuv"));
    }

    #[test]
    fn env_sizes_apply_and_flags_win() {
        let env = |k: &str| (k == "SLUICE_FASTIO_THREADS").then(|| "7".to_string());
        let pool = ServeConfig::default().pool(env).unwrap();
        assert_eq!(pool.limit(Lane::FastIo), 7);
        let c = ServeConfig {
            fastio_threads: Some(3),
            ..Default::default()
        };
        assert_eq!(c.pool(env).unwrap().limit(Lane::FastIo), 3);
        assert_eq!(
            c.pool(env).unwrap().metrics().lane(Lane::Cpu).queue_bound,
            Some(DEFAULT_CPU_QUEUE as u64)
        );
    }
}
