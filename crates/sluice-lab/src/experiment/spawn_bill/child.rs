//! The Rust subjects' side of `spawn-bill`: the workload `sluice lab-child` runs on
//! the subject's executor.

use super::*;

impl crate::child::Workload for SpawnBill {
    type Params = BillParams;
    type Reply = BillReply;

    fn run(&self, cx: &ChildContext, params: BillParams) -> anyhow::Result<BillReply> {
        match params {
            BillParams::Bill => {
                let before = settled_status()?;
                first_task(cx, cx.exec.as_ref())?;
                let after = status()?;
                Ok(BillReply {
                    before,
                    after,
                    probe: None,
                    fastio_limit: None,
                })
            }
            BillParams::Set { set, size, n, fifo } => child_set(cx, &set, size, n, &fifo),
        }
    }
}

/// `Threads`, `VmSize` and `VmRSS` of this process, from one read of
/// `/proc/self/status`, and its glibc malloc arenas from `/proc/self/maps`.
fn status() -> anyhow::Result<ProcStatus> {
    let me = std::process::id();
    let [threads, vm_size_kb, vm_rss_kb] =
        procfs::status_fields(me, ["Threads", "VmSize", "VmRSS"])
            .context("reading /proc/self/status")?;
    let maps = sluice_scope::target::maps::read(me).context("reading /proc/self/maps")?;
    Ok(ProcStatus {
        threads,
        vm_size_kb,
        vm_rss_kb,
        malloc_arenas: malloc_arenas(&maps),
    })
}

/// The process's status once the threads that started with it have
/// settled: VmSize and the thread count unchanged over three readings 10 ms
/// apart (at most 1 s). A subject's own start-up threads (tokio's runtime
/// worker) take their malloc arena a moment after they start; read too
/// early, that arena would be billed to the first pool task.
fn settled_status() -> anyhow::Result<ProcStatus> {
    let mut last = status()?;
    let mut same = 0;
    for _ in 0..100 {
        std::thread::sleep(Duration::from_millis(10));
        let now = status()?;
        let key = |v: &ProcStatus| (v.vm_size_kb, v.threads, v.malloc_arenas);
        if key(&now) == key(&last) {
            same += 1;
            if same >= 3 {
                return Ok(now);
            }
        } else {
            same = 0;
        }
        last = now;
    }
    Ok(last)
}

/// glibc's `HEAP_MAX_SIZE` on 64-bit: the address space each extra malloc
/// arena reserves.
pub(super) const ARENA_BYTES: u64 = 64 << 20;

/// The glibc malloc arenas (other than the main one) among a process's
/// mappings (`/proc/PID/maps`, read by sluice-scope): anonymous mappings that exactly cover a 64 MiB-aligned 64 MiB span,
/// the first of them read-write. glibc creates one the first time a thread
/// calls malloc, up to 8 per core; a thread stack starts with its guard page
/// and never matches. A lower bound: the kernel may merge a fully grown
/// arena with a neighbour. The same rule is in `spawn_bill.js`.
pub(super) fn malloc_arenas(maps: &[sluice_scope::target::maps::Mapping]) -> u64 {
    let anon: Vec<(u64, u64, bool)> = maps
        .iter()
        .filter(|m| m.inode == 0 && m.path.is_empty())
        .map(|m| (m.start, m.end, m.perms.starts_with("rw")))
        .collect();
    let mut count = 0;
    for (i, &(start, _, rw)) in anon.iter().enumerate() {
        if !rw || start % ARENA_BYTES != 0 {
            continue;
        }
        let mut end = start;
        for &(a, b, _) in &anon[i..] {
            if a != end || b > start + ARENA_BYTES {
                break;
            }
            end = b;
        }
        if end == start + ARENA_BYTES {
            count += 1;
        }
    }
    count
}

/// The first pool task: one file-system call, like node's `fs.stat`.
fn first_task(cx: &ChildContext, exec: &dyn Executor) -> anyhow::Result<()> {
    cx.block_on(run_on(exec, Lane::FastIo, || {
        std::fs::metadata("/proc/self/status")
            .map(drop)
            .map_err(|e| e.to_string())
    }))
    .and_then(|r| r)
    .map_err(anyhow::Error::msg)
    .context("the first pool task")
}

