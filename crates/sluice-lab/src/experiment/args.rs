//! An experiment's flags as data, as ripgrep declares its flags: each
//! [`ArgSpec`] names one flag, its defaults and its [`Kind`] (what its value
//! is and the values it accepts). The command line, `--help`, the report's
//! values and the checks all read that one declaration; [`Args`] holds the
//! values and its getters check them against it, naming the flag in every
//! error.
//!
//! Durations are sluice's one grammar ([`sluice_duration`]: a bare number is
//! seconds, `300ms`, `1.5s`), held as [`Duration`]s: the command line hands
//! them over parsed ([`Args::set_duration`]), never as text to read again.
//! Each that had a whole-milliseconds spelling before keeps it (`--hold-ms
//! 300`), which the command line still reads; a flag that came with the
//! grammar has none ([`Kind::duration`]).

use anyhow::bail;
use sluice_duration::Range;
use std::collections::BTreeMap;
use std::time::Duration;

/// What a flag's value is, and the values it accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A whole number in `min..=max`.
    Number {
        /// The smallest value accepted.
        min: u64,
        /// The largest value accepted.
        max: u64,
    },
    /// A comma-separated list of whole numbers, each in `min..=max`.
    Numbers {
        /// The smallest value accepted.
        min: u64,
        /// The largest value accepted.
        max: u64,
    },
    /// One of these words.
    Choice(&'static [&'static str]),
    /// A comma-separated list of these words (ASCII case ignored), each
    /// kept once, in the order given: the flags that pick what to run.
    Choices(&'static [&'static str]),
    /// A duration in sluice's one grammar, in `range`.
    Duration {
        /// The values accepted.
        range: Range,
        /// The flag's former spelling, in whole milliseconds (`hold-ms`),
        /// still read by the command line (hidden from `--help`); `None`
        /// for a flag that never had one ([`Kind::duration`]).
        old: Option<&'static str>,
    },
}

impl Kind {
    /// A duration of `min..=max` milliseconds for a flag that came with
    /// the duration grammar, so has no former spelling.
    ///
    /// ```
    /// use sluice_lab::experiment::Kind;
    /// assert!(matches!(Kind::duration(1, 1000), Kind::Duration { old: None, .. }));
    /// ```
    pub const fn duration(min: u64, max: u64) -> Kind {
        Kind::Duration {
            range: Range::new(Duration::from_millis(min), Duration::from_millis(max)),
            old: None,
        }
    }

    /// A duration of `min..=max` milliseconds whose former spelling `old`
    /// took whole milliseconds.
    pub const fn millis(min: u64, max: u64, old: &'static str) -> Kind {
        Kind::Duration {
            range: Range::new(Duration::from_millis(min), Duration::from_millis(max)),
            old: Some(old),
        }
    }

    /// The values it accepts, for `--help`: `1..=64`, `one of wait, cpu`,
    /// `1ms..=1m`.
    ///
    /// ```
    /// use sluice_lab::experiment::Kind;
    /// assert_eq!(Kind::Number { min: 1, max: 64 }.accepts(), "1..=64");
    /// assert_eq!(Kind::Choices(&["wait", "cpu"]).accepts(), "a list of wait, cpu");
    /// assert_eq!(Kind::millis(1, 60_000, "hold-ms").accepts(), "1ms..=1m");
    /// ```
    pub fn accepts(&self) -> String {
        match self {
            Kind::Number { min, max } => format!("{min}..={max}"),
            Kind::Numbers { min, max } => format!("a list of {min}..={max}"),
            Kind::Choice(words) => format!("one of {}", words.join(", ")),
            Kind::Choices(words) => format!("a list of {}", words.join(", ")),
            Kind::Duration { range, .. } => range.to_string(),
        }
    }
}

