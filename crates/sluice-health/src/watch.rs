//! [`Watch`]: the doctor run continuously inside a service, so that its
//! `/metrics` carries the verdict (`sluice_verdict`) next to the counters.

use crate::{Diagnosis, Sample, Thresholds, diagnose};
use sluice::sync::lock;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The doctor's verdict over consecutive windows of a running service.
///
/// Each [`observe`](Watch::observe) gives a sample of now; once `window`
/// has passed since the window began, the window is diagnosed and the next
/// begins. Until the first window completes, the verdict is that of the
/// time so far.
///
/// ```
/// use sluice_health::{Sample, Verdict, Watch};
/// use sluice::{Lane, Pool};
/// use std::time::Duration;
///
/// let pool = Pool::builder().build()?;
/// let watch = Watch::new(Sample::from_snapshot(&pool.metrics(), None), Duration::from_secs(1), Default::default());
/// pool.spawn(Lane::Cpu, || ()).wait()?;
/// let d = watch.observe(Sample::from_snapshot(&pool.metrics(), None));
/// // Healthy, unless that one task waited 10 ms or more for a thread.
/// assert!(matches!(d.verdict, Verdict::Healthy | Verdict::LaneSaturated(Lane::Cpu)));
/// assert_eq!(d.lanes[0].started, 1);
/// let text = sluice_health::exposition(&pool.metrics(), None, Some(&d));
/// // One verdict line reads 1, every other 0.
/// let verdicts: Vec<_> = text.lines().filter(|l| l.starts_with("sluice_verdict{")).collect();
/// assert_eq!(verdicts.iter().filter(|l| l.ends_with(" 1")).count(), 1);
/// assert!(text.contains("sluice_verdict{verdict=\"pool-saturated\",lane=\"cpu\"} 0"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct Watch {
    window: Duration,
    thresholds: Thresholds,
    state: Mutex<State>,
}

#[derive(Debug)]
struct State {
    start: Sample,
    began: Instant,
    last: Option<Diagnosis>,
}

impl Watch {
    /// Starts the first window at `start` (a sample of now).
    pub fn new(start: Sample, window: Duration, thresholds: Thresholds) -> Watch {
        Watch {
            window,
            thresholds,
            state: Mutex::new(State {
                start,
                began: Instant::now(),
                last: None,
            }),
        }
    }

    /// The verdict of the last complete window, given a sample of now
    /// (which may complete a window); before any, of the time so far.
    pub fn observe(&self, now: Sample) -> Diagnosis {
        let mut st = lock(&self.state);
        let elapsed = st.began.elapsed();
        if elapsed >= self.window {
            let d = diagnose(&st.start, &now, elapsed, &self.thresholds);
            st.last = Some(d.clone());
            st.start = now;
            st.began = Instant::now();
            return d;
        }
        match &st.last {
            Some(d) => d.clone(),
            None => diagnose(&st.start, &now, elapsed, &self.thresholds),
        }
    }
}
