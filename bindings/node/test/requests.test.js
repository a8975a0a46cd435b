'use strict';
// The calls in flight under the preload are listed as Node lists its own
// requests (lib/requests.js): process._getActiveRequests(),
// getActiveResourcesInfo(), and the inbox's socket in neither (nor in
// _getActiveHandles()). The same script on plain node and under the
// preload, compared.
const test = require('node:test');
const assert = require('node:assert');
const { runChild } = require('./helpers.js');

// A debug addon's warning would write to stderr, whose pipe is then a
// handle of the process: not there on plain node.
const QUIET = { SLUICE_DEBUG_BUILD_WARNING: '0' };

// Each call's lists at the call, inside its callback (or promise's
// settling), and once it is over; the classes of _getActiveRequests()'s
// objects; then twelve fs.open calls at once (test-process-getactiverequests).
const script = `
  const fs = require('node:fs'), crypto = require('node:crypto'), zlib = require('node:zlib'), dns = require('node:dns');
  const file = 'package.json';
  const fd = fs.openSync(file, 'r');
  const wfd = fs.openSync(require('node:os').devNull, 'w');
  const packed = zlib.gzipSync('x');
  const lists = () => ({
    requests: process._getActiveRequests().map((r) => r.constructor.name),
    info: process.getActiveResourcesInfo(),
    handles: process._getActiveHandles().length,
  });
  const forms = {
    open: (cb) => fs.open(file, 'r', (e, f) => { fs.closeSync(f); cb(); }),
    stat: (cb) => fs.stat(file, cb),
    readFile: (cb) => fs.readFile(file, cb),
    fstat: (cb) => fs.fstat(fd, cb),
    read: (cb) => fs.read(fd, Buffer.alloc(8), 0, 8, 0, cb),
    write: (cb) => fs.write(wfd, Buffer.from('ab'), 0, 2, null, cb),
    writeString: (cb) => fs.write(wfd, 'ab', cb),
    close: (cb) => fs.close(fs.openSync(file, 'r'), cb),
    lookup: (cb) => dns.lookup('localhost', cb),
    pbkdf2: (cb) => crypto.pbkdf2('a', 'b', 1, 8, 'sha1', cb),
    scrypt: (cb) => crypto.scrypt('a', 'b', 8, { N: 16 }, cb),
    randomBytes: (cb) => crypto.randomBytes(8, cb),
    gzip: (cb) => zlib.gzip('x', cb),
    gunzip: (cb) => zlib.gunzip(packed, cb),
    readFilePromise: (cb) => fs.promises.readFile(file).then(cb),
    statPromise: (cb) => fs.promises.stat(file).then(cb),
    lookupPromise: (cb) => dns.promises.lookup('localhost').then(cb),
    fileHandleRead: (cb) => fs.promises.open(file).then((fh) => {
      const p = fh.read(Buffer.alloc(8), 0, 8, 0);
      const at = lists();
      return p.then(() => fh.close()).then(() => cb(at));
    }),
  };
  const out = {};
  const calls = Object.entries(forms);
  const next = () => {
    const c = calls.shift();
    if (c === undefined) return twelve();
    const [name, call] = c;
    const seen = {};
    call((at) => {
      seen.inCallback = lists();
      if (at && at.requests) seen.afterRead = at;
      setTimeout(() => { seen.after = lists(); out[name] = seen; next(); }, 20);
    });
    seen.atCall = lists();
  };
  const twelve = () => {
    let left = 12;
    for (let i = 0; i < 12; i++) fs.open(file, 'r', (e, f) => {
      fs.closeSync(f);
      if (--left === 0) setTimeout(() => { out.twelveAfter = lists(); console.log(JSON.stringify(out)); }, 20);
    });
    out.twelve = lists();
  };
  next();`;

// N-API runs an addon's finalizers (of the objects the addon made, freed by
// a collection) from a native immediate, which Node counts among
// getActiveResourcesInfo()'s 'Immediate' entries: one may be there at any
// time under the preload, and none is there on plain node. They are left
// out of the comparison.
const noImmediates = (json) => JSON.parse(JSON.stringify(json), (k, v) =>
  (Array.isArray(v) ? v.filter((x) => x !== 'Immediate') : v));

