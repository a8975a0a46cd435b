//! deploy/prometheus/ and deploy/grafana/ against a real Prometheus: the
//! test starts the `prometheus` binary (Debian's package;
//! `SLUICE_PROMETHEUS` names another) on loopback with a generated config
//! (1 s scrapes and rule evaluations) and the project's rule files, their
//! `for:` and ranges cut to 5 s. It scrapes `sluice scope --all
//! --prometheus` watching two Node processes, one whose libuv pool is
//! saturated by pbkdf2 and one idle, and `sluice serve`'s `/metrics`; then
//! asks Prometheus's HTTP API until `SluiceScopePoolSaturated` fires for the
//! saturated process, and a Rust app's pool exported through
//! `Pool::register` into a prometheus-client `Registry` (served by the test
//! on loopback). It never fires (nor is pending) for the idle one,
//! whose saturation Prometheus does hold. Then deploy/grafana/check.py runs
//! every query of the dashboard against that Prometheus, and, with serve's
//! one Cpu thread held (`/hold`) and a `/login` queued behind it,
//! `SluiceLaneSaturated` fires for lane `cpu` and no other. Where no
//! `prometheus` binary is found the test says so and skips, unless
//! `SLUICE_REQUIRE_PROMETHEUS=1` (CI: `.ci/run` installs it).

mod common;

use common::node::{load_js, script as node};
use common::serve::{ONE_CPU, Serve};
use common::{Killed, free_port, sluice};
use serde_json::Value;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The Prometheus binary: `SLUICE_PROMETHEUS`, else `prometheus` on PATH;
/// `Err` says why there is none.
fn prometheus_binary() -> Result<PathBuf, String> {
    if let Some(p) = std::env::var_os("SLUICE_PROMETHEUS") {
        let p = PathBuf::from(p);
        return if p.is_file() {
            Ok(p)
        } else {
            Err(format!("SLUICE_PROMETHEUS={} is not a file", p.display()))
        };
    }
    std::env::var_os("PATH")
        .and_then(|path| {
            std::env::split_paths(&path)
                .map(|d| d.join("prometheus"))
                .find(|p| p.is_file())
        })
        .ok_or_else(|| {
            "no prometheus on PATH (Debian: apt-get install prometheus; .ci/run installs it)".into()
        })
}

/// GET `path` on 127.0.0.1:`port` over HTTP/1.0 (no chunking): the status
/// and the body; `None` when nothing answers.
fn get(port: u16, path: &str) -> Option<(u16, String)> {
    let mut s = TcpStream::connect(("127.0.0.1", port)).ok()?;
    s.set_read_timeout(Some(Duration::from_secs(10))).ok()?;
    write!(s, "GET {path} HTTP/1.0\r\nHost: 127.0.0.1:{port}\r\n\r\n").ok()?;
    let mut raw = String::new();
    s.read_to_string(&mut raw).ok()?;
    let (head, body) = raw.split_once("\r\n\r\n")?;
    let status = head.split_whitespace().nth(1)?.parse().ok()?;
    Some((status, body.to_string()))
}

