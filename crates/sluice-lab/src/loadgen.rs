//! The lab's load generator: closed loop, fixed concurrency, keep-alive
//! connections (hyper's HTTP/1 client), latencies in an HDR histogram,
//! bounded in requests and in time, loopback only.
//!
//! Each of the `concurrency` workers holds one connection and sends its next
//! request when the previous answer has been read in full (a closed loop,
//! like `autocannon -c N` or `wrk`). Workers stop starting requests when the
//! request budget is spent or the duration is up; requests already sent are
//! answered (the server ends the cell idle, so the next cell starts clean)
//! but only answers that arrived within the duration count towards the
//! throughput. A request unanswered `drain` after the duration is given up
//! and counted as an error.
//!
//! Bodies are read and thrown away, never kept: memory does not grow with
//! an answer's size. An answer longer than [`Load::max_body`] (default
//! [`MAX_BODY_BYTES`], the doctor's cap) is cut there, its connection
//! dropped, and counted in [`LoadReport::truncated`]: a server streaming
//! without end cannot keep a worker forever.

use anyhow::Context;
use hdrhistogram::Histogram;
use http_body_util::{BodyExt, Empty};
use hyper::body::Bytes;
use hyper::client::conn::http1::SendRequest;
use serde::Serialize;
use sluice_serve::loopback::{LoopbackUrl, check_url};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// The longest answer body read: 64 MiB (the doctor's cap too).
pub const MAX_BODY_BYTES: u64 = 64 * 1024 * 1024;

/// One load: where, how many at once, how long, how many at most.
#[derive(Debug, Clone)]
pub struct Load {
    /// `http://127.0.0.1:PORT/path` (loopback only).
    pub url: String,
    /// Requests in flight at once (one connection each).
    pub concurrency: usize,
    /// The most requests sent.
    pub max_requests: u64,
    /// How long requests are started.
    pub duration: Duration,
    /// How long after `duration` the last answers are waited for.
    pub drain: Duration,
    /// After a 429, wait what its `Retry-After` says (seconds; at most
    /// until the load's end) before the next request, as a polite client
    /// does. Off: retry at once.
    pub honor_retry_after: bool,
    /// Each worker waits this long after an answer before its next request
    /// (zero: back to back). A latency probe beside a flood uses a pause so
    /// that it measures without adding a flood of its own.
    pub pause: Duration,
    /// The longest body read; past it the answer is cut, counted in
    /// [`LoadReport::truncated`], and its connection dropped.
    pub max_body: u64,
    /// The `Accept-Encoding` header sent with each request (none: the
    /// server sends the body as it is, and a compression middleware
    /// leaves it alone). A browser sends `gzip, deflate, br`.
    pub accept_encoding: Option<&'static str>,
    /// Open loop: requests are started at this many per second, each at
    /// its scheduled time whether or not earlier ones were answered, on as
    /// many connections as are needed (at most `concurrency`; past that a
    /// request waits for one, and its latency counts from when it was due,
    /// so a server that falls that far behind shows the whole wait: no
    /// coordinated omission). Every subject then gets the same requests,
    /// however fast it answers. `None`: closed loop, one request
    /// per connection at a time (with `pause` between).
    pub rate: Option<f64>,
}

impl Load {
    /// `concurrency` workers on `url` for `duration`, at most a million
    /// requests, 30 s of drain.
    pub fn new(url: impl Into<String>, concurrency: usize, duration: Duration) -> Self {
        Load {
            url: url.into(),
            concurrency,
            max_requests: 1_000_000,
            duration,
            drain: Duration::from_secs(30),
            honor_retry_after: false,
            pause: Duration::ZERO,
            max_body: MAX_BODY_BYTES,
            accept_encoding: None,
            rate: None,
        }
    }
}

