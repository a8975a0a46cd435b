//! The Rust subjects' side of `dispatch`: the workload `sluice lab-child` runs on
//! the subject's executor.

use super::*;

impl crate::child::Workload for Dispatch {
    type Params = Value;
    type Reply = Value;

    fn run(&self, cx: &ChildContext, params: Value) -> anyhow::Result<Value> {
        let params = &params;
        let p = Params::from_json(params)?;
        let exec = cx.exec.as_ref();
        let (one, batch) = series(
            &p,
            |n| {
                cx.block_on(async {
                    let t0 = Instant::now();
                    for _ in 0..n {
                        submit(exec, p.lane).await.map_err(anyhow::Error::msg)?;
                    }
                    Ok(t0.elapsed())
                })
            },
            |n| {
                cx.block_on(async {
                    let t0 = Instant::now();
                    let done: Vec<Done> = (0..n).map(|_| submit(exec, p.lane)).collect();
                    for d in done {
                        d.await.map_err(anyhow::Error::msg)?;
                    }
                    Ok(t0.elapsed())
                })
            },
        )?;
        Ok(json!({
            "one_wall_ns": one,
            "batch_wall_ns": batch,
            "idle": idle_window(&p)?,
        }))
    }
}

impl crate::child::LoopWorkload for Dispatch {
    type Params = Value;
    type Reply = Value;

    fn run(&self, params: Value) -> anyhow::Result<Value> {
        ffi_child(&params)
    }
}
