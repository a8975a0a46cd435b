'use strict';
// No lost result: sizes Node refuses are refused the same way, before
// anything is allocated; one outcome V8 cannot take settles its own call
// with an error and leaves its batch alone; a second copy of the package in
// the same thread (a require.cache reset, as jest does) never takes the
// first copy's outcomes; a refused SLUICE_* variable is reported once.
const test = require('node:test');
const assert = require('node:assert');
const os = require('node:os');
const { runChild, hasTestHooks } = require('./helpers.js');

const print = 'console.log(JSON.stringify(out))';

test('readFile over 2 GiB: Node\'s ERR_FS_FILE_TOO_LARGE, from the size, in every form', () => {
  // Sparse files: 2 GiB (one byte over Node's limit) and 5 GiB (over 4 GiB).
  const r = runChild(`
    const fs = require('node:fs'), os = require('node:os'), path = require('node:path'), util = require('node:util');
    const s = require('.');
    const { original } = s._internal;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sluice-big-'));
    const two = path.join(dir, 'two'), five = path.join(dir, 'five');
    fs.writeFileSync(two, ''); fs.truncateSync(two, 2 ** 31);
    fs.writeFileSync(five, ''); fs.truncateSync(five, 5 * 2 ** 30);
    const d = (e) => e && { name: e.name, code: e.code, message: e.message, stack0: e.stack.split('\\n')[0] };
    const viaCb = (fn, ...a) => new Promise((res) => fn(...a, (e, v) => res(e ? d(e) : { len: v.length })));
    const viaP = (p) => p.then((v) => ({ len: v.length }), d);
    (async () => {
      const out = {};
      for (const [name, file] of [['two', two], ['five', five]]) {
        out[name] = {
          node: await viaCb(original.readFile, file),
          nodePromise: await viaP(original.readFilePromise(file)),
          patched: await viaCb(fs.readFile, file),
          patchedPromise: await viaP(fs.promises.readFile(file)),
          api: await viaP(s.fs.readFile(file)),
        };
      }
      out.calls = s.metricsJson().node.calls.readFile;
      out.rssMiB = process.memoryUsage().rss / 2 ** 20;
      fs.rmSync(dir, { recursive: true, force: true });
      ${print};
    })();`, { args: ['-r', './patch.js'] });
  assert.strictEqual(r.status, 0, r.stderr);
  for (const name of ['two', 'five']) {
    const o = r.json[name];
    assert.strictEqual(o.node.code, 'ERR_FS_FILE_TOO_LARGE', JSON.stringify(o.node));
    for (const form of ['nodePromise', 'patched', 'patchedPromise', 'api']) {
      assert.deepStrictEqual(o[form], o.node, `${name} ${form}`);
    }
  }
  assert.strictEqual(r.json.calls, 6, 'sluice ran them (no hand-off to Node)');
  assert.ok(r.json.rssMiB < 1024, `nothing was read into memory (RSS ${r.json.rssMiB} MiB)`);
});

test('a >4 GiB readFile among 39 stats: every call settles, nothing is uncaught', () => {
  const r = runChild(`
    const fs = require('node:fs'), os = require('node:os'), path = require('node:path');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sluice-big-'));
    const five = path.join(dir, 'five');
    fs.writeFileSync(five, ''); fs.truncateSync(five, 5 * 2 ** 30);
    const out = { uncaught: [], stats: 0, statErrors: 0 };
    process.on('uncaughtException', (e) => out.uncaught.push(e.code || e.message));
    let left = 40;
    const done = () => { if (--left === 0) { fs.rmSync(dir, { recursive: true, force: true }); ${print}; } };
    fs.readFile(five, (e) => { out.big = e && e.code; done(); });
    for (let i = 0; i < 39; i++) fs.stat(dir, (e, st) => { if (e) out.statErrors++; else if (st.isDirectory()) out.stats++; done(); });
    setTimeout(() => { out.timeout = left; ${print}; process.exit(0); }, 60000).unref();
  `, { args: ['-r', './patch.js'] });
  assert.strictEqual(r.status, 0, r.stderr);
  assert.deepStrictEqual(r.json, { uncaught: [], stats: 39, statErrors: 0, big: 'ERR_FS_FILE_TOO_LARGE' });
});

