//! `--prometheus ADDR`: an exporter. `GET /metrics` answers the latest
//! window in Prometheus' text format (encoded with prometheus-client);
//! every series carries `pid`. Each window also prints its text line.
//!
//! | metric | kind | meaning |
//! |--------|------|---------|
//! | `sluice_scope_pool_threads` | gauge | pool threads found |
//! | `sluice_scope_pool_busy_threads` | gauge | mean busy pool threads, last window |
//! | `sluice_scope_pool_utilization_ratio` | gauge | busy / threads, last window |
//! | `sluice_scope_pool_saturation_ratio` | gauge | share of samples with every thread busy |
//! | `sluice_scope_loop_utilization_ratio` | gauge | share of samples the loop was outside epoll |
//! | `sluice_scope_pool_queue_depth` | gauge | mean queued requests (when readable) |
//! | `sluice_scope_pool_slow_io_queue_depth` | gauge | of them, mean slow I/O (`dns.lookup`) waiting (when readable) |
//! | `sluice_scope_pool_slow_io_running` | gauge | mean slow I/O running, libuv's `slow_io_work_running` (when readable) |
//! | `sluice_scope_pool_slow_io_limit` | gauge | libuv's limit on threads running slow I/O, `(n + 1) / 2` |
//! | `sluice_scope_pool_slow_io_throttled_ratio` | gauge | share of readings with slow I/O waiting at that limit (when readable) |
//! | `sluice_scope_pool_saturated_seconds_total` | counter | time every pool thread was busy |
//! | `sluice_scope_pool_busy_thread_seconds_total` | counter | thread-seconds busy |
//! | `sluice_scope_loop_busy_seconds_total` | counter | time the loop was busy |
//! | `sluice_scope_pool_cpu_seconds_total` | counter | CPU time of the pool threads (when readable) |
//! | `sluice_scope_loop_cpu_seconds_total` | counter | CPU time of the loop thread (when readable) |
//! | `sluice_scope_sampler_cpu_seconds_total` | counter | CPU time of scope's own sampling thread |
//! | `sluice_scope_verdict` | gauge | 1 for the last window's verdict, 0 for the others (`verdict` label) |
//! | `sluice_scope_lane_threads` | gauge | sluice's lane threads (the npm package's), per `lane`; only in a process that has them |
//! | `sluice_scope_lane_busy_threads` | gauge | mean busy threads of the lane, last window |
//! | `sluice_scope_lane_saturation_ratio` | gauge | share of samples with every thread of the lane busy |
//! | `sluice_scope_lane_queue_depth` | gauge | mean tasks waiting in the lane's queue, from the package's gauge block (absent where it was not read) |
//! | `sluice_scope_lane_verdict` | gauge | 1 for the lane's verdict (`healthy`, `pool-saturated`), 0 for the other |
//! | `sluice_scope_sampler_cpu_ratio` | gauge | scope's own sampling thread, cores |
//! | `sluice_scope_probe_submitted_total` etc. | counter | probe mode, per libuv kind as `lane` (`cpu`, `fastio`, `slowio`: sluice's lane names) |
//! | `sluice_scope_queue_wait_seconds` | histogram | probe mode: each request's queue wait (submit to start), per `lane`; buckets 100 µs to 10 s |
//! | `sluice_scope_run_time_seconds` | histogram | probe mode: each request's run time on its pool thread, per `lane` |
//!
//! The ratios and means of the last window stay beside the counters and
//! histograms (the lab reads them); rates over any range come from the
//! counters (`rate(sluice_scope_pool_cpu_seconds_total[1m])` is cores) and
//! quantiles from the histograms, as for `sluice serve`'s
//! `sluice_queue_wait_seconds`.
//!
//! The page is OpenMetrics text and is served as such
//! (`application/openmetrics-text; version=1.0.0`). The `verdict` label
//! takes the tokens of `sluice_health::Verdict::TOKENS`, joined by `+` when two
//! hold; `sluice serve`'s `sluice_verdict` and `sluice doctor` use the same.

use super::Face;
use super::text;
use crate::error::ScopeError;
use crate::probe::KindReport;
use crate::probe::stats::TimeBuckets;
use crate::sample::session::Session;
use crate::verdict::aggregate::Report;
use crate::verdict::doctor::Verdict;
use prometheus_client::encoding::{EncodeMetric, MetricEncoder};
use prometheus_client::metrics::MetricType;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::registry::{Metric, Registry};
use std::net::SocketAddr;
use std::sync::atomic::AtomicU64;
use std::sync::{Arc, Mutex};

