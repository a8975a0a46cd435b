//! [`ScopeConfig`]: a validated `sluice scope` command line. Each parser
//! names its flag and the value in its error, and says what is accepted.

use crate::error::ScopeError;
use crate::profile::ProfileConfig;
use crate::sample::session::{self, Options};
use crate::target::discovery::Strategy;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

/// How the reports are shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Face {
    /// The live terminal view (ratatui).
    Tui,
    /// One text line per window (stdout not a terminal).
    Text,
    /// One JSON object per window on stdout (`--json`).
    Json,
    /// A Prometheus exporter on this address (`--prometheus ADDR`).
    Prometheus(SocketAddr),
}

/// A validated `sluice scope` run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScopeConfig {
    /// The process.
    pub pid: u32,
    /// Sampling rate, discovery, probes.
    pub options: Options,
    /// Stop after this long (`--duration`), then print the summary.
    pub duration: Option<Duration>,
    /// Report window (1 s).
    pub window: Duration,
    /// How reports are shown.
    pub face: Face,
    /// `--profile`: take one CPU profile of the main thread instead of
    /// watching (and the terminal view's `p` key's settings).
    pub profile: Option<ProfileConfig>,
    /// Whether a person can be asked (stdin and stderr are terminals).
    pub interactive: bool,
    /// `--json-out FILE`: also write the `--json` lines (or `--profile`'s
    /// JSON object) to this file, whatever the face.
    pub json_out: Option<PathBuf>,
}

impl ScopeConfig {
    /// Watch `pid` with the defaults: 200 Hz, 1 s windows, no end, the
    /// terminal view.
    pub fn new(pid: u32) -> ScopeConfig {
        ScopeConfig {
            pid,
            options: Options::default(),
            duration: None,
            window: Duration::from_secs(1),
            face: Face::Tui,
            profile: None,
            interactive: false,
            json_out: None,
        }
    }
}

fn bad(flag: &'static str, value: &str, expected: impl Into<String>) -> ScopeError {
    ScopeError::Config {
        flag,
        value: value.to_string(),
        expected: expected.into(),
    }
}

/// Parses the `PID` argument.
///
/// ```
/// use sluice_scope::config::parse_pid;
/// assert_eq!(parse_pid("4242").unwrap(), 4242);
/// assert_eq!(
///     parse_pid("node").unwrap_err().to_string(),
///     "PID \"node\": not a process id; expected a whole number such as 4242 (`pgrep -a node` lists Node processes)"
/// );
/// ```
pub fn parse_pid(text: &str) -> Result<u32, ScopeError> {
    match text.trim().parse::<u32>() {
        Ok(0) => Err(bad(
            "PID",
            text,
            "0 is not a process; expected the PID of a running Node process (`pgrep -a node`)",
        )),
        Ok(pid) => Ok(pid),
        Err(_) => Err(bad(
            "PID",
            text,
            "not a process id; expected a whole number such as 4242 (`pgrep -a node` lists Node processes)",
        )),
    }
}

/// Parses `--rate HZ`.
pub fn parse_rate(text: &str) -> Result<u32, ScopeError> {
    let expected = format!(
        "expected samples per second, a whole number in 1..={} (default {})",
        session::MAX_RATE_HZ,
        session::DEFAULT_RATE_HZ
    );
    match text.trim().parse::<u32>() {
        Ok(r) if (1..=session::MAX_RATE_HZ).contains(&r) => Ok(r),
        _ => Err(bad("--rate", text, expected)),
    }
}

/// `--duration`'s range: 1 ms to a week.
pub const DURATION: sluice_duration::Range =
    sluice_duration::Range::new(Duration::from_millis(1), Duration::from_secs(7 * 86400));

/// `--profile`'s range: 10 ms to an hour.
pub const PROFILE: sluice_duration::Range =
    sluice_duration::Range::new(Duration::from_millis(10), Duration::from_secs(3600));