test('gunzip: maxOutputLength (default buffer.kMaxLength) as Node refuses it: ERR_BUFFER_TOO_LARGE to the caller', () => {
  const r = runChild(`
    const zlib = require('node:zlib'), util = require('node:util'), { kMaxLength } = require('node:buffer');
    const s = require('.');
    const { original } = s._internal;
    const packed = zlib.gzipSync(Buffer.alloc(100000));
    const d = (e) => e && { name: e.name, code: e.code, message: e.message, stack0: e.stack.split('\\n')[0] };
    const viaCb = (fn, ...a) => new Promise((res) => fn(...a, (e, v) => res(e ? d(e) : { len: v.length })));
    (async () => {
      const out = {};
      for (const max of [10, 99999, 100000]) {
        out[max] = {
          node: await viaCb(original.gunzip, packed, { maxOutputLength: max }),
          patched: await viaCb(zlib.gunzip, packed, { maxOutputLength: max }),
          promisified: await util.promisify(zlib.gunzip)(packed, { maxOutputLength: max }).then((v) => ({ len: v.length }), d),
          api: await s.zlib.gunzip(packed, { maxOutputLength: max }).then((v) => ({ len: v.length }), d),
        };
      }
      out.calls = s.metricsJson().node.calls.gunzip;
      out.defaultMax = s._internal.shapes.gunzipMaxOutput(undefined) === kMaxLength &&
        s._internal.shapes.gunzipMaxOutput({}) === kMaxLength;
      out.badMax = [0, -1, 1.5, kMaxLength + 1, 'x'].map((m) => s._internal.shapes.gunzipMaxOutput({ maxOutputLength: m }));
      ${print};
    })();`, { args: ['-r', './patch.js'] });
  assert.strictEqual(r.status, 0, r.stderr);
  for (const max of ['10', '99999', '100000']) {
    const o = r.json[max];
    for (const form of ['patched', 'promisified', 'api']) assert.deepStrictEqual(o[form], o.node, `${max} ${form}`);
  }
  assert.strictEqual(r.json['10'].node.code, 'ERR_BUFFER_TOO_LARGE');
  assert.deepStrictEqual(r.json['100000'].node, { len: 100000 });
  assert.strictEqual(r.json.calls, 9, 'sluice ran them');
  assert.strictEqual(r.json.defaultMax, true);
  assert.deepStrictEqual(r.json.badMax, [null, null, null, null, null], 'values Node refuses are Node\'s');
});

test('a result V8 cannot take settles that call with an error; the rest of its batch settles', (t) => {
  if (!hasTestHooks(t)) return;
  // An outcome of buffer.kMaxLength + 1 bytes (zero pages never touched):
  // over the limit the package checks, and, with the check lifted, one
  // that V8 itself refuses where kMaxLength is 4 GiB (Node 20).
  const r = runChild(`
    const fs = require('node:fs');
    const { kMaxLength } = require('node:buffer');
    const s = require('.');
    const out = { uncaught: [] };
    process.on('uncaughtException', (e) => out.uncaught.push(e.code || e.message));
    const round = (limit) => new Promise((resolve) => {
      if (limit !== undefined) s._internal.setDrainLimitForTest(limit);
      const r = { stats: 0 };
      let left = 21;
      const done = () => { if (--left === 0) resolve(r); };
      s._internal.oversizedForTest(kMaxLength + 1, (e, v) => { r.big = e ? [e.name, e.code] : v.length; done(); });
      for (let i = 0; i < 20; i++) fs.stat('.', (e) => { if (!e) r.stats++; done(); });
    });
    (async () => {
      out.checked = await round();
      out.refusedByV8 = await round(Infinity);
      out.kMaxLength = kMaxLength;
      out.pending = s._internal.pending();
      ${print};
    })();
    setTimeout(() => { console.log(JSON.stringify({ timeout: true, ...out })); process.exit(0); }, 60000).unref();
  `, { args: ['-r', './patch.js'] });
  assert.strictEqual(r.status, 0, r.stderr);
  const o = r.json;
  assert.deepStrictEqual(o.uncaught, []);
  assert.deepStrictEqual(o.checked, { stats: 20, big: ['RangeError', 'ERR_BUFFER_TOO_LARGE'] });
  assert.strictEqual(o.refusedByV8.stats, 20);
  if (o.kMaxLength <= 2 ** 32) {
    // Node's own error from napi_create_external_buffer, as Node raised it.
    assert.strictEqual(o.refusedByV8.big[1], 'ERR_BUFFER_TOO_LARGE', JSON.stringify(o.refusedByV8));
  }
  assert.strictEqual(o.pending, 0);
});

