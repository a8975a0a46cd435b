//! The target's own V8 inspector, opened without a restart.
//!
//! - `flags.rs`: where it listens (`--inspect*`, `--inspect-port`,
//!   `NODE_OPTIONS`), whether SIGUSR1 may open it (`--disable-sigusr1`).
//! - `sockets.rs`: the process's listening sockets, from `/proc`: open
//!   already, or the port held by someone else.
//! - `signal.rs`: SIGUSR1, only where Node's handler is installed and the
//!   program has no SIGUSR1 listener of its own (read from libuv's signal
//!   tree).
//! - `main_thread.rs`: what the main thread is doing; SIGUSR1 is not sent
//!   while it is blocked in a call (the inspector would open when the call
//!   returns, with nobody to close it).
//! - `late.rs`: an inspector held by a busy main thread, closed as soon as
//!   the main thread lets it.
//! - `netns.rs`: connecting from inside the target's network namespace.
//! - `discover.rs`: `GET /json/list`, the WebSocket URL.
//! - `cdp.rs`: the DevTools protocol over the WebSocket.
//! - `error.rs`: every refusal, with what to do.
//!
//! [`plan`] looks without touching the process; [`Inspector::open`] sends
//! SIGUSR1 when the inspector is closed, waits for the process's own
//! listening socket, and connects; [`Inspector::close`] closes what scope
//! opened.
//!
//! **What stays changed in the target** after scope opened and closed its
//! inspector (Node 20 cannot undo everything): the inspector's port is
//! closed and its I/O thread ends (`process._debugEnd()`, evaluated in the
//! target; the thread count returns to where it was), and the profiler is
//! stopped and disabled. What stays: the lines Node printed on the
//! process's own stderr (`Debugger listening on ws://...`, `For help,
//! see: ...`, `Debugger attached.`), `process.debugPort` (the port), and
//! the memory V8 allocated for the inspector and the profiler's code map,
//! which it keeps. A later SIGUSR1 opens the inspector again. An inspector
//! that was open before scope came is left open; only scope's session ends.

pub(crate) mod cdp;
pub mod discover;
pub(crate) mod error;
pub mod flags;
mod late;
mod main_thread;
pub(crate) mod netns;
pub mod signal;
pub mod sockets;

use cdp::Cdp;
pub use error::InspectorError;
use flags::InspectFlags;
use main_thread::MainThread;
use serde_json::{Value, json};
use signal::AppListener;
use sockets::Listener;
use std::net::{IpAddr, SocketAddr};
use std::time::{Duration, Instant};

/// How long scope waits for the inspector's socket after SIGUSR1.
pub const OPEN_WAIT: Duration = Duration::from_secs(5);
/// How long a quick command (enable, start) may take: the main thread
/// answers between two pieces of JavaScript, so a blocked loop delays it.
pub const COMMAND_TIMEOUT: Duration = Duration::from_secs(30);

/// What scope found before touching the process.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    /// The process.
    pub pid: u32,
    /// Its inspector flags.
    pub flags: InspectFlags,
    /// Where to connect: known when the port is fixed or the inspector is
    /// open.
    pub addr: Option<SocketAddr>,
    /// The inspector is open already (`--inspect`, or an earlier SIGUSR1).
    pub already_open: bool,
    /// Whether the program listens for SIGUSR1 itself ([`plan_of`] reads
    /// it; [`plan`] cannot: unknown).
    pub app_listener: AppListener,
    /// The main thread, watched before and after SIGUSR1.
    pub(crate) main: MainThread,
}

impl Plan {
    /// A plan before scope reads the process's memory ([`plan_of`] reads
    /// it): the program's SIGUSR1 listener unknown.
    fn unread(pid: u32, flags: InspectFlags, addr: Option<SocketAddr>, already_open: bool) -> Plan {
        Plan {
            pid,
            flags,
            addr,
            already_open,
            app_listener: AppListener::Unknown("scope did not read the process's memory".into()),
            main: MainThread::new(pid),
        }
    }

    /// `127.0.0.1:9229`, or `127.0.0.1:<random>` for port 0.
    pub fn addr_text(&self) -> String {
        match self.addr {
            Some(a) => a.to_string(),
            None => format!("{}:<random port>", self.flags.host),
        }
    }
}

/// Whether process `pid` is gone or a zombie.
fn gone(pid: u32) -> bool {
    crate::target::process_start_time(pid).is_none()
}

/// A `/proc/PID/...` read failed: the process is gone, or another error.
fn proc_err(pid: u32, what: &str) -> impl Fn(std::io::Error) -> InspectorError + '_ {
    move |cause| {
        if cause.kind() == std::io::ErrorKind::NotFound && gone(pid) {
            InspectorError::Exited {
                pid,
                when: format!("while scope read /proc/{pid}/{what}"),
            }
        } else {
            InspectorError::Proc {
                path: format!("/proc/{pid}/{what}"),
                cause,
            }
        }
    }
}