/// The set part's child: set the size never, before or after the first pool
/// task, then `n` FIFO reads at once.
fn child_set(
    cx: &ChildContext,
    set: &str,
    size: u64,
    n: u64,
    fifo: &std::path::Path,
) -> anyhow::Result<BillReply> {
    if !SETS.contains(&set) {
        bail!("set {set:?}: expected one of {}", SETS.join(", "));
    }
    let size = usize::try_from(size).context("size")?;
    let fifo = Arc::new(std::fs::File::open(fifo).context("opening the FIFO")?);
    // Lanes resize; the libuv policy reads UV_THREADPOOL_SIZE at its first
    // submission, like libuv; a pool that is not sluice's cannot be set.
    let exec = cx.exec.as_ref();
    let lanes = match exec.pool().map(Pool::policy) {
        Some(Policy::Lanes) => {
            if cx.pool != PoolSize::Unset {
                bail!("the set part runs with the pool size unset");
            }
            true
        }
        Some(Policy::Libuv { .. }) => false,
        Some(other) => bail!(
            "policy {}: setting the pool size inside the process is not written for it",
            other.name()
        ),
        None => bail!(
            "{}: setting the pool size inside the process is not applicable",
            exec.subject()
        ),
    };
    let apply = || -> anyhow::Result<()> {
        match exec.pool() {
            Some(pool) if lanes => Ok(pool.resize(Lane::FastIo, size)?),
            _ => set_pool_size_env(&size.to_string(), exec),
        }
    };
    let before = status()?;
    if set == "before" {
        apply()?;
    }
    first_task(cx, exec)?;
    let after = status()?;
    if set == "after" {
        apply()?;
    }
    println!("{}", workload::begin_event(json!({ "n": n })));
    let reads: Vec<_> = (0..n)
        .map(|_| {
            let f = Arc::clone(&fifo);
            run_on(exec, Lane::FastIo, move || {
                let mut b = [0u8; 1];
                (&*f).read(&mut b).map(drop).map_err(|e| e.to_string())
            })
        })
        .collect();
    for r in cx.block_on(futures::future::join_all(reads)) {
        r.and_then(|r| r).map_err(anyhow::Error::msg)?;
    }
    let probe = status()?;
    let limit = exec.metrics().map(|m| m.lane(Lane::FastIo).limit);
    Ok(BillReply {
        before,
        after,
        probe: Some(probe),
        fastio_limit: limit,
    })
}

/// Sets `UV_THREADPOOL_SIZE` in this process's environment for the
/// sluice-compat child, which reads it at its first submission like libuv.
///
/// Refuses unless it runs on the main thread, and first waits (up to 2 s)
/// until every other thread of the process, as listed in `/proc/self/task`,
/// is a compat worker that named itself and `pool` reports every worker idle.
#[allow(unsafe_code)]
fn set_pool_size_env(value: &str, pool: &dyn Executor) -> anyhow::Result<()> {
    let pid = std::process::id();
    if u32::try_from(nix::unistd::gettid().as_raw()).ok() != Some(pid) {
        bail!("UV_THREADPOOL_SIZE may only be set from the child's main thread");
    }
    let give_up = std::time::Instant::now() + Duration::from_secs(2);
    loop {
        let threads = procfs::threads(pid).context("listing /proc/self/task")?;
        // A worker that has not reached its own code yet still carries the
        // name it inherited from this thread.
        let stranger = threads
            .iter()
            .find(|t| t.tid != pid && t.name != COMPAT_WORKER);
        let busy = pool
            .metrics()
            .is_none_or(|m| m.threads_idle != m.threads_alive);
        match stranger {
            None if !busy => break,
            _ if std::time::Instant::now() < give_up => {
                std::thread::sleep(Duration::from_millis(1))
            }
            Some(t) => bail!(
                "not setting UV_THREADPOOL_SIZE: thread {} ({:?}) might read the environment concurrently",
                t.tid,
                t.name
            ),
            None => bail!("not setting UV_THREADPOOL_SIZE: the compat pool's workers stayed busy"),
        }
    }
    // SAFETY: `set_var` is unsound only if another thread reads or writes the
    // environment at the same time without std's lock. We are on the main
    // thread, and /proc/self/task just showed every other thread to be a
    // sluice-libuv worker, all of them idle: before the first task there are
    // none (the compat pool starts its threads at the first submission, and
    // the event loop is a current-thread runtime with no threads of its
    // own); after it, they are the compat pool's workers waiting on the
    // pool's condvar, which touches no environment (the pool reads
    // UV_THREADPOOL_SIZE on the submitting thread, i.e. this one). No thread
    // can appear or wake meanwhile: only submissions start or wake workers,
    // and only this thread submits.
    unsafe { std::env::set_var("UV_THREADPOOL_SIZE", value) };
    Ok(())
}
