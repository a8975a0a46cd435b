//! The `sluice` command: parse flags with clap, turn them into a validated
//! configuration, call one `sluice-lab` or `sluice-serve` function per
//! subcommand, map the result to an exit code. No experiment, server or
//! doctor logic lives here.

mod dns_delay;
mod flags;
#[cfg(test)]
mod golden;
mod lab;
mod scope;
mod serve;

use anyhow::Context;
use clap::{Arg, ArgAction, ArgMatches, Command};
use dns_delay::{DNS_DELAY_ABOUT, DNS_DELAY_LONG, delay_args, delay_flags};
use flags::negative_values;
use lab::lab;
use scope::{scope, scope_command};
use serve::{doctor, doctor_cli, load, load_cli, serve, serve_cli};
use std::ffi::OsString;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let matches = match cli().try_get_matches() {
        Ok(m) => m,
        Err(e) => return clap_error(e),
    };
    match run(matches) {
        Ok(code) => code,
        Err(err) => {
            // A closed stdout (e.g. `| head`) is not an error worth reporting.
            if err.chain().any(|c| {
                c.downcast_ref::<std::io::Error>()
                    .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
            }) {
                return ExitCode::SUCCESS;
            }
            eprintln!("sluice: {err:#}");
            ExitCode::from(2)
        }
    }
}

/// A value sluice's own parsers refused (a duration out of its flag's
/// range, a scope flag) is one `sluice: ...` line, exit code 2, like every
/// other error; clap's own errors (unknown flags, help) are clap's.
fn clap_error(e: clap::Error) -> ExitCode {
    use std::error::Error as _;
    if e.kind() == clap::error::ErrorKind::ValueValidation
        && let Some(src) = e.source()
        && (src.is::<sluice_duration::FlagError>() || src.is::<sluice_scope::ScopeError>())
    {
        eprintln!("sluice: {src}");
        return ExitCode::from(2);
    }
    e.exit()
}

/// The exit codes, the same for every command.
const EXIT_CODES: &str = "\
Exit codes, the same for every command:
  0  healthy, or done
  1  a finding: sluice doctor's or sluice scope's verdict is a problem (loop-blocked, pool-saturated, ...), or sluice load got no 2xx answer
  2  bad usage, or an error (sluice doctor and sluice scope: also no verdict could be reached)";

fn cli() -> Command {
    command_tree(true)
}

/// The command tree; `internal`: with the hidden subcommands the lab and
/// the tests run (`lab-child`, `lab-netns`), left out of the completion
/// scripts and man pages.
fn command_tree(internal: bool) -> Command {
    let lab = lab::command();
    negative_values(Command::new("sluice")
        .version(env!("CARGO_PKG_VERSION"))
        .propagate_version(true)
        .about(
            "sluice: a work pool beside the event loop, and the lab that measures it against Node",
        )
        .subcommand_required(true)
        .arg_required_else_help(true)
        .after_help(EXIT_CODES)
        .subcommand(lab)
        .subcommand(scope_command())
        .subcommand(
            Command::new("dns-delay")
                .about(DNS_DELAY_ABOUT)
                .long_about(DNS_DELAY_LONG)
                .args(delay_args(true)),
        )
        .subcommands(internal.then(|| {
            Command::new("lab-netns")
                .hide(true)
                .about("internal: run a command in a private network and mount namespace whose name server is the DNS delay server")
                .args(delay_args(false))
                .arg(Arg::new("hosts").long("hosts").value_name("FILE").help("mount FILE over /etc/hosts inside"))
                .arg(Arg::new("resolv-conf").long("resolv-conf").value_name("FILE").help("mount FILE over /etc/resolv.conf inside (it must name 127.0.0.1) instead of one naming 127.0.0.1 alone"))
                .arg(Arg::new("zone").long("zone").value_name("FILE").help("the names the delay server knows, as a hosts file; others get NXDOMAIN"))
                .arg(Arg::new("check").long("check").action(ArgAction::SetTrue).help("only check that the namespaces can be made"))
                .arg(
                    Arg::new("command")
                        .num_args(1..)
                        .last(true)
                        .value_parser(clap::value_parser!(OsString))
                        .required_unless_present("check"),
                )
        }))
        .subcommand(serve_cli())
        .subcommand(doctor_cli())
        .subcommand(load_cli())
        .subcommand(
            Command::new("completions")
                .about("Print the shell completion script for bash, zsh or fish on stdout")
                .long_about("Print the shell completion script for bash, zsh or fish on stdout, e.g.\n  sluice completions bash > /etc/bash_completion.d/sluice\n  sluice completions zsh > \"${fpath[1]}/_sluice\"\n  sluice completions fish > ~/.config/fish/completions/sluice.fish")
                .arg(
                    Arg::new("shell")
                        .required(true)
                        .value_parser(["bash", "zsh", "fish"])
                        .help("the shell"),
                ),
        )
        .subcommand(
            Command::new("man")
                .about("Print the man page sluice(1) on stdout (roff), or write one page per command")
                .arg(
                    Arg::new("dir")
                        .long("dir")
                        .value_name("DIR")
                        .value_parser(clap::value_parser!(PathBuf))
                        .help("write sluice.1 and a page per subcommand (sluice-scope.1, ...) into DIR instead"),
                ),
        )
        .subcommands(internal.then(|| {
            Command::new("lab-child")
                .hide(true)
                .about("internal: the Rust subjects' side of an experiment")
                .arg(Arg::new("subject").required(true))
                .arg(Arg::new("experiment").required(true))
                .arg(Arg::new("pool").required(true))
                .arg(Arg::new("params").required(true))
        })))
}

