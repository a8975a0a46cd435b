//! [`InspectorError`]: why a profile could not be taken, each naming the
//! process, what was seen, and what to do.

use std::net::SocketAddr;

/// Why `sluice scope --profile` could not take a profile.
#[derive(Debug, thiserror::Error)]
pub enum InspectorError {
    /// The process's inspector is closed and the run may not open it.
    #[error(
        "process {pid}'s inspector is not open; opening it sends SIGUSR1, which makes Node listen on {addr} until scope closes it again (see `sluice scope --help`); pass --yes to allow it, or start node with --inspect"
    )]
    NeedsConsent {
        /// The process.
        pid: u32,
        /// Where its inspector would listen.
        addr: SocketAddr,
    },
    /// The person declined at the prompt.
    #[error("not profiled: opening process {pid}'s inspector was declined")]
    Declined {
        /// The process.
        pid: u32,
    },
    /// Another process listens on the inspector's port.
    #[error(
        "the inspector port {addr} of process {pid} is in use by {owner}; Node would fail to listen there (it prints `Starting inspector on {addr} failed: address already in use` to its own stderr); stop that listener, or restart node with --inspect-port=PORT naming a free port"
    )]
    PortInUse {
        /// The process.
        pid: u32,
        /// The address.
        addr: SocketAddr,
        /// Who holds it (`process 4242 (node)`, or `another process`).
        owner: String,
    },
    /// The process was started with `--disable-sigusr1`.
    #[error(
        "process {pid} was started with --disable-sigusr1 ({source_of_flag}): SIGUSR1 cannot open its inspector, and would not be handled; restart it without that flag, or with --inspect"
    )]
    Sigusr1Disabled {
        /// The process.
        pid: u32,
        /// Where the flag was seen (`its command line`, `NODE_OPTIONS`).
        source_of_flag: &'static str,
    },
    /// The process does not catch SIGUSR1: sending it would kill it.
    #[error(
        "process {pid} does not handle SIGUSR1 (/proc/{pid}/status SigCgt lacks it{ignored}): Node installs its handler once it has started, unless it runs with --disable-sigusr1, and a process.on('SIGUSR1') listener that was added and removed resets it; SIGUSR1 would {effect}, so scope did not send it; wait until it has started, or restart it with --inspect"
    )]
    Sigusr1NotHandled {
        /// The process.
        pid: u32,
        /// `, and SigIgn has it` when ignored.
        ignored: &'static str,
        /// `terminate it` or `be ignored`.
        effect: &'static str,
    },
    /// `kill` refused.
    #[error(
        "no permission to signal process {pid} (kill: {errno}); run sluice scope as the user that runs it, or as root"
    )]
    NoPermission {
        /// The process.
        pid: u32,
        /// The error.
        errno: nix::errno::Errno,
    },
    /// Entering the process's network namespace failed.
    #[error(
        "cannot enter process {pid}'s network namespace ({path}: {cause}); its inspector listens inside it: run sluice scope as root (CAP_SYS_ADMIN), or from inside that namespace (nsenter -t {pid} -n)"
    )]
    Namespace {
        /// The process.
        pid: u32,
        /// The namespace file.
        path: String,
        /// Why.
        cause: String,
    },
    /// The inspector did not open, or did not answer, soon after SIGUSR1
    /// (the main thread was busy); scope watched for it and closed it as
    /// soon as the main thread let it, or says it could not.
    #[error(
        "process {pid}'s inspector did not answer within {waited_ms} ms of SIGUSR1: its main thread was {main_thread} (Node opens the inspector and runs its commands on the main thread); no profile was taken. {outcome}"
    )]
    OpenedLate {
        /// The process.
        pid: u32,
        /// How long scope waited before giving up on the profile.
        waited_ms: u64,
        /// What the main thread was doing, from `/proc` (in words).
        main_thread: String,
        /// What scope did about the late inspector (in words).
        outcome: String,
        /// Whether the inspector is known closed (it opened late and scope
        /// closed it, or the process exited).
        closed: bool,
    },
    /// The process runs with a random inspector port and no new socket
    /// could be told apart.
    #[error(
        "process {pid} asks for a random inspector port (--inspect-port=0 or --inspect=0) and scope could not tell which of its listening sockets is the inspector ({why}); restart it with a fixed --inspect-port"
    )]
    RandomPort {
        /// The process.
        pid: u32,
        /// What was seen.
        why: String,
    },
    /// The inspector's HTTP or WebSocket side did not behave as Node's.
    #[error("the inspector of process {pid} at {addr}: {what}")]
    Protocol {
        /// The process.
        pid: u32,
        /// The address.
        addr: String,
        /// What went wrong.
        what: String,
    },
    /// A DevTools command failed.
    #[error("{method} failed in process {pid}: {message}")]
    Command {
        /// The process.
        pid: u32,
        /// The method.
        method: String,
        /// The error object's message.
        message: String,
    },
    /// A command was not answered in time.
    #[error(
        "process {pid} did not answer {method} within {secs} s: its main thread is busy in code V8 cannot interrupt (a long native call, a synchronous system call); try again when that call has returned"
    )]
    Timeout {
        /// The process.
        pid: u32,
        /// The method.
        method: String,
        /// The limit.
        secs: u64,
    },
    /// Another `sluice scope` is profiling the same process.
    #[error(
        "process {pid} is being profiled by another sluice scope now (it holds the abstract socket {path}, `ss -xlp | grep sluice-scope-profile` names it); two profilers on one process would close the inspector under each other: wait for that one to finish"
    )]
    Busy {
        /// The process.
        pid: u32,
        /// The lock's name (`@sluice-scope-profile-PID-START`).
        path: String,
    },
    /// The program listens for SIGUSR1 itself.
    #[error(
        "process {pid} listens for SIGUSR1 itself (a process.on('SIGUSR1') listener: libuv's signal tree holds a SIGUSR1 handle); SIGUSR1 would fire the program's own listener, and would not open the inspector (libuv's handler replaced Node's), so scope did not send it; restart node with --inspect (or --inspect-port=PORT and SIGUSR1 unhandled by the program)"
    )]
    AppListensForSigusr1 {
        /// The process.
        pid: u32,
    },
    /// The main thread is blocked in a call: SIGUSR1 would open the
    /// inspector only when the call returns.
    #[error(
        "process {pid}'s main thread is {main_thread}, for at least {for_ms} ms; Node opens the SIGUSR1 inspector on the main thread, so it would open when that call returns, maybe after scope has gone, and stay open; scope did not send SIGUSR1: try again when the call has returned, or start node with --inspect"
    )]
    MainThreadBlocked {
        /// The process.
        pid: u32,
        /// What the main thread is doing, in words.
        main_thread: String,
        /// How long scope watched it before refusing.
        for_ms: u64,
    },
    /// The process exited during the profile.
    #[error(
        "process {pid} exited {when}; no profile was taken (V8 keeps the samples inside the process until Profiler.stop returns them)"
    )]
    Exited {
        /// The process.
        pid: u32,
        /// At which step (`while profiling`, `after SIGUSR1, ...`).
        when: String,
    },
    /// A file could not be written.
    #[error("writing {path}: {cause}")]
    Write {
        /// The file.
        path: String,
        /// Why.
        cause: std::io::Error,
    },
    /// Reading `/proc` failed.
    #[error("reading {path}: {cause}")]
    Proc {
        /// The file.
        path: String,
        /// Why.
        cause: std::io::Error,
    },
}
