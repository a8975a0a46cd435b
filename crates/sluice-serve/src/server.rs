//! [`run`]: bind, serve on one event-loop thread, shut down gracefully.
//!
//! The event loop is a tokio current-thread runtime: like Node's, one thread
//! runs every request's async part and the timers; blocking work goes to
//! the pool's lanes. Shutdown on SIGTERM or Ctrl-C:
//!
//! 1. stop accepting connections; idle keep-alive connections close;
//! 2. every request already received is answered (its pool task finishes);
//!    diagnostic holds are released;
//! 3. the pool shuts down (it drains what is left, within the timeout);
//! 4. `run` returns what happened. A second signal exits at once (code 130).

use crate::config::{FILE_BYTES, GZIP_BYTES, ServeConfig};
use crate::gate::Gate;
use crate::payload;
use crate::routes::{self, App};
use anyhow::Context;
use sluice::ShutdownReport;
use sluice::health::LoopMonitor;
use std::io;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

/// One line on stdout; a closed stdout (`sluice serve | head -1`) must not
/// stop the server, so write errors are ignored.
fn say(line: std::fmt::Arguments<'_>) {
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
    /// Requests answered after the signal (all of them, unless a client
    /// went away).
    pub answered_after_signal: u64,
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
    let pool = config.pool(|k| std::env::var(k).ok())?;
    let (file, _dir) = match &config.file {
        Some(path) => {
            std::fs::File::open(path)
                .with_context(|| format!("--file {}: cannot read it", path.display()))?;
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
        let app = Arc::new(App {
            pool: pool.clone(),
            lag: LoopMonitor::start(config.lag_resolution)?,
            login_iterations: config.login_iterations,
            gzip_input: Arc::new(payload::text(GZIP_BYTES)),
            file,
            gate: Arc::clone(&gate),
            in_flight: AtomicU64::new(0),
            answered: AtomicU64::new(0),
        });
        let mut sigterm = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
            .context("installing the SIGTERM handler")?;
        let routes = if config.diagnostic_routes {
            "/ping /login /gzip /file /metrics /block /hold /release"
        } else {
            "/ping /login /gzip /file /metrics"
        };
        if config.libuv {
            say(format_args!(
                "listening on http://{local} (libuv policy: one queue, UV_THREADPOOL_SIZE={} read at the first task, no admission; routes {routes})",
                std::env::var("UV_THREADPOOL_SIZE").unwrap_or_else(|_| "unset (4)".into())
            ));
        } else {
            let snap = pool.metrics();
            say(format_args!(
                "listening on http://{local} (cpu {} threads, queue bound {}; fastio {}; slowio {}; routes {routes})",
                snap.lane(sluice::Lane::Cpu).limit,
                config.cpu_queue_bound().unwrap_or(0),
                snap.lane(sluice::Lane::FastIo).limit,
                snap.lane(sluice::Lane::SlowIo).limit,
            ));
        }
        let (sig_tx, sig_rx) = tokio::sync::oneshot::channel();
        let watcher = Arc::clone(&app);
        let shutdown = async move {
            let signal = tokio::select! {
                _ = sigterm.recv() => "SIGTERM",
                _ = tokio::signal::ctrl_c() => "SIGINT",
            };
            let in_flight = watcher.in_flight.load(Ordering::Relaxed);
            let answered = watcher.answered.load(Ordering::Relaxed);
            say(format_args!(
                "{signal}: no longer accepting; answering the {in_flight} requests in flight"
            ));
            watcher.gate.open_for_good();
            let _ = sig_tx.send((signal, in_flight, answered));
            tokio::spawn(async move {
                tokio::select! {
                    _ = sigterm.recv() => {},
                    _ = tokio::signal::ctrl_c() => {},
                }
                eprintln!("sluice serve: second signal: exiting without waiting");
                std::process::exit(130);
            });
        };
        axum::serve(listener, routes::router(Arc::clone(&app), config.diagnostic_routes))
            .with_graceful_shutdown(shutdown)
            .await
            .context("serving")?;
        let (signal, in_flight, answered_before) =
            sig_rx.await.unwrap_or(("none", 0, 0));
        let answered_after = app.answered.load(Ordering::Relaxed) - answered_before;
        say(format_args!(
            "{answered_after} requests answered after {signal}; shutting the pool down"
        ));
        gate.open_for_good();
        // Off the loop, so that a second signal still exits at once.
        let (p, timeout) = (pool.clone(), config.shutdown_timeout);
        let report = tokio::task::spawn_blocking(move || p.shutdown(timeout))
            .await
            .context("shutting the pool down")?;
        anyhow::Ok((local, signal, in_flight, answered_after, report))
    });
    gate.open_for_good();
    let (addr, signal, in_flight_at_signal, answered_after_signal, report) = served?;
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
    Ok(ServeReport {
        addr,
        signal,
        in_flight_at_signal,
        answered_after_signal,
        pool: report,
    })
}