pub(crate) type Labels = Vec<(String, String)>;
pub(super) type FGauge = Gauge<f64, AtomicU64>;
type FCounter = Counter<f64, AtomicU64>;

/// Counters summed over windows.
#[derive(Debug, Default, Clone)]
pub(crate) struct Totals {
    saturated_s: f64,
    busy_thread_s: f64,
    loop_busy_s: f64,
    /// CPU seconds of the pool threads (`None` while never readable).
    pool_cpu_s: Option<f64>,
    /// CPU seconds of the loop thread (`None` while never readable).
    loop_cpu_s: Option<f64>,
    /// CPU seconds of scope's sampling thread.
    sampler_cpu_s: f64,
    /// Per kind: submitted, started, completed, wait seconds, run seconds.
    probe: [[f64; 5]; 3],
    /// Per kind: queue waits and run times, bucketed.
    probe_wait: [TimeBuckets; 3],
    probe_run: [TimeBuckets; 3],
}

/// One histogram family from bucketed durations, one series per label set.
#[derive(Debug)]
struct Histograms(Vec<(Labels, TimeBuckets)>);

impl EncodeMetric for Histograms {
    fn encode(&self, mut encoder: MetricEncoder<'_>) -> Result<(), std::fmt::Error> {
        for (labels, b) in &self.0 {
            encoder.encode_family(labels)?.encode_histogram::<Labels>(
                b.sum_s,
                b.count(),
                &b.per_bucket(),
                None,
            )?;
        }
        Ok(())
    }

    fn metric_type(&self) -> MetricType {
        MetricType::Histogram
    }
}

/// The exporter: one thread running one tokio loop that serves the latest
/// encoding, every connection a task on it (no thread per connection), with
/// `sluice serve`'s limits ([`sluice_conn`]: header-read timeout, idle
/// timeout, a connection cap from the open-file limit, 64 KiB of request
/// head). Run as root, the thread sheds root first (see [`shed_root`]).
pub(crate) struct Exporter {
    addr: SocketAddr,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
    page: Arc<Mutex<String>>,
    totals: Totals,
    text: text::Text,
}

/// Who speaks in the exporter's lines.
const WHO: &str = "sluice scope";

impl Exporter {
    /// Listens on `addr`.
    pub(crate) fn start(addr: SocketAddr) -> Result<Exporter, ScopeError> {
        let listen_error = |e: std::io::Error| ScopeError::Listen {
            addr: addr.to_string(),
            message: e.to_string(),
        };
        let listener = std::net::TcpListener::bind(addr).map_err(listen_error)?;
        listener.set_nonblocking(true).map_err(listen_error)?;
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| ScopeError::io("starting the exporter's event loop", e))?;
        let page = Arc::new(Mutex::new(String::from(
            "# sluice scope: no window completed yet\n",
        )));
        let (stop, stopped) = tokio::sync::oneshot::channel();
        let thread = {
            let page = Arc::clone(&page);
            std::thread::Builder::new()
                .name("scope-prometheus".into())
                .spawn(move || {
                    if let Err(e) = shed_root() {
                        eprintln!("{WHO}: the exporter keeps root's rights: {e}");
                    }
                    rt.block_on(serve(listener, page, stopped));
                })
                .map_err(|e| ScopeError::io("starting the exporter thread", e))?
        };
        Ok(Exporter {
            addr,
            stop: Some(stop),
            thread: Some(thread),
            page,
            totals: Totals::default(),
            text: text::Text::default(),
        })
    }
}

impl Exporter {
    /// Replaces the page `/metrics` answers.
    pub(crate) fn set_page(&self, page: String) {
        if let Ok(mut p) = self.page.lock() {
            *p = page;
        }
    }
}

/// The user and group the exporter thread runs as when scope runs as
/// root: `nobody` / `nogroup` (65534).
const UNPRIVILEGED: u32 = 65534;

