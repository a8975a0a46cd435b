//! `sluice::mailbox` under many posters: every item arrives exactly once,
//! in each poster's order, and the bell rings at most once per post.

use sluice::mailbox::Mailbox;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Many posters, one drainer that drains only after a ring: every item
/// arrives exactly once, and rings never exceed posts.
#[test]
fn many_posters_every_item_once() {
    const POSTERS: usize = 8;
    const EACH: usize = 20_000;
    let rings = Arc::new(AtomicUsize::new(0));
    let bell = Arc::clone(&rings);
    let mailbox = Arc::new(Mailbox::new(move || {
        bell.fetch_add(1, Ordering::SeqCst);
    }));
    let posters: Vec<_> = (0..POSTERS)
        .map(|p| {
            let m = Arc::clone(&mailbox);
            std::thread::spawn(move || {
                for i in 0..EACH {
                    m.post(p * EACH + i);
                }
            })
        })
        .collect();
    let mut seen = vec![false; POSTERS * EACH];
    let mut taken = 0;
    let mut consumed = 0;
    let mut last = [None; POSTERS];
    while taken < POSTERS * EACH {
        let now = rings.load(Ordering::SeqCst);
        if now == consumed {
            std::thread::yield_now();
            continue;
        }
        consumed = now;
        mailbox.drain(|n| {
            assert!(!seen[n], "item {n} drained twice");
            seen[n] = true;
            // Each poster's items arrive in the order it posted them.
            let (p, i) = (n / EACH, n % EACH);
            assert!(last[p].is_none_or(|l| l < i), "poster {p} out of order");
            last[p] = Some(i);
            taken += 1;
        });
    }
    for p in posters {
        p.join().unwrap();
    }
    assert!(seen.iter().all(|&s| s));
    let rang = rings.load(Ordering::SeqCst);
    assert!((1..=POSTERS * EACH).contains(&rang), "rang {rang} times");
    // Nothing left, and the next post starts a new batch.
    assert_eq!(mailbox.drain(|_| {}), 0);
    assert!(mailbox.post(0));
}
