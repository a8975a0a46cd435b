//! `dispatch`'s judged notes and its idle table, read from the run's rows.

use super::{
    BATCH_REQUEST, PING_REQUEST, PLAIN_LOOP_REQUEST, PRELOAD_REQUEST, Params, SETTLE_MS, label,
    micros, rate, text,
};
use crate::PoolSize;
use crate::outcome::{Outcome, Row};
use crate::report::{Table, ratio};
use crate::subject::{self, Runtime};
use serde_json::{Value, json};

/// The idle window's CPU and wake-ups per subject at `pool`, if measured.
pub(super) fn idle_table(o: &Outcome, pool: &Value) -> Option<Table> {
    let idle: Vec<&Row> = o
        .rows
        .iter()
        .filter(|r| r.params.get("pool") == Some(pool) && r.params.contains_key("idle_ms"))
        .collect();
    let first = idle.first()?;
    let rows = idle
        .iter()
        .map(|r| {
            let m = |k: &str| r.metrics.get(k).copied().unwrap_or(f64::NAN);
            vec![
                r.subject.clone(),
                format!("{:.0}", m("threads")),
                format!("{:.0}", m("idle_cpu_ms")),
                format!("{:.3}", m("idle_thread_cpu_ms")),
                format!("{:.0}", m("idle_wakeups")),
            ]
        })
        .collect();
    Some(Table {
        title: format!(
            "dispatch, pool {}: idle CPU over {} ms, {SETTLE_MS} ms after the runs",
            text(pool),
            first.param_text("idle_ms")
        ),
        header: [
            "subject",
            "threads",
            "process CPU ms (/proc/self/stat)",
            "other threads' CPU ms (schedstat)",
            "other threads' wake-ups",
        ]
        .map(String::from)
        .to_vec(),
        rows,
        note: "other threads: every thread but the one measuring (the event loop's), which only sleeps in the window".into(),
    })
}

/// The npm package's goal, checked on this run's rows: its trivial task's
/// round trip from JS (`sluice.ping(cb)`) at most node's cheapest pool request
/// (`--node-request`), at 1 in flight; and the call both make (`fs.stat`)
/// side by side.
pub(super) fn package_goal_note(rows: &[Row], node_request: &str) -> Vec<String> {
    // The node-runtime row at 1 in flight with `request`, with or without the
    // preload: its subject and µs.
    let us = |preload: bool, request: &str| {
        rows.iter()
            .find(|r| {
                r.params.get("in_flight") == Some(&json!(1))
                    && r.params.get("request").and_then(Value::as_str) == Some(request)
                    && subject::SUBJECTS.iter().any(|s| {
                        s.name() == r.subject
                            && s.runtime() == Runtime::Node
                            && s.node_preload().is_some() == preload
                    })
            })
            .map(|r| (r.subject.clone(), r.metrics.get("us_per_task").copied()))
    };
    // node+sluice's figure for one request beside node's for another.
    let both = |ours: &str, node: &str| match (us(true, ours), us(false, node)) {
        (Some((a, Some(x))), Some((b, Some(y)))) => Some((a, x, b, y)),
        _ => None,
    };
    let mut notes = Vec::new();
    if let Some((ours, ping, node, base)) = both(PING_REQUEST, node_request) {
        notes.push(format!(
            "goal {ours}'s trivial task ({PING_REQUEST}(cb)) <= {node}'s cheapest pool request ({node_request}), 1 in flight: {} µs vs {} µs: {}",
            micros(ping),
            micros(base),
            if ping <= base { "met" } else { "NOT met" }
        ));
    }
    if let Some((ours, a, node, b)) = both(PRELOAD_REQUEST, PRELOAD_REQUEST) {
        notes.push(format!(
            "{PRELOAD_REQUEST}, the call both run, 1 in flight: {ours} {} µs, {node} {} µs ({ours} at {} {node}'s speed)",
            micros(a),
            micros(b),
            ratio(Some(b), Some(a))
        ));
    }
    notes
}

/// The metric `m` of `subject`'s row at `pool`, with `request` (None: a row
/// without one) and `in_flight` tasks.
fn metric_at(
    rows: &[Row],
    pool: &Value,
    subject: &str,
    request: Option<&str>,
    in_flight: u64,
    m: &str,
) -> Option<f64> {
    rows.iter()
        .find(|r| {
            r.subject == subject
                && r.params.get("pool") == Some(pool)
                && r.params.get("request").and_then(Value::as_str) == request
                && r.params.get("in_flight") == Some(&json!(in_flight))
        })
        .and_then(|r| r.metrics.get(m).copied())
}

