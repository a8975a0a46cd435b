//! `dns` (seed 001, "The lab: my own resolver"): `--names` distinct names
//! looked up at once, family 4, against the DNS delay server holding every
//! query `--hold`; the server counts the most names in flight, the
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
//! - tokio: `getaddrinfo(name, AF_INET)` in `spawn_blocking`;
//! - go `pure`: Go's own resolver (`net.Resolver{PreferGo: true}`), the
//!   query sent from the goroutine and parked on the netpoller; go `cgo`:
//!   `getaddrinfo` in a cgo call (`GODEBUG=netdns=cgo`), a thread each.
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

mod child;

use super::{ArgSpec, Args, Experiment, ExperimentSpec, Kind};
use crate::PoolSize::{Size, Unset};
use crate::lab::Lab;
use crate::outcome::{Outcome, Row};
use crate::report::{Chart, Point, Table, ms, ratio, series_of};
use crate::subject::{ChildContext, Runtime, SubjectSpec, run_on};
use crate::sweep::Sweep;
use anyhow::{Context, bail};
use serde_json::{Value, json};
use sluice::Lane;
use sluice_dns::{Family, Resolver};
use sluice_testnet::dns_delay::{DelayConfig, FastPattern};
use std::collections::BTreeSet;
use std::net::{IpAddr, ToSocketAddrs};
use std::time::{Duration, Instant};

/// The declaration of `dns`.
pub(super) static SPEC: ExperimentSpec = ExperimentSpec::new("dns", &Dns)
    .seed("seed 001, \"The lab: my own resolver\"")
    .flags(ARGS)
    .pools(&[
        Unset,
        Size(1),
        Size(2),
        Size(3),
        Size(4),
        Size(6),
        Size(8),
        Size(16),
    ])
    .report_pools(&[Unset, Size(8)])
    .short_pools(&[Size(4)])
    .rust(&Dns)
    .rerouted()
    .bars();

/// One name's addresses, or why it has none.
type Answer = Result<Vec<IpAddr>, String>;

/// What the parent sends a child (node's `dns.js` or `lab-child`).
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub(crate) struct LookupParams {
    /// The names looked up at once.
    names: Vec<String>,
    /// `dns.lookup`, `dns.resolve4`, `getaddrinfo` or `sluice::dns`.
    method: String,
    /// A name resolved first, untimed.
    warmup: String,
    /// The address every name should resolve to.
    answer: String,
}

/// What a child prints: the batch's time and counts.
#[derive(Debug, Clone, Default, serde::Serialize, serde::Deserialize)]
pub(crate) struct LookupReply {
    /// Wall ms for the whole batch.
    total_ms: f64,
    /// Names resolved to exactly the answer.
    resolved: u64,
    /// The first few errors.
    errors: Vec<String>,
    /// SlowIo tasks the batch started (Rust subjects with metrics).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pool_tasks: Option<u64>,
    /// 1 when sluice::dns still honours /etc/hosts (sluice::dns only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    hosts_match: Option<u8>,
    /// sluice::dns's mode: `native` or `getaddrinfo: why`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    mode: Option<String>,
    /// Threads of the process before the batch (go).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    threads_before: Option<u64>,
    /// The most threads during the batch (go).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    threads_peak: Option<u64>,
}

/// A pool size as a cell: libuv's default when unset.
fn pool_cell(p: &Value) -> String {
    match p.as_u64() {
        Some(n) => n.to_string(),
        None => "unset (4)".into(),
    }
}

/// libuv's slow-I/O threshold at pool size `p` (unset: libuv's 4),
/// `(n + 1) / 2`: the core's `slow_work_thread_threshold`.
fn libuv_rule(p: &Value) -> String {
    let n = p
        .as_u64()
        .map_or(sluice::compat::LIBUV_DEFAULT_THREADS, |n| {
            usize::try_from(n).unwrap_or(usize::MAX)
        });
    sluice::compat::slow_work_thread_threshold(n).to_string()
}

