'use strict';
// The preload keeps Node's behaviour around a call: the caller's async
// context (AsyncLocalStorage, domains, async_hooks), AbortSignal, and what
// a callback's exception does.
const test = require('node:test');
const assert = require('node:assert');
const { runChild } = require('./helpers.js');

const print = 'console.log(JSON.stringify(out))';

test('AsyncLocalStorage: the caller\'s store in every callback and promise form', () => {
  const r = runChild(`
    const fs = require('node:fs'), crypto = require('node:crypto'), zlib = require('node:zlib'), dns = require('node:dns');
    const { AsyncLocalStorage } = require('node:async_hooks');
    const s = require('.');
    const als = new AsyncLocalStorage();
    const packed = zlib.gzipSync('x');
    const forms = {
      readFile: (cb) => fs.readFile('package.json', cb),
      stat: (cb) => fs.stat('.', cb),
      pbkdf2: (cb) => crypto.pbkdf2('a', 'b', 1, 8, 'sha1', cb),
      scrypt: (cb) => crypto.scrypt('a', 'b', 8, { N: 16 }, cb),
      gzip: (cb) => zlib.gzip('x', cb),
      gunzip: (cb) => zlib.gunzip(packed, cb),
      lookup: (cb) => dns.lookup('localhost', cb),
      readFilePromise: (cb) => fs.promises.readFile('package.json').then(() => cb()),
      statPromise: (cb) => fs.promises.stat('.').then(() => cb()),
      lookupPromise: (cb) => dns.promises.lookup('localhost').then(() => cb()),
      apiPbkdf2: (cb) => s.crypto.pbkdf2('a', 'b', 1, 8, 'sha1').then(() => cb()),
      apiGunzip: (cb) => s.zlib.gunzip(packed).then(() => cb()),
    };
    const out = {};
    let left = 0;
    for (const [name, call] of Object.entries(forms)) {
      for (let i = 0; i < 3; i++) {
        left++;
        als.run({ id: name + i }, () => call(() => {
          const store = als.getStore();
          if (!store || store.id !== name + i) out[name] = (out[name] || []).concat([store ? store.id : null]);
          if (--left === 0) {
            out.calls = s.metricsJson().node.calls;
            ${print};
          }
        }));
      }
    }`, { args: ['-r', './patch.js'] });
  assert.strictEqual(r.status, 0, r.stderr);
  const { calls, ...lost } = r.json;
  assert.deepStrictEqual(lost, {}, 'every callback saw its caller\'s store');
  for (const op of ['readFile', 'stat', 'pbkdf2', 'scrypt', 'gzip', 'gunzip', 'lookup']) {
    assert.ok(calls[op] >= 3, `${op} ran through sluice: ${JSON.stringify(calls)}`);
  }
});

test('a throw in a pbkdf2 callback inside domain.run() reaches the domain', () => {
  const r = runChild(`
    const domain = require('node:domain'), crypto = require('node:crypto'), fs = require('node:fs');
    const out = { caught: [] };
    const d = domain.create();
    d.on('error', (e) => {
      out.caught.push(e.message);
      if (out.caught.length === 2) {
        out.calls = require('.').metricsJson().node.calls;
        ${print};
      }
    });
    d.run(() => {
      crypto.pbkdf2('a', 'b', 1, 8, 'sha1', () => { throw new Error('from pbkdf2'); });
      fs.stat('.', () => { throw new Error('from stat'); });
    });`, { args: ['-r', './patch.js'] });
  assert.strictEqual(r.status, 0, r.stderr);
  assert.deepStrictEqual(r.json.caught.sort(), ['from pbkdf2', 'from stat']);
  assert.strictEqual(r.json.calls.pbkdf2, 1);
  assert.strictEqual(r.json.calls.stat, 1);
});