fn run(m: ArgMatches) -> anyhow::Result<ExitCode> {
    match m.subcommand() {
        Some(("lab", m)) => lab(m).map(|()| ExitCode::SUCCESS),
        Some(("serve", m)) => serve(m).map(|()| ExitCode::SUCCESS),
        Some(("doctor", m)) => doctor(m),
        Some(("load", m)) => load(m),
        Some(("scope", m)) => scope(m),
        Some(("completions", m)) => completions(m).map(|()| ExitCode::SUCCESS),
        Some(("man", m)) => man(m).map(|()| ExitCode::SUCCESS),
        Some(("dns-delay", m)) => {
            sluice_testnet::dns_delay::run(delay_flags(m).config()?).map(|_| ExitCode::SUCCESS)
        }
        Some(("lab-netns", m)) => {
            if m.get_flag("check") {
                return sluice_testnet::netns::check().map(|()| ExitCode::SUCCESS);
            }
            let mut command = m
                .get_many::<OsString>("command")
                .expect("required")
                .cloned();
            let run = sluice_testnet::netns::NetnsRun {
                server: delay_flags(m).config()?,
                hosts: m.get_one::<String>("hosts").map(PathBuf::from),
                resolv_conf: m.get_one::<String>("resolv-conf").map(PathBuf::from),
                program: command.next().expect("at least one value"),
                args: command.collect(),
            };
            let code = sluice_testnet::netns::run(run)?;
            std::process::exit(code);
        }
        Some(("lab-child", m)) => {
            let get = |k: &str| {
                m.get_one::<String>(k)
                    .map(String::as_str)
                    .unwrap_or_default()
            };
            sluice_lab::child_main(
                get("subject"),
                get("experiment"),
                get("pool"),
                get("params"),
            )
            .map(|()| ExitCode::SUCCESS)
        }
        _ => unreachable!("clap requires a subcommand"),
    }
}

/// `sluice completions SHELL`: clap_complete's script for the command
/// tree without its internal subcommands.
fn completions(m: &ArgMatches) -> anyhow::Result<()> {
    use clap_complete::Shell;
    let shell = match m.get_one::<String>("shell").map(String::as_str) {
        Some("bash") => Shell::Bash,
        Some("zsh") => Shell::Zsh,
        Some("fish") => Shell::Fish,
        other => unreachable!("clap allows only bash, zsh or fish, got {other:?}"),
    };
    let mut out = Vec::new();
    clap_complete::generate(shell, &mut command_tree(false), "sluice", &mut out);
    std::io::stdout()
        .lock()
        .write_all(&out)
        .context("writing the completion script")
}

