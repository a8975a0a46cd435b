//! No lost wake-up in the mailbox: two posters race a loop that drains after
//! each ring it sees. When both posters are done, the loop drains once per
//! ring it has not answered yet, and must then hold both items: an item left
//! in the queue with no ring pending is exactly the lost wake-up the
//! mailbox's armed flag exists to prevent, and the final assert catches it.

use crate::loom::sync::atomic::{AtomicUsize, Ordering};
use crate::mailbox::Mailbox;
use loom::thread;
use std::sync::Arc;

#[test]
fn loom_mailbox_two_posters_one_loop() {
    loom::model(|| {
        let rings = Arc::new(AtomicUsize::new(0));
        let bell = Arc::clone(&rings);
        let mailbox = Arc::new(Mailbox::new(move || {
            bell.fetch_add(1, Ordering::SeqCst);
        }));
        let posters: Vec<_> = [1u8, 2]
            .into_iter()
            .map(|n| {
                let m = Arc::clone(&mailbox);
                thread::spawn(move || {
                    m.post(n);
                })
            })
            .collect();
        let mut got = Vec::new();
        let mut answered = 0;
        // The loop, while the posters run: answer a ring if one is there.
        if rings.load(Ordering::SeqCst) > answered {
            answered += 1;
            mailbox.drain(|n| got.push(n));
        }
        for p in posters {
            p.join().unwrap();
        }
        // The loop after them: answer every ring still pending, and only
        // those (a real loop sleeps until its bell rings).
        while rings.load(Ordering::SeqCst) > answered {
            answered += 1;
            mailbox.drain(|n| got.push(n));
        }
        got.sort_unstable();
        assert_eq!(got, [1, 2], "an item was posted but never drained");
    });
}
