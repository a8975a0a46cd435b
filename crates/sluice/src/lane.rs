//! [`Lane`]: the three kinds of blocking work, each with a budget of its own.

use std::fmt;
use std::str::FromStr;

/// A kind of blocking work. Each lane has its own concurrency budget, queue and
/// threads under the lanes policy, so a flood in one lane never delays another.
///
/// The lanes map onto libuv's work kinds one to one, which is how
/// [`Policy::Libuv`](crate::Policy::Libuv) reproduces libuv on the same code:
///
/// | lane             | libuv kind         | what Node sends there                         |
/// |------------------|--------------------|-----------------------------------------------|
/// | [`Lane::Cpu`]    | `UV__WORK_CPU`     | `crypto.pbkdf2`/`scrypt`/`randomBytes`, zlib, `uv_queue_work` |
/// | [`Lane::FastIo`] | `UV__WORK_FAST_IO` | every `fs` call                               |
/// | [`Lane::SlowIo`] | `UV__WORK_SLOW_IO` | `getaddrinfo`, `getnameinfo` (`dns.lookup`)   |
///
/// ```
/// use sluice::Lane;
///
/// assert_eq!(Lane::ALL.len(), 3);
/// assert_eq!(Lane::FastIo.name(), "fastio");
/// assert_eq!("slowio".parse::<Lane>().unwrap(), Lane::SlowIo);
/// assert_eq!(Lane::Cpu.thread_name(), "sluice-cpu");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Lane {
    /// Work that keeps a core busy: hashing, compression, parsing.
    /// Its budget defaults to the usable cores and may not exceed them.
    Cpu,
    /// Short blocking system calls: file reads, writes, `stat`.
    /// It has threads of its own that CPU work can never take.
    FastIo,
    /// Blocking waits that use no CPU: name resolution, network file systems,
    /// user calls that sleep. Its budget is large and elastic; idle threads retire.
    SlowIo,
}

impl Lane {
    /// Every lane, in index order.
    pub const ALL: [Lane; 3] = [Lane::Cpu, Lane::FastIo, Lane::SlowIo];

    /// The lane's name as used in metrics labels, environment variables and
    /// the command line: `cpu`, `fastio`, `slowio`.
    ///
    /// ```
    /// assert_eq!(sluice::Lane::Cpu.name(), "cpu");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            Lane::Cpu => "cpu",
            Lane::FastIo => "fastio",
            Lane::SlowIo => "slowio",
        }
    }

    /// The name of this lane's worker threads, as `/proc/PID/task/*/comm` shows it.
    ///
    /// ```
    /// assert_eq!(sluice::Lane::SlowIo.thread_name(), "sluice-slowio");
    /// ```
    pub const fn thread_name(self) -> &'static str {
        match self {
            Lane::Cpu => "sluice-cpu",
            Lane::FastIo => "sluice-fastio",
            Lane::SlowIo => "sluice-slowio",
        }
    }

    /// The libuv work kind this lane corresponds to.
    ///
    /// ```
    /// assert_eq!(sluice::Lane::SlowIo.libuv_kind(), "UV__WORK_SLOW_IO");
    /// ```
    pub const fn libuv_kind(self) -> &'static str {
        match self {
            Lane::Cpu => "UV__WORK_CPU",
            Lane::FastIo => "UV__WORK_FAST_IO",
            Lane::SlowIo => "UV__WORK_SLOW_IO",
        }
    }

    /// A dense index `0..3`, for per-lane arrays.
    pub(crate) const fn index(self) -> usize {
        match self {
            Lane::Cpu => 0,
            Lane::FastIo => 1,
            Lane::SlowIo => 2,
        }
    }
}

impl fmt::Display for Lane {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The error of parsing a [`Lane`] from text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown lane {0:?}; expected one of cpu, fastio, slowio")]
pub struct ParseLaneError(pub String);

impl FromStr for Lane {
    type Err = ParseLaneError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "cpu" => Ok(Lane::Cpu),
            "fastio" | "fast-io" | "fast_io" => Ok(Lane::FastIo),
            "slowio" | "slow-io" | "slow_io" => Ok(Lane::SlowIo),
            _ => Err(ParseLaneError(s.to_string())),
        }
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;

    #[test]
    fn index_matches_all_order() {
        for (i, lane) in Lane::ALL.iter().enumerate() {
            assert_eq!(lane.index(), i);
        }
    }

    #[test]
    fn parse_rejects_unknown_with_the_input() {
        let err = "gpu".parse::<Lane>().unwrap_err();
        assert_eq!(
            err.to_string(),
            "unknown lane \"gpu\"; expected one of cpu, fastio, slowio"
        );
        assert_eq!("FAST-IO".parse::<Lane>().unwrap(), Lane::FastIo);
    }
}
