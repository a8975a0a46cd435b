//! `http` (seed 000 §5, seed 002 §3): the demo service under load, Node's
//! twin against `sluice serve`.
//!
//! Per subject and pool size one server is started as a child: the Node
//! twin (`http.js`, `UV_THREADPOOL_SIZE` = the pool size), `sluice serve
//! --libuv` for `sluice-compat` (the same Rust server on libuv's pool,
//! `UV_THREADPOOL_SIZE` = the pool size) or `sluice serve` (`lab.exe()
//! serve`, lanes sized from the pool size like the `sluice` subject). The
//! lab's load generator (`loadgen.rs`) drives it cell by cell,
//! each cell `--duration` long with `--concurrency` connections:
//!
//! - `ping`: `/ping` alone (`--ping-concurrency` connections);
//! - `login-1`: `/login` one at a time: one hash's time through the server;
//! - `login`: the `/login` flood;
//! - `ping-during-login`: `/ping` while the `/login` flood runs, for
//!   `--ping-during` when given (the report: 3 s, so that its p99 rests
//!   on ~500 answers, not the ~190 of a 1.2-s cell);
//! - `login-neighbour`: the `/login` flood and the `/ping` probe while
//!   another process spins on every core (`neighbour.rs`): what a lane of
//!   the server gets beside a busy neighbour (a `Cpu` lane under
//!   `SCHED_IDLE` gets nothing; `SLUICE_CPU_SCHED` in the lab's
//!   environment reaches the Node twin with the package);
//! - `cluster` (Node subjects): the Node twin in `node:cluster` mode, one
//!   worker per core (each with the preload under node+sluice), under the
//!   `/login` flood with the `/ping` probe: every worker's loop and every
//!   worker's hashing want the same cores, as under PM2;
//! - `gzip`, `file`: `/gzip` (256 KiB) and `/file` (4 KiB) floods;
//! - `admission`: a second server with a small Cpu bound (`--admission-queue`;
//!   Node: seed 002's semaphore in the twin), flooded with `/login` by
//!   clients that honour `Retry-After`: 200s, 429s and the p99 of the
//!   admitted.
//!
//! Where `autocannon` is on `PATH` (and `--autocannon auto`), the `login`
//! and `file` floods of the first pool size are run again with it, as a
//! cross-check of the load generator. `tokio` has no server here and is
//! skipped; `sluice-compat` has no admission cell (libuv refuses nothing).

use super::{ArgSpec, Args, Experiment, ExperimentSpec, Kind};
use crate::PoolSize;
use crate::PoolSize::Size;
use crate::lab::Lab;
use crate::loadgen::{self, Load, LoadReport};
use crate::outcome::{Outcome, Row};
use crate::report::{Chart, Point, Table, ms, ratio, series_of};
use crate::subject::{Need, Runtime, SubjectSpec};
use crate::sweep::{Cell, Sweep};
use anyhow::{Context, bail};
use serde_json::{Value, json};
use sluice::Policy;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

mod neighbour;

/// The declaration of `http`.
pub(super) static SPEC: ExperimentSpec = ExperimentSpec::new("http", &Http)
    .seed("seed 000 §5, seed 002 §3")
    .flags(ARGS)
    .pools(&[Size(1), Size(2), Size(4), Size(16)])
    .report_pools(&[Size(1), Size(4)])
    .short_pools(&[Size(4)])
    .short(&[
        ("cells", "login-1,login,ping-during-login,admission,crowd"),
        ("duration", "1s"),
        ("ping-during", "1500ms"),
        ("autocannon", "off"),
    ])
    .needs(&[Need::HttpServer])
    .rerouted();

/// The http experiment.
pub(crate) struct Http;

/// The cells, in run order.
const CELLS: &[&str] = &[
    "ping",
    "login-1",
    "login",
    "ping-during-login",
    "login-neighbour",
    "cluster",
    "gzip",
    "file",
    "admission",
    "crowd",
];

const ARGS: &[ArgSpec] = &[
    ArgSpec {
        name: "cells",
        value_name: "LIST",
        help: "cells to run: ping, login-1, login, ping-during-login, login-neighbour, cluster, gzip, file, admission, crowd",
        default: "ping,login-1,login,ping-during-login,login-neighbour,cluster,gzip,file,admission,crowd",
        report: "ping,login-1,login,ping-during-login,login-neighbour,cluster,gzip,file,admission,crowd",
        kind: Kind::Choices(CELLS),
    },
    ArgSpec {
        name: "crowd",
        value_name: "N",
        help: "the crowd cell (seed 004's headline run): connections each asking /login of a server whose hash is --crowd-iterations (the seed: 5000; what a 2-core machine holds: a few hundred)",
        default: "256",
        report: "256",
        kind: Kind::Number {
            min: 1,
            max: 10_000,
        },
    },
    ArgSpec {
        name: "crowd-iterations",
        value_name: "N",
        help: "pbkdf2-sha256 iterations of /login in the crowd cell (a short CPU hash, as the seed's)",
        default: "5000",
        report: "5000",
        kind: Kind::Number {
            min: 1,
            max: 100_000_000,
        },
    },
    ArgSpec {
        name: "concurrency",
        value_name: "N",
        help: "connections of the /login, /gzip and /file floods",
        default: "32",
        report: "32",
        kind: Kind::Number {
            min: 1,
            max: 10_000,
        },
    },
    ArgSpec {
        name: "ping-concurrency",
        value_name: "N",
        help: "connections sending /ping (alone and during the /login flood)",
        default: "1",
        report: "1",
        kind: Kind::Number {
            min: 1,
            max: 10_000,
        },
    },
    ArgSpec {
        name: "ping-pause",
        value_name: "DURATION",
        help: "each /ping connection waits this long between answer and next request (a latency probe, not a second flood; 0: back to back)",
        default: "5ms",
        report: "5ms",
        kind: Kind::millis(0, 10_000, "ping-pause-ms"),
    },
    ArgSpec {
        name: "duration",
        value_name: "DURATION",
        help: "how long each cell sends requests",
        default: "5s",
        report: "1200ms",
        kind: Kind::millis(100, 600_000, "duration-ms"),
    },
    ArgSpec {
        name: "ping-during",
        value_name: "DURATION",
        help: "how long the ping-during-login cell runs (0: as long as --duration); with the 5-ms pause the probe gets about one answer per 5 ms, and its p99 is the (n/100)th slowest of them",
        default: "0s",
        report: "3s",
        kind: Kind::millis(0, 600_000, "ping-during-ms"),
    },
    ArgSpec {
        name: "iterations",
        value_name: "N",
        help: "pbkdf2 iterations per /login (seed 002: 100000, sha256, 64 bytes)",
        default: "100000",
        report: "100000",
        kind: Kind::Number {
            min: 1,
            max: 100_000_000,
        },
    },
    ArgSpec {
        name: "admission-queue",
        value_name: "N",
        help: "the admission cell's Cpu bound (sluice --cpu-queue; the Node twin's semaphore: pool + N)",
        default: "4",
        report: "4",
        kind: Kind::Number {
            min: 1,
            max: 1_000_000,
        },
    },
    ArgSpec {
        name: "autocannon",
        value_name: "auto|off",
        help: "cross-check the login and file cells of the first pool with autocannon when it is on PATH",
        default: "auto",
        report: "auto",
        kind: Kind::Choice(&["auto", "off"]),
    },
];

