'use strict';
// lib/waiting.js, the table of calls waiting for their outcomes: a ring by
// id with a Map beside it for ids whose slot is taken. Counted against a
// Map doing the same operations; and end to end, a call held in flight
// while more than a ring's worth of later calls come and go.
const test = require('node:test');
const assert = require('node:assert');
const { Waiting, RING } = require('../lib/waiting.js');
const { runChild } = require('./helpers.js');

test('the waiting table answers as a Map would, through collisions and the overflow', () => {
  const w = new Waiting();
  const m = new Map();
  // A deterministic walk: ids one after another, some left waiting for
  // several rings (they collide with later ids), others settled at once,
  // and lookups of ids that never waited or waited and left.
  let seed = 7;
  const rand = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const live = [];
  for (let id = 1; id <= 5 * RING; id++) {
    const fn = () => id;
    w.set(id, fn);
    m.set(id, fn);
    live.push(id);
    if (rand() < 0.9) {
      const at = Math.floor(rand() * live.length);
      const gone = live[at];
      if (rand() < 0.5 || gone !== 1) {
        live.splice(at, 1);
        assert.strictEqual(w.delete(gone), m.delete(gone));
        assert.strictEqual(w.delete(gone), false);
      }
    }
    const probe = Math.floor(rand() * (id + RING)) + 1;
    assert.strictEqual(w.get(probe), m.get(probe), `get(${probe}) after id ${id}`);
    assert.strictEqual(w.size, m.size);
  }
  for (const id of live) assert.strictEqual(w.get(id), m.get(id));
  assert.ok(w.over.size > 0, 'the walk reached the overflow');
  for (const id of live) assert.strictEqual(w.delete(id), true);
  assert.strictEqual(w.size, 0);
  assert.strictEqual(w.over.size, 0);
});

test('more than a ring of calls in flight at once: every one settles, with its own outcome', () => {
  const r = runChild(`
    const s = require('.');
    const { RING } = require('./lib/waiting.js');
    const fs = require('node:fs'), path = require('node:path'), os = require('node:os');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sluice-ring-'));
    for (let i = 0; i < 8; i++) fs.writeFileSync(path.join(dir, String(i)), String(i));
    const out = {};
    // Submitted in one synchronous burst: no outcome is handed out before
    // the loop turns, so all 3 rings' worth wait at once, and two of every
    // three take an overflow place (their slot holds an id RING before).
    let wrong = 0, done = 0;
    const calls = [s.crypto.scrypt('pw', 'salt', 16, { N: 1024, r: 8, p: 1 }).then((k) => k.length)];
    for (let i = 0; i < 3 * RING; i++) {
      const name = String(i % 8);
      calls.push(s.fs.readFile(path.join(dir, name)).then((b) => { done++; if (b.toString() !== name) wrong++; }));
    }
    out.inFlight = s._internal.pending();
    Promise.all(calls).then(([scrypt]) => {
      Object.assign(out, { readFiles: done, wrong, scrypt, pending: s._internal.pending() });
      fs.rmSync(dir, { recursive: true });
      console.log(JSON.stringify(out));
    });
  `);
  assert.strictEqual(r.status, 0, r.stderr);
  assert.deepStrictEqual(r.json, { inFlight: 3 * RING + 1, readFiles: 3 * RING, wrong: 0, scrypt: 16, pending: 0 });
});
