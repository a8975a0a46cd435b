//! [`parse_duration`]: the one duration grammar of every sluice command and
//! configuration (`sluice serve`, `doctor`, `load`, `scope`, `dns-delay`,
//! the lab), re-exported as `sluice::parse_duration`.

#![forbid(unsafe_code)]

use std::time::Duration;

/// A duration that [`parse_duration`] could not read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "{text:?} is not a duration ({why}); expected a number of seconds such as 10 or 2.5, or a time such as 500ms, 1.5s, 2m, 1h"
)]
pub struct DurationError {
    /// The text as given.
    pub text: String,
    /// What is wrong with it.
    pub why: String,
}

/// Reads a duration the way every sluice flag does: a bare number is
/// seconds (`10`, `2.5`), anything else is
/// [humantime](https://docs.rs/humantime)'s grammar (`500ms`, `1.5s`,
/// `2m 30s`, `1h`). Negative, infinite or NaN numbers are errors; ranges
/// are the caller's to check.
///
/// ```
/// use sluice_duration::parse_duration;
/// use std::time::Duration;
/// assert_eq!(parse_duration("10")?, Duration::from_secs(10));
/// assert_eq!(parse_duration("2.5")?, Duration::from_millis(2500));
/// assert_eq!(parse_duration("500ms")?, Duration::from_millis(500));
/// assert_eq!(parse_duration("1.5s")?, Duration::from_millis(1500));
/// assert_eq!(parse_duration("2m 30s")?, Duration::from_secs(150));
/// assert!(parse_duration("soon").unwrap_err().to_string().starts_with("\"soon\" is not a duration"));
/// assert!(parse_duration("-1").is_err());
/// # Ok::<(), sluice_duration::DurationError>(())
/// ```
pub fn parse_duration(text: &str) -> Result<Duration, DurationError> {
    let t = text.trim();
    let err = |why: String| DurationError {
        text: text.to_string(),
        why,
    };
    if t.bytes()
        .all(|b| b.is_ascii_digit() || b == b'.' || b == b'-' || b == b'+')
        && !t.is_empty()
    {
        let secs: f64 = t.parse().map_err(|_| err("not a number".into()))?;
        return Duration::try_from_secs_f64(secs).map_err(|e| err(e.to_string()));
    }
    // humantime reads "1.5s" as 1 s + 5 ? : it wants whole numbers per unit,
    // so a decimal with one unit is read here.
    if let Some(split) = t.find(|c: char| !(c.is_ascii_digit() || c == '.'))
        && t[..split].contains('.')
    {
        let (num, unit) = t.split_at(split);
        let scale = match unit.trim() {
            "ns" => 1e-9,
            "us" | "µs" => 1e-6,
            "ms" => 1e-3,
            "s" | "sec" | "secs" => 1.0,
            "m" | "min" | "mins" => 60.0,
            "h" | "hr" | "hrs" => 3600.0,
            "d" | "days" | "day" => 86400.0,
            other => return Err(err(format!("unknown unit {other:?}"))),
        };
        let n: f64 = num.parse().map_err(|_| err("not a number".into()))?;
        return Duration::try_from_secs_f64(n * scale).map_err(|e| err(e.to_string()));
    }
    humantime::parse_duration(t).map_err(|e| err(e.to_string()))
}

/// A duration as the grammar writes it, shortest first: `100ms`, `1h`,
/// `0s` (humantime's format).
///
/// ```
/// use std::time::Duration;
/// assert_eq!(sluice_duration::format(Duration::from_millis(100)), "100ms");
/// assert_eq!(sluice_duration::format(Duration::from_secs(3600)), "1h");
/// ```
pub fn format(d: Duration) -> String {
    if d.is_zero() {
        return "0s".to_string();
    }
    humantime::format_duration(d).to_string()
}
