//! The Rust subjects' side of `dispatch`: the workload `sluice lab-child` runs on
//! the subject's executor.

use super::*;

impl crate::child::Workload for Dispatch {
    type Params = ChildParams;
    type Reply = ChildReply;

    fn run(&self, cx: &ChildContext, params: ChildParams) -> anyhow::Result<ChildReply> {
        let p = Params::from_wire(&params)?;
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
        Ok(ChildReply {
            one_wall_ns: one,
            batch_wall_ns: batch,
            idle: idle_window(&p)?,
            version: None,
            request: None,
        })
    }
}

impl crate::child::LoopWorkload for Dispatch {
    type Params = ChildParams;
    type Reply = ChildReply;

    fn run(&self, params: ChildParams) -> anyhow::Result<ChildReply> {
        ffi_child(&params)
    }
}