/// `sluice man [--dir DIR]`: clap_mangen's roff, sluice(1) on stdout, or
/// one page per command (sluice.1, sluice-scope.1, sluice-lab-probe.1, ...)
/// written into DIR.
fn man(m: &ArgMatches) -> anyhow::Result<()> {
    let cmd = command_tree(false);
    match m.get_one::<PathBuf>("dir") {
        Some(dir) => {
            std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
            clap_mangen::generate_to(cmd, dir)
                .with_context(|| format!("writing the man pages into {}", dir.display()))?;
            eprintln!("sluice: man pages written to {}", dir.display());
            Ok(())
        }
        None => {
            let mut out = Vec::new();
            clap_mangen::Man::new(cmd)
                .render(&mut out)
                .context("rendering the man page")?;
            std::io::stdout()
                .lock()
                .write_all(&out)
                .context("writing the man page")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    /// Every duration flag of every command, the lab's experiments' included
    /// (each with the range its `ArgSpec` declares), found in clap's
    /// definition: `(the subcommand path, the flag)`.
    fn duration_flags() -> Vec<(Vec<String>, Arg, Command)> {
        fn walk(cmd: &Command, path: &mut Vec<String>, out: &mut Vec<(Vec<String>, Arg, Command)>) {
            for a in cmd.get_arguments() {
                let names: Vec<String> = a
                    .get_value_names()
                    .into_iter()
                    .flatten()
                    .map(|s| s.to_string())
                    .collect();
                let is_duration =
                    a.get_value_parser().type_id() == std::any::TypeId::of::<Duration>();
                let looks_like_one = names
                    .iter()
                    .any(|n| n == "DURATION" || n == "TIME" || n == "MS");
                assert_eq!(
                    is_duration,
                    looks_like_one,
                    "{path:?} --{}: a duration flag must parse with its range (duration_arg, in_range, ms_alias)",
                    a.get_id()
                );
                if is_duration {
                    out.push((path.clone(), a.clone(), cmd.clone()));
                }
            }
            for sub in cmd.get_subcommands() {
                path.push(sub.get_name().to_string());
                walk(sub, path, out);
                path.pop();
            }
        }
        let mut out = Vec::new();
        walk(&cli(), &mut Vec::new(), &mut out);
        out
    }

    /// The lab writes the namespaced server's `--hold` with
    /// `sluice_testnet::netns::hold_arg`; `lab-netns` must read it back
    /// exactly.
    #[test]
    fn lab_netns_reads_the_hold_the_lab_writes() {
        for hold in [
            Duration::ZERO,
            Duration::from_nanos(1),
            Duration::from_nanos(33_333_333),
            Duration::from_millis(1500),
            Duration::from_secs(3600),
        ] {
            let text = sluice_testnet::netns::hold_arg(hold);
            let m = cli()
                .try_get_matches_from(["sluice", "lab-netns", "--hold", &text, "--", "true"])
                .unwrap_or_else(|e| panic!("--hold {text:?}: {e}"));
            let (_, m) = m.subcommand().expect("lab-netns");
            assert_eq!(delay_flags(m).config().unwrap().hold, hold, "{text:?}");
        }
    }

    #[test]
    fn every_duration_flag_refuses_huge_negative_and_junk_by_name() {
        let flags = duration_flags();
        let names: Vec<String> = flags
            .iter()
            .map(|(p, a, _)| format!("{} --{}", p.join(" "), a.get_id()))
            .collect();
        // The table is the command definition; these must be in it.
        for want in [
            "serve --shutdown-timeout",
            "serve --shutdown-timeout-ms",
            "serve --idle-timeout",
            "serve --header-read-timeout",
            "serve --lag-resolution",
            "doctor --window",
            "doctor --lag-p99",
            "load --duration",
            "scope --duration",
            "scope --profile",
            "dns-delay --hold",
            "lab staircase --hold",
            "lab staircase --hold-ms",
            "lab http --ping-during",
            "lab http --duration-ms",
            "lab scope --profile",
        ] {
            assert!(names.iter().any(|n| n == want), "{want} not in {names:?}");
        }
        for (path, arg, cmd) in &flags {
            let long = arg.get_long().expect("duration flags are long flags");
            let flag = format!("--{long}");
            // A value for each of the leaf's positionals, so that an
            // accepted value parses in full.
            let mut positionals = Vec::new();
            for p in cmd.get_positionals() {
                if p.is_last_set() {
                    positionals.push("--".to_string());
                }
                positionals.push("1".to_string());
            }
            for (value, must_refuse) in [
                ("0", false),
                ("18446744073709551615s", true),
                ("18446744073709551615", true),
                ("1e30", true),
                ("-1", true),
                ("-0.5s", true),
                ("junk", true),
                ("", true),
            ] {
                let mut argv = vec!["sluice".to_string()];
                argv.extend(path.iter().cloned());
                argv.push(format!("{flag}={value}"));
                argv.extend(positionals.iter().cloned());
                match negative_values(cli()).try_get_matches_from(&argv) {
                    Err(e) if e.kind() == clap::error::ErrorKind::ValueValidation => {
                        let text = e.to_string();
                        assert!(
                            text.contains(&format!("{flag} {value:?}")) && text.contains("..="),
                            "{argv:?}: the error names neither the flag nor the range: {text}"
                        );
                    }
                    Err(e) => panic!("{argv:?}: {e}"),
                    Ok(m) => {
                        assert!(!must_refuse, "{argv:?} was accepted");
                        let mut m = &m;
                        for p in path {
                            m = m.subcommand_matches(p).expect("the path");
                        }
                        let d = *m.get_one::<Duration>(arg.get_id().as_str()).expect("given");
                        // Accepted means safe to add to a clock.
                        assert!(std::time::Instant::now().checked_add(d).is_some());
                    }
                }
            }
        }
    }
}