impl Experiment for Http {
    fn run(&self, lab: &Lab, args: &Args) -> anyhow::Result<Outcome> {
        let cells: Vec<String> = args
            .choices("cells")?
            .into_iter()
            .map(String::from)
            .collect();
        let p = Plan {
            cells,
            concurrency: args.number("concurrency")? as usize,
            ping_concurrency: args.number("ping-concurrency")? as usize,
            ping_pause: args.duration("ping-pause")?,
            duration: args.duration("duration")?,
            ping_during: match args.millis("ping-during")? {
                0 => None,
                ms if ms < 100 => bail!(
                    "--ping-during {ms}ms is too short; expected 0 (as long as --duration) or 100ms..=10m"
                ),
                ms => Some(Duration::from_millis(ms)),
            },
            iterations: args.number("iterations")?,
            admission_queue: args.number("admission-queue")? as usize,
            crowd: args.number("crowd")? as usize,
            crowd_iterations: args.number("crowd-iterations")?,
            autocannon: match args.choice("autocannon")? {
                "auto" => find_on_path("autocannon"),
                _ => None,
            },
            cores: lab.machine().cores,
            cluster: None,
        };
        let sweep = Sweep::new(lab, &SPEC);
        if sweep.subjects().is_empty() {
            bail!(
                "http needs subjects with a server: {}",
                sweep.skipped().join("; ")
            );
        }
        let first_pool = sweep.pools().first().copied();
        let file = lab.scratch().join("http-file-4k.txt");
        std::fs::write(&file, sluice_serve::payload::text(4096))
            .with_context(|| format!("writing {}", file.display()))?;
        let load_before = crate::procfs::load_average().ok();
        let mut bodies: Vec<(String, Vec<u8>, Vec<u8>)> = Vec::new();
        let mut cannon_used = false;
        let rows = sweep.run(|c| {
            let (subject, pool) = (c.subject, c.pool);
            let pi = usize::from(Some(pool) != first_pool);
            let mut rows = Vec::new();
            let server = Server::start(c, &p, &file, None)?;
            let base = format!("http://127.0.0.1:{}", server.port);
            if pi == 0 && bodies.iter().all(|b| b.0 != subject.name()) {
                bodies.push((
                    subject.name().to_string(),
                    get(&format!("{base}/login"))?,
                    get(&format!("{base}/gzip"))?,
                ));
            }
            let row = |cell: &str| c.row().param("cell", cell);
            rows.extend(p.measure(&server, &base, &row)?);
            if pi == 0 {
                let checked = p.cross_check(&base, &row)?;
                cannon_used |= !checked.is_empty();
                rows.extend(checked);
            }
            server.stop()?;
            // libuv's queue is unbounded: nothing to admit.
            if p.cells.iter().any(|c| c == "admission")
                && !matches!(subject.sluice_policy(), Some(Policy::Libuv { .. }))
            {
                rows.push(p.admission(c, &file)?);
            }
            if p.cells.iter().any(|c| c == "crowd") {
                rows.extend(p.crowd(c, &file)?);
            }
            // Only Node has a cluster mode: sluice serve is one process.
            if p.cells.iter().any(|c| c == "cluster") && subject.runtime() == Runtime::Node {
                rows.push(p.cluster(c, &file)?);
            }
            Ok(rows)
        })?;
        let notes = run_notes(lab, &sweep, &p, &bodies, cannon_used, load_before);
        let mut o = sweep.outcome(rows, notes);
        let checked = goals(&o);
        o.notes.extend(checked);
        Ok(o)
    }

    fn tables(&self, o: &Outcome) -> Vec<Table> {
        let keys = keys(o);
        let mut tables = Vec::new();
        tables.push(summary_table(o, &keys));
        let route_table =
            |cell: &str, title: String, extra: bool| route_table(o, &keys, cell, title, extra);
        tables.push(route_table(
            "login",
            "http /login flood (pbkdf2 100000 sha256 64 B per request)".into(),
            true,
        ));
        tables.push(ping_table(o, &keys));
        tables.push(neighbour_table(o, &keys));
        tables.push(cluster_table(o, &keys));
        tables.push(route_table(
            "gzip",
            "http /gzip flood (256 KiB each)".into(),
            false,
        ));
        tables.push(route_table(
            "file",
            "http /file flood (4 KiB read each)".into(),
            false,
        ));
        tables.push(route_table(
            "admission",
            "http admission: a /login flood past a small Cpu bound (clients honour Retry-After)"
                .into(),
            false,
        ));
        tables.push(crowd_table(o, &keys, "crowd"));
        tables.push(crowd_table(o, &keys, "crowd-ping"));
        tables.extend(cannon_table(o, &keys));
        tables.retain(|t| !t.rows.is_empty());
        tables
    }

    fn chart(&self, o: &Outcome) -> Option<Chart> {
        self.figure(o)?.panels.into_iter().next()
    }

    fn figure(&self, o: &Outcome) -> Option<crate::report::Figure> {
        // One unit per panel; pool sizes are categories (grouped bars).
        // The fair figure sits beside the raw rate: each subject's hash is
        // its own (OpenSSL in node, RustCrypto in sluice), so % of the
        // subject's own ideal (cores / its one-hash time) compares pools,
        // not hash libraries.
        let login = cell_series(o, "login", "req_s", |_, v| Some(v));
        let fair = cell_series(o, "login", "req_s", |r, v| {
            let ideal = ideal(o, &r.subject, &r.params["pool"])?;
            ideal.is_finite().then(|| 100.0 * v / ideal)
        });
        let ping = cell_series(o, "ping-during-login", "p99_ms", |_, v| Some(v));
        let panels: Vec<Chart> = [
            ("http: /login req/s per pool size", "req/s", login),
            (
                "http: /login req/s as % of the subject's own ideal (cores / one hash's time)",
                "% of own ideal",
                fair,
            ),
            ("http: /ping p99 during the /login flood", "p99 ms", ping),
        ]
        .into_iter()
        .filter(|(_, _, series)| !series.is_empty())
        .map(|(title, unit, series)| Chart {
            title: title.into(),
            x_label: "pool size".into(),
            y_label: unit.into(),
            series,
        })
        .collect();
        (!panels.is_empty()).then(|| crate::report::Figure::bars(panels))
    }
}

