//! `sluice scope`: its flags and the conversion to `sluice_scope`'s
//! configurations (one PID, or `--all`), and the exit code of a watch.

use crate::flags::json_out;
use clap::{Arg, ArgAction, ArgMatches, Command};
use std::process::ExitCode;
use std::time::Duration;

pub(crate) fn scope_command() -> Command {
    Command::new("scope")
        .about("Watch a running Node process's libuv pool from outside: threads, saturation, the loop, a verdict")
        .long_about("Watch a running Node process's libuv pool from outside, with no change to it. Finds the pool threads (by name on libuv >= 1.50; otherwise from libuv's symbols and the process's memory, from each thread's start routine, or the futex its idle threads wait on), samples them and the loop thread from /proc, and reports per second: pool size, busy threads, utilization, saturation (time every pool thread was busy), loop utilization (time outside epoll_pwait), libuv's queue depth, and the doctor's verdict: loop-blocked, pool-saturated, slow-io-throttled, healthy, or unknown (the pool could not be found; the reason is given, and it is never called healthy). Works on nodejs.org's builds and on distributions' (shared, stripped libuv.so.1: the pool is told by each thread's start routine). Needs the process's user or root. --all watches every Node process on the host, in containers too, and the ones that start later (--cmdline REGEX: only those whose command line matches). --probe (root) adds uprobes for queue wait and run time per libuv kind. Exit code: 0 every window diagnosed was healthy, 1 a window's verdict was a problem (with --all: any process's), 2 an error or no verdict at all (the pool never found, no window completed, with --all no Node process found; a --profile still exits 0 then). --json-out FILE writes the --json lines to FILE as well, whatever the view.")
        .arg(Arg::new("pid").value_name("PID").required_unless_present("all").help("the Node process (`pgrep -a node` lists them)"))
        .arg(Arg::new("all").long("all").action(ArgAction::SetTrue).conflicts_with_all(["pid", "probe"]).help("watch every Node process on this host, containers included, and the ones that start later: one line each, sorted by saturation (Enter opens one); with --prometheus one exposition labelled pid, comm, container, pod"))
        .arg(Arg::new("rate").long("rate").value_name("HZ").default_value("200").help("samples per second"))
        .arg(Arg::new("duration").long("duration").value_name("TIME").value_parser(sluice_scope::config::parse_duration).help(format!("stop after TIME (10, 2.5s, 500ms, 5m; {}) and print the summary [default: until Ctrl-C or the process exits]", sluice_scope::config::DURATION)))
        .arg(Arg::new("json").long("json").action(ArgAction::SetTrue).conflicts_with("prometheus").help("one JSON object per second on stdout"))
        .arg(Arg::new("json-out").long("json-out").value_name("FILE").help("also write the JSON lines (with --profile: its JSON object) to FILE, whatever the view (checked before anything runs)"))
        .arg(Arg::new("cmdline").long("cmdline").value_name("REGEX").requires("all").help("with --all: watch only the processes whose command line (arguments joined by spaces, as `ps -o args` shows it) matches REGEX, e.g. 'server\\.js'"))
        .arg(Arg::new("prometheus").long("prometheus").value_name("ADDR").help("serve Prometheus metrics at http://ADDR/metrics, e.g. 127.0.0.1:9464"))
        .arg(Arg::new("probe").long("probe").action(ArgAction::SetTrue).help("also set uprobes on libuv (root): queue wait and run time per kind"))
        .arg(Arg::new("discover").long("discover").value_name("HOW").default_value("auto").help("how to find the pool threads: auto, names, memory, start (each thread's start routine), futex"))
        .arg(Arg::new("profile").long("profile").value_name("TIME").value_parser(sluice_scope::config::parse_profile_time).conflicts_with_all(["prometheus", "duration", "probe"]).help("take one CPU profile of the main thread for TIME (5s, 500ms) through the process's own V8 inspector, opened with SIGUSR1 if closed and closed again after; report what held the loop, write the .cpuprofile and a flame graph SVG"))
        .arg(Arg::new("yes").long("yes").action(ArgAction::SetTrue).help("with --profile: open a closed inspector without asking (needed when no terminal can be asked)"))
        .arg(Arg::new("profile-out").long("profile-out").value_name("DIR").default_value(".").help("where --profile writes sluice-profile-PID-TIME.cpuprofile and .svg"))
        .arg(Arg::new("profile-interval").long("profile-interval").value_name("US").default_value("1000").help("V8's sampling interval for --profile, in µs"))
        .arg(Arg::new("profile-keep-code").long("profile-keep-code").action(ArgAction::SetTrue).help("with --profile: keep V8's optimized code (by default it is discarded as the profile starts, so that functions V8 inlined are named; kept, their time is charged to their callers)"))
        .after_long_help(SCOPE_PROFILE_HELP)
}

