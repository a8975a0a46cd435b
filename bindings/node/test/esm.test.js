'use strict';
// ESM: every export of index.d.ts importable by name (Node's CJS export
// detector sees them all), and `node --import sluice/patch app.mjs`.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { PKG } = require('./helpers.js');

// A scratch app whose node_modules/sluice is this package.
function scratchApp(files) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sluice-esm-'));
  fs.mkdirSync(path.join(dir, 'node_modules'));
  fs.symlinkSync(PKG, path.join(dir, 'node_modules', 'sluice'), 'dir');
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
  return dir;
}

// Each name once: a function with overloads is declared once per form.
const declared = [...new Set([...fs.readFileSync(path.join(PKG, 'index.d.ts'), 'utf8')
  .matchAll(/^export declare (?:const|function) (\w+)/gm)].map((m) => m[1]))];

test('every export index.d.ts declares is importable by name from ESM', () => {
  assert.ok(declared.length >= 10, declared.join(', '));
  const dir = scratchApp({
    'app.mjs': `import { ${declared.join(', ')} } from 'sluice';
import * as all from 'sluice';
const kinds = { ${declared.map((n) => `${n}: typeof ${n}`).join(', ')} };
const key = await crypto.pbkdf2('a', 'b', 1, 8, 'sha1');
console.log(JSON.stringify({ kinds, key: key.length, named: Object.keys(all).filter((k) => k !== 'default').sort() }));
`,
  });
  const r = spawnSync(process.execPath, ['app.mjs'], { cwd: dir, encoding: 'utf8' });
  fs.rmSync(dir, { recursive: true, force: true });
  assert.strictEqual(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout.trim().split('\n').pop());
  for (const name of declared) assert.ok(['object', 'function'].includes(out.kinds[name]), `${name}: ${out.kinds[name]}`);
  assert.strictEqual(out.key, 8);
  for (const name of declared) assert.ok(out.named.includes(name), `${name} among ${out.named}`);
});

test('node --import sluice/patch app.mjs: the ESM app\'s calls run on sluice', () => {
  const dir = scratchApp({
    'app.mjs': `import fs from 'node:fs';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { metricsJson } from 'sluice';
await readFile('app.mjs');
await promisify(fs.stat)('.');
console.log(JSON.stringify(metricsJson().node.calls));
`,
  });
  const r = spawnSync(process.execPath, ['--import', 'sluice/patch', 'app.mjs'], { cwd: dir, encoding: 'utf8' });
  fs.rmSync(dir, { recursive: true, force: true });
  assert.strictEqual(r.status, 0, r.stderr);
  const calls = JSON.parse(r.stdout.trim().split('\n').pop());
  // Beside the app's two calls, the ES module loader's own reads of the
  // modules (fs/promises' readFile through a FileHandle: fstat and read).
  const { readFile, stat, ...loader } = calls;
  assert.deepStrictEqual({ readFile, stat }, { readFile: 1, stat: 1 });
  assert.deepStrictEqual(Object.keys(loader).filter((k) => k !== 'read' && k !== 'fstat'), [], JSON.stringify(calls));
});