/// An experiment-specific flag: `--NAME VALUE`.
#[derive(Debug, Clone, Copy)]
pub struct ArgSpec {
    /// The flag without dashes, e.g. `hold`.
    pub name: &'static str,
    /// Placeholder in help, e.g. `N` or `DURATION`.
    pub value_name: &'static str,
    /// One line of help.
    pub help: &'static str,
    /// The default of `sluice lab NAME`.
    pub default: &'static str,
    /// The default inside `sluice lab report --full` (small, to fit its
    /// budget; the short report may take less: `ExperimentSpec::short`).
    pub report: &'static str,
    /// What its value is, and the values it accepts.
    pub kind: Kind,
}

/// One flag's value: as given (checked when it is read), or a duration
/// the command line has parsed already.
#[derive(Debug, Clone)]
enum Value {
    Text(String),
    Duration(Duration),
}

/// The values of an experiment's flags, by name; typed getters check them
/// against the flag's [`Kind`] and name the flag in their errors.
#[derive(Debug, Clone, Default)]
pub struct Args {
    specs: &'static [ArgSpec],
    values: BTreeMap<&'static str, Value>,
}

impl Args {
    /// `specs`' defaults, or their report defaults.
    pub fn defaults(specs: &'static [ArgSpec], report: bool) -> Args {
        Args {
            specs,
            values: specs
                .iter()
                .map(|s| {
                    let text = if report { s.report } else { s.default };
                    (s.name, Value::Text(text.to_string()))
                })
                .collect(),
        }
    }

