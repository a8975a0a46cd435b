//! [`run`]: bind, serve on one event-loop thread, shut down gracefully.
//!
//! The event loop is a tokio current-thread runtime: like Node's, one thread
//! runs every request's async part and the timers; blocking work goes to
//! the pool's lanes. Connections are served by hyper's HTTP/1 server with a
//! header-read timeout, an idle timeout and a connection cap (`conn.rs`).
//! Shutdown on SIGTERM or Ctrl-C, bounded by `--shutdown-timeout` in all:
//!
//! 1. stop accepting connections; idle connections close at once, a
//!    half-sent request included (it was never received);
//! 2. every request already received is answered (its pool task finishes);
//!    diagnostic holds are released; a connection still open when the
//!    timeout has passed is dropped and counted;
//! 3. the pool shuts down in what is left of the timeout (queued tasks of
//!    gone clients were already cancelled);
//! 4. `run` returns what happened. A second signal exits at once (code 130).

/// The window of the verdict `/metrics` carries (`sluice_verdict`).
pub const VERDICT_WINDOW: Duration = Duration::from_secs(1);

use crate::config::{FILE_BYTES, GZIP_BYTES, ServeConfig};
use crate::conn::{self, AcceptBackoff, Registry};
use crate::gate::Gate;
use crate::payload;
use crate::routes::{self, App, Requests};
use anyhow::Context;
use sluice::ShutdownReport;
use sluice_health::LoopMonitor;
use std::io;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

/// One line on stdout; a closed stdout (`sluice serve | head -1`) must not
/// stop the server, so write errors are ignored.
pub(crate) fn say(line: std::fmt::Arguments<'_>) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "sluice serve: {line}");
    let _ = out.flush();
}

/// What happened while serving.
#[derive(Debug, Clone)]
pub struct ServeReport {
    /// The address served.
    pub addr: SocketAddr,
    /// `SIGTERM` or `SIGINT`.
    pub signal: &'static str,
    /// Requests in flight when the signal came.
    pub in_flight_at_signal: u64,
    /// Of those, the ones answered (all of them, unless a client went away
    /// or the shutdown timeout passed).
    pub answered_after_signal: u64,
    /// Of those, the ones that ended unanswered:
    /// `answered_after_signal + unanswered_after_signal == in_flight_at_signal`.
    pub unanswered_after_signal: u64,
    /// Requests that arrived after the signal on connections still open
    /// (pipelined behind one in flight) and were answered.
    pub late_answered: u64,
    /// Connections dropped when the shutdown timeout passed.
    pub connections_dropped: u64,
    /// The pool's shutdown.
    pub pool: ShutdownReport,
}

/// The one-line error for a failed bind, naming `--listen` and a fix.
///
/// ```
/// use std::io::{Error, ErrorKind};
/// let addr = "127.0.0.1:8080".parse()?;
/// let e = sluice_serve::server::bind_error(addr, &Error::from(ErrorKind::AddrInUse));
/// assert_eq!(e, "--listen 127.0.0.1:8080: the address is already in use; stop the server on that port or choose another (--listen 127.0.0.1:0 picks a free one)");
/// # Ok::<(), std::net::AddrParseError>(())
/// ```
pub fn bind_error(addr: SocketAddr, e: &io::Error) -> String {
    match e.kind() {
        io::ErrorKind::AddrInUse => format!(
            "--listen {addr}: the address is already in use; stop the server on that port or choose another (--listen {}:0 picks a free one)",
            addr.ip()
        ),
        io::ErrorKind::PermissionDenied => format!(
            "--listen {addr}: permission denied (ports below 1024 need privileges); choose a port above 1023"
        ),
        io::ErrorKind::AddrNotAvailable => format!(
            "--listen {addr}: no such address on this machine; use 127.0.0.1 or an address of one of its interfaces"
        ),
        _ => format!("--listen {addr}: {e}"),
    }
}

