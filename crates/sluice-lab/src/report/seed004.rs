//! The report's section on seed 004 (Go's G/M/P scheduler against libuv's
//! pool): each of the seed's claims beside what this run measured, with
//! the number and a verdict (confirmed, refuted, or not reproducible here).
//! Built only from the run's outcomes; a claim whose experiment or subject
//! did not run says so.

use crate::PoolSize;
use crate::experiment::rows::{HttpRow, LoadFigures, StaircaseRow, TimerRow};
use crate::outcome::Outcome;
use crate::report::ms;
use serde::de::DeserializeOwned;
use serde_json::Value;

/// The pool at which both `a` and `b` have rows in `o`: the largest size,
/// or `unset` where that is the only one they share.
fn shared_pool(o: &Outcome, a: &str, b: &str) -> Option<Value> {
    let shared: Vec<Value> = o
        .distinct("pool")
        .into_iter()
        .filter(|p| {
            [a, b].iter().all(|s| {
                o.rows
                    .iter()
                    .any(|r| r.subject == *s && r.params.get("pool") == Some(p))
            })
        })
        .collect();
    shared
        .iter()
        .filter(|p| p.is_u64())
        .max_by_key(|p| p.as_u64())
        .or_else(|| shared.first())
        .cloned()
}

/// The typed rows of `experiment` and the pool at which go and node both
/// ran it, or the line that says it was not measured.
fn go_and_node<T: DeserializeOwned>(
    outcomes: &[Outcome],
    claim: &str,
    experiment: &str,
) -> Result<(Vec<T>, PoolSize), Line> {
    outcomes
        .iter()
        .find(|o| o.experiment == experiment)
        .and_then(|o| {
            let pool = serde_json::from_value(shared_pool(o, "go", "node")?).ok()?;
            Some((o.typed_rows(), pool))
        })
        .ok_or_else(|| missing(claim, experiment))
}

/// One line of the table: claim, measured, verdict.
type Line = [String; 3];

fn missing(claim: &str, what: &str) -> Line {
    [
        claim.into(),
        format!("{what} did not run with go and node"),
        "not measured in this run".into(),
    ]
}

/// Blocking system calls: a thread per call, no queue.
fn blocking(outcomes: &[Outcome]) -> Line {
    let claim = "a goroutine blocked in a system call hands its P on and a new M (thread) runs the others: blocking calls do not queue (§2.3), where libuv's pool queues them (§1)";
    let (rows, pool) = match go_and_node::<StaircaseRow>(outcomes, claim, "staircase") {
        Ok(found) => found,
        Err(line) => return line,
    };
    let wait = |s: &str, n: u64| {
        rows.iter()
            .find(|r| r.key.is(s, pool) && r.kind == "wait" && r.n == n)
    };
    let in_flight = |s: &str, n: u64| wait(s, n).and_then(|r| r.max_in_flight);
    let Some(n) = rows
        .iter()
        .map(|r| r.n)
        .filter(|&n| in_flight("go", n).is_some())
        .max()
    else {
        return missing(claim, "staircase's wait kind");
    };
    let go = in_flight("go", n).unwrap_or(0.0);
    let threads = wait("go", n).and_then(|r| r.threads_peak);
    let node = in_flight("node", n);
    let netpoll = in_flight("go-netpoll", n);
    let nv = n as f64;
    let mut measured = format!(
        "{n} FIFO reads at pool {pool}: go {go:.0} in read(2) at once{}; node {}",
        threads.map_or(String::new(), |t| format!(" ({t:.0} threads)")),
        node.map_or("-".into(), |v| format!("{v:.0}"))
    );
    if let Some(v) = netpoll {
        measured.push_str(&format!(
            "; the same reads on Go's netpoller: {v:.0} threads in read(2)"
        ));
    }
    let verdict = if go >= nv && node.is_some_and(|v| v < nv) {
        "confirmed"
    } else if go >= nv {
        "confirmed for go"
    } else {
        "refuted"
    };
    [claim.into(), measured, verdict.into()]
}

