//! Feature `tracing`: one `sluice.task` span per task, with its lane, and an
//! event for a refusal and for shutdown. Counts only.
#![cfg(feature = "tracing")]

use sluice::{Lane, Pool};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing::{Event, Metadata, Subscriber};

/// Counts `sluice.task` spans (and their lanes) and sluice's events.
#[derive(Default)]
struct Counting {
    next: AtomicU64,
    tasks: AtomicUsize,
    lanes: Mutex<Vec<String>>,
    events: Mutex<Vec<String>>,
}

struct Fields(Vec<(String, String)>);
impl Visit for Fields {
    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        self.0
            .push((field.name().to_string(), format!("{value:?}")));
    }
    fn record_str(&mut self, field: &Field, value: &str) {
        self.0.push((field.name().to_string(), value.to_string()));
    }
}

impl Subscriber for Counting {
    fn enabled(&self, _: &Metadata<'_>) -> bool {
        true
    }
    fn new_span(&self, span: &Attributes<'_>) -> Id {
        if span.metadata().name() == "sluice.task" {
            self.tasks.fetch_add(1, Ordering::SeqCst);
            let mut f = Fields(Vec::new());
            span.record(&mut f);
            if let Some((_, lane)) = f.0.into_iter().find(|(k, _)| k == "lane") {
                self.lanes.lock().unwrap().push(lane);
            }
        }
        Id::from_u64(self.next.fetch_add(1, Ordering::SeqCst) + 1)
    }
    fn record(&self, _: &Id, _: &Record<'_>) {}
    fn record_follows_from(&self, _: &Id, _: &Id) {}
    fn event(&self, event: &Event<'_>) {
        let mut f = Fields(Vec::new());
        event.record(&mut f);
        if let Some((_, msg)) = f.0.into_iter().find(|(k, _)| k == "message") {
            self.events.lock().unwrap().push(msg);
        }
    }
    fn enter(&self, _: &Id) {}
    fn exit(&self, _: &Id) {}
}

#[test]
fn a_span_per_task_and_events_for_refusal_and_shutdown() {
    let sub = Arc::new(Counting::default());
    let dispatch = tracing::Dispatch::from(Arc::clone(&sub) as Arc<dyn Subscriber + Send + Sync>);
    tracing::dispatcher::with_default(&dispatch, || {
        let pool = Pool::builder()
            .threads(Lane::Cpu, 1)
            .queue_bound(Lane::Cpu, 1)
            .build()
            .unwrap();
        pool.spawn(Lane::Cpu, || ()).wait().unwrap();
        pool.spawn(Lane::FastIo, || ()).wait().unwrap();
        let (release, gate) = std::sync::mpsc::channel::<()>();
        let (started_tx, started) = std::sync::mpsc::channel();
        let held = pool.spawn(Lane::Cpu, move || {
            started_tx.send(()).unwrap();
            gate.recv().unwrap();
        });
        started.recv().unwrap();
        let queued = pool.spawn(Lane::Cpu, || ());
        assert!(pool.try_spawn(Lane::Cpu, || ()).is_err());
        release.send(()).unwrap();
        held.wait().unwrap();
        queued.wait().unwrap();
        assert!(pool.shutdown(Duration::from_secs(5)).drained);
    });
    assert_eq!(
        sub.tasks.load(Ordering::SeqCst),
        4,
        "one span per submitted task"
    );
    let lanes = sub.lanes.lock().unwrap().clone();
    assert_eq!(lanes.iter().filter(|l| *l == "cpu").count(), 3, "{lanes:?}");
    assert_eq!(
        lanes.iter().filter(|l| *l == "fastio").count(),
        1,
        "{lanes:?}"
    );
    let events = sub.events.lock().unwrap().clone();
    let count = |needle: &str| events.iter().filter(|e| e.contains(needle)).count();
    assert_eq!(
        count("refused, the lane's queue is at its bound"),
        1,
        "{events:?}"
    );
    assert_eq!(count("pool shut down"), 1, "{events:?}");
}