/// `s` percent-encoded for a URL's query.
fn encode(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// Prometheus's HTTP API: `data` of a successful answer to `path`.
fn api(port: u16, path: &str) -> Value {
    let (status, body) =
        get(port, path).unwrap_or_else(|| panic!("Prometheus did not answer {path}"));
    let v: Value = serde_json::from_str(&body)
        .unwrap_or_else(|e| panic!("{path}: {status}, not JSON ({e}): {body}"));
    assert_eq!(v["status"], "success", "{path}: {status} {body}");
    v["data"].clone()
}

/// The instant vector of `query`.
fn query(port: u16, query: &str) -> Vec<Value> {
    let data = api(port, &format!("/api/v1/query?query={}", encode(query)));
    data["result"].as_array().cloned().unwrap_or_default()
}

/// The rule file of deploy/prometheus/ in `dir`, every `for:` and every
/// range (`[1m]`, `[2m]`, `[5m]`) cut to 5 s: the same expressions, labels
/// and annotations, on a test's time scale (a rate over 1m of a counter
/// Prometheus has scraped for 10 s reads a sixth of the true rate).
fn write_rules(dir: &Path) -> Vec<PathBuf> {
    let deploy = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../deploy/prometheus");
    ["sluice.rules.yml"]
        .iter()
        .map(|name| {
            let text = std::fs::read_to_string(deploy.join(name))
                .unwrap_or_else(|e| panic!("{}: {e}", deploy.join(name).display()));
            let mut cut = 0;
            let out: String = text
                .lines()
                .map(|l| {
                    let indent = l.len() - l.trim_start().len();
                    if l.trim_start().starts_with("for: ") {
                        cut += 1;
                        format!("{}for: 5s\n", &l[..indent])
                    } else {
                        let mut l = l.to_string();
                        for range in ["[1m]", "[2m]", "[5m]"] {
                            cut += l.matches(range).count();
                            l = l.replace(range, "[5s]");
                        }
                        format!("{l}\n")
                    }
                })
                .collect();
            assert!(
                cut > 0,
                "no `for:` or range in {name}: the test's cut changed nothing"
            );
            let path = dir.join(name);
            std::fs::write(&path, out).unwrap();
            path
        })
        .collect()
}

/// The firing or pending alerts named `name`.
fn alerts(port: u16, name: &str) -> Vec<Value> {
    api(port, "/api/v1/alerts")["alerts"]
        .as_array()
        .cloned()
        .unwrap_or_default()
        .into_iter()
        .filter(|a| a["labels"]["alertname"] == name)
        .collect()
}

/// A Rust app's pool as its users export it: `Pool::register` into their
/// prometheus-client `Registry`, encoded at each scrape, served on loopback
/// by a plain HTTP/1.1 loop (one request per connection). One `FastIo`
/// task has run, so its counters have a value to read back.
fn serve_registered_pool() -> (u16, sluice::Pool) {
    let pool = sluice::Pool::builder().build().unwrap();
    pool.spawn(sluice::Lane::FastIo, || ()).wait().unwrap();
    let mut registry = prometheus_client::registry::Registry::default();
    pool.register(&mut registry);
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        for conn in listener.incoming() {
            let Ok(mut conn) = conn else { continue };
            let _ = conn.set_read_timeout(Some(Duration::from_secs(5)));
            let mut head = Vec::new();
            let mut byte = [0u8; 1];
            while !head.ends_with(b"\r\n\r\n") && head.len() < 16 * 1024 {
                match conn.read(&mut byte) {
                    Ok(1) => head.push(byte[0]),
                    _ => break,
                }
            }
            let mut body = String::new();
            prometheus_client::encoding::text::encode(&mut body, &registry).unwrap();
            let _ = write!(
                conn,
                "HTTP/1.1 200 OK\r\nContent-Type: application/openmetrics-text; version=1.0.0; charset=utf-8\r\n\
                 Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
                body.len()
            );
        }
    });
    (port, pool)
}

