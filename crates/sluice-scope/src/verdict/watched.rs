//! [`Watched`]: one process of `sluice scope --all`, who it is and its
//! windows so far, and [`Processes`], all of them by PID. Below both the
//! driver (`run/all.rs`, which counts each window in) and the faces
//! (`face/host*.rs`, which show them).

use crate::target::Target;
use crate::target::container::{self, Placement};
use crate::verdict::aggregate::Report;
use std::collections::BTreeMap;

/// One watched process.
#[derive(Debug, Clone)]
pub struct Watched {
    /// Its PID (as this host sees it).
    pub pid: u32,
    /// Its `comm`.
    pub comm: String,
    /// Its executable, as `/proc/PID/exe` names it.
    pub exe: String,
    /// Its container and pod, if any.
    pub placement: Placement,
    /// How its pool was found (updated as windows come).
    pub found: String,
    /// Its last window.
    pub last: Option<Report>,
    /// Windows seen.
    pub windows: usize,
    /// Sum of saturation over windows (for the mean).
    pub saturation_sum: f64,
    /// Sum of the sampler's CPU over windows (for the mean).
    pub sampler_cpu_sum: f64,
    /// Windows per verdict.
    pub verdicts: BTreeMap<&'static str, usize>,
    /// Why watching it ended (exited, or an error), if it did.
    pub ended: Option<String>,
}

impl Watched {
    /// The container ID shortened to 12 digits as `docker ps` shows it, or
    /// `-` on the host.
    pub fn container_short(&self) -> &str {
        self.placement
            .container
            .as_deref()
            .map_or("-", |c| &c[..12.min(c.len())])
    }

    /// The Prometheus labels: `pid`, `comm`, `container` (full ID, empty
    /// on the host), `pod` (empty when none).
    pub fn labels(&self) -> Vec<(String, String)> {
        vec![
            ("pid".into(), self.pid.to_string()),
            ("comm".into(), self.comm.clone()),
            (
                "container".into(),
                self.placement.container.clone().unwrap_or_default(),
            ),
            ("pod".into(), self.placement.pod.clone().unwrap_or_default()),
        ]
    }

    /// `target`, before its first window.
    pub(crate) fn new(target: &Target) -> Watched {
        Watched {
            pid: target.pid,
            comm: target.comm.clone(),
            exe: target.exe.clone(),
            placement: container::of_process(target.pid),
            found: "attaching".into(),
            last: None,
            windows: 0,
            saturation_sum: 0.0,
            sampler_cpu_sum: 0.0,
            verdicts: BTreeMap::new(),
            ended: None,
        }
    }

    /// Counts window `r`.
    pub(crate) fn add(&mut self, r: &Report) {
        self.windows += 1;
        self.saturation_sum += r.saturation_pct;
        self.sampler_cpu_sum += r.sampler_cpu_pct;
        *self.verdicts.entry(r.verdict.as_str()).or_default() += 1;
        self.last = Some(r.clone());
    }
}

/// Every watched process, by PID.
pub type Processes = BTreeMap<u32, Watched>;

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::sample::classify::{IdleWait, ThreadState};
    use crate::sample::sampler::Tick;
    use crate::target::discovery::{Method, Pool, PoolStatus};
    use crate::verdict::aggregate::{Context, Window};

    /// `pid` with one window (`sat`: how many of its 100 samples had every
    /// thread busy; `None`: no window yet), ended or not.
    pub(crate) fn watched(pid: u32, sat: Option<usize>, ended: bool) -> Watched {
        // A window of 100 samples with `busy` of them every thread busy.
        let last = sat.map(|busy: usize| {
            let status = PoolStatus::Started(Pool {
                method: Method::Memory,
                tids: vec![1],
                idle: IdleWait::AnyFutex,
                evidence: vec![],
            });
            let mut win = Window::new(vec![1]);
            for i in 0..100 {
                let state = if i < busy {
                    ThreadState::OnCpu
                } else {
                    ThreadState::Idle
                };
                win.add(
                    &Tick {
                        pool: vec![state],
                        loop_state: ThreadState::Idle,
                    },
                    None,
                );
            }
            win.finish(Context::bare(1.0, pid, &status))
        });
        Watched {
            pid,
            comm: "node".into(),
            exe: "/usr/bin/node".into(),
            placement: Placement::default(),
            found: String::new(),
            last,
            windows: 1,
            saturation_sum: 0.0,
            sampler_cpu_sum: 0.0,
            verdicts: Default::default(),
            ended: ended.then(|| "exited".into()),
        }
    }
}
