//! The DNS delay server (seed 001's lab resolver): a real DNS server, UDP
//! and TCP, that holds every query a fixed time before answering it, and
//! counts the distinct names in flight. Resolver-side counting is the
//! point: how many lookups a client really runs at once is read off the
//! server, not guessed from the client.
//!
//! - A and AAAA queries are answered with `--answer` (one address per
//!   family; a family without one gets an empty NOERROR answer), TTL
//!   `--ttl`, after `--hold`. Other types get an empty answer after the
//!   hold.
//! - Names matching a `--fast` pattern are answered at once and never
//!   counted in flight.
//! - Anything that is not one well-formed query is counted
//!   (`malformed_total`) and dropped; nothing a client sends stops the
//!   server.
//! - `TXT _stats.dns-delay.` answers at once with the counts (one TXT
//!   record `key=value` each); `TXT _reset.dns-delay.` starts the maxima
//!   over.
//! - The counts ([`Stats`]) are also written, as JSON, to a stats file
//!   when they change (at most every 100 ms) and when the server stops.
//! - Bounded under abuse: a TCP connection has at most
//!   [`DelayConfig::tcp_max_in_flight`] queries held or waiting to be
//!   written (past it the server reads no more of it: TCP's own
//!   backpressure); a connection whose answers cannot be written within
//!   [`DelayConfig::tcp_write_timeout`] (a client that will not read), or
//!   that sends nothing for [`DelayConfig::tcp_idle_timeout`] with nothing
//!   held, is dropped and counted; the accept loop backs off on `EMFILE`
//!   and the like instead of spinning; the set of names seen is bounded
//!   ([`MAX_SEEN_NAMES`]); at most [`DelayConfig::max_held`] queries are
//!   held at once (UDP included), more are dropped and counted; when
//!   nothing is held any more, the heap's free memory is given back to the
//!   system (glibc's `malloc_trim`), so a flood's peak does not stay.
//!
//! The wire format is hickory-proto's; the sockets are tokio's. The lab
//! starts it in-process ([`DelayServer::start`]) inside a private network
//! namespace (`crate::netns`); `sluice dns-delay` runs it on its own
//! ([`run`]).

mod answer;
mod fast;
mod stats;
mod zone;

pub use answer::{RESET_NAME, STATS_NAME};
pub use fast::FastPattern;
pub use stats::{MAX_SEEN_NAMES, Stats};
pub use zone::Zone;

use answer::Verdict;
use anyhow::Context;
use stats::{Tally, Ticket};
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream, UdpSocket};
use tokio::task::JoinHandle;

/// How a delay server answers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DelayConfig {
    /// Where to listen, UDP and TCP (port 0: any free port, the same for
    /// both).
    pub listen: SocketAddr,
    /// How long every query is held.
    pub hold: Duration,
    /// The answer to A queries.
    pub answer_v4: Option<Ipv4Addr>,
    /// The answer to AAAA queries.
    pub answer_v6: Option<Ipv6Addr>,
    /// The TTL of the answers.
    pub ttl: u32,
    /// The names the server knows (`--zone`); `None`: every name has the
    /// `answer_v4`/`answer_v6` addresses.
    pub zone: Option<Zone>,
    /// Names answered at once.
    pub fast: Vec<FastPattern>,
    /// Also listen on TCP.
    pub tcp: bool,
    /// Where to write the counts.
    pub stats_file: Option<PathBuf>,
    /// Queries one TCP connection may have held or waiting to be written;
    /// past it the server stops reading that connection until one is
    /// written.
    pub tcp_max_in_flight: usize,
    /// How long writing one answer to a TCP connection may block before
    /// the connection is dropped (its client does not read).
    pub tcp_write_timeout: Duration,
    /// How long a TCP connection with nothing held may send nothing (or
    /// half a message) before it is dropped.
    pub tcp_idle_timeout: Duration,
    /// The most queries held at once, UDP and TCP together; past it a
    /// query is dropped unanswered and counted (`overload_total`), as an
    /// overloaded resolver does. Memory is then bounded whatever the rate.
    pub max_held: usize,
}