/// Parses `--duration`: seconds (`10`, `2.5`), or with a unit (`500ms`,
/// `10s`, `5m`); in [`DURATION`], 1 ms to a week.
///
/// ```
/// use sluice_scope::config::parse_duration;
/// use std::time::Duration;
/// assert_eq!(parse_duration("10").unwrap(), Duration::from_secs(10));
/// assert_eq!(parse_duration("500ms").unwrap(), Duration::from_millis(500));
/// assert_eq!(parse_duration("2m").unwrap(), Duration::from_secs(120));
/// assert!(parse_duration("soon").is_err());
/// ```
pub fn parse_duration(text: &str) -> Result<Duration, ScopeError> {
    parse_in("--duration", text, DURATION)
}

/// Parses `--profile TIME`: in [`PROFILE`], 10 ms to an hour.
///
/// ```
/// use sluice_scope::config::parse_profile_time;
/// assert_eq!(parse_profile_time("5").unwrap().as_secs(), 5);
/// assert!(parse_profile_time("0").unwrap_err().to_string().contains("10ms..=1h"));
/// ```
pub fn parse_profile_time(text: &str) -> Result<Duration, ScopeError> {
    parse_in("--profile", text, PROFILE)
}

/// A duration flag `flag` in `range`, refused with the flag and range named.
fn parse_in(
    flag: &'static str,
    text: &str,
    range: sluice_duration::Range,
) -> Result<Duration, ScopeError> {
    range.parse(flag, text).map_err(|e| {
        let why = match e {
            sluice_duration::FlagError::NotADuration { error, .. } => {
                format!("not a duration: {}", error.why)
            }
            sluice_duration::FlagError::OutOfRange { .. } => "out of range".to_string(),
        };
        bad(
            flag,
            text,
            format!("expected a time such as 10 (seconds), 2.5s, 500ms or 5m, in {range} ({why})"),
        )
    })
}

/// Parses `--prometheus ADDR` (`IP:PORT`).
pub fn parse_listen(text: &str) -> Result<SocketAddr, ScopeError> {
    text.trim().parse().map_err(|_| {
        bad(
            "--prometheus",
            text,
            "expected IP:PORT, such as 127.0.0.1:9464 (or 0.0.0.0:9464 for every interface)",
        )
    })
}

/// Parses `--profile-interval US`: V8's sampling interval in µs, 50 to
/// 100 000.
///
/// ```
/// use sluice_scope::config::parse_interval;
/// assert_eq!(parse_interval("250").unwrap().as_micros(), 250);
/// assert!(parse_interval("10").is_err());
/// ```
pub fn parse_interval(text: &str) -> Result<Duration, ScopeError> {
    match text.trim().parse::<u64>() {
        Ok(us) if (50..=100_000).contains(&us) => Ok(Duration::from_micros(us)),
        _ => Err(bad(
            "--profile-interval",
            text,
            "expected V8's sampling interval in µs, a whole number in 50..=100000 (default 1000)",
        )),
    }
}

/// Parses `--discover`.
pub fn parse_strategy(text: &str) -> Result<Strategy, ScopeError> {
    Strategy::parse(text.trim())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_values_name_their_flag() {
        assert_eq!(
            parse_rate("0").unwrap_err().to_string(),
            "--rate \"0\": expected samples per second, a whole number in 1..=2000 (default 200)"
        );
        assert!(parse_rate("fast").is_err());
        assert_eq!(parse_rate("50").unwrap(), 50);
        assert!(
            parse_pid("0")
                .unwrap_err()
                .to_string()
                .contains("0 is not a process")
        );
        assert_eq!(
            parse_listen("localhost").unwrap_err().to_string(),
            "--prometheus \"localhost\": expected IP:PORT, such as 127.0.0.1:9464 (or 0.0.0.0:9464 for every interface)"
        );
        assert_eq!(
            parse_listen("127.0.0.1:9464").unwrap(),
            "127.0.0.1:9464".parse().unwrap()
        );
        for bad in ["0", "-1", "1000w", "", "0.0001s"] {
            let e = parse_duration(bad).unwrap_err().to_string();
            assert!(e.starts_with("--duration"), "{bad}: {e}");
        }
        assert_eq!(parse_duration("2.5s").unwrap(), Duration::from_millis(2500));
    }
}
