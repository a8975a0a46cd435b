//! `dns` (seed 001, "The lab: my own resolver"): `--names` distinct names
//! looked up at once, family 4, against the DNS delay server holding every
//! query `--hold-ms`; the server counts the most names in flight, the
//! child times the batch.
//!
//! Every child runs inside a private network and mount namespace
//! ([`sluice_testnet::netns`]) whose `/etc/resolv.conf` names the delay server, so
//! each subject resolves through its own, real resolver path:
//!
//! - node, `dns.lookup(name, {family: 4})`: `getaddrinfo` on libuv's pool,
//!   as slow I/O, so at most `(n + 1) / 2` at once;
//! - node, `dns.resolve4(name)`: c-ares on the event loop, no pool (and no
//!   `/etc/hosts`);
//! - sluice-compat: `getaddrinfo(name, AF_INET)` as a `SlowIo` task under
//!   the libuv policy: the same rule as node;
//! - sluice: `sluice::dns` (the system resolver: `/etc/hosts`, then the
//!   name server, on the child's event loop), no pool thread;
//! - tokio: `getaddrinfo(name, AF_INET)` in `spawn_blocking`.
//!
//! Each child first resolves a warm-up name the server answers at once
//! (`--fast`), so starting the pool or the resolver is not timed.
//!
//! Rows: `params` `pool`, `names`, `hold_ms`, `method`; metrics
//! `max_in_flight` (the server's most distinct names held at once),
//! `total_ms` (first lookup submitted to last answered, in the child),
//! `resolved` (names answered with the server's address), `queries`
//! (queries the server held, net of retransmissions), and where the subject
//! has a sluice pool `pool_tasks` (`SlowIo` tasks started during the
//! batch); for sluice `hosts_match` (1 if `sluice::dns` answered
//! `localhost` from `/etc/hosts` with `getaddrinfo`'s addresses) and the
//! param `mode` (`native`, or `getaddrinfo: why` where the system's
//! configuration makes `sluice::dns` fall back).

use super::{ArgSpec, Args, Experiment, repeat};
use crate::PoolSize;
use crate::lab::Lab;
use crate::outcome::{Outcome, Row};
use crate::report::{Chart, Table, ms, ratio};
use crate::subject::{ChildContext, Kind, run_on};
use anyhow::{Context, bail};
use serde_json::{Value, json};
use sluice::Lane;
use sluice::dns::{Family, Resolver};
use sluice_testnet::dns_delay::{DelayConfig, FastPattern};
use std::collections::BTreeSet;
use std::net::{IpAddr, ToSocketAddrs};
use std::time::{Duration, Instant};

/// One name's addresses, or why it has none.
type Answer = Result<Vec<IpAddr>, String>;

/// The dns experiment.
pub(crate) struct Dns;

const ARGS: &[ArgSpec] = &[
    ArgSpec {
        name: "names",
        value_name: "N",
        help: "how many distinct names are looked up at once",
        default: "24",
        report: "24",
    },
    ArgSpec {
        name: "hold-ms",
        value_name: "MS",
        help: "how long the DNS delay server holds every query (the seed's: 300; at most 1800, as c-ares resends after 2 s)",
        default: "300",
        report: "100",
    },
];

/// The delay server's answer.
const ANSWER: &str = "127.0.0.2";
/// The warm-up name, answered at once.
const WARMUP: &str = "warmup.fast.sluice.test";

/// What each subject resolves with (the `method` param).
fn methods(subject: &str) -> &'static [&'static str] {
    match subject {
        "node" => &["dns.lookup", "dns.resolve4"],
        "sluice" => &["sluice::dns"],
        _ => &["getaddrinfo"],
    }
}

/// A column's name: the subject, and node's method.
fn column(subject: &str, method: &str) -> String {
    match subject {
        "node" => format!("node {method}"),
        s => s.to_string(),
    }
}

/// The delay server every child asks.
pub(crate) fn delay_server(hold: Duration) -> DelayConfig {
    DelayConfig {
        hold,
        ttl: 0,
        answer_v4: Some(ANSWER.parse().expect("an IPv4 address")),
        answer_v6: None,
        fast: vec![
            "*.fast.sluice.test"
                .parse::<FastPattern>()
                .expect("a pattern"),
        ],
        ..DelayConfig::default()
    }
}

