//! [`Verdict`]: the one verdict vocabulary of sluice, shared by the doctor
//! ([`diagnose`](crate::diagnose), `sluice doctor`), `sluice serve`'s
//! `sluice_verdict` and `sluice scope`.

use sluice::Lane;
use std::fmt;

/// What a doctor concluded about a window. Its [`Display`](fmt::Display)
/// and [`as_str`](Verdict::as_str) is the token, one of [`Verdict::TOKENS`]:
/// the `verdict` label of `sluice_verdict` (`sluice serve`'s `/metrics`)
/// and of `sluice_scope_verdict`, the `verdict` of `sluice doctor --json`
/// and of `sluice scope --json`. Kebab-case; the prose is in the evidence.
/// The lane, where there is one, is [`Verdict::lane`] (a `lane` label or
/// field beside the token).
///
/// | token | variants | meaning |
/// |-------|----------|---------|
/// | `healthy` | [`Healthy`](Verdict::Healthy) | loop on time, no pool or lane saturated |
/// | `loop-blocked` | [`LoopBlocked`](Verdict::LoopBlocked) | the loop's timers fire late / the loop thread is busy: synchronous work on the loop |
/// | `pool-saturated` | [`PoolSaturated`](Verdict::PoolSaturated), [`LaneSaturated`](Verdict::LaneSaturated) | every thread of the pool (or of the lane) busy with work queued |
/// | `pool-compensating` | [`LaneCompensating`](Verdict::LaneCompensating) | the lane keeps up only by starting threads beyond its budget |
/// | `slow-io-throttled` | [`SlowIoThrottled`](Verdict::SlowIoThrottled) | libuv's slow I/O queued behind its `(n + 1) / 2` limit (scope) |
/// | `loop-blocked+pool-saturated` | [`Both`](Verdict::Both) | both at once (scope) |
/// | `loop-blocked+slow-io-throttled` | [`LoopBlockedSlowIoThrottled`](Verdict::LoopBlockedSlowIoThrottled) | both at once (scope) |
/// | `unknown` | [`Unknown`](Verdict::Unknown) | the pool could not be read (scope; the evidence says why) |
///
/// The pool doctor ([`diagnose`](crate::diagnose)) reads a sluice pool's
/// lanes and gives the laned verdicts; `sluice scope` reads a libuv pool
/// from outside, which has no lanes, and gives the others.
///
/// ```
/// use sluice::Lane;
/// use sluice_health::Verdict;
/// assert_eq!(Verdict::LaneSaturated(Lane::Cpu).as_str(), "pool-saturated");
/// assert_eq!(Verdict::LaneSaturated(Lane::Cpu).lane(), Some(Lane::Cpu));
/// assert_eq!(Verdict::LoopBlocked.to_string(), "loop-blocked");
/// assert_eq!(Verdict::from_token("pool-saturated", Some(Lane::Cpu)), Some(Verdict::LaneSaturated(Lane::Cpu)));
/// assert_eq!(Verdict::from_token("pool-saturated", None), Some(Verdict::PoolSaturated));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Verdict {
    /// Loop on time, no pool or lane saturated.
    Healthy,
    /// The event loop's timers fire late, or its thread was busy nearly the
    /// whole window: synchronous work on the loop.
    LoopBlocked,
    /// Every thread of a pool without lanes (libuv's) busy at once most of
    /// the window.
    PoolSaturated,
    /// The loop is on time but this lane's queue is full and waiting.
    LaneSaturated(Lane),
    /// Nothing waits too long, but this lane keeps its queue moving only by
    /// starting threads beyond its budget: its tasks wait more than they
    /// compute (blocking compensation, see [`sluice::blocking`]).
    LaneCompensating(Lane),
    /// Slow I/O queued behind libuv's `(n + 1) / 2` limit most of the
    /// window, the pool not saturated.
    SlowIoThrottled,
    /// The loop blocked and the pool saturated.
    Both,
    /// The loop blocked and slow I/O throttled.
    LoopBlockedSlowIoThrottled,
    /// The pool could not be found: its state is unknown (the evidence
    /// says why).
    Unknown,
}

impl Verdict {
    /// Every token, in the order of the table above.
    pub const TOKENS: [&'static str; 8] = [
        "healthy",
        "loop-blocked",
        "pool-saturated",
        "pool-compensating",
        "slow-io-throttled",
        "loop-blocked+pool-saturated",
        "loop-blocked+slow-io-throttled",
        "unknown",
    ];