/// What one load measured.
#[derive(Debug, Clone, Serialize)]
pub struct LoadReport {
    /// The URL.
    pub url: String,
    /// Workers.
    pub concurrency: usize,
    /// Requests sent.
    pub sent: u64,
    /// Answers with a 2xx status.
    pub ok: u64,
    /// Answers by status code (`429` is the admission's refusal).
    pub statuses: BTreeMap<u16, u64>,
    /// Requests that got no answer: refused or broken connections, timeouts.
    pub errors: u64,
    /// Answers cut at [`Load::max_body`] (their connection dropped); their
    /// status is counted, they are not counted as ok.
    pub truncated: u64,
    /// The first error's text, if any.
    pub first_error: Option<String>,
    /// The throughput's window, seconds: the duration, or less if the
    /// request budget ran out first.
    pub window_s: f64,
    /// 2xx answers that arrived within the window, per second of it.
    pub ok_per_s: f64,
    /// All answers within the window, per second.
    pub answers_per_s: f64,
    /// Latency of 2xx answers, ms: median, 99th percentile, most, mean.
    pub p50_ms: f64,
    /// See `p50_ms`.
    pub p99_ms: f64,
    /// See `p50_ms`.
    pub max_ms: f64,
    /// See `p50_ms`.
    pub mean_ms: f64,
    /// 2xx answers slower than 2 ms and than 5 ms (the `/ping` goals):
    /// how many answers a p99 over or under a goal rests on.
    pub over_ms: [(f64, u64); 2],
}

impl LoadReport {
    /// Answers with `status`.
    pub fn status(&self, status: u16) -> u64 {
        self.statuses.get(&status).copied().unwrap_or(0)
    }
}

impl std::fmt::Display for LoadReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}: {} connections, {:.1} s: {} sent, {} ok ({:.1}/s), ",
            self.url, self.concurrency, self.window_s, self.sent, self.ok, self.ok_per_s,
        )?;
        if self.ok == 0 {
            writeln!(f, "no latency (no 2xx answer)")?;
        } else {
            writeln!(
                f,
                "p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
                self.p50_ms, self.p99_ms, self.max_ms
            )?;
        }
        let statuses: Vec<String> = self
            .statuses
            .iter()
            .map(|(s, n)| format!("{s}: {n}"))
            .collect();
        write!(
            f,
            "  statuses {{{}}}, errors {}",
            statuses.join(", "),
            self.errors
        )?;
        if self.truncated > 0 {
            write!(f, ", truncated {} (bodies over the cap)", self.truncated)?;
        }
        if let Some(e) = &self.first_error {
            write!(f, " (first: {e})")?;
        }
        writeln!(f)
    }
}

/// Checks every load before sending anything: loopback URL, concurrency
/// 1..=10 000, at least one request, a duration.
fn check(load: &Load) -> anyhow::Result<LoopbackUrl> {
    let url = check_url(&load.url).map_err(anyhow::Error::msg)?;
    if !(1..=10_000).contains(&load.concurrency) {
        anyhow::bail!(
            "concurrency {} is out of range; expected 1..=10000",
            load.concurrency
        );
    }
    if load.max_requests == 0 {
        anyhow::bail!("a load of 0 requests measures nothing; expected at least 1");
    }
    if let Some(rate) = load.rate
        && !(rate.is_finite() && (0.1..=100_000.0).contains(&rate))
    {
        anyhow::bail!("a rate of {rate} requests/s is out of range; expected 0.1..=100000");
    }
    if load.duration.is_zero() {
        anyhow::bail!("a load of 0 seconds measures nothing; expected a duration");
    }
    Ok(url)
}

/// Runs every load at once (e.g. a `/login` flood and `/ping` beside it) on
/// a one-thread runtime of its own; returns a report per load, in order.
///
/// ```no_run
/// use sluice_lab::loadgen::{Load, run};
/// use std::time::Duration;
///
/// let flood = Load::new("http://127.0.0.1:8080/login", 32, Duration::from_secs(5));
/// let ping = Load::new("http://127.0.0.1:8080/ping", 1, Duration::from_secs(5));
/// let [login, ping] = run(&[flood, ping])?.try_into().unwrap();
/// println!("login {:.0} req/s, ping p99 {:.2} ms, 429s {}", login.ok_per_s, ping.p99_ms, login.status(429));
/// # Ok::<(), anyhow::Error>(())
/// ```
pub fn run(loads: &[Load]) -> anyhow::Result<Vec<LoadReport>> {
    let urls = loads
        .iter()
        .map(check)
        .collect::<anyhow::Result<Vec<_>>>()?;
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("starting the load generator's runtime")?;
    rt.block_on(async {
        let drives = loads
            .iter()
            .zip(urls)
            .map(|(load, url)| drive(load.clone(), url));
        Ok(futures::future::join_all(drives).await)
    })
}