/// Serves until SIGTERM or Ctrl-C, then shuts down gracefully. Prints one
/// line `sluice serve: listening on http://ADDR (...)` once it accepts
/// connections, and a line for each shutdown step, on stdout.
///
/// Errors before serving (a refused setting, a port in use, an unreadable
/// `--file`) come back as one line naming the flag and the fix.
pub fn run(config: &ServeConfig) -> anyhow::Result<ServeReport> {
    let addr = config.listen_addr()?;
    sluice::Builder::check_env()?;
    let pool = config.pool(|k| std::env::var(k).ok())?;
    let (file, _dir) = match &config.file {
        Some(path) => {
            check_file(path)?;
            (path.clone(), None)
        }
        None => {
            let dir = tempfile::Builder::new()
                .prefix("sluice-serve-")
                .tempdir()
                .context("creating a temporary directory for /file's 4 KiB file")?;
            let path = dir.path().join("file-4k.txt");
            std::fs::write(&path, payload::text(FILE_BYTES))
                .with_context(|| format!("writing {}", path.display()))?;
            (path, Some(dir))
        }
    };
    let limits = config.limits()?;
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("starting the event loop (a tokio runtime)")?;
    let gate = Arc::new(Gate::default());
    let served = rt.block_on(async {
        let listener = tokio::net::TcpListener::bind(addr)
            .await
            .map_err(|e| anyhow::anyhow!(bind_error(addr, &e)))?;
        let local = listener.local_addr()?;
        let registry = Arc::new(Registry::new(limits, "sluice serve", Some("--max-connections")));
        let lag = LoopMonitor::start(config.lag_resolution)?;
        let watch = sluice_health::Watch::new(
            sluice_health::Sample::from_snapshot(&pool.metrics(), Some(&lag.snapshot().sample)),
            VERDICT_WINDOW,
            sluice_health::Thresholds::default(),
        );
        let app = Arc::new(App {
            pool: pool.clone(),
            lag,
            watch,
            login_iterations: config.login_iterations,
            gzip_input: Arc::new(payload::text(GZIP_BYTES)),
            file,
            gate: Arc::clone(&gate),
            requests: Requests::default(),
            connections: Arc::clone(&registry),
        });
        let mut sigterm = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
            .context("installing the SIGTERM handler")?;
        let routes = if config.diagnostic_routes {
            "/ping /login /gzip /file /metrics /block /hold /release"
        } else {
            "/ping /login /gzip /file /metrics"
        };
        let conns = format!(
            "at most {} connections, header read {} ms, idle {} ms",
            limits.max_connections,
            limits.header_read_timeout.as_millis(),
            limits.idle_timeout.as_millis()
        );
        if config.libuv {
            say(format_args!(
                "listening on http://{local} (libuv policy: one queue, UV_THREADPOOL_SIZE={} read at the first task, no admission; {conns}; routes {routes})",
                std::env::var_os("UV_THREADPOOL_SIZE")
                    .map_or_else(|| "unset (4)".into(), |v| format!("{v:?}"))
            ));
        } else {
            let snap = pool.metrics();
            say(format_args!(
                "listening on http://{local} (cpu {} threads, queue bound {}; fastio {}; slowio {}; {conns}; routes {routes})",
                snap.lane(sluice::Lane::Cpu).limit,
                config.cpu_queue_bound().unwrap_or(0),
                snap.lane(sluice::Lane::FastIo).limit,
                snap.lane(sluice::Lane::SlowIo).limit,
            ));
        }
        let router = routes::router(Arc::clone(&app), config.diagnostic_routes);
        // The router as hyper's service, for the shared connection code.
        let service = hyper::service::service_fn(move |req: hyper::Request<hyper::body::Incoming>| {
            tower::ServiceExt::oneshot(router.clone(), req)
        });
        let mut tasks = tokio::task::JoinSet::new();
        let mut backoff = AcceptBackoff::default();
        let signal = loop {
            tokio::select! {
                biased;
                _ = sigterm.recv() => break "SIGTERM",
                _ = tokio::signal::ctrl_c() => break "SIGINT",
                Some(_) = tasks.join_next(), if !tasks.is_empty() => {}
                accepted = listener.accept() => {
                    let took = conn::spawn_accepted(accepted, &mut backoff, &service, &registry, &mut tasks);
                    if let Err((e, pause)) = took {
                        let n = registry.counts.accept_errors.fetch_add(1, Ordering::Relaxed);
                        if n == 0 || (conn::is_resource_error(&e) && pause == Duration::from_millis(10)) {
                            eprintln!("sluice serve: accepting a connection: {e} (backing off {pause:?}; connections open: {})", registry.open());
                        }
                        tokio::time::sleep(pause).await;
                    }
                }
            }
        };
        drop(listener);
        // The config's check keeps --shutdown-timeout within an hour; a
        // deadline past what an Instant holds is a day from now, never a panic.
        let now = tokio::time::Instant::now();
        let deadline = now
            .checked_add(config.shutdown_timeout)
            .unwrap_or(now + Duration::from_secs(86_400));
        let in_flight = app.requests.signal();
        let (idle, busy) = registry.shut_down();
        say(format_args!(
            "{signal}: no longer accepting; answering the {in_flight} requests in flight ({busy} connections answering, {idle} idle closed)"
        ));
        gate.open_for_good();
        tokio::spawn(async move {
            tokio::select! {
                _ = sigterm.recv() => {},
                _ = tokio::signal::ctrl_c() => {},
            }
            eprintln!("sluice serve: second signal: exiting without waiting");
            std::process::exit(130);
        });
        let drained = tokio::time::timeout_at(deadline, async {
            while tasks.join_next().await.is_some() {}
        })
        .await
        .is_ok();
        let dropped = tasks.len() as u64;
        if !drained {
            // Dropping a connection drops its handler: its queued task is cancelled.
            tasks.shutdown().await;
        }
        let r = app.requests.after_signal();
        say(format_args!(
            "{} of the {in_flight} requests in flight at {signal} answered, {} not (client gone{}){}; shutting the pool down",
            r.answered,
            r.unanswered,
            if drained {
                String::new()
            } else {
                format!(", or dropped with {dropped} connections when --shutdown-timeout passed")
            },
            if r.late > 0 {
                format!("; {} more that arrived on open connections answered", r.late)
            } else {
                String::new()
            },
        ));
        let c = &registry.counts;
        say(format_args!(
            "connections: {} accepted, {} idle closed at the cap, {} refused at the cap, {} closed by the idle timeout, {} by the header-read timeout, {} accept errors",
            c.accepted.load(Ordering::Relaxed),
            c.evicted.load(Ordering::Relaxed),
            c.refused.load(Ordering::Relaxed),
            c.idle_closed.load(Ordering::Relaxed),
            c.header_timeouts.load(Ordering::Relaxed),
            c.accept_errors.load(Ordering::Relaxed),
        ));
        gate.open_for_good();
        // Off the loop, so that a second signal still exits at once.
        let left = deadline.saturating_duration_since(tokio::time::Instant::now());
        let p = pool.clone();
        let report = tokio::task::spawn_blocking(move || p.shutdown(left))
            .await
            .context("shutting the pool down")?;
        anyhow::Ok(ServeReport {
            addr: local,
            signal,
            in_flight_at_signal: in_flight,
            answered_after_signal: r.answered,
            unanswered_after_signal: r.unanswered,
            late_answered: r.late,
            connections_dropped: dropped,
            pool: report,
        })
    });
    gate.open_for_good();
    let served = served?;
    let report = &served.pool;
    say(format_args!(
        "pool {} ({} queued tasks abandoned, {} still running)",
        if report.drained {
            "drained"
        } else {
            "did not drain in time"
        },
        report.abandoned,
        report.still_running
    ));
    Ok(served)
}

/// `--file PATH` must be a regular file this process can read.
fn check_file(path: &std::path::Path) -> anyhow::Result<()> {
    let meta = std::fs::metadata(path)
        .with_context(|| format!("--file {}: cannot read it", path.display()))?;
    if meta.is_dir() {
        anyhow::bail!(
            "--file {}: is a directory; /file serves one file, so give the path of a file",
            path.display()
        );
    }
    if !meta.is_file() {
        anyhow::bail!(
            "--file {}: is not a regular file; give the path of a file",
            path.display()
        );
    }
    std::fs::File::open(path)
        .with_context(|| format!("--file {}: cannot read it", path.display()))?;
    Ok(())
}