/// One lookup run's row: the child's counts and time, the server's counts.
fn lookup_row(
    row: Row,
    r: &LookupReply,
    stats: &sluice_testnet::dns_delay::Stats,
    n: u64,
    what: &str,
) -> anyhow::Result<Row> {
    if r.resolved != n {
        bail!(
            "{what} resolved {} of {n} names to {ANSWER}; errors: {:?}",
            r.resolved,
            r.errors
        );
    }
    let mut row = row
        .metric("max_in_flight", stats.max_in_flight_names as f64)
        .metric("total_ms", r.total_ms)
        .metric("resolved", r.resolved as f64)
        .metric(
            "queries",
            (stats.queries_total - stats.retransmits_total) as f64,
        );
    if let Some(v) = r.pool_tasks {
        row = row.metric("pool_tasks", v as f64);
    }
    if let Some(v) = r.hosts_match {
        row = row.metric("hosts_match", f64::from(v));
    }
    if let Some(mode) = &r.mode {
        row = row.param("mode", mode.as_str());
    }
    if let (Some(before), Some(peak)) = (r.threads_before, r.threads_peak) {
        row = row
            .metric("threads_peak", peak as f64)
            .metric("threads_added", peak.saturating_sub(before) as f64);
    }
    Ok(row)
}

/// The dns experiment.
pub(crate) struct Dns;

const ARGS: &[ArgSpec] = &[
    ArgSpec {
        name: "names",
        value_name: "N",
        help: "how many distinct names are looked up at once",
        default: "24",
        report: "24",
        kind: Kind::Number { min: 1, max: 1024 },
    },
    ArgSpec {
        name: "hold",
        value_name: "DURATION",
        help: "how long the DNS delay server holds every query (the seed's: 300; at most 1800, as c-ares resends after 2 s)",
        default: "300ms",
        report: "100ms",
        kind: Kind::millis(1, 1800, "hold-ms"),
    },
];

/// The delay server's answer.
const ANSWER: &str = "127.0.0.2";
/// The warm-up name, answered at once.
const WARMUP: &str = "warmup.fast.sluice.test";

/// What a subject resolves with (the `method` param): node's two ways, a
/// lanes pool's sluice::dns (no pool thread), else getaddrinfo on the pool.
fn methods(subject: &SubjectSpec) -> &'static [&'static str] {
    if subject.runtime() == Runtime::Node {
        &["dns.lookup", "dns.resolve4"]
    } else if subject.runtime() == Runtime::Go {
        &["pure", "cgo"]
    } else if subject.has_lanes() {
        &["sluice::dns"]
    } else {
        &["getaddrinfo"]
    }
}

/// A column's name: the subject, and its method where it has several.
fn column(subject: &str, method: &str) -> String {
    match crate::subject::by_name(subject) {
        Some(s) if methods(s).len() > 1 => format!("{subject} {method}"),
        _ => subject.to_string(),
    }
}

