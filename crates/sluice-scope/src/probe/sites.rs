//! Where probe mode's uprobes go, found from libuv's symbols and its
//! machine code ([`sites`]). libuv 1.x, `src/threadpool.c`:
//!
//! - `submit`: entry of `uv__work_submit(loop, w, kind, work, done)`: `w` in
//!   `%rsi`, `kind` (`UV__WORK_CPU` 0, `FAST_IO` 1, `SLOW_IO` 2) in `%edx`.
//!   `fs.*` (fast I/O) and `dns.lookup` (slow I/O) come through it.
//! - `queue_work`: entry of `uv_queue_work(loop, req, ...)`: the compiler
//!   inlines `uv__work_submit` into it (the same file), so async crypto and
//!   `zlib` (`uv_queue_work`, always CPU) never reach the first probe. The
//!   request is `%rsi`; its `struct uv__work` is `work_req`, at `0x58` in
//!   `uv_work_t` on 64-bit (`UV_REQ_FIELDS` 64 bytes, `loop`, `work_cb`,
//!   `after_work_cb`: libuv's stable 1.x ABI). Where `uv_queue_work`
//!   calls `uv__work_submit` instead of inlining it, this probe is left out
//!   (the first one sees those submissions).
//! - `start`: the one indirect call in `worker()`, `w->work(w)`: `w` in
//!   `%rdi`. A pool thread takes a request from the queue here.
//! - `end`: the instruction after that call: the request ran.
//! - `done`: the one indirect call in `uv__work_done()`,
//!   `w->done(w, err)`: `w` in `%rdi`; the loop thread runs its callback.
//!
//! The code shapes are checked (exactly one indirect call in `worker` and
//! in `uv__work_done`); anything else is a clear refusal, never a guess.

use crate::error::ProbeRefusal;
use crate::target::image::{Function, LibuvImage};
use iced_x86::{Decoder, DecoderOptions, FlowControl};

/// Offset of `work_req` in `uv_work_t` on 64-bit libuv 1.x.
pub(crate) const WORK_REQ_OFFSET: u64 = 0x58;

/// One uprobe: its event name, file offset and fetch arguments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Site {
    /// Event name in the group: `submit`, `queue_work`, `start`, `end`,
    /// `done`.
    pub event: &'static str,
    /// Offset in the image file.
    pub file_offset: u64,
    /// tracefs fetch arguments, e.g. `w=%si:x64 kind=%dx:s32`.
    pub fetch: &'static str,
}

/// An indirect call found in a function: its link-time address and that
/// of the next instruction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct CallSite {
    /// The call instruction.
    pub at: u64,
    /// The instruction after it (where the call returns).
    pub next: u64,
}

/// The indirect calls (`call *...`) in `f`.
pub(crate) fn indirect_calls(f: &Function) -> Vec<CallSite> {
    let mut d = Decoder::with_ip(64, &f.code, f.addr, DecoderOptions::NONE);
    let mut out = Vec::new();
    while d.can_decode() {
        let i = d.decode();
        if i.flow_control() == FlowControl::IndirectCall {
            out.push(CallSite {
                at: i.ip(),
                next: i.next_ip(),
            });
        }
    }
    out
}

/// Whether `f` calls `target` directly.
pub(crate) fn calls(f: &Function, target: u64) -> bool {
    let mut d = Decoder::with_ip(64, &f.code, f.addr, DecoderOptions::NONE);
    while d.can_decode() {
        let i = d.decode();
        if matches!(
            i.flow_control(),
            FlowControl::Call | FlowControl::UnconditionalBranch
        ) && i.near_branch_target() == target
        {
            return true;
        }
    }
    false
}

