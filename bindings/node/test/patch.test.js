'use strict';
// `node -r sluice/patch`: Node's functions replaced, semantics unchanged.
const test = require('node:test');
const assert = require('node:assert');
const { runChild, assertBadSwitch } = require('./helpers.js');

test('every case of the table: patched callback and promise forms equal Node\'s', () => {
  const r = runChild("require('./test/patch-child.js')", { args: ['-r', './patch.js'] });
  assert.strictEqual(r.status, 0, r.stderr);
  const out = r.json;
  assert.deepStrictEqual(out.mismatches, [], JSON.stringify(out.mismatches, null, 1));
  assert.ok(out.compared >= 100, `${out.compared} comparisons`);
  // sluice ran the good shapes (counted), Node the others.
  for (const op of ['pbkdf2', 'scrypt', 'gzip', 'gunzip', 'readFile', 'stat', 'lookup']) {
    assert.ok(out.calls[op] >= 2, `${op} ran through sluice: ${JSON.stringify(out.calls)}`);
    assert.ok(out.fallbacks[op] >= 2, `${op} handed to Node: ${JSON.stringify(out.fallbacks)}`);
  }
  // The seven functions' 10 forms, then the descriptor calls (lib/fd.js:
  // 5 and FileHandle's 3), the zlib streams by mode (6): streams-fd.test.js;
  // randomBytes and randomFill (2): random.test.js; hkdf and
  // generateKeyPair (2): keys.test.js, keygen.test.js.
  assert.strictEqual(out.patched.length, 28);
});

test('each function is switched off by its variable; a bad value is an error', () => {
  const probe = "const c=require('crypto'),z=require('zlib'),f=require('fs'),d=require('dns');" +
    "const o=require('.')._internal.original;" +
    "console.log(JSON.stringify({pbkdf2:c.pbkdf2!==o.pbkdf2,gzip:z.gzip!==o.gzip,readFile:f.readFile!==o.readFile," +
    "readFileP:f.promises.readFile!==o.readFilePromise,lookup:d.lookup!==o.lookup,patched:require('./patch.js').patched}))";
  let r = runChild(probe, { args: ['-r', './patch.js'], env: { SLUICE_PATCH_PBKDF2: '0', SLUICE_PATCH_READFILE: 'off' } });
  assert.strictEqual(r.status, 0, r.stderr);
  assert.deepStrictEqual(
    { ...r.json, patched: undefined },
    { pbkdf2: false, gzip: true, readFile: false, readFileP: false, lookup: true, patched: undefined });
  assert.strictEqual(r.json.patched.length, 25);
  r = runChild(probe, { args: ['-r', './patch.js'], env: { SLUICE_PATCH: '0', SLUICE_PATCH_GZIP: '1' } });
  // SLUICE_PATCH_GZIP moves zlib.gzip and the gzip streams.
  assert.deepStrictEqual(r.json.patched, ['zlib.gzip', 'zlib gzip streams']);
  assertBadSwitch(probe, 'SLUICE_PATCH_LOOKUP', 'maybe');
});

test('an HTTP client under the preload: net.connect\'s lookup runs through sluice', () => {
  const r = runChild(`
    const http = require('node:http');
    const server = http.createServer((req, res) => res.end('pong')).listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      const before = require('.').metricsJson().node; // listen() looked up its IP literal
      http.get({ host: 'localhost', port, path: '/' }, (res) => {
        let body = '';
        res.on('data', (c) => (body += c));
        res.on('end', () => {
          const m = require('.').metricsJson();
          const delta = (k) => (m.node[k].lookup || 0) - (before[k].lookup || 0);
          console.log(JSON.stringify({ body, lookups: delta('calls'), handed: delta('fallbacks') }));
          server.close();
        });
      });
    });`, { args: ['-r', './patch.js'] });
  assert.strictEqual(r.status, 0, r.stderr);
  assert.strictEqual(r.json.body, 'pong');
  // Where the machine's address families make AI_ADDRCONFIG plain, sluice
  // answers; otherwise it is Node's. Either way, exactly one lookup.
  assert.strictEqual(r.json.lookups + r.json.handed, 1, JSON.stringify(r.json));
  const os = require('node:os');
  const ifs = Object.values(os.networkInterfaces()).flat().filter((a) => !a.internal);
  const v4 = ifs.some((a) => a.family === 'IPv4');
  const v6 = ifs.some((a) => a.family === 'IPv6' && !/^fe[89ab]/i.test(a.address));
  const anyV6 = ifs.some((a) => a.family === 'IPv6');
  assert.strictEqual(r.json.lookups, v4 && (v6 || !anyV6) ? 1 : 0, JSON.stringify({ v4, v6, anyV6 }));
});

test('patched callbacks run as Node\'s: never synchronously; one that throws is an uncaught exception and the rest of its batch still run', () => {
  // The same script with and without the preload: the outcomes must match.
  const script = `
    const fs = require('node:fs');
    const dns = require('node:dns');
    const seen = { ran: [], uncaught: [], sync: false };
    process.on('uncaughtException', (e) => seen.uncaught.push(e.message));
    let inCall = true;
    let left = 6;
    const done = () => {
      if (--left === 0) setImmediate(() => console.log(JSON.stringify(seen)));
    };
    for (let i = 0; i < 5; i++) {
      fs.stat('/', (err, st) => {
        if (inCall) seen.sync = true;
        seen.ran.push([i, err === null, st.isDirectory()]);
        done();
        if (i === 1) throw new Error('thrown by callback ' + i);
      });
    }
    dns.lookup('localhost', { family: 4 }, (err, address, family) => {
      seen.lookup = [err, address, family];
      done();
    });
    inCall = false;`;
  const plain = runChild(script);
  const patched = runChild(script, { args: ['-r', './patch.js'] });
  assert.strictEqual(plain.status, 0, plain.stderr);
  assert.strictEqual(patched.status, 0, patched.stderr);
  assert.strictEqual(patched.json.ran.length, 5);
  assert.deepStrictEqual(patched.json.uncaught, ['thrown by callback 1']);
  assert.deepStrictEqual(patched.json.lookup, [null, '127.0.0.1', 4]);
  assert.strictEqual(patched.json.sync, false);
  // Node's pool may finish its four threads' stats in any order; compare as sets.
  const sorted = (o) => ({ ...o, ran: [...o.ran].sort() });
  assert.deepStrictEqual(sorted(patched.json), sorted(plain.json));
});

test('hostile arguments (throwing getters, revoked Proxies, Proxy and detached buffers): as Node, sync or async, class and code', () => {
  const r = runChild("require('./test/errors-child.js')", { args: ['-r', './patch.js'] });
  assert.strictEqual(r.status, 0, r.stderr);
  assert.deepStrictEqual(r.json.mismatches, [], JSON.stringify(r.json.mismatches, null, 1));
  assert.ok(r.json.compared >= 70, `${r.json.compared} comparisons`);
  // The detached buffers are empty ones, run on sluice as Node runs them.
  assert.ok(r.json.calls.pbkdf2 >= 6, JSON.stringify(r.json.calls));
});
