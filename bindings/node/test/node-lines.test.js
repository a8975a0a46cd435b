'use strict';
// Node 22 and 24 (nodejs.org's builds, fetched by `scripts/fetch-nodes
// official-22 official-24` into target/nodes): the preload prints no
// warning Node itself would not (DEP0180: fs.Stats is built as Node's own
// binding builds it), and its Stats equal Node's.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { PKG } = require('./helpers.js');

const nodes = path.join(PKG, '..', '..', 'target', 'nodes');

const probe = `
  const fs = require('node:fs'), util = require('node:util'), dns = require('node:dns'), crypto = require('node:crypto');
  const plain = (s) => { const o = {}; for (const k of ['dev','mode','nlink','uid','gid','rdev','blksize','ino','size','blocks','atimeMs','mtimeMs','ctimeMs','birthtimeMs']) o[k] = s[k]; return o; };
  fs.stat('package.json', async (e, s) => {
    const n = fs.statSync('package.json');
    const p = await fs.promises.stat('package.json');
    const out = {
      sameProto: Object.getPrototypeOf(s) === Object.getPrototypeOf(n),
      sameKeys: util.isDeepStrictEqual(Object.keys(s), Object.keys(n)) && util.isDeepStrictEqual(Object.keys(p), Object.keys(n)),
      same: util.isDeepStrictEqual(plain(s), plain(n)) && util.isDeepStrictEqual(plain(p), plain(n)),
      dates: +s.mtime === +n.mtime && s.birthtime instanceof Date && s.isFile(),
      read: (await fs.promises.readFile('package.json')).length > 0,
      key: (await util.promisify(crypto.pbkdf2)('a', 'b', 1, 8, 'sha1')).length,
      lookup: typeof (await dns.promises.lookup('localhost')).address,
      calls: require('./index.js').metricsJson().node.calls,
    };
    console.log(JSON.stringify(out));
  });`;

for (const line of [22, 24]) {
  const node = path.join(nodes, `official-${line}`, 'package', 'bin', 'node');
  const skip = fs.existsSync(node) ? false : `no Node ${line} at ${node} (scripts/fetch-nodes official-${line})`;
  test(`Node ${line}: no DeprecationWarning under the preload; Stats as Node's`, { skip }, () => {
    const r = spawnSync(node, ['-r', './patch.js', '-e', probe], { cwd: PKG, encoding: 'utf8', timeout: 60000 });
    assert.strictEqual(r.status, 0, r.stderr);
    const warnings = r.stderr.split('\n').filter((l) => /Warning/.test(l) && !/SLUICE_DEBUG_BUILD/.test(l));
    assert.deepStrictEqual(warnings, [], r.stderr);
    const out = JSON.parse(r.stdout.trim().split('\n').pop());
    assert.deepStrictEqual(out, {
      sameProto: true, sameKeys: true, same: true, dates: true, read: true, key: 8, lookup: 'string',
      calls: { stat: 2, readFile: 1, pbkdf2: 1, lookup: 1 },
    });
  });
}

test('engines names exactly the Node lines the package\'s tests run on', () => {
  // scripts/pack-check runs `node --test` on SLUICE_PACK_NODES' default
  // lines, and scripts/test on the node on PATH.
  const check = fs.readFileSync(path.join(PKG, '..', '..', 'scripts', 'pack-check'), 'utf8');
  const m = /\$\{SLUICE_PACK_NODES:-([0-9 ]+)\}/.exec(check);
  assert.ok(m, 'the default of SLUICE_PACK_NODES in scripts/pack-check');
  const onPath = spawnSync('node', ['-p', 'process.versions.node'], { encoding: 'utf8' });
  assert.strictEqual(onPath.status, 0, 'a node on PATH');
  const tested = new Set([...m[1].trim().split(/\s+/).map(Number), Number(onPath.stdout.split('.')[0])]);
  const engines = JSON.parse(fs.readFileSync(path.join(PKG, 'package.json'), 'utf8')).engines.node;
  const claimed = engines.split('||').map((l) => {
    const x = /^\s*(\d+)\.x\s*$/.exec(l);
    assert.ok(x, `engines "${engines}": each line N.x`);
    return Number(x[1]);
  });
  assert.deepStrictEqual([...new Set(claimed)].sort((a, b) => a - b), [...tested].sort((a, b) => a - b));
});
