//! `probe` (seed 000 §2): fill the pool with long CPU tasks, then time one
//! operation of each kind while they run, against the same operation on an
//! idle pool. An operation that waits the blockers' length out is queued in
//! the same pool; one that does not is served elsewhere.
//!
//! Blockers: pbkdf2-sha512, iterations calibrated once to `--blocker`
//! with sluice's implementation and reused by every subject; as many as the
//! pool size P (unset: 4, libuv's default, for every subject). Sluice
//! submits them to `Cpu`, whose budget is min(P, cores), so on a machine
//! with fewer cores than P some of them queue in the `Cpu` lane.
//!
//! Probes (node API, then what the Rust subjects run):
//! - `read`: `fs.readFile` of a 1 KiB file; `FastIo`, `std::fs::read`.
//! - `stat`: `fs.stat`; `FastIo`, `std::fs::metadata`.
//! - `gzip`: `zlib.gzip` of 1 MiB of text; `Cpu`, flate2 at the default level.
//! - `lookup`: `dns.lookup('localhost')`; `SlowIo`, `getaddrinfo` through
//!   `std::net::ToSocketAddrs`.
//! - `random`: `crypto.randomBytes(32)`; `Cpu`, `rand`'s thread generator.
//! - `connect-ip`: `net.connect` to a loopback listener of the child by IP;
//!   tokio's `TcpStream::connect` on the event loop, no pool.
//! - `connect-name`: `net.connect` by `localhost` (node resolves it with
//!   `dns.lookup`, in the pool); Rust: resolve on `SlowIo`, connect on the loop.
//! - `timer`: `setTimeout(0)`; `tokio::time::sleep(0)` on the loop.
//!
//! Each probe runs behind a fresh set of blockers: the child submits them,
//! waits 20 ms so they are picked up (Rust subjects also wait, if need be,
//! until as many have started as the pool runs at once), issues the probe,
//! and waits for all of it to finish before the next round. `--rounds` such
//! rounds per probe and child (3 by default): one round is one draw of the
//! scheduler, so the busy time is the rounds' median.
//!
//! Metrics per (subject, pool, probe): `idle_ms` (median of `--idle-runs`
//! runs on the idle pool, after one warm-up), `probe_ms` (behind the
//! blockers, median of the rounds), `delta_ms` (`probe_ms - idle_ms`, may be negative),
//! `blockers` (how many were submitted), `blockers_left` (blockers not yet
//! finished when the probe was issued, the fewest of the rounds: every one of them, or the probe did
//! not run behind a full pool), `blockers_running` (Rust subjects only:
//! blockers started and not finished when the probe was issued),
//! `blocker_ms` (median wall time of a blocker, submission to completion),
//! `first_done_ms` (from the probe's issue until the first blocker finished:
//! how long the pool stayed full; a probe queued behind the blockers takes
//! at least that long).

mod child;

use super::{ArgSpec, Args, Experiment, ExperimentSpec, Kind as FlagKind};
use crate::lab::Lab;
use crate::outcome::{Outcome, Row, median};
use crate::report::{Chart, Point, Table, ms, param_cell, ratio, series_of};
use crate::subject::{self, ChildContext, Executor, run_on, short};
use crate::sweep::Sweep;
use crate::workload;
use anyhow::{Context, bail};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use sluice::Lane;
use std::io::Write;
use std::net::{SocketAddr, ToSocketAddrs};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// The declaration of `probe`.
pub(super) static SPEC: ExperimentSpec = ExperimentSpec::new("probe", &Probe)
    .seed("seed 000 §2")
    .flags(ARGS)
    .short(&[
        ("probes", "read,stat,gzip,lookup,random,connect-name"),
        ("rounds", "1"),
        ("idle-runs", "3"),
    ])
    .rust(&Probe)
    .rerouted()
    .bars();

/// What the parent sends each child (`probe.js` reads the same).
#[derive(Debug, Serialize, Deserialize)]
pub(crate) struct Params {
    probes: Vec<String>,
    blockers: usize,
    iterations: u64,
    settle_ms: u64,
    idle_runs: usize,
    /// Rounds behind fresh blockers per probe; the busy time is their median.
    rounds: usize,
    small_file: PathBuf,
    big_file: PathBuf,
}

/// What each child prints.
#[derive(Debug, Serialize, Deserialize)]
pub(crate) struct Reply {
    rows: Vec<Probed>,
}