/// The probe sites of `image`, or why it cannot be probed.
pub(crate) fn sites(image: &LibuvImage) -> Result<Vec<Site>, ProbeRefusal> {
    let s = &image.symbols;
    let mut missing = Vec::new();
    for (name, found) in [
        ("uv__work_submit", s.work_submit.is_some()),
        ("worker", s.worker.is_some()),
        ("uv__work_done", s.work_done.is_some()),
        ("uv_queue_work", s.queue_work.is_some()),
    ] {
        if !found {
            missing.push(name);
        }
    }
    let (Some(submit), Some(worker), Some(done), Some(queue_work)) =
        (&s.work_submit, &s.worker, &s.work_done, &s.queue_work)
    else {
        return Err(ProbeRefusal::MissingSymbols {
            path: image.shown.clone().into(),
            missing: missing.join(", "),
        });
    };
    let one_call = |f: &Function, name: &str, what: &str| -> Result<CallSite, ProbeRefusal> {
        match indirect_calls(f).as_slice() {
            [one] => Ok(*one),
            found => Err(ProbeRefusal::UnexpectedCode {
                path: image.shown.clone().into(),
                why: format!(
                    "{name} has {} indirect calls; expected exactly one ({what})",
                    found.len()
                ),
            }),
        }
    };
    let run = one_call(worker, "worker()", "w->work(w)")?;
    let deliver = one_call(done, "uv__work_done()", "w->done(w, err)")?;
    let offset = |f: &Function, addr: u64| f.file_offset + (addr - f.addr);
    let mut out = vec![Site {
        event: "submit",
        file_offset: submit.file_offset,
        fetch: "w=%si:x64 kind=%dx:s32",
    }];
    if !calls(queue_work, submit.addr) {
        out.push(Site {
            event: "queue_work",
            file_offset: queue_work.file_offset,
            fetch: "req=%si:x64",
        });
    }
    out.push(Site {
        event: "start",
        file_offset: offset(worker, run.at),
        fetch: "w=%di:x64",
    });
    out.push(Site {
        event: "end",
        file_offset: offset(worker, run.next),
        fetch: "",
    });
    out.push(Site {
        event: "done",
        file_offset: offset(done, deliver.at),
        fetch: "w=%di:x64",
    });
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::target::image::ThreadpoolSymbols;

    fn f(addr: u64, code: &[u8]) -> Function {
        Function {
            addr,
            size: code.len() as u64,
            file_offset: addr - 0x40_0000,
            code: code.to_vec(),
        }
    }

    // push rbp; call *-0x18(%rbx); mov %eax,%eax; ret
    const WORKER: &[u8] = &[0x55, 0xff, 0x53, 0xe8, 0x89, 0xc0, 0xc3];
    // call *-0x10(%rax); ret
    const DONE: &[u8] = &[0xff, 0x50, 0xf0, 0xc3];
    // call rel32 to 0x401000 from 0x402000 (e8 + (0x401000 - 0x402005)); ret
    const QUEUE_CALLS: &[u8] = &[0xe8, 0xfb, 0xef, 0xff, 0xff, 0xc3];
    const RET: &[u8] = &[0xc3];

    fn image(symbols: ThreadpoolSymbols) -> LibuvImage {
        LibuvImage {
            path: "/x/node".into(),
            shown: "/x/node".into(),
            bias: 0,
            data: vec![],
            symbols,
            text: vec![],
            text_source: String::new(),
            segments: vec![],
        }
    }

    /// An image with all four functions: `uv__work_submit` at 0x401000,
    /// `uv_queue_work` at 0x402000, `worker` at 0x403000 and
    /// `uv__work_done` at 0x404000, of the code given for two of them.
    fn pool_image(queue_work: &[u8], worker: &[u8]) -> LibuvImage {
        image(ThreadpoolSymbols {
            work_submit: Some(f(0x40_1000, RET)),
            worker: Some(f(0x40_3000, worker)),
            work_done: Some(f(0x40_4000, DONE)),
            queue_work: Some(f(0x40_2000, queue_work)),
            ..ThreadpoolSymbols::default()
        })
    }

    #[test]
    fn finds_the_call_sites_and_their_offsets() {
        let img = pool_image(RET, WORKER);
        let s = sites(&img).unwrap();
        let at = |e: &str| s.iter().find(|x| x.event == e).unwrap().file_offset;
        assert_eq!(s.len(), 5);
        assert_eq!(at("submit"), 0x1000);
        assert_eq!(at("queue_work"), 0x2000);
        assert_eq!(at("start"), 0x3001);
        assert_eq!(at("end"), 0x3004);
        assert_eq!(at("done"), 0x4000);
    }

    #[test]
    fn queue_work_calling_submit_is_not_probed_twice() {
        let img = pool_image(QUEUE_CALLS, WORKER);
        let s = sites(&img).unwrap();
        assert_eq!(s.len(), 4);
        assert!(s.iter().all(|x| x.event != "queue_work"));
    }

    #[test]
    fn missing_symbols_are_named() {
        let img = image(ThreadpoolSymbols {
            worker: Some(f(0x40_3000, WORKER)),
            ..ThreadpoolSymbols::default()
        });
        let err = sites(&img).unwrap_err();
        assert_eq!(
            err,
            ProbeRefusal::MissingSymbols {
                path: "/x/node".into(),
                missing: "uv__work_submit, uv__work_done, uv_queue_work".into()
            }
        );
        assert!(err.to_string().contains("drop --probe"), "{err}");
    }

    #[test]
    fn an_unexpected_worker_is_refused() {
        let img = pool_image(RET, RET);
        assert_eq!(
            sites(&img).unwrap_err().to_string(),
            "/x/node: worker() has 0 indirect calls; expected exactly one (w->work(w)); drop --probe"
        );
    }
}