/// One series per subject: `metric` of the rows of `cell` by pool size,
/// mapped by `value` (rows it maps to `None` are left out).
fn cell_series(
    o: &Outcome,
    cell: &str,
    metric: &str,
    value: impl Fn(&crate::outcome::Row, f64) -> Option<f64>,
) -> Vec<crate::report::Series> {
    let rows = o.rows.iter().filter(|r| r.param_text("cell") == cell);
    series_of(rows, |r| {
        let pool = r.params["pool"].as_f64()?;
        Some(Point::subject(
            r,
            (pool, value(r, *r.metrics.get(metric)?)?),
        ))
    })
}

/// What the cells share.
#[derive(Clone)]
struct Plan {
    cells: Vec<String>,
    concurrency: usize,
    ping_concurrency: usize,
    ping_pause: Duration,
    duration: Duration,
    /// The ping-during-login cell's own length (`None`: `duration`).
    ping_during: Option<Duration>,
    iterations: u64,
    admission_queue: usize,
    crowd: usize,
    crowd_iterations: u64,
    autocannon: Option<PathBuf>,
    /// The machine's cores: the neighbour's busy loops, the cluster's
    /// workers.
    cores: usize,
    /// The Node twin's `node:cluster` workers (`None`: one process).
    cluster: Option<usize>,
}

impl Plan {
    /// The admission cell: a `/login` flood against a server that admits
    /// `admission_queue` beyond its pool; clients honour Retry-After.
    fn admission(&self, c: &Cell<'_, ()>, file: &Path) -> anyhow::Result<Row> {
        let server = Server::start(c, self, file, Some(self.admission_queue))?;
        let mut load = Load::new(
            format!("http://127.0.0.1:{}/login", server.port),
            self.concurrency,
            self.duration,
        );
        load.honor_retry_after = true;
        let r = one(load)?;
        server.stop()?;
        let row = c.row().param("cell", "admission");
        Ok(metrics(row, &r).metric("bound", self.admission_queue as f64))
    }

    /// The cluster cell: the Node twin with one `node:cluster` worker per
    /// core, the `/login` flood and the `/ping` probe at once.
    fn cluster(&self, c: &Cell<'_, ()>, file: &Path) -> anyhow::Result<Row> {
        let plan = Plan {
            cluster: Some(self.cores),
            ..self.clone()
        };
        let server = Server::start(c, &plan, file, None)?;
        let url = |route: &str| format!("http://127.0.0.1:{}/{route}", server.port);
        let flood = Load::new(url("login"), self.concurrency, self.duration);
        let rs = loadgen::run(&[flood, self.ping(url("ping"))])?;
        server.stop()?;
        let mut r =
            metrics(c.row().param("cell", "cluster"), &rs[0]).metric("workers", self.cores as f64);
        if rs[1].p99_ms.is_finite() {
            r = r.metric("ping_p99_ms", rs[1].p99_ms);
        }
        Ok(r)
    }

    /// Seed 004's headline run: a crowd of connections, each asking for a
    /// short CPU hash, against a server of its own; then `/ping` from the
    /// same crowd (seed 004 §4).
    fn crowd(&self, c: &Cell<'_, ()>, file: &Path) -> anyhow::Result<Vec<Row>> {
        let row = |cell: &str| c.row().param("cell", cell);
        let crowd = Plan {
            iterations: self.crowd_iterations,
            concurrency: self.crowd,
            ..self.clone()
        };
        let server = Server::start(c, &crowd, file, None)?;
        let url = format!("http://127.0.0.1:{}/login", server.port);
        let cpu0 = server.cpu_seconds();
        let wall0 = Instant::now();
        let r = one(Load::new(url, self.crowd, self.duration))?;
        let mut measured = metrics(row("crowd"), &r)
            .metric("connections", self.crowd as f64)
            .metric("iterations", self.crowd_iterations as f64);
        if let (Some(a), Some(b)) = (cpu0, server.cpu_seconds()) {
            measured = measured.metric("server_cores", (b - a) / wall0.elapsed().as_secs_f64());
        }
        let r = one(Load::new(
            format!("http://127.0.0.1:{}/ping", server.port),
            self.crowd,
            self.duration,
        ))?;
        let ping = metrics(row("crowd-ping"), &r).metric("connections", self.crowd as f64);
        server.stop()?;
        Ok(vec![measured, ping])
    }

    /// Every load cell but admission against one server at `base`, with
    /// the CPU the server used in each.
    fn measure(
        &self,
        server: &Server,
        base: &str,
        row: &dyn Fn(&str) -> Row,
    ) -> anyhow::Result<Vec<Row>> {
        let mut rows = Vec::new();
        let url = |route: &str| format!("{base}/{route}");
        for cell in &self.cells {
            let cpu0 = server.cpu_seconds();
            let wall0 = Instant::now();
            let flood = |route: &str| Load::new(url(route), self.concurrency, self.duration);
            let measured = match cell.as_str() {
                "ping" => {
                    let r = one(Load::new(url("ping"), self.ping_concurrency, self.duration))?;
                    metrics(row("ping"), &r)
                }
                "login-1" => {
                    let d = self.duration.min(Duration::from_secs(1));
                    metrics(row("login-1"), &one(Load::new(url("login"), 1, d))?)
                }
                "ping-during-login" => {
                    let d = self.ping_during.unwrap_or(self.duration);
                    let mut login = flood("login");
                    let mut ping = self.ping(url("ping"));
                    (login.duration, ping.duration) = (d, d);
                    let rs = loadgen::run(&[login, ping])?;
                    metrics(row("ping-during-login"), &rs[1]).metric("login_req_s", rs[0].ok_per_s)
                }
                "login-neighbour" => {
                    let busy = neighbour::Neighbour::start(self.cores)?;
                    let (n0, t0) = (busy.cpu_seconds(), Instant::now());
                    let rs = loadgen::run(&[flood("login"), self.ping(url("ping"))])?;
                    let used = busy.cpu_seconds();
                    let wall = t0.elapsed().as_secs_f64();
                    drop(busy);
                    let mut r = metrics(row(cell), &rs[0]);
                    if rs[1].p99_ms.is_finite() {
                        r = r.metric("ping_p99_ms", rs[1].p99_ms);
                    }
                    match (n0, used) {
                        (Some(a), Some(b)) => r.metric("neighbour_cores", (b - a) / wall),
                        _ => r,
                    }
                }
                "login" | "gzip" | "file" => metrics(row(cell), &one(flood(cell))?),
                _ => continue,
            };
            // How much CPU the server got: 2.0 on 2 cores is all of them.
            rows.push(match (cpu0, server.cpu_seconds()) {
                (Some(a), Some(b)) => {
                    measured.metric("server_cores", (b - a) / wall0.elapsed().as_secs_f64())
                }
                _ => measured,
            });
        }
        Ok(rows)
    }

