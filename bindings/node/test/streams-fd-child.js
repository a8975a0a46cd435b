'use strict';
// Run on plain node and under `-r ./patch.js`: zlib streams and convenience
// forms, and fs.open/read/write/close/fstat, createReadStream/WriteStream and
// FileHandle, each case's outcome as text (the bytes' sha1 and length, or the
// error's class, code, errno and message). streams-fd.test.js compares the
// two runs' lines; one JSON line: { outcomes, calls }.
const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const zlib = require('node:zlib');
const { describe } = require('./helpers.js');

const digest = (b) => `${crypto.createHash('sha1').update(b).digest('hex')}:${b.length}`;
const err = (e) => JSON.stringify(describe(e));

// Text that compresses as real pages do: the package's own sources, cut and
// numbered, ~700 KiB.
const src = fs.readFileSync(path.join(__dirname, '..', 'index.js'));
const parts = [];
for (let i = 0; i < 140; i++) parts.push(src.subarray((i * 977) % 20000, ((i * 977) % 20000) + 5000), Buffer.from(`#${i}\n`));
const text = Buffer.concat(parts);
const noise = crypto.createHash('sha512');
const random = Buffer.concat(Array.from({ length: 2048 }, (_, i) => noise.update(String(i)).copy().digest()));

const outcomes = {};
const cb = (resolve) => (e, buf) => resolve(e ? err(e) : digest(buf));
const viaCallback = (fn, ...args) => new Promise((resolve) => {
  try {
    fn(...args, cb(resolve));
  } catch (e) {
    resolve(`sync ${err(e)}`);
  }
});

// A stream fed `input` in `piece`-byte writes (a flush after the first).
function viaStream(make, input, piece) {
  return new Promise((resolve) => {
    let s;
    try {
      s = make();
    } catch (e) {
      resolve(`sync ${err(e)}`);
      return;
    }
    const out = [];
    s.on('data', (c) => out.push(c));
    s.on('error', (e) => resolve(err(e)));
    s.on('end', () => resolve(digest(Buffer.concat(out))));
    for (let i = 0; i < input.length; i += piece) {
      s.write(input.subarray(i, i + piece));
      if (i === 0) s.flush();
    }
    s.end();
  });
}

