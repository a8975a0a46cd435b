//! The Rust subjects' side of `dns`: the workload `sluice lab-child` runs on
//! the subject's executor.

use super::*;

impl crate::child::Workload for Dns {
    type Params = LookupParams;
    type Reply = LookupReply;

    fn run(&self, cx: &ChildContext, params: LookupParams) -> anyhow::Result<LookupReply> {
        let LookupParams {
            names,
            method,
            warmup,
            answer,
        } = params;
        let answer: IpAddr = answer.parse().context("answer")?;
        let exec = cx.exec.as_ref();
        let slow_started = || exec.metrics().map(|m| m.lane(Lane::SlowIo).started_total);
        let mut out = LookupReply::default();
        let (started, before, results): (Instant, Option<u64>, Vec<Answer>) = match method.as_str()
        {
            "getaddrinfo" => {
                let look = |name: String| async move {
                    run_on(exec, Lane::SlowIo, move || {
                        sluice_dns::getaddrinfo(&name, Family::V4)
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
                let mut b = sluice_dns::Builder::system()?;
                if let Some(pool) = exec.pool() {
                    b = b.fallback_pool(pool.clone());
                }
                let resolver: Resolver = b.build()?;
                out.mode = Some(match resolver.mode() {
                    sluice_dns::Mode::Native { .. } => "native".to_string(),
                    sluice_dns::Mode::Getaddrinfo { reason } => format!("getaddrinfo: {reason}"),
                });
                out.hosts_match = Some(u8::from(hosts_match(cx, &resolver)));
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
            out.pool_tasks = Some(a - b);
        }
        out.total_ms = total.as_secs_f64() * 1e3;
        out.resolved = results
            .iter()
            .filter(|r| matches!(r, Ok(a) if a == &[answer]))
            .count() as u64;
        out.errors = results
            .iter()
            .filter_map(|r| r.as_ref().err().cloned())
            .take(3)
            .collect();
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