    /// Every verdict about a pool as a whole, in severity order (`unknown`
    /// first: nothing is known): what `sluice scope` gives a libuv pool,
    /// and the series of `sluice_scope_verdict`. The laned verdicts are per
    /// lane: [`Verdict::of_lanes`].
    pub const ALL: [Verdict; 7] = [
        Verdict::Unknown,
        Verdict::Healthy,
        Verdict::SlowIoThrottled,
        Verdict::PoolSaturated,
        Verdict::LoopBlocked,
        Verdict::LoopBlockedSlowIoThrottled,
        Verdict::Both,
    ];

    /// The token (one of [`Verdict::TOKENS`]).
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Healthy => "healthy",
            Verdict::LoopBlocked => "loop-blocked",
            Verdict::PoolSaturated | Verdict::LaneSaturated(_) => "pool-saturated",
            Verdict::LaneCompensating(_) => "pool-compensating",
            Verdict::SlowIoThrottled => "slow-io-throttled",
            Verdict::Both => "loop-blocked+pool-saturated",
            Verdict::LoopBlockedSlowIoThrottled => "loop-blocked+slow-io-throttled",
            Verdict::Unknown => "unknown",
        }
    }

    /// The verdict a token and its lane name; `None` for a token that is
    /// not one of [`Verdict::TOKENS`], and for `pool-compensating`
    /// without a lane (only a lane compensates).
    pub fn from_token(token: &str, lane: Option<Lane>) -> Option<Verdict> {
        Some(match (token, lane) {
            ("pool-saturated", Some(l)) => Verdict::LaneSaturated(l),
            ("pool-compensating", Some(l)) => Verdict::LaneCompensating(l),
            ("pool-compensating", None) => return None,
            (t, _) => *Verdict::ALL.iter().find(|v| v.as_str() == t)?,
        })
    }

    /// The lane the verdict is about, if any.
    pub fn lane(self) -> Option<Lane> {
        match self {
            Verdict::LaneSaturated(l) | Verdict::LaneCompensating(l) => Some(l),
            _ => None,
        }
    }

    /// Whether this verdict is a finding (the doctors' exit code 1): the
    /// loop blocked, a pool or lane saturated or compensating, slow I/O
    /// throttled; not `healthy`, not `unknown`.
    ///
    /// ```
    /// use sluice_health::Verdict;
    /// let findings = Verdict::ALL.iter().filter(|v| v.is_finding()).count();
    /// assert_eq!(findings, 5);
    /// assert!(!Verdict::Healthy.is_finding() && !Verdict::Unknown.is_finding());
    /// ```
    pub fn is_finding(self) -> bool {
        !matches!(self, Verdict::Healthy | Verdict::Unknown)
    }

    /// The verdicts the pool doctor can give a pool with `lanes`, in the
    /// order `sluice_verdict` lists them: `healthy`, `loop-blocked`, then
    /// each lane saturated, then each lane compensating.
    pub fn of_lanes(lanes: &[Lane]) -> Vec<Verdict> {
        let mut every = vec![Verdict::Healthy, Verdict::LoopBlocked];
        every.extend(lanes.iter().map(|&l| Verdict::LaneSaturated(l)));
        every.extend(lanes.iter().map(|&l| Verdict::LaneCompensating(l)));
        every
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for Verdict {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

/// Reads a token without a lane (what `sluice scope --json` writes); a
/// laned verdict's lane is a separate field, read with
/// [`Verdict::from_token`].
#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for Verdict {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let token = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        Verdict::from_token(&token, None).ok_or_else(|| {
            serde::de::Error::invalid_value(
                serde::de::Unexpected::Str(&token),
                &"a verdict token without a lane",
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_token_reads_back_as_its_verdict() {
        let mut seen = Vec::new();
        let mut every = Verdict::ALL.to_vec();
        every.extend(Verdict::of_lanes(&Lane::ALL));
        for v in every {
            assert!(Verdict::TOKENS.contains(&v.as_str()), "{v:?}");
            assert_eq!(Verdict::from_token(v.as_str(), v.lane()), Some(v));
            seen.push(v.as_str());
        }
        // Every token is produced by some verdict.
        for t in Verdict::TOKENS {
            assert!(seen.contains(&t), "{t}");
        }
        assert_eq!(Verdict::from_token("pool-compensating", None), None);
        assert_eq!(Verdict::from_token("sick", None), None);
    }

    #[cfg(feature = "serde")]
    #[test]
    fn serde_writes_and_reads_the_token() {
        let json = serde_json::to_string(&Verdict::Both).unwrap();
        assert_eq!(json, "\"loop-blocked+pool-saturated\"");
        assert_eq!(
            serde_json::from_str::<Verdict>(&json).unwrap(),
            Verdict::Both
        );
        assert!(serde_json::from_str::<Verdict>("\"pool-compensating\"").is_err());
        assert!(serde_json::from_str::<Verdict>("\"sick\"").is_err());
    }
}