test('async_hooks: one resource per callback call, with Node\'s type names', () => {
  const r = runChild(`
    const fs = require('node:fs'), crypto = require('node:crypto'), zlib = require('node:zlib'), dns = require('node:dns');
    const async_hooks = require('node:async_hooks');
    const types = {};
    let on = false;
    async_hooks.createHook({ init(id, type) { if (on) types[type] = (types[type] || 0) + 1; } }).enable();
    const packed = zlib.gzipSync('x');
    const run = (fn) => new Promise((res) => { on = true; fn(res); on = false; });
    (async () => {
      await run((cb) => fs.readFile('package.json', cb));
      await run((cb) => fs.stat('.', cb));
      await run((cb) => crypto.pbkdf2('a', 'b', 1, 8, 'sha1', cb));
      await run((cb) => crypto.scrypt('a', 'b', 8, { N: 16 }, cb));
      await run((cb) => zlib.gunzip(packed, cb));
      await run((cb) => dns.lookup('localhost', cb));
      const out = { types, calls: require('.').metricsJson().node.calls };
      ${print};
    })();`, { args: ['-r', './patch.js'] });
  assert.strictEqual(r.status, 0, r.stderr);
  const { types, calls } = r.json;
  // PIPEWRAP: the inbox's socket, opened at the first call (once).
  assert.deepStrictEqual(types, { FSREQCALLBACK: 2, PBKDF2REQUEST: 1, SCRYPTREQUEST: 1, ZLIB: 1, GETADDRINFOREQWRAP: 1, PIPEWRAP: 1 });
  // gzipStream: the zlib.gzipSync that made `packed` (its handle is sluice's,
  // run on the calling thread).
  assert.deepStrictEqual(calls, { readFile: 1, stat: 1, pbkdf2: 1, scrypt: 1, gunzip: 1, lookup: 1, gzipStream: 1 });
});

test('async_hooks see the requests Node makes, in Node\'s order: init, before, the callback, after, destroy (readFile: open, fstat, read, close)', () => {
  // The same script on plain node and under the preload; each call's
  // requests (its resources of Node's types), their triggers and the order
  // of their hooks and the callback, as ordinals. Identical, or the test fails.
  const script = `
    const fs = require('node:fs'), crypto = require('node:crypto'), dns = require('node:dns');
    const { createHook, executionAsyncResource } = require('node:async_hooks');
    const TYPES = new Set(['FSREQCALLBACK', 'PBKDF2REQUEST', 'GETADDRINFOREQWRAP']);
    let events = [];
    const ours = new Map();
    const resources = new Map();
    const name = (id) => (ours.has(id) ? 'r' + ours.get(id) : 'outside');
    createHook({
      init(id, type, trigger, resource) {
        if (!TYPES.has(type)) return;
        ours.set(id, ours.size);
        resources.set(id, resource);
        events.push(['init', type, name(id), name(trigger)]);
      },
      before(id) { if (ours.has(id)) events.push(['before', name(id), executionAsyncResource() === resources.get(id)]); },
      after(id) { if (ours.has(id)) events.push(['after', name(id)]); },
      destroy(id) { if (ours.has(id)) events.push(['destroy', name(id)]); },
    }).enable();
    const out = {};
    const calls = [
      ['readFile', (cb) => fs.readFile('package.json', cb)],
      ['readFileMissing', (cb) => fs.readFile('no-such-file', () => cb())],
      ['stat', (cb) => fs.stat('.', cb)],
      ['pbkdf2', (cb) => crypto.pbkdf2('a', 'b', 1, 8, 'sha1', cb)],
      ['lookup', (cb) => dns.lookup('localhost', cb)],
    ];
    const next = () => {
      const c = calls.shift();
      if (!c) { console.log(JSON.stringify(out)); return; }
      events = [];
      ours.clear();
      c[1](() => {
        events.push(['callback']);
        // The destroy hooks of the call's last request come after it.
        setTimeout(() => { out[c[0]] = events; next(); }, 20);
      });
    };
    next();`;
  const plain = runChild(script);
  const preload = runChild(script, { args: ['-r', './patch.js'] });
  assert.strictEqual(plain.status, 0, plain.stderr);
  assert.strictEqual(preload.status, 0, preload.stderr);
  assert.strictEqual(plain.json.readFile.filter((e) => e[0] === 'init').length, 4, JSON.stringify(plain.json.readFile));
  for (const call of Object.keys(plain.json)) {
    assert.deepStrictEqual(preload.json[call], plain.json[call], call);
  }
});

