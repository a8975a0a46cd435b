//! `--fast PATTERN`: names the delay server answers at once.

use std::fmt;

/// A name or a wildcard: `warmup.lab.test` matches itself, `*.fast.test`
/// matches every name under `fast.test` (not `fast.test` itself). Case
/// and a final dot do not matter.
///
/// ```
/// use sluice_testnet::dns_delay::FastPattern;
/// let p: FastPattern = "*.fast.test".parse().unwrap();
/// assert!(p.matches("a.FAST.test.") && !p.matches("fast.test"));
/// assert!("a*b".parse::<FastPattern>().unwrap_err().contains("--fast \"a*b\""));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FastPattern {
    /// The name (`Exact`) or the suffix after `*.`, lowercased, no final dot.
    name: String,
    wildcard: bool,
}

impl FastPattern {
    /// True if `name` matches.
    pub fn matches(&self, name: &str) -> bool {
        let name = normalize(name);
        if self.wildcard {
            name.strip_suffix(&self.name)
                .is_some_and(|head| head.len() > 1 && head.ends_with('.'))
        } else {
            name == self.name
        }
    }
}

impl std::str::FromStr for FastPattern {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        let (wildcard, rest) = match s.strip_prefix("*.") {
            Some(rest) => (true, rest),
            None => (false, s),
        };
        let name = normalize(rest);
        if name.is_empty()
            || name.contains('*')
            || name.split('.').any(|l| l.is_empty() || l.len() > 63)
            || name.chars().any(|c| c.is_whitespace() || c.is_control())
        {
            return Err(format!(
                "--fast {s:?}: expected a name (warmup.lab.test) or a wildcard (*.fast.test)"
            ));
        }
        Ok(FastPattern { name, wildcard })
    }
}

impl fmt::Display for FastPattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.wildcard {
            write!(f, "*.{}", self.name)
        } else {
            f.write_str(&self.name)
        }
    }
}

/// A name as the server counts it: lowercased, without a final dot.
pub(crate) fn normalize(name: &str) -> String {
    name.strip_suffix('.').unwrap_or(name).to_ascii_lowercase()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_and_wildcard_patterns() {
        let exact: FastPattern = "Warmup.Lab.Test.".parse().unwrap();
        assert!(exact.matches("warmup.lab.test"));
        assert!(!exact.matches("x.warmup.lab.test"));
        assert_eq!(exact.to_string(), "warmup.lab.test");
        let wild: FastPattern = "*.fast.test".parse().unwrap();
        assert!(wild.matches("a.b.fast.test"));
        assert!(!wild.matches("afast.test"));
        for bad in ["", "*.", "a..b", "*.*.x", "a b"] {
            assert!(bad.parse::<FastPattern>().is_err(), "{bad:?}");
        }
    }
}