test('two copies of the package in one thread (require.cache reset): each settles its own calls', () => {
  const r = runChild(`
    const path = require('node:path');
    const first = require('.');
    const keys = Object.keys(require.cache).filter((k) => k.startsWith(process.cwd() + path.sep) && !k.endsWith('.node'));
    for (const k of keys) delete require.cache[k];
    const second = require('.');
    const out = { distinct: first !== second, inboxes: first._internal.inbox !== second._internal.inbox,
      slots: [typeof first._internal.slot, first._internal.slot !== second._internal.slot] };
    const calls = [];
    for (let i = 0; i < 50; i++) {
      calls.push(first.crypto.pbkdf2('a', String(i), 1, 8, 'sha1').then(() => 'first'));
      calls.push(second.fs.stat('.').then(() => 'second'));
      calls.push(first.fs.readFile(__filename || 'package.json').catch(() => first.fs.readFile('package.json')).then(() => 'first'));
      calls.push(second.crypto.randomBytes(4).then(() => 'second'));
    }
    const timer = setTimeout(() => { out.hung = true; console.log(JSON.stringify(out)); process.exit(0); }, 30000);
    Promise.all(calls).then((who) => {
      clearTimeout(timer);
      out.first = who.filter((w) => w === 'first').length;
      out.second = who.filter((w) => w === 'second').length;
      out.pending = [first._internal.pending(), second._internal.pending()];
      ${print};
    });`);
  assert.strictEqual(r.status, 0, r.stderr);
  assert.deepStrictEqual(r.json, { distinct: true, inboxes: true, slots: ['number', true], first: 100, second: 100, pending: [0, 0] });
});

test('an operation names its inbox by slot: a slot with no inbox in this thread is a clear error, not another copy\'s inbox', () => {
  const r = runChild(`
    const { Worker } = require('node:worker_threads');
    const s = require('.');
    const { native, slot } = s._internal;
    const refused = (n) => { try { native.noop(n); return 'accepted'; } catch (e) { return e.message; } };
    const out = { own: typeof native.noop(slot), other: refused(slot + 1000), notNumber: refused(s._internal.inbox) };
    // A Worker's copy opens its own inbox on its own thread: the main
    // thread's slot names nothing there.
    const w = new Worker(\`
      const { parentPort, workerData } = require('node:worker_threads');
      const s = require(workerData.dir);
      let refused;
      try { s._internal.native.noop(workerData.slot + 1000); refused = 'accepted'; } catch (e) { refused = e.message; }
      s.ping().then(() => parentPort.postMessage({ refused, pinged: true }));
    \`, { eval: true, workerData: { dir: process.cwd(), slot } });
    w.on('message', (m) => { out.worker = m; s.ping().then(() => { out.pinged = true; ${print}; }); });
  `);
  assert.strictEqual(r.status, 0, r.stderr);
  const o = r.json;
  assert.strictEqual(o.own, 'number');
  assert.match(o.other, /no open inbox in slot \d+ on this thread/);
  assert.match(o.notNumber, /number|u32|Expect/i);
  assert.match(o.worker.refused, /no open inbox in slot \d+ on this thread/);
  assert.strictEqual(o.worker.pinged, true);
  assert.strictEqual(o.pinged, true);
});