    /// The declaration of flag `name`.
    pub fn spec(&self, name: &str) -> anyhow::Result<&'static ArgSpec> {
        match self.specs.iter().find(|s| s.name == name) {
            Some(s) => Ok(s),
            None => bail!("--{name} is not a flag of this experiment"),
        }
    }

    /// Sets `name` to `value` as given (checked when it is read).
    pub fn set(&mut self, name: &str, value: impl Into<String>) -> anyhow::Result<()> {
        let spec = self.spec(name)?;
        self.values.insert(spec.name, Value::Text(value.into()));
        Ok(())
    }

    /// Sets the duration flag `name` to `d`, already parsed.
    pub fn set_duration(&mut self, name: &str, d: Duration) -> anyhow::Result<()> {
        let spec = self.spec(name)?;
        if !matches!(spec.kind, Kind::Duration { .. }) {
            bail!("--{name} is not a duration flag");
        }
        self.values.insert(spec.name, Value::Duration(d));
        Ok(())
    }

    /// The value of `name` as text (a duration as the grammar writes it).
    pub fn text(&self, name: &str) -> anyhow::Result<String> {
        let spec = self.spec(name)?;
        Ok(match self.values.get(spec.name) {
            Some(Value::Text(t)) => t.clone(),
            Some(Value::Duration(d)) => sluice_duration::format(*d),
            None => spec.default.to_string(),
        })
    }

    /// Every flag as `--NAME VALUE`, in declaration order: the command
    /// that reproduces a run.
    pub fn command_line(&self) -> Vec<String> {
        self.specs
            .iter()
            .map(|s| format!("--{} {}", s.name, self.text(s.name).unwrap_or_default()))
            .collect()
    }

    /// Checks every flag's value against its kind, as the experiment will
    /// read it: a bad value is refused before anything runs.
    pub fn check(&self) -> anyhow::Result<()> {
        for s in self.specs {
            match s.kind {
                Kind::Number { .. } => self.number(s.name).map(drop)?,
                Kind::Numbers { .. } => self.numbers(s.name).map(drop)?,
                Kind::Choice(_) => self.choice(s.name).map(drop)?,
                Kind::Choices(_) => self.choices(s.name).map(drop)?,
                Kind::Duration { .. } => self.duration(s.name).map(drop)?,
            }
        }
        Ok(())
    }

    /// The text of `name` and its kind.
    fn get(&self, name: &str) -> anyhow::Result<(String, Kind)> {
        Ok((self.text(name)?, self.spec(name)?.kind))
    }

    /// `name` as one of its words.
    pub fn choice(&self, name: &str) -> anyhow::Result<&'static str> {
        let (v, kind) = self.get(name)?;
        let Kind::Choice(words) = kind else {
            bail!("--{name} is not a flag of one word");
        };
        match words.iter().find(|w| **w == v) {
            Some(w) => Ok(w),
            None => bail!("--{name} {v:?}: expected one of {}", words.join(", ")),
        }
    }

    /// `name` as a comma-separated list of its words (ASCII case ignored),
    /// in the order given, each once: the flags that pick what to run.
    pub fn choices(&self, name: &str) -> anyhow::Result<Vec<&'static str>> {
        let (v, kind) = self.get(name)?;
        let Kind::Choices(words) = kind else {
            bail!("--{name} is not a flag of a list of words");
        };
        let list = words.join(", ");
        let mut out: Vec<&'static str> = Vec::new();
        for item in v.split(',').map(str::trim) {
            if item.is_empty() {
                bail!(
                    "--{name} {v:?}: empty item; expected one of {list} (or a comma-separated list of them)"
                );
            }
            let Some(&c) = words.iter().find(|c| c.eq_ignore_ascii_case(item)) else {
                bail!(
                    "--{name} {item:?}: expected one of {list} (or a comma-separated list of them)"
                );
            };
            if !out.contains(&c) {
                out.push(c);
            }
        }
        Ok(out)
    }

    /// `name` as a whole number in its range.
    pub fn number(&self, name: &str) -> anyhow::Result<u64> {
        let (v, kind) = self.get(name)?;
        let Kind::Number { min, max } = kind else {
            bail!("--{name} is not a number flag");
        };
        parse_number(name, v.trim(), min, max)
    }

    /// `name` as a comma-separated list of whole numbers, each in its range.
    pub fn numbers(&self, name: &str) -> anyhow::Result<Vec<u64>> {
        let (v, kind) = self.get(name)?;
        let Kind::Numbers { min, max } = kind else {
            bail!("--{name} is not a flag of a list of numbers");
        };
        let items: Vec<&str> = v.split(',').map(str::trim).collect();
        if items.iter().any(|i| i.is_empty()) {
            bail!("--{name} {v:?}: empty item; expected numbers like 1,2,4");
        }
        items
            .into_iter()
            .map(|i| parse_number(name, i, min, max))
            .collect()
    }

    /// `name` as a duration in its range: sluice's one grammar, a bare
    /// number being seconds (`300ms`, `1.5s`, `2`).
    pub fn duration(&self, name: &str) -> anyhow::Result<Duration> {
        let spec = self.spec(name)?;
        let Kind::Duration { range, .. } = spec.kind else {
            bail!("--{name} is not a duration flag");
        };
        let flag = format!("--{name}");
        Ok(match self.values.get(spec.name) {
            Some(Value::Duration(d)) => range.check(&flag, *d)?,
            Some(Value::Text(t)) => range.parse(&flag, t)?,
            None => range.parse(&flag, spec.default)?,
        })
    }

    /// `name` as a duration in whole milliseconds (what the experiments'
    /// children take), in its range.
    pub fn millis(&self, name: &str) -> anyhow::Result<u64> {
        let d = self.duration(name)?;
        if d.subsec_nanos() % 1_000_000 != 0 {
            bail!(
                "--{name} {:?}: expected whole milliseconds",
                self.text(name)?
            );
        }
        // The range's maximum is a few minutes: it fits.
        Ok(u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
    }
}

