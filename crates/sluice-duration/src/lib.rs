//! [`parse_duration`]: the one duration grammar of every sluice command and
//! configuration (`sluice serve`, `doctor`, `load`, `scope`, `dns-delay`,
//! the lab), re-exported as `sluice::parse_duration`; and [`Range`], the one
//! range check every duration flag declares and runs (`min..=max`, the flag
//! and the range named in the error).

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

/// The values one duration flag accepts, `min..=max` (both included). Every
/// duration flag declares one, so that 0, a huge value or a negative one is
/// refused with the flag and the range named, before anything adds it to an
/// `Instant`.
///
/// ```
/// use sluice_duration::Range;
/// use std::time::Duration;
/// const TIMEOUT: Range = Range::new(Duration::from_millis(100), Duration::from_secs(3600));
/// assert_eq!(TIMEOUT.parse("--timeout", "2.5")?, Duration::from_millis(2500));
/// assert_eq!(
///     TIMEOUT.parse("--timeout", "0").unwrap_err().to_string(),
///     "--timeout \"0\" is out of range; expected 100ms..=1h"
/// );
/// assert_eq!(
///     TIMEOUT.parse("--timeout", "18446744073709551615s").unwrap_err().to_string(),
///     "--timeout \"18446744073709551615s\" is out of range; expected 100ms..=1h"
/// );
/// assert_eq!(
///     TIMEOUT.parse("--timeout", "100000000000000000000000000000").unwrap_err().to_string(),
///     "--timeout \"100000000000000000000000000000\" is out of range; expected 100ms..=1h"
/// );
/// assert!(TIMEOUT.parse("--timeout", "-1").unwrap_err().to_string().starts_with("--timeout \"-1\" is not a duration"));
/// assert_eq!(TIMEOUT.to_string(), "100ms..=1h");
/// # Ok::<(), sluice_duration::FlagError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Range {
    /// The shortest value accepted.
    pub min: Duration,
    /// The longest value accepted.
    pub max: Duration,
}

impl Range {
    /// `min..=max`.
    ///
    /// # Panics
    ///
    /// If `min > max` (in a `const`, at compile time).
    pub const fn new(min: Duration, max: Duration) -> Range {
        assert!(
            min.as_nanos() <= max.as_nanos(),
            "a duration range needs min <= max"
        );
        Range { min, max }
    }

    /// Whether `d` is in the range.
    pub fn contains(&self, d: Duration) -> bool {
        (self.min..=self.max).contains(&d)
    }

    /// Reads `text` with [`parse_duration`] and checks it is in the range;
    /// the error names `flag` (as given, e.g. `--idle-timeout`) and the
    /// range.
    pub fn parse(&self, flag: &str, text: &str) -> Result<Duration, FlagError> {
        let d = parse_duration(text).map_err(|e| {
            // A number too large for a Duration is out of range, not junk.
            if e.why.contains("too large")
                || e.why.contains("too big")
                || e.why.contains("overflow")
                || e.why.contains("out of range")
            {
                FlagError::OutOfRange {
                    flag: flag.to_string(),
                    text: text.to_string(),
                    range: *self,
                }
            } else {
                FlagError::NotADuration {
                    flag: flag.to_string(),
                    error: e,
                    range: *self,
                }
            }
        })?;
        self.check(flag, d).map_err(|_| FlagError::OutOfRange {
            flag: flag.to_string(),
            text: text.to_string(),
            range: *self,
        })
    }

    /// Checks a duration already read (from a configuration struct, or the
    /// old whole-milliseconds spelling of a flag); the error names `flag`
    /// and shows `d` as the grammar writes it.
    ///
    /// ```
    /// use sluice_duration::Range;
    /// use std::time::Duration;
    /// let r = Range::new(Duration::from_millis(1), Duration::from_secs(1));
    /// assert_eq!(r.check("--lag-resolution", Duration::from_millis(10))?, Duration::from_millis(10));
    /// assert_eq!(
    ///     r.check("--lag-resolution", Duration::from_secs(7200)).unwrap_err().to_string(),
    ///     "--lag-resolution \"2h\" is out of range; expected 1ms..=1s"
    /// );
    /// # Ok::<(), sluice_duration::FlagError>(())
    /// ```
    pub fn check(&self, flag: &str, d: Duration) -> Result<Duration, FlagError> {
        if self.contains(d) {
            Ok(d)
        } else {
            Err(FlagError::OutOfRange {
                flag: flag.to_string(),
                text: format(d),
                range: *self,
            })
        }
    }
}

impl std::fmt::Display for Range {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}..={}", format(self.min), format(self.max))
    }
}

/// A duration flag's value that [`Range::parse`] or [`Range::check`]
/// refused; the text names the flag and the range.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FlagError {
    /// Not in the grammar (junk, negative, NaN).
    #[error("{flag} {error}; the range is {range}")]
    NotADuration {
        /// The flag, e.g. `--idle-timeout`.
        flag: String,
        /// What the grammar says.
        error: DurationError,
        /// The flag's range.
        range: Range,
    },
    /// A duration, outside the flag's range.
    #[error("{flag} {text:?} is out of range; expected {range}")]
    OutOfRange {
        /// The flag, e.g. `--idle-timeout`.
        flag: String,
        /// The value as given.
        text: String,
        /// The flag's range.
        range: Range,
    },
}
