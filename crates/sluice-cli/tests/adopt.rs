//! What a service author does first, written against the docs: registers a
//! pool in their own prometheus-client `Registry` next to their own series,
//! awaits a permit on a full lane without blocking their runtime, and reads
//! the same labels and verdicts from `sluice serve`'s `/metrics`, `sluice
//! doctor` and `sluice scope --prometheus`. Counts and tokens only.

mod common;

use common::serve::{ONE_CPU, Serve};
use common::{Killed, free_addr, get10, line_with, sluice, spawn_piped};
use prometheus_client::metrics::counter::Counter;
use prometheus_client::registry::Registry;
use sluice::{Lane, Pool};
use sluice_health::Verdict;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

fn encode(registry: &Registry) -> String {
    let mut text = String::new();
    prometheus_client::encoding::text::encode(&mut text, registry).unwrap();
    text
}

/// The value of the one line of `text` that starts with `series `.
fn value(text: &str, series: &str) -> Option<f64> {
    text.lines()
        .find_map(|l| l.strip_prefix(series)?.strip_prefix(' ')?.parse().ok())
}

#[test]
fn a_service_registers_the_pool_and_awaits_a_permit_without_blocking_its_loop() {
    let mut registry = Registry::default();
    let requests = Counter::<u64>::default();
    registry.register("myapp_requests", "Requests served", requests.clone());
    let pool = Pool::builder()
        .threads(Lane::Cpu, 1)
        .queue_bound(Lane::Cpu, 1)
        .build()
        .unwrap();
    pool.register(&mut registry);

    // The event loop: one thread. The only way the lane drains is a task on
    // this same thread opening the gate, so a reservation that blocked the
    // thread would never finish.
    let rt = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    let ticks = Arc::new(AtomicU64::new(0));
    let (page_while_waiting, permit_lane, result) = rt.block_on(async {
        let (release, gate) = std::sync::mpsc::channel::<()>();
        let (started_tx, started) = std::sync::mpsc::channel();
        let running = pool.spawn(Lane::Cpu, move || {
            started_tx.send(()).unwrap();
            gate.recv().unwrap();
        });
        started.recv().unwrap();
        let queued = pool.spawn(Lane::Cpu, || ());
        assert!(
            pool.try_spawn(Lane::Cpu, || ()).is_err(),
            "the lane is full"
        );

        let p = pool.clone();
        let waiter = tokio::spawn(async move {
            let permit = p.reserve(Lane::Cpu).await.unwrap();
            let lane = permit.lane();
            (lane, permit.spawn(|| 6 * 7).await.unwrap())
        });
        // The loop keeps running while the reservation waits.
        while pool.metrics().lane(Lane::Cpu).reservations_waiting == 0 {
            ticks.fetch_add(1, Ordering::SeqCst);
            tokio::task::yield_now().await;
        }
        requests.inc();
        let page = encode(&registry);
        release.send(()).unwrap();
        let (lane, result) = waiter.await.unwrap();
        running.await.unwrap();
        queued.await.unwrap();
        (page, lane, result)
    });
    assert!(ticks.load(Ordering::SeqCst) >= 1);
    assert_eq!((permit_lane, result), (Lane::Cpu, 42));

    // One exposition: the service's series and sluice's, one `# EOF`.
    let page = page_while_waiting;
    assert_eq!(value(&page, "myapp_requests_total"), Some(1.0), "{page}");
    assert_eq!(
        value(&page, "sluice_reservations_waiting{lane=\"cpu\"}"),
        Some(1.0),
        "{page}"
    );
    assert_eq!(value(&page, "sluice_queue_bound{lane=\"cpu\"}"), Some(1.0));
    assert_eq!(value(&page, "sluice_queue_depth{lane=\"cpu\"}"), Some(1.0));
    assert_eq!(
        value(&page, "sluice_rejected_total{lane=\"cpu\"}"),
        Some(1.0)
    );
    assert_eq!(
        value(
            &page,
            &format!(
                "sluice_info{{policy=\"lanes\",version=\"{}\"}}",
                sluice::VERSION
            )
        ),
        Some(1.0),
        "{page}"
    );
    assert_eq!(page.matches("# EOF").count(), 1);
    assert!(page.ends_with("# EOF\n"));

    // Read at scrape time, not at registration.
    let after = encode(&registry);
    assert_eq!(
        value(&after, "sluice_completed_total{lane=\"cpu\"}"),
        Some(3.0)
    );
    assert_eq!(
        value(&after, "sluice_reservations_waiting{lane=\"cpu\"}"),
        Some(0.0)
    );
    // The lane names are Lane's, everywhere.
    for lane in Lane::ALL {
        assert!(after.contains(&format!(
            "sluice_submitted_total{{lane=\"{}\"}}",
            lane.name()
        )));
    }
}