/// One probe, idle and behind the blockers.
#[derive(Debug, Serialize, Deserialize)]
pub(crate) struct Probed {
    probe: String,
    idle_ms: f64,
    probe_ms: f64,
    blockers_left: f64,
    /// Blockers running when the probe was issued (where the child can tell).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    blockers_running: Option<f64>,
    blocker_ms: f64,
    first_done_ms: f64,
}

/// The probe experiment.
pub(crate) struct Probe;

/// One kind of probe: its id, the node call, what the Rust subjects run.
struct Kind {
    id: &'static str,
    node: &'static str,
    rust: &'static str,
}

/// The probes' ids, in [`KINDS`]' order: `--probes`' words.
const PROBE_IDS: &[&str] = &[
    "read",
    "stat",
    "gzip",
    "lookup",
    "random",
    "connect-ip",
    "connect-name",
    "timer",
];

const KINDS: &[Kind] = &[
    Kind {
        id: "read",
        node: "fs.readFile(1KB)",
        rust: "FastIo: fs::read",
    },
    Kind {
        id: "stat",
        node: "fs.stat",
        rust: "FastIo: fs::metadata",
    },
    Kind {
        id: "gzip",
        node: "zlib.gzip(1MB)",
        rust: "Cpu: flate2 gzip",
    },
    Kind {
        id: "lookup",
        node: "dns.lookup(localhost)",
        rust: "SlowIo: getaddrinfo",
    },
    Kind {
        id: "random",
        node: "crypto.randomBytes(32)",
        rust: "Cpu: rand",
    },
    Kind {
        id: "connect-ip",
        node: "net.connect(127.0.0.1)",
        rust: "loop: TcpStream::connect",
    },
    Kind {
        id: "connect-name",
        node: "net.connect(localhost)",
        rust: "SlowIo lookup + loop connect",
    },
    Kind {
        id: "timer",
        node: "setTimeout(0)",
        rust: "loop: sleep(0)",
    },
];

/// Blockers per probe when the pool size is unset: libuv's default.
const UNSET_BLOCKERS: usize = 4;
/// How long the child waits after submitting the blockers before it
/// issues the probe, so the pool threads have picked them up.
const SETTLE_MS: u64 = 20;

const ARGS: &[ArgSpec] = &[
    ArgSpec {
        name: "probes",
        value_name: "LIST",
        help: "probe kinds: read, stat, gzip, lookup, random, connect-ip, connect-name, timer",
        default: "read,stat,gzip,lookup,random,connect-ip,connect-name,timer",
        report: "read,stat,gzip,lookup,random,connect-ip,connect-name,timer",
        kind: FlagKind::Choices(PROBE_IDS),
    },
    ArgSpec {
        name: "blocker",
        value_name: "DURATION",
        help: "calibrate the pbkdf2-sha512 blockers to about this long (one task, one thread)",
        default: "180ms",
        report: "120ms",
        kind: FlagKind::millis(1, 60_000, "blocker-ms"),
    },
    ArgSpec {
        name: "idle-runs",
        value_name: "N",
        help: "timed runs of each probe on the idle pool (median reported)",
        default: "5",
        report: "5",
        kind: FlagKind::Number { min: 1, max: 100 },
    },
    ArgSpec {
        name: "rounds",
        value_name: "N",
        help: "rounds of each probe behind a fresh set of blockers, per child (median reported): one round is one sample of the scheduler",
        default: "3",
        report: "3",
        kind: FlagKind::Number { min: 1, max: 50 },
    },
];