/// Preemption: a spinning goroutine does not hold a timer back.
fn preemption(outcomes: &[Outcome]) -> Line {
    let claim = "the scheduler preempts quickly: a goroutine that computes without yielding does not delay the others (§2.4), where a blocked loop delays every timer";
    let (rows, pool) = match go_and_node::<TimerRow>(outcomes, claim, "loop-vs-pool") {
        Ok(found) => found,
        Err(line) => return line,
    };
    let late = |s: &str| {
        rows.iter()
            .find(|r| r.key.is(s, pool) && r.scenario == "loop")
            .map(|r| r.lateness_ms)
    };
    let (Some(go), Some(node)) = (late("go"), late("node")) else {
        return missing(claim, "loop-vs-pool's loop scenario");
    };
    let measured = format!(
        "a 50 ms timer while one thread spins (go: a goroutine locked to its thread; node: the loop), pool {pool}: go {} ms late, node {} ms late",
        ms(go),
        ms(node)
    );
    let verdict = if go * 4.0 < node {
        "confirmed"
    } else {
        "refuted"
    };
    [claim.into(), measured, verdict.into()]
}

/// The headline run: many connections each asking for a CPU hash.
fn crowd(outcomes: &[Outcome], cell: &str) -> Line {
    let claim = if cell == "crowd" {
        "headline: 5000 concurrent requests each hashing: Go mean 12.4 ms, p99 < 18 ms; Node (UV_THREADPOOL_SIZE=16) mean 41.7 ms, p99 > 120 ms"
    } else {
        "§4 /ping: goroutines 42,850 QPS (p99 38.7 ms) against a worker-thread pool's 31,620 QPS (p99 62.4 ms)"
    };
    let (rows, pool) = match go_and_node::<HttpRow>(outcomes, claim, "http") {
        Ok(found) => found,
        Err(line) => return line,
    };
    let get = |s: &str, m: fn(&LoadFigures) -> Option<f64>| {
        HttpRow::load(&rows, s, pool, cell).and_then(m)
    };
    let (Some(go_mean), Some(node_mean)) = (get("go", |r| r.mean_ms), get("node", |r| r.mean_ms))
    else {
        return missing(claim, &format!("http's {cell} cell"));
    };
    let conns = rows
        .iter()
        .find(|r| r.key.is("go", pool) && r.cell == cell)
        .and_then(|r| r.connections)
        .unwrap_or(0.0);
    let figures = |s: &str| {
        format!(
            "{s} {} req/s, mean {} ms, p99 {} ms",
            get(s, |r| Some(r.req_s)).map_or("-".into(), |v| format!("{v:.0}")),
            ms(get(s, |r| r.mean_ms).unwrap_or(f64::NAN)),
            ms(get(s, |r| r.p99_ms).unwrap_or(f64::NAN))
        )
    };
    let mut measured = format!(
        "{conns:.0} connections, pool {pool} (GOMAXPROCS / UV_THREADPOOL_SIZE): {}; {}",
        figures("go"),
        figures("node")
    );
    if get("sluice", |r| r.mean_ms).is_some() {
        measured.push_str(&format!("; {}", figures("sluice")));
    }
    let go_p99 = get("go", |r| r.p99_ms).unwrap_or(f64::NAN);
    let node_p99 = get("node", |r| r.p99_ms).unwrap_or(f64::NAN);
    let verdict = if cell == "crowd" {
        let order = if go_mean < node_mean && go_p99 < node_p99 {
            "the order is confirmed (go's mean and p99 below node's)"
        } else if go_mean < node_mean {
            "go's mean is below node's, its p99 is not: partly confirmed"
        } else {
            "refuted: go's mean is not below node's"
        };
        format!(
            "{order}; the seed's milliseconds are not reproducible here ({conns:.0} connections on this machine, not 5000 on an M2)"
        )
    } else {
        match (get("go", |r| Some(r.req_s)), get("node", |r| Some(r.req_s))) {
            (Some(g), Some(n)) if g > n => format!("confirmed: go {:.2}x node's QPS", g / n),
            (Some(g), Some(n)) => format!("refuted: go {:.2}x node's QPS", g / n),
            _ => "not measured in this run".into(),
        }
    };
    [claim.into(), measured, verdict]
}

