//! `sluice serve`, `sluice doctor` and `sluice load`: their flags and the
//! conversion to `sluice_serve`'s and the load generator's configurations.

use crate::flags::{
    duration_arg, duration_of, json_arg, json_out, json_out_arg, ms_alias, write_json_out,
};
use clap::{Arg, ArgAction, ArgMatches, Command};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

pub(crate) fn serve_cli() -> Command {
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

pub(crate) fn serve(m: &ArgMatches) -> anyhow::Result<()> {
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

pub(crate) fn doctor_cli() -> Command {
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

pub(crate) fn doctor(m: &ArgMatches) -> anyhow::Result<ExitCode> {
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
pub(crate) const LOAD_DURATION: sluice_duration::Range =
    sluice_duration::Range::new(Duration::from_millis(100), Duration::from_secs(3600));

pub(crate) fn load_cli() -> Command {
    Command::new("load")
        .about("Drive a server on this machine: closed loop at a fixed concurrency, or open loop at a fixed rate (--rate); keep-alive, HDR latencies")
.long_about("The lab's load generator on its own: CONCURRENCY connections each send the next request when the last answer is read (or, with --rate, requests start at that rate on up to CONCURRENCY connections), for DURATION or until REQUESTS were sent, then wait for the answers in flight. Prints throughput (2xx answers within the duration per second), p50, p99 and max latency of 2xx answers, status counts (429s) and errors. Bodies are read and dropped; one longer than 64 MiB is cut there and counted as truncated. Exit code: 0 if at least one request got a 2xx answer, 1 if none did, 2 for bad flags. Only servers on this machine are reached (127.0.0.0/8, [::1], localhost).")
        .arg(Arg::new("url").required(true).value_name("URL").help("e.g. http://127.0.0.1:8080/login"))
        .arg(Arg::new("concurrency").short('c').long("concurrency").value_name("N").value_parser(clap::value_parser!(usize)).default_value("10").help("requests in flight at once (one connection each)"))
        .arg(duration_arg("duration", "5s", "how long requests are started", LOAD_DURATION).short('d'))
        .arg(Arg::new("requests").short('n').long("requests").value_name("N").value_parser(clap::value_parser!(u64)).default_value("1000000").help("the most requests sent"))
        .arg(Arg::new("rate").short('r').long("rate").value_name("N").value_parser(clap::value_parser!(f64)).help("open loop: start N requests a second, each when due whether or not the ones before were answered, on up to CONCURRENCY connections (a request that must wait for one counts its latency from when it was due); 0.1..=100000"))
        .arg(json_arg("print the report as JSON on stdout"))
        .arg(json_out_arg())
}

pub(crate) fn load(m: &ArgMatches) -> anyhow::Result<ExitCode> {
    let duration = duration_of(m, "duration");
    let mut load = sluice_lab::loadgen::Load::new(
        m.get_one::<String>("url").expect("required").clone(),
        *m.get_one::<usize>("concurrency").expect("has default"),
        duration,
    );
    load.max_requests = *m.get_one::<u64>("requests").expect("has default");
    load.rate = m.get_one::<f64>("rate").copied();
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