test('a refused SLUICE_* variable: one warning naming it and its value; calls run on Node; configure and metrics say why', () => {
  const tooMany = String(os.availableParallelism() + 1);
  for (const [variable, value] of [['SLUICE_CPU_THREADS', tooMany], ['SLUICE_CPU_THREADS', 'abc'], ['SLUICE_CPU_SCHED', 'fast']]) {
    const r = runChild(`
      const fs = require('node:fs'), zlib = require('node:zlib'), dns = require('node:dns'), crypto = require('node:crypto');
      const s = require('.');
      const out = {};
      (async () => {
        out.readFile = (await fs.promises.readFile('package.json')).length > 0;
        out.stat = await new Promise((res) => fs.stat('.', (e, st) => res(!e && st.isDirectory())));
        out.gzip = await new Promise((res) => zlib.gzip('x', (e, b) => res(!e && b.length > 0)));
        out.lookup = await new Promise((res) => dns.lookup('localhost', (e, a) => res(e ? e.code : typeof a)));
        out.pbkdf2 = await new Promise((res) => crypto.pbkdf2('a', 'b', 1, 8, 'sha1', (e, k) => res(!e && k.length)));
        out.api = (await s.crypto.pbkdf2('a', 'b', 1, 8, 'sha1')).length;
        try { s.configure({ fastIo: 2 }); out.configure = 'accepted'; } catch (e) { out.configure = [e.code, e.message]; }
        try { s.metricsJson(); out.metrics = 'answered'; } catch (e) { out.metrics = [e.code, e.variable, e.value]; }
        ${print};
      })();`, { args: ['-r', './patch.js'], env: { [variable]: value } });
    assert.strictEqual(r.status, 0, r.stderr);
    const o = r.json;
    assert.deepStrictEqual(
      [o.readFile, o.stat, o.gzip, o.lookup, o.pbkdf2, o.api],
      [true, true, true, 'string', 8, 8], `${variable}=${value}: every call answered (by Node)`);
    const warnings = r.stderr.split('\n').filter((l) => /SluiceWarning|ERR_SLUICE_ENV/.test(l));
    assert.strictEqual(warnings.length, 1, r.stderr);
    assert.ok(warnings[0].includes(`${variable}=${JSON.stringify(value)}`), warnings[0]);
    assert.doesNotMatch(r.stderr, /GenericFailure|EAI_FAIL/);
    assert.strictEqual(o.configure[0], 'ERR_SLUICE_ENV');
    assert.ok(o.configure[1].includes(`${variable}=${JSON.stringify(value)}`), o.configure[1]);
    assert.deepStrictEqual(o.metrics, ['ERR_SLUICE_ENV', variable, value]);
  }
});

test('an empty SLUICE_* variable is an unset one', () => {
  const r = runChild(`
    const s = require('.');
    s.crypto.pbkdf2('a', 'b', 1, 8, 'sha1').then((k) => {
      const m = s.metricsJson();
      console.log(JSON.stringify({ len: k.length, calls: m.node.calls.pbkdf2, sched: m.pool.cpu_sched }));
    });`, { env: { SLUICE_CPU_SCHED: '', SLUICE_CPU_THREADS: '', SLUICE_QUEUE_BOUND: '', SLUICE_PATCH_GZIP: '' } });
  assert.strictEqual(r.status, 0, r.stderr);
  assert.doesNotMatch(r.stderr, /ERR_SLUICE_ENV|SluiceWarning/);
  assert.strictEqual(r.json.len, 8);
  assert.strictEqual(r.json.calls, 1);
  assert.ok(['guarded', 'normal'].includes(r.json.sched), 'the package default applies');
});
