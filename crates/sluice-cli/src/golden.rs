//! The command line's spellings, pinned: every subcommand and every
//! argument of the command tree (the internal subcommands and the hidden
//! spellings included: long flag, short flag, aliases, positionals, the
//! values a flag allows), one line each and sorted, compared with
//! `testdata/cli.txt`; and [`RENAMES`], the documented renames, each old
//! spelling still parsing to what the new one gives.
//!
//! A subcommand, flag or alias that disappears fails the test. After a
//! change that is meant (a new flag; a rename that keeps the old spelling
//! and adds a line to [`RENAMES`] and to CHANGELOG.md), write the file
//! anew with `SLUICE_BLESS=1 cargo test -p sluice-cli --bin sluice golden`
//! and read its diff before committing it.
//!
//! A unit test, not one under `tests/`: the crate is a binary, so only its
//! own tests can reach clap's `Command` (a hidden subcommand that printed
//! it would ship in the binary for the test's sake).

use super::cli;
use crate::flags::duration_of;
use clap::{Arg, ArgMatches, Command};

/// The documented renames: `(subcommand path, old flag, a value in the old
/// spelling, new flag, the same value in the new)`. Each is in CHANGELOG.md
/// ("Deprecated": the whole-millisecond spellings) and docs/cli.md.
// One rename a line: a table, not rustfmt's one field a line.
#[rustfmt::skip]
const RENAMES: &[(&str, &str, &str, &str, &str)] = &[
    ("doctor", "--lag-p99-ms", "123", "--lag-p99", "123ms"),
    ("doctor", "--queue-wait-p99-ms", "123", "--queue-wait-p99", "123ms"),
    ("serve", "--header-read-timeout-ms", "1500", "--header-read-timeout", "1.5"),
    ("serve", "--idle-timeout-ms", "7000", "--idle-timeout", "7s"),
    ("serve", "--lag-resolution-ms", "123", "--lag-resolution", "123ms"),
    ("serve", "--shutdown-timeout-ms", "2500", "--shutdown-timeout", "2.5s"),
    ("lab adaptive", "--cpu-ms", "123", "--cpu", "123ms"),
    ("lab adaptive", "--hang-ms", "400", "--hang", "400ms"),
    ("lab adaptive", "--hold-ms", "123", "--hold", "123ms"),
    ("lab adaptive", "--mixed-ms", "123", "--mixed", "123ms"),
    ("lab adaptive", "--settle-ms", "123", "--settle", "123ms"),
    ("lab app", "--duration-ms", "400", "--duration", "400ms"),
    ("lab app", "--probe-pause-ms", "123", "--probe-pause", "123ms"),
    ("lab dispatch", "--idle-ms", "123", "--idle", "123ms"),
    ("lab dns", "--hold-ms", "123", "--hold", "123ms"),
    ("lab http", "--duration-ms", "123", "--duration", "123ms"),
    ("lab http", "--ping-during-ms", "123", "--ping-during", "123ms"),
    ("lab http", "--ping-pause-ms", "123", "--ping-pause", "123ms"),
    ("lab loop-vs-pool", "--cpu-ms", "123", "--cpu", "123ms"),
    ("lab loop-vs-pool", "--loop-ms", "123", "--loop", "123ms"),
    ("lab loop-vs-pool", "--timer-ms", "123", "--timer", "123ms"),
    ("lab probe", "--blocker-ms", "123", "--blocker", "123ms"),
    ("lab scope", "--block-ms", "123", "--block", "123ms"),
    ("lab scope", "--cpu-ms", "123", "--cpu", "123ms"),
    ("lab scope", "--every-ms", "123", "--every", "123ms"),
    ("lab scope", "--profile-ms", "400", "--profile", "400ms"),
    ("lab scope", "--window-ms", "123", "--window", "123ms"),
    ("lab spawn-bill", "--hold-ms", "123", "--hold", "123ms"),
    ("lab staircase", "--cpu-ms", "123", "--cpu", "123ms"),
    ("lab staircase", "--hold-ms", "123", "--hold", "123ms"),
    ("lab starve", "--cpu-ms", "123", "--cpu", "123ms"),
    ("lab starve", "--hold-ms", "123", "--hold", "123ms"),
    ("lab workers", "--hold-ms", "123", "--hold", "123ms"),
];

/// One line per command and per argument: `PATH` for a command (and
/// `PATH alias NAME` per alias), `PATH --long -s` for a flag followed by
/// its aliases, `<VALUE>` where it takes one, `{a|b}` where clap allows
/// only those values, and `hidden` where `--help` leaves it out.
fn spellings(cmd: &Command, path: &str, out: &mut Vec<String>) {
    out.push(path.to_string());
    for alias in cmd.get_all_aliases() {
        out.push(format!("{path} alias {alias}"));
    }
    if cmd.is_hide_set() {
        out.push(format!("{path} hidden"));
    }
    for a in cmd.get_arguments() {
        out.push(format!("{path} {}", argument(a)));
    }
    for sub in cmd.get_subcommands() {
        spellings(sub, &format!("{path} {}", sub.get_name()), out);
    }
}

