'use strict';
// fs.readFile / fs.stat / dns.lookup against node:fs and node:dns, in this node.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const dns = require('node:dns');
const util = require('node:util');
const sluice = require('..');
const { outcome } = require('./helpers.js');

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sluice-node-'));
const file = path.join(dir, 'hello.txt');
fs.writeFileSync(file, 'héllo wörld\n'.repeat(1000));
fs.writeFileSync(path.join(dir, 'empty'), '');
test.after(() => fs.rmSync(dir, { recursive: true, force: true }));

test('readFile: Node\'s bytes and strings', async () => {
  const cases = [
    [file], [file, 'utf8'], [file, { encoding: 'latin1' }], [file, { encoding: 'base64', flag: 'r' }],
    [file, null], [file, {}], [path.join(dir, 'empty')], [path.join(dir, 'empty'), 'utf8'],
  ];
  for (const args of cases) {
    assert.deepStrictEqual(await sluice.fs.readFile(...args), await fs.promises.readFile(...args),
      `readFile(${JSON.stringify(args)})`);
  }
  // A path relative to the working directory.
  const rel = path.relative(process.cwd(), file);
  assert.deepStrictEqual(await sluice.fs.readFile(rel), fs.readFileSync(file));
  assert.strictEqual(sluice.metricsJson().node.calls.readFile, cases.length + 1);
});

test('readFile: results on both sides of the copy limit (64 KiB copied, larger handed over) are Node\'s bytes', async () => {
  const limit = 64 * 1024;
  for (const size of [1, limit - 1, limit, limit + 1, 3 * limit + 17, 1 << 20]) {
    const big = path.join(dir, `size-${size}`);
    const bytes = Buffer.alloc(size);
    for (let i = 0; i < size; i++) bytes[i] = (i * 31 + (i >> 8)) & 0xff;
    fs.writeFileSync(big, bytes);
    const got = await sluice.fs.readFile(big);
    assert.ok(Buffer.isBuffer(got), `readFile of ${size} bytes gives a Buffer`);
    assert.deepStrictEqual(got, fs.readFileSync(big), `readFile of ${size} bytes`);
    // Each result owns its bytes: writing one leaves the next read alone.
    got.fill(0);
    assert.deepStrictEqual(await sluice.fs.readFile(big), bytes, `a second readFile of ${size} bytes`);
  }
});

test('readFile: a file read in several chunks, and files of no length fstat knows, are Node\'s bytes', async () => {
  // The addon reads a known length in chunks of 512 KiB, each into the
  // buffer's reserved room (src/fs.rs read_chunk).
  const chunk = 512 * 1024;
  for (const size of [chunk - 1, chunk, chunk + 1, 2 * chunk + 17]) {
    const big = path.join(dir, `chunks-${size}`);
    const bytes = Buffer.alloc(size);
    for (let i = 0; i < size; i++) bytes[i] = (i * 7 + (i >> 9)) & 0xff;
    fs.writeFileSync(big, bytes);
    assert.deepStrictEqual(await sluice.fs.readFile(big), bytes, `readFile of ${size} bytes`);
  }
  // fstat gives 0 for these: read to the end in chunks the size of which
  // nothing tells in advance.
  for (const special of ['/proc/version', '/proc/self/cmdline', '/proc/self/environ']) {
    if (!fs.existsSync(special)) continue;
    assert.strictEqual(fs.statSync(special).size, 0, `${special} has no length`);
    const ours = await sluice.fs.readFile(special);
    assert.ok(ours.length > 0, `${special} is not empty`);
    assert.deepStrictEqual(ours, fs.readFileSync(special), special);
  }
});

test('ping: an empty task on the FastIo lane, resolved with undefined', async () => {
  const lane = () => sluice.metricsJson().pool.lanes.find((l) => l.lane === 'fastio');
  const before = lane().submitted_total;
  const got = await Promise.all([sluice.ping(), sluice.ping(), sluice.ping()]);
  assert.deepStrictEqual(got, [undefined, undefined, undefined]);
  assert.strictEqual(lane().submitted_total - before, 3);
});