impl Experiment for Probe {
    fn run(&self, lab: &Lab, args: &Args) -> anyhow::Result<Outcome> {
        let probes = probe_list(args)?;
        let blocker_ms = args.millis("blocker")?;
        let idle_runs = args.number("idle-runs")?;
        let rounds = args.number("rounds")?;
        let iterations =
            workload::calibrate_pbkdf2_best_of_three(Duration::from_millis(blocker_ms));
        let (small, big) = write_data(lab)?;
        let sweep = Sweep::new(lab, &SPEC);
        let rows = sweep.run(|cell| {
            let blockers = cell.pool.size().unwrap_or(UNSET_BLOCKERS);
            let params = Params {
                probes: probes.clone(),
                blockers,
                iterations: iterations as u64,
                settle_ms: SETTLE_MS,
                idle_runs: idle_runs as usize,
                rounds: rounds as usize,
                small_file: small.clone(),
                big_file: big.clone(),
            };
            let reply: Reply = cell.call(&params, None)?;
            Ok(reply
                .rows
                .into_iter()
                .map(|r| {
                    let row = cell
                        .row()
                        .param("probe", r.probe)
                        .metric("idle_ms", r.idle_ms)
                        .metric("probe_ms", r.probe_ms)
                        .metric("delta_ms", r.probe_ms - r.idle_ms)
                        .metric("blockers", blockers as f64)
                        .metric("blockers_left", r.blockers_left)
                        .metric("blocker_ms", r.blocker_ms)
                        .metric("first_done_ms", r.first_done_ms);
                    match r.blockers_running {
                        Some(running) => row.metric("blockers_running", running),
                        None => row,
                    }
                })
                .collect())
        })?;
        let mut notes = sweep.notes();
        notes.push(format!(
            "blockers: pbkdf2-sha512, {iterations} iterations for every subject (calibrated, best of three, to ~{blocker_ms} ms on one thread with sluice's RustCrypto pbkdf2; node uses OpenSSL), as many as the pool size, {UNSET_BLOCKERS} when it is unset (libuv's default) for every subject; the probe is issued {SETTLE_MS} ms after them, in {rounds} rounds of fresh blockers per child: busy ms, blocker ms and first-done ms are the rounds' medians, the blockers left the fewest of any round"
        ));
        notes.push(format!(
            "this machine has {} usable cores: with more blockers than cores each blocker's wall time (blocker_ms) stretches, and so does the wait of a probe queued behind them",
            lab.record().machine().cores
        ));
        notes.push("sluice: the blockers go to Cpu, whose budget is min(pool, cores); gzip and randomBytes are CPU work in the Cpu lane too, so they wait for it; file probes go to FastIo and lookups to SlowIo, which the blockers cannot fill".into());
        notes.push("when the blockers keep every core busy, a probe that does not queue in the pool still waits for the scheduler to give its thread a core (a few ms at most); with a core to spare (e.g. --pools 1) it takes its idle time".into());
        if sweep.runs(crate::subject::Runtime::Go) {
            notes.push("go: the blockers are goroutines, as many as GOMAXPROCS (the pool size; 4 blockers with GOMAXPROCS unset, Go's default of the usable cores); the probes are os.ReadFile, os.Stat, compress/gzip, net.Resolver{PreferGo: true}.LookupHost(localhost) (Go's own resolver, /etc/hosts) and lookup-cgo (getaddrinfo through cgo, GODEBUG=netdns=cgo), crypto/rand, net.Dial by IP and by name, <-time.After(0); nothing queues behind the blockers, a probe waits only for a P, which Go's scheduler preempts a blocker for (async preemption, 10 ms slices)".into());
        }
        notes.push("tokio: one spawn_blocking pool for every kind of work; with max_blocking_threads unset (512) its blockers leave spare threads, with a set size they fill it".into());
        notes.push("Rust subjects: connect and sleep run on the child's event loop (a tokio current-thread runtime); the loopback listener lives in the child; `localhost` is resolved on SlowIo, then connected on the loop; both timers tick in whole milliseconds, so setTimeout(0) and sleep(0) take about 1 ms even when idle".into());
        Ok(sweep.outcome(rows, notes))
    }