/// The verdict tokens: scope's verdicts are the one vocabulary's (the same
/// type), a joined token's parts are tokens too; the doctor's are kebab-case.
#[test]
fn one_verdict_vocabulary() {
    for v in sluice_scope::Verdict::ALL {
        for token in v.as_str().split('+') {
            assert!(
                Verdict::TOKENS.contains(&token),
                "scope's {token:?} not in {:?}",
                Verdict::TOKENS
            );
        }
    }
    for v in [
        Verdict::Healthy,
        Verdict::LoopBlocked,
        Verdict::LaneSaturated(Lane::Cpu),
        Verdict::LaneCompensating(Lane::SlowIo),
    ] {
        assert!(Verdict::TOKENS.contains(&v.as_str()), "{v:?}");
        assert!(
            v.as_str()
                .chars()
                .all(|c| c.is_ascii_lowercase() || c == '-'),
            "{v:?} is a kebab-case token"
        );
    }
}

/// A service with its Cpu lane saturated, then a Node process with its pool
/// saturated: serve's `/metrics`, the doctor and scope's exporter say
/// `pool-saturated`, with `lane="cpu"` where there is a lane.
#[test]
fn serve_doctor_and_scope_read_the_same_labels_and_verdicts() {
    let s = Serve::start(ONE_CPU);
    // Idle first: healthy on /metrics.
    let t = Instant::now();
    loop {
        let (_, page) = s.get("/metrics");
        if value(&page, "sluice_verdict{verdict=\"healthy\"}") == Some(1.0) {
            break;
        }
        assert!(
            t.elapsed() < Duration::from_secs(60),
            "never healthy:\n{page}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    let hold = s.hold();
    let logins = s.queue_logins(2);

    let url = s.url("/metrics");
    let out = common::run(&[
        "doctor",
        "--url",
        &url,
        "--window",
        "2s",
        "--lag-p99",
        "100ms",
        "--json",
    ]);
    // The window since the hold began is over 1 s: /metrics has the verdict.
    let t = Instant::now();
    let page = loop {
        let (_, page) = s.get("/metrics");
        if value(
            &page,
            "sluice_verdict{verdict=\"pool-saturated\",lane=\"cpu\"}",
        ) == Some(1.0)
        {
            break page;
        }
        assert!(
            t.elapsed() < Duration::from_secs(60),
            "never saturated:\n{page}"
        );
        std::thread::sleep(Duration::from_millis(100));
    };
    assert_eq!(s.get("/release").0, 200);
    assert_eq!(hold.join().unwrap().0, 200);
    assert_eq!(logins.join().unwrap(), vec![200, 200]);

    let doctor = out.json();
    assert_eq!(out.code, Some(1), "{doctor}");
    assert_eq!(doctor["verdict"], "pool-saturated", "{doctor}");
    assert_eq!(doctor["lane"], "cpu", "{doctor}");
    // Exactly one verdict series is 1.
    let ones = page
        .lines()
        .filter(|l| l.starts_with("sluice_verdict{") && l.ends_with(" 1"))
        .count();
    assert_eq!(ones, 1, "{page}");
    for line in page.lines().filter(|l| l.starts_with("sluice_verdict{")) {
        let token = line
            .split("verdict=\"")
            .nth(1)
            .unwrap()
            .split('"')
            .next()
            .unwrap();
        assert!(Verdict::TOKENS.contains(&token), "{line}");
    }

    // scope on a Node process whose 2 pool threads have 8 pbkdf2 to run.
    let dir = tempfile::tempdir().unwrap();
    let script = common::node::load_js(dir.path(), "load.js");
    let node = common::node::script(&script, &["cpu", "8"], 2);
    let addr = free_addr();
    let pid = node.pid().to_string();
    let args = ["scope", &pid, "--prometheus", &addr, "--duration", "60"];
    let mut scope = Killed(spawn_piped(sluice().args(args)));
    line_with(scope.0.stdout.as_mut().unwrap(), "pool-saturated");
    let resp = get10(&addr, "/metrics");
    drop(scope);
    drop(node);
    assert!(
        resp.to_ascii_lowercase()
            .contains("content-type: application/openmetrics-text; version=1.0.0"),
        "{resp}"
    );
    assert!(
        resp.contains(&format!(
            "sluice_scope_verdict{{pid=\"{pid}\",verdict=\"pool-saturated\"}} 1.0"
        )),
        "{resp}"
    );
    assert!(resp.trim_end().ends_with("# EOF"), "{resp}");
}