async function zlibCases() {
  const B = zlib.constants;
  const dict = text.subarray(0, 4096);
  const opts = [
    {}, { level: 1 }, { level: 9, memLevel: 9 }, { level: 0 }, { strategy: B.Z_FILTERED }, { strategy: B.Z_HUFFMAN_ONLY },
    { windowBits: 9 }, { chunkSize: 1024 }, { dictionary: dict },
  ];
  for (const fn of ['deflate', 'deflateRaw', 'gzip']) {
    for (const o of opts) {
      if (fn === 'gzip' && o.windowBits === 9) continue;
      const key = `${fn} ${JSON.stringify({ ...o, dictionary: o.dictionary ? 'text' : undefined })}`;
      outcomes[`${key} text`] = await viaCallback(zlib[fn], text, o);
      outcomes[`${key} random`] = await viaCallback(zlib[fn], random, o);
      outcomes[`${key} sync`] = digest(zlib[`${fn}Sync`](text, o));
    }
    const create = `create${fn[0].toUpperCase()}${fn.slice(1)}`;
    for (const piece of [1000, 65536]) outcomes[`${create} ${piece}`] = await viaStream(() => zlib[create](), text, piece);
  }
  const brotli = [{}, { params: { [B.BROTLI_PARAM_QUALITY]: 4 } }, { params: { [B.BROTLI_PARAM_MODE]: B.BROTLI_MODE_TEXT, [B.BROTLI_PARAM_LGWIN]: 18 } }];
  for (const o of brotli) {
    outcomes[`brotliCompress ${JSON.stringify(o)}`] = await viaCallback(zlib.brotliCompress, text, o);
  }
  outcomes['createBrotliCompress 8000'] = await viaStream(() => zlib.createBrotliCompress(), text, 8000);

  // Decompression: round trips, members, dictionaries, errors.
  const packed = {
    deflate: zlib.deflateSync(text), deflateRaw: zlib.deflateRawSync(text), gzip: zlib.gzipSync(text),
    brotli: zlib.brotliCompressSync(text),
  };
  const back = [['inflate', packed.deflate], ['inflateRaw', packed.deflateRaw], ['gunzip', packed.gzip],
    ['unzip', packed.gzip], ['unzip', packed.deflate], ['brotliDecompress', packed.brotli]];
  for (const [fn, input] of back) {
    outcomes[`${fn} round trip`] = await viaCallback(zlib[fn], input);
    outcomes[`${fn} truncated`] = await viaCallback(zlib[fn], input.subarray(0, input.length - 7));
    outcomes[`${fn} garbage`] = await viaCallback(zlib[fn], Buffer.from('not compressed at all, not at all'));
  }
  const twoMembers = Buffer.concat([packed.gzip, zlib.gzipSync(Buffer.from('second')), Buffer.alloc(5)]);
  outcomes['createGunzip two members'] = await viaStream(() => zlib.createGunzip(), twoMembers, 3000);
  outcomes['createUnzip one-byte chunks'] = await viaStream(() => zlib.createUnzip(), zlib.gzipSync(Buffer.from('abc')), 1);
  const withDict = zlib.deflateSync(text, { dictionary: dict });
  outcomes['inflate dictionary'] = await viaCallback(zlib.inflate, withDict, { dictionary: dict });
  outcomes['inflate missing dictionary'] = await viaCallback(zlib.inflate, withDict);
  outcomes['inflate wrong dictionary'] = await viaCallback(zlib.inflate, withDict, { dictionary: Buffer.from('x') });
  outcomes['inflate maxOutputLength'] = await viaCallback(zlib.inflate, packed.deflate, { maxOutputLength: 1000 });
  outcomes['createBrotliDecompress 700'] = await viaStream(() => zlib.createBrotliDecompress(), packed.brotli, 700);
  outcomes['brotli bad parameter'] = await viaStream(
    () => zlib.createBrotliCompress({ params: { [B.BROTLI_PARAM_DISABLE_LITERAL_CONTEXT_MODELING]: 42 } }), text, 100);

  // params() mid-stream and reset().
  outcomes['deflate params'] = await new Promise((resolve) => {
    const d = zlib.createDeflate({ level: 9 });
    const out = [];
    d.on('data', (c) => out.push(c)).on('end', () => resolve(digest(Buffer.concat(out))));
    d.write(text.subarray(0, 50000), () => d.params(1, B.Z_DEFAULT_STRATEGY, () => d.end(text.subarray(50000))));
  });
  outcomes['deflate reset'] = await new Promise((resolve) => {
    const d = zlib.createDeflate();
    const out = [];
    d.on('data', (c) => out.push(c)).on('end', () => resolve(digest(Buffer.concat(out))));
    d.write(text.subarray(0, 3000), () => {
      d.reset();
      d.end(text.subarray(3000, 9000));
    });
  });
}

