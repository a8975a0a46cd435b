//! [`take`]: one profile of a running Node's main thread.
//!
//! 1. Look ([`inspector::plan_of`]): open already, or closed (then consent:
//!    `--yes`, or a yes at the prompt).
//! 2. Open ([`Inspector::open`]: SIGUSR1 if closed) and connect, in the
//!    target's network namespace.
//! 3. `Profiler.enable`, `setSamplingInterval`, `startPreciseCoverage`
//!    (V8 discards its optimized code, so that inlined functions are
//!    named: [`ProfileConfig::fresh_code`]), `start`; scope samples the
//!    pool and the loop for the same window; `Profiler.stop`,
//!    `stopPreciseCoverage`.
//! 4. Close what scope opened, even after an error.
//! 5. Write the `.cpuprofile` as V8 sent it and the flame graph; analyse.

use super::analysis::{self, Analysis};
use super::cpuprofile::CpuProfile;
use super::flame;
use super::report::{Files, InspectorReport, ProfileReport};
use crate::error::ScopeError;
use crate::inspector::error::InspectorError;
use crate::inspector::{self, Inspector, Plan};
use crate::sample::session::Session;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

/// The default sampling interval (V8's own default).
pub const DEFAULT_INTERVAL: Duration = Duration::from_millis(1);
/// The default wait for `Profiler.stop`'s answer.
pub const DEFAULT_STOP_TIMEOUT: Duration = Duration::from_secs(60);

/// How a profile is taken.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProfileConfig {
    /// How long.
    pub duration: Duration,
    /// V8's sampling interval.
    pub interval: Duration,
    /// Where the `.cpuprofile` and the `.svg` go.
    pub out_dir: PathBuf,
    /// `--yes`: open a closed inspector without asking.
    pub yes: bool,
    /// How long `Profiler.stop` may take to answer.
    pub stop_timeout: Duration,
    /// Say on stderr when the profile starts.
    pub progress: bool,
    /// Discard V8's optimized code as the profile starts (precise
    /// coverage, [`Inspector::start_profile`]), so that functions V8
    /// inlined before the profiler ran are named, not charged to their
    /// caller. On by default; off keeps the target's code as it is.
    pub fresh_code: bool,
}

impl ProfileConfig {
    /// `duration` with the defaults: 1 ms interval, files in `.`, no
    /// consent given.
    pub fn new(duration: Duration) -> ProfileConfig {
        ProfileConfig {
            duration,
            interval: DEFAULT_INTERVAL,
            out_dir: PathBuf::from("."),
            yes: false,
            stop_timeout: DEFAULT_STOP_TIMEOUT,
            progress: false,
            fresh_code: true,
        }
    }
}

/// How consent to open a closed inspector is asked.
pub enum Consent<'a> {
    /// Nobody to ask: refuse without `--yes`.
    NonInteractive,
    /// Ask (a prompt, a key in the terminal view); `true` is yes.
    Ask(&'a mut dyn FnMut(&Plan) -> bool),
}

fn write(path: &Path, bytes: &[u8]) -> Result<(), InspectorError> {
    std::fs::write(path, bytes).map_err(|cause| InspectorError::Write {
        path: path.display().to_string(),
        cause,
    })
}

/// Takes one profile of `session`'s process.
pub fn take(
    session: &mut Session,
    config: &ProfileConfig,
    consent: Consent<'_>,
    stop: &mut dyn FnMut() -> bool,
) -> Result<ProfileReport, ScopeError> {
    let pid = session.target().pid;
    let plan = inspector::plan_of(session.target())?;
    consent_to_open(&plan, config, consent)?;
    if !config.out_dir.is_dir() {
        return Err(ScopeError::Config {
            flag: "--profile-out",
            value: config.out_dir.display().to_string(),
            expected: "expected an existing directory for the .cpuprofile and the .svg".into(),
        });
    }
    let mut ins = Inspector::open(&plan, session.target().liveness(), stop)?;
    if config.progress {
        eprintln!(
            "sluice scope: profiling process {pid} for {:.1} s through its inspector at {} ({})…",
            config.duration.as_secs_f64(),
            ins.addr(),
            if ins.opened_by_scope() {
                "opened with SIGUSR1; closed again after"
            } else {
                "open before; left open"
            }
        );
    }
    let taken = run_profiler(&mut ins, session, config, stop);
    let addr = ins.addr().to_string();
    let title = ins.title().to_string();
    let closed = ins.close();
    let (raw, window) = taken?;
    let (analysis, files) = analyse_and_write(&raw, config, pid, &addr)?;
    Ok(ProfileReport {
        pid,
        duration_s: config.duration.as_secs_f64(),
        interval_us: config.interval.as_micros() as u64,
        fresh_code: config.fresh_code,
        inspector: InspectorReport {
            addr,
            title,
            closed,
        },
        window,
        analysis,
        files,
    })
}