test('readFile steps through open, fstat, read and close only while a hook the package saw is enabled', () => {
  // A hook made before the package loaded (`early`) is not seen: it counts
  // the FSREQCALLBACKs of each readFile. Each readFile is one while no hook
  // the package saw is enabled, Node's four while one is (`late`, made
  // after the package loaded), one again once that is disabled; with
  // SLUICE_READFILE_STEPS=1, four throughout; =0, one throughout.
  const script = `
    const asyncHooks = require('node:async_hooks');
    const fs = require('node:fs');
    let seen = 0;
    asyncHooks.createHook({ init(id, type) { if (type === 'FSREQCALLBACK') seen++; } }).enable();
    require('./patch.js');
    const wrapped = asyncHooks.createHook;
    // A second copy of the package finds the wrapper and shares its count.
    for (const k of Object.keys(require.cache)) delete require.cache[k];
    require('.');
    const out = { sameWrapper: asyncHooks.createHook === wrapped, name: wrapped.name, length: wrapped.length };
    try { asyncHooks.createHook({ init: 1 }); } catch (e) { out.badArgument = e.code; }
    const readOnce = (cb) => { seen = 0; fs.readFile('package.json', (err, b) => { if (err) throw err; cb(seen); }); };
    const late = asyncHooks.createHook({ init() {} });
    readOnce((none) => {
      out.none = none;
      out.enableReturns = late.enable() === late;
      late.enable();
      readOnce((enabled) => {
        out.enabled = enabled;
        late.disable();
        late.disable();
        readOnce((disabled) => {
          out.disabled = disabled;
          ${print};
        });
      });
    });`;
  const expected = { auto: [1, 4, 1], 1: [4, 4, 4], 0: [1, 1, 1] };
  for (const [steps, [none, enabled, disabled]] of Object.entries(expected)) {
    const r = runChild(script, { env: { SLUICE_READFILE_STEPS: steps === 'auto' ? '' : steps } });
    assert.strictEqual(r.status, 0, r.stderr);
    assert.deepStrictEqual(r.json, {
      sameWrapper: true, name: 'createHook', length: 1, badArgument: 'ERR_ASYNC_CALLBACK',
      none, enableReturns: true, enabled, disabled,
    }, `SLUICE_READFILE_STEPS=${steps}`);
  }
  const bad = runChild('require("./patch.js")', { env: { SLUICE_READFILE_STEPS: 'sometimes' } });
  assert.notStrictEqual(bad.status, 0);
  assert.match(bad.stderr, /SLUICE_READFILE_STEPS="sometimes"/);
});

test('dns performance entries: a patched lookup makes the entry Node makes', () => {
  const script = `
    const { PerformanceObserver } = require('node:perf_hooks');
    const dns = require('node:dns');
    const got = [];
    const obs = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) got.push({ name: e.name, entryType: e.entryType, detail: e.detail, keys: Object.keys(e.toJSON()), times: [typeof e.startTime, typeof e.duration] });
    });
    obs.observe({ type: 'dns' });
    dns.lookup('localhost', () => dns.promises.lookup('localhost', { all: true }).then(() => setTimeout(() => {
      obs.disconnect();
      dns.lookup('localhost', () => setTimeout(() => console.log(JSON.stringify({ got, calls: require('.').metricsJson().node.calls })), 20));
    }, 20)));`;
  const plain = runChild(script);
  const preload = runChild(script, { args: ['-r', './patch.js'] });
  assert.strictEqual(plain.status, 0, plain.stderr);
  assert.strictEqual(preload.status, 0, preload.stderr);
  assert.strictEqual(preload.json.calls.lookup, 3, 'sluice ran the lookups');
  // Two entries (none after disconnect), as on plain node, with its fields.
  assert.strictEqual(plain.json.got.length, 2);
  assert.deepStrictEqual(preload.json.got, plain.json.got);
});

