//! Feature `tower`: `LaneLayer` admits while the lane has room, answers 429
//! with `Retry-After` when it is full, and a place not spent by the handler
//! is given back. Counts and statuses only.
#![cfg(feature = "tower")]

mod common;

use common::assert_lane;
use sluice::Lane;
use sluice::tower::{Admitted, LaneLayer};
use std::time::Duration;
use tower::ServiceExt;

#[test]
fn full_lane_answers_429_and_an_unspent_place_is_given_back() {
    let pool = common::one_cpu_bounded(1);
    let layer = LaneLayer::new(pool.clone(), Lane::Cpu).retry_after(Duration::from_millis(1500));
    // A handler that keeps its place without spending it until told.
    let (hold_tx, hold_rx) = std::sync::mpsc::channel::<Admitted>();
    let svc =
        tower::ServiceBuilder::new()
            .layer(layer)
            .service_fn(move |req: http::Request<String>| {
                let hold = hold_tx.clone();
                async move {
                    let admitted = req.extensions().get::<Admitted>().cloned().unwrap();
                    hold.send(admitted).unwrap();
                    Ok::<_, std::convert::Infallible>(http::Response::new(String::from("held")))
                }
            });
    // One request through a fresh clone of the service.
    let call = || svc.clone().oneshot(http::Request::new(String::new()));
    futures_executor::block_on(async {
        let first = call().await.unwrap();
        assert_eq!(first.status(), 200);
        let held = hold_rx.recv().unwrap();
        assert_eq!(
            pool.metrics().lane(Lane::Cpu).queue_depth,
            1,
            "the place is held"
        );

        let refused = call().await.unwrap();
        assert_eq!(refused.status(), 429);
        assert_eq!(refused.headers()["retry-after"], "2");
        assert_eq!(
            refused.body(),
            "busy: the cpu lane's queue is at its bound of 1; retry later\n"
        );

        drop(held); // the last handle on the place: given back
        assert_eq!(pool.metrics().lane(Lane::Cpu).queue_depth, 0);
        let again = call().await.unwrap();
        assert_eq!(again.status(), 200);
        let admitted = hold_rx.recv().unwrap();
        assert_eq!(admitted.spawn(|| 3).unwrap().await.unwrap(), 3);
        assert!(admitted.spawn(|| 4).is_none(), "a place is spent once");
    });
    assert_lane!(pool, Lane::Cpu, rejected_total: 1, submitted_total: 1, completed_total: 1);
}