/// [`DelayConfig::max_held`] by default.
pub const MAX_HELD: usize = 65_536;

/// [`DelayConfig::tcp_max_in_flight`] by default.
pub const TCP_MAX_IN_FLIGHT: usize = 64;

impl Default for DelayConfig {
    /// The seed's server on `127.0.0.1:5353`: hold 300 ms, answer
    /// `127.0.0.2`, TTL 0, UDP and TCP.
    fn default() -> Self {
        DelayConfig {
            listen: SocketAddr::from(([127, 0, 0, 1], 5353)),
            hold: Duration::from_millis(300),
            answer_v4: Some(Ipv4Addr::new(127, 0, 0, 2)),
            answer_v6: None,
            ttl: 0,
            zone: None,
            fast: Vec::new(),
            tcp: true,
            stats_file: None,
            tcp_max_in_flight: TCP_MAX_IN_FLIGHT,
            tcp_write_timeout: Duration::from_secs(10),
            tcp_idle_timeout: Duration::from_secs(30),
            max_held: MAX_HELD,
        }
    }
}

impl DelayConfig {
    /// Sets the answer of `ip`'s family.
    pub fn answer(&mut self, ip: IpAddr) {
        match ip {
            IpAddr::V4(v4) => self.answer_v4 = Some(v4),
            IpAddr::V6(v6) => self.answer_v6 = Some(v6),
        }
    }
}

/// The text of `sluice dns-delay`'s (and `sluice lab-netns`'s) flags.
#[derive(Debug, Clone, Default)]
pub struct DelayFlags {
    /// `--listen ADDR:PORT`.
    pub listen: String,
    /// `--hold DURATION`.
    pub hold: String,
    /// `--answer IP`, repeated.
    pub answers: Vec<String>,
    /// `--ttl SECONDS`.
    pub ttl: String,
    /// `--fast PATTERN`, repeated.
    pub fast: Vec<String>,
    /// `--no-tcp`.
    pub no_tcp: bool,
    /// `--stats FILE`.
    pub stats: Option<PathBuf>,
    /// `--zone FILE`.
    pub zone: Option<PathBuf>,
}

