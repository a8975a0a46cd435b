//! An inspector held by a busy main thread, closed as soon as it can be.
//!
//! SIGUSR1 was sent, and then either the inspector's socket did not appear
//! within [`OPEN_WAIT`](super::OPEN_WAIT) ([`close_when_late`]), or it
//! appeared but its first command went unanswered
//! ([`end_unanswered`]): the main thread is in a call that does not let
//! Node run the inspector. Scope then watches, and ends the inspector
//! (`process._debugEnd()`) as soon as the main thread lets it. The watch
//! is bounded by that call, not by a clock: it ends when the inspector is
//! closed, when the process exits, when the main thread is back in its
//! loop and nothing opened (SIGUSR1 went elsewhere), or when the person
//! stops scope (Ctrl-C), which is then said with the address left open.
//! "Back in its loop" is trusted only where the main loop's epoll fd is
//! known ([`knows_loop`](super::main_thread::MainThread::knows_loop)): `execSync`'s private loop waits in
//! `epoll_wait` too.

use super::cdp::Cdp;
use super::error::InspectorError;
use super::main_thread::Main;
use super::sockets::{self, Listener};
use super::{Plan, discover, netns};
use serde_json::json;
use std::net::{IpAddr, SocketAddr};
use std::time::{Duration, Instant};

/// How often the watch says what it waits for.
pub(crate) const NOTE_EVERY: Duration = Duration::from_secs(30);
/// A main thread seen back in its loop for this long with no inspector
/// socket: Node's start request has run (the loop ran its async callback)
/// and will not open one now.
pub(crate) const RETURN_GRACE: Duration = Duration::from_secs(1);

