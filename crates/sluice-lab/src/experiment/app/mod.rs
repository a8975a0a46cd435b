//! `app` (issue 28 §3): a real Express app from npm packages, with its
//! argon2id `/login` on libuv's pool (`node`), on sluice's Cpu lane
//! (`node+sluice`: the preload and `sluice/argon2`) or in a piscina pool
//! at its defaults (`node+piscina`, run in the `node` subject's cell).
//!
//! The packages (`package.json`, `package-lock.json` beside this file) are
//! installed by `npm ci` into the run's scratch directory; where that fails
//! (no npm, no registry, no cache) the experiment has no rows and a note
//! that says why. Each app is a child (`app.js`), driven by the lab's load
//! generator: `login-1` (one `/login` at a time: the ideal is cores / its
//! mean), then `flood`: the `/login` flood with `/ping`, a small and a large
//! static file probed beside it. RSS, threads and CPU time are the
//! child's, from `/proc`.

use super::http::{autocannon, find_on_path};
use super::{ArgSpec, Args, Experiment, ExperimentSpec, Kind};
use crate::child::ServerChild;
use crate::lab::Lab;
use crate::loadgen::{self, Load, LoadReport};
use crate::outcome::{Outcome, Row};
use crate::report::{Chart, Table, ms};
use crate::subject::{Need, Runtime};
use crate::sweep::Sweep;
use anyhow::{Context, bail};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// The declaration of `app`.
pub(super) static SPEC: ExperimentSpec = ExperimentSpec::new("app", &App)
    .seed("issue 28 §3")
    .flags(ARGS)
    .full_only()
    .needs(&[Need::HttpServer])
    .rerouted();

/// The app experiment.
pub(crate) struct App;

const PACKAGE_JSON: &str = include_str!("package.json");
const PACKAGE_LOCK: &str = include_str!("package-lock.json");

const ARGS: &[ArgSpec] = &[
    ArgSpec {
        name: "concurrency",
        value_name: "N",
        help: "connections of the /login flood",
        default: "32",
        report: "16",
        kind: Kind::Number {
            min: 1,
            max: 10_000,
        },
    },
    ArgSpec {
        name: "duration",
        value_name: "DURATION",
        help: "how long the flood runs (login-1: half of it)",
        default: "5s",
        report: "3s",
        kind: Kind::millis(200, 600_000, "duration-ms"),
    },
    ArgSpec {
        name: "probe-rate",
        value_name: "N",
        help: "requests per second of the /ping and small static file probes (the large file: a twentieth of it), each started when due whether or not the ones before were answered (open loop: every subject gets the same requests, and a latency counts from when its request was due); 0: closed loop, one request at a time with --probe-pause between answers",
        default: "50",
        report: "50",
        kind: Kind::Number { min: 0, max: 1000 },
    },
    ArgSpec {
        name: "probe-pause",
        value_name: "DURATION",
        help: "with --probe-rate 0, each probe (/ping, small and large static file) waits this long between an answer and its next request",
        default: "5ms",
        report: "5ms",
        kind: Kind::millis(0, 10_000, "probe-pause-ms"),
    },
    ArgSpec {
        name: "autocannon",
        value_name: "auto|off",
        help: "cross-check each subject's /login flood with autocannon when it is on PATH",
        default: "auto",
        report: "off",
        kind: Kind::Choice(&["auto", "off"]),
    },
];

/// The routes probed during the flood: (metric prefix, path, the share of
/// `--probe-rate` it is sent at).
const PROBES: [(&str, &str, f64); 3] = [
    ("ping", "/ping", 1.0),
    ("static", "/static/small-0.txt", 1.0),
    ("large", "/static/large.txt", 0.05),
];

/// The most requests of one probe in flight at once in the open loop (a
/// subject whose pool is queued for seconds has that many waiting).
const PROBE_CONNECTIONS: usize = 512;

/// Small static files (2 KiB each) and the large one (1 MiB).
const SMALL_FILES: usize = 16;
const SMALL_BYTES: usize = 2048;
const LARGE_BYTES: usize = 1 << 20;