// Node keeps a promise form's request listed while the promise's reactions
// run; sluice's leaves the list as its promise settles (and
// fs.promises.readFile's last request is Node's FileHandle close, a
// 'CloseReq'). Those lists, inside the reaction, are not compared.
const PROMISE_FORMS = ['readFilePromise', 'statPromise', 'lookupPromise'];

test('_getActiveRequests and getActiveResourcesInfo list each call in flight as Node does, and empty again when calls complete', () => {
  const plain = runChild(script);
  const preload = runChild(script, { args: ['-r', './patch.js'], env: QUIET });
  assert.strictEqual(plain.status, 0, plain.stderr);
  assert.strictEqual(preload.status, 0, preload.stderr);
  const p = noImmediates(plain.json);
  const s = noImmediates(preload.json);
  // What plain node lists (the names this is compared on).
  assert.deepStrictEqual(p.open.atCall.requests, ['FSReqCallback']);
  assert.deepStrictEqual(p.lookup.atCall.requests, ['GetAddrInfoReqWrap']);
  assert.deepStrictEqual(p.statPromise.atCall.requests, ['FSReqPromise']);
  // FileHandle.read right after fs.promises.open: the open's request (in its
  // reaction still) and the read's.
  assert.deepStrictEqual(p.fileHandleRead.afterRead.requests, ['FSReqPromise', 'FSReqPromise']);
  assert.deepStrictEqual(p.pbkdf2.atCall.requests, [], 'crypto jobs are not requests');
  // A request is listed while its callback runs, and not after.
  assert.deepStrictEqual(p.stat.inCallback.info, ['FSReqCallback']);
  assert.deepStrictEqual(p.stat.after.requests, []);
  assert.strictEqual(p.twelve.requests.length, 12);
  assert.deepStrictEqual(p.twelveAfter.requests, []);
  for (const name of PROMISE_FORMS) {
    assert.deepStrictEqual(s[name].inCallback.requests, [], name);
    delete p[name].inCallback;
    delete s[name].inCallback;
  }
  for (const name of Object.keys(p)) assert.deepStrictEqual(s[name], p[name], name);
});

test('callbacks that throw: their requests are listed until then, and leave the lists all the same', () => {
  const script = `
    const fs = require('node:fs');
    process.on('uncaughtException', () => {});
    const seen = [];
    let left = 3;
    for (let i = 0; i < 3; i++) {
      fs.stat('.', () => {
        seen.push(process._getActiveRequests().length);
        if (--left === 0) setTimeout(() => console.log(JSON.stringify({ seen, requests: process._getActiveRequests().length })), 20);
        throw new Error('e' + i);
      });
    }
    seen.push(process._getActiveRequests().length);`;
  const plain = runChild(script);
  const preload = runChild(script, { args: ['-r', './patch.js'], env: QUIET });
  assert.strictEqual(plain.status, 0, plain.stderr);
  assert.strictEqual(preload.status, 0, preload.stderr);
  assert.deepStrictEqual(plain.json, { seen: [3, 3, 2, 1], requests: 0 });
  assert.deepStrictEqual(preload.json, plain.json);
});

test('without the preload the package lists nothing of its own, and leaves Node\'s functions alone', () => {
  const r = runChild(`
    const before = [process._getActiveRequests, process.getActiveResourcesInfo, process._getActiveHandles];
    const s = require('.');
    const p = s.fs.stat('.');
    const out = { listed: process._getActiveRequests().length, same: before[0] === process._getActiveRequests &&
      before[1] === process.getActiveResourcesInfo && before[2] === process._getActiveHandles };
    p.then(() => console.log(JSON.stringify(out)));`);
  assert.strictEqual(r.status, 0, r.stderr);
  assert.deepStrictEqual(r.json, { listed: 0, same: true });
});
