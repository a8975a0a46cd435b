'use strict';
// One of the two jest files test/jest.test.js runs in one jest worker
// (--runInBand: one thread). jest gives each file its own module registry,
// so each file loads the package again, sharing the one sluice.node; this
// file also loads a second copy beside the first (jest.isolateModules)
// while calls of both are pending. Every call of every copy settles.
const fs = require('node:fs');

const calls = (s, tag) => [
  s.crypto.pbkdf2('pw', tag, 1, 16, 'sha256').then(() => tag),
  s.fs.stat(__filename).then(() => tag),
  s.fs.readFile(__filename).then(() => tag),
  s.zlib.gzip(Buffer.from(tag.repeat(1000))).then(() => tag),
];

test('two copies in this file, calls of both pending at once, all settle', async () => {
  const first = require('../..');
  let second;
  const pending = [];
  for (let i = 0; i < 25; i++) pending.push(...calls(first, 'first'));
  jest.isolateModules(() => {
    second = require('../..');
  });
  expect(second).not.toBe(first);
  for (let i = 0; i < 25; i++) pending.push(...calls(second, 'second'), ...calls(first, 'first'));
  const who = await Promise.all(pending);
  expect(who.filter((w) => w === 'first')).toHaveLength(200);
  expect(who.filter((w) => w === 'second')).toHaveLength(100);
  expect([first._internal.pending(), second._internal.pending()]).toEqual([0, 0]);
  fs.writeFileSync(process.env.SLUICE_JEST_MARK + '.first', 'settled');
}, 60000);