/// Looks at process `pid`'s flags and sockets: is its inspector open, and
/// where will it listen. Sends nothing to the process, except with a random
/// port (`--inspect=0`) and the inspector open: then each of its
/// listening sockets is asked `GET /json/list` until one answers as Node's
/// inspector.
pub fn plan(pid: u32) -> Result<Plan, InspectorError> {
    let flags = InspectFlags::of_process(pid).map_err(proc_err(pid, "cmdline"))?;
    let ip = flags.connect_ip().ok_or_else(|| InspectorError::Protocol {
        pid,
        addr: flags.host.clone(),
        what: "the inspector's host is a name, not an address; scope connects to IP addresses only (restart node with --inspect-port=127.0.0.1:PORT)".into(),
    })?;
    let held = sockets::held_listeners(pid).map_err(proc_err(pid, "fd"))?;
    if flags.port == 0 {
        if flags.open_at_start {
            for l in &held {
                let addr = SocketAddr::new(ip, l.addr.port());
                if netns::run_in(pid, move || discover::list(pid, addr)).is_ok() {
                    return Ok(Plan::unread(pid, flags, Some(addr), true));
                }
            }
        }
        return Ok(Plan::unread(pid, flags, None, false));
    }
    let addr = SocketAddr::new(ip, flags.port);
    let already_open = held.iter().any(|l| l.addr.port() == flags.port);
    if !already_open {
        check_port_free(pid, addr)?;
    }
    Ok(Plan::unread(pid, flags, Some(addr), already_open))
}

/// [`plan`], with what the process's memory says: whether the program
/// listens for SIGUSR1 itself, and which epoll fd is its loop's.
pub fn plan_of(target: &crate::target::Target) -> Result<Plan, InspectorError> {
    let mut p = plan(target.pid)?;
    p.app_listener = signal::app_listener(target);
    p.main = MainThread::of(target);
    Ok(p)
}

/// Before SIGUSR1: refuses a program that listens for SIGUSR1 itself (the
/// signal would fire its listener, and libuv's handler has replaced
/// Node's, so no inspector would open) and a main thread blocked in a
/// call; says so first where the listener cannot be seen.
fn check_before_signal(plan: &Plan) -> Result<(), InspectorError> {
    let pid = plan.pid;
    match &plan.app_listener {
        AppListener::Listens => return Err(InspectorError::AppListensForSigusr1 { pid }),
        AppListener::Unknown(why) => eprintln!(
            "sluice scope: cannot tell whether process {pid} listens for SIGUSR1 itself ({why}); if it does, SIGUSR1 fires that listener instead of opening the inspector, and scope says so when no inspector comes"
        ),
        AppListener::None => {}
    }
    main_thread::check_not_blocked(&plan.main)
}

/// Refuses when another process listens on `addr`'s port in the target's
/// namespace (on the same address or a wildcard).
fn check_port_free(pid: u32, addr: SocketAddr) -> Result<(), InspectorError> {
    let all = sockets::listening(pid).map_err(proc_err(pid, "net/tcp"))?;
    let clash = all.iter().find(|l| {
        l.addr.port() == addr.port() && (l.addr.ip() == addr.ip() || l.addr.ip().is_unspecified())
    });
    match clash {
        Some(l) => Err(InspectorError::PortInUse {
            pid,
            addr,
            owner: sockets::owner_of(l.inode).unwrap_or_else(|| "another process".into()),
        }),
        None => Ok(()),
    }
}

/// A DevTools session with the target.
#[derive(Debug)]
pub struct Inspector {
    pid: u32,
    addr: SocketAddr,
    opened_by_scope: bool,
    title: String,
    cdp: Cdp,
    /// The profile lock of this process (see [`lock`]), held while open.
    _lock: std::os::unix::net::UnixListener,
    profiling: bool,
    /// Precise coverage is on (scope turned it on to discard optimized
    /// code): turned off again at stop or close.
    coverage: bool,
}

/// How the inspector was left.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Closed {
    /// Scope opened it (SIGUSR1).
    pub opened_by_scope: bool,
    /// Its listening socket is gone (`true` where scope closed it; `false`
    /// where it was open before, or did not close).
    pub port_closed: bool,
    /// One sentence for the report.
    pub note: String,
}