test('callback exceptions of one batch: each is uncaught before the next callback runs, as in Node', () => {
  const r = runChild(`
    const fs = require('node:fs');
    const seq = [];
    process.on('uncaughtException', (e) => seq.push('uncaught ' + e.message));
    let left = 4;
    const end = () => { if (--left === 0) setImmediate(() => { const out = { seq, calls: require('.').metricsJson().node.calls.stat }; ${print}; }); };
    for (let i = 0; i < 4; i++) fs.stat('.', () => { seq.push('cb ' + i); end(); if (i < 3) throw new Error('e' + i); });
  `, { args: ['-r', './patch.js'] });
  assert.strictEqual(r.status, 0, r.stderr);
  assert.strictEqual(r.json.calls, 4);
  // The four outcomes may come back in any order (the FastIo lane has more
  // than one thread); each throw is uncaught right after its callback.
  const seq = r.json.seq;
  assert.strictEqual(seq.length, 7, String(seq));
  assert.deepStrictEqual(seq.filter((e) => e.startsWith('cb ')).sort(), ['cb 0', 'cb 1', 'cb 2', 'cb 3']);
  seq.forEach((e, k) => {
    const m = /^cb (\d)$/.exec(e);
    if (m && m[1] !== '3') assert.strictEqual(seq[k + 1], `uncaught e${m[1]}`, String(seq));
  });
});

