//! The `go` subject: the experiment's Go program (`<name>.go`, standard
//! library only), built once per lab run into the scratch directory with the
//! Go found on the machine ([`crate::toolchain::find_go`]) and run as a child of its own.
//!
//! Go has no pool to size. Its scheduler runs goroutines on `GOMAXPROCS`
//! Ps (processors); a goroutine that enters a blocking system call keeps
//! its M (thread), and the P is handed to another M, started if none is
//! idle, so blocking calls get new threads as Go decides (up to
//! `debug.SetMaxThreads`, 10 000 by default). Waits Go can put on its
//! netpoller (sockets, pipes and FIFOs opened through `os`) hold no thread
//! at all. So the lab's pool size P is `GOMAXPROCS=P` (unset: Go's default,
//! the usable cores), which bounds CPU work only; the notes say so.

use super::{Need, Runtime, Subject, SubjectSpec};
use crate::PoolSize;
use crate::lab::Lab;
use std::process::Command;

/// The Go subject.
pub(crate) struct Go;

/// What `go` is.
pub(super) static SPEC: SubjectSpec = SubjectSpec {
    about: "a Go program per experiment (goroutines; blocking system calls get new threads, the netpoller none): seed 004's runtime",
    cannot: &[
        (
            Need::Attach,
            "Go has no libuv pool for sluice scope to watch",
        ),
        (
            Need::SetSizeInside,
            "Go has no pool to size; runtime.GOMAXPROCS and debug.SetMaxThreads are other things",
        ),
    ],
    ..SubjectSpec::new("go", Runtime::Go, &Go)
};

impl Subject for Go {
    fn unavailable(&self, lab: &Lab) -> Option<String> {
        lab.toolchain().go().err()
    }

    fn lane_label(&self, _lane: ::sluice::Lane) -> String {
        "goroutine".into()
    }

    fn pool_note(&self, pool: PoolSize, cores: usize) -> String {
        match pool {
            PoolSize::Unset => format!(
                "go: GOMAXPROCS unset (Go's default, {cores} usable cores); no pool: a blocking system call gets a thread of its own, a netpoller wait none"
            ),
            PoolSize::Size(n) => format!(
                "go: pool {n} is GOMAXPROCS={n} (goroutines computing at once); no pool: a blocking system call gets a thread of its own, a netpoller wait none"
            ),
        }
    }
}

/// The go subject's child command: the program [`Toolchain::go_program`](crate::Toolchain::go_program) built
/// for `experiment`, its params as the first argument, `GOMAXPROCS` the
/// pool size.
pub(super) fn go_command(
    lab: &Lab,
    experiment: &str,
    pool: PoolSize,
    params: &serde_json::Value,
) -> anyhow::Result<Command> {
    let program = lab.toolchain().go_program(experiment)?;
    let mut cmd = Command::new(program);
    cmd.arg(params.to_string()).env_remove("GODEBUG");
    match pool {
        PoolSize::Unset => cmd.env_remove("GOMAXPROCS"),
        PoolSize::Size(n) => cmd.env("GOMAXPROCS", n.to_string()),
    };
    Ok(cmd)
}
