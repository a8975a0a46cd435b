'use strict';
// sluice/argon2 and sluice/bcrypt against the packages they stand in for:
// a hash of one library verifies with the other, both ways, and a fixed
// salt gives the same string.
const test = require('node:test');
const assert = require('node:assert');
const argon2 = require('../argon2.js');
const bcrypt = require('../bcrypt.js');
const sluice = require('..');

// The packages compared with are devDependencies (`npm ci` here); without
// them the tests that need them skip, saying why.
function optional(name) {
  try {
    return { lib: require(name) };
  } catch (err) {
    return { skip: `${name} is not installed (npm ci in bindings/node): ${err.message.split('\n')[0]}` };
  }
}
const nodeRsPkg = optional('@node-rs/argon2');
const bcryptjsPkg = optional('bcryptjs');
const bcryptPkg = optional('bcrypt');
const nodeRs = nodeRsPkg.lib;
const bcryptjs = bcryptjsPkg.lib;
const nativeBcrypt = bcryptPkg.lib;
const withNodeRs = { skip: nodeRsPkg.skip };
const withBcryptjs = { skip: bcryptjsPkg.skip };
if (bcryptPkg.skip) test('npm bcrypt (native) loads', { skip: bcryptPkg.skip }, () => {});

const SALT = Buffer.from('sluice-salt-0001');
const small = { memoryCost: 64, timeCost: 1 };
// @node-rs/argon2 reads a Uint8Array password as UTF-8 text (it refuses
// other bytes), so the cross-checked passwords are text.
const passwords = ['correct horse', '', 'pässwörd ✓', 'x'.repeat(100), Buffer.from('bytes ✓')];

test('argon2: @node-rs/argon2 verifies sluice\'s hashes and sluice verifies its', withNodeRs, async () => {
  for (const pw of passwords) {
    const ours = await argon2.hash(pw, small);
    assert.match(ours, /^\$argon2id\$v=19\$m=64,t=1,p=1\$/);
    assert.strictEqual(await nodeRs.verify(ours, pw), true);
    assert.strictEqual(await nodeRs.verify(ours, 'nope'), false);
    const theirs = await nodeRs.hash(pw, small);
    assert.strictEqual(await argon2.verify(theirs, pw), true);
    assert.strictEqual(await argon2.verify(theirs, 'nope'), false);
    assert.strictEqual(argon2.verifySync(theirs, pw), true);
  }
  // Any bytes are a password here.
  const bytes = Buffer.from([0, 1, 2, 255]);
  assert.strictEqual(await argon2.verify(await argon2.hash(bytes, small), bytes), true);
});

test('argon2: same salt and options, same string as @node-rs/argon2', withNodeRs, async () => {
  const cases = [
    {},
    { algorithm: argon2.Algorithm.Argon2i, version: argon2.Version.V0x10, timeCost: 1, memoryCost: 64, parallelism: 2, outputLen: 16 },
    { algorithm: argon2.Algorithm.Argon2d, timeCost: 3, memoryCost: 256, secret: Buffer.from('pepper') },
  ];
  for (const options of cases) {
    const o = { ...options, salt: SALT };
    const theirs = nodeRs.hashSync('correct horse', o);
    assert.strictEqual(await argon2.hash('correct horse', o), theirs, JSON.stringify(options));
    // The defaults cost seconds in a debug addon: the rest only for the small ones.
    if (Object.keys(options).length === 0) continue;
    assert.strictEqual(argon2.hashSync('correct horse', o), theirs);
    assert.deepStrictEqual(await argon2.hashRaw('correct horse', o), nodeRs.hashRawSync('correct horse', o));
    assert.deepStrictEqual(argon2.hashRawSync('correct horse', o), nodeRs.hashRawSync('correct horse', o));
  }
  // A secret must be given to verify, in both libraries.
  const peppered = await argon2.hash('pw', { ...small, secret: Buffer.from('k') });
  assert.deepStrictEqual(
    [await nodeRs.verify(peppered, 'pw'), await nodeRs.verify(peppered, 'pw', { secret: Buffer.from('k') })],
    [false, true]);
  assert.deepStrictEqual(
    [await argon2.verify(peppered, 'pw'), await argon2.verify(peppered, 'pw', { secret: Buffer.from('k') })],
    [false, true]);
});

test('argon2: bad input is refused with a reason, nothing hangs', async () => {
  assert.throws(() => argon2.hash(5), { code: 'ERR_INVALID_ARG_TYPE' });
  assert.throws(() => argon2.hash('pw', { timeCost: -1 }), { code: 'ERR_OUT_OF_RANGE' });
  assert.throws(() => argon2.hash('pw', { memoryCost: 1.5 }), { code: 'ERR_OUT_OF_RANGE' });
  assert.throws(() => argon2.hash('pw', { salt: 'not bytes' }), { code: 'ERR_INVALID_ARG_TYPE' });
  await assert.rejects(argon2.hash('pw', { salt: Buffer.from('short') }),
    { code: 'ERR_SLUICE_FAILED', message: 'sluice: argon2: salt of 5 bytes; expected at least 8' });
  await assert.rejects(argon2.hash('pw', { outputLen: 100 }),
    { message: 'sluice: argon2: output length 100; expected 4..=64' });
  await assert.rejects(argon2.verify('garbage', 'pw'), /is not a PHC string/);
  assert.throws(() => argon2.hashSync('pw', { memoryCost: 1 }), /argon2: m = 1, t = 2, p = 1/);
  const aborted = new AbortController();
  aborted.abort();
  await assert.rejects(argon2.hash('pw', small, aborted.signal), { name: 'AbortError' });
  const later = new AbortController();
  const pending = argon2.hash('pw', { memoryCost: 4096, timeCost: 4 }, later.signal);
  later.abort();
  await assert.rejects(pending, { name: 'AbortError' });
});