test('a callback exception with no handler: the crash points at the user\'s line', () => {
  const r = runChild([
    "const fs = require('node:fs');",
    "fs.stat('.', () => {",
    "  throw new Error('thrown at line three'); // the user's line",
    '});',
  ].join('\n'), { args: ['-r', './patch.js'] });
  assert.notStrictEqual(r.status, 0);
  // The banner: the throw's location, then its source line (warnings,
  // such as a debug build's, may come first).
  const lines = r.stderr.split('\n');
  const at = lines.findIndex((l) => /^(\[eval\]|\/.*):\d+$/.test(l));
  assert.strictEqual(lines[at], '[eval]:3', r.stderr);
  assert.match(lines[at + 1], /throw new Error\('thrown at line three'\); \/\/ the user's line/);
});

test('AbortSignal: an aborted signal rejects at once, an abort cancels queued work; Node\'s AbortError, no hand-off', () => {
  const r = runChild(`
    const fs = require('node:fs'), os = require('node:os'), path = require('node:path');
    const { execFileSync } = require('node:child_process');
    const s = require('.');
    s.configure({ fastIo: 1 });
    const { original } = s._internal;
    const d = (e) => e && { name: e.name, code: e.code, message: e.message, cause: e.cause && e.cause.name };
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sluice-abort-'));
    const fifo = path.join(dir, 'fifo');
    execFileSync('mkfifo', [fifo]);
    const out = {};
    (async () => {
      // Already aborted: callback (asynchronously) and promise forms, as Node.
      for (const [name, fn] of [['patched', fs.readFile], ['node', original.readFile]]) {
        let sync = true;
        out[name] = await new Promise((res) => { fn('package.json', { signal: AbortSignal.abort() }, (e) => res({ sync, ...d(e) })); sync = false; });
      }
      out.patchedPromise = await fs.promises.readFile('package.json', { signal: AbortSignal.abort() }).then(() => 'read', d);
      out.nodePromise = await original.readFilePromise('package.json', { signal: AbortSignal.abort() }).then(() => 'read', d);
      out.api = await s.fs.readFile('package.json', { signal: AbortSignal.abort() }).then(() => 'read', d);
      // The one FastIo worker waits on a FIFO nobody writes; a read queued
      // behind it is aborted: it rejects at once, and is never run.
      const stuck = fs.promises.readFile(fifo);
      const ac = new AbortController();
      const queued = fs.promises.readFile('package.json', { signal: ac.signal });
      const cbQueued = new Promise((res) => fs.readFile('package.json', { signal: ac.signal }, (e, b) => res(e ? d(e) : 'read')));
      await new Promise((res) => setTimeout(res, 50));
      const t0 = process.hrtime.bigint();
      ac.abort();
      out.queued = await queued.then(() => 'read', d);
      out.cbQueued = await cbQueued;
      out.abortMs = Number(process.hrtime.bigint() - t0) / 1e6 < 1000;
      const fastio = () => s.metricsJson().pool.lanes.find((l) => l.lane === 'fastio');
      const w = fs.openSync(fifo, 'w'); fs.writeSync(w, 'x'); fs.closeSync(w);
      out.stuck = (await stuck).toString();
      await s.ping();
      out.fallbacks = s.metricsJson().node.fallbacks.readFile || 0;
      out.calls = s.metricsJson().node.calls.readFile;
      fs.rmSync(dir, { recursive: true, force: true });
      ${print};
    })();`, {
    args: ['-r', './patch.js'],
    // No thread beside the blocked one; and every read on the lane, none
    // answered on the loop's thread (the no-wait path would read
    // package.json at once, not queue it behind the FIFO).
    env: { SLUICE_ADAPTIVE: 'off', SLUICE_NOWAIT: '0' },
  });
  assert.strictEqual(r.status, 0, r.stderr);
  const o = r.json;
  assert.deepStrictEqual(o.patched, o.node);
  assert.strictEqual(o.node.sync, true, 'Node calls it before returning');
  assert.strictEqual(o.node.code, 'ABORT_ERR');
  assert.deepStrictEqual(o.patchedPromise, o.nodePromise);
  assert.deepStrictEqual(o.api, o.nodePromise);
  assert.strictEqual(o.nodePromise.name, 'AbortError');
  assert.deepStrictEqual(o.queued, { name: 'AbortError', code: 'ABORT_ERR', message: 'The operation was aborted', cause: 'AbortError' });
  assert.deepStrictEqual(o.cbQueued, o.queued);
  assert.strictEqual(o.abortMs, true);
  assert.strictEqual(o.stuck, 'x');
  assert.strictEqual(o.fallbacks, 0, 'no hand-off to libuv');
  assert.strictEqual(o.calls, 6);
});

test('callback exceptions across batches: every callback runs once, every throw is uncaught once', () => {
  const r = runChild(`
    const fs = require('node:fs');
    const seq = [];
    process.on('uncaughtException', (e) => seq.push('uncaught'));
    const n = 200;
    let left = n;
    const order = [];
    for (let i = 0; i < n; i++) {
      fs.stat('.', () => {
        order.push(i);
        if (--left === 0) setImmediate(() => { console.log(JSON.stringify({ uncaught: seq.length, order })); });
        if (i % 7 === 0) throw new Error('e' + i);
      });
    }
  `, { args: ['-r', './patch.js'], env: { SLUICE_ADAPTIVE: 'off' } });
  assert.strictEqual(r.status, 0, r.stderr);
  assert.strictEqual(r.json.uncaught, Math.ceil(200 / 7));
  assert.strictEqual(r.json.order.length, 200);
});

test('a drain larger than the slab: 3000 stats waiting at once, throws in the first slab; each callback runs once with its Stats', () => {
  // The loop is kept busy until the workers have posted every outcome, so
  // the first drain finds more than its slab holds (64, then it grows) and
  // the first callback throws with the inbox still full behind it.
  const r = runChild(`
    const fs = require('node:fs');
    const want = fs.statSync('.');
    let uncaught = 0;
    process.on('uncaughtException', () => { uncaught++; });
    const n = 3000;
    let left = n, good = 0;
    const seen = new Set();
    for (let i = 0; i < n; i++) {
      fs.stat('.', (err, s) => {
        if (err === null && s instanceof fs.Stats && s.isDirectory() && s.ino === want.ino &&
            s.mtimeMs === want.mtimeMs && !seen.has(i)) good++;
        seen.add(i);
        if (--left === 0) setImmediate(() => { console.log(JSON.stringify({ uncaught, good, seen: seen.size })); });
        if (i % 500 === 0) throw new Error('e' + i);
      });
    }
    const until = Date.now() + 300;
    while (Date.now() < until);
  `, { args: ['-r', './patch.js'] });
  assert.strictEqual(r.status, 0, r.stderr);
  assert.deepStrictEqual(r.json, { uncaught: 6, good: 3000, seen: 3000 });
});