test('ping(callback): no promise, the callback called once with null in the caller\'s context', async () => {
  const { AsyncLocalStorage } = require('node:async_hooks');
  const als = new AsyncLocalStorage();
  const lane = () => sluice.metricsJson().pool.lanes.find((l) => l.lane === 'fastio');
  const before = lane().submitted_total;
  const seen = await new Promise((resolve) => {
    const calls = [];
    als.run('the caller', () => {
      const returned = sluice.ping((...args) => {
        calls.push({ args, store: als.getStore() });
        // A second call would come on a later turn: wait one before judging.
        setImmediate(() => resolve({ returned, calls }));
      });
      assert.strictEqual(returned, undefined);
    });
  });
  assert.strictEqual(seen.calls.length, 1);
  assert.strictEqual(seen.calls[0].args[0], null);
  assert.strictEqual(seen.calls[0].store, 'the caller');
  assert.strictEqual(lane().submitted_total - before, 1);
  for (const bad of [null, 1, 'cb', {}]) {
    assert.throws(() => sluice.ping(bad), { name: 'TypeError', code: 'ERR_INVALID_ARG_TYPE' });
  }
  assert.strictEqual(lane().submitted_total - before, 1, 'a refused callback submits nothing');
});

test('readFile and stat: Node\'s error objects', async () => {
  const missing = path.join(dir, 'missing');
  const cases = [
    ['readFile', missing], ['readFile', dir], ['readFile', path.join(file, 'below')],
    ['readFile', 'relative/missing'], ['stat', missing], ['stat', path.join(file, 'below')],
  ];
  for (const [op, p] of cases) {
    const ours = await outcome(() => sluice.fs[op](p));
    const theirs = await outcome(() => fs.promises[op](p));
    assert.ok(ours.error, `${op}(${p}) fails`);
    assert.deepStrictEqual(ours, theirs, `${op}(${p})`);
    // The same properties, in the same order.
    const e1 = await sluice.fs[op](p).catch((e) => e);
    const e2 = await fs.promises[op](p).catch((e) => e);
    assert.deepStrictEqual(Object.keys(e1), Object.keys(e2));
    assert.ok(e1 instanceof Error);
  }
});

test('stat: a fs.Stats equal to Node\'s', async () => {
  for (const p of [file, dir, path.join(dir, 'empty'), '/']) {
    const ours = await sluice.fs.stat(p);
    const theirs = await fs.promises.stat(p);
    assert.ok(ours instanceof fs.Stats);
    assert.ok(util.isDeepStrictEqual(ours, theirs), `stat(${p}):\n${util.inspect(ours)}\n${util.inspect(theirs)}`);
    assert.strictEqual(ours.isDirectory(), theirs.isDirectory());
  }
});

// A name the hosts file answers (other than localhost, which hickory also
// answers by itself), if the machine's hosts file has one.
function hostsName() {
  let text = '';
  try {
    text = fs.readFileSync('/etc/hosts', 'utf8');
  } catch {
    return null;
  }
  for (const line of text.split('\n')) {
    const [addr, ...names] = line.replace(/#.*/, '').trim().split(/\s+/);
    if (addr && /^\d+\.\d+\.\d+\.\d+$/.test(addr)) {
      const name = names.find((n) => n && n !== 'localhost' && !n.startsWith('localhost') && /^[a-z0-9.-]+$/i.test(n));
      if (name) return name;
    }
  }
  return null;
}

test('dns.lookup: dns.promises.lookup\'s shapes, /etc/hosts honoured', async () => {
  const names = ['localhost', hostsName()].filter(Boolean);
  let hostsAnswers = 0;
  for (const name of names) {
    for (const opts of [undefined, 4, { family: 4 }, { all: true }, { family: 4, all: true },
      { all: true, order: 'ipv4first' }, { verbatim: false }, { family: 0, hints: 0 }]) {
      const before = sluice.metricsJson().dns;
      const ours = await sluice.dns.lookup(name, opts);
      assert.deepStrictEqual(ours, await dns.promises.lookup(name, opts), `lookup(${name}, ${JSON.stringify(opts)})`);
      const after = sluice.metricsJson().dns;
      hostsAnswers += after.hosts_total - (before ? before.hosts_total : 0);
    }
  }
  // Every answer came from the hosts file (no name server was asked).
  assert.strictEqual(hostsAnswers, names.length * 8);
  assert.strictEqual(sluice.metricsJson().dns.dns_total, 0);
  // IP literals and empty names are Node's to answer (no lookup at all).
  for (const host of ['127.0.0.1', '::1']) {
    assert.deepStrictEqual(await sluice.dns.lookup(host), await dns.promises.lookup(host));
  }
});

test('dns.lookup: a name no source can answer is Node\'s ENOTFOUND', async () => {
  // 'a..b' is not a valid name: getaddrinfo and sluice::dns both refuse it
  // without asking a name server.
  const ours = await outcome(() => sluice.dns.lookup('a..b'));
  assert.deepStrictEqual(ours, await outcome(() => dns.promises.lookup('a..b')));
  assert.strictEqual(ours.error.code, 'ENOTFOUND');
});