struct Plan {
    concurrency: usize,
    duration: Duration,
    pause: Duration,
    /// Open-loop probe rate, requests/s (0: closed loop with `pause`).
    rate: u64,
    autocannon: Option<PathBuf>,
    cores: usize,
    modules: PathBuf,
    statics: PathBuf,
}

impl Experiment for App {
    fn run(&self, lab: &Lab, args: &Args) -> anyhow::Result<Outcome> {
        let sweep = Sweep::new(lab, &SPEC).only(|s| {
            if s.runtime() == Runtime::Node {
                Ok(())
            } else {
                Err("the app is a Node app (Express and its packages from npm)".into())
            }
        });
        if sweep.subjects().is_empty() {
            bail!("app needs node: {}", sweep.skipped().join("; "));
        }
        let mut notes = sweep.notes();
        let modules = match install(lab) {
            Ok(dir) => dir,
            Err(why) => {
                notes.push(format!(
                    "app: no rows: the npm packages could not be installed ({why:#})"
                ));
                return Ok(sweep.outcome(Vec::new(), notes));
            }
        };
        let statics = lab.runner().scratch().join("app-static");
        write_statics(&statics)?;
        let p = Plan {
            concurrency: args.number("concurrency")? as usize,
            duration: args.duration("duration")?,
            pause: args.duration("probe-pause")?,
            rate: args.number("probe-rate")?,
            autocannon: match args.choice("autocannon")? {
                "auto" => find_on_path("autocannon"),
                _ => None,
            },
            cores: lab.record().machine().cores,
            modules,
            statics,
        };
        let load_before = crate::procfs::load_average().ok();
        let rows = sweep.run(|c| {
            let modes: &[&str] = if c.subject.node_preload().is_some() {
                &["sluice"]
            } else {
                &["node", "piscina"]
            };
            let mut rows = Vec::new();
            for mode in modes {
                let name = match *mode {
                    "sluice" => c.subject.name().to_string(),
                    "piscina" => "node+piscina".to_string(),
                    _ => c.subject.name().to_string(),
                };
                let row = || Row::new(&name).param("pool", c.pool.to_value());
                rows.extend(p.measure(c.lab(), c.subject.node_preload(), mode, &row)?);
            }
            Ok(rows)
        })?;
        let probes = if p.rate == 0 {
            format!(
                "one connection per probe with {} ms between answers (closed loop)",
                p.pause.as_millis()
            )
        } else {
            format!(
                "probes started on schedule whether or not the ones before were answered (open loop: every subject gets the same requests; a latency counts from when its request was due): /ping and the small file {} a second, the large file {}",
                p.rate,
                p.rate as f64 * PROBES[2].2
            )
        };
        notes.push(format!(
            "app: Express 5 with compression and express.static ({SMALL_FILES} files of {SMALL_BYTES} B, one of {LARGE_BYTES} B), /login verifying an argon2id hash at @node-rs/argon2's defaults (m=19456 KiB, t=2, p=1); node+piscina: piscina at its defaults (threads: its own, from the cores), the hash verifySync in its workers; {} /login connections for {:.1} s; {probes}; static probes ask for gzip, deflate or br, as a browser does; ideal = cores ({}) / the subject's own login-1 mean",
            p.concurrency,
            p.duration.as_secs_f64(),
            p.cores
        ));
        if let Some([one, five, _]) = load_before {
            notes.push(format!(
                "app: load average before the run {one:.2} (1 min), {five:.2} (5 min) on {} cores: on a shared machine latencies and rates are noisy; compare subjects within this run",
                p.cores
            ));
        }
        if p.autocannon.is_none() {
            notes.push("app: autocannon not used (off, or not on PATH): no cross-check of the load generator".into());
        }
        let mut o = sweep.outcome(rows, notes);
        let checked = goals(&o);
        o.notes.extend(checked);
        Ok(o)
    }