/// An inspector that is closed is opened only with `--yes` or when the
/// person asked says yes.
fn consent_to_open(
    plan: &Plan,
    config: &ProfileConfig,
    consent: Consent<'_>,
) -> Result<(), ScopeError> {
    let pid = plan.pid;
    if plan.already_open {
        return Ok(());
    }
    // Refused before anyone is asked: SIGUSR1 would fire the program's own
    // listener (Inspector::open checks again right before the signal).
    if plan.app_listener == inspector::signal::AppListener::Listens {
        return Err(InspectorError::AppListensForSigusr1 { pid }.into());
    }
    if config.yes {
        return Ok(());
    }
    let addr = plan
        .addr
        .unwrap_or_else(|| std::net::SocketAddr::from(([127, 0, 0, 1], 0)));
    match consent {
        Consent::NonInteractive => Err(InspectorError::NeedsConsent { pid, addr }.into()),
        Consent::Ask(ask) => {
            if ask(plan) {
                Ok(())
            } else {
                Err(InspectorError::Declined { pid }.into())
            }
        }
    }
}

/// Writes the `.cpuprofile` as V8 sent it, analyses it, and draws the
/// flame graph (none without samples: the report's count says so).
fn analyse_and_write(
    raw: &serde_json::Value,
    config: &ProfileConfig,
    pid: u32,
    addr: &str,
) -> Result<(Analysis, Files), ScopeError> {
    let stamp = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let base = config.out_dir.join(format!("sluice-profile-{pid}-{stamp}"));
    let cpuprofile = base.with_extension("cpuprofile");
    let bytes = serde_json::to_vec(raw).expect("a JSON value serialises");
    write(&cpuprofile, &bytes)?;
    let indexed = CpuProfile::from_json(&bytes).map_err(|what| InspectorError::Protocol {
        pid,
        addr: addr.to_string(),
        what: format!("Profiler.stop's profile: {what}"),
    })?;
    let analysis = analysis::analyse(&indexed, Some(pid));
    let title = format!(
        "sluice scope --profile: process {pid}, {:.1} s",
        analysis.span_ms / 1e3
    );
    let flamegraph = match flame::svg(&indexed, &title) {
        Ok(svg) => {
            let path = base.with_extension("svg");
            write(&path, &svg)?;
            Some(path.display().to_string())
        }
        Err(_) => None,
    };
    let files = Files {
        cpuprofile: cpuprofile.display().to_string(),
        flamegraph,
    };
    Ok((analysis, files))
}

/// Starts the profiler, samples one window, stops it.
fn run_profiler(
    ins: &mut Inspector,
    session: &mut Session,
    config: &ProfileConfig,
    stop: &mut dyn FnMut() -> bool,
) -> Result<(serde_json::Value, crate::Report), ScopeError> {
    ins.start_profile(config.interval, config.fresh_code)?;
    let window = match session.window(config.duration, stop) {
        Ok(r) => r,
        Err(ScopeError::Exited { pid }) => {
            return Err(InspectorError::Exited {
                pid,
                when: "while profiling".into(),
            }
            .into());
        }
        Err(e) => return Err(e),
    };
    let raw = ins.stop_profile(config.stop_timeout)?;
    Ok((raw, window))
}
