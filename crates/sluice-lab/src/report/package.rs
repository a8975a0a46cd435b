//! The report's section on the sluice npm package (the `node+sluice`
//! subject): each of its goals beside what this run measured, with node's
//! number from the same run and a verdict. Built only from the run's
//! outcomes; a goal whose experiment or subject did not run says so.

use crate::experiment::rows::{
    FloodRow, HttpRow, LoginShare, LookupRow, PING_REQUEST, ProbeRow, StarveRow, TripRow,
};
use crate::outcome::Outcome;
use crate::report::ms;
use crate::subject::{Runtime, SUBJECTS};

/// One line of the table: goal, node+sluice, node, verdict.
type Line = [String; 4];

/// The subject that runs node with the package preloaded, and the plain
/// node beside it.
fn names() -> Option<(&'static str, &'static str)> {
    let node = SUBJECTS.iter().find(|s| s.is_reference())?.name();
    let preload = SUBJECTS
        .iter()
        .find(|s| s.runtime() == Runtime::Node && s.node_preload().is_some())?
        .name();
    Some((preload, node))
}

/// The typed rows of `experiment`'s outcome, or `None` where it did not run.
fn rows<T: serde::de::DeserializeOwned>(outcomes: &[Outcome], experiment: &str) -> Option<Vec<T>> {
    outcome(outcomes, experiment).map(Outcome::typed_rows)
}

fn outcome<'a>(outcomes: &'a [Outcome], experiment: &str) -> Option<&'a Outcome> {
    outcomes.iter().find(|o| o.experiment == experiment)
}

fn verdict(met: bool) -> String {
    if met { "met" } else { "NOT met" }.into()
}

fn missing(goal: &str, what: &str) -> Line {
    [
        goal.into(),
        format!("{what} did not run with node+sluice"),
        "-".into(),
        "not measured in this run".into(),
    ]
}

fn cell(v: Option<f64>) -> String {
    v.map_or("-".into(), |v| format!("{} ms", ms(v)))
}

/// probe: one call behind as many pbkdf2 blockers as the pool runs.
fn probe(outcomes: &[Outcome], ours: &str, node: &str, id: &str, call: &str) -> Line {
    let goal = format!("`{call}` behind a pool full of pbkdf2 blockers (probe) <= 1 ms");
    let rows: Vec<ProbeRow> = rows(outcomes, "probe").unwrap_or_default();
    let at = |s: &str| rows.iter().find(|r| r.key.subject == s && r.probe == id);
    let Some(got) = at(ours) else {
        return missing(&goal, "probe");
    };
    let blockers = got
        .blockers
        .map_or(String::new(), |b| format!(" ({b:.0} blockers)"));
    [
        goal,
        format!("{}{blockers}", cell(Some(got.probe_ms))),
        cell(at(node).map(|r| r.probe_ms)),
        verdict(got.probe_ms <= 1.0),
    ]
}

/// starve B: a file read behind 32 queued pbkdf2 calls.
fn starve(outcomes: &[Outcome], ours: &str, node: &str) -> Line {
    let goal = "starvation B: a file read behind queued pbkdf2 <= 1 ms";
    let Some(rows) = rows::<StarveRow>(outcomes, "starve") else {
        return missing(goal, "starve");
    };
    let row = |s: &str| {
        rows.iter()
            .find(|r| r.key.subject == s && r.scenario == "B" && r.probe == "file_read")
    };
    let Some(r) = row(ours) else {
        return missing(goal, "starve B");
    };
    let goal = format!(
        "starvation B: a file read (`{}`) behind {} queued pbkdf2 (pool {}), its wait <= 1 ms",
        r.stand_in, r.queued, r.key.pool
    );
    [
        goal,
        cell(r.wait_ms),
        cell(row(node).and_then(|r| r.wait_ms)),
        verdict(r.wait_ms.is_some_and(|w| w <= 1.0)),
    ]
}