    fn tables(&self, o: &Outcome) -> Vec<Table> {
        let mut t = Table::new(
            "app: an Express app's /login flood (argon2id), with /ping and static files probed beside it",
            &[
                "subject",
                "/login req/s",
                "% of ideal",
                "/login p50 ms",
                "/login p99 ms",
                "/ping p50 ms",
                "/ping p99 ms",
                "static p50 ms",
                "static p99 ms",
                "large p99 ms",
                "RSS MiB",
                "peak RSS MiB",
                "threads",
                "CPU s / 1000 logins",
            ],
        );
        for r in o.rows.iter().filter(|r| r.param_text("cell") == "flood") {
            let m = |k: &str| r.metrics.get(k).copied().unwrap_or(f64::NAN);
            t.rows.push(vec![
                r.subject.clone(),
                format!("{:.1}", m("login_req_s")),
                format!("{:.0} %", 100.0 * m("login_req_s") / m("ideal_req_s")),
                ms(m("login_p50_ms")),
                ms(m("login_p99_ms")),
                ms(m("ping_p50_ms")),
                ms(m("ping_p99_ms")),
                ms(m("static_p50_ms")),
                ms(m("static_p99_ms")),
                ms(m("large_p99_ms")),
                format!("{:.0}", m("rss_mib")),
                format!("{:.0}", m("peak_rss_mib")),
                format!("{:.0}", m("threads")),
                format!("{:.2}", m("cpu_s_per_1000_logins")),
            ]);
        }
        t.note = "ideal: cores / the subject's one-at-a-time /login mean (login-1); RSS and threads read at the flood's end, peak RSS is VmHWM; CPU s: the app process's user + system time over the flood, per 1000 answered logins".into();
        let mut cannon = Table::new(
            "app: the /login flood again with autocannon (cross-check)",
            &["subject", "req/s", "p50 ms", "p99 ms"],
        );
        for r in o
            .rows
            .iter()
            .filter(|r| r.param_text("cell") == "autocannon")
        {
            let m = |k: &str| r.metrics.get(k).copied().unwrap_or(f64::NAN);
            cannon.rows.push(vec![
                r.subject.clone(),
                format!("{:.1}", m("req_s")),
                ms(m("p50_ms")),
                ms(m("p99_ms")),
            ]);
        }
        [t, cannon]
            .into_iter()
            .filter(|t| !t.rows.is_empty())
            .collect()
    }

    fn chart(&self, _o: &Outcome) -> Option<Chart> {
        None
    }
}

impl Plan {
    /// `login-1` and `flood` (and autocannon's flood) for one app.
    fn measure(
        &self,
        lab: &Lab,
        preload: Option<PathBuf>,
        mode: &str,
        row: &dyn Fn() -> Row,
    ) -> anyhow::Result<Vec<Row>> {
        let app = AppServer::start(lab, self, preload, mode)?;
        let base = format!("http://127.0.0.1:{}", app.port());
        let mut rows = Vec::new();
        let one = one(Load::new(format!("{base}/login"), 1, self.duration / 2))?;
        if one.ok == 0 {
            bail!("{mode}: /login answered nothing ok one at a time: {one}");
        }
        let ideal = self.cores as f64 * 1000.0 / one.mean_ms;
        rows.push(
            row()
                .param("cell", "login-1")
                .metric("req_s", one.ok_per_s)
                .metric("mean_ms", one.mean_ms)
                .metric("p99_ms", one.p99_ms),
        );
        let cpu_before = crate::procfs::cpu_seconds(app.pid())?;
        let mut loads = vec![Load::new(
            format!("{base}/login"),
            self.concurrency,
            self.duration,
        )];
        for (_, path, share) in PROBES {
            let mut probe = Load::new(format!("{base}{path}"), 1, self.duration);
            if self.rate == 0 {
                probe.pause = self.pause;
            } else {
                probe.rate = Some(self.rate as f64 * share);
                probe.concurrency = PROBE_CONNECTIONS;
            }
            // As a browser asks: `compression` then compresses the static
            // files (above its 1 KiB threshold) on the pool.
            probe.accept_encoding = Some("gzip, deflate, br");
            loads.push(probe);
        }
        let reports = loadgen::run(&loads)?;
        let cpu = crate::procfs::cpu_seconds(app.pid())? - cpu_before;
        let [rss, hwm, threads] =
            crate::procfs::status_fields(app.pid(), ["VmRSS", "VmHWM", "Threads"])?;
        let login = &reports[0];
        let mut flood = row()
            .param("cell", "flood")
            .metric("login_req_s", login.ok_per_s)
            .metric("ideal_req_s", ideal)
            .metric("login_p50_ms", login.p50_ms)
            .metric("login_p99_ms", login.p99_ms)
            .metric(
                "login_errors",
                (login.errors + login.sent - login.ok) as f64,
            )
            .metric("rss_mib", rss as f64 / 1024.0)
            .metric("peak_rss_mib", hwm as f64 / 1024.0)
            .metric("threads", threads as f64);
        if login.ok > 0 {
            flood = flood.metric("cpu_s_per_1000_logins", cpu * 1000.0 / login.ok as f64);
        }
        for ((name, _, _), r) in PROBES.iter().zip(&reports[1..]) {
            if r.ok == 0 {
                bail!("{mode}: the {name} probe got no answer during the flood: {r}");
            }
            flood = flood
                .metric(&format!("{name}_p50_ms"), r.p50_ms)
                .metric(&format!("{name}_p99_ms"), r.p99_ms)
                .metric(&format!("{name}_answers"), r.ok as f64);
        }
        rows.push(flood);
        if let Some(cannon) = &self.autocannon {
            let got = autocannon(
                cannon,
                &format!("{base}/login"),
                self.concurrency,
                self.duration,
            )?;
            let mut r = row().param("cell", "autocannon");
            for (k, v) in got {
                r = r.metric(k, v);
            }
            rows.push(r);
        }
        app.stop()?;
        Ok(rows)
    }
}