    fn tables(&self, o: &Outcome) -> Vec<Table> {
        let subjects = o.subjects();
        let reference = subject::reference(&subjects);
        let compared = subject::compared(&subjects);
        let probes: Vec<String> = o.distinct("probe").iter().map(param_cell).collect();
        let mut tables = Vec::new();
        for pool in &o.distinct("pool") {
            let key = |p: &str| vec![("probe", json!(p)), ("pool", pool.clone())];
            let get = |s: &str, p: &str, m: &str| o.metric(s, &key(p), m);

            let mut header = vec!["probe".to_string(), "sluice runs it on".to_string()];
            header.extend(reference.map(|r| format!("{r} idle")));
            header.extend(subjects.iter().map(|s| format!("{} busy", short(s))));
            header.extend(compared.iter().map(|c| c.header.clone()));
            let mut rows = Vec::new();
            for p in &probes {
                let mut row = vec![label(p).to_string(), lane_of(p).to_string()];
                if let Some(r) = reference {
                    row.push(get(r, p, "idle_ms").map_or("-".into(), ms));
                }
                row.extend(
                    subjects
                        .iter()
                        .map(|s| get(s, p, "probe_ms").map_or("-".into(), ms)),
                );
                row.extend(compared.iter().map(|c| c.ratio(|s| get(s, p, "probe_ms"))));
                rows.push(row);
            }
            tables.push(Table {
                title: format!(
                    "probe, pool {}: ms for one operation, idle and with the pool full of blockers",
                    crate::report::param_cell(pool)
                ),
                header,
                rows,
                note: String::new(),
            });

            let idle = |s: &str, p: &str| get(s, p, "idle_ms").map_or("-".into(), ms);
            let delta = |s: &str, p: &str| {
                get(s, p, "delta_ms").map_or("-".into(), crate::report::signed_ms)
            };
            let (header, rows) =
                per_probe(&probes, &subjects, &[("idle", &idle), ("delta", &delta)]);
            tables.push(Table {
                title: format!(
                    "probe, pool {}: idle ms (median) and delta = busy - idle",
                    crate::report::param_cell(pool)
                ),
                header,
                rows,
                note: String::new(),
            });
            let rel = |s: &str, p: &str| ratio(get(s, p, "probe_ms"), get(s, p, "first_done_ms"));
            let (header, rows) = per_probe(&probes, &subjects, &[("", &rel)]);
            tables.push(Table {
                title: format!(
                    "probe, pool {}: busy ms / ms from the probe's issue until the first blocker finished",
                    crate::report::param_cell(pool)
                ),
                header,
                rows,
                note: "about 1x or more: the probe waited for a blocker to free a thread; near 0: it ran beside the blockers. Dividing by the blockers' own time takes out their speed (node's OpenSSL pbkdf2 vs sluice's) and the machine's noise.".into(),
            });

            tables.push(blockers_table(o, &subjects, pool));
        }
        tables
    }

    fn chart(&self, o: &Outcome) -> Option<Chart> {
        let series = series_of(&o.rows, |r| {
            let probe = r.param_text("probe");
            let x = KINDS.iter().position(|k| k.id == probe)?;
            Some(Point::pool(
                o,
                r,
                ((x + 1) as f64, *r.metrics.get("probe_ms")?),
            ))
        });
        let legend: Vec<String> = KINDS
            .iter()
            .enumerate()
            .map(|(i, k)| format!("{} {}", i + 1, k.id))
            .collect();
        Some(Chart {
            title: "probe: ms for one operation behind a pool full of blockers".into(),
            x_label: format!("probe ({})", legend.join(", ")),
            y_label: "ms behind the blockers".into(),
            series,
        })
    }
}

/// `--probes`, validated.
fn probe_list(args: &Args) -> anyhow::Result<Vec<String>> {
    Ok(args
        .choices("probes")?
        .into_iter()
        .map(String::from)
        .collect())
}

/// Writes the probe's input files into the scratch directory: 1 KiB to
/// read, 1 MiB of text to gzip (the same bytes for every subject).
fn write_data(lab: &Lab) -> anyhow::Result<(PathBuf, PathBuf)> {
    let small = lab.runner().scratch().join("probe-1k.txt");
    let big = lab.runner().scratch().join("probe-1m.txt");
    let text = words(1 << 20);
    std::fs::write(&small, &text[..1024])
        .with_context(|| format!("writing {}", small.display()))?;
    std::fs::write(&big, &text).with_context(|| format!("writing {}", big.display()))?;
    Ok((small, big))
}

/// `len` bytes of words drawn by a fixed linear congruential generator:
/// text that compresses like text, identical on every run.
fn words(len: usize) -> Vec<u8> {
    const VOCAB: &[&str] = &[
        "pool", "lane", "thread", "queue", "read", "stat", "lookup", "gzip", "random", "timer",
        "loop", "socket", "budget", "worker", "blocker", "probe", "sluice", "node", "file", "task",
        "wait", "cpu", "fast", "slow", "io", "the", "a", "of", "in", "and",
    ];
    let mut out = Vec::with_capacity(len + 16);
    let mut x: u64 = 0x2545_f491_4f6c_dd1d;
    while out.len() < len {
        x = x
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        let w = VOCAB[((x >> 33) % VOCAB.len() as u64) as usize];
        out.extend_from_slice(w.as_bytes());
        out.push(if (x >> 20).is_multiple_of(11) {
            b'\n'
        } else {
            b' '
        });
    }
    out.truncate(len);
    out
}

