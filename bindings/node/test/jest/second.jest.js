'use strict';
// The second jest file (see first.jest.js): a fresh module registry in the
// same worker thread, so a third copy of the package after the first
// file's two; its calls settle.
const fs = require('node:fs');

test('a copy loaded after another file\'s copies: its calls settle', async () => {
  const s = require('../..');
  const who = await Promise.all(Array.from({ length: 50 }, (_, i) => [
    s.crypto.pbkdf2('pw', String(i), 1, 16, 'sha256'),
    s.fs.stat(__filename),
    s.zlib.gunzip(require('node:zlib').gzipSync('x'.repeat(i + 1))),
  ]).flat());
  expect(who).toHaveLength(150);
  expect(s._internal.pending()).toBe(0);
  fs.writeFileSync(process.env.SLUICE_JEST_MARK + '.second', 'settled');
}, 60000);
