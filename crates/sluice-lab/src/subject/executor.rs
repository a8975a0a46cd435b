//! What a Rust subject's child process runs workloads on.

use sluice::Lane;
use std::future::Future;
use std::pin::Pin;
use std::time::Duration;

/// A boxed job for an [`Executor`].
pub type Job = Box<dyn FnOnce() + Send + 'static>;

/// A future that resolves when a submitted job has run (or failed to).
pub type Done = Pin<Box<dyn Future<Output = Result<(), String>> + Send + 'static>>;

/// A pool that runs blocking jobs: a sluice `Pool` under either policy, or
/// tokio's `spawn_blocking`.
pub trait Executor: Send + Sync {
    /// The subject's name.
    fn subject(&self) -> &'static str;
    /// Submits `job` to `lane` (tokio ignores lanes: it has one pool).
    fn submit(&self, lane: Lane, job: Job) -> Done;
    /// The pool's own counters, if it has any.
    fn metrics(&self) -> Option<sluice::Snapshot> {
        None
    }
    /// The sluice pool behind this executor, for workloads that call
    /// sluice's own operations (`sluice::fs`, ...); `None` for tokio.
    fn pool(&self) -> Option<&sluice::Pool> {
        None
    }
    /// Runs `total` calls of the plain function `f` on `lane`, `in_flight`
    /// at a time: each wave submitted, then its tasks awaited in order (1:
    /// one round trip after another). The default goes through
    /// [`submit`](Executor::submit), a boxed job and a boxed future per
    /// call; a pool overrides it with its own typed API, as its users write
    /// it (and as `libuv-ffi` hands over requests it allocated up front),
    /// so the harness adds no allocation per call to what the pool costs.
    fn run_waves(&self, lane: Lane, f: fn(), in_flight: u64, total: u64) -> Waves<'_> {
        Box::pin(in_waves(total, in_flight, move || {
            self.submit(lane, Box::new(f))
        }))
    }
    /// [`run_waves`](Executor::run_waves) with each wave handed over in
    /// one call of the pool's batch API (sluice's `Pool::spawn_batch`), or
    /// `None` where the pool has none (tokio).
    fn run_batched_waves(
        &self,
        _lane: Lane,
        _f: fn(),
        _in_flight: u64,
        _total: u64,
    ) -> Option<Waves<'_>> {
        None
    }
}

/// What [`Executor::run_waves`] returns: resolves once every call ran.
pub type Waves<'a> = Pin<Box<dyn Future<Output = Result<(), String>> + 'a>>;

/// Awaits `total` futures made by `spawn`, `in_flight` at a time: each wave
/// made at once, then awaited in order. The first error ends it.
pub async fn in_waves<T, E>(
    total: u64,
    in_flight: u64,
    mut spawn: impl FnMut() -> T,
) -> Result<(), String>
where
    T: Future<Output = Result<(), E>>,
    E: std::fmt::Display,
{
    in_batched_waves(total, in_flight, |k, wave| {
        wave.extend((0..k).map(|_| spawn()));
    })
    .await
}

/// [`in_waves`], each wave made by one call of `spawn_wave(k, wave)`, which
/// leaves the wave's `k` futures in the empty `wave` (a pool's batch API
/// may replace it with the vector it returns).
pub async fn in_batched_waves<T, E>(
    total: u64,
    in_flight: u64,
    mut spawn_wave: impl FnMut(u64, &mut Vec<T>),
) -> Result<(), String>
where
    T: Future<Output = Result<(), E>>,
    E: std::fmt::Display,
{
    let in_flight = in_flight.clamp(1, total.max(1));
    let mut wave = Vec::with_capacity(usize::try_from(in_flight).unwrap_or(usize::MAX));
    let mut left = total;
    while left > 0 {
        let k = in_flight.min(left);
        spawn_wave(k, &mut wave);
        if wave.len() as u64 != k {
            return Err(format!("a wave of {k} made {} tasks", wave.len()));
        }
        for task in wave.drain(..) {
            task.await.map_err(|e| e.to_string())?;
        }
        left -= k;
    }
    Ok(())
}

/// Runs `f` on `lane` of `exec` and returns its value.
pub async fn run_on<T, F>(exec: &dyn Executor, lane: Lane, f: F) -> Result<T, String>
where
    F: FnOnce() -> T + Send + 'static,
    T: Send + 'static,
{
    let (tx, rx) = tokio::sync::oneshot::channel();
    exec.submit(
        lane,
        Box::new(move || {
            let _ = tx.send(f());
        }),
    )
    .await?;
    rx.await
        .map_err(|_| "job finished without a value".to_string())
}

