//! The typed child protocol. Each experiment declares its params and
//! result as serde structs in its `mod.rs`; the parent sends the params as
//! one JSON argument, the child (node's script or `sluice lab-child`)
//! prints the result as its last stdout line, and both sides read them
//! through the same types ([`Lab::call`](crate::lab::Lab::call) on the
//! parent's side, through the [`ChildRunner`], which starts and watches
//! children; `ServerChild`: a server child that listens on a port).
//!
//! A Rust workload implements [`Workload`] (typed); the registry holds it
//! as a [`RustWorkload`] (the same, on JSON), which `lab-child` calls. A
//! workload that drives its own libuv loop implements [`LoopWorkload`]
//! (held as a [`LibuvWorkload`]).

mod runner;
mod server;

pub(crate) use runner::tail;
pub use runner::{ChildRunner, Watch};
pub(crate) use server::ServerChild;

use crate::subject::ChildContext;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

/// An experiment's workload on a Rust subject's executor.
pub trait Workload: Sync {
    /// What the parent sends.
    type Params: Serialize + DeserializeOwned;
    /// What the child prints.
    type Reply: Serialize + DeserializeOwned;
    /// Runs the workload on `cx.exec`, from the event loop `cx.rt`.
    fn run(&self, cx: &ChildContext, params: Self::Params) -> anyhow::Result<Self::Reply>;
}

/// An experiment's workload on a libuv loop of the child's own.
pub trait LoopWorkload: Sync {
    /// What the parent sends.
    type Params: Serialize + DeserializeOwned;
    /// What the child prints.
    type Reply: Serialize + DeserializeOwned;
    /// Runs the workload.
    fn run(&self, params: Self::Params) -> anyhow::Result<Self::Reply>;
}

/// A [`Workload`] on JSON, as the registry holds it.
pub trait RustWorkload: Sync {
    /// Parses the params, runs, serializes the result.
    fn run_json(&self, cx: &ChildContext, params: &str) -> anyhow::Result<Value>;
}

/// A [`LoopWorkload`] on JSON, as the registry holds it.
pub trait LibuvWorkload: Sync {
    /// Parses the params, runs, serializes the result.
    fn run_json(&self, params: &str) -> anyhow::Result<Value>;
}

impl<W: Workload> RustWorkload for W {
    fn run_json(&self, cx: &ChildContext, params: &str) -> anyhow::Result<Value> {
        Ok(serde_json::to_value(self.run(cx, parse(params)?)?)?)
    }
}

impl<W: LoopWorkload> LibuvWorkload for W {
    fn run_json(&self, params: &str) -> anyhow::Result<Value> {
        Ok(serde_json::to_value(self.run(parse(params)?)?)?)
    }
}

fn parse<T: DeserializeOwned>(params: &str) -> anyhow::Result<T> {
    serde_json::from_str(params).map_err(|e| anyhow::anyhow!("the child's params {params}: {e}"))
}
