'use strict';
// crypto.randomBytes and randomFill under `node -r sluice/patch`: Node's
// results and errors, the range filled, and run by sluice.
const test = require('node:test');
const assert = require('node:assert');
const { plainAndPatched, patchedUnder } = require('./helpers.js');

test('randomBytes and randomFill callbacks: every outcome equals Node\'s, and sluice ran them', () => {
  const { plain, patched } = plainAndPatched("require('./test/random-child.js')");
  assert.deepStrictEqual(patched.json.outcomes, plain.json.outcomes);
  assert.match(plain.json.outcomes['randomFill buffer, offset, size'], /outside zero true, inside filled true/);
  assert.match(plain.json.outcomes['randomFill size past the end'], /^sync .*ERR_OUT_OF_RANGE/);
  // 3 randomBytes and 5 randomFill calls are shapes sluice runs.
  assert.deepStrictEqual(
    { randomBytes: patched.json.calls.randomBytes, randomFill: patched.json.calls.randomFill },
    { randomBytes: 2, randomFill: 6 });
});

test('SLUICE_PATCH_RANDOMBYTES=0 and SLUICE_PATCH_RANDOMFILL=0 leave them to Node', () => {
  const mine = (env) => patchedUnder(env).filter((p) => p.startsWith('crypto.random'));
  assert.deepStrictEqual(mine(), ['crypto.randomBytes', 'crypto.randomFill']);
  assert.deepStrictEqual(mine({ SLUICE_PATCH_RANDOMBYTES: '0' }), ['crypto.randomFill']);
  assert.deepStrictEqual(mine({ SLUICE_PATCH_RANDOMFILL: 'off' }), ['crypto.randomBytes']);
});
