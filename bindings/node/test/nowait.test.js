'use strict';
// The no-wait path (lib/ops.js, sluice::nowait): a lone fs.stat,
// fs.readFile of a small file, or dns.lookup of a hosts-file name is
// answered on the loop's thread, with Node's result, still from a later
// turn of the loop; a burst goes to the FastIo lane; SLUICE_NOWAIT=0 turns
// it off. Counts only (metricsJson().node.nowait, the lane's totals).
const test = require('node:test');
const assert = require('node:assert');
const { runChild, runPatched } = require('./helpers.js');

const print = 'console.log(JSON.stringify(out))';

// What the child reports: each call's outcome on the preload and on Node's
// own function, whether its callback came before the call returned, the
// no-wait counts, and the FastIo lane's submissions.
const lone = `
  const fs = require('node:fs'), dns = require('node:dns');
  const s = require('./index.js');
  const { original } = s._internal;
  const out = { sync: [] };
  const fastio = () => s.metricsJson().pool.lanes.find((l) => l.lane === 'fastio').submitted_total;
  const call = (fn, ...args) => new Promise((res) => {
    let sync = true;
    fn(...args, (err, ...rest) => { out.sync.push(sync); res(err ? { code: err.code, syscall: err.syscall, path: err.path, message: err.message } : rest); });
    sync = false;
  });
  const statKeys = (st) => Array.isArray(st) ? Object.entries(st[0]).filter(([k]) => !/^atime/.test(k)).map(([k, v]) => [k, v instanceof Date ? v.getTime() : v]) : st;
  (async () => {
    // Node's own calls first: the path, the file and the name are then in
    // the kernel's caches (a negative entry for the missing path).
    const node = {
      stat: statKeys(await call(original.stat, 'package.json')),
      missing: await call(original.stat, 'no-such-file.json'),
      read: (await call(original.readFile, 'package.json'))[0].toString('hex'),
      lookup: await call(original.lookup, 'localhost', { family: 4 }),
    };
    await s.ping();
    const before = fastio();
    out.sync = [];
    const mine = {
      stat: statKeys(await call(fs.stat, 'package.json')),
      missing: await call(fs.stat, 'no-such-file.json'),
      read: (await call(fs.readFile, 'package.json'))[0].toString('hex'),
      lookup: await call(dns.lookup, 'localhost', { family: 4 }),
    };
    out.same = JSON.stringify(node) === JSON.stringify(mine) || { node, mine };
    out.nowait = s.metricsJson().node.nowait;
    out.lane = fastio() - before;
    ${print};
  })();`;

test('a lone stat, readFile and lookup are answered on the loop thread, as Node answers them, from a later turn', () => {
  const r = runPatched(lone);
  assert.strictEqual(r.status, 0, r.stderr);
  const o = r.json;
  assert.strictEqual(o.same, true, JSON.stringify(o.same));
  assert.deepStrictEqual(o.sync, [false, false, false, false], 'no callback before its call returned');
  assert.deepStrictEqual(o.nowait, { stat: 2, readFile: 1, lookup: 1, zlibStream: 0, open: 0, read: 0 });
  assert.strictEqual(o.lane, 0, 'none reached the FastIo lane');
});

test('SLUICE_NOWAIT=0: every one on the lane, the same answers', () => {
  const r = runPatched(lone, { SLUICE_NOWAIT: '0' });
  assert.strictEqual(r.status, 0, r.stderr);
  const o = r.json;
  assert.strictEqual(o.same, true, JSON.stringify(o.same));
  assert.deepStrictEqual(o.nowait, { stat: 0, readFile: 0, lookup: 0, zlibStream: 0, open: 0, read: 0 });
  assert.strictEqual(o.lane, 3, 'stat, the missing stat and readFile');
});

test('a burst goes to the FastIo lane: at most 4 answered at once while calls are in flight', () => {
  const r = runPatched(`
    const fs = require('node:fs');
    const s = require('./index.js');
    fs.statSync('package.json');
    const out = {};
    let left = 64;
    for (let i = 0; i < 64; i++) fs.stat('package.json', (err) => { if (err) throw err; if (--left === 0) { out.nowait = s.metricsJson().node.nowait.stat; out.lane = s.metricsJson().pool.lanes.find((l) => l.lane === 'fastio').submitted_total; ${print}; } });`);
  assert.strictEqual(r.status, 0, r.stderr);
  assert.strictEqual(r.json.nowait, 4);
  // The warm-up's task and the other 60.
  assert.strictEqual(r.json.lane, 61);
});

