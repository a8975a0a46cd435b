//! `sluice lab small-reads` with tiny parameters, every subject: every
//! read returned the file's bytes (the experiment refuses otherwise) and
//! every (subject, pool) has its row.

mod common;

use common::{SUBJECTS, assert_contains, assert_schema, lab, metric};
use serde_json::json;

#[test]
fn every_subject_reads_every_file_at_every_pool() {
    let (v, text) = lab("small-reads --pools 1,2 --n 200 --in-flight 20 --rounds 2");
    assert_schema(&v, "small-reads");
    for s in SUBJECTS {
        for pool in [1, 2] {
            let p = [("pool", json!(pool))];
            assert_eq!(metric(&v, s, &p, "reads"), 200.0, "{s} {pool}");
            assert!(metric(&v, s, &p, "ops_s") > 0.0);
            assert!(metric(&v, s, &p, "best_ops_s") >= metric(&v, s, &p, "ops_s"));
        }
    }
    assert_contains(
        &text,
        &[
            "small-reads: each subject at its best pool size",
            "goal sluice >= 4x node's best pool size",
        ],
    );
}