/// An argument's spellings, as [`spellings`] writes them.
fn argument(a: &Arg) -> String {
    let mut words = Vec::new();
    match (a.get_long(), a.get_short()) {
        (None, None) => words.push(format!("<{}>", a.get_id())),
        (long, short) => {
            words.extend(long.map(|l| format!("--{l}")));
            words.extend(short.map(|s| format!("-{s}")));
        }
    }
    let mut aliases: Vec<String> = a
        .get_all_aliases()
        .unwrap_or_default()
        .into_iter()
        .map(|l| format!("--{l}"))
        .collect();
    aliases.extend(
        a.get_all_short_aliases()
            .unwrap_or_default()
            .into_iter()
            .map(|s| format!("-{s}")),
    );
    if !aliases.is_empty() {
        words.push(format!("(aliases {})", aliases.join(" ")));
    }
    if a.is_positional() || a.get_action().takes_values() {
        let names = a
            .get_value_names()
            .map(|n| n.iter().map(|n| format!("<{n}>")).collect::<Vec<_>>())
            .unwrap_or_else(|| vec![format!("<{}>", a.get_id().as_str().to_uppercase())]);
        if !a.is_positional() {
            words.extend(names);
        }
        let allowed: Vec<String> = a
            .get_possible_values()
            .iter()
            .filter(|v| !v.is_hide_set())
            .map(|v| v.get_name().to_string())
            .collect();
        if !allowed.is_empty() {
            words.push(format!("{{{}}}", allowed.join("|")));
        }
    }
    if a.is_hide_set() {
        words.push("hidden".into());
    }
    words.join(" ")
}

#[test]
fn every_subcommand_and_flag_is_spelled_as_before() {
    let mut lines = Vec::new();
    spellings(&cli(), "sluice", &mut lines);
    lines.sort();
    let text = lines.join("\n") + "\n";
    let file = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/cli.txt");
    if std::env::var_os("SLUICE_BLESS").is_some_and(|v| v == "1") {
        std::fs::write(&file, &text).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        return;
    }
    let want = std::fs::read_to_string(&file).unwrap_or_default();
    let have: std::collections::BTreeSet<&str> = text.lines().collect();
    let gone: Vec<&str> = want.lines().filter(|l| !have.contains(l)).collect();
    assert!(
        gone.is_empty(),
        "spellings gone from the command line (keep them, or document the rename in RENAMES and CHANGELOG.md, then SLUICE_BLESS=1):\n{}",
        gone.join("\n")
    );
    let known: std::collections::BTreeSet<&str> = want.lines().collect();
    let new: Vec<&str> = text.lines().filter(|l| !known.contains(l)).collect();
    assert!(
        new.is_empty(),
        "new spellings not in testdata/cli.txt (SLUICE_BLESS=1 writes them):\n{}",
        new.join("\n")
    );
}

/// `sluice PATH ARGS`, with a value for each of the leaf's required
/// positionals, parsed; the leaf's matches.
fn parse(path: &str, args: &[&str]) -> ArgMatches {
    let mut leaf = cli();
    for word in path.split(' ') {
        leaf = leaf
            .find_subcommand(word)
            .unwrap_or_else(|| panic!("no subcommand {word} in {path}"))
            .clone();
    }
    let mut argv: Vec<&str> = vec!["sluice"];
    argv.extend(path.split(' '));
    argv.extend(args);
    for p in leaf.get_positionals().filter(|p| p.is_required_set()) {
        if p.is_last_set() {
            argv.push("--");
        }
        argv.push("1");
    }
    let mut m = cli()
        .try_get_matches_from(&argv)
        .unwrap_or_else(|e| panic!("{argv:?}: {e}"));
    for _ in path.split(' ') {
        m = m.subcommand().expect("the path's subcommand").1.clone();
    }
    m
}

#[test]
fn each_documented_rename_still_parses_to_the_same_value() {
    for &(path, old, old_value, new, new_value) in RENAMES {
        let name = new.trim_start_matches("--");
        let default = duration_of(&parse(path, &[]), name);
        let before = duration_of(&parse(path, &[old, old_value]), name);
        let after = duration_of(&parse(path, &[new, new_value]), name);
        assert_eq!(
            before, after,
            "sluice {path} {old} {old_value} vs {new} {new_value}"
        );
        assert_ne!(
            before, default,
            "sluice {path} {old}: pick a value unlike the default, so the old spelling is seen to count"
        );
    }
}

#[test]
fn every_hidden_ms_spelling_is_a_documented_rename() {
    let mut lines = Vec::new();
    spellings(&cli(), "sluice", &mut lines);
    for line in lines {
        let Some(flag) = line
            .split(' ')
            .find(|w| w.starts_with("--") && w.ends_with("-ms"))
        else {
            continue;
        };
        if !line.ends_with(" hidden") {
            continue;
        }
        let path = line
            .trim_start_matches("sluice ")
            .split(" --")
            .next()
            .unwrap_or_default();
        assert!(
            RENAMES.iter().any(|(p, o, ..)| *p == path && *o == flag),
            "{line}: add it to RENAMES (and CHANGELOG.md)"
        );
    }
}
