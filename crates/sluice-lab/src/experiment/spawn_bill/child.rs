//! The Rust subjects' side of `spawn-bill`: the workload `sluice lab-child` runs on
//! the subject's executor.

use super::*;

impl crate::child::Workload for SpawnBill {
    type Params = BillParams;
    type Reply = BillReply;

    fn run(&self, cx: &ChildContext, params: BillParams) -> anyhow::Result<BillReply> {
        match params {
            BillParams::Bill => {
                let before = settled_status()?;
                first_task(cx, cx.exec.as_ref())?;
                let after = status()?;
                Ok(BillReply {
                    before,
                    after,
                    probe: None,
                    fastio_limit: None,
                })
            }
            BillParams::Set { set, size, n, fifo } => child_set(cx, &set, size, n, &fifo),
        }
    }
}