pub(crate) const SCOPE_PROFILE_HELP: &str = "Profiling (--profile TIME, or p in the terminal view): scope opens the process's own V8 inspector without a restart: SIGUSR1 makes Node listen on 127.0.0.1:9229, or on the address its --inspect-port / --inspect flag names (read from /proc/PID/cmdline and NODE_OPTIONS), inside the process's network namespace (a container's loopback: scope joins it to connect, which needs root when it is not its own). Over the DevTools protocol it runs V8's CPU profiler for TIME while it samples the pool and the loop as usual, then closes the inspector again (process._debugEnd()). As the profile starts, V8's optimized code is discarded (precise coverage, turned off after), so that functions V8 had inlined into their callers are named: the process runs unoptimized code until V8 optimizes it again (--profile-keep-code keeps it). Node cannot undo everything: its `Debugger listening on ws://...` and `Debugger attached.` lines stay on the process's stderr, process.debugPort keeps the port, and V8 keeps the memory it allocated. An inspector that was open before is left open. Without a terminal to ask, a closed inspector is only opened with --yes.\n\nThe report: the share of the window that was JavaScript, native (program), garbage collector and idle; the functions of your code that held the loop, Node's and V8's frames folded in, with the synchronous APIs under them (crypto.pbkdf2Sync, RegExp exec, JSON.parse from the hot line); V8's top self and total time with file:line:column; the .cpuprofile (Chrome DevTools: Performance, Load profile) and a flame graph SVG. --json prints all of it as one object.";

pub(crate) fn scope(m: &ArgMatches) -> anyhow::Result<ExitCode> {
    use sluice_scope::config::{self, Face};
    use std::io::IsTerminal;
    if m.get_flag("all") {
        return scope_all(m);
    }
    let get = |k: &str| m.get_one::<String>(k).map(String::as_str);
    let mut c = sluice_scope::ScopeConfig::new(config::parse_pid(get("pid").unwrap_or_default())?);
    c.options.rate_hz = config::parse_rate(get("rate").unwrap_or_default())?;
    c.options.strategy = config::parse_strategy(get("discover").unwrap_or_default())?;
    c.options.probe = m.get_flag("probe");
    c.duration = m.get_one::<Duration>("duration").copied();
    let (profile_time, profile) = scope_profile(m)?;
    c.profile = Some(profile);
    c.json_out = json_out(m)?;
    c.interactive = std::io::stdin().is_terminal() && std::io::stderr().is_terminal();
    c.face = match get("prometheus") {
        Some(addr) => Face::Prometheus(config::parse_listen(addr)?),
        None if m.get_flag("json") => Face::Json,
        None if profile_time.is_some() => Face::Text,
        None if std::io::stdout().is_terminal() => Face::Tui,
        None => Face::Text,
    };
    if profile_time.is_none() && c.face != Face::Tui {
        // The profile flags serve --profile and the terminal view's `p`;
        // other faces only watch.
        let given = [
            "yes",
            "profile-out",
            "profile-interval",
            "profile-keep-code",
        ]
        .into_iter()
        .find(|k| m.value_source(k) == Some(clap::parser::ValueSource::CommandLine));
        if let Some(flag) = given {
            anyhow::bail!(
                "--{flag} applies to --profile TIME or the terminal view's p; add --profile TIME"
            );
        }
        c.profile = None;
    }
    let outcome = sluice_scope::run(&c)?;
    if !outcome.left_behind.is_empty() {
        anyhow::bail!("probes left behind: {}", outcome.left_behind.join("; "));
    }
    Ok(scope_exit_code(&outcome, &c, profile_time.is_some()))
}