/// Run as root, the exporter thread drops to `nobody` (65534) with no
/// supplementary groups and no capabilities, for itself only: Linux keeps
/// credentials per thread, and rustix's `set_thread_res_*` are the raw
/// system calls (glibc's `setuid` would change every thread). The sampling
/// threads keep root, which reading other users' `/proc/PID/mem` and
/// `syscall` needs (`CAP_SYS_PTRACE`); the exporter needs nothing once its
/// socket is bound, so a flaw in the HTTP code reaches a thread that can
/// read or signal nothing of root's. The kernel marks the process
/// non-dumpable when a thread's uid changes; it is marked dumpable again
/// (scope's own `/proc` files stay readable to its user, as before).
///
/// Not root: nothing to shed (`Ok`).
fn shed_root() -> std::io::Result<()> {
    use rustix::thread::{set_thread_groups, set_thread_res_gid, set_thread_res_uid};
    if !rustix::process::geteuid().is_root() {
        return Ok(());
    }
    // 65534 is nobody/nogroup on Debian and most distributions; no lookup
    // of /etc/passwd is needed to drop to it.
    let uid = rustix::process::Uid::from_raw(UNPRIVILEGED);
    let gid = rustix::process::Gid::from_raw(UNPRIVILEGED);
    set_thread_groups(&[])?;
    set_thread_res_gid(gid, gid, gid)?;
    // Leaving uid 0 clears this thread's capabilities (no SECBIT_KEEP_CAPS).
    set_thread_res_uid(uid, uid, uid)?;
    rustix::process::set_dumpable_behavior(rustix::process::DumpableBehavior::Dumpable)?;
    Ok(())
}

/// The accept loop: each connection admitted under the limits is a task;
/// ends when `stopped` fires (the exporter dropped).
async fn serve(
    listener: std::net::TcpListener,
    page: Arc<Mutex<String>>,
    mut stopped: tokio::sync::oneshot::Receiver<()>,
) {
    use sluice_conn::{AcceptBackoff, Limits, Registry};
    let listener = match tokio::net::TcpListener::from_std(listener) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("{WHO}: the exporter cannot serve: {e}");
            return;
        }
    };
    let registry = Arc::new(Registry::new(Limits::defaults(), WHO, None));
    let service = hyper::service::service_fn(move |req: hyper::Request<hyper::body::Incoming>| {
        let resp = answer(req.uri().path(), &page);
        async move { Ok::<_, std::convert::Infallible>(resp) }
    });
    let mut tasks = tokio::task::JoinSet::new();
    let mut backoff = AcceptBackoff::default();
    loop {
        tokio::select! {
            biased;
            _ = &mut stopped => break,
            Some(_) = tasks.join_next(), if !tasks.is_empty() => {}
            accepted = listener.accept() => {
                let took = sluice_conn::spawn_accepted(accepted, &mut backoff, &service, &registry, &mut tasks);
                if let Err((_, pause)) = took {
                    tokio::time::sleep(pause).await;
                }
            }
        }
    }
    tasks.shutdown().await;
}

/// `/metrics`: the page; anything else 404.
fn answer(
    path: &str,
    page: &Mutex<String>,
) -> hyper::Response<http_body_util::Full<hyper::body::Bytes>> {
    let (status, kind, body) = if path == "/metrics" {
        (
            200,
            "application/openmetrics-text; version=1.0.0; charset=utf-8",
            page.lock().map(|p| p.clone()).unwrap_or_default(),
        )
    } else {
        (
            404,
            "text/plain; charset=utf-8",
            "sluice scope: metrics are at /metrics\n".to_string(),
        )
    };
    let mut resp = hyper::Response::new(http_body_util::Full::new(body.into()));
    *resp.status_mut() = hyper::StatusCode::from_u16(status).expect("a valid status");
    resp.headers_mut().insert(
        hyper::header::CONTENT_TYPE,
        hyper::header::HeaderValue::from_static(kind),
    );
    resp
}

