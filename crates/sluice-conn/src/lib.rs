//! The connections of sluice's HTTP servers (`sluice serve`, and `sluice
//! scope --prometheus`'s exporter): each one served by hyper's HTTP/1 server
//! on one tokio thread, with the limits an exposed server needs. No thread
//! per connection: a connection is a task.
//!
//! - **Header-read timeout** (`--header-read-timeout`, hyper's
//!   `header_read_timeout`): a request's head must arrive in full within
//!   it, counted from the moment the connection waits for a request; a
//!   client trickling its headers (slowloris) is closed.
//! - **Idle timeout** (`--idle-timeout`): a keep-alive connection with
//!   no request in progress and no byte received for this long is closed.
//! - **Header size limit** ([`MAX_HEADER_BYTES`], hyper's `max_buf_size`):
//!   a request head that does not fit in 64 KiB is answered 431 and the
//!   connection closed; nothing is buffered past it.
//! - **Connection cap** (`--max-connections`): at the cap a new
//!   connection closes the longest-idle one (no request in progress; a
//!   half-sent request counts as idle), the way nginx reuses keep-alive
//!   connections; only when every connection is answering a request is
//!   the new one refused. Either way one line says so, at most every 10 s.
//!   So idle or slow clients can never keep `/ping` from being answered.
//! - **Shutdown**: idle connections (a half-sent request included) close
//!   at once; a connection answering a request finishes that answer and
//!   closes; whatever is left when `--shutdown-timeout` has passed is
//!   dropped and counted (sluice serve's `server.rs`).
//!
//! Everything runs on the one loop thread; the registry's lock is never
//! held across an await.

use hyper::body::{Body, Incoming};
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use std::collections::HashMap;
use std::io;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;
use tokio::sync::Notify;

/// The most bytes of one request's head (request line and headers) a
/// connection buffers: 64 KiB (hyper's `max_buf_size`; nginx allows 32 KiB
/// by default, hyper ~400 KiB).
pub const MAX_HEADER_BYTES: usize = 64 * 1024;

/// The header-read timeout when not configured: 10 s.
pub const DEFAULT_HEADER_READ_TIMEOUT: Duration = Duration::from_secs(10);

/// The idle timeout when not configured: 5 s (Node's `keepAliveTimeout`).
pub const DEFAULT_IDLE_TIMEOUT: Duration = Duration::from_secs(5);

/// The connection cap when not configured and the open-file limit allows it.
pub const DEFAULT_MAX_CONNECTIONS: usize = 10_000;

/// File descriptors kept free of connections (the server's own files); the
/// cap may be at most the open-file limit less this.
pub const FD_RESERVE: usize = 64;

/// The limits every connection is served with.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// See the module docs.
    pub header_read_timeout: Duration,
    /// See the module docs.
    pub idle_timeout: Duration,
    /// See the module docs.
    pub max_connections: usize,
}

impl Limits {
    /// The defaults: [`DEFAULT_HEADER_READ_TIMEOUT`], [`DEFAULT_IDLE_TIMEOUT`],
    /// and a cap of this process's open-file limit (soft) less
    /// [`FD_RESERVE`], at most [`DEFAULT_MAX_CONNECTIONS`] (at least 1).
    pub fn defaults() -> Limits {
        let nofile = rustix::process::getrlimit(rustix::process::Resource::Nofile)
            .current
            .unwrap_or(u64::MAX);
        let room = usize::try_from(nofile)
            .unwrap_or(usize::MAX)
            .saturating_sub(FD_RESERVE);
        Limits {
            header_read_timeout: DEFAULT_HEADER_READ_TIMEOUT,
            idle_timeout: DEFAULT_IDLE_TIMEOUT,
            max_connections: room.clamp(1, DEFAULT_MAX_CONNECTIONS),
        }
    }
}

/// What happened to connections, for the shutdown log and `/metrics`.
#[derive(Debug, Default)]
pub struct ConnCounts {
    /// Count: connections accepted and served.
    pub accepted: AtomicU64,
    /// Count: idle connections closed to make room at the cap.
    pub evicted: AtomicU64,
    /// Count: connections refused at the cap (every one busy).
    pub refused: AtomicU64,
    /// Count: connections closed by the idle timeout.
    pub idle_closed: AtomicU64,
    /// Count: connections closed by the header-read timeout.
    pub header_timeouts: AtomicU64,
    /// Count: `accept()` errors (a full fd table backs off).
    pub accept_errors: AtomicU64,
}

