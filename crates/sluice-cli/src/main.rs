//! The `sluice` command: parse flags with clap, turn them into a validated
//! configuration, call one `sluice-lab` or `sluice-serve` function per
//! subcommand, map the result to an exit code. No experiment, server or
//! doctor logic lives here.

use anyhow::Context;
use clap::{Arg, ArgAction, ArgMatches, Command};
use sluice_lab::experiment::Scale;
use sluice_lab::{EXPERIMENTS, Kind, LabConfig, Outputs, PoolSize};
use sluice_testnet::dns_delay::DelayFlags;
use std::ffi::OsString;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

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

fn common_args() -> Vec<Arg> {
    vec![
        Arg::new("subjects")
            .long("subjects")
            .value_name("LIST")
            .help("subjects to run, comma-separated: node, sluice-compat, sluice, tokio, go; also libuv-ffi (dispatch) and node+sluice (node with the sluice npm package preloaded; in `lab report` by default) [default: all available]"),
        Arg::new("pools")
            .long("pools")
            .value_name("LIST")
            .help("pool sizes, comma-separated; \"unset\" leaves each subject at its default [default: per experiment]"),
        Arg::new("reps")
            .long("reps")
            .value_name("N")
            .default_value("1")
            .help("repetitions; tables show the median"),
        Arg::new("node").long("node").value_name("PATH").action(ArgAction::Append).help("the node binary [default: node on PATH]; `lab scope` takes it again and again to compare node builds in one table, and so does `lab report` (its other experiments run the first)"),
        Arg::new("go").long("go").value_name("PATH").help("the go command that builds the go subject's programs [default: the newest of go on PATH and /usr/lib/go-*/bin/go]"),
        Arg::new("no-progress").long("no-progress").action(ArgAction::SetTrue).help("no progress bar on stderr"),
    ]
}

/// The exit codes, the same for every command.
const EXIT_CODES: &str = "\
Exit codes, the same for every command:
  0  healthy, or done
  1  a finding: sluice doctor's or sluice scope's verdict is a problem (loop-blocked, pool-saturated, ...), or sluice load got no 2xx answer
  2  bad usage, or an error (sluice doctor and sluice scope: also no verdict could be reached)";

const DNS_DELAY_ABOUT: &str =
    "A DNS server that holds every query a fixed time and counts the names in flight";

const DNS_DELAY_LONG: &str = "\
A real DNS server (UDP and TCP) that holds every query a fixed time before \
answering it, and counts how many distinct names are in flight at once: \
resolver-side evidence of how many lookups a client really runs in parallel.

A queries are answered with the IPv4 --answer, AAAA queries with the IPv6 \
one (or an empty answer), with TTL --ttl, after --hold (a bare number is \
seconds: 2, 300ms, 1.5s). Names matching a \
--fast pattern are answered at once and not counted in flight. Anything that \
is not one well-formed query is counted (malformed_total) and dropped; \
nothing a client sends stops the server. It listens on loopback unless told \
otherwise.

The counts, as JSON: printed as one line on stdout when the server stops \
(Ctrl-C or SIGTERM); written to --stats FILE when they change (at most \
every 100 ms, atomically) and on exit; and answered at any time to a \
control query, one key=value TXT record per count:

    dig @127.0.0.1 -p 5353 +short TXT _stats.dns-delay
    dig @127.0.0.1 -p 5353 +short TXT _reset.dns-delay   (starts the maxima over)

Counts: queries_total (held queries, retransmissions included), \
retransmits_total, answered_total, fast_total, control_total, \
malformed_total, udp_total, tcp_total, names_total (distinct names held), \
in_flight_names, max_in_flight_names, in_flight_queries, \
max_in_flight_queries; plus listen and hold_ms.

Example:

    sluice dns-delay --listen 127.0.0.1:5353 --hold 300ms --answer 127.0.0.2 --ttl 0 --fast '*.fast.test' --stats dns.json
    dig @127.0.0.1 -p 5353 +short A n1.lab.test     # 127.0.0.2, 300 ms later";

