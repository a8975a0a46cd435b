//! The doctor against a running service: `sluice doctor --url URL --window 10s`.
//!
//! - `fetch.rs`: one GET of the metrics (ureq; loopback only).
//! - `prometheus.rs`: the text into a [`Sample`](sluice_health::Sample).
//! - here: two samples a window apart, [`sluice_health::diagnose`], the
//!   report and its exit code.

mod fetch;
mod prometheus;

pub use fetch::{fetch, fetch_bytes};
pub use prometheus::sample_from_text;

use sluice_health::{Diagnosis, Thresholds, Verdict, diagnose};
use std::time::{Duration, Instant};

/// How the doctor runs.
#[derive(Debug, Clone)]
pub struct DoctorConfig {
    /// The service's metrics, e.g. `http://127.0.0.1:8080/metrics`.
    pub url: String,
    /// Time between the two samples.
    pub window: Duration,
    /// When a number is a problem.
    pub thresholds: Thresholds,
    /// How long one fetch may take (a blocked loop answers late).
    pub timeout: Duration,
}

impl DoctorConfig {
    /// `url` over `window`, default thresholds, a 30 s fetch timeout.
    pub fn new(url: impl Into<String>, window: Duration) -> Self {
        DoctorConfig {
            url: url.into(),
            window,
            thresholds: Thresholds::default(),
            timeout: Duration::from_secs(30),
        }
    }
}

/// The doctor's answer.
#[derive(Debug, Clone, serde::Serialize)]
pub struct DoctorReport {
    /// What was read.
    pub url: String,
    /// The verdict, the window's numbers and the evidence.
    #[serde(flatten)]
    pub diagnosis: Diagnosis,
    /// The exit code `sluice doctor` returns (see [`exit_code`](DoctorReport::exit_code)).
    pub exit_code: u8,
    /// When the window ended, wall clock, RFC 3339 UTC.
    pub timestamp: String,
}

impl DoctorReport {
    /// 0: healthy; 1: a problem was found (loop blocked, a lane saturated,
    /// a lane living on compensation). (`sluice doctor` exits 2 when it
    /// could not diagnose at all.)
    pub fn exit_code(verdict: Verdict) -> u8 {
        u8::from(verdict.is_finding())
    }

    /// The report as pretty JSON (`--json`).
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a report always serializes")
    }
}

impl std::fmt::Display for DoctorReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "sluice doctor: {}", self.url)?;
        write!(f, "{}", self.diagnosis)?;
        writeln!(f, "lanes over the window:")?;
        for l in &self.diagnosis.lanes {
            writeln!(
                f,
                "  {:<7} started {:>6}  saturated {:>3.0}%  queue wait mean {:>8.2} ms  p99 <= {:>8} ms  queued now {}",
                l.lane.map_or("?", sluice::Lane::name),
                l.started,
                l.saturated_share * 100.0,
                l.queue_wait_mean_ms,
                l.queue_wait_p99_ms
                    .map_or("-".to_string(), |v| if v.is_infinite() {
                        "+Inf".into()
                    } else if v < 1.0 {
                        format!("{v:.3}")
                    } else {
                        format!("{v:.0}")
                    }),
                l.queue_depth
            )?;
        }
        Ok(())
    }
}

/// Reads `config.url` twice, `config.window` apart, and diagnoses the window.
/// Errors (unreachable URL, not a sluice service's metrics) name the URL and
/// what to check.
pub fn run(config: &DoctorConfig) -> anyhow::Result<DoctorReport> {
    let url = crate::loopback::check_url(&config.url).map_err(anyhow::Error::msg)?;
    let first = fetch(&url, config.timeout)?;
    let start = sample_from_text(&first).map_err(|e| anyhow::anyhow!("{}: {e}", url.url))?;
    let t0 = Instant::now();
    std::thread::sleep(config.window);
    let second = fetch(&url, config.timeout)?;
    let window = t0.elapsed();
    let end = sample_from_text(&second).map_err(|e| anyhow::anyhow!("{}: {e}", url.url))?;
    let diagnosis = diagnose(&start, &end, window, &config.thresholds);
    Ok(DoctorReport {
        timestamp: humantime::format_rfc3339_millis(std::time::SystemTime::now()).to_string(),
        url: url.url,
        exit_code: DoctorReport::exit_code(diagnosis.verdict),
        diagnosis,
    })
}

/// `--window`'s range: 100 ms to 1 h.
pub const WINDOW: sluice_duration::Range =
    sluice_duration::Range::new(Duration::from_millis(100), Duration::from_secs(3600));

/// `--lag-p99` and `--queue-wait-p99`'s range: 1 µs to 1 h.
pub const P99_THRESHOLD: sluice_duration::Range =
    sluice_duration::Range::new(Duration::from_micros(1), Duration::from_secs(3600));

/// Parses `--window` ([`WINDOW`]) with sluice's one duration grammar:
/// a bare number is seconds.
///
/// ```
/// use sluice_serve::doctor::parse_window;
/// use std::time::Duration;
/// assert_eq!(parse_window("10s"), Ok(Duration::from_secs(10)));
/// assert_eq!(parse_window("10"), Ok(Duration::from_secs(10)));
/// assert_eq!(parse_window("1.5s"), Ok(Duration::from_millis(1500)));
/// assert_eq!(parse_window("250ms"), Ok(Duration::from_millis(250)));
/// assert!(parse_window("soon").unwrap_err().starts_with("--window \"soon\" is not a duration"));
/// assert_eq!(parse_window("5ms").unwrap_err(), "--window \"5ms\" is out of range; expected 100ms..=1h");
/// ```
pub fn parse_window(text: &str) -> Result<Duration, String> {
    WINDOW.parse("--window", text).map_err(|e| e.to_string())
}

/// Parses the duration flag `flag` with sluice's one grammar
/// ([`sluice::parse_duration`]: a bare number is seconds) and checks it is
/// in `min..=max`; the error names the flag.
///
/// ```
/// use sluice_serve::doctor::parse_flag;
/// use std::time::Duration;
/// let (min, max) = (Duration::ZERO, Duration::from_secs(60));
/// assert_eq!(parse_flag("--idle-timeout", "5", min, max), Ok(Duration::from_secs(5)));
/// assert_eq!(parse_flag("--idle-timeout", "2m", min, max).unwrap_err(), "--idle-timeout \"2m\" is out of range; expected 0s..=1m");
/// ```
pub fn parse_flag(
    flag: &str,
    text: &str,
    min: Duration,
    max: Duration,
) -> Result<Duration, String> {
    sluice_duration::Range::new(min, max)
        .parse(flag, text)
        .map_err(|e| e.to_string())
}