    /// autocannon's figures for the login and file cells (rows
    /// `*:autocannon`), when it is used.
    fn cross_check(&self, base: &str, row: &dyn Fn(&str) -> Row) -> anyhow::Result<Vec<Row>> {
        let Some(cannon) = &self.autocannon else {
            return Ok(Vec::new());
        };
        let mut rows = Vec::new();
        for cell in ["login", "file"] {
            if self.cells.iter().any(|x| x == cell) {
                let m = autocannon(
                    cannon,
                    &format!("{base}/{cell}"),
                    self.concurrency,
                    self.duration,
                )?;
                let mut r = row(&format!("{cell}:autocannon"));
                for (k, v) in m {
                    r = r.metric(k, v);
                }
                rows.push(r);
            }
        }
        Ok(rows)
    }

    /// The `/ping` probe: `ping_concurrency` connections, `ping_pause` apart.
    fn ping(&self, url: String) -> Load {
        let mut load = Load::new(url, self.ping_concurrency, self.duration);
        load.pause = self.ping_pause;
        load
    }
}

fn one(load: Load) -> anyhow::Result<LoadReport> {
    Ok(loadgen::run(&[load])?.remove(0))
}

fn metrics(row: Row, r: &LoadReport) -> Row {
    let mut row = row
        .metric("req_s", r.ok_per_s)
        .metric("sent", r.sent as f64)
        .metric("ok", r.ok as f64)
        .metric("errors", r.errors as f64)
        .metric("status_429", r.status(429) as f64);
    for (k, v) in [
        ("p50_ms", r.p50_ms),
        ("p99_ms", r.p99_ms),
        ("max_ms", r.max_ms),
        ("mean_ms", r.mean_ms),
    ] {
        if v.is_finite() {
            row = row.metric(k, v);
        }
    }
    for (goal, n) in r.over_ms {
        row = row.metric(&format!("over_{goal}ms"), n as f64);
    }
    row
}

/// `(subject, pool)` in first-seen order.
fn keys(o: &Outcome) -> Vec<(String, Value)> {
    let mut out: Vec<(String, Value)> = Vec::new();
    for r in &o.rows {
        let k = (r.subject.clone(), r.params["pool"].clone());
        if !out.contains(&k) {
            out.push(k);
        }
    }
    out
}

fn text(v: &Value) -> String {
    v.as_str().map_or_else(|| v.to_string(), str::to_string)
}

/// Metric `m` of `cell` for subject `s` at `pool`.
pub(crate) fn metric(o: &Outcome, s: &str, pool: &Value, cell: &str, m: &str) -> Option<f64> {
    o.metric(s, &[("pool", pool.clone()), ("cell", json!(cell))], m)
}

/// The `/login` rate if every core hashed back to back at the subject's
/// own one-hash time (`login-1`'s p50): its ideal on this machine.
fn ideal(o: &Outcome, s: &str, pool: &Value) -> Option<f64> {
    let cores = o.machine.cores as f64;
    metric(o, s, pool, "login-1", "p50_ms").map(|t| cores / (t / 1e3))
}

/// A rate with one decimal, `-` where there is none.
fn rate(v: Option<f64>) -> String {
    v.map_or("-".to_string(), |v| format!("{v:.1}"))
}

fn pct(a: Option<f64>, b: Option<f64>) -> String {
    match (a, b) {
        (Some(a), Some(b)) if b > 0.0 => format!("{:.0}%", a / b * 100.0),
        _ => "-".into(),
    }
}

/// A flood cell's table: rate, latencies, errors and 429s; with `extra`,
/// one hash's time, the ideal rate on this machine and the fair figure (%
/// of the subject's own ideal: each subject's hash is its own).
fn route_table(
    o: &Outcome,
    keys: &[(String, Value)],
    cell: &str,
    title: String,
    extra: bool,
) -> Table {
    let get = |s: &str, pool: &Value, cell: &str, m: &str| metric(o, s, pool, cell, m);
    let cnt = |v: Option<f64>| v.map_or("-".to_string(), |v| format!("{v:.0}"));
    let ideal = |s: &str, pool: &Value| ideal(o, s, pool);
    let mut header: Vec<String> = [
        "subject", "pool", "req/s", "p50 ms", "p99 ms", "max ms", "errors", "429s",
    ]
    .map(String::from)
    .to_vec();
    if extra {
        header.extend(
            [
                "one hash ms",
                "ideal req/s",
                "% of ideal",
                "server cores used",
            ]
            .map(String::from),
        );
    }
    let rows = keys
        .iter()
        .filter(|(s, pool)| get(s, pool, cell, "req_s").is_some())
        .map(|(s, pool)| {
            let mut r = vec![
                s.clone(),
                text(pool),
                rate(get(s, pool, cell, "req_s")),
                get(s, pool, cell, "p50_ms").map_or("-".into(), ms),
                get(s, pool, cell, "p99_ms").map_or("-".into(), ms),
                get(s, pool, cell, "max_ms").map_or("-".into(), ms),
                cnt(get(s, pool, cell, "errors")),
                cnt(get(s, pool, cell, "status_429")),
            ];
            if extra {
                r.push(get(s, pool, "login-1", "p50_ms").map_or("-".into(), ms));
                r.push(rate(ideal(s, pool)));
                r.push(pct(get(s, pool, cell, "req_s"), ideal(s, pool)));
                r.push(
                    get(s, pool, cell, "server_cores").map_or("-".into(), |v| format!("{v:.2}")),
                );
            }
            r
        })
        .collect::<Vec<_>>();
    Table {
        title,
        header,
        rows,
        note: String::new(),
    }
}

/// One row per subject and pool: every cell's headline figure.
fn summary_table(o: &Outcome, keys: &[(String, Value)]) -> Table {
    let get = |s: &str, pool: &Value, cell: &str, m: &str| metric(o, s, pool, cell, m);
    let ideal = |s: &str, pool: &Value| ideal(o, s, pool);
    let mut summary = Table::new(
        "http: per subject and pool",
        &[
            "subject",
            "pool",
            "/login req/s",
            "% of ideal",
            "/login p99 ms",
            "/ping p99 ms",
            "/ping p99 during /login flood",
            "/gzip req/s",
            "/file req/s",
        ],
    );
    for (s, pool) in keys {
        let login = get(s, pool, "login", "req_s");
        summary.rows.push(vec![
            s.clone(),
            text(pool),
            rate(login),
            pct(login, ideal(s, pool)),
            get(s, pool, "login", "p99_ms").map_or("-".into(), ms),
            get(s, pool, "ping", "p99_ms").map_or("-".into(), ms),
            get(s, pool, "ping-during-login", "p99_ms").map_or("-".into(), ms),
            rate(get(s, pool, "gzip", "req_s")),
            rate(get(s, pool, "file", "req_s")),
        ]);
    }
    summary
}