/// `--hold`'s range (dns-delay and the namespaced server): 0 to 1 h.
const DELAY_HOLD: sluice_duration::Range =
    sluice_duration::Range::new(Duration::ZERO, Duration::from_secs(3600));

/// The delay server's flags; `listen` only for `dns-delay` itself (the
/// namespaced server always listens on 127.0.0.1:53).
fn delay_args(listen: bool) -> Vec<Arg> {
    let mut args = Vec::new();
    if listen {
        args.push(
            Arg::new("listen")
                .long("listen")
                .value_name("ADDR:PORT")
                .default_value("127.0.0.1:5353")
                .help("where to listen, UDP and TCP (port 0: any free port, printed on stderr)"),
        );
    }
    args.extend([
        duration_arg(
            "hold",
            "300ms",
            "how long every query is held before its answer",
            DELAY_HOLD,
        ),
        Arg::new("answer")
            .long("answer")
            .value_name("IP")
            .action(ArgAction::Append)
            .help("the address A (IPv4) or AAAA (IPv6) queries get; at most one per family [default: 127.0.0.2]"),
        Arg::new("ttl")
            .long("ttl")
            .value_name("SECONDS")
            .default_value("0")
            .help("the TTL of the answers (0: clients must not cache them)"),
        Arg::new("fast")
            .long("fast")
            .value_name("PATTERN")
            .action(ArgAction::Append)
            .help("answer these names at once, uncounted: a name, or *.suffix for every name under it (repeatable)"),
        Arg::new("stats")
            .long("stats")
            .value_name("FILE")
            .help("keep the counts in FILE as JSON (rewritten when they change, and on exit)"),
    ]);
    if listen {
        args.push(
            Arg::new("no-tcp")
                .long("no-tcp")
                .action(ArgAction::SetTrue)
                .help("listen on UDP only"),
        );
    }
    args
}

fn delay_flags(m: &ArgMatches) -> DelayFlags {
    let text = |k: &str| m.get_one::<String>(k).cloned().unwrap_or_default();
    let many = |k: &str| {
        m.get_many::<String>(k)
            .map(|v| v.cloned().collect())
            .unwrap_or_default()
    };
    DelayFlags {
        listen: m
            .try_get_one::<String>("listen")
            .ok()
            .flatten()
            .cloned()
            .unwrap_or_else(|| "127.0.0.1:53".into()),
        // Checked against DELAY_HOLD as parsed; the server reads the text.
        hold: sluice_duration::format(duration_of(m, "hold")),
        answers: many("answer"),
        ttl: text("ttl"),
        fast: many("fast"),
        no_tcp: m
            .try_get_one::<bool>("no-tcp")
            .ok()
            .flatten()
            .copied()
            .unwrap_or(false),
        stats: m.get_one::<String>("stats").map(PathBuf::from),
        zone: m
            .try_get_one::<String>("zone")
            .ok()
            .flatten()
            .map(PathBuf::from),
    }
}

fn cli() -> Command {
    command_tree(true)
}

