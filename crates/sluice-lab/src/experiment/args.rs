//! An experiment's flags as data: [`ArgSpec`] declares one, [`Args`] holds
//! their values as text and its typed getters validate them, naming the
//! flag in every error.

use anyhow::bail;
use std::collections::BTreeMap;

/// An experiment-specific flag: `--NAME VALUE`.
#[derive(Debug, Clone, Copy)]
pub struct ArgSpec {
    /// The flag without dashes, e.g. `hold-ms`.
    pub name: &'static str,
    /// Placeholder in help, e.g. `MS`.
    pub value_name: &'static str,
    /// One line of help.
    pub help: &'static str,
    /// The default of `sluice lab NAME`.
    pub default: &'static str,
    /// The default inside `sluice lab report` (small, to fit its budget).
    pub report: &'static str,
}

/// The values of an experiment's flags, by name, as text; typed getters
/// validate and name the flag in their errors.
#[derive(Debug, Clone, Default)]
pub struct Args {
    values: BTreeMap<String, String>,
    /// The flag a value came from when it is not `--NAME` itself (a
    /// duration flag `--hold` feeding `hold-ms`): errors name it.
    given_as: BTreeMap<String, String>,
}

impl Args {
    /// `specs`' defaults, or their report defaults.
    pub fn defaults(specs: &[ArgSpec], report: bool) -> Args {
        Args {
            values: specs
                .iter()
                .map(|s| {
                    (
                        s.name.to_string(),
                        if report { s.report } else { s.default }.to_string(),
                    )
                })
                .collect(),
            given_as: BTreeMap::new(),
        }
    }

    /// Sets `name` to `value`.
    pub fn set(&mut self, name: &str, value: impl Into<String>) {
        self.values.insert(name.to_string(), value.into());
    }

    /// Sets `name` to `value`, given on the command line as `--FLAG`
    /// (errors about the value name `--FLAG`).
    pub fn set_given_as(&mut self, name: &str, value: impl Into<String>, flag: &str) {
        self.set(name, value);
        self.given_as.insert(name.to_string(), flag.to_string());
    }

    /// The flag `name`'s value was given as (`name` itself unless
    /// [`Args::set_given_as`] said otherwise).
    pub(crate) fn flag<'a>(&'a self, name: &'a str) -> &'a str {
        self.given_as.get(name).map_or(name, String::as_str)
    }

    /// The raw text of `name`.
    pub fn text(&self, name: &str) -> anyhow::Result<&str> {
        match self.values.get(name) {
            Some(v) => Ok(v),
            None => bail!("--{name} is not a flag of this experiment"),
        }
    }

    /// `name` as one of `choices`.
    pub fn choice(&self, name: &str, choices: &[&str]) -> anyhow::Result<String> {
        let v = self.text(name)?;
        if choices.contains(&v) {
            Ok(v.to_string())
        } else {
            bail!("--{name} {v:?}: expected one of {}", choices.join(", "))
        }
    }

