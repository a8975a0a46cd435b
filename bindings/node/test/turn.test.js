'use strict';
// A turn's calls handed to the pool together (src/turn.rs): a turn's first
// calls on a lane, as many as its thread budget (`limit`), go to it at
// once, the later ones are gathered and handed over 32 at a time and, for
// the rest, when the turn ends (the addon's prepare and check handles),
// whichever phase the turn's JavaScript ran in. Counts only: the FastIo
// lane's submitted_total read in the same turn and on a later one, and
// every call's outcome.
const test = require('node:test');
const assert = require('node:assert');
const { runChild } = require('./helpers.js');

// `n` pings made in one turn of the phase `phase` schedules; reports the
// FastIo lane's submissions just after they were made (`now`) and on a
// later turn (`later`), relative to before, and how many settled.
const burst = (phase, n) => `
  const s = require('./index.js');
  const fastio = () => s.metricsJson().pool.lanes.find((l) => l.lane === 'fastio').submitted_total;
  const out = { settled: 0, values: new Set() };
  s.ping().then(() => {
    out.limit = s.metricsJson().pool.lanes.find((l) => l.lane === 'fastio').limit;
    ${phase}(() => {
      const before = fastio();
      const calls = [];
      for (let i = 0; i < ${n}; i++) calls.push(s.ping().then((v) => { out.settled++; out.values.add(v); }));
      out.now = fastio() - before;
      setImmediate(() => {
        out.later = fastio() - before;
        Promise.all(calls).then(() => {
          out.values = [...out.values].map(String);
          // The turn's calls past the budget, handed over in parts of 32
          // while it ran.
          out.expectedNow = Math.min(${n}, out.limit) + 32 * Math.floor(Math.max(0, ${n} - out.limit) / 32);
          console.log(JSON.stringify(out));
        });
      });
    }${phase === 'setTimeout' ? ', 1' : ''});
  });`;

// Each test sets the FastIo lane's budget (SLUICE_FASTIO_THREADS), so that
// the counts do not depend on the machine's cores.
for (const [phase, label] of [
  ['queueMicrotask', 'a promise continuation (the poll phase)'],
  ['setTimeout', 'a timer'],
  ['setImmediate', 'an immediate (the check phase)'],
]) {
  test(`a burst of 10 from ${label}: the lane's budget goes at once, the rest when the turn ends, and all 10 settle`, () => {
    const r = runChild(burst(phase, 10), { env: { SLUICE_FASTIO_THREADS: '4' } });
    assert.strictEqual(r.status, 0, r.stderr);
    assert.strictEqual(r.json.limit, 4);
    assert.deepStrictEqual(r.json, { settled: 10, values: ['undefined'], limit: 4, now: 4, later: 10, expectedNow: 4 });
  });
}

test('a burst of 70: the budget at once, then two parts of 32 while the turn runs, the last 2 when it ends', () => {
  const r = runChild(burst('queueMicrotask', 70), { env: { SLUICE_FASTIO_THREADS: '4' } });
  assert.strictEqual(r.status, 0, r.stderr);
  assert.deepStrictEqual(r.json, { settled: 70, values: ['undefined'], limit: 4, now: 68, later: 70, expectedNow: 68 });
});

test('a burst no larger than the lane budget goes at once', () => {
  const r = runChild(burst('queueMicrotask', 6), { env: { SLUICE_FASTIO_THREADS: '8' } });
  assert.strictEqual(r.status, 0, r.stderr);
  assert.deepStrictEqual(r.json, { settled: 6, values: ['undefined'], limit: 8, now: 6, later: 6, expectedNow: 6 });
});

test('a bounded lane gathers nothing: a full queue must answer "busy" at the call', () => {
  const r = runChild(burst('queueMicrotask', 10), { env: { SLUICE_QUEUE_BOUND: '1000', SLUICE_FASTIO_THREADS: '4' } });
  assert.strictEqual(r.status, 0, r.stderr);
  assert.strictEqual(r.json.now, 10);
  assert.strictEqual(r.json.later, 10);
  assert.strictEqual(r.json.settled, 10);
});

test('a worker thread gathers on its own loop; one that exits with calls gathered hands them over and ends cleanly', () => {
  const r = runChild(`
    const { Worker } = require('node:worker_threads');
    const src = (exitAtOnce) => \`
      const { parentPort } = require('node:worker_threads');
      const s = require(\${JSON.stringify(process.cwd())});
      const fastio = () => s.metricsJson().pool.lanes.find((l) => l.lane === 'fastio').submitted_total;
      s.ping().then(() => {
        const before = fastio();
        const calls = [];
        for (let i = 0; i < 40; i++) calls.push(s.ping());
        const now = fastio() - before;
        if (\${exitAtOnce}) process.exit(0);
        Promise.all(calls).then((v) => parentPort.postMessage({ now, later: fastio() - before, settled: v.length }));
      });\`;
    const run = (exitAtOnce) => new Promise((res, rej) => {
      const w = new Worker(src(exitAtOnce), { eval: true });
      let msg = null;
      w.on('message', (m) => { msg = m; });
      w.on('error', rej);
      w.on('exit', (code) => res({ code, msg }));
    });
    (async () => {
      const out = { kept: await run(false), exited: await run(true) };
      // The process's own loop still gathers and settles after both.
      const s = require('./index.js');
      const v = await Promise.all(Array.from({ length: 5 }, () => s.ping()));
      out.main = v.length;
      console.log(JSON.stringify(out));
    })();`, { env: { SLUICE_FASTIO_THREADS: '4' } });
  assert.strictEqual(r.status, 0, r.stderr);
  // 40 in one turn: the budget's 4 at once, one part of 32, 4 at the
  // turn's end (the lane is shared, so "later" may count the other's work:
  // at least 40).
  assert.strictEqual(r.json.kept.code, 0);
  assert.strictEqual(r.json.kept.msg.now, 36);
  assert.ok(r.json.kept.msg.later >= 40, JSON.stringify(r.json));
  assert.strictEqual(r.json.kept.msg.settled, 40);
  assert.deepStrictEqual(r.json.exited, { code: 0, msg: null });
  assert.strictEqual(r.json.main, 5);
});
