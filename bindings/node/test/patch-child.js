'use strict';
// Run under `node -r ./patch.js`: every case of cases.js through the patched
// callback and promise forms and through Node's originals; prints one JSON
// line with the mismatches and the counts.
const util = require('node:util');
const fs = require('node:fs');
const nodeCrypto = require('node:crypto');
const nodeZlib = require('node:zlib');
const nodeDns = require('node:dns');
const sluice = require('..');
const { viaCallback, viaPromise } = require('./helpers.js');
const { cases, dir } = require('./cases.js');

const { original } = sluice._internal;
const patchedNow = {
  pbkdf2: nodeCrypto.pbkdf2, scrypt: nodeCrypto.scrypt, gzip: nodeZlib.gzip, gunzip: nodeZlib.gunzip,
  readFile: fs.readFile, stat: fs.stat, lookup: nodeDns.lookup,
};

(async () => {
  const mismatches = [];
  let compared = 0;
  const promiseForms = {
    readFile: [fs.promises.readFile, original.readFilePromise],
    stat: [fs.promises.stat, original.statPromise],
    lookup: [nodeDns.promises.lookup, original.lookupPromise],
    pbkdf2: [util.promisify(nodeCrypto.pbkdf2), util.promisify(original.pbkdf2)],
    scrypt: [util.promisify(nodeCrypto.scrypt), util.promisify(original.scrypt)],
    gzip: [util.promisify(nodeZlib.gzip), util.promisify(original.gzip)],
    gunzip: [util.promisify(nodeZlib.gunzip), util.promisify(original.gunzip)],
    lookupPromisified: [util.promisify(nodeDns.lookup), util.promisify(original.lookup)],
  };
  for (const [op, list] of Object.entries(cases)) {
    if (op === 'randomBytes') continue;
    for (const args of list) {
      const a = await viaCallback(patchedNow[op], args);
      const b = await viaCallback(original[op], args);
      compared += 1;
      if (!util.isDeepStrictEqual(a, b)) mismatches.push({ form: 'callback', op, args: util.inspect(args), ours: a, node: b });
      const forms = op === 'lookup' ? ['lookup', 'lookupPromisified'] : [op];
      for (const form of forms) {
        const [mine, theirs] = promiseForms[form];
        const c = await viaPromise(mine, args);
        const d = await viaPromise(theirs, args);
        compared += 1;
        if (!util.isDeepStrictEqual(c, d)) mismatches.push({ form, op, args: util.inspect(args), ours: c, node: d });
      }
    }
  }
  fs.rmSync(dir, { recursive: true, force: true });
  const m = sluice.metricsJson();
  console.log(JSON.stringify({
    mismatches, compared, calls: m.node.calls, fallbacks: m.node.fallbacks,
    patched: require('../patch.js').patched,
    replaced: nodeCrypto.pbkdf2 !== original.pbkdf2,
  }));
})();