/// One connection's state, shared by its task and the registry.
#[derive(Debug)]
struct Conn {
    /// Requests being answered on it now.
    busy: AtomicU32,
    /// Bytes arrived since the last answer began (a request being read).
    reading: AtomicBool,
    /// Milliseconds from the registry's start to the last byte read or
    /// answer made.
    last_activity_ms: AtomicU64,
    /// Asked to close (evicted, or shutdown): close when idle.
    closing: AtomicBool,
    /// Wakes the connection's task when `closing` is set.
    close: Notify,
}

/// Every connection open now, and the counts.
#[derive(Debug)]
pub struct Registry {
    /// Who says the cap line, e.g. `sluice serve`.
    who: &'static str,
    /// The flag that sets the cap, named in that line.
    cap_flag: Option<&'static str>,
    start: Instant,
    limits: Limits,
    conns: Mutex<HashMap<u64, Arc<Conn>>>,
    next_id: AtomicU64,
    shutting: AtomicBool,
    last_cap_line: Mutex<Option<Instant>>,
    /// What happened so far.
    pub counts: ConnCounts,
}

/// `Relaxed` everywhere in this module: every access is on the one loop
/// thread (the flags and counts order nothing else).
const R: Ordering = Ordering::Relaxed;

impl Registry {
    /// An empty registry for connections served with `limits`; `who`
    /// (e.g. `sluice serve`) starts the line said on stdout when the cap is
    /// hit, naming `cap_flag` when the cap has one.
    pub fn new(limits: Limits, who: &'static str, cap_flag: Option<&'static str>) -> Registry {
        Registry {
            who,
            cap_flag,
            start: Instant::now(),
            limits,
            conns: Mutex::new(HashMap::new()),
            next_id: AtomicU64::new(0),
            shutting: AtomicBool::new(false),
            last_cap_line: Mutex::new(None),
            counts: ConnCounts::default(),
        }
    }