/// The child's inputs.
struct Files {
    small: PathBuf,
    data: Arc<Vec<u8>>,
}

/// Starts the loopback listener on the child's event loop: 127.0.0.1 on a
/// free port, and `::1` on the same port where the machine has it (so a
/// `localhost` that resolves to `::1` first connects too). Accepted
/// connections are closed at once.
async fn listen() -> anyhow::Result<u16> {
    let v4 = tokio::net::TcpListener::bind(SocketAddr::from(([127, 0, 0, 1], 0)))
        .await
        .context("binding the loopback listener")?;
    let port = v4.local_addr()?.port();
    let mut listeners = vec![v4];
    if let Ok(v6) =
        tokio::net::TcpListener::bind(SocketAddr::from((std::net::Ipv6Addr::LOCALHOST, port))).await
    {
        listeners.push(v6);
    }
    for l in listeners {
        tokio::spawn(async move {
            while let Ok((s, _)) = l.accept().await {
                drop(s);
            }
        });
    }
    Ok(port)
}

/// Runs one probe of `kind` from the event loop; returns its ms.
/// `net.connect` to `localhost`: the name resolved on `SlowIo`, then
/// connected on the loop, first address that answers.
async fn connect_name(exec: &dyn Executor, port: u16) -> anyhow::Result<()> {
    let addrs: Vec<SocketAddr> = run_on(exec, Lane::SlowIo, move || {
        ("localhost", port).to_socket_addrs().map(Iterator::collect)
    })
    .await
    .map_err(anyhow::Error::msg)??;
    let mut last = None;
    let mut connected = false;
    for a in addrs {
        match tokio::net::TcpStream::connect(a).await {
            Ok(s) => {
                drop(s);
                connected = true;
                break;
            }
            Err(e) => last = Some(e),
        }
    }
    if !connected {
        bail!("connecting to localhost:{port}: {last:?}");
    }
    Ok(())
}

async fn probe(exec: &dyn Executor, kind: &str, files: &Files, port: u16) -> anyhow::Result<f64> {
    let t = Instant::now();
    match kind {
        "read" => {
            let path = files.small.clone();
            let n = run_on(exec, Lane::FastIo, move || {
                std::fs::read(&path).map(|b| b.len())
            })
            .await
            .map_err(anyhow::Error::msg)??;
            anyhow::ensure!(n == 1024, "read {n} bytes of the 1 KiB file");
        }
        "stat" => {
            let path = files.small.clone();
            run_on(exec, Lane::FastIo, move || {
                std::fs::metadata(&path).map(drop)
            })
            .await
            .map_err(anyhow::Error::msg)??;
        }
        "gzip" => {
            let data = files.data.clone();
            let out = run_on(exec, Lane::Cpu, move || {
                let mut enc =
                    flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
                enc.write_all(&data)?;
                enc.finish()
            })
            .await
            .map_err(anyhow::Error::msg)??;
            std::hint::black_box(out);
        }
        "lookup" => {
            let n = run_on(exec, Lane::SlowIo, || {
                ("localhost", 0u16).to_socket_addrs().map(Iterator::count)
            })
            .await
            .map_err(anyhow::Error::msg)??;
            anyhow::ensure!(n > 0, "localhost resolved to no address");
        }
        "random" => {
            let bytes = run_on(exec, Lane::Cpu, || {
                let mut b = [0u8; 32];
                rand::RngCore::fill_bytes(&mut rand::rng(), &mut b);
                b
            })
            .await
            .map_err(anyhow::Error::msg)?;
            std::hint::black_box(bytes);
        }
        "connect-ip" => {
            let s = tokio::net::TcpStream::connect(SocketAddr::from(([127, 0, 0, 1], port)))
                .await
                .context("connecting to 127.0.0.1")?;
            drop(s);
        }
        "connect-name" => connect_name(exec, port).await?,
        "timer" => tokio::time::sleep(Duration::ZERO).await,
        other => bail!("unknown probe {other:?}"),
    }
    Ok(t.elapsed().as_secs_f64() * 1e3)
}

/// `to - from` in ms, negative when `to` is earlier.
fn signed_ms_between(from: Instant, to: Instant) -> f64 {
    match to.checked_duration_since(from) {
        Some(d) => d.as_secs_f64() * 1e3,
        None => -(from.duration_since(to).as_secs_f64() * 1e3),
    }
}

