//! The `libuv-ffi` subject: the system libuv's `uv_queue_work` (libuv.so.1)
//! through FFI ([`crate::libuv_ffi`]), no JS. Its child is `sluice
//! lab-child libuv-ffi EXPERIMENT POOL PARAMS`, running the experiment's
//! libuv workload (only `dispatch` has one).

use super::{Need, Rules, Runtime, Subject, SubjectSpec, uv_pool_note};
use crate::PoolSize;
use crate::lab::Lab;
use crate::libuv_ffi::SystemLibuv;

/// The system libuv through FFI.
pub(crate) struct LibuvFfi;

/// What `libuv-ffi` is.
pub(super) static SPEC: SubjectSpec = SubjectSpec {
    about: "the system libuv's uv_queue_work (libuv.so.1) through FFI, no JS",
    // The system libuv reads it at the first uv_queue_work, like node's.
    size_in_env: true,
    // It exists for one experiment (dispatch adds it with --libuv-ffi on).
    by_default: false,
    rules: Rules::Libuv,
    cannot: &[
        (Need::HttpServer, "it is a bare uv loop with no HTTP server"),
        (Need::Attach, "it runs no workload sluice scope watches"),
        (
            Need::SetSizeInside,
            "its workload never sets the size inside the process",
        ),
    ],
    ..SubjectSpec::new("libuv-ffi", Runtime::Libuv, &LibuvFfi)
};

impl Subject for LibuvFfi {
    fn unavailable(&self, _lab: &Lab) -> Option<String> {
        SystemLibuv::load().err()
    }

    fn pool_note(&self, pool: PoolSize, _cores: usize) -> String {
        uv_pool_note(SPEC.name, pool, "")
    }
}