impl Experiment for Dns {
    fn name(&self) -> &'static str {
        "dns"
    }

    fn about(&self) -> &'static str {
        "24 names at once against a resolver that holds each 300 ms: lookups in flight, counted by the resolver (seed 001)"
    }

    fn long_about(&self) -> &'static str {
        "Seed 001, \"The lab: my own resolver\": look up --names distinct names at once (family 4) against a DNS server that holds every query --hold-ms and counts the distinct names in flight. Node's dns.lookup runs getaddrinfo on libuv's pool as slow I/O, so at most (n + 1) / 2 lookups run at once and 24 names take ceil(24 / in flight) holds; dns.resolve4 leaves the pool but ignores /etc/hosts. sluice-compat runs getaddrinfo as SlowIo under the libuv rule, tokio in spawn_blocking, and sluice uses sluice::dns, which honours /etc/hosts and resolv.conf and holds no pool thread. Every child runs in a private network and mount namespace whose /etc/resolv.conf names the delay server (root, or unprivileged user namespaces, needed); the machine's own resolv.conf is never touched, and is checked after every run."
    }

    fn args(&self) -> &'static [ArgSpec] {
        ARGS
    }

    fn default_pools(&self, report: bool) -> Vec<PoolSize> {
        if report {
            vec![PoolSize::Unset, PoolSize::Size(8)]
        } else {
            let mut p = vec![PoolSize::Unset];
            p.extend([1, 2, 3, 4, 6, 8, 16].map(PoolSize::Size));
            p
        }
    }

    fn node_script(&self) -> &'static str {
        include_str!("dns.js")
    }

    fn run(&self, lab: &Lab, args: &Args) -> anyhow::Result<Outcome> {
        let n = args.number("names", 1, 1024)?;
        // glibc waits 5 s and c-ares 2 s before they resend a query.
        let hold_ms = args.number("hold-ms", 1, 1800)?;
        sluice_testnet::netns::available(lab.exe()).map_err(anyhow::Error::msg)?;
        let pools = lab.pools_for(self);
        let names: Vec<String> = (1..=n)
            .map(|i| format!("n{i:02}.dns.sluice.test"))
            .collect();
        let server = delay_server(Duration::from_millis(hold_ms));
        let runs: Vec<(&'static dyn crate::subject::Subject, &'static str)> = lab
            .subjects()
            .iter()
            .flat_map(|s| methods(s.name()).iter().map(move |m| (*s, *m)))
            .collect();
        let bar = lab.progress((lab.reps() * pools.len() * runs.len()) as u64, "dns");
        let rows = repeat(lab, |_| {
            let mut rows = Vec::new();
            for &pool in &pools {
                for &(subject, method) in &runs {
                    bar.set_message(format!("{} {method} pool {pool}", subject.name()));
                    let params = json!({
                        "names": names,
                        "method": method,
                        "warmup": WARMUP,
                        "answer": ANSWER,
                    });
                    let (r, stats) =
                        lab.run_child_in_netns(subject, self.name(), pool, &params, &server, None)?;
                    let what = || format!("{} {method} (pool {pool})", subject.name());
                    let resolved = r["resolved"]
                        .as_u64()
                        .with_context(|| format!("{}: resolved", what()))?;
                    if resolved != n {
                        bail!(
                            "{} resolved {resolved} of {n} names to {ANSWER}; errors: {}",
                            what(),
                            r["errors"]
                        );
                    }
                    let mut row = Row::new(subject.name())
                        .param("pool", pool.to_value())
                        .param("names", n)
                        .param("hold_ms", hold_ms)
                        .param("method", method)
                        .metric("max_in_flight", stats.max_in_flight_names as f64)
                        .metric(
                            "total_ms",
                            r["total_ms"]
                                .as_f64()
                                .with_context(|| format!("{}: total_ms", what()))?,
                        )
                        .metric("resolved", resolved as f64)
                        .metric(
                            "queries",
                            (stats.queries_total - stats.retransmits_total) as f64,
                        );
                    for extra in ["pool_tasks", "hosts_match"] {
                        if let Some(v) = r[extra].as_f64() {
                            row = row.metric(extra, v);
                        }
                    }
                    if let Some(mode) = r["mode"].as_str() {
                        row = row.param("mode", mode);
                    }
                    rows.push(row);
                    bar.inc(1);
                }
            }
            Ok(rows)
        })?;
        bar.finish_and_clear();
        let mut notes = lab.pool_notes(&pools);
        notes.push(format!(
            "every child ran in a private network and mount namespace: lo up, /etc/resolv.conf (bind-mounted there only) naming the DNS delay server on 127.0.0.1:53, which held each query {hold_ms} ms, answered {ANSWER} with TTL 0, and counted the distinct names in flight (max_in_flight); the machine's /etc/resolv.conf was checked unchanged after every run"
        ));
        notes.push(format!(
            "the {n} names were looked up at once with family 4 (one A query each); each child first resolved {WARMUP}, answered at once, so pool and resolver start-up are not timed"
        ));
        if lab.subjects().iter().any(|s| s.kind() == Kind::Node) {
            notes.push("node dns.lookup: getaddrinfo on libuv's pool as slow I/O, at most (n + 1) / 2 at once; node dns.resolve4: c-ares on the event loop, no pool, and no /etc/hosts".into());
        }
        let fallbacks: BTreeSet<String> = rows
            .iter()
            .map(|r| r.param_text("mode"))
            .filter(|m| m.starts_with("getaddrinfo"))
            .collect();
        for m in fallbacks {
            notes.push(format!("sluice::dns ran in {m}, so its lookups were getaddrinfo on the SlowIo lane (its budget is the pool size)"));
        }
        notes.push("sluice-compat and tokio: getaddrinfo(name, AF_INET) as a SlowIo task (libuv policy) or in spawn_blocking; sluice: sluice::dns::Resolver::system() on the child's event loop (hickory-resolver; /etc/hosts first, then the name server), pool_tasks = SlowIo tasks it started (0: no pool thread held)".into());
        Ok(lab.outcome(self.name(), rows, notes))
    }

    fn child(&self, cx: &ChildContext, params: &Value) -> anyhow::Result<Value> {
        let names: Vec<String> =
            serde_json::from_value(params["names"].clone()).context("names")?;
        let method = params["method"].as_str().context("method")?;
        let warmup = params["warmup"].as_str().context("warmup")?.to_string();
        let answer: IpAddr = params["answer"].as_str().context("answer")?.parse()?;
        let exec = cx.exec.as_ref();
        let slow_started = || exec.metrics().map(|m| m.lane(Lane::SlowIo).started_total);
        let mut out = json!({});
        let (started, before, results): (Instant, Option<u64>, Vec<Answer>) = match method {
            "getaddrinfo" => {
                let look = |name: String| async move {
                    run_on(exec, Lane::SlowIo, move || {
                        sluice::dns::getaddrinfo(&name, Family::V4)
                    })
                    .await?
                    .map_err(|e| e.to_string())
                };
                cx.block_on(look(warmup)).map_err(anyhow::Error::msg)?;
                let before = slow_started();
                let t0 = Instant::now();
                let all = cx.block_on(futures::future::join_all(names.iter().cloned().map(look)));
                (t0, before, all)
            }
            "sluice::dns" => {
                let mut b = sluice::dns::Builder::system()?;
                if let Some(pool) = exec.pool() {
                    b = b.fallback_pool(pool.clone());
                }
                let resolver: Resolver = b.build()?;
                out["mode"] = json!(match resolver.mode() {
                    sluice::dns::Mode::Native { .. } => "native".to_string(),
                    sluice::dns::Mode::Getaddrinfo { reason } => format!("getaddrinfo: {reason}"),
                });
                // /etc/hosts still honoured: localhost as getaddrinfo has it.
                let ours: BTreeSet<IpAddr> = cx
                    .block_on(resolver.lookup("localhost", Family::Any))
                    .unwrap_or_default()
                    .into_iter()
                    .collect();
                let libc: BTreeSet<IpAddr> = ("localhost", 0)
                    .to_socket_addrs()
                    .map(|a| a.map(|s| s.ip()).collect())
                    .unwrap_or_default();
                out["hosts_match"] = json!(u8::from(!ours.is_empty() && ours == libc));
                cx.block_on(resolver.lookup(&warmup, Family::V4))?;
                let before = slow_started();
                let t0 = Instant::now();
                let all = cx.block_on(futures::future::join_all(
                    names.iter().map(|n| resolver.lookup(n, Family::V4)),
                ));
                (
                    t0,
                    before,
                    all.into_iter()
                        .map(|r| r.map_err(|e| e.to_string()))
                        .collect(),
                )
            }
            m => bail!("method {m:?} is not a Rust subject's"),
        };
        let total = started.elapsed();
        if let (Some(b), Some(a)) = (before, slow_started()) {
            out["pool_tasks"] = json!(a - b);
        }
        out["total_ms"] = json!(total.as_secs_f64() * 1e3);
        out["resolved"] = json!(
            results
                .iter()
                .filter(|r| matches!(r, Ok(a) if a == &[answer]))
                .count()
        );
        out["errors"] = json!(
            results
                .iter()
                .filter_map(|r| r.as_ref().err())
                .take(3)
                .collect::<Vec<_>>()
        );
        Ok(out)
    }

    fn tables(&self, o: &Outcome) -> Vec<Table> {
        let mut columns: Vec<(String, String)> = Vec::new();
        let mut pools: Vec<Value> = Vec::new();
        for r in &o.rows {
            let c = (r.subject.clone(), r.param_text("method"));
            if !columns.contains(&c) {
                columns.push(c);
            }
            if !pools.contains(&r.params["pool"]) {
                pools.push(r.params["pool"].clone());
            }
        }
        let Some(first) = o.rows.first() else {
            return Vec::new();
        };
        let n = first.param_text("names");
        let hold = first.param_text("hold_ms");
        let get = |subject: &str, method: &str, pool: &Value, metric: &str| {
            o.metric(
                subject,
                &[("pool", pool.clone()), ("method", json!(method))],
                metric,
            )
        };
        let pool_cell = |p: &Value| match p.as_u64() {
            Some(n) => n.to_string(),
            None => "unset (4)".into(),
        };
        let libuv_rule = |p: &Value| {
            let n = p.as_u64().unwrap_or(4);
            n.div_ceil(2).to_string()
        };
        let mut header = vec!["pool".to_string(), "libuv (n+1)/2".to_string()];
        header.extend(columns.iter().map(|(s, m)| column(s, m)));
        let in_flight = Table {
            title: format!("dns, {n} names, each held {hold} ms: most names in flight at once, counted by the resolver"),
            header,
            rows: pools
                .iter()
                .map(|p| {
                    let mut row = vec![pool_cell(p), libuv_rule(p)];
                    row.extend(columns.iter().map(|(s, m)| {
                        get(s, m, p, "max_in_flight").map_or("-".into(), |v| format!("{v:.0}"))
                    }));
                    row
                })
                .collect(),
            note: "pool: UV_THREADPOOL_SIZE for node and sluice-compat, the lane budgets for sluice, max_blocking_threads for tokio (unset: 4 for node and sluice-compat, 512 for tokio). libuv (n+1)/2 is the slow-I/O threshold of libuv's threadpool.c for that size.".into(),
        };
        let lookup = ("node".to_string(), "dns.lookup".to_string());
        let has_lookup = columns.contains(&lookup);
        let mut header = vec!["pool".to_string()];
        header.extend(columns.iter().map(|(s, m)| format!("{} ms", column(s, m))));
        let others: Vec<&(String, String)> = columns.iter().filter(|c| **c != lookup).collect();
        if has_lookup {
            header.extend(
                others
                    .iter()
                    .map(|(s, m)| format!("{}/lookup", column(s, m))),
            );
        }
        let totals = Table {
            title: format!("dns, {n} names, each held {hold} ms: total ms for the batch"),
            header,
            rows: pools
                .iter()
                .map(|p| {
                    let mut row = vec![pool_cell(p)];
                    row.extend(
                        columns
                            .iter()
                            .map(|(s, m)| get(s, m, p, "total_ms").map_or("-".into(), ms)),
                    );
                    if has_lookup {
                        let base = get("node", "dns.lookup", p, "total_ms");
                        row.extend(
                            others
                                .iter()
                                .map(|(s, m)| ratio(get(s, m, p, "total_ms"), base)),
                        );
                    }
                    row
                })
                .collect(),
            note: String::new(),
        };
        vec![in_flight, totals]
    }

    fn chart(&self, o: &Outcome) -> Option<Chart> {
        let mut series = Vec::new();
        for r in &o.rows {
            let (Some(&t), x) = (
                r.metrics.get("total_ms"),
                r.params["pool"].as_f64().unwrap_or(4.0),
            ) else {
                continue;
            };
            let name = column(&r.subject, &r.param_text("method"));
            crate::report::add_point(
                &mut series,
                name,
                &r.subject,
                r.param_text("method") == "dns.resolve4",
                (x, t),
            );
        }
        for s in &mut series {
            s.points.sort_by(|a, b| a.0.total_cmp(&b.0));
        }
        Some(Chart {
            title: "dns: total ms for the batch of names, by pool size".into(),
            x_label: "pool size (unset drawn at 4)".into(),
            y_label: "total ms".into(),
            series,
        })
    }
}