fn parse_number(name: &str, v: &str, min: u64, max: u64) -> anyhow::Result<u64> {
    match v.parse::<i128>() {
        Ok(n) if n >= i128::from(min) && n <= i128::from(max) => Ok(n as u64),
        Ok(_) => bail!("--{name} {v:?} is out of range; expected {min}..={max}"),
        Err(_) => bail!("--{name} {v:?} is not a number; expected {min}..={max}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SPECS: &[ArgSpec] = &[
        ArgSpec {
            name: "n",
            value_name: "N,..",
            help: "",
            default: "1,2",
            report: "1",
            kind: Kind::Numbers { min: 1, max: 64 },
        },
        ArgSpec {
            name: "kind",
            value_name: "wait|cpu",
            help: "",
            default: "wait",
            report: "wait,cpu",
            kind: Kind::Choices(&["wait", "cpu"]),
        },
        ArgSpec {
            name: "on",
            value_name: "on|off",
            help: "",
            default: "on",
            report: "on",
            kind: Kind::Choice(&["on", "off"]),
        },
        ArgSpec {
            name: "hold",
            value_name: "DURATION",
            help: "",
            default: "50ms",
            report: "40ms",
            kind: Kind::millis(1, 60_000, "hold-ms"),
        },
    ];

    #[test]
    fn typed_getters_name_the_flag() {
        let mut a = Args::defaults(SPECS, false);
        assert_eq!(a.numbers("n").unwrap(), [1, 2]);
        a.set("n", "1,x").unwrap();
        assert_eq!(
            a.numbers("n").unwrap_err().to_string(),
            "--n \"x\" is not a number; expected 1..=64"
        );
        a.set("n", "1,0").unwrap();
        assert_eq!(
            a.numbers("n").unwrap_err().to_string(),
            "--n \"0\" is out of range; expected 1..=64"
        );
        assert!(
            a.number("n")
                .unwrap_err()
                .to_string()
                .contains("not a number flag")
        );
        a.set("on", "maybe").unwrap();
        assert_eq!(
            a.choice("on").unwrap_err().to_string(),
            "--on \"maybe\": expected one of on, off"
        );
        assert_eq!(
            a.set("nope", "1").unwrap_err().to_string(),
            "--nope is not a flag of this experiment"
        );
        assert!(a.text("nope").is_err());
        a.set("kind", "cpu, WAIT,cpu").unwrap();
        assert_eq!(a.choices("kind").unwrap(), ["cpu", "wait"]);
        for (value, refusal) in [
            (
                "wait,disk",
                "--kind \"disk\": expected one of wait, cpu (or a comma-separated list of them)",
            ),
            (
                "wait,",
                "--kind \"wait,\": empty item; expected one of wait, cpu",
            ),
        ] {
            a.set("kind", value).unwrap();
            let e = a.choices("kind").unwrap_err().to_string();
            assert!(e.starts_with(refusal), "{e}");
        }
    }

    /// Durations: sluice's one grammar, a bare number being seconds, held
    /// as a `Duration` when the command line parsed it; the flag's range
    /// is its declaration's.
    #[test]
    fn durations_read_one_grammar_in_the_declared_range() {
        let mut a = Args::defaults(SPECS, false);
        assert_eq!(a.duration("hold").unwrap(), Duration::from_millis(50));
        assert_eq!(Args::defaults(SPECS, true).millis("hold").unwrap(), 40);
        a.set("hold", "1.5s").unwrap();
        assert_eq!(a.millis("hold").unwrap(), 1500);
        a.set("hold", "2").unwrap();
        assert_eq!(a.millis("hold").unwrap(), 2000, "a bare number is seconds");
        for (value, refusal) in [
            ("2m", "--hold \"2m\" is out of range; expected 1ms..=1m"),
            ("soon", "--hold \"soon\" is not a duration"),
            ("1.5ms", "--hold \"1.5ms\": expected whole milliseconds"),
        ] {
            a.set("hold", value).unwrap();
            let e = a.millis("hold").unwrap_err().to_string();
            assert!(e.starts_with(refusal), "{e}");
        }
        a.set_duration("hold", Duration::from_millis(300)).unwrap();
        assert_eq!(a.millis("hold").unwrap(), 300);
        assert_eq!(a.text("hold").unwrap(), "300ms");
        a.set_duration("hold", Duration::from_secs(120)).unwrap();
        assert_eq!(
            a.duration("hold").unwrap_err().to_string(),
            "--hold \"2m\" is out of range; expected 1ms..=1m"
        );
        assert!(a.set_duration("n", Duration::ZERO).is_err());
        assert!(
            a.duration("n")
                .unwrap_err()
                .to_string()
                .contains("not a duration flag")
        );
        assert_eq!(
            Args::defaults(SPECS, true).command_line(),
            ["--n 1", "--kind wait,cpu", "--on on", "--hold 40ms"]
        );
    }
}
