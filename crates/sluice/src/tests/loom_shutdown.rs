//! Shutdown racing a submit: every handle resolves, to its value (accepted
//! before the close, and drained) or to `Shutdown` (refused after it). None
//! hangs, and the workers exit.

use crate::{Lane, Pool, TaskError};
use loom::thread;
use std::time::Duration;

#[test]
fn loom_shutdown_vs_submit() {
    loom::model(|| {
        let pool = Pool::builder().threads(Lane::Cpu, 1).build().unwrap();
        let p = pool.clone();
        let submitter = thread::spawn(move || p.spawn(Lane::Cpu, || 1).wait());
        let report = pool.shutdown(Duration::from_secs(1));
        let result = submitter.join().unwrap();
        assert!(
            result == Ok(1) || result == Err(TaskError::Shutdown),
            "{result:?}"
        );
        assert!(report.drained);
        assert_eq!(report.abandoned, 0);
        let l = pool.metrics().lane(Lane::Cpu).clone();
        assert_eq!(l.completed_total, u64::from(result.is_ok()));
        assert_eq!(l.queue_depth, 0);
    });
}