impl Drop for Exporter {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// A series of one value per process: its name (after `sluice_scope_`),
/// its help, and how to read it (`None`: not read for this process).
pub(super) type Series<T> = (&'static str, &'static str, fn(&T) -> Option<f64>);

/// The last window's gauges, in the page's order.
const GAUGES: &[Series<Report>] = &[
    ("pool_threads", "libuv pool threads found", |r| {
        Some(r.pool_size as f64)
    }),
    (
        "pool_busy_threads",
        "Mean busy pool threads in the last window",
        |r| Some(r.busy_threads),
    ),
    (
        "pool_utilization_ratio",
        "Busy pool threads / pool threads, last window",
        |r| Some(r.utilization_pct / 100.0),
    ),
    (
        "pool_saturation_ratio",
        "Share of samples with every pool thread busy, last window",
        |r| Some(r.saturation_pct / 100.0),
    ),
    (
        "loop_utilization_ratio",
        "Share of samples with the loop thread outside its epoll wait, last window",
        |r| Some(r.loop_utilization_pct / 100.0),
    ),
    (
        "pool_queue_depth",
        "Mean requests waiting in libuv's queue, last window",
        |r| r.queue_depth,
    ),
    (
        "pool_slow_io_queue_depth",
        "Mean slow I/O requests (dns.lookup) waiting in libuv's slow_io_pending_wq, last window",
        |r| r.slow_queue_depth,
    ),
    (
        "pool_slow_io_running",
        "Mean slow I/O requests running on pool threads (libuv's slow_io_work_running), last window",
        |r| r.slow_io_running,
    ),
    (
        "pool_slow_io_limit",
        "libuv's limit on pool threads running slow I/O: (threads + 1) / 2",
        |r| Some(r.slow_io_limit as f64),
    ),
    (
        "pool_slow_io_throttled_ratio",
        "Share of queue readings with slow I/O waiting while the slow I/O running stood at libuv's limit, last window",
        |r| r.slow_io_throttled_pct.map(|p| p / 100.0),
    ),
    (
        "sampler_cpu_ratio",
        "CPU of scope's sampling thread, in cores",
        |r| Some(r.sampler_cpu_pct / 100.0),
    ),
];

/// The counters over every window, in the page's order.
const COUNTERS: &[Series<Totals>] = &[
    (
        "pool_saturated_seconds",
        "Time every pool thread was busy",
        |t| Some(t.saturated_s),
    ),
    (
        "pool_busy_thread_seconds",
        "Pool thread-seconds busy",
        |t| Some(t.busy_thread_s),
    ),
    (
        "loop_busy_seconds",
        "Time the loop thread was outside its epoll wait",
        |t| Some(t.loop_busy_s),
    ),
    ("pool_cpu_seconds", "CPU time of the pool threads", |t| {
        t.pool_cpu_s
    }),
    ("loop_cpu_seconds", "CPU time of the loop thread", |t| {
        t.loop_cpu_s
    }),
    (
        "sampler_cpu_seconds",
        "CPU time of scope's own sampling thread",
        |t| Some(t.sampler_cpu_s),
    ),
];

/// Probe mode's counters per kind, in the order of [`Totals::probe`]'s
/// figures.
const PROBE_COUNTERS: [(&str, &str); 5] = [
    ("probe_submitted", "Pool requests submitted"),
    ("probe_started", "Pool requests a thread started"),
    ("probe_completed", "Pool requests that ran"),
    (
        "probe_queue_wait_seconds",
        "Summed queue wait of started requests",
    ),
    ("probe_run_seconds", "Summed run time of completed requests"),
];

/// libuv's kinds in sluice's lane vocabulary (`lane="fastio"`), in the
/// order of [`Totals::probe`].
const LANES: [&str; 3] = ["cpu", "fastio", "slowio"];

/// The text page of one window: gauges from `r`, counters from `t`.
pub(super) fn encode(r: &Report, t: &Totals) -> String {
    let pid: Labels = vec![("pid".into(), r.pid.to_string())];
    encode_many(&[(pid, r, t)])
}

/// `labels` and one more label.
pub(super) fn with(labels: &Labels, key: &str, value: &str) -> Labels {
    let mut l = labels.clone();
    l.push((key.into(), value.into()));
    l
}

/// The text page of many processes' last windows, each series labelled
/// with its process's labels (`pid`, and for `--all` `comm`, `container`,
/// `pod`); a series read for none of them is left out.
pub(crate) fn encode_many(entries: &[(Labels, &Report, &Totals)]) -> String {
    let mut reg = Registry::with_prefix("sluice_scope");
    for (name, help, read) in GAUGES {
        let values = entries.iter().map(|(labels, r, _)| (labels, read(r)));
        register_present(&mut reg, name, help, values, |g: &FGauge, x| {
            g.set(x);
        });
    }
    for (name, help, read) in COUNTERS {
        let values = entries.iter().map(|(labels, _, t)| (labels, read(t)));
        register_present(&mut reg, name, help, values, |c: &FCounter, x| {
            c.inc_by(x);
        });
    }
    register_verdicts(&mut reg, entries);
    if entries.iter().any(|(_, r, _)| !r.sluice_lanes.is_empty()) {
        super::lane_series::register_lanes(&mut reg, entries);
    }
    if entries.iter().any(|(_, r, _)| r.probe.is_some()) {
        register_probes(&mut reg, entries);
    }
    let mut out = String::new();
    prometheus_client::encoding::text::encode(&mut out, &reg).expect("writing to a String");
    out
}

/// Registers `name` with a series for each process that has a value, set
/// by `record`; a metric no process has a value for is left out.
pub(super) fn register_present<'a, M>(
    reg: &mut Registry,
    name: &str,
    help: &str,
    values: impl Iterator<Item = (&'a Labels, Option<f64>)>,
    record: impl Fn(&M, f64),
) where
    M: Default,
    Family<Labels, M>: Metric,
{
    let f = Family::<Labels, M>::default();
    let mut any = false;
    for (labels, value) in values {
        if let Some(x) = value {
            record(&f.get_or_create(labels), x);
            any = true;
        }
    }
    if any {
        reg.register(name, help, f);
    }
}

/// `verdict`: 1 for the last window's verdict, 0 for the others.
fn register_verdicts(reg: &mut Registry, entries: &[(Labels, &Report, &Totals)]) {
    let verdicts = Family::<Labels, FGauge>::default();
    for (labels, r, _) in entries {
        for v in Verdict::ALL {
            verdicts
                .get_or_create(&with(labels, "verdict", v.as_str()))
                .set(if v == r.verdict { 1.0 } else { 0.0 });
        }
    }
    reg.register(
        "verdict",
        "The doctor's verdict on the last window (1: this one)",
        verdicts,
    );
}

/// Probe mode's counters and histograms, per lane.
fn register_probes(reg: &mut Registry, entries: &[(Labels, &Report, &Totals)]) {
    for (i, (name, help)) in PROBE_COUNTERS.iter().enumerate() {
        let f = Family::<Labels, FCounter>::default();
        for (labels, _, t) in entries {
            for (k, lane) in LANES.iter().enumerate() {
                f.get_or_create(&with(labels, "lane", lane))
                    .inc_by(t.probe[k][i]);
            }
        }
        reg.register(*name, *help, f);
    }
    let histograms = |of: fn(&Totals) -> &[TimeBuckets; 3]| {
        let mut series = Vec::new();
        for (labels, _, t) in entries {
            for (k, lane) in LANES.iter().enumerate() {
                series.push((with(labels, "lane", lane), of(t)[k].clone()));
            }
        }
        Histograms(series)
    };
    reg.register(
        "queue_wait_seconds",
        "Queue wait of each pool request, submit to start (probe mode)",
        histograms(|t| &t.probe_wait),
    );
    reg.register(
        "run_time_seconds",
        "Run time of each pool request on its thread (probe mode)",
        histograms(|t| &t.probe_run),
    );
}

impl Totals {
    /// Adds window `r`.
    pub(crate) fn add(&mut self, r: &Report) {
        self.saturated_s += r.saturation_pct / 100.0 * r.window_s;
        self.busy_thread_s += r.busy_threads * r.window_s;
        self.loop_busy_s += r.loop_utilization_pct / 100.0 * r.window_s;
        let cpu_s = |pct: f64| pct / 100.0 * r.window_s;
        if let Some(p) = r.pool_cpu_pct {
            *self.pool_cpu_s.get_or_insert(0.0) += cpu_s(p);
        }
        if let Some(p) = r.loop_cpu_pct {
            *self.loop_cpu_s.get_or_insert(0.0) += cpu_s(p);
        }
        self.sampler_cpu_s += cpu_s(r.sampler_cpu_pct);
        if let Some(p) = &r.probe {
            for (k, kind) in [&p.cpu, &p.fast_io, &p.slow_io].into_iter().enumerate() {
                add_kind(&mut self.probe[k], kind);
                self.probe_wait[k].add(&kind.wait_buckets);
                self.probe_run[k].add(&kind.run_buckets);
            }
        }
    }
}

fn add_kind(acc: &mut [f64; 5], k: &KindReport) {
    acc[0] += k.submitted as f64;
    acc[1] += k.started as f64;
    acc[2] += k.completed as f64;
    acc[3] += k.wait_buckets.sum_s;
    acc[4] += k.run_buckets.sum_s;
}

impl Face for Exporter {
    fn start(&mut self, session: &Session) -> Result<(), ScopeError> {
        eprintln!("sluice scope: serving http://{}/metrics", self.addr);
        self.text.start(session)
    }