/// Per-worker tallies, merged at the end.
struct Tally {
    latency_us: Histogram<u64>,
    statuses: BTreeMap<u16, u64>,
    ok: u64,
    ok_in_window: u64,
    answers_in_window: u64,
    errors: u64,
    truncated: u64,
    first_error: Option<String>,
    last_answer: Option<Instant>,
}

impl Tally {
    /// Counts an answer read to its end at `status`, sent at `t0`: its
    /// latency if it is a 2xx, and whether it came before `deadline`.
    fn answered(&mut self, status: u16, t0: Instant, deadline: Instant) {
        let done = Instant::now();
        *self.statuses.entry(status).or_default() += 1;
        self.last_answer = Some(done);
        let in_window = done <= deadline;
        if in_window {
            self.answers_in_window += 1;
        }
        if (200..300).contains(&status) {
            self.ok += 1;
            if in_window {
                self.ok_in_window += 1;
            }
            let us = (done - t0).as_micros().max(1) as u64;
            self.latency_us.saturating_record(us);
        }
    }

    /// Adds another worker's counts to these.
    fn merge(&mut self, t: Tally) {
        self.latency_us
            .add(&t.latency_us)
            .expect("histograms of the same bounds add");
        for (s, n) in t.statuses {
            *self.statuses.entry(s).or_default() += n;
        }
        self.ok += t.ok;
        self.ok_in_window += t.ok_in_window;
        self.answers_in_window += t.answers_in_window;
        self.errors += t.errors;
        self.truncated += t.truncated;
        if self.first_error.is_none() {
            self.first_error = t.first_error;
        }
        self.last_answer = self.last_answer.max(t.last_answer);
    }

    fn new() -> Tally {
        Tally {
            latency_us: Histogram::new_with_bounds(1, 3_600_000_000, 3)
                .expect("valid histogram bounds"),
            statuses: BTreeMap::new(),
            ok: 0,
            ok_in_window: 0,
            answers_in_window: 0,
            errors: 0,
            truncated: 0,
            first_error: None,
            last_answer: None,
        }
    }

    fn error(&mut self, what: String) {
        self.errors += 1;
        self.first_error.get_or_insert(what);
    }
}

/// One connection's closed loop: request, answer, (pause), until the
/// load's end or its count is spent.
async fn worker(
    load: &Load,
    url: &LoopbackUrl,
    sent: &AtomicU64,
    deadline: Instant,
    hard_deadline: Instant,
) -> Tally {
    let mut t = Tally::new();
    let mut conn: Option<SendRequest<Empty<Bytes>>> = None;
    loop {
        if Instant::now() >= deadline {
            break;
        }
        // Relaxed: a ticket counter; nothing else is ordered by it.
        if sent.fetch_add(1, Ordering::Relaxed) >= load.max_requests {
            sent.fetch_sub(1, Ordering::Relaxed);
            break;
        }
        let once = tokio::time::timeout_at(
            hard_deadline.into(),
            request(url, &mut conn, deadline, load, None, &mut t),
        );
        match once.await {
            Err(_) => {
                t.error(format!(
                    "no answer within {:?} after the load's end",
                    load.drain
                ));
                break;
            }
            Ok(Some(wait)) if load.honor_retry_after => {
                let until = (Instant::now() + wait).min(deadline);
                tokio::time::sleep_until(until.into()).await;
            }
            Ok(_) if !load.pause.is_zero() => {
                let until = (Instant::now() + load.pause).min(deadline);
                tokio::time::sleep_until(until.into()).await;
            }
            Ok(_) => {}
        }
    }
    t
}

