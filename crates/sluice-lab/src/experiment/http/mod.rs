//! `http` (seed 000 §5, seed 002 §3): the demo service under load, Node's
//! twin against `sluice serve`.
//!
//! Per subject and pool size one server is started as a child: the Node
//! twin (`http.js`, `UV_THREADPOOL_SIZE` = the pool size), `sluice serve
//! --libuv` for `sluice-compat` (the same Rust server on libuv's pool,
//! `UV_THREADPOOL_SIZE` = the pool size) or `sluice serve` (`lab.runner().exe()
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
use crate::PoolSize::Size;
use crate::lab::Lab;
use crate::loadgen::{self, Load, LoadReport};
use crate::outcome::{Outcome, Row};
use crate::report::{Chart, Table};
use crate::subject::{Need, Runtime};
use crate::sweep::{Cell, Sweep};
use anyhow::{Context, bail};
use sluice::Policy;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

mod autocannon;
mod goals;
mod neighbour;
mod server;
mod tables;

pub(crate) use autocannon::{autocannon, find_on_path};
pub use goals::LoginShare;
use server::{Server, get};
use tables::{
    cannon_table, cell_series, cluster_table, crowd_table, ideal, keys, neighbour_table,
    ping_table, route_table, summary_table,
};

/// One row of `http`'s result, typed (the fields of its `--json` rows):
/// one cell (`login`, `ping-during-login`, `crowd`, ...) of one subject's
/// server at one pool size.
#[derive(Debug, Clone, serde::Deserialize)]
pub struct HttpRow {
    /// Whose row: the subject and the pool size.
    #[serde(flatten)]
    pub key: crate::outcome::RowKey,
    /// The cell.
    pub cell: String,
    /// What the load generator measured (the cells it drove).
    #[serde(flatten)]
    pub load: Option<LoadFigures>,
    /// Connections the load generator kept open (the crowd cells).
    pub connections: Option<f64>,
}

/// The load generator's figures in an http row, as `metrics` writes them
/// from its report (the rest of what it writes, `sent`, `errors`, p50 and
/// max, the report does not read).
#[derive(Debug, Clone, serde::Deserialize)]
pub struct LoadFigures {
    /// Answers per second.
    pub req_s: f64,
    /// Answers that were 2xx.
    pub ok: f64,
    /// Answers over 2 ms.
    pub over_2ms: f64,
    /// Mean latency of the 2xx answers, ms (none where nothing answered).
    pub mean_ms: Option<f64>,
    /// p99 latency, ms.
    pub p99_ms: Option<f64>,
}

impl HttpRow {
    /// The load figures of `subject`'s row of `cell` at `pool` among
    /// `rows`.
    pub fn load<'a>(
        rows: &'a [HttpRow],
        subject: &str,
        pool: crate::PoolSize,
        cell: &str,
    ) -> Option<&'a LoadFigures> {
        rows.iter()
            .find(|r| r.key.is(subject, pool) && r.cell == cell)?
            .load
            .as_ref()
    }

    /// `subject`'s largest pool size among `rows` (`unset` counts as the
    /// largest).
    pub fn largest_pool(rows: &[HttpRow], subject: &str) -> Option<crate::PoolSize> {
        rows.iter()
            .filter(|r| r.key.subject == subject)
            .map(|r| r.key.pool)
            .max_by_key(|p| p.size().unwrap_or(usize::MAX))
    }
}

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
            cores: lab.record().machine().cores,
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
        let file = lab.runner().scratch().join("http-file-4k.txt");
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
        let checked = goals::goals(&o);
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
        lab.record().machine().cores
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
    if sweep.runs(Runtime::Go) {
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
            lab.record().machine().cores
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