test('Cpu work in flight does not close it: beside 8 pbkdf2 calls, a lone stat and readFile are answered on the loop thread', () => {
  const r = runPatched(`
    const fs = require('node:fs'), crypto = require('node:crypto');
    const s = require('./index.js');
    fs.statSync('package.json');
    fs.readFileSync('package.json');
    const lanes = () => Object.fromEntries(s.metricsJson().pool.lanes.map((l) => [l.lane, l.submitted_total]));
    const out = {};
    let hashes = 8;
    // After the pool's warm-up task (the first turn's), as in the lone test.
    s.ping().then(() => {
    for (let i = 0; i < 8; i++) {
      crypto.pbkdf2('pw', 'salt', 200000, 64, 'sha512', (err) => { if (err) throw err; if (--hashes === 0) { out.after = lanes(); ${print}; } });
    }
    // Read on the next phase: the turn's calls after its first are handed
    // to the lane when the turn ends (src/turn.rs).
    setImmediate(() => {
    out.before = lanes();
    fs.stat('package.json', (err) => {
      if (err) throw err;
      fs.readFile('package.json', (err) => {
        if (err) throw err;
        out.nowait = s.metricsJson().node.nowait;
        out.during = lanes();
        out.hashesLeft = hashes;
      });
    });
    });
    });`);
  assert.strictEqual(r.status, 0, r.stderr);
  const o = r.json;
  assert.ok(o.hashesLeft > 0, 'the stat and readFile were answered while hashes were in flight');
  assert.strictEqual(o.before.cpu, 8);
  assert.strictEqual(o.nowait.stat, 1);
  assert.strictEqual(o.nowait.readFile, 1);
  assert.strictEqual(o.during.fastio, o.before.fastio, `neither reached the FastIo lane: ${JSON.stringify(o)}`);
});

test('fs.createReadStream: a read-only open and the reads of a cached file on the loop thread, the close on the lane', () => {
  const source = `
    const fs = require('node:fs');
    fs.readFileSync('package.json');
    const s = require('./index.js');
    const fastio = () => s.metricsJson().pool.lanes.find((l) => l.lane === 'fastio').submitted_total;
    s.ping().then(() => {
      const before = fastio();
      const chunks = [];
      fs.createReadStream('package.json', { highWaterMark: 256 }).on('data', (c) => chunks.push(c)).on('close', () => {
        const out = { same: Buffer.concat(chunks).equals(fs.readFileSync('package.json')), nowait: s.metricsJson().node.nowait, lane: fastio() - before };
        ${print};
      });
    });`;
  const r = runPatched(source);
  assert.strictEqual(r.status, 0, r.stderr);
  const o = r.json;
  assert.strictEqual(o.same, true);
  assert.strictEqual(o.nowait.open, 1);
  // package.json in 256-byte reads, and the one that finds its end.
  assert.ok(o.nowait.read >= 2, JSON.stringify(o));
  assert.strictEqual(o.lane, 1, 'only the close on the FastIo lane');
  const off = runPatched(source, { SLUICE_NOWAIT: '0' });
  assert.strictEqual(off.status, 0, off.stderr);
  assert.strictEqual(off.json.same, true);
  assert.strictEqual(off.json.nowait.open + off.json.nowait.read, 0);
  assert.strictEqual(off.json.lane, o.nowait.read + 2, 'the open, every read and the close on the lane');
});

// A gzip stream of `size` bytes through the preload and on plain node: the
// same bytes; the writes the no-wait path ran and the Cpu lane's tasks.
const gzipStream = (size) => `
  const zlib = require('node:zlib');
  const input = Buffer.alloc(${size}, 'sluice lanes ');
  const gz = (done) => { const chunks = []; const z = zlib.createGzip(); z.on('data', (c) => chunks.push(c)); z.on('end', () => done(Buffer.concat(chunks))); z.end(input); };
  gz((bytes) => {
    let sync = true;
    const out = { hex: require('node:crypto').createHash('sha256').update(bytes).digest('hex') };
    const m = process.env.SLUICE_CHILD_PRELOAD ? require('./index.js').metricsJson() : null;
    if (m) { out.nowait = m.node.nowait.zlibStream; out.cpu = m.pool.lanes.find((l) => l.lane === 'cpu').submitted_total; }
    ${print};
  });`;

test('zlib streams: a small write runs on the loop thread, a large one on the Cpu lane; the bytes are Node\'s', () => {
  for (const [size, onLoop] of [[2048, true], [1 << 20, false]]) {
    const plain = runChild(gzipStream(size));
    assert.strictEqual(plain.status, 0, plain.stderr);
    const r = runPatched(gzipStream(size), { SLUICE_CHILD_PRELOAD: '1' });
    assert.strictEqual(r.status, 0, r.stderr);
    assert.strictEqual(r.json.hex, plain.json.hex, `${size} bytes: the same gzip bytes`);
    if (onLoop) {
      assert.ok(r.json.nowait >= 1, `${size} bytes: ${JSON.stringify(r.json)}`);
      assert.strictEqual(r.json.cpu, 0, 'no write reached the Cpu lane');
    } else {
      assert.ok(r.json.cpu >= 1, `${size} bytes: ${JSON.stringify(r.json)}`);
    }
    const off = runPatched(gzipStream(size), { SLUICE_CHILD_PRELOAD: '1', SLUICE_NOWAIT: '0' });
    assert.strictEqual(off.status, 0, off.stderr);
    assert.strictEqual(off.json.hex, plain.json.hex);
    assert.strictEqual(off.json.nowait, 0);
  }
});

test('a bad SLUICE_NOWAIT stops the load with ERR_SLUICE_ENV, naming it', () => {
  const r = runChild("require('./index.js')", { env: { SLUICE_NOWAIT: 'sometimes' } });
  assert.notStrictEqual(r.status, 0);
  assert.match(r.stderr, /ERR_SLUICE_ENV/);
  assert.match(r.stderr, /SLUICE_NOWAIT="sometimes"/);
});