/// An open loop (`Load::rate`): request `i` is due at `start + i / rate`;
/// each runs on an idle connection of the load's, or a new one, at most
/// `concurrency` at once.
async fn open_loop(
    load: &Load,
    url: &LoopbackUrl,
    rate: f64,
    start: Instant,
    deadline: Instant,
    hard_deadline: Instant,
) -> (Tally, u64) {
    let idle: std::sync::Mutex<Vec<SendRequest<Empty<Bytes>>>> = std::sync::Mutex::new(Vec::new());
    let places = tokio::sync::Semaphore::new(load.concurrency);
    let mut sent = 0u64;
    let mut requests = futures::stream::FuturesUnordered::new();
    let mut total = Tally::new();
    let one = |due: Instant| {
        let (idle, places) = (&idle, &places);
        async move {
            let mut t = Tally::new();
            // A request that had to wait for a place (every connection busy
            // with an earlier one: the server fell behind) counts from when
            // it was due; one sent at once counts from its send, so that the
            // generator's own timer (tokio's, to the millisecond) is not
            // counted as the server's latency.
            let (_place, since) = match places.try_acquire() {
                Ok(place) => (place, None),
                Err(_) => match places.acquire().await {
                    Ok(place) => (place, Some(due)),
                    Err(_) => return t,
                },
            };
            let mut conn = sluice::sync::lock(idle).pop();
            let once = tokio::time::timeout_at(
                hard_deadline.into(),
                request(url, &mut conn, deadline, load, since, &mut t),
            );
            if once.await.is_err() {
                t.error(format!(
                    "no answer within {:?} after the load's end",
                    load.drain
                ));
            } else if let Some(c) = conn {
                sluice::sync::lock(idle).push(c);
            }
            t
        }
    };
    loop {
        let due = start + Duration::from_secs_f64(sent as f64 / rate);
        if due >= deadline || sent >= load.max_requests {
            break;
        }
        // Answers that came meanwhile are tallied while waiting for `due`.
        let sleep = tokio::time::sleep_until(due.into());
        tokio::pin!(sleep);
        loop {
            tokio::select! {
                () = &mut sleep => break,
                Some(t) = futures::StreamExt::next(&mut requests) => total.merge(t),
            }
        }
        requests.push(one(due));
        sent += 1;
    }
    while let Some(t) = futures::StreamExt::next(&mut requests).await {
        total.merge(t);
    }
    (total, sent)
}

async fn drive(load: Load, url: LoopbackUrl) -> LoadReport {
    let start = Instant::now();
    let deadline = start + load.duration;
    let hard_deadline = deadline + load.drain;
    let (total, sent) = match load.rate {
        Some(rate) => open_loop(&load, &url, rate, start, deadline, hard_deadline).await,
        None => {
            let sent = AtomicU64::new(0);
            let workers =
                (0..load.concurrency).map(|_| worker(&load, &url, &sent, deadline, hard_deadline));
            let tallies = futures::future::join_all(workers).await;
            let mut total = Tally::new();
            for t in tallies {
                total.merge(t);
            }
            (total, sent.load(Ordering::Relaxed))
        }
    };
    // Count-bounded loads that finished early: the window is up to the last
    // answer, not the whole duration.
    let window = match total.last_answer {
        Some(last) if last < deadline => last - start,
        _ => load.duration,
    }
    .as_secs_f64()
    .max(1e-9);
    let h = &total.latency_us;
    let ms = |us: u64| us as f64 / 1e3;
    let empty = h.is_empty();
    let quantile = |q: f64| {
        if empty {
            f64::NAN
        } else {
            ms(h.value_at_quantile(q))
        }
    };
    LoadReport {
        url: load.url,
        concurrency: load.concurrency,
        sent,
        ok: total.ok,
        statuses: total.statuses,
        errors: total.errors,
        truncated: total.truncated,
        first_error: total.first_error,
        window_s: window,
        ok_per_s: total.ok_in_window as f64 / window,
        answers_per_s: total.answers_in_window as f64 / window,
        p50_ms: quantile(0.5),
        p99_ms: quantile(0.99),
        max_ms: if empty { f64::NAN } else { ms(h.max()) },
        mean_ms: if empty { f64::NAN } else { h.mean() / 1e3 },
        over_ms: [2.0, 5.0].map(|g| (g, over(h, g))),
    }
}