/// Seed 004's headline run: throughput, mean and p99 of the crowd.
fn crowd_table(o: &Outcome, keys: &[(String, Value)], cell: &str) -> Table {
    let get = |s: &str, pool: &Value, m: &str| {
        o.metric(s, &[("pool", pool.clone()), ("cell", json!(cell))], m)
    };
    let first = o.rows.iter().find(|r| r.param_text("cell") == "crowd");
    let (conns, iterations) = first.map_or((0.0, 0.0), |r| {
        (
            r.metrics.get("connections").copied().unwrap_or(0.0),
            r.metrics.get("iterations").copied().unwrap_or(0.0),
        )
    });
    let (title, note) = if cell == "crowd" {
        (
            format!(
                "http crowd (seed 004's headline run): {conns:.0} connections each asking /login (pbkdf2-sha256, {iterations:.0} iterations)"
            ),
            "seed 004 (a MacBook M2, 5000 concurrent requests): Go mean 12.4 ms, p99 < 18 ms; Node with UV_THREADPOOL_SIZE=16 mean 41.7 ms, p99 > 120 ms",
        )
    } else {
        (
            format!(
                "http crowd /ping (seed 004 §4): {conns:.0} connections asking /ping back to back"
            ),
            "seed 004 §4 (8 cores, wrk -t16 -c512): goroutines 42,850 QPS, mean 11.2 ms, p99 38.7 ms; a worker-thread pool 31,620 QPS, mean 16.3 ms, p99 62.4 ms",
        )
    };
    Table {
        title,
        header: [
            "subject",
            "pool",
            "req/s",
            "mean ms",
            "p50 ms",
            "p99 ms",
            "max ms",
            "errors",
            "server cores used",
        ]
        .map(String::from)
        .to_vec(),
        rows: keys
            .iter()
            .filter(|(s, pool)| get(s, pool, "req_s").is_some())
            .map(|(s, pool)| {
                let cell = |m: &str| get(s, pool, m).map_or("-".into(), ms);
                vec![
                    s.clone(),
                    text(pool),
                    get(s, pool, "req_s").map_or("-".into(), |v| format!("{v:.1}")),
                    cell("mean_ms"),
                    cell("p50_ms"),
                    cell("p99_ms"),
                    cell("max_ms"),
                    get(s, pool, "errors").map_or("-".into(), |v| format!("{v:.0}")),
                    get(s, pool, "server_cores").map_or("-".into(), |v| format!("{v:.2}")),
                ]
            })
            .collect(),
        note: note.into(),
    }
}

/// `/ping` alone and during the `/login` flood.
fn ping_table(o: &Outcome, keys: &[(String, Value)]) -> Table {
    let get = |s: &str, pool: &Value, cell: &str, m: &str| metric(o, s, pool, cell, m);
    let mut ping = Table::new(
        "http /ping alone and during the /login flood",
        &[
            "subject",
            "pool",
            "alone req/s",
            "alone p99 ms",
            "during req/s",
            "during p50 ms",
            "during p99 ms",
            "during max ms",
            "/login req/s meanwhile",
        ],
    );
    for (s, pool) in keys {
        let c = "ping-during-login";
        ping.rows.push(vec![
            s.clone(),
            text(pool),
            rate(get(s, pool, "ping", "req_s")),
            get(s, pool, "ping", "p99_ms").map_or("-".into(), ms),
            rate(get(s, pool, c, "req_s")),
            get(s, pool, c, "p50_ms").map_or("-".into(), ms),
            get(s, pool, c, "p99_ms").map_or("-".into(), ms),
            get(s, pool, c, "max_ms").map_or("-".into(), ms),
            rate(get(s, pool, c, "login_req_s")),
        ]);
    }
    ping
}

/// The `/login` flood beside a neighbour that wants every core, against
/// the same flood alone.
fn neighbour_table(o: &Outcome, keys: &[(String, Value)]) -> Table {
    let get = |s: &str, pool: &Value, m: &str| metric(o, s, pool, "login-neighbour", m);
    let mut t = Table::new(
        "http /login beside a CPU-bound neighbour (one busy process per core)",
        &[
            "subject",
            "pool",
            "/login req/s",
            "% of the flood alone",
            "/login p99 ms",
            "/ping p99 ms",
            "server cores used",
            "neighbour cores used",
        ],
    );
    let cores = |v: Option<f64>| v.map_or("-".into(), |v| format!("{v:.2}"));
    for (s, pool) in keys
        .iter()
        .filter(|(s, pool)| get(s, pool, "req_s").is_some())
    {
        let login = get(s, pool, "req_s");
        t.rows.push(vec![
            s.clone(),
            text(pool),
            rate(login),
            pct(login, metric(o, s, pool, "login", "req_s")),
            get(s, pool, "p99_ms").map_or("-".into(), ms),
            get(s, pool, "ping_p99_ms").map_or("-".into(), ms),
            cores(get(s, pool, "server_cores")),
            cores(get(s, pool, "neighbour_cores")),
        ]);
    }
    t.note = "a Cpu lane under SCHED_IDLE gets only what the neighbour leaves; under guarded it returns to SCHED_OTHER at the process's nice value while it starves".into();
    t
}

/// The cluster cell: Node's cluster mode, one worker per core.
fn cluster_table(o: &Outcome, keys: &[(String, Value)]) -> Table {
    let get = |s: &str, pool: &Value, m: &str| metric(o, s, pool, "cluster", m);
    let mut t = Table::new(
        "http cluster mode: one node:cluster worker per core, /login flood with the /ping probe",
        &[
            "subject",
            "pool",
            "workers",
            "/login req/s",
            "vs node",
            "/login p99 ms",
            "/ping p99 ms",
        ],
    );
    for (s, pool) in keys
        .iter()
        .filter(|(s, pool)| get(s, pool, "req_s").is_some())
    {
        let login = get(s, pool, "req_s");
        t.rows.push(vec![
            s.clone(),
            text(pool),
            get(s, pool, "workers").map_or("-".into(), |v| format!("{v:.0}")),
            rate(login),
            pct(login, get("node", pool, "req_s")),
            get(s, pool, "p99_ms").map_or("-".into(), ms),
            get(s, pool, "ping_p99_ms").map_or("-".into(), ms),
        ]);
    }
    t.note = "every worker's loop and every worker's hashing want the same cores: under node+sluice each worker's Cpu lane is guarded against the other workers (SCHED_OTHER at the process's nice value while they starve it)".into();
    t
}