async function fdCases(dir) {
  const file = path.join(dir, 'data.bin');
  fs.writeFileSync(file, text);
  const call = (fn, ...args) => new Promise((resolve) => {
    try {
      fn(...args, (e, ...values) => resolve({ e, values }));
    } catch (e) {
      resolve({ sync: e });
    }
  });
  const show = ({ e, values, sync }) =>
    (sync ? `sync ${err(sync)}` : e ? `${err(e)} ${JSON.stringify(values.map((v) => (Buffer.isBuffer(v) ? 'buffer' : v)))}` : 'ok');

  const opened = await call(fs.open, file, 'r');
  const fd = opened.values[0];
  const buf = Buffer.alloc(70000);
  const r1 = await call(fs.read, fd, buf, 10, 60000, 0);
  outcomes['read at 0'] = `${r1.values[0]} ${digest(buf)}`;
  const r2 = await call(fs.read, fd, buf, 0, 5000, null);
  outcomes['read at the offset'] = `${r2.values[0]} ${digest(buf.subarray(0, 5000))}`;
  const u16 = new Uint16Array(100);
  const r3 = await call(fs.read, fd, u16, 4, 40, text.length - 30);
  outcomes['read a Uint16Array past the end'] = `${r3.values[0]} ${digest(Buffer.from(u16.buffer))}`;
  outcomes['fstat size'] = String((await call(fs.fstat, fd)).values[0].size);
  outcomes['fstat isFile'] = String((await call(fs.fstat, fd, { bigint: false })).values[0].isFile());
  outcomes['write to a read-only fd'] = show(await call(fs.write, fd, Buffer.from('x'), 0, 1, null));
  outcomes.close = show(await call(fs.close, fd));
  outcomes['read a closed fd'] = show(await call(fs.read, fd, buf, 0, 10, 0));
  outcomes['fstat a closed fd'] = show(await call(fs.fstat, fd));
  outcomes['close a closed fd'] = show(await call(fs.close, fd));
  outcomes['open a missing file'] = show(await call(fs.open, path.join(dir, 'missing'), 'r'));
  outcomes['open a file as a directory'] = show(await call(fs.open, path.join(file, 'x'), 'r'));
  outcomes['open wx an existing file'] = show(await call(fs.open, file, 'wx'));
  outcomes['open bad flags'] = show(await call(fs.open, file, 'rw'));
  outcomes['read a bad offset'] = show(await call(fs.read, 0, buf, -1, 1, 0));

  const out = path.join(dir, 'out.txt');
  const w = (await call(fs.open, out, 'w+', 0o600)).values[0];
  outcomes['write a buffer'] = JSON.stringify((await call(fs.write, w, text, 100, 20000, 0)).values.slice(0, 1));
  outcomes['write a string'] = JSON.stringify((await call(fs.write, w, 'héllo', 20000)).values.slice(0, 1));
  outcomes['write a string as hex'] = JSON.stringify((await call(fs.write, w, 'cafe', null, 'hex')).values.slice(0, 1));
  outcomes['written'] = digest(fs.readFileSync(out));
  outcomes['mode'] = (fs.statSync(out).mode & 0o777).toString(8);
  await call(fs.close, w);

  // Streams and FileHandle.
  outcomes.createReadStream = await new Promise((resolve) => {
    const chunks = [];
    fs.createReadStream(file, { start: 1000, end: 400000, highWaterMark: 16384 })
      .on('data', (c) => chunks.push(c)).on('end', () => resolve(digest(Buffer.concat(chunks))));
  });
  outcomes['createReadStream missing'] = await new Promise((resolve) => {
    fs.createReadStream(path.join(dir, 'missing')).on('error', (e) => resolve(err(e)));
  });
  outcomes.createWriteStream = await new Promise((resolve) => {
    const target = path.join(dir, 'stream.txt');
    const s = fs.createWriteStream(target);
    for (let i = 0; i < text.length; i += 30000) s.write(text.subarray(i, i + 30000));
    s.end(() => resolve(digest(fs.readFileSync(target))));
  });
  const fh = await fs.promises.open(file, 'r+');
  const got = await fh.read(Buffer.alloc(9000), 0, 9000, 123);
  outcomes['FileHandle.read'] = `${got.bytesRead} ${digest(got.buffer)}`;
  outcomes['FileHandle.read defaults'] = String((await fh.read()).bytesRead);
  outcomes['FileHandle.write'] = String((await fh.write(Buffer.from('patched'), 0, 7, 5)).bytesWritten);
  outcomes['FileHandle.write string'] = String((await fh.write('string', 40)).bytesWritten);
  outcomes['FileHandle.stat'] = String((await fh.stat()).size);
  outcomes['FileHandle.readFile'] = digest(await fh.readFile());
  await fh.close();
  outcomes['after FileHandle writes'] = digest(fs.readFileSync(file));
}

(async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sluice-streams-fd-'));
  try {
    await zlibCases();
    await fdCases(dir);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  let calls = {};
  if (process.execArgv.some((a) => a.endsWith('patch.js'))) calls = require('..').metricsJson().node.calls;
  // The scratch directory's name is random: out of the comparison.
  for (const k of Object.keys(outcomes)) outcomes[k] = outcomes[k].split(dir).join('<dir>');
  console.log(JSON.stringify({ outcomes, calls }));
})();