/// How many latencies in `h` (µs) are above `goal_ms`.
fn over(h: &Histogram<u64>, goal_ms: f64) -> u64 {
    let above = (goal_ms * 1e3) as u64;
    h.iter_recorded()
        .filter(|v| v.value_iterated_to() > above)
        .map(|v| v.count_at_value())
        .sum()
}

/// Makes the worker's connection ready for a request, opening one if
/// there is none or it closed; whether it is (errors are tallied).
async fn open(
    url: &LoopbackUrl,
    conn: &mut Option<SendRequest<Empty<Bytes>>>,
    t: &mut Tally,
) -> bool {
    if conn.as_ref().is_none_or(|c| c.is_closed()) {
        match connect(url).await {
            Ok(c) => *conn = Some(c),
            Err(e) => {
                t.error(e);
                // A refused connection fails at once: do not spin on it.
                tokio::time::sleep(Duration::from_millis(1)).await;
                return false;
            }
        }
    }
    let Some(sender) = conn.as_mut() else {
        return false;
    };
    if let Err(e) = sender.ready().await {
        *conn = None;
        t.error(format!("connection to {}: {e}", url.url));
        return false;
    }
    true
}

/// Why an answer's body was not read to its end.
enum Unread {
    /// It is longer than the worker reads.
    TooLong,
    /// Reading it failed.
    Failed(String),
}

/// Reads an answer's body and drops it, frame by frame: nothing of it is
/// kept, and no more than `max_body` bytes are read.
async fn drain(mut body: hyper::body::Incoming, max_body: u64) -> Result<(), Unread> {
    let mut read = 0u64;
    while let Some(frame) = body.frame().await {
        let frame = frame.map_err(|e| Unread::Failed(e.to_string()))?;
        read += frame.data_ref().map_or(0, |d| d.len() as u64);
        if read > max_body {
            return Err(Unread::TooLong);
        }
    }
    Ok(())
}

/// One request on the worker's connection (opening one if needed);
/// returns the `Retry-After` of a 429.
async fn request(
    url: &LoopbackUrl,
    conn: &mut Option<SendRequest<Empty<Bytes>>>,
    deadline: Instant,
    load: &Load,
    scheduled: Option<Instant>,
    t: &mut Tally,
) -> Option<Duration> {
    let max_body = load.max_body;
    if !open(url, conn, t).await {
        return None;
    }
    let sender = conn.as_mut()?;
    let mut req = hyper::Request::get(url.path.as_str())
        .header(hyper::header::HOST, format!("{}:{}", url.host, url.port));
    if let Some(encodings) = load.accept_encoding {
        req = req.header(hyper::header::ACCEPT_ENCODING, encodings);
    }
    let req = req
        .body(Empty::<Bytes>::new())
        .expect("a GET with a checked path builds");
    // An open loop's request counts from when it was due.
    let t0 = scheduled.unwrap_or_else(Instant::now);
    let resp = match sender.send_request(req).await {
        Ok(r) => r,
        Err(e) => {
            *conn = None;
            t.error(format!("request to {}: {e}", url.url));
            return None;
        }
    };
    let status = resp.status().as_u16();
    let retry_after = (status == 429)
        .then(|| resp.headers().get(hyper::header::RETRY_AFTER))
        .flatten()
        .and_then(|v| v.to_str().ok()?.trim().parse::<u64>().ok())
        .map(Duration::from_secs);
    match drain(resp.into_body(), max_body).await {
        Ok(()) => {}
        Err(Unread::TooLong) => {
            *conn = None;
            *t.statuses.entry(status).or_default() += 1;
            t.truncated += 1;
            t.first_error.get_or_insert(format!(
                "an answer of {} is longer than {max_body} bytes: cut there and its connection dropped",
                url.url
            ));
            return None;
        }
        Err(Unread::Failed(e)) => {
            *conn = None;
            t.error(format!("reading the answer of {}: {e}", url.url));
            return None;
        }
    }
    t.answered(status, t0, deadline);
    retry_after
}