/// dns: names held by the DNS delay server, all in flight at once, the
/// batch within 10 % of one hold.
fn dns(outcomes: &[Outcome], ours: &str, node: &str) -> Line {
    let goal = "names held by the DNS server: `dns.lookup` of every name in flight at once, the batch <= 1.1 x the hold";
    let rows: Vec<LookupRow> = rows(outcomes, "dns").unwrap_or_default();
    let row = |s: &str| {
        rows.iter()
            .find(|r| r.key.subject == s && r.method == "dns.lookup")
    };
    let Some(r) = row(ours) else {
        return missing(goal, "dns");
    };
    let text = |r: &LookupRow| {
        format!(
            "{:.0} of {} in flight, {} ms",
            r.max_in_flight,
            r.names,
            ms(r.total_ms)
        )
    };
    [
        format!(
            "{goal} ({} names held {} ms, pool {})",
            r.names, r.hold_ms, r.key.pool
        ),
        text(r),
        row(node).map_or("-".into(), text),
        verdict(r.max_in_flight >= r.names as f64 && r.total_ms <= 1.1 * r.hold_ms),
    ]
}

/// http: `/ping` during the `/login` flood and `/login`'s share of the
/// machine, at node+sluice's largest pool size.
fn http_lines(outcomes: &[Outcome], ours: &str, node: &str) -> Vec<Line> {
    let ping = "`/ping` p99 during a `/login` flood <= 2 ms";
    let login = "`/login` during the flood >= 90 % of the ideal (cores / one hash's time)";
    let Some((o, rows)) = outcome(outcomes, "http").map(|o| (o, o.typed_rows::<HttpRow>())) else {
        return vec![missing(ping, "http"), missing(login, "http")];
    };
    let Some(pool) = HttpRow::largest_pool(&rows, ours) else {
        return vec![missing(ping, "http"), missing(login, "http")];
    };
    let flood = |s: &str| HttpRow::load(&rows, s, pool, "ping-during-login");
    let p99 = |s: &str| flood(s)?.p99_ms;
    let answers = |s: &str| {
        let r = flood(s)?;
        let (over, n) = (r.over_2ms, r.ok);
        Some(format!(" ({over:.0} of {n:.0} answers over 2 ms)"))
    };
    let share = |s: &str| LoginShare::of(o, s, pool);
    let share_text = |s: &str| {
        share(s).map_or("-".into(), |l| {
            format!(
                "{:.0} % ({:.1} of {:.1} req/s)",
                l.share * 100.0,
                l.req_s,
                l.ideal_req_s
            )
        })
    };
    vec![
        [
            format!("{ping} (pool {pool})"),
            format!("{}{}", cell(p99(ours)), answers(ours).unwrap_or_default()),
            format!("{}{}", cell(p99(node)), answers(node).unwrap_or_default()),
            verdict(p99(ours).is_some_and(|v| v <= 2.0)),
        ],
        [
            format!("{login} (pool {pool})"),
            share_text(ours),
            share_text(node),
            verdict(share(ours).is_some_and(|l| l.share >= 0.9)),
        ],
    ]
}