/// How long the Rust children's event loop spins for an awaited sluice task
/// before it sleeps ([`sluice::loop_spin::before_park`]).
pub const LOOP_SPIN: Duration = Duration::from_micros(50);

/// The Rust children's event loop: a tokio current-thread runtime with
/// every driver, and with `spin` sluice's park hook
/// ([`sluice::loop_spin::before_park`], [`LOOP_SPIN`]), the way the crate's
/// docs tell a loop that awaits sluice tasks to run. It only ever waits for
/// sluice tasks, so other subjects' children run it unchanged.
pub fn child_loop(spin: bool) -> std::io::Result<tokio::runtime::Runtime> {
    let mut b = tokio::runtime::Builder::new_current_thread();
    b.enable_all();
    if spin {
        b.on_thread_park(sluice::loop_spin::before_park(LOOP_SPIN));
    }
    b.build()
}

/// What an experiment's child side gets: the executor, the event loop
/// (a tokio current-thread runtime, the analogue of Node's loop, from
/// [`child_loop`]), and the pool size it was started with.
pub struct ChildContext {
    /// The subject's pool.
    pub exec: Box<dyn Executor>,
    /// The event loop thread's runtime.
    pub rt: tokio::runtime::Runtime,
    /// The pool size the child was started with.
    pub pool: crate::PoolSize,
}

impl ChildContext {
    /// Runs `f` on `lane` from the event loop and waits for it.
    pub fn block_on<F: Future>(&self, f: F) -> F::Output {
        self.rt.block_on(f)
    }
}

#[cfg(test)]
mod tests {
    use super::in_waves;
    use std::cell::RefCell;

    /// Runs `in_waves` over futures that log when they are made and when
    /// they resolve; `fail_at` makes that call's future an error.
    fn log_of(
        total: u64,
        in_flight: u64,
        fail_at: Option<u64>,
    ) -> (Vec<String>, Result<(), String>) {
        let log = RefCell::new(Vec::new());
        let mut made = 0;
        let rt = tokio::runtime::Builder::new_current_thread()
            .build()
            .expect("a current-thread runtime");
        let result = rt.block_on(in_waves(total, in_flight, || {
            let i = made;
            made += 1;
            log.borrow_mut().push(format!("make {i}"));
            let log = &log;
            async move {
                log.borrow_mut().push(format!("done {i}"));
                if fail_at == Some(i) {
                    Err(format!("call {i} failed"))
                } else {
                    Ok(())
                }
            }
        }));
        (log.into_inner(), result)
    }

    #[test]
    fn one_in_flight_is_one_round_trip_after_another() {
        let (log, result) = log_of(3, 1, None);
        assert_eq!(result, Ok(()));
        assert_eq!(
            log,
            ["make 0", "done 0", "make 1", "done 1", "make 2", "done 2"]
        );
    }

    #[test]
    fn a_wave_is_made_whole_then_awaited_in_order_and_the_last_is_short() {
        let (log, result) = log_of(5, 2, None);
        assert_eq!(result, Ok(()));
        assert_eq!(
            log,
            [
                "make 0", "make 1", "done 0", "done 1", "make 2", "make 3", "done 2", "done 3",
                "make 4", "done 4"
            ]
        );
    }

    #[test]
    fn the_first_error_ends_the_run() {
        let (log, result) = log_of(6, 3, Some(1));
        assert_eq!(result, Err("call 1 failed".to_string()));
        assert_eq!(log, ["make 0", "make 1", "make 2", "done 0", "done 1"]);
    }

    #[test]
    fn nothing_to_run_makes_nothing() {
        let (log, result) = log_of(0, 1000, None);
        assert_eq!(result, Ok(()));
        assert!(log.is_empty());
    }

    #[test]
    fn a_batched_wave_is_made_by_one_call_and_must_hold_its_tasks() {
        let rt = tokio::runtime::Builder::new_current_thread()
            .build()
            .expect("a current-thread runtime");
        let mut calls = Vec::new();
        let result = rt.block_on(super::in_batched_waves(5, 2, |k, wave| {
            calls.push(k);
            wave.extend((0..k).map(|_| async { Ok::<(), String>(()) }));
        }));
        assert_eq!(result, Ok(()));
        assert_eq!(calls, [2, 2, 1]);
        let short = rt.block_on(super::in_batched_waves(4, 4, |k, wave| {
            wave.extend((1..k).map(|_| async { Ok::<(), String>(()) }));
        }));
        assert_eq!(short, Err("a wave of 4 made 3 tasks".to_string()));
    }
}