impl Inspector {
    /// Opens (when `plan` says it is closed: SIGUSR1) and connects.
    /// `alive` tells whether the process still runs; `stop`, whether the
    /// person asked scope to stop (it ends a watch for a late inspector).
    pub fn open(
        plan: &Plan,
        alive: Box<dyn Fn() -> bool + Send>,
        stop: &mut dyn FnMut() -> bool,
    ) -> Result<Inspector, InspectorError> {
        let pid = plan.pid;
        let lock = lock(pid)?;
        let addr = if plan.already_open {
            plan.addr.expect("an open inspector has an address")
        } else {
            check_before_signal(plan)?;
            let before = sockets::held_listeners(pid).map_err(proc_err(pid, "fd"))?;
            signal::open_inspector(pid, plan.flags.sigusr1_disabled)?;
            wait_for_listener(plan, &before, &*alive, stop)?
        };
        let (listing, mut cdp) = netns::run_in(pid, move || {
            let listing = discover::list(pid, addr)?;
            let cdp = Cdp::connect(pid, addr, &listing.path, alive)?;
            Ok((listing, cdp))
        })?;
        if !plan.already_open
            && let Err(InspectorError::Timeout { .. }) =
                cdp.call("Runtime.evaluate", json!({"expression": "1"}), ANSWER_WAIT)
        {
            // The main thread is held in a call that does not let Node run
            // the inspector: no profile, and the inspector is ended as soon
            // as it can be.
            let alive = move || !gone(pid);
            return Err(late::end_unanswered(plan, addr, cdp, &alive, stop));
        }
        Ok(Inspector {
            pid,
            addr,
            opened_by_scope: !plan.already_open,
            title: listing.title,
            cdp,
            _lock: lock,
            profiling: false,
            coverage: false,
        })
    }

    /// Where it listens.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// `/json/list`'s title of the target.
    pub fn title(&self) -> &str {
        &self.title
    }

    /// Whether scope opened it.
    pub fn opened_by_scope(&self) -> bool {
        self.opened_by_scope
    }

    /// `Profiler.enable`, `Profiler.setSamplingInterval`, `Profiler.start`.
    ///
    /// With `fresh_code`, `Profiler.startPreciseCoverage` (call counts,
    /// no block counts) first: V8 then throws away every function's
    /// optimized code (`Deoptimizer::DeoptimizeAll`, as precise coverage
    /// needs). Code that V8 optimized before the profiler started carries
    /// no record of the functions it inlined, so its samples are charged
    /// to the caller (node 22 and 24 inline a timer's callee into the
    /// callback); code optimized while the profiler runs is mapped. The
    /// target runs unoptimized code until V8 optimizes it again, the cost
    /// of a correct name. [`Inspector::stop_profile`] turns coverage off.
    pub fn start_profile(
        &mut self,
        interval: Duration,
        fresh_code: bool,
    ) -> Result<(), InspectorError> {
        let us = interval.as_micros().max(1) as u64;
        self.cdp
            .call("Profiler.enable", json!({}), COMMAND_TIMEOUT)?;
        self.cdp.call(
            "Profiler.setSamplingInterval",
            json!({"interval": us}),
            COMMAND_TIMEOUT,
        )?;
        if fresh_code {
            self.cdp.call(
                "Profiler.startPreciseCoverage",
                json!({"callCount": true, "detailed": false}),
                COMMAND_TIMEOUT,
            )?;
            self.coverage = true;
        }
        self.cdp
            .call("Profiler.start", json!({}), COMMAND_TIMEOUT)?;
        self.profiling = true;
        Ok(())
    }

    /// `Profiler.stop`: the profile, as V8 wrote it (a `.cpuprofile`);
    /// precise coverage, if [`Inspector::start_profile`] turned it on, is
    /// turned off again (V8 back to its best-effort coverage).
    pub fn stop_profile(&mut self, timeout: Duration) -> Result<Value, InspectorError> {
        let mut result = self.cdp.call("Profiler.stop", json!({}), timeout)?;
        self.profiling = false;
        if self.coverage {
            self.cdp
                .call("Profiler.stopPreciseCoverage", json!({}), COMMAND_TIMEOUT)?;
            self.coverage = false;
        }
        match result.get_mut("profile").map(Value::take) {
            Some(p) if p.is_object() => Ok(p),
            _ => Err(InspectorError::Protocol {
                pid: self.pid,
                addr: self.addr.to_string(),
                what: "Profiler.stop answered without a profile".into(),
            }),
        }
    }