    fn now_ms(&self) -> u64 {
        self.start.elapsed().as_millis() as u64
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<u64, Arc<Conn>>> {
        sluice::sync::lock(&self.conns)
    }

    /// Connections open now.
    pub fn open(&self) -> usize {
        self.lock().len()
    }

    /// Connections answering a request now.
    pub fn busy(&self) -> usize {
        self.lock().values().filter(|c| c.busy.load(R) > 0).count()
    }

    /// Admits a new connection: under the cap at once; at the cap by
    /// closing the longest-idle connection; `None` if every one is busy.
    fn admit(&self) -> Option<(u64, Arc<Conn>)> {
        let mut conns = self.lock();
        // A connection asked to close still counts while it answers a
        // request: it was closed to make room while its request was
        // arriving, and it keeps its descriptor until that answer is made.
        let live = conns
            .values()
            .filter(|c| !c.closing.load(R) || c.busy.load(R) > 0)
            .count();
        if live >= self.limits.max_connections {
            let victim = conns
                .values()
                .filter(|c| !c.closing.load(R) && c.busy.load(R) == 0)
                .min_by_key(|c| c.last_activity_ms.load(R))
                .cloned();
            match victim {
                Some(v) => {
                    v.closing.store(true, R);
                    v.close.notify_one();
                    self.counts.evicted.fetch_add(1, R);
                }
                None => {
                    self.counts.refused.fetch_add(1, R);
                    drop(conns);
                    self.cap_line();
                    return None;
                }
            }
            self.cap_line();
        }
        let id = self.next_id.fetch_add(1, R);
        let conn = Arc::new(Conn {
            busy: AtomicU32::new(0),
            reading: AtomicBool::new(false),
            last_activity_ms: AtomicU64::new(self.now_ms()),
            closing: AtomicBool::new(false),
            close: Notify::new(),
        });
        conns.insert(id, Arc::clone(&conn));
        self.counts.accepted.fetch_add(1, R);
        Some((id, conn))
    }

    /// One line when the cap is hit, at most every 10 s.
    fn cap_line(&self) {
        let mut last = sluice::sync::lock(&self.last_cap_line);
        if last.is_some_and(|t| t.elapsed() < Duration::from_secs(10)) {
            return;
        }
        *last = Some(Instant::now());
        use std::io::Write;
        let mut out = std::io::stdout().lock();
        let _ = writeln!(
            out,
            "{}: connection cap of {} reached{}: closing the longest-idle connection for each new one ({} so far), refusing new ones while every connection is answering a request ({} so far)",
            self.who,
            self.limits.max_connections,
            self.cap_flag.map(|f| format!(" ({f})")).unwrap_or_default(),
            self.counts.evicted.load(R),
            self.counts.refused.load(R),
        );
        let _ = out.flush();
    }

    /// Shutdown: every connection closes once idle; returns how many were
    /// idle (closing now) and how many are answering a request.
    pub fn shut_down(&self) -> (usize, usize) {
        self.shutting.store(true, R);
        let conns = self.lock();
        let mut idle = 0;
        for c in conns.values() {
            if c.busy.load(R) == 0 {
                idle += 1;
            }
            c.closing.store(true, R);
            c.close.notify_one();
        }
        (idle, conns.len() - idle)
    }

    fn remove(&self, id: u64) {
        self.lock().remove(&id);
    }
}

/// Marks its connection busy while a request is answered.
struct BusyGuard {
    conn: Arc<Conn>,
    registry: Arc<Registry>,
}

impl BusyGuard {
    fn new(conn: Arc<Conn>, registry: Arc<Registry>) -> BusyGuard {
        conn.busy.fetch_add(1, R);
        conn.reading.store(false, R);
        BusyGuard { conn, registry }
    }
}

impl Drop for BusyGuard {
    fn drop(&mut self) {
        self.conn.busy.fetch_sub(1, R);
        self.conn.reading.store(false, R);
        self.conn.last_activity_ms.store(self.registry.now_ms(), R);
    }
}

/// The socket, noting when bytes arrive.
struct Watched {
    inner: TcpStream,
    conn: Arc<Conn>,
    registry: Arc<Registry>,
}

impl AsyncRead for Watched {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        let r = Pin::new(&mut self.inner).poll_read(cx, buf);
        if buf.filled().len() > before {
            self.conn.reading.store(true, R);
            self.conn.last_activity_ms.store(self.registry.now_ms(), R);
        }
        r
    }
}

impl AsyncWrite for Watched {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }
}

/// The error a service may answer with (hyper's bound).
pub type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// A service these connections serve: hyper's HTTP/1 service answering
/// with a body `B`, cloned per connection, run on tokio.
pub trait HttpService<B>:
    hyper::service::Service<
        hyper::Request<Incoming>,
        Response = hyper::Response<B>,
        Future: Send + 'static,
        Error: Into<BoxError>,
    > + Clone
    + Send
    + 'static
{
}

impl<S, B> HttpService<B> for S where
    S: hyper::service::Service<
            hyper::Request<Incoming>,
            Response = hyper::Response<B>,
            Future: Send + 'static,
            Error: Into<BoxError>,
        > + Clone
        + Send
        + 'static
{
}

/// The body of a response of an [`HttpService`]: sent from the
/// connection's task, its errors boxed.
pub trait HttpBody: Body<Data: Send, Error: Into<BoxError>> + Send + 'static {}

impl<B> HttpBody for B where B: Body<Data: Send, Error: Into<BoxError>> + Send + 'static {}

/// Admits `stream` (see `Registry::admit`) and returns the future that
/// serves it with `service`, or `None` if it was refused at the cap (it is
/// closed).
pub fn admit<S, B>(
    stream: TcpStream,
    service: S,
    registry: &Arc<Registry>,
) -> Option<impl Future<Output = ()> + Send + 'static>
where
    S: HttpService<B>,
    B: HttpBody,
{
    let (id, conn) = registry.admit()?;
    let _ = stream.set_nodelay(true);
    let registry = Arc::clone(registry);
    Some(async move {
        /// Leaves the registry however the task ends: done, aborted at
        /// the shutdown timeout, or panicked.
        struct Leave(Arc<Registry>, u64);
        impl Drop for Leave {
            fn drop(&mut self) {
                self.0.remove(self.1);
            }
        }
        let _leave = Leave(Arc::clone(&registry), id);
        serve(stream, service, conn, registry).await;
    })
}

