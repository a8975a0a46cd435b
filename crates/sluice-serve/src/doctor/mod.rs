//! The doctor against a running service: `sluice doctor --url URL --window 10s`.
//!
//! - `fetch.rs`: one GET of the metrics (ureq; loopback only).
//! - `prometheus.rs`: the text into a [`Sample`](sluice::health::Sample).
//! - here: two samples a window apart, [`sluice::health::diagnose`], the
//!   report and its exit code.

mod fetch;
mod prometheus;

pub use fetch::{fetch, fetch_bytes};
pub use prometheus::sample_from_text;

use sluice::health::{Diagnosis, Thresholds, Verdict, diagnose};
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
        url: url.url,
        exit_code: DoctorReport::exit_code(diagnosis.verdict),
        diagnosis,
    })
}

/// Parses a window such as `10s`, `500ms`, `2m` (100 ms ..= 1 h).
///
/// ```
/// use sluice_serve::doctor::parse_window;
/// use std::time::Duration;
/// assert_eq!(parse_window("10s"), Ok(Duration::from_secs(10)));
/// assert_eq!(parse_window("1.5s"), Ok(Duration::from_millis(1500)));
/// assert_eq!(parse_window("250ms"), Ok(Duration::from_millis(250)));
/// assert_eq!(parse_window("10").unwrap_err(), "--window \"10\": expected a duration such as 10s, 500ms or 1m");
/// assert_eq!(parse_window("5ms").unwrap_err(), "--window \"5ms\" is out of range; expected 100ms..=1h");
/// ```
pub fn parse_window(text: &str) -> Result<Duration, String> {
    let t = text.trim();
    let bad = || format!("--window {text:?}: expected a duration such as 10s, 500ms or 1m");
    let (num, unit) = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .map(|i| t.split_at(i))
        .ok_or_else(bad)?;
    let n: f64 = num.parse().map_err(|_| bad())?;
    let secs = match unit {
        "ms" => n / 1e3,
        "s" => n,
        "m" => n * 60.0,
        "h" => n * 3600.0,
        _ => return Err(bad()),
    };
    if !(0.1..=3600.0).contains(&secs) {
        return Err(format!(
            "--window {text:?} is out of range; expected 100ms..=1h"
        ));
    }
    Ok(Duration::from_secs_f64(secs))
}