/// The section, or `None` if the go subject ran nowhere.
pub fn section(outcomes: &[Outcome]) -> Option<String> {
    if !crate::report::ran(outcomes, "go") {
        return None;
    }
    let go = outcomes
        .iter()
        .find_map(|o| o.machine.go.clone())
        .unwrap_or_else(|| "Go".into());
    let lines = [
        blocking(outcomes),
        preemption(outcomes),
        crowd(outcomes, "crowd"),
        crowd(outcomes, "crowd-ping"),
        [
            "a goroutine costs about 2 KB; millions fit (§1)".to_string(),
            "not measured: the lab counts threads and pool tasks, not goroutine stacks".to_string(),
            "not measured".to_string(),
        ],
        [
            "dynamic sizing plus CPU binding beats a fixed pool (§3.3)".to_string(),
            "see `adaptive` (sluice-fixed vs sluice vs sluice-bound)".to_string(),
            "see adaptive".to_string(),
        ],
    ];
    let mut md = format!(
        "\n## Seed 004 beside this machine\n\nSeed 004 set Go's scheduler (Go 1.22, a MacBook M2) against libuv's pool (Node 20.12). Here: {go}, and the node above, in this run.\n\n| seed 004 claims | this run measured | verdict |\n|---|---|---|\n"
    );
    md.push_str(&crate::report::verdict_rows(&lines));
    Some(md)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::outcome::Row;

    fn wait(subject: &str, pool: u64, n: u64, in_flight: f64) -> Row {
        Row::new(subject)
            .param("kind", "wait")
            .param("pool", pool)
            .param("n", n)
            .metric("total_ms", 40.0)
            .metric("max_in_flight", in_flight)
    }

    #[test]
    fn verdicts_follow_the_counts_of_the_run() {
        let staircase = Outcome::of_rows(
            "staircase",
            vec![
                wait("node", 4, 16, 4.0),
                wait("go", 4, 16, 16.0).metric("threads_peak", 21.0),
                wait("go-netpoll", 4, 16, 0.0),
                wait("node", 1, 16, 1.0),
                wait("go", 1, 16, 16.0),
            ],
        );
        let timer = |s: &str, late: f64| {
            Row::new(s)
                .param("scenario", "loop")
                .param("pool", "unset")
                .metric("lateness_ms", late)
        };
        let loop_vs_pool =
            Outcome::of_rows("loop-vs-pool", vec![timer("node", 150.0), timer("go", 2.0)]);
        let md = section(&[staircase.clone(), loop_vs_pool]).expect("go ran");
        assert!(
            md.contains("pool unset: go 2.0 ms late, node 150 ms late | confirmed |"),
            "{md}"
        );
        let md = section(&[staircase]).expect("go ran");
        assert!(md.contains("16 FIFO reads at pool 4: go 16 in read(2) at once (21 threads); node 4; the same reads on Go's netpoller: 0 threads in read(2) | confirmed |"), "{md}");
        assert!(
            md.contains("loop-vs-pool did not run with go and node"),
            "{md}"
        );

        let refuted = Outcome::of_rows(
            "staircase",
            vec![wait("node", 2, 8, 2.0), wait("go", 2, 8, 3.0)],
        );
        let md = section(&[refuted]).unwrap();
        assert!(
            md.contains("go 3 in read(2) at once; node 2 | refuted |"),
            "{md}"
        );
    }

    #[test]
    fn no_section_without_go() {
        let o = Outcome::of_rows("staircase", vec![wait("node", 4, 16, 4.0)]);
        assert!(section(&[o]).is_none());
    }
}