async fn serve<S, B>(stream: TcpStream, inner: S, conn: Arc<Conn>, registry: Arc<Registry>)
where
    S: HttpService<B>,
    B: HttpBody,
{
    let limits = registry.limits;
    let io = TokioIo::new(Watched {
        inner: stream,
        conn: Arc::clone(&conn),
        registry: Arc::clone(&registry),
    });
    let service = {
        let (conn, registry) = (Arc::clone(&conn), Arc::clone(&registry));
        hyper::service::service_fn(move |req: hyper::Request<Incoming>| {
            let guard = BusyGuard::new(Arc::clone(&conn), Arc::clone(&registry));
            let answer = inner.call(req);
            async move {
                let resp = answer.await;
                drop(guard);
                resp
            }
        })
    };
    let http = http1::Builder::new()
        .timer(TokioTimer::new())
        .header_read_timeout(limits.header_read_timeout)
        .max_buf_size(MAX_HEADER_BYTES)
        .keep_alive(true)
        .serve_connection(io, service);
    tokio::pin!(http);
    let mut draining = false;
    loop {
        let idle_deadline = registry
            .start
            .checked_add(Duration::from_millis(conn.last_activity_ms.load(R)))
            .and_then(|t| t.checked_add(limits.idle_timeout))
            .unwrap_or_else(|| Instant::now() + Duration::from_secs(86_400));
        tokio::select! {
            r = http.as_mut() => {
                if let Err(e) = r
                    && e.is_timeout()
                {
                    registry.counts.header_timeouts.fetch_add(1, R);
                }
                return;
            }
            () = conn.close.notified() => {
                if !draining {
                    // No more requests on it: close after the answer being made.
                    http.as_mut().graceful_shutdown();
                    draining = true;
                }
                if conn.busy.load(R) == 0 {
                    // Idle, or a request only half sent: nothing to answer.
                    return;
                }
            }
            () = tokio::time::sleep_until(idle_deadline.into()) => {
                let quiet = registry.now_ms()
                    .saturating_sub(conn.last_activity_ms.load(R));
                if conn.busy.load(R) == 0
                    && !conn.reading.load(R)
                    && quiet >= limits.idle_timeout.as_millis() as u64
                {
                    registry.counts.idle_closed.fetch_add(1, R);
                    return;
                }
            }
        }
    }
}

/// One `accept` of a server's accept loop: the connection is admitted
/// (see [`admit`]; one refused at the cap is closed) and the future that
/// serves it spawned onto `tasks`; an error comes back with the pause
/// `backoff` gives it, for the caller to sleep (and count or report) before
/// it accepts again.
pub fn spawn_accepted<S, B>(
    accepted: io::Result<(TcpStream, std::net::SocketAddr)>,
    backoff: &mut AcceptBackoff,
    service: &S,
    registry: &Arc<Registry>,
    tasks: &mut tokio::task::JoinSet<()>,
) -> Result<(), (io::Error, Duration)>
where
    S: hyper::service::Service<hyper::Request<Incoming>, Response = hyper::Response<B>>
        + Clone
        + Send
        + 'static,
    S::Future: Send + 'static,
    S::Error: Into<BoxError>,
    B: Body + Send + 'static,
    B::Data: Send,
    B::Error: Into<BoxError>,
{
    match accepted {
        Ok((stream, _)) => {
            backoff.on_accept();
            if let Some(conn) = admit(stream, service.clone(), registry) {
                tasks.spawn(conn);
            }
            Ok(())
        }
        Err(e) => {
            let pause = backoff.on_error(&e);
            Err((e, pause))
        }
    }
}

/// Whether an `accept()` error means the process or the machine is out of
/// something (descriptors, memory) rather than that one connection failed:
/// then the accept loop must back off instead of spinning, as tokio's and
/// hyper's examples and Go's `net/http` do.
///
/// ```
/// use std::io::Error;
/// use sluice_conn::is_resource_error;
/// assert!(is_resource_error(&Error::from_raw_os_error(24))); // EMFILE
/// assert!(!is_resource_error(&Error::from_raw_os_error(103))); // ECONNABORTED
/// ```
pub fn is_resource_error(e: &io::Error) -> bool {
    use rustix::io::Errno;
    [Errno::MFILE, Errno::NFILE, Errno::NOBUFS, Errno::NOMEM]
        .iter()
        .any(|x| e.raw_os_error() == Some(x.raw_os_error()))
}