/// Whether `pid` no longer listens on `port` (checked for up to 3 s).
pub(crate) fn port_gone(pid: u32, port: u16) -> bool {
    let deadline = Instant::now() + Duration::from_secs(3);
    loop {
        let open = sockets::held_listeners(pid)
            .map(|h| h.iter().any(|l| l.addr.port() == port))
            .unwrap_or(false);
        if !open {
            return true;
        }
        if Instant::now() >= deadline {
            return false;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Says, every [`NOTE_EVERY`], what the watch waits for.
struct Notes {
    pid: u32,
    next: Instant,
}

impl Notes {
    fn new(pid: u32) -> Notes {
        Notes {
            pid,
            next: Instant::now() + NOTE_EVERY,
        }
    }

    fn maybe(&mut self, main: Main, waits_for: &str) {
        if Instant::now() >= self.next {
            self.next += NOTE_EVERY;
            eprintln!(
                "sluice scope: process {}'s main thread is still {}; {waits_for} (Ctrl-C stops the watch and leaves it to open)",
                self.pid,
                main.describe()
            );
        }
    }
}

/// The address the inspector listens on once it opened, if it has.
fn opened(plan: &Plan, before: &[Listener]) -> Option<SocketAddr> {
    let held = sockets::held_listeners(plan.pid).unwrap_or_default();
    match plan.addr {
        Some(addr) => held
            .iter()
            .any(|l| l.addr.port() == addr.port())
            .then_some(addr),
        None => {
            let fresh: Vec<&Listener> = held.iter().filter(|l| !before.contains(l)).collect();
            match fresh.as_slice() {
                [one] => Some(SocketAddr::new(
                    plan.flags
                        .connect_ip()
                        .unwrap_or(IpAddr::from([127, 0, 0, 1])),
                    one.addr.port(),
                )),
                _ => None,
            }
        }
    }
}

/// After the open wait: watches for the inspector's socket; when it
/// appears, connects and ends it, then checks the port is gone. Returns
/// what happened, in words, and whether no inspector is left open.
pub(crate) fn close_when_late(
    plan: &Plan,
    before: &[Listener],
    alive: &dyn Fn() -> bool,
    stop: &mut dyn FnMut() -> bool,
) -> (String, bool) {
    let pid = plan.pid;
    eprintln!(
        "sluice scope: process {pid}'s inspector did not open within {} ms of SIGUSR1 (its main thread is {}); watching for it to open, to close it",
        super::OPEN_WAIT.as_millis(),
        plan.main.now().describe()
    );
    let start = Instant::now();
    let mut notes = Notes::new(pid);
    let mut back_since: Option<Instant> = None;
    loop {
        if !alive() {
            return (
                "The process exited before its inspector opened.".into(),
                true,
            );
        }
        if let Some(addr) = opened(plan, before) {
            let after = start.elapsed() + super::OPEN_WAIT;
            let ended = netns::run_in(pid, move || {
                let listing = discover::list(pid, addr)?;
                let mut cdp = Cdp::connect(pid, addr, &listing.path, Box::new(|| true))?;
                cdp.send(
                    "Runtime.evaluate",
                    json!({"expression": "process._debugEnd()"}),
                )?;
                cdp.wait_closed(Duration::from_secs(5));
                Ok(())
            });
            return if port_gone(pid, addr.port()) {
                (
                    format!(
                        "It opened {} ms after SIGUSR1 at {addr}, and scope closed it again (process._debugEnd()); port {} is closed.",
                        after.as_millis(),
                        addr.port()
                    ),
                    true,
                )
            } else {
                (
                    format!(
                        "It opened {} ms after SIGUSR1 at {addr} and scope could not close it ({}): process {pid} still listens on port {}; anyone on this host who can reach {addr} can debug it until it exits",
                        after.as_millis(),
                        ended
                            .err()
                            .map(|e| e.to_string())
                            .unwrap_or_else(|| "the port stayed open".into()),
                        addr.port()
                    ),
                    false,
                )
            };
        }
        let main = plan.main.now();
        match (main, back_since) {
            (Main::InLoop, None) if plan.main.knows_loop() => back_since = Some(Instant::now()),
            (Main::InLoop, Some(t)) if t.elapsed() >= RETURN_GRACE => {
                return (
                    format!(
                        "Its main thread was back in its event loop {} ms after SIGUSR1 and no inspector opened: Node's start request has run, so SIGUSR1 went to another handler (a process.on('SIGUSR1') listener scope could not see); nothing listens.",
                        (t - start + super::OPEN_WAIT).as_millis()
                    ),
                    true,
                );
            }
            (Main::InLoop, Some(_)) => {}
            _ => back_since = None,
        }
        if stop() {
            return (
                format!(
                    "Scope was stopped while the main thread was {}: the inspector will open at {} when that call returns, and stay open until the process exits or runs process._debugEnd()",
                    main.describe(),
                    plan.addr_text()
                ),
                false,
            );
        }
        notes.maybe(
            main,
            "its inspector opens when that call returns; scope waits to close it",
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The inspector opened but did not answer its first command: its main
/// thread is held. Queues `process._debugEnd()`, which runs when the main
/// thread returns and closes the inspector (and scope's connection), and
/// waits for that. Returns the error to report.
pub(crate) fn end_unanswered(
    plan: &Plan,
    addr: SocketAddr,
    mut cdp: Cdp,
    alive: &dyn Fn() -> bool,
    stop: &mut dyn FnMut() -> bool,
) -> InspectorError {
    let pid = plan.pid;
    let main_thread = plan.main.now().describe();
    eprintln!(
        "sluice scope: process {pid}'s main thread is {main_thread}; its inspector at {addr} cannot answer: ending it as soon as the main thread returns"
    );
    let _ = cdp.send(
        "Runtime.evaluate",
        json!({"expression": "process._debugEnd()"}),
    );
    let mut notes = Notes::new(pid);
    let mut back_since: Option<Instant> = None;
    let stopped = loop {
        if cdp.wait_closed(Duration::from_millis(500)) || !alive() {
            break None;
        }
        let main = plan.main.now();
        match (main, back_since) {
            (Main::InLoop, None) if plan.main.knows_loop() => back_since = Some(Instant::now()),
            // Back in its loop and still connected: the queued command
            // should have run; stop waiting and look at the port.
            (Main::InLoop, Some(t)) if t.elapsed() >= RETURN_GRACE * 5 => break None,
            (Main::InLoop, Some(_)) => {}
            _ => back_since = None,
        }
        if stop() {
            break Some(main);
        }
        notes.maybe(
            main,
            &format!("its inspector at {addr} closes when that call returns; scope waits for it"),
        );
    };
    let closed = !alive() || port_gone(pid, addr.port());
    let outcome = match (closed, stopped) {
        (true, _) if !alive() => "The process exited.".to_string(),
        (true, _) => format!(
            "Scope ended the inspector as soon as the main thread returned (process._debugEnd()); port {} is closed.",
            addr.port()
        ),
        (false, Some(main)) => format!(
            "Scope was stopped while the main thread was {}: process {pid} still listens on {addr}, and stays open until it exits (scope's queued process._debugEnd() went with its connection)",
            main.describe()
        ),
        (false, None) => format!(
            "The main thread returned but the inspector did not close: process {pid} still listens on {addr}; anyone on this host who can reach it can debug it until it exits"
        ),
    };
    InspectorError::OpenedLate {
        pid,
        waited_ms: super::ANSWER_WAIT.as_millis() as u64,
        main_thread,
        outcome,
        closed,
    }
}
