//! The flags every command shares, as ripgrep keeps them in one place:
//! `--json`/`--json-out`, duration flags (sluice's one grammar with the
//! flag's range, and the former whole-milliseconds spellings), and the
//! negative-number rule.

use anyhow::Context;
use clap::{Arg, ArgAction, ArgMatches, Command};
use std::path::PathBuf;
use std::time::Duration;

/// `--json`: the command's result as JSON on stdout (the same switch on
/// every command).
pub(crate) fn json_arg(help: &'static str) -> Arg {
    Arg::new("json")
        .long("json")
        .action(ArgAction::SetTrue)
        .help(help)
}

/// `--json-out FILE`: the same JSON written to FILE (the same flag on every
/// command that has `--json`; stdout keeps the text unless `--json`).
pub(crate) fn json_out_arg() -> Arg {
    Arg::new("json-out")
        .long("json-out")
        .value_name("FILE")
        .help("also write the JSON to FILE (checked before anything runs)")
}

/// `--json-out`'s path, checked writable before the command runs.
pub(crate) fn json_out(m: &ArgMatches) -> anyhow::Result<Option<PathBuf>> {
    let path = m.get_one::<String>("json-out").map(PathBuf::from);
    if let Some(p) = &path {
        sluice_lab::check_writable("--json-out", p)?;
    }
    Ok(path)
}

/// Writes `text` (one JSON document) to `path`.
pub(crate) fn write_json_out(path: &std::path::Path, text: &str) -> anyhow::Result<()> {
    std::fs::write(path, format!("{text}\n"))
        .with_context(|| format!("writing --json-out {}", path.display()))
}

/// A duration flag: sluice's one grammar (a bare number is seconds),
/// checked against the flag's `range` as clap parses it (the error names
/// the flag and the range).
pub(crate) fn duration_arg(
    name: &'static str,
    default: &'static str,
    help: &'static str,
    range: sluice_duration::Range,
) -> Arg {
    Arg::new(name)
        .long(name)
        .value_name("DURATION")
        .default_value(default)
        .value_parser(in_range(name, range))
        .help(format!("{help}, e.g. 500ms, 1.5s, 10 (seconds); {range}"))
}

/// The value parser of duration flag `--name`: [`sluice_duration::Range::parse`].
pub(crate) fn in_range(
    name: &'static str,
    range: sluice_duration::Range,
) -> impl clap::builder::TypedValueParser<Value = Duration> {
    move |text: &str| range.parse(&format!("--{name}"), text)
}

/// The old whole-milliseconds spelling of duration flag `new`, still read
/// (hidden from the help), checked against the same range.
pub(crate) fn ms_alias(old: &'static str, new: &'static str, range: sluice_duration::Range) -> Arg {
    Arg::new(old)
        .long(old)
        .value_name("MS")
        .value_parser(move |text: &str| {
            let flag = format!("--{old}");
            let Ok(ms) = text.trim().parse::<u64>() else {
                return Err(sluice_duration::FlagError::NotADuration {
                    flag,
                    error: sluice_duration::DurationError {
                        text: text.to_string(),
                        why: "expected whole milliseconds".into(),
                    },
                    range,
                });
            };
            let d = Duration::from_millis(ms);
            if range.contains(d) {
                Ok(d)
            } else {
                Err(sluice_duration::FlagError::OutOfRange {
                    flag,
                    text: text.to_string(),
                    range,
                })
            }
        })
        .conflicts_with(new)
        .hide(true)
}

/// The value of duration flag `name`, or of its `NAME-ms` spelling (both
/// range-checked as parsed).
pub(crate) fn duration_of(m: &ArgMatches, name: &str) -> Duration {
    let old = format!("{name}-ms");
    if let Ok(Some(d)) = m.try_get_one::<Duration>(&old)
        && m.value_source(&old) == Some(clap::parser::ValueSource::CommandLine)
    {
        return *d;
    }
    *m.get_one::<Duration>(name).expect("has default")
}

/// Lets every flag that takes a value take a negative number as its value,
/// so `--cpu-threads -1` is refused by the flag's own check, naming the
/// flag, rather than read as an unknown flag `-1`.
pub(crate) fn negative_values(cmd: Command) -> Command {
    cmd.mut_args(|a| {
        if a.get_action().takes_values() {
            a.allow_negative_numbers(true)
        } else {
            a
        }
    })
    .mut_subcommands(negative_values)
}