const bcrypts = [];
if (bcryptjs) bcrypts.push(['bcryptjs', bcryptjs]);
if (nativeBcrypt) bcrypts.push(['bcrypt', nativeBcrypt]);

test('bcrypt: bcrypt and bcryptjs verify sluice\'s hashes and sluice verifies theirs', withBcryptjs, async () => {
  for (const [name, other] of bcrypts) {
    for (const pw of ['correct horse', '', 'pässwörd ✓', 'x'.repeat(100)]) {
      const ours = await bcrypt.hash(pw, 4);
      assert.match(ours, /^\$2b\$04\$.{53}$/);
      assert.strictEqual(other.compareSync(pw, ours), true, `${name} ${pw}`);
      assert.strictEqual(other.compareSync('nope', ours), false);
      const theirs = other.hashSync(pw, 4);
      assert.strictEqual(await bcrypt.compare(pw, theirs), true, `${name} ${pw}`);
      assert.strictEqual(await bcrypt.compare('nope', theirs), false);
      assert.strictEqual(bcrypt.compareSync(pw, theirs), true);
      // Each library's salt string serves the other.
      const salt = other.genSaltSync(5);
      assert.strictEqual(await bcrypt.hash(pw, salt), other.hashSync(pw, salt));
      assert.strictEqual(other.hashSync(pw, bcrypt.genSaltSync(4)).slice(0, 7), '$2b$04$');
    }
  }
  // $2a$ salts keep their prefix; a Buffer is a password.
  const a = bcrypt.genSaltSync(4, 'a');
  assert.strictEqual(bcrypt.hashSync(Buffer.from('pw'), a), bcryptjs.hashSync('pw', a));
  assert.ok(bcrypt.hashSync('pw', a).startsWith('$2a$04$'));
});

test('bcrypt: the callback forms, genSalt, getRounds', withBcryptjs, async () => {
  const hashed = await new Promise((resolve, reject) => bcrypt.hash('pw', 4, (e, h) => (e ? reject(e) : resolve(h))));
  assert.strictEqual(bcryptjs.compareSync('pw', hashed), true);
  const matched = await new Promise((resolve, reject) => bcrypt.compare('pw', hashed, (e, m) => (e ? reject(e) : resolve(m))));
  assert.strictEqual(matched, true);
  const salt = await new Promise((resolve, reject) => bcrypt.genSalt(6, (e, s) => (e ? reject(e) : resolve(s))));
  assert.match(salt, /^\$2b\$06\$[./A-Za-z0-9]{22}$/);
  assert.match(await bcrypt.genSalt(), /^\$2b\$10\$/);
  assert.strictEqual(bcrypt.getRounds(hashed), 4);
  assert.strictEqual(bcrypt.getRounds(salt), 6);
  // Rounds outside 4..=31 become 4 or 31, as bcrypt's salts have them.
  assert.ok(bcrypt.genSaltSync(3).startsWith('$2b$04$'));
  assert.ok(bcrypt.genSaltSync(40).startsWith('$2b$31$'));
  assert.strictEqual(await bcrypt.compare('pw', 'garbage'), false);
});

test('bcrypt: bad input is refused as bcrypt refuses it', async () => {
  assert.throws(() => bcrypt.hashSync('pw'), /data and salt arguments required/);
  assert.throws(() => bcrypt.hashSync(5, 4), /data must be a string or Buffer/);
  assert.throws(() => bcrypt.genSaltSync('ten'), /rounds must be a number/);
  assert.throws(() => bcrypt.genSaltSync(10, 'c'), /minor must be either "a" or "b"/);
  assert.throws(() => bcrypt.getRounds('xx'), /invalid hash provided/);
  await assert.rejects(bcrypt.hash('pw', '$2b$04$short'), /bcrypt: salt "\$2b\$04\$short"; expected/);
  await assert.rejects(bcrypt.compare('pw', 5), /data and hash must be strings/);
  await assert.rejects(bcrypt.hash('pw', 4, 'not a function'), /cb must be a function/);
  const err = await new Promise((resolve) => bcrypt.hash(null, 4, resolve));
  assert.match(err.message, /data and salt arguments required/);
});

test('the hashes ran on sluice\'s Cpu lane', async () => {
  const cpu = () => sluice.metricsJson().pool.lanes.find((l) => l.lane === 'cpu').started_total;
  const before = cpu();
  await argon2.hash('pw', small);
  await bcrypt.hash('pw', 4);
  const after = cpu();
  assert.ok(after >= before + 2, `cpu started ${before} -> ${after}`);
});
