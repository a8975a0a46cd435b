'use strict';
// The calls waiting for their outcomes, by operation id: what lib/inbox.js
// looks each outcome up in.
//
// Not a Map: a Map whose entries come and go at this rate (one set and one
// delete per call, hundreds of thousands a second) rebuilds its hash table
// again and again, and a table that had lived long enough to reach V8's
// old generation keeps, once replaced, pointing at the young callbacks it
// held. The scavenger treats such old-to-young pointers as roots, so those
// callbacks, their promises and closures were promoted too, died there, and
// took mark-compact collections to free: with 1000 calls in flight under
// the preload, 35% of the loop thread's samples were the collector (5%
// otherwise) and `sluice.ping()` ran at 0.6-0.8 M/s against 1.4-1.5 M/s
// with this table (docs/npm.md).
//
// Ids come from the inbox one after another (src/inbox.rs), so a ring of
// slots indexed by the id's low bits holds the calls in flight without a
// hash or a rebuild; each slot keeps its id, so a lookup never answers for
// another call. A call whose slot is taken (more than RING calls apart from
// one still in flight) waits in a Map beside it.

const RING = 4096;
const MASK = RING - 1;

class Waiting {
  constructor() {
    this.ids = new Float64Array(RING);
    this.fns = new Array(RING).fill(undefined);
    this.over = new Map();
    this.size = 0;
  }

  /** Operation `id` (a whole number, unique in this inbox) waits with `fn`. */
  set(id, fn) {
    const i = id & MASK;
    if (this.fns[i] === undefined) {
      this.ids[i] = id;
      this.fns[i] = fn;
    } else {
      this.over.set(id, fn);
    }
    this.size++;
  }

  /** What operation `id` waits with, or undefined. */
  get(id) {
    const i = id & MASK;
    if (this.ids[i] === id && this.fns[i] !== undefined) return this.fns[i];
    return this.over.size === 0 ? undefined : this.over.get(id);
  }

  /** Operation `id` waits no more; whether it was waiting. */
  delete(id) {
    const i = id & MASK;
    if (this.ids[i] === id && this.fns[i] !== undefined) {
      this.fns[i] = undefined;
      this.size--;
      return true;
    }
    if (this.over.size !== 0 && this.over.delete(id)) {
      this.size--;
      return true;
    }
    return false;
  }
}

module.exports = { Waiting, RING };
