//! The Rust subjects' side of `spawn-bill`: the workload `sluice lab-child` runs on
//! the subject's executor.

use super::*;

impl crate::child::Workload for SpawnBill {
    type Params = Value;
    type Reply = Value;

    fn run(&self, cx: &ChildContext, params: Value) -> anyhow::Result<Value> {
        let params = &params;
        match params["part"].as_str() {
            Some("bill") => {
                let before = settled_status()?;
                first_task(cx, cx.exec.as_ref())?;
                let after = status()?;
                Ok(json!({ "before": before, "after": after }))
            }
            Some("set") => child_set(cx, params),
            other => bail!("unknown part {other:?}"),
        }
    }
}