    fn show(&mut self, r: &Report, session: &Session) -> Result<(), ScopeError> {
        self.totals.add(r);
        let page = encode(r, &self.totals);
        if let Ok(mut p) = self.page.lock() {
            *p = page;
        }
        self.text.show(r, session)
    }

    fn finish(&mut self) -> Result<bool, ScopeError> {
        Ok(true)
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    /// One 1-second window of process 42: both pool threads on CPU.
    pub(in crate::face) fn window_report() -> Report {
        crate::verdict::aggregate::one_sample_report(1.0, 42, 2)
    }

    #[test]
    fn the_page_has_every_gauge_and_one_verdict() {
        let r = window_report();
        let page = encode(
            &r,
            &Totals {
                saturated_s: 3.0,
                ..Totals::default()
            },
        );
        for line in [
            "sluice_scope_pool_threads{pid=\"42\"} 2.0",
            "sluice_scope_pool_saturation_ratio{pid=\"42\"} 1.0",
            "sluice_scope_pool_saturated_seconds_total{pid=\"42\"} 3.0",
            "sluice_scope_verdict{pid=\"42\",verdict=\"pool-saturated\"} 1.0",
            "sluice_scope_verdict{pid=\"42\",verdict=\"healthy\"} 0.0",
        ] {
            assert!(page.contains(line), "{line} missing from:\n{page}");
        }
        assert!(
            !page.contains("pool_queue_depth"),
            "no queue reading, no gauge"
        );
        assert!(!page.contains("probe_"), "no probe mode, no probe series");
    }

    /// CPU as `_seconds_total` counters and probe waits as histograms,
    /// summed over windows; the page read by a strict parser.
    /// A 2 s window with CPU figures, and probe mode's cpu kind: 3 started
    /// (waits of 0.5 ms, 2 ms, 20 s), 2 completed (runs of 30 and 40 ms).
    pub(in crate::face) fn probed_report() -> Report {
        use crate::probe::stats::ProbeReport;
        let mut r = window_report();
        r.window_s = 2.0;
        r.pool_cpu_pct = Some(50.0);
        r.loop_cpu_pct = Some(25.0);
        r.sampler_cpu_pct = 1.0;
        let mut cpu = KindReport {
            started: 3,
            completed: 2,
            ..KindReport::default()
        };
        for ns in [500_000, 2_000_000, 20_000_000_000] {
            cpu.wait_buckets.observe_ns(ns);
        }
        for ns in [30_000_000, 40_000_000] {
            cpu.run_buckets.observe_ns(ns);
        }
        r.probe = Some(ProbeReport {
            cpu,
            ..ProbeReport::default()
        });
        r
    }

    #[test]
    fn cpu_counters_and_wait_histograms_parse_strictly() {
        use sluice_health::scrape::{Kind, parse};
        let r = probed_report();
        let mut t = Totals::default();
        t.add(&r);
        t.add(&r);
        let text = encode(&r, &t);
        let page = parse(&text).unwrap_or_else(|e| panic!("{e}:\n{text}"));
        let pid: &[(&str, &str)] = &[("pid", "42")];
        let cpu: &[(&str, &str)] = &[("pid", "42"), ("lane", "cpu")];
        for (name, labels, want) in [
            ("sluice_scope_pool_cpu_seconds_total", pid, 2.0),
            ("sluice_scope_loop_cpu_seconds_total", pid, 1.0),
            ("sluice_scope_sampler_cpu_seconds_total", pid, 0.04),
            ("sluice_scope_queue_wait_seconds_count", cpu, 6.0),
            ("sluice_scope_run_time_seconds_count", cpu, 4.0),
            ("sluice_scope_run_time_seconds_sum", cpu, 0.14),
            // The summed-seconds counters and the ratios stay.
            ("sluice_scope_probe_run_seconds_total", cpu, 0.14),
            ("sluice_scope_pool_saturation_ratio", pid, 1.0),
        ] {
            assert_eq!(page.value(name, labels), Some(want), "{name}");
        }
        let wait = page.family("sluice_scope_queue_wait_seconds").unwrap();
        assert_eq!(wait.kind, Kind::Histogram);
        let le = |le: &str| {
            page.value(
                "sluice_scope_queue_wait_seconds_bucket",
                &[("pid", "42"), ("lane", "cpu"), ("le", le)],
            )
        };
        // Cumulative: 0.5 ms twice by 0.0005, 2 ms twice more by 0.0025,
        // the 20 s ones only in +Inf.
        assert_eq!(le("0.0005"), Some(2.0));
        assert_eq!(le("0.0025"), Some(4.0));
        assert_eq!(le("10.0"), Some(4.0));
        assert_eq!(le("+Inf"), Some(6.0));
        assert_eq!(
            page.family("sluice_scope_verdict").unwrap().kind,
            Kind::Gauge
        );
    }
}