impl DelayFlags {
    /// Validates every flag; errors name the flag, the value and the fix.
    ///
    /// ```
    /// use sluice_testnet::dns_delay::DelayFlags;
    /// let flags = DelayFlags {
    ///     listen: "127.0.0.1:5353".into(),
    ///     hold: "300ms".into(),
    ///     answers: vec!["127.0.0.2".into(), "::2".into()],
    ///     ttl: "0".into(),
    ///     ..DelayFlags::default()
    /// };
    /// let c = flags.config()?;
    /// assert_eq!((c.hold.as_millis(), c.ttl), (300, 0));
    /// assert!(c.answer_v6.is_some());
    /// let bad = DelayFlags { ttl: "-1".into(), ..flags };
    /// assert_eq!(bad.config().unwrap_err().to_string(), "--ttl \"-1\": expected whole seconds, 0..=2147483647");
    /// # Ok::<(), anyhow::Error>(())
    /// ```
    pub fn config(&self) -> anyhow::Result<DelayConfig> {
        let listen: SocketAddr = self.listen.trim().parse().map_err(|_| {
            anyhow::anyhow!(
                "--listen {:?}: expected an address and port like 127.0.0.1:5353 or [::1]:5353",
                self.listen
            )
        })?;
        let hold = parse_duration(&self.hold).map_err(|e| anyhow::anyhow!("--hold {e}"))?;
        let ttl: u32 = self
            .ttl
            .trim()
            .parse()
            .ok()
            .filter(|t| *t <= i32::MAX as u32)
            .ok_or_else(|| {
                anyhow::anyhow!(
                    "--ttl {:?}: expected whole seconds, 0..=2147483647",
                    self.ttl
                )
            })?;
        let mut config = DelayConfig {
            listen,
            hold,
            ttl,
            tcp: !self.no_tcp,
            stats_file: self.stats.clone(),
            ..DelayConfig::default()
        };
        if !self.answers.is_empty() {
            config.answer_v4 = None;
            config.answer_v6 = None;
        }
        for a in &self.answers {
            let ip: IpAddr = a.trim().parse().map_err(|_| {
                anyhow::anyhow!("--answer {a:?}: expected an IPv4 or IPv6 address like 127.0.0.2")
            })?;
            let taken = match ip {
                IpAddr::V4(_) => config.answer_v4.map(IpAddr::V4),
                IpAddr::V6(_) => config.answer_v6.map(IpAddr::V6),
            };
            if let Some(first) = taken {
                anyhow::bail!(
                    "--answer {a:?}: {first} already answers that family; give at most one IPv4 and one IPv6 address"
                );
            }
            config.answer(ip);
        }
        for f in &self.fast {
            config.fast.push(f.parse().map_err(anyhow::Error::msg)?);
        }
        if let Some(path) = &self.zone {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("--zone {}: reading the zone file", path.display()))?;
            let zone = Zone::parse(&text)
                .map_err(|e| anyhow::anyhow!("--zone {}: {e}", path.display()))?;
            config.zone = Some(zone);
        }
        Ok(config)
    }
}

/// The state every socket task shares.
pub(crate) struct Shared {
    pub(crate) config: DelayConfig,
    listen: SocketAddr,
    tally: Mutex<Tally>,
}

impl Shared {
    /// The counts, locked. Never held across an await.
    pub(crate) fn tally(&self) -> MutexGuard<'_, Tally> {
        sluice::sync::lock(&self.tally)
    }

    /// Starts holding `ticket`, a query that came over TCP (`tcp`) or UDP,
    /// and counts the query, unless [`DelayConfig::max_held`] are held
    /// already (then counts the refusal); one lock for all of it.
    fn try_hold(self: &Arc<Self>, ticket: Ticket, tcp: bool) -> Option<Held> {
        let mut tally = self.tally();
        if tally.stats.in_flight_queries >= self.config.max_held as u64 {
            tally.count(|s| s.overload_total += 1);
            return None;
        }
        tally.hold(&ticket);
        tally.count(|s| {
            s.queries_total += 1;
            *(if tcp {
                &mut s.tcp_total
            } else {
                &mut s.udp_total
            }) += 1;
        });
        drop(tally);
        Some(Held(Arc::clone(self), ticket, false))
    }

    fn stats(&self) -> Stats {
        let mut s = self.tally().stats.clone();
        s.listen = self.listen.to_string();
        s.hold_ms = self.config.hold.as_millis() as u64;
        s
    }
}

/// What a server with `config` sends for one message `bytes`: the answer,
/// now or after the hold, or `None` when the message is dropped as
/// malformed. The server's message handling without sockets, for tests and
/// fuzzing.
///
/// ```
/// use sluice_testnet::dns_delay::{DelayConfig, answer_once};
/// assert_eq!(answer_once(&DelayConfig::default(), b"\x00\x01junk"), None);
/// ```
pub fn answer_once(config: &DelayConfig, bytes: &[u8]) -> Option<Vec<u8>> {
    let shared = Shared {
        config: config.clone(),
        listen: config.listen,
        tally: Mutex::new(Tally::default()),
    };
    match answer::classify(bytes, &shared) {
        Verdict::Malformed => None,
        Verdict::Now(resp) | Verdict::Hold(_, resp) => Some(resp),
    }
}