/// `--profile TIME` (when given) and the profile's settings, which the
/// terminal view's `p` uses too.
pub(crate) fn scope_profile(
    m: &ArgMatches,
) -> anyhow::Result<(Option<Duration>, sluice_scope::profile::ProfileConfig)> {
    use sluice_scope::config;
    let get = |k: &str| m.get_one::<String>(k).map(String::as_str);
    let profile_time = m.get_one::<Duration>("profile").copied();
    let mut p =
        sluice_scope::profile::ProfileConfig::new(profile_time.unwrap_or(Duration::from_secs(5)));
    p.yes = m.get_flag("yes");
    p.progress = true;
    p.out_dir = get("profile-out").unwrap_or(".").into();
    p.interval = config::parse_interval(get("profile-interval").unwrap_or_default())?;
    p.fresh_code = !m.get_flag("profile-keep-code");
    Ok((profile_time, p))
}

/// 1 when a window's verdict was a finding; 2 (said on stderr) when a watch
/// reached no verdict at all; else 0.
pub(crate) fn scope_exit_code(
    outcome: &sluice_scope::RunOutcome,
    c: &sluice_scope::ScopeConfig,
    profiled: bool,
) -> ExitCode {
    // A window cut short by the process exiting is not judged: its
    // threads were going away, not busy.
    let mut verdicts: Vec<_> = outcome.summary.verdicts().collect();
    if outcome.end == sluice_scope::End::Exited
        && verdicts
            .last()
            .is_some_and(|(_, s)| *s < 0.9 * c.window.as_secs_f64())
    {
        verdicts.pop();
    }
    let verdicts: Vec<_> = verdicts.into_iter().map(|(v, _)| v).collect();
    if verdicts.iter().any(|v| v.is_finding()) {
        return ExitCode::from(1);
    }
    // A profile is a result of its own; a watch with no verdict at all
    // (the pool never found, or no window completed) diagnosed nothing.
    if !profiled && !verdicts.contains(&sluice_scope::Verdict::Healthy) {
        eprintln!(
            "sluice scope: no verdict: {}",
            if verdicts.is_empty() {
                "no window completed"
            } else {
                "the pool was not found in any window (see the evidence)"
            }
        );
        return ExitCode::from(2);
    }
    ExitCode::SUCCESS
}

/// `sluice scope --all`: every Node process on the host.
pub(crate) fn scope_all(m: &ArgMatches) -> anyhow::Result<ExitCode> {
    use sluice_scope::config::{self, Face};
    use std::io::IsTerminal;
    let get = |k: &str| m.get_one::<String>(k).map(String::as_str);
    let mut c = sluice_scope::run::all::HostConfig::new();
    c.options.rate_hz = config::parse_rate(get("rate").unwrap_or_default())?;
    c.options.strategy = config::parse_strategy(get("discover").unwrap_or_default())?;
    c.duration = m.get_one::<Duration>("duration").copied();
    c.cmdline = get("cmdline")
        .map(sluice_scope::run::all::CmdlineFilter::new)
        .transpose()?;
    c.json_out = json_out(m)?;
    c.face = match get("prometheus") {
        Some(addr) => Face::Prometheus(config::parse_listen(addr)?),
        None if m.get_flag("json") => Face::Json,
        None if std::io::stdout().is_terminal() => Face::Tui,
        None => Face::Text,
    };
    let outcome = sluice_scope::run::all::run(&c)?;
    let seen = |w: &sluice_scope::run::all::Watched, v: &sluice_scope::Verdict| {
        w.verdicts.get(v.as_str()).is_some_and(|n| *n > 0)
    };
    let finding = outcome.processes.values().any(|w| {
        sluice_scope::Verdict::ALL
            .iter()
            .any(|v| v.is_finding() && seen(w, v))
    });
    if finding {
        return Ok(ExitCode::from(1));
    }
    // As for one PID: a run in which no process had a healthy window
    // diagnosed nothing.
    if !outcome
        .processes
        .values()
        .any(|w| seen(w, &sluice_scope::Verdict::Healthy))
    {
        eprintln!(
            "sluice scope --all: no verdict: {}",
            if outcome.processes.is_empty() {
                match &c.cmdline {
                    Some(f) => format!(
                        "no Node process whose command line matches --cmdline {:?} was found",
                        f.as_str()
                    ),
                    None => "no Node process was found".to_string(),
                }
            } else if outcome.processes.values().all(|w| w.windows == 0) {
                "no window completed".to_string()
            } else {
                "no process's pool was found in any window (see the evidence)".to_string()
            }
        );
        return Ok(ExitCode::from(2));
    }
    Ok(ExitCode::SUCCESS)
}
