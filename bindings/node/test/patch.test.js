'use strict';
// `node -r sluice/patch`: Node's functions replaced, semantics unchanged.
const test = require('node:test');
const assert = require('node:assert');
const { runChild } = require('./helpers.js');

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
  assert.strictEqual(out.patched.length, 10);
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
  assert.strictEqual(r.json.patched.length, 7);
  r = runChild(probe, { args: ['-r', './patch.js'], env: { SLUICE_PATCH: '0', SLUICE_PATCH_GZIP: '1' } });
  assert.deepStrictEqual(r.json.patched, ['zlib.gzip']);
  r = runChild(probe, { args: ['-r', './patch.js'], env: { SLUICE_PATCH_LOOKUP: "maybe" } });
  assert.notStrictEqual(r.status, 0);
  assert.match(r.stderr, /SLUICE_PATCH_LOOKUP="maybe": expected 1 or 0/);
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
