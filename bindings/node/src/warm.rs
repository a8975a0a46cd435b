//! The warm-up: the pool, a `FastIo` worker and the resolver ready before
//! the first call.

use crate::after_tick;
use crate::dns::{resolver, runtime};
use crate::fs::read_whole;
use crate::pool::pool;
use napi::Env;
use napi_derive::napi;
use sluice::Lane;
use sluice_dns::Family;

/// Makes the first call as fast as the next ones: builds the pool (from
/// `SLUICE_*`, unless [`configure`](crate::configure::configure) built it), starts a `FastIo` worker
/// with one task that reads `/proc/self/comm` as `readFile` reads (counted
/// in the lane's totals; the worker then waits for work for the lane's
/// keep-alive), and builds the DNS runtime and the resolver (reading
/// `/etc/hosts` and `/etc/resolv.conf`), which looks `localhost` up once
/// (counted in the resolver's totals). The
/// `Cpu` lane is left alone: its first task pays for a thread start, which
/// hashing and compression do not notice.
/// It runs once the tick that loaded the package has ended
/// ([`warm_after_tick`]), unless `configure` ran first (which calls it
/// itself); the empty task runs once per process. Fails as `pool` does.
#[napi]
pub fn warm() -> napi::Result<()> {
    static WARMED: std::sync::Once = std::sync::Once::new();
    let pool = pool()?;
    // Once per process, whichever thread or copy of `index.js` asks first.
    WARMED.call_once(|| {
        // A read of the readFile path's own code (its pages are faulted in
        // here, not on the first call), of a file every process has.
        if let Ok(place) = pool.try_reserve(Lane::FastIo) {
            drop(place.spawn(|| drop(read_whole("/proc/self/comm", None))));
        }
        // The runtime's and resolver's errors are the first lookup's to
        // report. One lookup of `localhost` (answered from the hosts file)
        // runs the lookup path once, and starts the runtime's thread.
        if let (Ok(rt), Ok(resolver)) = (runtime(), resolver()) {
            drop(rt.spawn(async move {
                let _ = resolver.lookup("localhost", Family::Any).await;
            }));
        }
    });
    Ok(())
}

/// Schedules [`warm`] for when the current turn of this thread's event loop
/// has ended (`lib/pool.js` calls it when the package loads), invisibly to
/// async_hooks and domains (see `after_tick`). Its errors are the first
/// call's to report.
#[napi]
pub fn warm_after_tick(env: Env) -> napi::Result<()> {
    after_tick::schedule(&env, Box::new(|| drop(warm())))
}