/// The command tree; `internal`: with the hidden subcommands the lab and
/// the tests run (`lab-child`, `lab-netns`), left out of the completion
/// scripts and man pages.
fn command_tree(internal: bool) -> Command {
    let mut lab = Command::new("lab")
        .about("Run the experiments side by side: node, sluice-compat (libuv policy), sluice (lanes), tokio, go")
        .subcommand_required(true)
        .arg_required_else_help(true)
        .subcommand(
            Command::new("list")
                .about("List the experiments")
                .arg(json_arg("the experiments as JSON on stdout: [{name, about}]"))
                .arg(json_out_arg()),
        )
        .subcommand(
            Command::new("report")
                .about("Run every experiment: the cells that show each seed's claim (--full: every cell); write lab-report/REPORT.md, one SVG and one JSON file per experiment")
                .args(common_args())
                .arg(Arg::new("full").long("full").action(ArgAction::SetTrue).help("run every cell of every experiment at the full report's values (several times longer) instead of the cells that show each seed's claim"))
                .arg(Arg::new("out").long("out").value_name("DIR").default_value("lab-report").help("where to write the report"))
                .arg(json_arg("what was written, as JSON on stdout: the report, each experiment's JSON and SVG files, the experiments that failed"))
                .arg(json_out_arg()),
        );
    for e in EXPERIMENTS {
        let mut cmd = Command::new(e.name)
            .about(e.about())
            .long_about(e.long_about())
            .args(common_args())
            .arg(json_arg(
                "the outcome (rows, notes, settings) as JSON on stdout; the table goes to stderr",
            ))
            .arg(json_out_arg())
            .arg(
                Arg::new("svg")
                    .long("svg")
                    .value_name("FILE")
                    .help("also draw the chart as SVG"),
            );
        for a in e.args {
            cmd = match a.kind {
                // A duration: sluice's one grammar, checked against the
                // flag's range as clap parses it; the former
                // whole-milliseconds spelling still read.
                Kind::Duration { range, old } => cmd
                    .arg(duration_arg(a.name, a.default, a.help, range))
                    .arg(ms_alias(old, a.name, range)),
                kind => cmd.arg(
                    Arg::new(a.name)
                        .long(a.name)
                        .value_name(a.value_name)
                        .default_value(a.default)
                        .help(format!("{} ({})", a.help, kind.accepts())),
                ),
            };
        }
        lab = lab.subcommand(cmd);
    }
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

/// Lets every flag that takes a value take a negative number as its value,
/// so `--cpu-threads -1` is refused by the flag's own check, naming the
/// flag, rather than read as an unknown flag `-1`.
fn negative_values(cmd: Command) -> Command {
    cmd.mut_args(|a| {
        if a.get_action().takes_values() {
            a.allow_negative_numbers(true)
        } else {
            a
        }
    })
    .mut_subcommands(negative_values)
}

fn scope_command() -> Command {
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

const SCOPE_PROFILE_HELP: &str = "Profiling (--profile TIME, or p in the terminal view): scope opens the process's own V8 inspector without a restart: SIGUSR1 makes Node listen on 127.0.0.1:9229, or on the address its --inspect-port / --inspect flag names (read from /proc/PID/cmdline and NODE_OPTIONS), inside the process's network namespace (a container's loopback: scope joins it to connect, which needs root when it is not its own). Over the DevTools protocol it runs V8's CPU profiler for TIME while it samples the pool and the loop as usual, then closes the inspector again (process._debugEnd()). As the profile starts, V8's optimized code is discarded (precise coverage, turned off after), so that functions V8 had inlined into their callers are named: the process runs unoptimized code until V8 optimizes it again (--profile-keep-code keeps it). Node cannot undo everything: its `Debugger listening on ws://...` and `Debugger attached.` lines stay on the process's stderr, process.debugPort keeps the port, and V8 keeps the memory it allocated. An inspector that was open before is left open. Without a terminal to ask, a closed inspector is only opened with --yes.\n\nThe report: the share of the window that was JavaScript, native (program), garbage collector and idle; the functions of your code that held the loop, Node's and V8's frames folded in, with the synchronous APIs under them (crypto.pbkdf2Sync, RegExp exec, JSON.parse from the hot line); V8's top self and total time with file:line:column; the .cpuprofile (Chrome DevTools: Performance, Load profile) and a flame graph SVG. --json prints all of it as one object.";

fn scope(m: &ArgMatches) -> anyhow::Result<ExitCode> {
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
fn scope_profile(
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
fn scope_exit_code(
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
fn scope_all(m: &ArgMatches) -> anyhow::Result<ExitCode> {
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

fn lab(m: &ArgMatches) -> anyhow::Result<()> {
    match m.subcommand() {
        Some(("list", m)) => {
            let out = json_out(m)?;
            let list: Vec<serde_json::Value> = sluice_lab::list()
                .into_iter()
                .map(|(name, about)| serde_json::json!({ "name": name, "about": about }))
                .collect();
            let text = serde_json::to_string_pretty(&list)?;
            if m.get_flag("json") {
                println!("{text}");
            } else {
                for (name, about) in sluice_lab::list() {
                    println!("{name:<14} {about}");
                }
            }
            if let Some(path) = out {
                write_json_out(&path, &text)?;
            }
            Ok(())
        }
        Some(("report", m)) => {
            let json_file = json_out(m)?;
            let mut config = lab_config(m)?;
            config.tables_on_stderr = m.get_flag("json");
            config.full = m.get_flag("full");
            let out = PathBuf::from(m.get_one::<String>("out").expect("has default"));
            let summary = sluice_lab::run_report(config, &out)?;
            let line = format!(
                "\nwrote {} and {} charts",
                summary.markdown.display(),
                summary.svgs.len()
            );
            let doc = serde_json::to_string_pretty(&serde_json::json!({
                "report": summary.markdown,
                "json": summary.json,
                "svg": summary.svgs,
                "failed": summary.failed.iter()
                    .map(|(n, e)| serde_json::json!({ "experiment": n, "error": e }))
                    .collect::<Vec<_>>(),
            }))?;
            if m.get_flag("json") {
                eprintln!("{line}");
                println!("{doc}");
            } else {
                println!("{line}");
            }
            if let Some(path) = json_file {
                write_json_out(&path, &doc)?;
            }
            if !summary.failed.is_empty() {
                anyhow::bail!(
                    "{} experiment(s) failed: {}",
                    summary.failed.len(),
                    summary
                        .failed
                        .iter()
                        .map(|(n, e)| format!("{n}: {e}"))
                        .collect::<Vec<_>>()
                        .join("; ")
                );
            }
            Ok(())
        }
        Some((name, m)) => {
            let exp =
                sluice_lab::experiment::by_name(name).expect("subcommands come from the registry");
            let mut args = exp.default_args(Scale::Command)?;
            for a in exp.args {
                match a.kind {
                    // Parsed and range-checked by clap: handed over as a
                    // Duration, never as text to read again.
                    Kind::Duration { .. } => args.set_duration(a.name, duration_of(m, a.name))?,
                    _ => {
                        if let Some(v) = m.get_one::<String>(a.name) {
                            args.set(a.name, v.clone())?;
                        }
                    }
                }
            }
            let outputs = Outputs {
                json_stdout: m.get_flag("json"),
                json: m.get_one::<String>("json-out").map(PathBuf::from),
                svg: m.get_one::<String>("svg").map(PathBuf::from),
            };
            sluice_lab::run_experiment(name, lab_config(m)?, &args, &outputs).map(drop)
        }
        None => unreachable!("clap requires a subcommand"),
    }
}

fn lab_config(m: &ArgMatches) -> anyhow::Result<LabConfig> {
    let exe = std::env::current_exe().context("locating the sluice binary")?;
    let mut c = LabConfig::new(exe);
    let mut nodes = m
        .get_many::<String>("node")
        .into_iter()
        .flatten()
        .map(PathBuf::from);
    c.node = nodes.next();
    c.more_nodes = nodes.collect();
    c.go = m.get_one::<String>("go").map(PathBuf::from);
    c.subjects = m.get_one::<String>("subjects").map(|s| {
        s.split(',')
            .map(|x| x.trim().to_string())
            .filter(|x| !x.is_empty())
            .collect()
    });
    if let Some(p) = m.get_one::<String>("pools") {
        c.pools = Some(PoolSize::parse_list(p).map_err(anyhow::Error::msg)?);
    }
    let reps = m.get_one::<String>("reps").expect("has default");
    c.reps = reps
        .trim()
        .parse()
        .ok()
        .filter(|r| (1..=100).contains(r))
        .with_context(|| format!("--reps {reps:?}: expected a whole number in 1..=100"))?;
    c.progress = !m.get_flag("no-progress");
    Ok(c)
}

fn serve_cli() -> Command {
    use sluice_serve::config as serve_config;
    let n = |name: &'static str, help: &'static str| {
        Arg::new(name)
            .long(name)
            .value_name("N")
            .value_parser(clap::value_parser!(usize))
            .help(help)
    };
    Command::new("serve")
        .about("Serve /ping, /login (pbkdf2), /gzip, /file and /metrics on one event loop, with the work on sluice's lanes")
        .long_about("Serve the demo service: /ping (nothing), /login (pbkdf2 100000 sha256 64 bytes on the Cpu lane), /gzip (256 KiB on the Cpu lane), /file (a 4 KiB read on FastIo), /metrics (Prometheus: the lanes and the event loop's lag). Past --cpu-queue queued Cpu tasks, /login and /gzip answer 429 at once instead of queueing. SIGTERM or Ctrl-C: stop accepting, answer every request in flight, then shut the pool down. Lane sizes also come from SLUICE_CPU_THREADS, SLUICE_FASTIO_THREADS, SLUICE_SLOWIO_THREADS, and the Cpu threads' nice value from SLUICE_CPU_NICE; flags win.")
        .arg(Arg::new("listen").long("listen").value_name("IP:PORT").default_value(sluice_serve::config::DEFAULT_LISTEN).help("address to listen on (port 0: any free port, printed at start)"))
        .arg(n("cpu-threads", "the Cpu lane's threads [default: the usable cores]"))
        .arg(n("fastio-threads", "the FastIo lane's threads [default: max(4, cores)]"))
        .arg(n("slowio-threads", "the SlowIo lane's threads [default: 64]"))
        .arg(n("cpu-queue", "Cpu tasks that may wait; past it /login and /gzip answer 429 [default: 64]"))
        .arg(Arg::new("cpu-nice").long("cpu-nice").value_name("N").value_parser(clap::value_parser!(u8)).help("nice value of the Cpu lane's threads, 0..=19 [default: 10, or SLUICE_CPU_NICE]; above 0 they yield a core to the event loop at once"))
        .arg(Arg::new("login-iterations").long("login-iterations").value_name("N").value_parser(clap::value_parser!(u32)).default_value("100000").help("pbkdf2 iterations per /login"))
        .arg(Arg::new("file").long("file").value_name("PATH").help("the file /file reads [default: a 4 KiB file written in a temporary directory]"))
        .arg(duration_arg("lag-resolution", "10ms", "the loop-lag monitor's timer period (a bare number is seconds)", serve_config::LAG_RESOLUTION))
        .arg(ms_alias("lag-resolution-ms", "lag-resolution", serve_config::LAG_RESOLUTION))
        .arg(duration_arg("shutdown-timeout", "30s", "how long shutdown may take in all: answering the requests in flight, then draining the pool; connections still open then are dropped", serve_config::SHUTDOWN_TIMEOUT))
        .arg(ms_alias("shutdown-timeout-ms", "shutdown-timeout", serve_config::SHUTDOWN_TIMEOUT))
        .arg(duration_arg("header-read-timeout", "10s", "a request's headers must arrive within this, from when the connection waits for them; slower clients are closed", serve_config::HEADER_READ_TIMEOUT))
        .arg(ms_alias("header-read-timeout-ms", "header-read-timeout", serve_config::HEADER_READ_TIMEOUT))
        .arg(duration_arg("idle-timeout", "5s", "a keep-alive connection with no request for this long is closed", serve_config::IDLE_TIMEOUT))
        .arg(ms_alias("idle-timeout-ms", "idle-timeout", serve_config::IDLE_TIMEOUT))
        .arg(n("max-connections", "connections open at once; at the cap a new one closes the longest-idle one, and is refused only while every connection is answering [default: the open-file limit less 64, at most 10000]"))
        .arg(Arg::new("libuv").long("libuv").action(ArgAction::SetTrue).help("serve on sluice's libuv policy instead of the lanes: one queue, UV_THREADPOOL_SIZE threads, no admission (for comparisons)"))
        .arg(Arg::new("diagnostic-routes").long("diagnostic-routes").action(ArgAction::SetTrue).help("also serve /block?ms=N (sync work on the loop), /hold (keep a Cpu thread until /release) and /release"))
}

fn serve(m: &ArgMatches) -> anyhow::Result<()> {
    let config = sluice_serve::ServeConfig {
        listen: m.get_one::<String>("listen").expect("has default").clone(),
        cpu_threads: m.get_one::<usize>("cpu-threads").copied(),
        fastio_threads: m.get_one::<usize>("fastio-threads").copied(),
        slowio_threads: m.get_one::<usize>("slowio-threads").copied(),
        cpu_queue: m.get_one::<usize>("cpu-queue").copied(),
        cpu_nice: m.get_one::<u8>("cpu-nice").copied(),
        libuv: m.get_flag("libuv"),
        login_iterations: *m.get_one::<u32>("login-iterations").expect("has default"),
        file: m.get_one::<String>("file").map(PathBuf::from),
        lag_resolution: duration_of(m, "lag-resolution"),
        diagnostic_routes: m.get_flag("diagnostic-routes"),
        shutdown_timeout: duration_of(m, "shutdown-timeout"),
        header_read_timeout: duration_of(m, "header-read-timeout"),
        idle_timeout: duration_of(m, "idle-timeout"),
        max_connections: m.get_one::<usize>("max-connections").copied(),
    };
    sluice_serve::server::run(&config).map(drop)
}

/// `--json`: the command's result as JSON on stdout (the same switch on
/// every command).
fn json_arg(help: &'static str) -> Arg {
    Arg::new("json")
        .long("json")
        .action(ArgAction::SetTrue)
        .help(help)
}

/// `--json-out FILE`: the same JSON written to FILE (the same flag on every
/// command that has `--json`; stdout keeps the text unless `--json`).
fn json_out_arg() -> Arg {
    Arg::new("json-out")
        .long("json-out")
        .value_name("FILE")
        .help("also write the JSON to FILE (checked before anything runs)")
}

/// `--json-out`'s path, checked writable before the command runs.
fn json_out(m: &ArgMatches) -> anyhow::Result<Option<PathBuf>> {
    let path = m.get_one::<String>("json-out").map(PathBuf::from);
    if let Some(p) = &path {
        sluice_lab::check_writable("--json-out", p)?;
    }
    Ok(path)
}

/// Writes `text` (one JSON document) to `path`.
fn write_json_out(path: &std::path::Path, text: &str) -> anyhow::Result<()> {
    std::fs::write(path, format!("{text}\n"))
        .with_context(|| format!("writing --json-out {}", path.display()))
}

/// A duration flag: sluice's one grammar (a bare number is seconds),
/// checked against the flag's `range` as clap parses it (the error names
/// the flag and the range).
fn duration_arg(
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
fn in_range(
    name: &'static str,
    range: sluice_duration::Range,
) -> impl clap::builder::TypedValueParser<Value = Duration> {
    move |text: &str| range.parse(&format!("--{name}"), text)
}

/// The old whole-milliseconds spelling of duration flag `new`, still read
/// (hidden from the help), checked against the same range.
fn ms_alias(old: &'static str, new: &'static str, range: sluice_duration::Range) -> Arg {
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
fn duration_of(m: &ArgMatches, name: &str) -> Duration {
    let old = format!("{name}-ms");
    if let Ok(Some(d)) = m.try_get_one::<Duration>(&old)
        && m.value_source(&old) == Some(clap::parser::ValueSource::CommandLine)
    {
        return *d;
    }
    *m.get_one::<Duration>(name).expect("has default")
}

fn doctor_cli() -> Command {
    Command::new("doctor")
        .about("Read a running service's /metrics over a window: healthy, loop-blocked, pool-saturated (with its lane), with the numbers")
        .long_about("Fetch the service's Prometheus metrics at the start and the end of the window and diagnose the window: loop-blocked (synchronous work on the loop: its timers fire late), pool-saturated with the lane named (its queue waits while the loop is on time), pool-compensating (a lane keeps up only with threads beyond its budget), or healthy, with the numbers that prove it. The verdict tokens are those of sluice scope and of the sluice_verdict series of sluice serve's /metrics. Exit code: 0 healthy, 1 a problem found, 2 the doctor could not diagnose (unreachable URL, not a sluice service's metrics, bad flags). Only servers on this machine are reached (127.0.0.0/8, [::1], localhost).")
        .arg(Arg::new("url").long("url").value_name("URL").default_value("http://127.0.0.1:8080/metrics").help("the service's metrics"))
        .arg(duration_arg("window", "10s", "time between the two samples", sluice_serve::doctor::WINDOW))
        .arg(json_arg("print the diagnosis as JSON on stdout"))
        .arg(json_out_arg())
        .arg(duration_arg("lag-p99", "20ms", "loop lag p99 at or above this is a blocked loop", sluice_serve::doctor::P99_THRESHOLD))
        .arg(ms_alias("lag-p99-ms", "lag-p99", sluice_serve::doctor::P99_THRESHOLD))
        .arg(duration_arg("queue-wait-p99", "10ms", "a lane whose queue wait p99 is at or above this is saturated", sluice_serve::doctor::P99_THRESHOLD))
        .arg(ms_alias("queue-wait-p99-ms", "queue-wait-p99", sluice_serve::doctor::P99_THRESHOLD))
}

fn doctor(m: &ArgMatches) -> anyhow::Result<ExitCode> {
    let window = duration_of(m, "window");
    let mut config = sluice_serve::doctor::DoctorConfig::new(
        m.get_one::<String>("url").expect("has default").clone(),
        window,
    );
    config.thresholds.loop_lag_p99 = duration_of(m, "lag-p99");
    config.thresholds.queue_wait_p99 = duration_of(m, "queue-wait-p99");
    let json_file = json_out(m)?;
    let report = sluice_serve::doctor::run(&config)?;
    let mut out = std::io::stdout().lock();
    if m.get_flag("json") {
        writeln!(out, "{}", report.to_json())?;
    } else {
        write!(out, "{report}")?;
    }
    if let Some(path) = json_file {
        write_json_out(&path, &report.to_json())?;
    }
    Ok(ExitCode::from(report.exit_code))
}

/// `sluice load --duration`'s range: 100 ms to 1 h.
const LOAD_DURATION: sluice_duration::Range =
    sluice_duration::Range::new(Duration::from_millis(100), Duration::from_secs(3600));

fn load_cli() -> Command {
    Command::new("load")
        .about("Drive a server on this machine: closed loop, fixed concurrency, keep-alive, HDR latencies")
        .long_about("The lab's load generator on its own: CONCURRENCY connections each send the next request when the last answer is read, for DURATION or until REQUESTS were sent, then wait for the answers in flight. Prints throughput (2xx answers within the duration per second), p50, p99 and max latency of 2xx answers, status counts (429s) and errors. Bodies are read and dropped; one longer than 64 MiB is cut there and counted as truncated. Exit code: 0 if at least one request got a 2xx answer, 1 if none did, 2 for bad flags. Only servers on this machine are reached (127.0.0.0/8, [::1], localhost).")
        .arg(Arg::new("url").required(true).value_name("URL").help("e.g. http://127.0.0.1:8080/login"))
        .arg(Arg::new("concurrency").short('c').long("concurrency").value_name("N").value_parser(clap::value_parser!(usize)).default_value("10").help("requests in flight at once (one connection each)"))
        .arg(duration_arg("duration", "5s", "how long requests are started", LOAD_DURATION).short('d'))
        .arg(Arg::new("requests").short('n').long("requests").value_name("N").value_parser(clap::value_parser!(u64)).default_value("1000000").help("the most requests sent"))
        .arg(json_arg("print the report as JSON on stdout"))
        .arg(json_out_arg())
}

fn load(m: &ArgMatches) -> anyhow::Result<ExitCode> {
    let duration = duration_of(m, "duration");
    let mut load = sluice_lab::loadgen::Load::new(
        m.get_one::<String>("url").expect("required").clone(),
        *m.get_one::<usize>("concurrency").expect("has default"),
        duration,
    );
    load.max_requests = *m.get_one::<u64>("requests").expect("has default");
    let json_file = json_out(m)?;
    let report = sluice_lab::loadgen::run(&[load])?.remove(0);
    let doc = serde_json::to_string_pretty(&report)?;
    let mut out = std::io::stdout().lock();
    if m.get_flag("json") {
        writeln!(out, "{doc}")?;
    } else {
        write!(out, "{report}")?;
    }
    if let Some(path) = json_file {
        write_json_out(&path, &doc)?;
    }
    if report.ok == 0 {
        eprintln!(
            "sluice load: no request succeeded (no 2xx answer of {} sent){}",
            report.sent,
            report
                .first_error
                .as_ref()
                .map(|e| format!("; first error: {e}"))
                .unwrap_or_default()
        );
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

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
