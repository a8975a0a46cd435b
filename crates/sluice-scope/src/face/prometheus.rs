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
//! | `sluice_scope_verdict` | gauge | 1 for the last window's verdict, 0 for the others (`verdict` label) |
//! | `sluice_scope_sampler_cpu_ratio` | gauge | scope's own sampling thread, cores |
//! | `sluice_scope_probe_submitted_total` etc. | counter | probe mode, per libuv kind as `lane` (`cpu`, `fastio`, `slowio`: sluice's lane names) |
//!
//! The page is OpenMetrics text and is served as such
//! (`application/openmetrics-text; version=1.0.0`). The `verdict` label
//! takes the tokens of `sluice::health::VERDICTS`, joined by `+` when two
//! hold; `sluice serve`'s `sluice_verdict` and `sluice doctor` use the same.

use super::Face;
use super::text;
use crate::aggregate::Report;
use crate::doctor::Verdict;
use crate::error::ScopeError;
use crate::probe::KindReport;
use crate::session::Session;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::registry::Registry;
use std::net::SocketAddr;
use std::sync::atomic::AtomicU64;
use std::sync::{Arc, Mutex};

pub(crate) type Labels = Vec<(String, String)>;
type FGauge = Gauge<f64, AtomicU64>;
type FCounter = Counter<f64, AtomicU64>;

/// Counters summed over windows.
#[derive(Debug, Default, Clone)]
pub(crate) struct Totals {
    saturated_s: f64,
    busy_thread_s: f64,
    loop_busy_s: f64,
    /// Per kind: submitted, started, completed, wait seconds, run seconds.
    probe: [[f64; 5]; 3],
}

/// The exporter: an HTTP thread serving the latest encoding.
pub(crate) struct Exporter {
    addr: SocketAddr,
    server: Arc<tiny_http::Server>,
    thread: Option<std::thread::JoinHandle<()>>,
    page: Arc<Mutex<String>>,
    totals: Totals,
    text: text::Text,
}

