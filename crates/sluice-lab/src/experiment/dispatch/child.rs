//! The Rust subjects' side of `dispatch`: the workload `sluice lab-child` runs on
//! the subject's executor.

use super::*;

impl crate::child::Workload for Dispatch {
    type Params = ChildParams;
    type Reply = ChildReply;

    fn run(&self, cx: &ChildContext, params: ChildParams) -> anyhow::Result<ChildReply> {
        let p = Params::from_wire(&params)?;
        let exec = cx.exec.as_ref();
        // Each wave submitted through the subject's own typed API
        // (`Executor::run_waves`): no boxed job or future per task.
        // BATCH_REQUEST: each wave through the pool's batch call.
        let batched = params.request == BATCH_REQUEST;
        // PLAIN_LOOP_REQUEST: the same calls on a loop without sluice's park
        // hook, built for this child.
        let plain = (params.request == PLAIN_LOOP_REQUEST)
            .then(|| crate::subject::child_loop(false))
            .transpose()?;
        let rt = plain.as_ref().unwrap_or(&cx.rt);
        let timed = |in_flight: u64, n: u64| {
            rt.block_on(async {
                let t0 = Instant::now();
                let waves = if batched {
                    exec.run_batched_waves(p.lane, trivial, in_flight, n)
                        .with_context(|| {
                            format!("{} has no batch call ({BATCH_REQUEST})", exec.subject())
                        })?
                } else {
                    exec.run_waves(p.lane, trivial, in_flight, n)
                };
                waves.await.map_err(anyhow::Error::msg)?;
                Ok(t0.elapsed())
            })
        };
        let (one, batch, tasks) = series(&p, |n| timed(1, n), || timed(p.batch, p.batch))?;
        Ok(ChildReply {
            one_wall_ns: one,
            batch_wall_ns: batch,
            batch_tasks: tasks,
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