/// Issue 30's goals for the Rust path through the loop, judged on this run's
/// rows at the first pool: sluice's `Pool::spawn` row (its loop with the
/// park hook) against libuv-ffi, at most a quarter of its time at 1 in
/// flight and at least twice its rate at the batch. `spawn_batch`'s rate
/// and the row on a loop without the hook are given beside them. None
/// without both subjects' rows.
pub(super) fn loop_goal_note(rows: &[Row], pools: &[PoolSize], p: &Params) -> Option<String> {
    let pool = pools.first()?.to_value();
    let lanes = subject::SUBJECTS.iter().find(|s| s.has_lanes())?.name();
    let ffi = subject::SUBJECTS
        .iter()
        .find(|s| s.runtime() == Runtime::Libuv)?
        .name();
    let get = |subject: &str, request: Option<&str>, in_flight: u64, m: &str| {
        metric_at(rows, &pool, subject, request, in_flight, m).filter(|x| x.is_finite() && *x > 0.0)
    };
    let (us, base_us) = (
        get(lanes, None, 1, "us_per_task")?,
        get(ffi, None, 1, "us_per_task")?,
    );
    let (tps, base_tps) = (
        get(lanes, None, p.batch, "tasks_per_s")?,
        get(ffi, None, p.batch, "tasks_per_s")?,
    );
    let verdict = |met: bool| if met { "met" } else { "NOT met" };
    let batched = get(lanes, Some(BATCH_REQUEST), p.batch, "tasks_per_s")
        .map(|b| format!(" ({BATCH_REQUEST}: {:.2}x)", b / base_tps))
        .unwrap_or_default();
    let plain = get(lanes, Some(PLAIN_LOOP_REQUEST), 1, "us_per_task")
        .map(|x| format!(" ({PLAIN_LOOP_REQUEST}: {:.2}x)", base_us / x))
        .unwrap_or_default();
    Some(format!(
        "goal {lanes} through the loop against {ffi}: 1 in flight {} µs against {} µs, {:.2}x{plain} (>= 4x: {}); {} in flight {} against {}, {:.2}x{batched} (>= 2x: {})",
        micros(us),
        micros(base_us),
        base_us / us,
        verdict(us * 4.0 <= base_us),
        p.batch,
        rate(tps),
        rate(base_tps),
        tps / base_tps,
        verdict(tps >= 2.0 * base_tps),
    ))
}

/// A note comparing sluice with its dispatch goal, from the measured rows.
pub(super) fn goal_note(rows: &[Row], pools: &[PoolSize], p: &Params) -> Option<String> {
    let pool = pools.first()?.to_value();
    let lanes = subject::SUBJECTS.iter().find(|s| s.has_lanes())?.name();
    let get = |request: Option<&str>, in_flight: u64, m: &str| {
        metric_at(rows, &pool, lanes, request, in_flight, m)
    };
    let (us, tps) = (
        get(None, 1, "us_per_task")?,
        get(None, p.batch, "tasks_per_s")?,
    );
    let batched = get(Some(BATCH_REQUEST), p.batch, "tasks_per_s")
        .map(|b| format!(" ({} with {BATCH_REQUEST})", rate(b)))
        .unwrap_or_default();
    Some(format!(
        "sluice against its goal (≤ 1 µs at 1 in flight, ≥ 10 M tasks/s at 1000, measured with Task::wait in `cargo bench -p sluice --bench dispatch`): here, through the event loop, {} µs and {} tasks/s{batched} at {} in flight",
        micros(us),
        rate(tps),
        p.batch
    ))
}

/// How far the repetitions (`--reps`) spread at `--batch` in flight, from
/// each repetition's rows: every subject's and request's max / min of
/// tasks/s at the first pool, and the goal of issue 30 judged on them:
/// sluice's spread (its `Pool::spawn` row) no wider than libuv-ffi's. None
/// with fewer than two repetitions.
pub(super) fn spread_note(reps: &[Vec<Row>], pools: &[PoolSize], p: &Params) -> Option<String> {
    if reps.len() < 2 {
        return None;
    }
    let pool = pools.first()?.to_value();
    // Each row's label (its subject, and its request if any) in the order
    // they ran, with its rates.
    let mut seen: Vec<(String, Vec<f64>)> = Vec::new();
    for rep in reps {
        for r in rep {
            if r.params.get("pool") != Some(&pool)
                || r.params.get("in_flight") != Some(&json!(p.batch))
            {
                continue;
            }
            let Some(&tps) = r.metrics.get("tasks_per_s") else {
                continue;
            };
            let name = label(r);
            match seen.iter_mut().find(|(l, _)| *l == name) {
                Some((_, v)) => v.push(tps),
                None => seen.push((name, vec![tps])),
            }
        }
    }
    // max / min, and the range; NaN where a rate is not positive.
    let spread = |v: &[f64]| {
        let min = v.iter().copied().fold(f64::INFINITY, f64::min);
        let max = v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let x = if min > 0.0 { max / min } else { f64::NAN };
        (x, min, max)
    };
    let parts: Vec<String> = seen
        .iter()
        .map(|(name, v)| {
            let (x, min, max) = spread(v);
            format!("{name} {x:.2}x ({} to {})", rate(min), rate(max))
        })
        .collect();
    if parts.is_empty() {
        return None;
    }
    let lanes = subject::SUBJECTS.iter().find(|s| s.has_lanes())?.name();
    let ffi = subject::SUBJECTS
        .iter()
        .find(|s| s.runtime() == Runtime::Libuv)
        .map(|s| s.name());
    // A subject's row without a request: its label is its name.
    let of = |subject: &str| {
        seen.iter()
            .find(|(name, _)| name == subject)
            .map(|(_, v)| spread(v).0)
    };
    let goal = match (of(lanes), ffi.and_then(|f| of(f).map(|x| (f, x)))) {
        (Some(ours), Some((ffi, base))) if ours.is_finite() && base.is_finite() => format!(
            "; goal {lanes}'s spread no wider than {ffi}'s: {}",
            if ours <= base { "met" } else { "NOT met" }
        ),
        _ => String::new(),
    };
    Some(format!(
        "spread of tasks/s at {} in flight over the {} repetitions (max / min, the lowest to the highest): {}{goal}",
        p.batch,
        reps.len(),
        parts.join(", ")
    ))
}