fn one(load: Load) -> anyhow::Result<LoadReport> {
    Ok(loadgen::run(&[load])?.remove(0))
}

/// `npm ci` of the app's lockfile into the scratch directory: its
/// `node_modules`.
fn install(lab: &Lab) -> anyhow::Result<PathBuf> {
    let dir = lab.runner().scratch().join("app-npm");
    std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
    std::fs::write(dir.join("package.json"), PACKAGE_JSON)?;
    std::fs::write(dir.join("package-lock.json"), PACKAGE_LOCK)?;
    let npm = find_on_path("npm").context("npm is not on PATH")?;
    let out = Command::new(npm)
        .args(["ci", "--no-audit", "--no-fund", "--ignore-scripts"])
        .current_dir(&dir)
        .stdin(std::process::Stdio::null())
        .output()
        .context("running npm ci")?;
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        let last: Vec<&str> = err.lines().rev().take(3).collect();
        bail!("npm ci failed ({}): {}", out.status, last.join(" / "));
    }
    Ok(dir.join("node_modules"))
}

/// The static directory: `small-N.txt` and `large.txt`, text that
/// compresses as pages do.
fn write_statics(dir: &Path) -> anyhow::Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    for i in 0..SMALL_FILES {
        std::fs::write(
            dir.join(format!("small-{i}.txt")),
            sluice_serve::payload::text(SMALL_BYTES),
        )?;
    }
    std::fs::write(
        dir.join("large.txt"),
        sluice_serve::payload::text(LARGE_BYTES),
    )?;
    Ok(())
}

/// One app child on a free loopback port.
struct AppServer(ServerChild);

impl AppServer {
    fn start(
        lab: &Lab,
        p: &Plan,
        preload: Option<PathBuf>,
        mode: &str,
    ) -> anyhow::Result<AppServer> {
        let node = lab.toolchain().node().map_err(anyhow::Error::msg)?;
        let mut cmd = Command::new(node);
        if mode == "sluice" {
            let preload = preload.context("node+sluice has no preload")?;
            cmd.arg("-r").arg(&preload);
            let package = preload.parent().map(Path::to_path_buf);
            cmd.arg(lab.runner().node_script("app")?).arg(
                json!({"modules": p.modules, "mode": mode, "static": p.statics,
                       "sluice_package": package, "worker": Value::Null})
                .to_string(),
            );
        } else {
            let worker = lab.runner().scratch().join("app-piscina-worker.js");
            cmd.arg(lab.runner().node_script("app")?).arg(
                json!({"modules": p.modules, "mode": mode, "static": p.statics,
                       "sluice_package": Value::Null, "worker": worker})
                .to_string(),
            );
        }
        Ok(AppServer(ServerChild::start(cmd, format!("app ({mode})"))?))
    }