/// The cross-check of the lab's load generator against autocannon, if
/// autocannon ran.
fn cannon_table(o: &Outcome, keys: &[(String, Value)]) -> Option<Table> {
    let get = |s: &str, pool: &Value, cell: &str, m: &str| metric(o, s, pool, cell, m);
    let has_cannon = o
        .rows
        .iter()
        .any(|r| r.param_text("cell").ends_with(":autocannon"));
    if !has_cannon {
        return None;
    }
    let mut t = Table::new(
        "cross-check: the lab's load generator vs autocannon (same cell, same server)",
        &[
            "subject",
            "pool",
            "cell",
            "loadgen req/s",
            "autocannon req/s",
            "ratio",
            "loadgen p99 ms",
            "autocannon p99 ms",
        ],
    );
    for (s, pool) in keys {
        for cell in ["login", "file"] {
            let ac = format!("{cell}:autocannon");
            if let Some(a) = get(s, pool, &ac, "req_s") {
                let l = get(s, pool, cell, "req_s");
                t.rows.push(vec![
                    s.clone(),
                    text(pool),
                    cell.into(),
                    rate(l),
                    rate(Some(a)),
                    ratio(l, Some(a)),
                    get(s, pool, cell, "p99_ms").map_or("-".into(), ms),
                    get(s, pool, &ac, "p99_ms").map_or("-".into(), ms),
                ]);
            }
        }
    }
    Some(t)
}

/// The notes of a run: what the cells and servers were, whether the
/// answers agreed, the cross-check, the machine's load.
fn run_notes(
    lab: &Lab,
    sweep: &Sweep<'_>,
    p: &Plan,
    bodies: &[(String, Vec<u8>, Vec<u8>)],
    cannon_used: bool,
    load_before: Option<[f64; 3]>,
) -> Vec<String> {
    let mut notes = sweep.notes();
    if let Some(compat) = sweep
        .subjects()
        .iter()
        .find(|s| matches!(s.sluice_policy(), Some(Policy::Libuv { .. })))
    {
        notes.push(format!("{}: `sluice serve --libuv`, the same server on sluice's libuv policy (one queue, UV_THREADPOOL_SIZE threads at the process's priority, nothing refused): no admission cell", compat.name()));
    }
    notes.push(format!(
        "cells: {} ms each, {} connections (floods), closed loop with keep-alive; /ping is a probe: {} connection(s), each pausing {} ms between answer and next request; req/s counts 2xx answers within the cell; p50/p99/max are of 2xx answers",
        p.duration.as_millis(),
        p.concurrency,
        p.ping_concurrency,
        p.ping_pause.as_millis()
    ));
    if let Some(d) = p.ping_during {
        notes.push(format!(
            "ping-during-login: {} ms (--ping-during), so that its p99 rests on more answers than a {}-ms cell gives",
            d.as_millis(),
            p.duration.as_millis()
        ));
    }
    notes.push(format!(
        "/login: pbkdf2('secret', 'salt', {}, 64, sha256) per request: OpenSSL in node, RustCrypto in sluice; login-1 (one request at a time) gives one hash's time through the server, and ideal req/s = {} cores / that time",
        p.iterations,
        lab.machine().cores
    ));
    notes.push(format!(
        "sluice serve runs with --cpu-queue {} in the flood cells (no 429 at {} connections); the admission cell uses --cpu-queue {} and the twin admits pool + {} at once; its clients wait Retry-After (1 s) after a 429",
        p.concurrency.max(sluice_serve::config::DEFAULT_CPU_QUEUE),
        p.concurrency,
        p.admission_queue,
        p.admission_queue
    ));
    for s in sweep.subjects() {
        if s.node_preload().is_some() && p.cells.iter().any(|c| c == "admission") {
            notes.push(format!(
                "{}: in the admission cell the twin bounds sluice's Cpu lane at {} (sluice.configure) instead of the semaphore, and answers 429 when the lane refuses (ESLUICEBUSY); its flood cells leave the lane unbounded",
                s.name(),
                p.admission_queue
            ));
        }
    }
    if sweep.subjects().iter().any(|s| s.runtime() == Runtime::Go) {
        notes.push("go: the Go twin (http.go): net/http, a goroutine per connection, /login's pbkdf2-sha256 over crypto/hmac and /gzip's compress/gzip computed in the handler (GOMAXPROCS = the pool size bounds how many compute at once), /file by os.ReadFile; its admission cell admits GOMAXPROCS + the queue at once (seed 002's semaphore, a buffered channel). Go shares the cores among every computing goroutine (preempted every 10 ms) where a pool runs its queue in turn: a flood's hashes all progress and finish together, late, so a short cell counts few of them (low req/s, while its CPU was busy) and the p99 of those it counts is near the mean".into());
    }
    if p.cells.iter().any(|c| c == "crowd") {
        notes.push(format!(
            "crowd (seed 004's headline run): {} connections at once, each asking /login of a server started with {} pbkdf2-sha256 iterations per /login, for {} ms; the seed sent 5000 concurrent requests on a MacBook M2, a 2-core machine holds a few hundred connections without measuring its own load generator; mean_ms is the mean latency of 2xx answers; crowd-ping: the same connections asking /ping of the same server (seed 004 §4's QPS table)",
            p.crowd,
            p.crowd_iterations,
            p.duration.as_millis()
        ));
    }
    notes.extend(answer_notes(bodies));
    match (&p.autocannon, cannon_used) {
        (Some(path), true) => notes.push(format!(
            "autocannon ({}) re-ran the login and file cells of pool {} as a cross-check (rows *:autocannon)",
            path.display(),
            sweep.pools().first().map_or("-".into(), |p| p.to_string())
        )),
        (Some(_), false) => {}
        (None, _) => notes.push(
            "autocannon not used (not on PATH, or --autocannon off): only the lab's load generator measured".into(),
        ),
    }
    if let (Some(a), Ok(b)) = (load_before, crate::procfs::load_average()) {
        notes.push(format!(
            "machine load average (1 min) {:.2} before and {:.2} after the run; server_cores is the CPU the server process used per second of a cell ({} cores here): what the other processes left it shows there",
            a[0],
            b[0],
            lab.machine().cores
        ));
    }
    notes
}

/// Every subject's `/login` key and `/gzip` body set against the first
/// subject's: one note each.
fn answer_notes(bodies: &[(String, Vec<u8>, Vec<u8>)]) -> Vec<String> {
    let mut notes = Vec::new();
    if let Some((first, rest)) = bodies.split_first() {
        let input = sluice_serve::payload::text(sluice_serve::config::GZIP_BYTES);
        let unpacks = |gz: &[u8]| {
            let mut out = Vec::new();
            std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(gz), &mut out).is_ok()
                && out == input
        };
        for (s, login, gz) in rest {
            notes.push(format!(
                "answers cross-checked: {s}'s /login key {} {}'s; /gzip: {} B from {s}, {} B from {} ({}), {}",
                if *login == first.1 { "equals" } else { "DIFFERS from" },
                first.0,
                gz.len(),
                first.2.len(),
                first.0,
                if *gz == first.2 { "identical bytes" } else { "different deflate streams" },
                if unpacks(gz) && unpacks(&first.2) {
                    "both gunzip to the same 256 KiB input"
                } else {
                    "NOT both the gzip of the same input"
                }
            ));
        }
    }
    notes
}

