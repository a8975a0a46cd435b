//! The Rust subjects' side of `dns`: the workload `sluice lab-child` runs on
//! the subject's executor.

use super::*;

impl crate::child::Workload for Dns {
    type Params = Value;
    type Reply = Value;

    fn run(&self, cx: &ChildContext, params: Value) -> anyhow::Result<Value> {
        let params = &params;
        let names: Vec<String> =
            serde_json::from_value(params["names"].clone()).context("names")?;
        let method = params["method"].as_str().context("method")?;
        let warmup = params["warmup"].as_str().context("warmup")?.to_string();
        let answer: IpAddr = params["answer"].as_str().context("answer")?.parse()?;
        let exec = cx.exec.as_ref();
        let slow_started = || exec.metrics().map(|m| m.lane(Lane::SlowIo).started_total);
        let mut out = json!({});
        let (started, before, results): (Instant, Option<u64>, Vec<Answer>) = match method {
            "getaddrinfo" => {
                let look = |name: String| async move {
                    run_on(exec, Lane::SlowIo, move || {
                        sluice::dns::getaddrinfo(&name, Family::V4)
                    })
                    .await?
                    .map_err(|e| e.to_string())
                };
                cx.block_on(look(warmup)).map_err(anyhow::Error::msg)?;
                let before = slow_started();
                let t0 = Instant::now();
                let all = cx.block_on(futures::future::join_all(names.iter().cloned().map(look)));
                (t0, before, all)
            }
            "sluice::dns" => {
                let mut b = sluice::dns::Builder::system()?;
                if let Some(pool) = exec.pool() {
                    b = b.fallback_pool(pool.clone());
                }
                let resolver: Resolver = b.build()?;
                out["mode"] = json!(match resolver.mode() {
                    sluice::dns::Mode::Native { .. } => "native".to_string(),
                    sluice::dns::Mode::Getaddrinfo { reason } => format!("getaddrinfo: {reason}"),
                });
                out["hosts_match"] = json!(u8::from(hosts_match(cx, &resolver)));
                cx.block_on(resolver.lookup(&warmup, Family::V4))?;
                let before = slow_started();
                let t0 = Instant::now();
                let all = cx.block_on(futures::future::join_all(
                    names.iter().map(|n| resolver.lookup(n, Family::V4)),
                ));
                (
                    t0,
                    before,
                    all.into_iter()
                        .map(|r| r.map_err(|e| e.to_string()))
                        .collect(),
                )
            }
            m => bail!("method {m:?} is not a Rust subject's"),
        };
        let total = started.elapsed();
        if let (Some(b), Some(a)) = (before, slow_started()) {
            out["pool_tasks"] = json!(a - b);
        }
        out["total_ms"] = json!(total.as_secs_f64() * 1e3);
        out["resolved"] = json!(
            results
                .iter()
                .filter(|r| matches!(r, Ok(a) if a == &[answer]))
                .count()
        );
        out["errors"] = json!(
            results
                .iter()
                .filter_map(|r| r.as_ref().err())
                .take(3)
                .collect::<Vec<_>>()
        );
        Ok(out)
    }
}

/// Whether the resolver still honours /etc/hosts: `localhost` as
/// getaddrinfo has it.
fn hosts_match(cx: &ChildContext, resolver: &Resolver) -> bool {
    let ours: BTreeSet<IpAddr> = cx
        .block_on(resolver.lookup("localhost", Family::Any))
        .unwrap_or_default()
        .into_iter()
        .collect();
    let libc: BTreeSet<IpAddr> = ("localhost", 0)
        .to_socket_addrs()
        .map(|a| a.map(|s| s.ip()).collect())
        .unwrap_or_default();
    !ours.is_empty() && ours == libc
}