/// A running delay server. Dropping it stops it (its tasks are aborted).
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> anyhow::Result<()> {
/// use sluice_testnet::dns_delay::{DelayConfig, DelayServer};
/// let server = DelayServer::start(DelayConfig {
///     listen: "127.0.0.1:0".parse()?,
///     ..DelayConfig::default()
/// })
/// .await?;
/// assert_ne!(server.local_addr().port(), 0);
/// assert_eq!(server.stats().queries_total, 0);
/// let stats = server.stop().await;
/// assert_eq!(stats.max_in_flight_names, 0);
/// # Ok(())
/// # }
/// ```
pub struct DelayServer {
    shared: Arc<Shared>,
    tasks: Vec<JoinHandle<()>>,
}

impl DelayServer {
    /// Binds UDP (and TCP) on `config.listen` and starts serving on the
    /// current tokio runtime.
    pub async fn start(config: DelayConfig) -> anyhow::Result<DelayServer> {
        let (udp, tcp) = bind(config.listen, config.tcp).await?;
        let listen = udp.local_addr()?;
        let shared = Arc::new(Shared {
            config,
            listen,
            tally: Mutex::new(Tally::default()),
        });
        let mut tasks = vec![tokio::spawn(serve_udp(Arc::new(udp), shared.clone()))];
        if let Some(tcp) = tcp {
            tasks.push(tokio::spawn(serve_tcp(tcp, shared.clone())));
        }
        tasks.push(tokio::spawn(trim_when_idle(shared.clone())));
        if let Some(path) = shared.config.stats_file.clone() {
            shared.stats().write(&path)?;
            tasks.push(tokio::spawn(write_stats(path, shared.clone())));
        }
        Ok(DelayServer { shared, tasks })
    }

    /// The address it listens on (UDP and TCP).
    pub fn local_addr(&self) -> SocketAddr {
        self.shared.listen
    }

    /// The counts now.
    pub fn stats(&self) -> Stats {
        self.shared.stats()
    }

    /// Stops serving, writes the stats file one last time, and returns the
    /// final counts. Queries still held are dropped unanswered.
    pub async fn stop(mut self) -> Stats {
        for t in self.tasks.drain(..) {
            t.abort();
            let _ = t.await;
        }
        let stats = self.shared.stats();
        if let Some(path) = &self.shared.config.stats_file
            && let Err(e) = stats.write(path)
        {
            eprintln!("sluice dns-delay: {e:#}");
        }
        stats
    }
}

impl Drop for DelayServer {
    fn drop(&mut self) {
        for t in &self.tasks {
            t.abort();
        }
    }
}

/// Binds UDP, then TCP on the same port (retrying a few ephemeral ports
/// when the one UDP got is taken for TCP).
async fn bind(listen: SocketAddr, tcp: bool) -> anyhow::Result<(UdpSocket, Option<TcpListener>)> {
    let hint = if listen.port() < 1024 && listen.port() != 0 {
        " (ports below 1024 need root or CAP_NET_BIND_SERVICE)"
    } else {
        ""
    };
    for _ in 0..16 {
        let udp = UdpSocket::bind(listen)
            .await
            .with_context(|| format!("binding the DNS delay server to udp {listen}{hint}"))?;
        if !tcp {
            return Ok((udp, None));
        }
        let addr = udp.local_addr()?;
        match TcpListener::bind(addr).await {
            Ok(t) => return Ok((udp, Some(t))),
            Err(e) if listen.port() == 0 && e.kind() == std::io::ErrorKind::AddrInUse => continue,
            Err(e) => {
                return Err(e)
                    .with_context(|| format!("binding the DNS delay server to tcp {addr}{hint}"));
            }
        }
    }
    anyhow::bail!("binding the DNS delay server to {listen}: no port free for both UDP and TCP")
}

/// Holds a query, then sends its answer; the tally follows.
async fn hold_then<F>(mut held: Held, send: F)
where
    F: std::future::Future<Output = bool>,
{
    tokio::time::sleep(held.0.config.hold).await;
    held.2 = send.await;
}

/// A query counted as held: made by [`Shared::try_hold`], released (and
/// counted answered or not) when dropped, even if its task never ran.
struct Held(Arc<Shared>, Ticket, bool);

impl Drop for Held {
    fn drop(&mut self) {
        self.0.tally().release(&self.1, self.2);
    }
}

async fn serve_udp(socket: Arc<UdpSocket>, shared: Arc<Shared>) {
    let mut buf = vec![0u8; 65_535];
    loop {
        let (n, peer) = match socket.recv_from(&mut buf).await {
            Ok(x) => x,
            // ICMP errors from earlier sends surface here; keep serving.
            Err(_) => continue,
        };
        match answer::classify(&buf[..n], &shared) {
            Verdict::Malformed => {}
            Verdict::Now(resp) => {
                let _ = socket.send_to(&resp, peer).await;
            }
            Verdict::Hold(ticket, resp) => {
                let Some(held) = shared.try_hold(ticket, false) else {
                    continue;
                };
                let socket = socket.clone();
                tokio::spawn(hold_then(held, async move {
                    socket.send_to(&resp, peer).await.is_ok()
                }));
            }
        }
    }
}

async fn serve_tcp(listener: TcpListener, shared: Arc<Shared>) {
    // After an error, 10 ms doubling to 1 s (tokio's and hyper's examples
    // sleep 1 s); reset by the next connection.
    let mut pause = Duration::ZERO;
    loop {
        match listener.accept().await {
            Ok((stream, _)) => {
                pause = Duration::ZERO;
                tokio::spawn(serve_tcp_connection(stream, shared.clone()));
            }
            Err(_) => {
                // Out of descriptors (EMFILE) the pending connection stays
                // queued and accept fails again at once: back off, not spin.
                shared.tally().count(|s| s.accept_errors_total += 1);
                pause = (pause * 2).clamp(Duration::from_millis(10), Duration::from_secs(1));
                tokio::time::sleep(pause).await;
            }
        }
    }
}

/// Why a TCP connection's writer stopped.
enum WriterEnd {
    /// Every answer written; the reader has ended.
    Done,
    /// A write failed: the client is gone.
    Broken,
    /// A write blocked past the write timeout: the client does not read.
    Stuck,
}

/// One TCP connection: two-byte-length-framed messages in, answers out in
/// the order their holds end. At most `tcp_max_in_flight` of its queries
/// are held or queued for writing at once: the next message is read only
/// when one of them is done, so a client that pipelines without reading
/// fills its own socket buffers, not the server's memory.
async fn serve_tcp_connection(stream: TcpStream, shared: Arc<Shared>) {
    use tokio::sync::{OwnedSemaphorePermit, Semaphore, mpsc, oneshot};
    let cfg = &shared.config;
    let cap = cfg.tcp_max_in_flight.max(1);
    let (write_timeout, idle_timeout) = (cfg.tcp_write_timeout, cfg.tcp_idle_timeout);
    let (mut rd, mut wr) = stream.into_split();
    let slots = Arc::new(Semaphore::new(cap));
    let (tx, mut rx) = mpsc::channel::<(Vec<u8>, oneshot::Sender<bool>)>(cap);
    let mut writer = tokio::spawn(async move {
        while let Some((resp, done)) = rx.recv().await {
            let mut framed = (resp.len() as u16).to_be_bytes().to_vec();
            framed.extend_from_slice(&resp);
            match tokio::time::timeout(write_timeout, wr.write_all(&framed)).await {
                Ok(Ok(())) => drop(done.send(true)),
                Ok(Err(_)) => return WriterEnd::Broken,
                Err(_) => return WriterEnd::Stuck,
            }
        }
        WriterEnd::Done
    });
    let mut writer_end = None;
    /// One message, or why there is none.
    enum Next {
        Msg(Vec<u8>, OwnedSemaphorePermit),
        Eof,
        Cut,
        Idle,
    }
    loop {
        let read = async {
            let permit = slots
                .clone()
                .acquire_owned()
                .await
                .expect("the semaphore is never closed");
            // Nothing held: the client must send within the idle timeout.
            let idle = slots.available_permits() + 1 == cap;
            let len = if idle {
                match tokio::time::timeout(idle_timeout, rd.read_u16()).await {
                    Err(_) => return Next::Idle,
                    Ok(r) => r,
                }
            } else {
                rd.read_u16().await
            };
            let Ok(len) = len else { return Next::Eof };
            let mut msg = vec![0u8; usize::from(len)];
            match tokio::time::timeout(idle_timeout, rd.read_exact(&mut msg)).await {
                Ok(Ok(_)) => Next::Msg(msg, permit),
                Ok(Err(_)) => Next::Cut,
                Err(_) => Next::Idle,
            }
        };
        let next = tokio::select! {
            n = read => n,
            end = &mut writer => {
                writer_end = Some(end.unwrap_or(WriterEnd::Broken));
                break;
            }
        };
        let (msg, permit) = match next {
            Next::Msg(m, p) => (m, p),
            Next::Eof => break,
            Next::Cut => {
                // The connection ended inside a message.
                shared.tally().count(|s| s.malformed_total += 1);
                break;
            }
            Next::Idle => {
                shared.tally().count(|s| s.tcp_dropped_total += 1);
                writer.abort();
                return;
            }
        };
        match answer::classify(&msg, &shared) {
            Verdict::Malformed => drop(permit),
            Verdict::Now(resp) => {
                let (done, _) = oneshot::channel();
                let _ = tx.send((resp, done)).await;
                drop(permit);
            }
            Verdict::Hold(ticket, resp) => {
                let Some(held) = shared.try_hold(ticket, true) else {
                    drop(permit);
                    continue;
                };
                let tx = tx.clone();
                tokio::spawn(hold_then(held, async move {
                    let (done, sent) = oneshot::channel();
                    let ok = tx.send((resp, done)).await.is_ok() && sent.await.unwrap_or(false);
                    drop(permit);
                    ok
                }));
            }
        }
    }
    drop(tx);
    let end = match writer_end {
        Some(end) => end,
        // The client stopped sending: its held answers are still written.
        None => writer.await.unwrap_or(WriterEnd::Broken),
    };
    if let WriterEnd::Stuck = end {
        shared.tally().count(|s| s.tcp_dropped_total += 1);
    }
}

/// Once a burst is over (nothing held, after something was), gives the
/// heap's free memory back to the system: glibc keeps freed memory of
/// many small allocations (the held queries' tasks) mapped, so without
/// this a flood's peak would stay in the RSS for the life of the process.
async fn trim_when_idle(shared: Arc<Shared>) {
    let mut tick = tokio::time::interval(Duration::from_secs(1));
    let mut trimmed_at = u64::MAX;
    loop {
        tick.tick().await;
        let (held, generation) = {
            let t = shared.tally();
            (t.stats.in_flight_queries, t.generation)
        };
        if held == 0 && generation != trimmed_at {
            trimmed_at = generation;
            heap::trim();
        }
    }
}

/// glibc's `malloc_trim`.
mod heap {
    /// Returns the free memory of every malloc arena to the system.
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    #[allow(unsafe_code)]
    pub(super) fn trim() {
        unsafe extern "C" {
            fn malloc_trim(pad: usize) -> std::ffi::c_int;
        }
        // SAFETY: malloc_trim(3) takes a plain size, has no preconditions,
        // and is thread-safe (it takes each arena's lock); it only releases
        // free pages. Declared with glibc's signature
        // `int malloc_trim(size_t pad)`.
        unsafe {
            malloc_trim(0);
        }
    }

    /// Other C libraries: nothing to do.
    #[cfg(not(all(target_os = "linux", target_env = "gnu")))]
    pub(super) fn trim() {}
}

/// Rewrites the stats file when the counts changed, at most every 100 ms.
async fn write_stats(path: PathBuf, shared: Arc<Shared>) {
    let mut written = u64::MAX;
    let mut last_error: Option<String> = None;
    let mut tick = tokio::time::interval(Duration::from_millis(100));
    loop {
        tick.tick().await;
        let generation = shared.tally().generation;
        if generation != written {
            match shared.stats().write(&path) {
                Ok(()) => {
                    written = generation;
                    last_error = None;
                }
                // Said once, not every 100 ms (out of descriptors, say);
                // retried every 100 ms.
                Err(e) => {
                    let text = format!("{e:#}");
                    if last_error.as_ref() != Some(&text) {
                        eprintln!("sluice dns-delay: {text}");
                        last_error = Some(text);
                    }
                }
            }
        }
    }
}

/// `sluice dns-delay`: serves until Ctrl-C or SIGTERM, then prints the
/// final counts (one JSON line on stdout) and writes the stats file.
pub fn run(config: DelayConfig) -> anyhow::Result<Stats> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .thread_name("dns-delay")
        .enable_all()
        .build()?;
    rt.block_on(async {
        let server = DelayServer::start(config.clone()).await?;
        let addr = server.local_addr();
        let c = &server.shared.config;
        let answers: Vec<String> = c
            .answer_v4
            .map(|a| a.to_string())
            .into_iter()
            .chain(c.answer_v6.map(|a| a.to_string()))
            .collect();
        eprintln!(
            "sluice dns-delay: listening on {addr} ({}), hold {:?}, answer {}, ttl {}{}{}",
            if c.tcp { "udp and tcp" } else { "udp" },
            c.hold,
            if answers.is_empty() { "none".to_string() } else { answers.join(" and ") },
            c.ttl,
            if c.fast.is_empty() {
                String::new()
            } else {
                format!(
                    ", fast {}",
                    c.fast.iter().map(ToString::to_string).collect::<Vec<_>>().join(" ")
                )
            },
            c.stats_file
                .as_ref()
                .map(|p| format!(", stats in {}", p.display()))
                .unwrap_or_default(),
        );
        if !addr.ip().is_loopback() {
            eprintln!("sluice dns-delay: warning: {addr} is not a loopback address; anyone who can reach it gets answers");
        }
        let mut term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
            .context("installing the SIGTERM handler")?;
        tokio::select! {
            r = tokio::signal::ctrl_c() => r.context("waiting for Ctrl-C")?,
            _ = term.recv() => {}
        }
        let stats = server.stop().await;
        println!("{}", serde_json::to_string(&stats)?);
        Ok(stats)
    })
}

/// Parses a duration with sluice's one grammar (`sluice_duration`): a bare
/// number is seconds, `300ms` or `1.5s` say their unit; 0 to 1 h.
///
/// ```
/// use sluice_testnet::dns_delay::parse_duration;
/// use std::time::Duration;
/// assert_eq!(parse_duration("300ms"), Ok(Duration::from_millis(300)));
/// assert_eq!(parse_duration("1.5s"), Ok(Duration::from_millis(1500)));
/// assert_eq!(parse_duration("2"), Ok(Duration::from_secs(2)));
/// assert!(parse_duration("2h").unwrap_err().contains("expected a duration like 300ms, 1.5s or 2 (seconds), 0 to 1h"));
/// ```
pub fn parse_duration(s: &str) -> Result<Duration, String> {
    let bad = || format!("{s:?}: expected a duration like 300ms, 1.5s or 2 (seconds), 0 to 1h");
    sluice_duration::parse_duration(s)
        .ok()
        .filter(|d| *d <= Duration::from_secs(3600))
        .ok_or_else(bad)
}