/// The command of `subject`'s server: node's twin, `sluice serve --libuv`,
/// or `sluice serve` with lanes sized from `pool`.
fn server_command(
    lab: &Lab,
    subject: &SubjectSpec,
    pool: PoolSize,
    p: &Plan,
    file: &Path,
    admission: Option<usize>,
) -> anyhow::Result<Command> {
    Ok(match (subject.runtime(), subject.sluice_policy()) {
        (Runtime::Node, _) => {
            let node = lab.node().map_err(anyhow::Error::msg)?;
            let mut cmd = Command::new(node);
            let preload = subject.node_preload();
            if let Some(preload) = &preload {
                cmd.arg("-r").arg(preload);
            }
            // With the preload, the twin admits through the package itself:
            // its Cpu lane bounded, a full lane refused with ESLUICEBUSY.
            let package = preload.as_deref().and_then(Path::parent);
            cmd.arg(lab.node_script("http")?).arg(
                json!({
                    "iterations": p.iterations,
                    "gzip_bytes": sluice_serve::config::GZIP_BYTES,
                    "file": file,
                    "cpu_queue": admission,
                    "sluice_package": package,
                    "cluster": p.cluster,
                })
                .to_string(),
            );
            pool_env(&mut cmd, "UV_THREADPOOL_SIZE", pool);
            cmd
        }
        (Runtime::Go, _) => {
            let mut cmd = Command::new(lab.go_program("http")?);
            cmd.arg(
                json!({
                    "iterations": p.iterations,
                    "gzip_bytes": sluice_serve::config::GZIP_BYTES,
                    "file": file,
                    "cpu_queue": admission,
                })
                .to_string(),
            );
            pool_env(&mut cmd, "GOMAXPROCS", pool);
            cmd
        }
        (Runtime::Rust, Some(Policy::Libuv { .. })) => {
            let mut cmd = Command::new(lab.exe());
            cmd.args(["serve", "--listen", "127.0.0.1:0", "--libuv"])
                .args(["--login-iterations", &p.iterations.to_string()])
                .arg("--file")
                .arg(file);
            pool_env(&mut cmd, "UV_THREADPOOL_SIZE", pool);
            cmd
        }
        (Runtime::Rust, Some(Policy::Lanes)) => {
            let mut cmd = Command::new(lab.exe());
            let bound =
                admission.unwrap_or(p.concurrency.max(sluice_serve::config::DEFAULT_CPU_QUEUE));
            cmd.args(["serve", "--listen", "127.0.0.1:0"])
                .args(["--cpu-queue", &bound.to_string()])
                .args(["--login-iterations", &p.iterations.to_string()])
                .arg("--file")
                .arg(file);
            if let PoolSize::Size(n) = pool {
                let cores = lab.machine().cores;
                cmd.args(["--cpu-threads", &n.min(cores).to_string()])
                    .args(["--fastio-threads", &n.to_string()])
                    .args(["--slowio-threads", &n.to_string()]);
            }
            for v in sluice::ENV_VARS {
                cmd.env_remove(v);
            }
            cmd
        }
        _ => bail!("{} has no HTTP server", subject.name()),
    })
}

/// Sets `var` to the pool size, or removes it for an unset pool.
fn pool_env(cmd: &mut Command, var: &str, pool: PoolSize) {
    match pool {
        PoolSize::Unset => cmd.env_remove(var),
        PoolSize::Size(n) => cmd.env(var, n.to_string()),
    };
}

/// The goals, checked on this run's numbers for each subject with lanes
/// (`sluice serve`, and Node with the npm package) at its largest pool size:
/// `/login` at 90 % of the ideal for both; `/ping`'s p99 during the flood
/// within 5 ms for the Rust service and within 2 ms for Node with the
/// package (its goal as an npm package: Node's own twin gives 4-11 ms).
fn goals(o: &Outcome) -> Vec<String> {
    crate::subject::SUBJECTS
        .iter()
        .filter(|s| s.has_lanes() && o.rows.iter().any(|r| r.subject == s.name()))
        .flat_map(|s| {
            let ping_goal = if s.runtime() == Runtime::Node {
                2.0
            } else {
                5.0
            };
            subject_goals(o, s.name(), ping_goal)
        })
        .collect()
}

/// `subject`'s largest pool size in `o` (`unset` counts as the largest).
pub(crate) fn largest_pool(o: &Outcome, subject: &str) -> Option<Value> {
    o.rows
        .iter()
        .filter(|r| r.subject == subject)
        .map(|r| r.params["pool"].clone())
        .max_by(|a, b| {
            a.as_f64()
                .unwrap_or(f64::MAX)
                .total_cmp(&b.as_f64().unwrap_or(f64::MAX))
        })
}

/// `/login` under the flood against the machine's ideal, one subject at one
/// pool size.
#[derive(Debug, Clone, Copy)]
pub(crate) struct LoginShare {
    /// `/login` answers per second under the flood.
    pub(crate) req_s: f64,
    /// One hash's time alone (`login-1`'s p50), ms.
    pub(crate) hash_ms: f64,
    /// Cores / one hash's time: what the machine could answer.
    pub(crate) ideal_req_s: f64,
    /// `req_s / ideal_req_s`.
    pub(crate) share: f64,
}

/// `/login`'s share of the ideal for `subject` at `pool`, where both cells ran.
pub(crate) fn login_share(o: &Outcome, subject: &str, pool: &Value) -> Option<LoginShare> {
    let req_s = metric(o, subject, pool, "login", "req_s")?;
    let hash_ms = metric(o, subject, pool, "login-1", "p50_ms")?;
    let ideal_req_s = ideal(o, subject, pool)?;
    Some(LoginShare {
        req_s,
        hash_ms,
        ideal_req_s,
        share: req_s / ideal_req_s,
    })
}

/// The goals of one subject with lanes, at its largest pool size.
fn subject_goals(o: &Outcome, lanes: &str, ping_goal: f64) -> Vec<String> {
    let cores = o.machine.cores as f64;
    let metric = |pool: &Value, cell: &str, m: &str| metric(o, lanes, pool, cell, m);
    let Some(pool) = largest_pool(o, lanes) else {
        return vec![];
    };
    let mut out = Vec::new();
    if let Some(LoginShare {
        req_s: req,
        hash_ms: hash,
        ideal_req_s: ideal,
        share,
    }) = login_share(o, lanes, &pool)
    {
        let got = metric(&pool, "login", "server_cores").map_or(String::new(), |c| {
            format!(
                "; the server process got {c:.2} of the {cores} cores during the flood, and {:.0}% of what it got went into hashes (req/s x one hash's time / cores used)",
                req * hash / 1e3 / c * 100.0
            )
        });
        out.push(format!(
            "goal /login throughput >= 90% of cores / one hash's time: {lanes} pool {}: {req:.1} req/s of {ideal:.1} ({} cores / {hash:.1} ms) = {:.0}%: {}{got}",
            text(&pool),
            cores,
            share * 100.0,
            if share >= 0.9 { "met" } else { "NOT met" }
        ));
    }
    if let Some(p99) = metric(&pool, "ping-during-login", "p99_ms") {
        // How many answers the p99 rests on: over the goal, of all.
        let over = metric(&pool, "ping-during-login", &format!("over_{ping_goal}ms"))
            .zip(metric(&pool, "ping-during-login", "ok"))
            .map_or(String::new(), |(o, n)| {
                format!(" ({o:.0} of {n:.0} answers over {ping_goal} ms)")
            });
        out.push(format!(
            "goal /ping p99 <= {ping_goal} ms during a /login flood: {lanes} pool {}: {p99:.2} ms{over}: {}",
            text(&pool),
            if p99 <= ping_goal { "met" } else { "NOT met" }
        ));
    }
    out
}

