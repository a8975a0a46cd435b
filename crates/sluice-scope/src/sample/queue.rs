//! libuv's queue depth read from memory, without stopping the process.
//!
//! `wq` is a circular doubly linked list (`struct uv__queue { next, prev }`)
//! holding CPU and fast-I/O work; slow I/O waits in `slow_io_pending_wq`,
//! represented in `wq` by the one node `run_slow_work_message` while any is
//! pending. A reading walks `next` pointers from the head until it is back,
//! and reads `slow_io_work_running` (slow I/O on pool threads now: libuv
//! lets it hold at most `(nthreads + 1) / 2` threads).
//!
//! The walk races the process, which changes the list under its own lock.
//! A reading is kept only if every node's `prev` points back along the
//! walk, the walk returned to its head within [`WALK_LIMIT`] nodes, and
//! every read succeeded; a reading cut at the limit says so (`at_least`),
//! never passes for exact.

use crate::target::memory::RemoteMemory;

/// The most nodes one reading walks (per list), to bound a reading's cost
/// (one `pread` of 8 bytes per node).
pub(crate) const WALK_LIMIT: usize = 256;

/// Where libuv's queues are in the running process.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct QueueAddrs {
    /// `wq`.
    pub wq: u64,
    /// `run_slow_work_message` and `slow_io_pending_wq`, if known.
    pub slow: Option<(u64, u64)>,
    /// `slow_io_work_running`, if known.
    pub slow_running: Option<u64>,
}

/// One reading of the queue.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct QueueReading {
    /// Requests waiting for a pool thread (CPU, fast and slow I/O).
    pub depth: usize,
    /// Of those, slow I/O (`dns.lookup`, ...).
    pub slow: usize,
    /// The walk stopped at [`WALK_LIMIT`]: at least `depth` wait.
    pub at_least: bool,
    /// Slow I/O requests running on pool threads (libuv's
    /// `slow_io_work_running`), if its address is known and it read as a
    /// count libuv could hold (at most [`MAX_THREADS`]).
    pub slow_running: Option<u32>,
}

/// libuv's limit on pool threads (`MAX_THREADPOOL_SIZE`): a count read above
/// it is not libuv's.
pub(crate) const MAX_THREADS: u32 = 1024;

/// Walks the list whose head is `head`, skipping `skip`: `(count, cut,
/// saw_skip)`, or `None` if a read failed or the list tore under the walk.
///
/// Each node's `prev` must point back at the node the walk came from. A
/// node can leave the queue while it is walked and go on to another list
/// (libuv moves finished work to the loop's own `wq`); its `next` then
/// leads away from `head`, and its `prev` (or its successor's) no longer
/// matches: the reading is dropped rather than counted.
fn walk(mem: &RemoteMemory, head: u64, skip: Option<u64>) -> Option<(usize, bool, bool)> {
    let mut prev = head;
    let mut node = mem.u64(head).ok()?;
    let mut count = 0;
    let mut saw_skip = false;
    while node != head {
        if count >= WALK_LIMIT {
            return Some((count, true, saw_skip));
        }
        let mut links = [0u8; 16];
        mem.read(node, &mut links).ok()?;
        let next = u64::from_ne_bytes(links[..8].try_into().expect("8 bytes"));
        let back = u64::from_ne_bytes(links[8..].try_into().expect("8 bytes"));
        if back != prev || next == 0 {
            return None;
        }
        if Some(node) == skip {
            saw_skip = true;
        } else {
            count += 1;
        }
        prev = node;
        node = next;
    }
    // The head's own prev closes the circle.
    (mem.u64(head + 8).ok()? == prev).then_some((count, false, saw_skip))
}

/// Reads the queue once; `None` when the walk raced the process (a torn
/// list) or memory could not be read.
pub(crate) fn read(mem: &RemoteMemory, at: QueueAddrs) -> Option<QueueReading> {
    let (fast, cut, has_slow) = walk(mem, at.wq, at.slow.map(|(msg, _)| msg))?;
    let mut r = QueueReading {
        depth: fast,
        slow: 0,
        at_least: cut,
        slow_running: None,
    };
    if has_slow && let Some((_, pending)) = at.slow {
        let (slow, cut, _) = walk(mem, pending, None)?;
        r.slow = slow;
        r.depth += slow;
        r.at_least |= cut;
    }
    r.slow_running = at
        .slow_running
        .and_then(|addr| mem.u32(addr).ok())
        .filter(|n| *n <= MAX_THREADS);
    Some(r)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A libuv-style circular list in this process's own memory:
    /// `nodes[0]` is the head.
    fn list(n: usize) -> Vec<[u64; 2]> {
        let mut nodes = vec![[0u64; 2]; n + 1];
        let base = nodes.as_ptr() as u64;
        let addr = |i: usize| base + (i * 16) as u64;
        for (i, node) in nodes.iter_mut().enumerate() {
            *node = [addr((i + 1) % (n + 1)), addr((i + n) % (n + 1))];
        }
        nodes
    }

    /// The addresses of a queue of `wq` alone (no slow I/O list known).
    fn only(wq: &[[u64; 2]]) -> QueueAddrs {
        QueueAddrs {
            wq: wq.as_ptr() as u64,
            slow: None,
            slow_running: None,
        }
    }

    #[test]
    fn counts_an_empty_a_short_and_a_long_queue() {
        let mem = RemoteMemory::open(std::process::id()).unwrap();
        for n in [0, 3, WALK_LIMIT] {
            let r = read(&mem, only(&list(n))).unwrap();
            assert_eq!((r.depth, r.at_least), (n, false), "n = {n}");
        }
        let r = read(&mem, only(&list(WALK_LIMIT + 5))).unwrap();
        assert_eq!((r.depth, r.at_least), (WALK_LIMIT, true));
    }

    #[test]
    fn a_node_gone_to_another_list_tears_the_reading() {
        let mem = RemoteMemory::open(std::process::id()).unwrap();
        let mut wq = list(3);
        let other = list(2);
        // Node 2 left the queue for the other list, as libuv does with
        // finished work: its links now point into `other`.
        wq[2] = [other.as_ptr() as u64, other.as_ptr() as u64 + 32];
        assert_eq!(read(&mem, only(&wq)), None);
    }

    #[test]
    fn the_slow_sentinel_stands_for_the_pending_list() {
        let mem = RemoteMemory::open(std::process::id()).unwrap();
        let wq = list(4); // nodes 1..=4; node 2 plays run_slow_work_message
        let pending = list(7);
        let sentinel = wq.as_ptr() as u64 + 2 * 16;
        // slow_io_work_running, then a word no libuv pool could hold.
        let running: Box<[u32; 2]> = Box::new([2, 70_000]);
        let at = QueueAddrs {
            wq: wq.as_ptr() as u64,
            slow: Some((sentinel, pending.as_ptr() as u64)),
            slow_running: Some(running.as_ptr() as u64),
        };
        assert_eq!(
            read(&mem, at).unwrap(),
            QueueReading {
                depth: 3 + 7,
                slow: 7,
                at_least: false,
                slow_running: Some(2),
            }
        );
        let garbage = QueueAddrs {
            slow_running: Some(running.as_ptr() as u64 + 4),
            ..at
        };
        assert_eq!(read(&mem, garbage).unwrap().slow_running, None);
    }
}