    /// `name` as a comma-separated list of `choices` (ASCII case ignored),
    /// in the order given, each once: the flags that pick what to run.
    pub fn choices(
        &self,
        name: &str,
        choices: &[&'static str],
    ) -> anyhow::Result<Vec<&'static str>> {
        let v = self.text(name)?;
        let mut out: Vec<&'static str> = Vec::new();
        for item in v.split(',').map(str::trim) {
            let list = choices.join(", ");
            if item.is_empty() {
                bail!(
                    "--{name} {v:?}: empty item; expected one of {list} (or a comma-separated list of them)"
                );
            }
            let Some(&c) = choices.iter().find(|c| c.eq_ignore_ascii_case(item)) else {
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

    /// `name` as a whole number in `min..=max`.
    pub fn number(&self, name: &str, min: u64, max: u64) -> anyhow::Result<u64> {
        let v = self.text(name)?;
        parse_number(name, v.trim(), min, max)
    }

    /// `name` as a duration in whole milliseconds, in `min..=max` ms: a
    /// bare number is milliseconds (the flag's unit), anything else is read
    /// with humantime's grammar (`1.5s`, `300ms`, `2m`), the same as
    /// `sluice scope --duration`.
    pub fn millis(&self, name: &str, min: u64, max: u64) -> anyhow::Result<u64> {
        let v = self.text(name)?.trim();
        let name = self.flag(name);
        if v.bytes().all(|b| b.is_ascii_digit() || b == b'-') {
            return parse_number(name, v, min, max);
        }
        let d = match humantime::parse_duration(v) {
            Ok(d) => d,
            Err(e) => bail!(
                "--{name} {v:?} is not a duration ({e}); expected milliseconds like 300 or a time like 1.5s"
            ),
        };
        if d.subsec_nanos() % 1_000_000 != 0 {
            bail!("--{name} {v:?}: expected whole milliseconds");
        }
        match u64::try_from(d.as_millis()) {
            Ok(ms) if (min..=max).contains(&ms) => Ok(ms),
            _ => bail!("--{name} {v:?} is out of range; expected {min}..={max} ms"),
        }
    }

    /// `name` as a comma-separated list of whole numbers in `min..=max`.
    pub fn numbers(&self, name: &str, min: u64, max: u64) -> anyhow::Result<Vec<u64>> {
        let v = self.text(name)?;
        let items: Vec<&str> = v.split(',').map(str::trim).collect();
        if items.iter().any(|i| i.is_empty()) {
            bail!("--{name} {v:?}: empty item; expected numbers like 1,2,4");
        }
        items
            .into_iter()
            .map(|i| parse_number(name, i, min, max))
            .collect()
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

    #[test]
    fn typed_getters_name_the_flag() {
        let mut a = Args::default();
        a.set("n", "1,x");
        assert_eq!(
            a.numbers("n", 1, 64).unwrap_err().to_string(),
            "--n \"x\" is not a number; expected 1..=64"
        );
        a.set("n", "1,0");
        assert_eq!(
            a.numbers("n", 1, 64).unwrap_err().to_string(),
            "--n \"0\" is out of range; expected 1..=64"
        );
        a.set("kind", "disk");
        assert_eq!(
            a.choice("kind", &["wait", "cpu"]).unwrap_err().to_string(),
            "--kind \"disk\": expected one of wait, cpu"
        );
        assert!(a.text("nope").is_err());
        a.set("kind", "cpu, WAIT,cpu");
        assert_eq!(
            a.choices("kind", &["wait", "cpu"]).unwrap(),
            ["cpu", "wait"]
        );
        a.set("kind", "wait,disk");
        assert_eq!(
            a.choices("kind", &["wait", "cpu"]).unwrap_err().to_string(),
            "--kind \"disk\": expected one of wait, cpu (or a comma-separated list of them)"
        );
        a.set("kind", "wait,");
        assert!(
            a.choices("kind", &["wait", "cpu"])
                .unwrap_err()
                .to_string()
                .starts_with("--kind \"wait,\": empty item; expected one of wait, cpu")
        );
        a.set("hold-ms", "1.5s");
        assert_eq!(a.millis("hold-ms", 1, 60_000).unwrap(), 1500);
        a.set("hold-ms", "300");
        assert_eq!(a.millis("hold-ms", 1, 60_000).unwrap(), 300);
        a.set("hold-ms", "250ms");
        assert_eq!(a.millis("hold-ms", 1, 60_000).unwrap(), 250);
        a.set("hold-ms", "2m");
        assert_eq!(
            a.millis("hold-ms", 1, 60_000).unwrap_err().to_string(),
            "--hold-ms \"2m\" is out of range; expected 1..=60000 ms"
        );
        a.set("hold-ms", "soon");
        assert!(
            a.millis("hold-ms", 1, 60_000)
                .unwrap_err()
                .to_string()
                .starts_with("--hold-ms \"soon\" is not a duration")
        );
        a.set("hold-ms", "1.5ms");
        assert!(a.millis("hold-ms", 1, 60_000).is_err());
        a.set_given_as("hold-ms", "120000ms", "hold");
        assert_eq!(
            a.millis("hold-ms", 1, 60_000).unwrap_err().to_string(),
            "--hold \"120000ms\" is out of range; expected 1..=60000 ms"
        );
    }
}
