'use strict';
// lib/eager.js: the package's modules are compiled as they load, so that a
// first call compiles (almost) nothing; Node's own modules stay lazy.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { runChild } = require('./helpers.js');
const { BUILTINS } = require('../lib/eager.js');

const PKG = path.join(__dirname, '..');

test("eager.js's BUILTINS names every node: module the package's sources require", () => {
  const sources = ['index.js', 'patch.js', 'binding.js', 'argon2.js', 'bcrypt.js',
    ...fs.readdirSync(path.join(PKG, 'lib')).map((f) => path.join('lib', f))];
  const required = new Set();
  for (const file of sources) {
    const text = fs.readFileSync(path.join(PKG, file), 'utf8');
    for (const m of text.matchAll(/require\('node:([a-z_/]+)'\)/g)) required.add(m[1]);
  }
  // v8 is eager.js's own, loaded before the window opens.
  required.delete('v8');
  const missing = [...required].filter((name) => !BUILTINS.includes(name));
  assert.deepStrictEqual(missing, [], 'add them to BUILTINS in lib/eager.js');
});

// The bytecode V8 compiles during a process's first dns.lookup and first
// fs.stat under the preload (a count of bytes, from
// v8.getHeapCodeStatistics()), with the package compiled eagerly and with
// `--lazy` on the command line, which leaves V8's flag alone (every
// function of the package compiled at its first call, as before).
function firstCallBytecode(args) {
  const r = runChild(`
    const v8 = require('node:v8'); const dns = require('node:dns'); const fs = require('node:fs');
    const size = () => v8.getHeapCodeStatistics().bytecode_and_metadata_size;
    setTimeout(() => {
      const before = size();
      dns.lookup('localhost', { family: 4 }, (err) => {
        if (err) throw err;
        fs.stat('package.json', (err2) => {
          if (err2) throw err2;
          console.log(JSON.stringify({ bytes: size() - before }));
        });
      });
    }, 20);`, { args: [...args, '-r', './patch.js'] });
  assert.strictEqual(r.status, 0, r.stderr);
  return r.json.bytes;
}

test("a first call runs compiled code: it compiles less than half the bytecode it does with V8's --lazy", () => {
  const eager = firstCallBytecode([]);
  const lazy = firstCallBytecode(['--lazy']);
  assert.ok(eager * 2 < lazy, `first lookup and stat compiled ${eager} bytes eagerly, ${lazy} with --lazy`);
});
