//! `http`'s goals, checked on a run's own rows: `/login` at 90 % of the
//! machine's ideal and `/ping`'s p99 during the flood, for each subject
//! with lanes at its largest pool size.

use super::HttpRow;
use super::tables::{ideal, metric, text};
use crate::PoolSize;
use crate::outcome::Outcome;
use crate::subject::Runtime;
use serde_json::Value;

/// The goals, checked on this run's numbers for each subject with lanes
/// (`sluice serve`, and Node with the npm package) at its largest pool size:
/// `/login` at 90 % of the ideal for both; `/ping`'s p99 during the flood
/// within 5 ms for the Rust service and within 2 ms for Node with the
/// package (its goal as an npm package: Node's own twin gives 4-11 ms).
pub(super) fn goals(o: &Outcome) -> Vec<String> {
    crate::subject::SUBJECTS
        .iter()
        .filter(|s| s.has_lanes() && o.rows.iter().any(|r| r.subject == s.name()))
        .flat_map(|s| {
            let ping_goal = if s.runtime() == Runtime::Node {
                2.0
            } else {
                5.0
            };
            subject_goals(o, s.name(), ping_goal)
        })
        .collect()
}

/// `/login` under the flood against the machine's ideal, one subject at one
/// pool size: part of `http`'s result, derived from its rows.
#[derive(Debug, Clone, Copy)]
pub struct LoginShare {
    /// `/login` answers per second under the flood.
    pub req_s: f64,
    /// One hash's time alone (`login-1`'s p50), ms.
    pub hash_ms: f64,
    /// Cores / one hash's time: what the machine could answer.
    pub ideal_req_s: f64,
    /// `req_s / ideal_req_s`.
    pub share: f64,
}

impl LoginShare {
    /// `/login`'s share of the ideal for `subject` at `pool` in `o`, where
    /// both cells ran.
    pub fn of(o: &Outcome, subject: &str, pool: PoolSize) -> Option<LoginShare> {
        let pool = pool.to_value();
        let req_s = metric(o, subject, &pool, "login", "req_s")?;
        let hash_ms = metric(o, subject, &pool, "login-1", "p50_ms")?;
        let ideal_req_s = ideal(o, subject, &pool)?;
        Some(LoginShare {
            req_s,
            hash_ms,
            ideal_req_s,
            share: req_s / ideal_req_s,
        })
    }
}

/// The goals of one subject with lanes, at its largest pool size.
pub(super) fn subject_goals(o: &Outcome, lanes: &str, ping_goal: f64) -> Vec<String> {
    let cores = o.machine.cores as f64;
    let metric = |pool: &Value, cell: &str, m: &str| metric(o, lanes, pool, cell, m);
    let Some(pool) = HttpRow::largest_pool(&o.typed_rows(), lanes) else {
        return vec![];
    };
    let share = LoginShare::of(o, lanes, pool);
    let pool = pool.to_value();
    let mut out = Vec::new();
    if let Some(LoginShare {
        req_s: req,
        hash_ms: hash,
        ideal_req_s: ideal,
        share,
    }) = share
    {
        let got = metric(&pool, "login", "server_cores").map_or(String::new(), |c| {
            format!(
                "; the server process got {c:.2} of the {cores} cores during the flood, and {:.0}% of what it got went into hashes (req/s x one hash's time / cores used)",
                req * hash / 1e3 / c * 100.0
            )
        });
        out.push(format!(
            "goal /login throughput >= 90% of cores / one hash's time: {lanes} pool {}: {req:.1} req/s of {ideal:.1} ({} cores / {hash:.1} ms) = {:.0}%: {}{got}",
            text(&pool),
            cores,
            share * 100.0,
            if share >= 0.9 { "met" } else { "NOT met" }
        ));
    }
    if let Some(p99) = metric(&pool, "ping-during-login", "p99_ms") {
        // How many answers the p99 rests on: over the goal, of all.
        let over = metric(&pool, "ping-during-login", &format!("over_{ping_goal}ms"))
            .zip(metric(&pool, "ping-during-login", "ok"))
            .map_or(String::new(), |(o, n)| {
                format!(" ({o:.0} of {n:.0} answers over {ping_goal} ms)")
            });
        out.push(format!(
            "goal /ping p99 <= {ping_goal} ms during a /login flood: {lanes} pool {}: {p99:.2} ms{over}: {}",
            text(&pool),
            if p99 <= ping_goal { "met" } else { "NOT met" }
        ));
    }
    out
}