impl Exporter {
    /// Listens on `addr`.
    pub(crate) fn start(addr: SocketAddr) -> Result<Exporter, ScopeError> {
        let server = Arc::new(
            tiny_http::Server::http(addr).map_err(|e| ScopeError::Listen {
                addr: addr.to_string(),
                message: e.to_string(),
            })?,
        );
        let page = Arc::new(Mutex::new(String::from(
            "# sluice scope: no window completed yet\n",
        )));
        let thread = {
            let server = Arc::clone(&server);
            let page = Arc::clone(&page);
            std::thread::Builder::new()
                .name("scope-prometheus".into())
                .spawn(move || serve(&server, &page))
                .map_err(|e| ScopeError::io("starting the exporter thread", e))?
        };
        Ok(Exporter {
            addr,
            server,
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

fn serve(server: &tiny_http::Server, page: &Mutex<String>) {
    for req in server.incoming_requests() {
        let path = req.url().split('?').next().unwrap_or("").to_string();
        let resp = if path == "/metrics" {
            let body = page.lock().map(|p| p.clone()).unwrap_or_default();
            tiny_http::Response::from_string(body).with_header(
                "Content-Type: application/openmetrics-text; version=1.0.0; charset=utf-8"
                    .parse::<tiny_http::Header>()
                    .expect("a valid header"),
            )
        } else {
            tiny_http::Response::from_string("sluice scope: metrics are at /metrics\n")
                .with_status_code(404)
        };
        let _ = req.respond(resp);
    }
}

impl Drop for Exporter {
    fn drop(&mut self) {
        self.server.unblock();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// The text page of one window: gauges from `r`, counters from `t`.
fn encode(r: &Report, t: &Totals) -> String {
    let pid: Labels = vec![("pid".into(), r.pid.to_string())];
    encode_many(&[(pid, r, t)])
}

/// The text page of many processes' last windows, each series labelled
/// with its process's labels (`pid`, and for `--all` `comm`, `container`,
/// `pod`); a gauge read for none of them is left out.
pub(crate) fn encode_many(entries: &[(Labels, &Report, &Totals)]) -> String {
    let mut reg = Registry::with_prefix("sluice_scope");
    let gauge_of =
        |reg: &mut Registry, name: &str, help: &str, v: &dyn Fn(&Report) -> Option<f64>| {
            let f = Family::<Labels, FGauge>::default();
            let mut any = false;
            for (labels, r, _) in entries {
                if let Some(x) = v(r) {
                    f.get_or_create(labels).set(x);
                    any = true;
                }
            }
            if any {
                reg.register(name, help, f);
            }
        };
    let gauge = |reg: &mut Registry, name: &str, help: &str, v: fn(&Report) -> f64| {
        gauge_of(reg, name, help, &|r| Some(v(r)));
    };
    let counter = |reg: &mut Registry, name: &str, help: &str, v: fn(&Totals) -> f64| {
        let f = Family::<Labels, FCounter>::default();
        for (labels, _, t) in entries {
            f.get_or_create(labels).inc_by(v(t));
        }
        reg.register(name, help, f);
    };
    gauge(&mut reg, "pool_threads", "libuv pool threads found", |r| {
        r.pool_size as f64
    });
    gauge(
        &mut reg,
        "pool_busy_threads",
        "Mean busy pool threads in the last window",
        |r| r.busy_threads,
    );
    gauge(
        &mut reg,
        "pool_utilization_ratio",
        "Busy pool threads / pool threads, last window",
        |r| r.utilization_pct / 100.0,
    );
    gauge(
        &mut reg,
        "pool_saturation_ratio",
        "Share of samples with every pool thread busy, last window",
        |r| r.saturation_pct / 100.0,
    );
    gauge(
        &mut reg,
        "loop_utilization_ratio",
        "Share of samples with the loop thread outside its epoll wait, last window",
        |r| r.loop_utilization_pct / 100.0,
    );
    gauge_of(
        &mut reg,
        "pool_queue_depth",
        "Mean requests waiting in libuv's queue, last window",
        &|r| r.queue_depth,
    );
    gauge_of(
        &mut reg,
        "pool_slow_io_queue_depth",
        "Mean slow I/O requests (dns.lookup) waiting in libuv's slow_io_pending_wq, last window",
        &|r| r.slow_queue_depth,
    );
    gauge_of(
        &mut reg,
        "pool_slow_io_running",
        "Mean slow I/O requests running on pool threads (libuv's slow_io_work_running), last window",
        &|r| r.slow_io_running,
    );
    gauge(
        &mut reg,
        "pool_slow_io_limit",
        "libuv's limit on pool threads running slow I/O: (threads + 1) / 2",
        |r| r.slow_io_limit as f64,
    );
    gauge_of(
        &mut reg,
        "pool_slow_io_throttled_ratio",
        "Share of queue readings with slow I/O waiting while the slow I/O running stood at libuv's limit, last window",
        &|r| r.slow_io_throttled_pct.map(|p| p / 100.0),
    );
    gauge(
        &mut reg,
        "sampler_cpu_ratio",
        "CPU of scope's sampling thread, in cores",
        |r| r.sampler_cpu_pct / 100.0,
    );
    counter(
        &mut reg,
        "pool_saturated_seconds",
        "Time every pool thread was busy",
        |t| t.saturated_s,
    );
    counter(
        &mut reg,
        "pool_busy_thread_seconds",
        "Pool thread-seconds busy",
        |t| t.busy_thread_s,
    );
    counter(
        &mut reg,
        "loop_busy_seconds",
        "Time the loop thread was outside its epoll wait",
        |t| t.loop_busy_s,
    );
    let verdicts = Family::<Labels, FGauge>::default();
    for (labels, r, _) in entries {
        for v in Verdict::ALL {
            let mut l = labels.clone();
            l.push(("verdict".into(), v.as_str().into()));
            verdicts
                .get_or_create(&l)
                .set(if v == r.verdict { 1.0 } else { 0.0 });
        }
    }
    reg.register(
        "verdict",
        "The doctor's verdict on the last window (1: this one)",
        verdicts,
    );
    if entries.iter().any(|(_, r, _)| r.probe.is_some()) {
        let names = [
            ("probe_submitted", "Pool requests submitted"),
            ("probe_started", "Pool requests a thread started"),
            ("probe_completed", "Pool requests that ran"),
            (
                "probe_queue_wait_seconds",
                "Summed queue wait of started requests",
            ),
            ("probe_run_seconds", "Summed run time of completed requests"),
        ];
        for (i, (name, help)) in names.iter().enumerate() {
            let f = Family::<Labels, FCounter>::default();
            for (labels, _, t) in entries {
                // The lane vocabulary of sluice's own series (`lane="fastio"`).
                for (k, lane) in ["cpu", "fastio", "slowio"].iter().enumerate() {
                    let mut l = labels.clone();
                    l.push(("lane".into(), (*lane).into()));
                    f.get_or_create(&l).inc_by(t.probe[k][i]);
                }
            }
            reg.register(*name, *help, f);
        }
    }
    let mut out = String::new();
    prometheus_client::encoding::text::encode(&mut out, &reg).expect("writing to a String");
    out
}

impl Totals {
    /// Adds window `r`.
    pub(crate) fn add(&mut self, r: &Report) {
        self.saturated_s += r.saturation_pct / 100.0 * r.window_s;
        self.busy_thread_s += r.busy_threads * r.window_s;
        self.loop_busy_s += r.loop_utilization_pct / 100.0 * r.window_s;
        if let Some(p) = &r.probe {
            add_kind(&mut self.probe[0], &p.cpu);
            add_kind(&mut self.probe[1], &p.fast_io);
            add_kind(&mut self.probe[2], &p.slow_io);
        }
    }
}

fn add_kind(acc: &mut [f64; 5], k: &KindReport) {
    acc[0] += k.submitted as f64;
    acc[1] += k.started as f64;
    acc[2] += k.completed as f64;
    acc[3] += k.wait_ms_mean.unwrap_or(0.0) * k.started as f64 / 1e3;
    acc[4] += k.run_ms_mean.unwrap_or(0.0) * k.completed as f64 / 1e3;
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
mod tests {
    use super::*;
    use crate::aggregate::{Context, Window};
    use crate::classify::{IdleWait, ThreadState};
    use crate::discovery::{Method, Pool, PoolStatus};
    use crate::sampler::Tick;

    #[test]
    fn the_page_has_every_gauge_and_one_verdict() {
        let status = PoolStatus::Started(Pool {
            method: Method::Memory,
            tids: vec![1, 2],
            idle: IdleWait::AnyFutex,
            evidence: vec![],
        });
        let mut w = Window::new(vec![1, 2]);
        w.add(
            &Tick {
                pool: vec![ThreadState::OnCpu, ThreadState::OnCpu],
                loop_state: ThreadState::Idle,
            },
            None,
        );
        let r = w.finish(Context {
            t_s: 1.0,
            pid: 42,
            window_s: 1.0,
            status: &status,
            pool_cpu_ns: vec![],
            loop_cpu_ns: None,
            sampler_cpu_ns: 0,
            probe: None,
            order: None,
        });
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
}