/// `name` on `PATH`, if there.
pub(super) fn find_on_path(name: &str) -> Option<PathBuf> {
    std::env::var_os("PATH")
        .into_iter()
        .flat_map(|paths| std::env::split_paths(&paths).collect::<Vec<_>>())
        .map(|dir| dir.join(name))
        .find(|p| p.is_file())
}

/// One GET, for the cross-check of the answers' bytes.
fn get(url: &str) -> anyhow::Result<Vec<u8>> {
    let u = sluice_serve::loopback::check_url(url).map_err(anyhow::Error::msg)?;
    sluice_serve::doctor::fetch_bytes(&u, Duration::from_secs(60))
}

/// autocannon on `url`: `-c c -d seconds -j`; its req/s average, p50, p99,
/// non-2xx and errors.
pub(super) fn autocannon(
    cannon: &Path,
    url: &str,
    c: usize,
    duration: Duration,
) -> anyhow::Result<Vec<(&'static str, f64)>> {
    let secs = duration.as_secs_f64().ceil().max(1.0) as u64;
    let out = Command::new(cannon)
        .args(["-c", &c.to_string(), "-d", &secs.to_string(), "-j", url])
        .stdin(Stdio::null())
        .output()
        .with_context(|| format!("running {}", cannon.display()))?;
    if !out.status.success() {
        bail!(
            "autocannon failed ({}): {}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let text = String::from_utf8_lossy(&out.stdout);
    let v: Value = text
        .lines()
        .rev()
        .find_map(|l| serde_json::from_str(l).ok())
        .with_context(|| format!("autocannon printed no JSON: {text:?}"))?;
    let num = |p: &[&str]| p.iter().fold(&v, |v, k| &v[*k]).as_f64();
    let ok = num(&["2xx"]).unwrap_or(0.0);
    Ok(vec![
        ("req_s", ok / secs as f64),
        (
            "requests_avg_s",
            num(&["requests", "average"]).unwrap_or(f64::NAN),
        ),
        ("p50_ms", num(&["latency", "p50"]).unwrap_or(f64::NAN)),
        ("p99_ms", num(&["latency", "p99"]).unwrap_or(f64::NAN)),
        ("non2xx", num(&["non2xx"]).unwrap_or(0.0)),
        ("errors", num(&["errors"]).unwrap_or(0.0)),
    ]
    .into_iter()
    .filter(|(_, v)| v.is_finite())
    .collect())
}

/// A server child: the Node twin or `sluice serve`, on a free loopback port.
struct Server {
    child: Child,
    port: u16,
    what: String,
    /// Node's server may exit non-zero on SIGTERM; sluice serve may not.
    node: bool,
    stderr: std::thread::JoinHandle<String>,
}

impl Server {
    /// Starts `c`'s subject's server at `c`'s pool size.
    fn start(
        c: &Cell<'_, ()>,
        p: &Plan,
        file: &Path,
        admission: Option<usize>,
    ) -> anyhow::Result<Server> {
        let (lab, subject, pool) = (c.lab(), c.subject, c.pool);
        let what = format!("{} server (pool {pool})", subject.name());
        let mut cmd = server_command(lab, subject, pool, p, file, admission)?;
        let crate::lab::Captured {
            mut child,
            lines: rx,
            stderr,
            ..
        } = crate::lab::spawn_captured(&mut cmd, &format!("the {what}"))?;
        let started = Instant::now();
        let port = loop {
            match rx.recv_timeout(Duration::from_millis(50)) {
                Ok(line) => {
                    if let Some(port) = listening_port(&line) {
                        break port;
                    }
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    let _ = child.wait();
                    bail!(
                        "the {what} exited before listening: {}",
                        stderr.join().unwrap_or_default()
                    );
                }
            }
            if started.elapsed() > Duration::from_secs(30) {
                let _ = child.kill();
                let _ = child.wait();
                bail!("the {what} did not start listening within 30 s");
            }
        };
        Ok(Server {
            child,
            port,
            what,
            node: subject.runtime() == Runtime::Node,
            stderr,
        })
    }

    /// CPU seconds the server has used so far.
    fn cpu_seconds(&self) -> Option<f64> {
        crate::procfs::cpu_seconds(self.child.id()).ok()
    }

    /// SIGTERM, then wait for a clean exit (sluice serve's graceful
    /// shutdown is part of what is tested).
    fn stop(mut self) -> anyhow::Result<()> {
        let pid = nix::unistd::Pid::from_raw(self.child.id() as i32);
        let _ = nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGTERM);
        let t = Instant::now();
        let status = loop {
            if let Some(s) = self.child.try_wait()? {
                break s;
            }
            if t.elapsed() > Duration::from_secs(30) {
                let _ = self.child.kill();
                let _ = self.child.wait();
                bail!("the {} did not exit within 30 s of SIGTERM", self.what);
            }
            std::thread::sleep(Duration::from_millis(5));
        };
        let stderr = self.stderr.join().unwrap_or_default();
        if !status.success() && !self.node {
            bail!(
                "the {} exited with {status} after SIGTERM: {stderr}",
                self.what
            );
        }
        Ok(())
    }
}

/// The port of a "listening" line of either server.
fn listening_port(line: &str) -> Option<u16> {
    if let Ok(v) = serde_json::from_str::<Value>(line)
        && v["event"] == "listening"
    {
        return v["port"].as_u64().and_then(|p| u16::try_from(p).ok());
    }
    let rest = line.split("listening on http://").nth(1)?;
    let addr = rest.split_whitespace().next()?;
    addr.parse::<std::net::SocketAddr>().ok().map(|a| a.port())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_both_servers_listening_lines() {
        assert_eq!(
            listening_port(r#"{"event":"listening","port":4321,"pool":4}"#),
            Some(4321)
        );
        assert_eq!(
            listening_port("sluice serve: listening on http://127.0.0.1:8080 (cpu 2 threads)"),
            Some(8080)
        );
        assert_eq!(listening_port("something else"), None);
    }
}