#[test]
fn a_real_prometheus_fires_pool_saturated_for_the_saturated_node_only() {
    let bin = match prometheus_binary() {
        Ok(b) => b,
        Err(why) if std::env::var("SLUICE_REQUIRE_PROMETHEUS").as_deref() != Ok("1") => {
            println!("skipped: {why}");
            return;
        }
        Err(why) => panic!("SLUICE_REQUIRE_PROMETHEUS=1 and {why}"),
    };
    let dir = tempfile::tempdir().unwrap();
    let script = load_js(dir.path(), "prom-e2e-load.js");
    let busy = node(&script, &["cpu", "4"], 2);
    let idle = node(&script, &["idle"], 2);
    let (busy_pid, idle_pid) = (busy.pid().to_string(), idle.pid().to_string());

    let scope_port = free_port();
    let scope_addr = format!("127.0.0.1:{scope_port}");
    let _scope = Killed(
        sluice()
            .args([
                "scope",
                "--all",
                "--prometheus",
                &scope_addr,
                "--rate",
                "100",
            ])
            // Only this test's processes (the machine may run other Nodes).
            .args(["--cmdline", "prom-e2e-load\\.js"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );
    let serve = Serve::start(ONE_CPU);
    // A trickle of work on two lanes for the whole test, so that the
    // dashboard's lane panels (rates over the last seconds) have series.
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let trickle = {
        let (stop, port) = (stop.clone(), serve.port);
        std::thread::spawn(move || {
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                for path in ["/login", "/file"] {
                    let _ = get(port, path);
                }
                std::thread::sleep(Duration::from_millis(100));
            }
        })
    };

    let (app_port, _app_pool) = serve_registered_pool();

    let rules = write_rules(dir.path());
    let prom_port = free_port();
    let config = dir.path().join("prometheus.yml");
    std::fs::write(
        &config,
        format!(
            "global:\n  scrape_interval: 1s\n  scrape_timeout: 1s\n  evaluation_interval: 1s\n\
             rule_files:\n{}\
             scrape_configs:\n\
             \x20 - job_name: sluice-scope\n    static_configs: [{{targets: ['{scope_addr}']}}]\n\
             \x20 - job_name: sluice\n    static_configs: [{{targets: ['127.0.0.1:{}']}}]\n\
             \x20 - job_name: sluice-app\n    static_configs: [{{targets: ['127.0.0.1:{app_port}']}}]\n",
            rules
                .iter()
                .map(|r| format!("  - {}\n", r.display()))
                .collect::<String>(),
            serve.port,
        ),
    )
    .unwrap();
    let mut prom = Command::new(&bin)
        .arg(format!("--config.file={}", config.display()))
        .arg(format!(
            "--storage.tsdb.path={}",
            dir.path().join("data").display()
        ))
        .arg(format!("--web.listen-address=127.0.0.1:{prom_port}"))
        .arg("--log.level=warn")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("starting {}: {e}", bin.display()));
    let log = prom.stderr.take().unwrap();
    let log = std::thread::spawn(move || {
        BufReader::new(log)
            .lines()
            .map_while(Result::ok)
            .collect::<Vec<_>>()
            .join("\n")
    });
    let prom = Killed(prom);
    let ready = Instant::now();
    while get(prom_port, "/-/ready").is_none_or(|(s, _)| s != 200) {
        assert!(
            ready.elapsed() < Duration::from_secs(30),
            "Prometheus not ready in 30 s"
        );
        std::thread::sleep(Duration::from_millis(100));
    }

    // Until the alert fires for the saturated process; never, meanwhile,
    // for the idle one.
    let start = Instant::now();
    let deadline = Duration::from_secs(120);
    let fired = loop {
        let saturated = alerts(prom_port, "SluiceScopePoolSaturated");
        let for_idle: Vec<_> = saturated
            .iter()
            .filter(|a| a["labels"]["pid"] == idle_pid.as_str())
            .collect();
        assert!(
            for_idle.is_empty(),
            "SluiceScopePoolSaturated for the idle process {idle_pid}: {for_idle:?}"
        );
        if let Some(a) = saturated
            .iter()
            .find(|a| a["labels"]["pid"] == busy_pid.as_str() && a["state"] == "firing")
        {
            break a.clone();
        }
        if start.elapsed() > deadline {
            let targets = api(prom_port, "/api/v1/targets");
            drop(prom);
            panic!(
                "SluiceScopePoolSaturated did not fire for the saturated process {busy_pid} \
                 within {deadline:?}; alerts now: {saturated:?}\nsaturation: {:?}\n\
                 targets: {targets}\nprometheus log:\n{}",
                query(prom_port, "sluice_scope:pool_saturation:ratio_rate1m"),
                log.join().unwrap_or_default()
            );
        }
        std::thread::sleep(Duration::from_millis(500));
    };
    println!(
        "SluiceScopePoolSaturated fired for {busy_pid} after {:.1} s",
        start.elapsed().as_secs_f64()
    );
    assert_eq!(fired["labels"]["severity"], "warning", "{fired}");
    assert_eq!(fired["labels"]["comm"], "node", "{fired}");
    let summary = fired["annotations"]["summary"].as_str().unwrap_or("");
    assert!(summary.contains(&format!("pid {busy_pid}")), "{fired}");
    assert!(
        fired["annotations"]["runbook_url"]
            .as_str()
            .is_some_and(|u| u.ends_with("docs/runbook.md#sluicescopepoolsaturated")),
        "{fired}"
    );

    // The idle process's saturation is there, and under the threshold: the
    // alert's silence about it is a reading, not a missing series.
    let idle_sat = query(
        prom_port,
        &format!("sluice_scope:pool_saturation:ratio_rate1m{{pid=\"{idle_pid}\"}}"),
    );
    assert_eq!(idle_sat.len(), 1, "{idle_sat:?}");
    let v: f64 = idle_sat[0]["value"][1].as_str().unwrap().parse().unwrap();
    assert!(v < 0.8, "idle process's saturation {v}");
    assert!(
        alerts(prom_port, "SluiceScopePoolSaturated")
            .iter()
            .all(|a| a["labels"]["pid"] != idle_pid.as_str()),
        "fired for the idle process"
    );

    // The three exporters scraped and parsed by Prometheus itself, and serve's
    // lanes through the recording rules.
    for job in ["sluice-scope", "sluice", "sluice-app"] {
        let up = query(prom_port, &format!("up{{job=\"{job}\"}}"));
        assert_eq!(up.len(), 1, "{job}: {up:?}");
        assert_eq!(up[0]["value"][1], "1", "{job} is down: {up:?}");
    }
    let targets = api(prom_port, "/api/v1/targets");
    for t in targets["activeTargets"].as_array().unwrap() {
        assert_eq!(t["health"], "up", "{t}");
        assert_eq!(t["lastError"], "", "{t}");
    }
    // The Rust app's Pool::register page, parsed by Prometheus: its one
    // FastIo task counted.
    let app = query(
        prom_port,
        "sluice_submitted_total{job=\"sluice-app\",lane=\"fastio\"}",
    );
    assert_eq!(app.len(), 1, "{app:?}");
    assert_eq!(app[0]["value"][1], "1", "{app:?}");
    let lanes = query(prom_port, "sluice:lane_busy:ratio{job=\"sluice\"}");
    let mut names: Vec<_> = lanes
        .iter()
        .filter_map(|s| s["metric"]["lane"].as_str())
        .collect();
    names.sort_unstable();
    assert_eq!(names, ["cpu", "fastio", "slowio"], "{lanes:?}");

    check_dashboard(prom_port);

    // serve's Cpu lane saturated: its one thread held (/hold) while the
    // trickle's next /login waits in its queue. SluiceLaneSaturated fires
    // for lane="cpu", and for no other lane.
    let before = alerts(prom_port, "SluiceLaneSaturated");
    assert!(
        before.is_empty(),
        "SluiceLaneSaturated before the hold (one /login at a time queues nothing): {before:?}"
    );
    let hold = {
        let port = serve.port;
        std::thread::spawn(move || get(port, "/hold?ms=60000"))
    };
    let start = Instant::now();
    loop {
        let lanes = alerts(prom_port, "SluiceLaneSaturated");
        assert!(
            lanes.iter().all(|a| a["labels"]["lane"] == "cpu"),
            "SluiceLaneSaturated for a lane other than cpu: {lanes:?}"
        );
        if lanes
            .iter()
            .any(|a| a["state"] == "firing" && a["labels"]["job"] == "sluice")
        {
            break;
        }
        assert!(
            start.elapsed() < deadline,
            "SluiceLaneSaturated did not fire for serve's held Cpu lane within {deadline:?}: \
             {lanes:?}; saturation: {:?}",
            query(prom_port, "sluice:lane_saturation:ratio_rate1m")
        );
        std::thread::sleep(Duration::from_millis(500));
    }
    println!(
        "SluiceLaneSaturated fired for lane cpu after {:.1} s",
        start.elapsed().as_secs_f64()
    );
    let (status, released) = get(serve.port, "/release").expect("serve answers /release");
    assert_eq!(status, 200, "{released}");
    hold.join().unwrap();
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    trickle.join().unwrap();
    drop(prom);
    drop(busy);
    drop(idle);
}

/// deploy/grafana/check.py: every panel's and variable's query of the
/// dashboard parses, runs and finds series in this Prometheus (a panel of
/// scope's probe mode may find none). Skipped, saying so, without python3.
fn check_dashboard(prom_port: u16) {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../deploy/grafana/check.py");
    let out = match Command::new("python3")
        .arg(&script)
        .arg(format!("http://127.0.0.1:{prom_port}"))
        .output()
    {
        Ok(out) => out,
        Err(e) => {
            println!("the dashboard's queries not checked: python3: {e}");
            return;
        }
    };
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{} failed:\n{text}{}",
        script.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    println!("{}", text.lines().last().unwrap_or(""));
}