async fn connect(url: &LoopbackUrl) -> Result<SendRequest<Empty<Bytes>>, String> {
    let stream = tokio::net::TcpStream::connect((url.ip, url.port))
        .await
        .map_err(|e| format!("connecting to {}: {e}", url.url))?;
    let _ = stream.set_nodelay(true);
    let (sender, connection) =
        hyper::client::conn::http1::handshake(hyper_util::rt::TokioIo::new(stream))
            .await
            .map_err(|e| format!("HTTP handshake with {}: {e}", url.url))?;
    tokio::spawn(async move {
        // Its errors surface on the sender.
        let _ = connection.await;
    });
    Ok(sender)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_before_sending() {
        let err = run(&[Load::new("http://10.0.0.1:80/", 1, Duration::from_secs(1))]).unwrap_err();
        assert!(err.to_string().contains("not a loopback address"), "{err}");
        let mut l = Load::new("http://127.0.0.1:9/", 0, Duration::from_secs(1));
        assert_eq!(
            run(&[l.clone()]).unwrap_err().to_string(),
            "concurrency 0 is out of range; expected 1..=10000"
        );
        l.concurrency = 1;
        l.max_requests = 0;
        assert!(run(&[l]).is_err());
    }

    #[test]
    fn counts_every_answer_of_a_local_server() {
        // A tiny server on loopback: answers 200 to even requests, 429 to odd.
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let server = std::thread::spawn(move || {
            use std::io::{BufRead, BufReader, Write};
            let (stream, _) = listener.accept().unwrap();
            let mut reader = BufReader::new(stream.try_clone().unwrap());
            let mut out = stream;
            let mut n = 0;
            let mut line = String::new();
            while n < 10 {
                line.clear();
                if reader.read_line(&mut line).unwrap() == 0 {
                    break;
                }
                if line == "\r\n" {
                    let status = if n % 2 == 0 {
                        "200 OK"
                    } else {
                        "429 Too Many Requests"
                    };
                    write!(out, "HTTP/1.1 {status}\r\ncontent-length: 2\r\n\r\nok").unwrap();
                    n += 1;
                }
            }
        });
        let mut load = Load::new(
            format!("http://127.0.0.1:{port}/x"),
            1,
            Duration::from_secs(60),
        );
        load.max_requests = 10;
        let r = run(&[load]).unwrap().remove(0);
        server.join().unwrap();
        assert_eq!(r.sent, 10);
        assert_eq!(r.ok, 5);
        assert_eq!(r.status(429), 5);
        assert_eq!(r.errors, 0);
        assert!(r.p99_ms >= r.p50_ms);
    }

    #[test]
    fn an_endless_body_is_cut_at_the_cap_and_counted() {
        // A server that answers every request with a chunked body that never ends.
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(mut s) = stream else { return };
                std::thread::spawn(move || {
                    use std::io::{Read, Write};
                    let mut head = [0u8; 1024];
                    let _ = s.read(&mut head);
                    let _ = s.write_all(b"HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n");
                    let chunk = vec![b'x'; 1 << 20];
                    let mut framed = format!("{:x}\r\n", chunk.len()).into_bytes();
                    framed.extend_from_slice(&chunk);
                    framed.extend_from_slice(b"\r\n");
                    while s.write_all(&framed).is_ok() {}
                });
            }
        });
        let mut load = Load::new(
            format!("http://127.0.0.1:{port}/endless"),
            2,
            Duration::from_secs(60),
        );
        load.max_requests = 4;
        load.max_body = 8 << 20;
        let r = run(&[load]).unwrap().remove(0);
        assert_eq!((r.sent, r.truncated, r.ok), (4, 4, 0));
        assert_eq!(r.status(200), 4);
        assert!(
            r.first_error
                .as_deref()
                .unwrap()
                .contains("longer than 8388608 bytes"),
            "{r:?}"
        );
        let text = r.to_string();
        assert!(text.contains("no latency (no 2xx answer)"), "{text}");
        assert!(text.contains("truncated 4"), "{text}");
        assert!(!text.contains("NaN"), "{text}");
    }
}
