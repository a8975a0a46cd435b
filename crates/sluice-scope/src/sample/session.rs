//! [`Session`]: one watched process. Attaching opens the target, finds its
//! pool, and (with `probe`) sets the uprobes; [`Session::window`] samples at
//! the configured rate for one window and returns its [`Report`]. The faces
//! call it in a loop; tests and the lab call it directly.
//!
//! The pool is looked for again at the start of each window while it is
//! not found exactly (not started yet, or found by a futex method that may
//! have missed busy threads).

use crate::error::ScopeError;
use crate::probe::ProbeSession;
use crate::sample::queue::{self, QueueAddrs};
use crate::sample::sampler::Sampler;
use crate::target::Target;
use crate::target::discovery::{self, PoolStatus, Strategy};
use crate::target::memory::RemoteMemory;
use crate::verdict::aggregate::{Context, Report, Window};
use crate::verdict::onset::Onsets;
use std::time::{Duration, Instant};

/// The default sampling rate, per second.
pub const DEFAULT_RATE_HZ: u32 = 200;
/// The highest sampling rate accepted.
pub const MAX_RATE_HZ: u32 = 2000;

/// How a session watches.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    /// Samples per second, `1..=MAX_RATE_HZ`.
    pub rate_hz: u32,
    /// How to find the pool.
    pub strategy: Strategy,
    /// Set uprobes too (root).
    pub probe: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            rate_hz: DEFAULT_RATE_HZ,
            strategy: Strategy::Auto,
            probe: false,
        }
    }
}

/// A process being watched.
#[derive(Debug)]
pub struct Session {
    target: Target,
    options: Options,
    mem: Option<RemoteMemory>,
    queue: Option<QueueAddrs>,
    status: PoolStatus,
    sampler: Sampler,
    probe: Option<ProbeSession>,
    attached: Instant,
    onsets: Onsets,
    /// The process exited during the last window.
    exited: bool,
    /// sluice's lanes, where the process has them.
    lanes: crate::sample::lanes::Lanes,
}

impl Session {
    /// Attaches to process `pid`.
    ///
    /// ```no_run
    /// use sluice_scope::sample::session::{Options, Session};
    /// let mut s = Session::attach(12345, Options::default())?;
    /// let r = s.window(std::time::Duration::from_secs(1), &mut || false)?;
    /// println!("{} of {} busy: {}", r.busy_threads, r.pool_size, r.verdict.as_str());
    /// # Ok::<(), sluice_scope::ScopeError>(())
    /// ```
    pub fn attach(pid: u32, options: Options) -> Result<Session, ScopeError> {
        check_rate(options.rate_hz)?;
        Session::attach_target(Target::open(pid)?, options)
    }

    /// Attaches to a target already opened (its symbols read once).
    pub fn attach_target(target: Target, options: Options) -> Result<Session, ScopeError> {
        check_rate(options.rate_hz)?;
        let pid = target.pid;
        let mem = RemoteMemory::open(pid).ok();
        let syms = &target.image.symbols;
        let queue = syms.wq.map(|wq| QueueAddrs {
            wq: target.image.runtime(wq),
            slow: syms
                .run_slow_work_message
                .zip(syms.slow_io_pending_wq)
                .map(|(m, p)| (target.image.runtime(m), target.image.runtime(p))),
            slow_running: syms.slow_io_work_running.map(|a| target.image.runtime(a)),
        });
        let probe = if options.probe {
            Some(ProbeSession::attach(&target)?)
        } else {
            None
        };
        let status = discovery::discover(&target, mem.as_ref(), options.strategy, None)?;
        let sampler = match status.pool() {
            Some(p) => Sampler::new(pid, &p.tids, p.idle.clone()),
            None => Sampler::new(pid, &[], crate::sample::classify::IdleWait::AnyFutex),
        };
        Ok(Session {
            target,
            options,
            mem,
            queue,
            status,
            sampler,
            probe,
            attached: Instant::now(),
            onsets: Onsets::default(),
            exited: false,
            lanes: crate::sample::lanes::Lanes::default(),
        })
    }

    /// The process.
    pub fn target(&self) -> &Target {
        &self.target
    }

    /// The pool as last discovered.
    pub fn status(&self) -> &PoolStatus {
        &self.status
    }

    /// The probe session's group, with `--probe`.
    pub fn probe_group(&self) -> Option<&str> {
        self.probe.as_ref().map(ProbeSession::group)
    }

    /// Looks for the pool again unless it is known exactly.
    fn rediscover(&mut self) -> Result<(), ScopeError> {
        let exact = self.status.pool().is_some_and(|p| p.method.is_exact());
        if exact {
            return Ok(());
        }
        let status = discovery::discover(
            &self.target,
            self.mem.as_ref(),
            self.options.strategy,
            self.status.pool(),
        )?;
        if status.pool().map(|p| &p.tids) != self.status.pool().map(|p| &p.tids) {
            match status.pool() {
                Some(p) => self.sampler.set_pool(&p.tids, p.idle.clone()),
                None => self
                    .sampler
                    .set_pool(&[], crate::sample::classify::IdleWait::AnyFutex),
            }
        }
        self.status = status;
        Ok(())
    }