/// app: the real Express app's targets (issue 28), node+piscina beside
/// node in the baseline column.
fn app_lines(outcomes: &[Outcome], ours: &str, node: &str) -> Vec<Line> {
    let goals = [
        "real app (Express, argon2id): `/login` >= node+piscina's and >= 90 % of the ideal",
        "real app: `/ping` p99 during the `/login` flood <= 2 ms",
        "real app: static-file p99 during the `/login` flood <= 5 ms",
        "real app: RSS <= node+piscina's",
    ];
    let Some((o, us)) = outcome(outcomes, "app").and_then(|o| Some((o, FloodRow::of(o, ours)?)))
    else {
        return goals.iter().map(|g| missing(g, "app")).collect();
    };
    let piscina = "node+piscina";
    let (base, pool) = (FloodRow::of(o, node), FloodRow::of(o, piscina));
    let both = |k: fn(&FloodRow) -> Option<f64>, show: &dyn Fn(Option<f64>) -> String| {
        let (b, p) = (base.as_ref().and_then(k), pool.as_ref().and_then(k));
        format!("{}; {piscina} {}", show(b), show(p))
    };
    let rate = |v: Option<f64>| v.map_or("-".into(), |v| format!("{v:.1} req/s"));
    let mib = |v: Option<f64>| v.map_or("-".into(), |v| format!("{v:.0} MiB"));
    let (login, ideal) = (us.login_req_s, us.ideal_req_s);
    let piscina_login = pool.as_ref().map(|p| p.login_req_s);
    let login_met = login >= 0.9 * ideal && piscina_login.is_none_or(|p| login >= p);
    let rss_p = pool.as_ref().and_then(|p| p.rss_mib);
    vec![
        [
            goals[0].into(),
            format!(
                "{} ({:.0} % of {})",
                rate(Some(login)),
                100.0 * login / ideal,
                rate(Some(ideal))
            ),
            both(|r| Some(r.login_req_s), &rate),
            verdict(login_met),
        ],
        [
            goals[1].into(),
            cell(us.ping_p99_ms),
            both(|r| r.ping_p99_ms, &cell),
            verdict(us.ping_p99_ms.is_some_and(|v| v <= 2.0)),
        ],
        [
            goals[2].into(),
            cell(us.static_p99_ms),
            both(|r| r.static_p99_ms, &cell),
            verdict(us.static_p99_ms.is_some_and(|v| v <= 5.0)),
        ],
        [
            goals[3].into(),
            mib(us.rss_mib),
            both(|r| r.rss_mib, &mib),
            verdict(us.rss_mib.zip(rss_p).is_some_and(|(a, b)| a <= b)),
        ],
    ]
}

/// dispatch: the package's trivial task against node's cheapest pool
/// request, one at a time.
fn dispatch(outcomes: &[Outcome], ours: &str, node: &str) -> Line {
    let goal =
        "a trivial task's round trip from JS (`sluice.ping(cb)`) <= node's cheapest pool request";
    let rows: Vec<TripRow> = rows(outcomes, "dispatch").unwrap_or_default();
    let one = |s: &str, request: Option<&str>| {
        rows.iter().find(|r| {
            r.key.subject == s
                && r.in_flight == 1
                && request.is_none_or(|q| r.request.as_deref() == Some(q))
        })
    };
    // node's first row is its --node-request (fs.access by default).
    let base = one(node, None);
    let Some(got) = one(ours, Some(PING_REQUEST)).map(|r| r.us_per_task) else {
        return missing(goal, "dispatch");
    };
    [
        format!("{goal}, 1 in flight"),
        format!("{} µs", ms(got)),
        base.map_or("-".into(), |r| {
            format!(
                "{} µs (`{}`)",
                ms(r.us_per_task),
                r.request.as_deref().unwrap_or_default()
            )
        }),
        verdict(base.is_some_and(|b| got <= b.us_per_task)),
    ]
}