/// A measure of a table: a header suffix and the cell of (subject, probe).
type Measure<'a> = (&'a str, &'a dyn Fn(&str, &str) -> String);

/// The header and rows of a table with one row per probe and, per
/// measure, one column per subject.
fn per_probe(
    probes: &[String],
    subjects: &[String],
    measures: &[Measure<'_>],
) -> (Vec<String>, Vec<Vec<String>>) {
    let mut header = vec!["probe".to_string()];
    for (suffix, _) in measures {
        header.extend(
            subjects
                .iter()
                .map(|s| format!("{} {suffix}", short(s)).trim_end().to_string()),
        );
    }
    let rows = probes
        .iter()
        .map(|p| {
            let mut row = vec![label(p).to_string()];
            for (_, cell) in measures {
                row.extend(subjects.iter().map(|s| cell(s, p)));
            }
            row
        })
        .collect();
    (header, rows)
}

/// Were the blockers still there when each probe was issued, per subject.
fn blockers_table(o: &Outcome, subjects: &[String], pool: &Value) -> Table {
    let header = [
        "subject",
        "blockers",
        "fewest unfinished at a probe",
        "fewest running at a probe",
        "blocker wall ms (median)",
        "first blocker done after the probe's issue, ms (median)",
    ]
    .map(String::from)
    .to_vec();
    let rows = subjects
        .iter()
        .map(|s| {
            let all: Vec<&Row> = o
                .rows
                .iter()
                .filter(|r| r.subject == *s && r.params["pool"] == *pool)
                .collect();
            let fewest = |m: &str| {
                all.iter()
                    .filter_map(|r| r.metrics.get(m).copied())
                    .reduce(f64::min)
                    .map_or("-".into(), |v| format!("{v:.0}"))
            };
            let blocker_ms = median(
                all.iter()
                    .filter_map(|r| r.metrics.get("blocker_ms").copied())
                    .collect(),
            );
            let first_done = median(
                all.iter()
                    .filter_map(|r| r.metrics.get("first_done_ms").copied())
                    .collect(),
            );
            vec![
                s.clone(),
                fewest("blockers"),
                fewest("blockers_left"),
                fewest("blockers_running"),
                ms(blocker_ms),
                ms(first_done),
            ]
        })
        .collect();
    Table {
        title: format!(
            "probe, pool {}: were the blockers still there when each probe was issued?",
            crate::report::param_cell(pool)
        ),
        header,
        rows,
        note: "running is counted inside the Rust children (blocker started, not finished); node's pool threads cannot be seen from its script".into(),
    }
}

fn label(id: &str) -> &str {
    KINDS.iter().find(|k| k.id == id).map_or(id, |k| k.node)
}

fn lane_of(id: &str) -> &str {
    KINDS.iter().find(|k| k.id == id).map_or("-", |k| k.rust)
}

/// One row of `probe`'s result, typed (the fields of its `--json` rows):
/// one probe call behind a pool full of blockers.
#[derive(Debug, Clone, serde::Deserialize)]
pub struct ProbeRow {
    /// Whose row: the subject and the pool size.
    #[serde(flatten)]
    pub key: crate::outcome::RowKey,
    /// Which probe (`read`, `lookup`, ...).
    pub probe: String,
    /// The probe's time behind the blockers, ms.
    pub probe_ms: f64,
    /// How many blockers it was queued behind.
    pub blockers: Option<f64>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_probe_ids_are_the_kinds() {
        assert_eq!(PROBE_IDS, KINDS.iter().map(|k| k.id).collect::<Vec<_>>());
    }

    #[test]
    fn probes_are_validated_by_name() {
        let mut a = Args::defaults(ARGS, false);
        assert_eq!(probe_list(&a).unwrap().len(), KINDS.len());
        a.set("probes", "stat,disk").unwrap();
        let err = probe_list(&a).unwrap_err().to_string();
        assert!(
            err.starts_with("--probes \"disk\": expected one of read, stat"),
            "{err}"
        );
        a.set("probes", "stat,,timer").unwrap();
        assert!(
            probe_list(&a)
                .unwrap_err()
                .to_string()
                .contains("empty item")
        );
    }

    #[test]
    fn the_text_is_fixed_and_sized() {
        let a = words(4096);
        assert_eq!(a.len(), 4096);
        assert_eq!(a, words(4096));
    }
}
