//! [`PoolSize`]: a pool size as the lab varies it, including "unset".

use serde_json::Value;
use std::fmt;
use std::str::FromStr;

/// A pool size: `UV_THREADPOOL_SIZE` for Node and the libuv policy, the lane
/// budgets for sluice, `max_blocking_threads` for tokio. `Unset` leaves each
/// subject at its own default.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PoolSize {
    /// Each subject's default.
    Unset,
    /// An explicit size.
    Size(usize),
}

impl PoolSize {
    /// The explicit size, if any.
    pub fn size(self) -> Option<usize> {
        match self {
            PoolSize::Unset => None,
            PoolSize::Size(n) => Some(n),
        }
    }

    /// As a JSON parameter: a number, or `"unset"`.
    pub fn to_value(self) -> Value {
        match self {
            PoolSize::Unset => Value::from("unset"),
            PoolSize::Size(n) => Value::from(n),
        }
    }

    /// Parses `1,2,4,unset` into sizes, refusing junk and zero with the
    /// offending item named.
    pub fn parse_list(text: &str) -> Result<Vec<PoolSize>, String> {
        let mut out = Vec::new();
        for item in text.split(',') {
            let item = item.trim();
            if item.is_empty() {
                return Err(format!(
                    "--pools {text:?}: empty item; expected sizes like 1,2,4,8 or \"unset\""
                ));
            }
            out.push(item.parse().map_err(|e| format!("--pools {text:?}: {e}"))?);
        }
        Ok(out)
    }
}

/// Read as its JSON parameter: a number, or `"unset"`.
impl<'de> serde::Deserialize<'de> for PoolSize {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        match Value::deserialize(d)? {
            Value::String(s) if s == "unset" => Ok(PoolSize::Unset),
            v => v
                .as_u64()
                .map(|n| PoolSize::Size(n as usize))
                .ok_or_else(|| serde::de::Error::custom(format!("pool {v}: not a size"))),
        }
    }
}

impl fmt::Display for PoolSize {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PoolSize::Unset => f.write_str("unset"),
            PoolSize::Size(n) => write!(f, "{n}"),
        }
    }
}

impl FromStr for PoolSize {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if s == "unset" || s == "default" {
            return Ok(PoolSize::Unset);
        }
        match s.parse::<i64>() {
            Ok(n) if (1..=4096).contains(&n) => Ok(PoolSize::Size(n as usize)),
            Ok(n) => Err(format!(
                "pool size {n} is out of range; expected 1..=4096 or \"unset\""
            )),
            Err(_) => Err(format!(
                "pool size {s:?} is not a number; expected 1..=4096 or \"unset\""
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_parse_and_junk_is_named() {
        assert_eq!(
            PoolSize::parse_list("1, 4,unset").unwrap(),
            vec![PoolSize::Size(1), PoolSize::Size(4), PoolSize::Unset]
        );
        assert_eq!(
            PoolSize::parse_list("1,x").unwrap_err(),
            "--pools \"1,x\": pool size \"x\" is not a number; expected 1..=4096 or \"unset\""
        );
        assert!(
            PoolSize::parse_list("0")
                .unwrap_err()
                .contains("out of range")
        );
        assert!(
            PoolSize::parse_list("1,,2")
                .unwrap_err()
                .contains("empty item")
        );
    }
}