    /// Stops the profiler, and closes the inspector if scope opened it.
    pub fn close(mut self) -> Closed {
        if self.profiling {
            let _ = self.cdp.call("Profiler.stop", json!({}), COMMAND_TIMEOUT);
        }
        if self.coverage {
            let _ = self
                .cdp
                .call("Profiler.stopPreciseCoverage", json!({}), COMMAND_TIMEOUT);
        }
        let _ = self
            .cdp
            .call("Profiler.disable", json!({}), COMMAND_TIMEOUT);
        if !self.opened_by_scope {
            self.cdp.close();
            return Closed {
                opened_by_scope: false,
                port_closed: false,
                note: format!(
                    "the inspector was open before; scope's session ended and the inspector at {} stays open",
                    self.addr
                ),
            };
        }
        // The inspector closes its sockets, ours included, before it
        // answers; the answer never comes.
        let sent = self.cdp.send(
            "Runtime.evaluate",
            json!({"expression": "process._debugEnd()"}),
        );
        if sent.is_ok() {
            self.cdp.wait_closed(Duration::from_secs(5));
        }
        let port = self.addr.port();
        let closed = late::port_gone(self.pid, port);
        Closed {
            opened_by_scope: true,
            port_closed: closed,
            note: if closed {
                format!(
                    "scope opened the inspector with SIGUSR1 and closed it again (process._debugEnd()); port {port} is closed. Stays changed: Node's `Debugger listening`/`Debugger attached` lines on the process's stderr, process.debugPort = {port}, and the memory V8 keeps for the inspector"
                )
            } else {
                format!(
                    "scope opened the inspector with SIGUSR1 and could not close it: process {} still listens on port {port}; it stays open until the process exits (anyone on this host who can reach {} can debug it)",
                    self.pid, self.addr
                )
            },
        }
    }
}

/// After SIGUSR1: the process's own new listening socket on the expected
/// port (or, for port 0, any new one).
fn wait_for_listener(
    plan: &Plan,
    before: &[Listener],
    alive: &dyn Fn() -> bool,
    stop: &mut dyn FnMut() -> bool,
) -> Result<SocketAddr, InspectorError> {
    let pid = plan.pid;
    let start = Instant::now();
    loop {
        let held = sockets::held_listeners(pid).map_err(proc_err(pid, "fd"))?;
        let fresh: Vec<&Listener> = held.iter().filter(|l| !before.contains(l)).collect();
        match plan.addr {
            Some(addr) => {
                if held.iter().any(|l| l.addr.port() == addr.port()) {
                    return Ok(addr);
                }
            }
            None => match fresh.as_slice() {
                [one] => {
                    let ip = plan
                        .flags
                        .connect_ip()
                        .unwrap_or(IpAddr::from([127, 0, 0, 1]));
                    return Ok(SocketAddr::new(ip, one.addr.port()));
                }
                [] => {}
                many => {
                    return Err(InspectorError::RandomPort {
                        pid,
                        why: format!("{} new listening sockets appeared at once", many.len()),
                    });
                }
            },
        }
        if !alive() {
            return Err(InspectorError::Exited {
                pid,
                when: "after SIGUSR1, before its inspector opened".into(),
            });
        }
        if start.elapsed() >= OPEN_WAIT {
            if let Some(addr) = plan.addr {
                check_port_free(pid, addr)?;
            }
            // SIGUSR1 was sent: the inspector may still open when the main
            // thread gets back to its loop. Watch for it and close it then.
            let main_thread = plan.main.now().describe();
            let (outcome, closed) = late::close_when_late(plan, before, alive, stop);
            return Err(InspectorError::OpenedLate {
                pid,
                waited_ms: OPEN_WAIT.as_millis() as u64,
                main_thread,
                outcome,
                closed,
            });
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// How long a freshly opened inspector has to answer a first trivial
/// command before scope takes its main thread as blocked.
pub const ANSWER_WAIT: Duration = Duration::from_secs(2);

/// One profiler per process: an abstract Unix socket named
/// `sluice-scope-profile-PID-START` (START: the process's start time, so a
/// reused PID is another name), bound in the target's network namespace
/// before SIGUSR1 and held until the inspector is closed. The name belongs
/// to no directory and no user: a second scope is refused whatever its
/// `TMPDIR` or user, and the kernel frees the name when scope exits, so a
/// crashed scope leaves nothing stale.
fn lock(pid: u32) -> Result<std::os::unix::net::UnixListener, InspectorError> {
    use std::os::linux::net::SocketAddrExt;
    let start = crate::target::process_start_time(pid).ok_or(InspectorError::Exited {
        pid,
        when: "before its profile began".into(),
    })?;
    let name = format!("sluice-scope-profile-{pid}-{start}");
    let shown = format!("@{name}");
    netns::run_in(pid, move || {
        let addr = std::os::unix::net::SocketAddr::from_abstract_name(name.as_bytes()).map_err(
            |cause| InspectorError::Write {
                path: shown.clone(),
                cause,
            },
        )?;
        std::os::unix::net::UnixListener::bind_addr(&addr).map_err(|cause| {
            if cause.kind() == std::io::ErrorKind::AddrInUse {
                InspectorError::Busy { pid, path: shown }
            } else {
                InspectorError::Write { path: shown, cause }
            }
        })
    })
}