    /// Samples for `len` at the session's rate and reports the window.
    /// `stop` is asked after every sample; when it says so the window ends
    /// early (and reports what it has). When the process exits, the window
    /// ends early too and reports what it saw; the next call returns
    /// [`ScopeError::Exited`].
    pub fn window(
        &mut self,
        len: Duration,
        stop: &mut dyn FnMut() -> bool,
    ) -> Result<Report, ScopeError> {
        if self.exited || !self.target.is_alive() {
            self.exited = true;
            return Err(ScopeError::Exited {
                pid: self.target.pid,
            });
        }
        self.rediscover()?;
        self.lanes.rediscover(&self.target, self.mem.as_ref());
        let mut window = Window::new(self.sampler.pool_tids());
        let cpu0 = self.cpu_mark();
        let start = Instant::now();
        let mut pace = Pace::new(start, len, self.options.rate_hz);
        while self.sample(&mut window) && !stop() && pace.wait() {}
        let window_s = start.elapsed().as_secs_f64();
        let (pool, main) = self.sampler.cpu_ns();
        let probe = self.probe.as_mut().map(|p| p.take_report(window_s));
        // The sampler's own CPU includes draining the probes.
        let cpu1 = CpuMark {
            pool,
            main,
            sampler: thread_cpu_ns(),
        };
        let (pool_cpu_ns, loop_cpu_ns, sampler_cpu_ns) = cpu1.since(&cpu0);
        let t_s = self.attached.elapsed().as_secs_f64();
        let mut report = window.finish(Context {
            t_s,
            order: self.onsets.order(t_s),
            pid: self.target.pid,
            window_s,
            status: &self.status,
            pool_cpu_ns,
            loop_cpu_ns,
            sampler_cpu_ns,
            probe,
        });
        report.sluice_lanes = self.lanes.reports();
        Ok(report)
    }

    /// One sample of the pool, the loop and the queue into `window` (and
    /// the onsets, and the probes' pipe); `false` when the process is gone
    /// (that sample saw nothing and is not counted).
    fn sample(&mut self, window: &mut Window) -> bool {
        let tick = self.sampler.tick();
        if tick.loop_state == crate::sample::classify::ThreadState::Gone && !self.target.is_alive()
        {
            self.exited = true;
            return false;
        }
        let q = match (&self.mem, self.queue) {
            (Some(mem), Some(at)) if self.status.pool().is_some() => queue::read(mem, at),
            _ => None,
        };
        window.add(&tick, q);
        self.lanes.tick(self.mem.as_ref());
        self.onsets.add(
            self.attached.elapsed().as_secs_f64(),
            tick.loop_state.is_busy(),
            !tick.pool.is_empty() && tick.busy() == tick.pool.len(),
        );
        if let Some(p) = self.probe.as_mut() {
            p.poll();
        }
        true
    }

    /// CPU time so far of the pool threads, the loop thread and this
    /// (sampling) thread.
    fn cpu_mark(&mut self) -> CpuMark {
        let (pool, main) = self.sampler.cpu_ns();
        CpuMark {
            pool,
            main,
            sampler: thread_cpu_ns(),
        }
    }

    /// Ends the session: removes the probes, if any. Returns what could not
    /// be removed (dropping the session does the same and prints it).
    pub fn close(mut self) -> Vec<String> {
        self.probe
            .take()
            .map(ProbeSession::detach)
            .unwrap_or_default()
    }
}

/// CPU nanoseconds read at one moment (`None`: not readable).
struct CpuMark {
    pool: Vec<Option<u64>>,
    main: Option<u64>,
    sampler: u64,
}

impl CpuMark {
    /// The CPU spent since `earlier`: per pool thread, the loop thread,
    /// the sampler.
    fn since(&self, earlier: &CpuMark) -> (Vec<Option<u64>>, Option<u64>, u64) {
        let delta = |a: Option<u64>, b: Option<u64>| Some(b?.saturating_sub(a?));
        let pool = earlier
            .pool
            .iter()
            .zip(&self.pool)
            .map(|(a, b)| delta(*a, *b))
            .collect();
        (
            pool,
            delta(earlier.main, self.main),
            self.sampler.saturating_sub(earlier.sampler),
        )
    }
}

/// The sampling clock of one window: a sample every period until the end.
struct Pace {
    period: Duration,
    end: Instant,
    next: Instant,
}

impl Pace {
    fn new(start: Instant, len: Duration, rate_hz: u32) -> Pace {
        Pace {
            period: Duration::from_secs_f64(1.0 / f64::from(rate_hz)),
            end: start + len,
            next: start,
        }
    }

    /// Sleeps until the next sample is due; `false` (after sleeping to the
    /// window's end) when none is due before the end.
    fn wait(&mut self) -> bool {
        self.next += self.period;
        let now = Instant::now();
        if self.next >= self.end {
            if self.end > now {
                std::thread::sleep(self.end - now);
            }
            return false;
        }
        if self.next > now {
            std::thread::sleep(self.next - now);
        } else {
            // Behind (a slow read, a busy machine): skip the missed samples
            // rather than bunch them.
            self.next = now;
        }
        true
    }
}

/// Refuses a rate outside `1..=MAX_RATE_HZ`.
pub fn check_rate(rate_hz: u32) -> Result<(), ScopeError> {
    if (1..=MAX_RATE_HZ).contains(&rate_hz) {
        Ok(())
    } else {
        Err(ScopeError::Config {
            flag: "--rate",
            value: rate_hz.to_string(),
            expected: format!("expected samples per second in 1..={MAX_RATE_HZ}"),
        })
    }
}

/// CPU time of the calling thread, in nanoseconds.
fn thread_cpu_ns() -> u64 {
    let t = rustix::time::clock_gettime(rustix::time::ClockId::ThreadCPUTime);
    t.tv_sec as u64 * 1_000_000_000 + t.tv_nsec as u64
}