/// The section, or `None` where node+sluice ran in no experiment.
pub fn section(outcomes: &[Outcome]) -> Option<String> {
    let (ours, node) = names()?;
    if !crate::report::ran(outcomes, ours) {
        return None;
    }
    let mut lines = vec![
        probe(outcomes, ours, node, "read", "fs.readFile"),
        probe(outcomes, ours, node, "lookup", "dns.lookup('localhost')"),
        starve(outcomes, ours, node),
        dns(outcomes, ours, node),
    ];
    lines.extend(http_lines(outcomes, ours, node));
    lines.push(dispatch(outcomes, ours, node));
    lines.extend(app_lines(outcomes, ours, node));
    let met = lines.iter().filter(|l| l[3] == "met").count();
    let mut md = format!(
        "\n## The npm package against its goals\n\n`{ours}` is the real node with the sluice npm package preloaded; each goal is checked on this run's rows, beside `{node}` in the same run ({met} of {} met).\n\n| goal | {ours} | {node} | verdict |\n|---|---|---|---|\n",
        lines.len()
    );
    md.push_str(&crate::report::verdict_rows(&lines));
    Some(md)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::machine::Machine;
    use crate::outcome::Row;

    fn probe(subject: &str, id: &str, probe_ms: f64) -> Row {
        Row::new(subject)
            .param("pool", "unset")
            .param("probe", id)
            .metric("probe_ms", probe_ms)
            .metric("blockers", 4.0)
    }

    fn starve(subject: &str, wait_ms: f64) -> Row {
        Row::new(subject)
            .param("pool", 4)
            .param("scenario", "B")
            .param("probe", "file_read")
            .param("queued", 32)
            .param("stand_in", "fs.read 1 KiB")
            .metric("wait_ms", wait_ms)
    }

    fn lookups(subject: &str, in_flight: f64, total_ms: f64) -> Row {
        Row::new(subject)
            .param("pool", "unset")
            .param("method", "dns.lookup")
            .param("names", 24)
            .param("hold_ms", 100)
            .metric("max_in_flight", in_flight)
            .metric("total_ms", total_ms)
    }

    fn trip(subject: &str, request: &str, us: f64) -> Row {
        Row::new(subject)
            .param("pool", "unset")
            .param("in_flight", 1)
            .param("request", request)
            .metric("us_per_task", us)
    }

    #[test]
    fn each_goal_is_judged_on_the_runs_rows_beside_node() {
        let outcomes = [
            (
                "probe",
                // fs.readFile and dns.lookup behind the blockers.
                [("read", 148.0, 0.44), ("lookup", 326.0, 1.6)]
                    .into_iter()
                    .flat_map(|(id, node, ours)| {
                        [probe("node", id, node), probe("node+sluice", id, ours)]
                    })
                    .collect(),
            ),
            (
                "starve",
                vec![starve("node", 704.0), starve("node+sluice", 0.3)],
            ),
            (
                "dns",
                vec![
                    lookups("node", 2.0, 1219.0),
                    lookups("node+sluice", 24.0, 108.0),
                ],
            ),
            (
                "dispatch",
                vec![
                    trip("node", "fs.access", 27.7),
                    trip("node", "fs.stat", 29.0),
                    trip("node+sluice", "fs.stat", 26.0),
                    trip("node+sluice", "sluice.ping", 11.0),
                ],
            ),
        ]
        .map(|(experiment, rows)| Outcome::of_rows(experiment, rows));
        let md = section(&outcomes).expect("node+sluice ran");
        assert!(
            md.contains("| `fs.readFile` behind a pool full of pbkdf2 blockers (probe) <= 1 ms | 0.44 ms (4 blockers) | 148 ms | met |"),
            "{md}"
        );
        assert!(
            md.contains("| 1.6 ms (4 blockers) | 326 ms | NOT met |"),
            "{md}"
        );
        assert!(
            md.contains("starvation B: a file read (`fs.read 1 KiB`) behind 32 queued pbkdf2 (pool 4), its wait <= 1 ms | 0.30 ms | 704 ms | met |"),
            "{md}"
        );
        assert!(
            md.contains("(24 names held 100 ms, pool unset) | 24 of 24 in flight, 108 ms | 2 of 24 in flight, 1219 ms | met |"),
            "{md}"
        );
        assert!(
            md.contains("1 in flight | 11.0 µs | 27.7 µs (`fs.access`) | met |"),
            "{md}"
        );
        // http did not run: said, not judged.
        assert!(md.contains("http did not run with node+sluice"), "{md}");
        assert!(md.contains("(4 of 11 met)"), "{md}");
        // app did not run either: its four goals said, not judged.
        assert_eq!(
            md.matches("app did not run with node+sluice").count(),
            4,
            "{md}"
        );

        let http_cell =
            |s: &str, pool: u64, cell: &str| Row::new(s).param("pool", pool).param("cell", cell);
        let mut rows = Vec::new();
        for (s, req, p99, over) in [("node", 20.0, 8.1, 40.0), ("node+sluice", 60.0, 1.4, 2.0)] {
            for pool in [1, 4] {
                rows.push(http_cell(s, pool, "login").metric("req_s", req));
                rows.push(http_cell(s, pool, "login-1").metric("p50_ms", 25.0));
                rows.push(
                    http_cell(s, pool, "ping-during-login")
                        .metric("req_s", 229.0)
                        .metric("p99_ms", p99)
                        .metric("over_2ms", over)
                        .metric("ok", 458.0),
                );
            }
        }
        let md = section(&[Outcome::of_rows("http", rows)]).unwrap();
        let cores = Machine::detect(None).cores as f64;
        let ideal = cores / 0.025;
        assert!(
            md.contains("during a `/login` flood <= 2 ms (pool 4) | 1.4 ms (2 of 458 answers over 2 ms) | 8.1 ms (40 of 458 answers over 2 ms) | met |"),
            "{md}"
        );
        let share = |req: f64| {
            format!(
                "{:.0} % ({req:.1} of {ideal:.1} req/s)",
                req / ideal * 100.0
            )
        };
        assert!(
            md.contains(&format!(
                "(pool 4) | {} | {} | {} |",
                share(60.0),
                share(20.0),
                if 60.0 / ideal >= 0.9 {
                    "met"
                } else {
                    "NOT met"
                }
            )),
            "{md}"
        );

        // Over the hold's 10 %, or a name not in flight: not met.
        for (in_flight, total, line) in [
            (24.0, 111.0, "| 24 of 24 in flight, 111 ms | - | NOT met |"),
            (23.0, 105.0, "| 23 of 24 in flight, 105 ms | - | NOT met |"),
        ] {
            let rows = vec![lookups("node+sluice", in_flight, total)];
            let md = section(&[Outcome::of_rows("dns", rows)]).unwrap();
            assert!(md.contains(line), "{md}");
        }
    }

    #[test]
    fn the_real_apps_targets_are_judged_on_its_flood_rows() {
        let flood = |s: &str, login: f64, ping: f64, stat: f64, rss: f64| {
            Row::new(s)
                .param("pool", "unset")
                .param("cell", "flood")
                .metric("login_req_s", login)
                .metric("ideal_req_s", 100.0)
                .metric("ping_p99_ms", ping)
                .metric("static_p99_ms", stat)
                .metric("rss_mib", rss)
        };
        let o = [Outcome::of_rows(
            "app",
            vec![
                flood("node", 70.0, 40.0, 500.0, 140.0),
                flood("node+piscina", 80.0, 20.0, 60.0, 190.0),
                flood("node+sluice", 95.0, 1.5, 6.0, 150.0),
            ],
        )];
        let md = section(&o).unwrap();
        assert!(
            md.contains("`/login` >= node+piscina's and >= 90 % of the ideal | 95.0 req/s (95 % of 100.0 req/s) | 70.0 req/s; node+piscina 80.0 req/s | met |"),
            "{md}"
        );
        assert!(
            md.contains(
                "during the `/login` flood <= 2 ms | 1.5 ms | 40.0 ms; node+piscina 20.0 ms | met |"
            ),
            "{md}"
        );
        assert!(md.contains("static-file p99 during the `/login` flood <= 5 ms | 6.0 ms | 500 ms; node+piscina 60.0 ms | NOT met |"), "{md}");
        assert!(
            md.contains("RSS <= node+piscina's | 150 MiB | 140 MiB; node+piscina 190 MiB | met |"),
            "{md}"
        );
        // Below piscina's rate: not met, whatever the ideal says.
        let slower = [Outcome::of_rows(
            "app",
            vec![
                flood("node+piscina", 99.0, 1.0, 1.0, 100.0),
                flood("node+sluice", 95.0, 1.0, 1.0, 90.0),
            ],
        )];
        let md = section(&slower).unwrap();
        assert!(md.contains("node+piscina 99.0 req/s | NOT met |"), "{md}");
    }

    #[test]
    fn no_section_without_node_sluice() {
        let o = Outcome::of_rows("probe", vec![probe("node", "read", 148.0)]);
        assert!(section(&[o]).is_none());
    }
}