/// The method every other is compared to: the reference's getaddrinfo on
/// the pool (node's dns.lookup).
fn baseline(columns: &[(String, String)]) -> Option<(String, String)> {
    let names: Vec<String> = columns.iter().map(|(s, _)| s.clone()).collect();
    let r = crate::subject::reference(&names)?;
    Some((r.to_string(), "dns.lookup".to_string())).filter(|b| columns.contains(b))
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
    fn run(&self, lab: &Lab, args: &Args) -> anyhow::Result<Outcome> {
        let n = args.number("names")?;
        // glibc waits 5 s and c-ares 2 s before they resend a query.
        let hold_ms = args.millis("hold")?;
        sluice_testnet::netns::available(lab.runner().exe()).map_err(anyhow::Error::msg)?;
        let names: Vec<String> = (1..=n)
            .map(|i| format!("n{i:02}.dns.sluice.test"))
            .collect();
        let server = delay_server(Duration::from_millis(hold_ms));
        let sweep = Sweep::new(lab, &SPEC);
        let rows = sweep.run(|cell| {
            let mut rows = Vec::new();
            for &method in methods(cell.subject) {
                let params = LookupParams {
                    names: names.clone(),
                    method: method.to_string(),
                    warmup: WARMUP.to_string(),
                    answer: ANSWER.to_string(),
                };
                let (r, stats) = lab.run_child_in_netns(
                    cell.subject,
                    SPEC.name,
                    cell.pool,
                    &serde_json::to_value(&params)?,
                    &server,
                    None,
                )?;
                let what = format!("{} {method} (pool {})", cell.subject.name(), cell.pool);
                let r: LookupReply = serde_json::from_value(r.clone())
                    .with_context(|| format!("{what}: the child's reply {r}"))?;
                let row = cell
                    .row()
                    .param("names", n)
                    .param("hold_ms", hold_ms)
                    .param("method", method);
                rows.push(lookup_row(row, &r, &stats, n, &what)?);
            }
            Ok(rows)
        })?;
        let mut notes = sweep.notes();
        notes.push(format!(
            "every child ran in a private network and mount namespace: lo up, /etc/resolv.conf (bind-mounted there only) naming the DNS delay server on 127.0.0.1:53, which held each query {hold_ms} ms, answered {ANSWER} with TTL 0, and counted the distinct names in flight (max_in_flight); the machine's /etc/resolv.conf was checked unchanged after every run"
        ));
        notes.push(format!(
            "the {n} names were looked up at once with family 4 (one A query each); each child first resolved {WARMUP}, answered at once, so pool and resolver start-up are not timed"
        ));
        if sweep.runs(Runtime::Node) {
            notes.push("node dns.lookup: getaddrinfo on libuv's pool as slow I/O, at most (n + 1) / 2 at once; node dns.resolve4: c-ares on the event loop, no pool, and no /etc/hosts".into());
        }
        if sweep.runs(Runtime::Go) {
            notes.push("go pure: Go's own resolver (net.Resolver{PreferGo: true}: /etc/hosts, then UDP from the goroutine, parked on the netpoller; no pool, no thread per lookup); go cgo: getaddrinfo(3) in a cgo call (GODEBUG=netdns=cgo), a thread per lookup in flight (threads_added: the most threads the process gained during the batch, sampled from /proc/self/task every ms); pool P is GOMAXPROCS=P, which bounds neither; hosts_match: Go's resolver answered localhost as getaddrinfo did".into());
        }
        let fallbacks: BTreeSet<String> = rows
            .iter()
            .map(|r| r.param_text("mode"))
            .filter(|m| m.starts_with("getaddrinfo"))
            .collect();
        for m in fallbacks {
            notes.push(format!("sluice::dns ran in {m}, so its lookups were getaddrinfo on the SlowIo lane (its budget is the pool size)"));
        }
        notes.push("sluice-compat and tokio: getaddrinfo(name, AF_INET) as a SlowIo task (libuv policy) or in spawn_blocking; sluice: sluice_dns::Resolver::system() on the child's event loop (hickory-resolver; /etc/hosts first, then the name server), pool_tasks = SlowIo tasks it started (0: no pool thread held)".into());
        Ok(sweep.outcome(rows, notes))
    }

    fn tables(&self, o: &Outcome) -> Vec<Table> {
        let columns = columns_of(o);
        let pools = o.distinct("pool");
        let Some(first) = o.rows.first() else {
            return Vec::new();
        };
        let n = first.param_text("names");
        let hold = first.param_text("hold_ms");
        let get = |subject: &str, method: &str, pool: &Value, metric: &str| {
            method_metric(o, subject, method, pool, metric)
        };
        let mut header = vec!["pool".to_string(), "libuv (n+1)/2".to_string()];
        header.extend(columns.iter().map(|(s, m)| column(s, m)));
        let in_flight = Table {
            title: format!("dns, {n} names, each held {hold} ms: most names in flight at once, counted by the resolver"),
            header,
            rows: per_pool(&pools, &columns, |s, m, p| {
                get(s, m, p, "max_in_flight").map_or("-".into(), |v| format!("{v:.0}"))
            })
            .into_iter()
            .zip(&pools)
            .map(|(mut row, p)| {
                row.insert(1, libuv_rule(p));
                row
            })
            .collect(),
            note: "pool: UV_THREADPOOL_SIZE for node and sluice-compat, the lane budgets for sluice, max_blocking_threads for tokio (unset: 4 for node and sluice-compat, 512 for tokio). libuv (n+1)/2 is the slow-I/O threshold of libuv's threadpool.c for that size.".into(),
        };
        let lookup = baseline(&columns);
        let has_lookup = lookup.is_some();
        let mut header = vec!["pool".to_string()];
        header.extend(columns.iter().map(|(s, m)| format!("{} ms", column(s, m))));
        let others: Vec<&(String, String)> = columns
            .iter()
            .filter(|c| Some(*c) != lookup.as_ref())
            .collect();
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
            rows: per_pool(&pools, &columns, |s, m, p| {
                get(s, m, p, "total_ms").map_or("-".into(), ms)
            })
            .into_iter()
            .zip(&pools)
            .map(|(mut row, p)| {
                if let Some((bs, bm)) = &lookup {
                    let base = get(bs, bm, p, "total_ms");
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
        let mut tables = vec![in_flight, totals];
        tables.extend(threads_table(o, &columns, &pools, &n));
        tables
    }

    fn chart(&self, o: &Outcome) -> Option<Chart> {
        let series = series_of(&o.rows, |r| {
            let x = r.params["pool"].as_f64().unwrap_or(4.0);
            Some(Point {
                series: column(&r.subject, &r.param_text("method")),
                dashed: r.param_text("method") == "dns.resolve4",
                xy: (x, *r.metrics.get("total_ms")?),
            })
        });
        Some(Chart {
            title: "dns: total ms for the batch of names, by pool size".into(),
            x_label: "pool size (unset drawn at 4)".into(),
            y_label: "total ms".into(),
            series,
        })
    }
}

/// `metric` of `subject`'s row of `method` at `pool`.
fn method_metric(
    o: &Outcome,
    subject: &str,
    method: &str,
    pool: &Value,
    metric: &str,
) -> Option<f64> {
    o.metric(
        subject,
        &[("pool", pool.clone()), ("method", json!(method))],
        metric,
    )
}

/// A table row per pool: the pool, then `cell` of each (subject, method)
/// column.
fn per_pool<'c>(
    pools: &[Value],
    columns: impl IntoIterator<Item = &'c (String, String)> + Clone,
    cell: impl Fn(&str, &str, &Value) -> String,
) -> Vec<Vec<String>> {
    pools
        .iter()
        .map(|p| {
            let mut row = vec![pool_cell(p)];
            row.extend(columns.clone().into_iter().map(|(s, m)| cell(s, m, p)));
            row
        })
        .collect()
}

/// Each (subject, method) of the rows, once, in row order: a column each.
fn columns_of(o: &Outcome) -> Vec<(String, String)> {
    let mut columns: Vec<(String, String)> = Vec::new();
    for r in &o.rows {
        let c = (r.subject.clone(), r.param_text("method"));
        if !columns.contains(&c) {
            columns.push(c);
        }
    }
    columns
}

/// The threads each (subject, method) gained per pool, for those that
/// counted them; `None` when none did.
fn threads_table(
    o: &Outcome,
    columns: &[(String, String)],
    pools: &[Value],
    n: &str,
) -> Option<Table> {
    let get = |subject: &str, method: &str, pool: &Value| {
        method_metric(o, subject, method, pool, "threads_added")
    };
    let threaded: Vec<&(String, String)> = columns
        .iter()
        .filter(|(s, m)| pools.iter().any(|p| get(s, m, p).is_some()))
        .collect();
    if threaded.is_empty() {
        return None;
    }
    let mut header = vec!["pool".to_string()];
    header.extend(threaded.iter().map(|(s, m)| column(s, m)));
    Some(Table {
        title: format!("dns, {n} names: threads the process gained during the batch"),
        header,
        rows: per_pool(pools, threaded, |s, m, p| {
            get(s, m, p).map_or("-".into(), |v| format!("{v:.0}"))
        }),
        note: "from /proc/self/task, sampled every ms by the child".into(),
    })
}

/// One lookup row of `dns`'s result, typed (the fields of its `--json`
/// rows): a batch of names held by the DNS delay server.
#[derive(Debug, Clone, serde::Deserialize)]
pub struct LookupRow {
    /// Whose row: the subject and the pool size.
    #[serde(flatten)]
    pub key: crate::outcome::RowKey,
    /// The call (`dns.lookup`, `dns.resolve4`, ...).
    pub method: String,
    /// How many names, all asked at once.
    pub names: u64,
    /// How long the server held each answer, ms.
    pub hold_ms: f64,
    /// The most names the server held at once.
    pub max_in_flight: f64,
    /// The batch's wall time, ms.
    pub total_ms: f64,
}