/// How long the accept loop sleeps after a resource error: 10 ms doubling
/// to 1 s (tokio's and hyper's examples sleep 1 s at once), reset by the
/// next accepted connection.
#[derive(Debug, Default)]
pub struct AcceptBackoff {
    next: Option<Duration>,
}

impl AcceptBackoff {
    /// The sleep after this error: zero for an error of one connection
    /// (`ECONNABORTED`, `ECONNRESET`, `EPROTO`, `EPERM`, `EINTR`); for any
    /// other (`EMFILE`, `ENFILE`, `ENOBUFS`, `ENOMEM`, ...) 10 ms, doubling
    /// up to 1 s.
    ///
    /// ```
    /// use sluice_conn::AcceptBackoff;
    /// use std::io::Error;
    /// use std::time::Duration;
    /// let mut b = AcceptBackoff::default();
    /// let emfile = Error::from_raw_os_error(24);
    /// assert_eq!(b.on_error(&emfile), Duration::from_millis(10));
    /// assert_eq!(b.on_error(&emfile), Duration::from_millis(20));
    /// for _ in 0..10 { b.on_error(&emfile); }
    /// assert_eq!(b.on_error(&emfile), Duration::from_secs(1));
    /// b.on_accept();
    /// assert_eq!(b.on_error(&emfile), Duration::from_millis(10));
    /// ```
    pub fn on_error(&mut self, e: &io::Error) -> Duration {
        use rustix::io::Errno;
        let own = [
            Errno::CONNABORTED,
            Errno::CONNRESET,
            Errno::PROTO,
            Errno::PERM,
            Errno::INTR,
        ];
        if own
            .iter()
            .any(|x| e.raw_os_error() == Some(x.raw_os_error()))
        {
            return Duration::ZERO;
        }
        let d = self.next.map_or(Duration::from_millis(10), |d| {
            (d * 2).min(Duration::from_secs(1))
        });
        self.next = Some(d);
        d
    }

    /// A connection was accepted: the next error starts at 10 ms again.
    pub fn on_accept(&mut self) {
        self.next = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn registry(max_connections: usize) -> Registry {
        Registry::new(
            Limits {
                header_read_timeout: Duration::from_secs(5),
                idle_timeout: Duration::from_secs(5),
                max_connections,
            },
            "test",
            None,
        )
    }

    /// A registry at its cap of two, `a` answering a request and `b` idle,
    /// then a third connection admitted: it closes `b`, the longest idle.
    /// The registry, `a`, `b` and the third's id and connection.
    fn third_past_the_cap() -> (Registry, Arc<Conn>, Arc<Conn>, (u64, Arc<Conn>)) {
        let r = registry(2);
        let (_, a) = r.admit().unwrap();
        let (_, b) = r.admit().unwrap();
        a.busy.fetch_add(1, R);
        let third = r.admit().unwrap();
        assert!(b.closing.load(R));
        (r, a, b, third)
    }

    #[test]
    fn at_the_cap_the_longest_idle_closes_and_busy_ones_refuse() {
        let (r, _a, _b, (_, c)) = third_past_the_cap();
        assert_eq!(r.counts.evicted.load(R), 1);
        c.busy.fetch_add(1, R);
        // a and c answer requests: the fourth is refused.
        assert!(r.admit().is_none());
        assert_eq!(r.counts.refused.load(R), 1);
        assert_eq!(r.busy(), 2);
    }

    #[test]
    fn a_closing_connection_that_began_answering_still_counts() {
        let (r, _a, b, (c, _)) = third_past_the_cap();
        // b's request arrived before it closed: it answers it, keeping its
        // descriptor meanwhile. c was answered and left.
        b.busy.fetch_add(1, R);
        r.remove(c);
        assert!(r.admit().is_none(), "a and b answer requests; the cap is 2");
        assert_eq!(r.counts.refused.load(R), 1);
        assert_eq!(r.open(), 2);
    }
}
