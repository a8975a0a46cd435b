//! What `scope`'s table and notes show of a row: the truth beside what
//! scope saw, each verdict judged, and the run's notes.

use super::*;

/// The truth of a row, as the table says it: `4 busy, 12 queued,
/// pool-saturated`.
pub(super) fn truth_text(r: &Row) -> String {
    let queue = r.metrics.get("truth_queue").copied().unwrap_or(0.0);
    let queued = match (queue > 0.0, r.param_text("workload") == "dns-32") {
        (false, _) => String::new(),
        (true, false) => format!(", {queue:.0} queued"),
        (true, true) => format!(", {queue:.0} queued at the start"),
    };
    format!(
        "{} busy{queued}, {}",
        fixed(r, "truth_busy", 0),
        r.param_text("truth_verdict")
    )
}

/// The verdict scope gave most often over the repetitions (its one-hot
/// metrics merged by median).
pub(super) fn verdict_seen(r: &Row) -> &'static str {
    let m = |v: &Verdict| r.metrics.get(&verdict_metric(*v)).copied().unwrap_or(0.0);
    Verdict::ALL
        .iter()
        .max_by(|a, b| m(a).total_cmp(&m(b)))
        .map_or("-", |v| v.as_str())
}

/// Whether the verdict was the truth's: yes, NO, or `unknown` where scope
/// said it cannot tell (its evidence is in the notes).
pub(super) fn verdict_ok(r: &Row) -> &'static str {
    if r.metrics.get("verdict_ok") == Some(&1.0) {
        "yes"
    } else if r.metrics.get(&verdict_metric(Verdict::Unknown)) == Some(&1.0) {
        "unknown"
    } else {
        "NO"
    }
}

/// One workload's line of the table.
pub(super) fn cells(r: &Row) -> Vec<String> {
    vec![
        r.param_text("node"),
        r.param_text("workload"),
        r.param_text("pool"),
        truth_text(r),
        format!(
            "{} ({})",
            fixed(r, "pool_found", 0),
            r.param_text("discovery")
        ),
        fixed(r, "busy_threads", 1),
        fixed(r, "saturation_pct", 0),
        fixed(r, "loop_utilization_pct", 0),
        fixed(r, "queue_depth", 1),
        format!(
            "{} / {}",
            fixed(r, "slow_io_running", 1),
            fixed(r, "slow_queue_depth", 1)
        ),
        verdict_seen(r).to_string(),
        verdict_ok(r).to_string(),
        fixed(r, "sampler_cpu_pct", 2),
    ]
}

/// One build's notes: who runs, how each row was watched, the truth, then
/// what the windows showed and scope's own cost.
pub(super) fn notes(plan: &Plan, node: &SubjectSpec, seen: Seen, rows: &[Row]) -> Vec<String> {
    let others: Vec<&str> = SUBJECTS
        .iter()
        .filter(|s| s.by_default(false) && s.supports(Need::Attach).is_err())
        .map(|s| s.name())
        .collect();
    let mut notes = vec![
        format!(
            "scope watches Node's libuv pool, so only the {} subject runs; {} have no libuv pool to watch",
            node.name(),
            and_list(&others)
        ),
        format!(
            "each row: scope attached from outside (sluice_scope::Session, as `sluice scope PID` does), one window of {} ms at {} Hz, starting {} ms after the load started{}",
            plan.window.as_millis(),
            plan.rate,
            RAMP.as_millis(),
            if plan.iterations > 0 {
                format!("; pbkdf2-sha512 of {} iterations (~{} ms)", plan.iterations, plan.cpu_ms)
            } else {
                String::new()
            }
        ),
        "truth: busy = min(tasks, pool) (dns-32: min(32, (P + 1) / 2)); queue = tasks beyond that; cpu-full's threads idle briefly between a completion and the loop's resubmission, so its saturation sits under 100 %".to_string(),
    ];
    if plan.workloads.contains(&"dns-32") {
        notes.push("dns-32: 32 dns.lookup (family 4) of distinct names inside a private network and mount namespace whose resolv.conf names the DNS delay server; truth: (P + 1) / 2 threads in getaddrinfo, the rest of the 32 queued at the start and draining over the window (the queue column is the window's mean), the other threads idle".to_string());
    }
    notes.push("`slow I/O run / queued`: libuv's slow_io_work_running and slow_io_pending_wq (dns.lookup's getaddrinfo), read from memory, means over the window".to_string());
    notes.extend(plan.skip_notes.iter().cloned());
    notes.extend(seen.dns.into_iter().map(|(_, n)| n));
    notes.extend(seen.unknown);
    notes.extend(
        seen.found
            .into_iter()
            .map(|(pool, f)| format!("pool {pool}: {f}")),
    );
    let cost: Vec<f64> = rows
        .iter()
        .filter_map(|r| r.metrics.get("sampler_cpu_pct").copied())
        .collect();
    if !cost.is_empty() {
        notes.push(format!(
            "scope's own cost: its sampling thread used {:.2} % of one core on average ({:.2} % at most) at {} Hz",
            cost.iter().sum::<f64>() / cost.len() as f64,
            cost.iter().copied().fold(0.0, f64::max),
            plan.rate
        ));
    }
    notes
}

/// `a`, `a and b`, `a, b and c`.
pub(super) fn and_list(items: &[&str]) -> String {
    match items {
        [] => "the others".to_string(),
        [one] => one.to_string(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}