    fn port(&self) -> u16 {
        self.0.port
    }

    fn pid(&self) -> u32 {
        self.0.pid()
    }

    /// SIGTERM, then wait (Node may exit non-zero on it: not an error).
    fn stop(self) -> anyhow::Result<()> {
        self.0.stop().map(drop)
    }
}

/// A flood metric of `subject`'s row.
fn flood_metric(o: &Outcome, subject: &str, metric: &str) -> Option<f64> {
    o.rows
        .iter()
        .find(|r| r.subject == subject && r.param_text("cell") == "flood")
        .and_then(|r| r.metrics.get(metric).copied())
}

/// Issue 28's targets, judged on this run's rows: one line each, with
/// node's and node+piscina's figures beside node+sluice's.
pub(crate) fn goals(o: &Outcome) -> Vec<String> {
    let m = |s: &str, k: &str| flood_metric(o, s, k);
    let (Some(login), Some(ideal)) = (
        m("node+sluice", "login_req_s"),
        m("node+sluice", "ideal_req_s"),
    ) else {
        return vec!["goal app: not judged (no node+sluice flood row in this run)".into()];
    };
    let verdict = |ok: bool| if ok { "met" } else { "NOT met" };
    let fmt = |v: Option<f64>| v.map_or("-".to_string(), |v| format!("{v:.2}"));
    let mut out = Vec::new();
    let piscina = m("node+piscina", "login_req_s");
    out.push(format!(
        "goal app /login >= node+piscina's and >= 90 % of ideal: {} (node+sluice {login:.1} req/s, {:.0} % of its ideal {ideal:.1}; node+piscina {}; node {})",
        verdict(piscina.is_none_or(|p| login >= p) && login >= 0.9 * ideal),
        100.0 * login / ideal,
        fmt(piscina),
        fmt(m("node", "login_req_s")),
    ));
    for (probe, goal) in [("ping", 2.0), ("static", 5.0)] {
        let key = format!("{probe}_p99_ms");
        if let Some(p99) = m("node+sluice", &key) {
            out.push(format!(
                "goal app {probe} p99 during the /login flood <= {goal} ms: {} (node+sluice {p99:.2} ms; node {}; node+piscina {})",
                verdict(p99 <= goal),
                fmt(m("node", &key)),
                fmt(m("node+piscina", &key)),
            ));
        }
    }
    if let (Some(rss), Some(p)) = (m("node+sluice", "rss_mib"), m("node+piscina", "rss_mib")) {
        out.push(format!(
            "goal app RSS <= node+piscina's: {} (node+sluice {rss:.0} MiB, node+piscina {p:.0} MiB, node {})",
            verdict(rss <= p),
            fmt(m("node", "rss_mib")),
        ));
    }
    out
}

/// The flood row of `app`'s result, typed (the fields of its `--json`
/// rows): `/login` under the flood, with `/ping` and static probes beside
/// (the one row of `app` with `login_req_s`: no other reads as one).
#[derive(Debug, Clone, serde::Deserialize)]
pub struct FloodRow {
    /// Whose row: the subject and the pool size.
    #[serde(flatten)]
    pub key: crate::outcome::RowKey,
    /// `/login` answers per second.
    pub login_req_s: f64,
    /// Cores / one `/login`'s time alone: the machine's ideal, req/s.
    pub ideal_req_s: f64,
    /// `/ping`'s p99 during the flood, ms.
    pub ping_p99_ms: Option<f64>,
    /// The static files' p99 during the flood, ms.
    pub static_p99_ms: Option<f64>,
    /// The app's RSS after the flood, MiB.
    pub rss_mib: Option<f64>,
}

impl FloodRow {
    /// `subject`'s flood row in `o`.
    pub fn of(o: &Outcome, subject: &str) -> Option<FloodRow> {
        o.typed_rows::<FloodRow>()
            .into_iter()
            .find(|r| r.key.subject == subject)
    }
}
