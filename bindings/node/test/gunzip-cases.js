'use strict';
// Crafted gzip inputs for gunzip's format rules: Node's multi-member and
// padding rules, every header field, and each of zlib's inflate errors.
// `gunzip-node.test.js` runs each through Node's own zlib.gunzip and through
// the preload's; the fuzz smoke's seeds (fuzz/seeds/gunzip_node) were written
// from the same table by `node test/gunzip-cases.js --write DIR`.

const zlib = require('node:zlib');

const CRC_TABLE = (() => {
  const t = new Int32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c;
  }
  return t;
})();

function crc32(buf) {
  let c = -1;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ -1) >>> 0;
}

const u32 = (n) => {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n >>> 0);
  return b;
};

// A gzip member built by hand: `flags` (FTEXT 1, FHCRC 2, FEXTRA 4, FNAME 8,
// FCOMMENT 16, reserved 0xe0), optional fields, and the deflate body of
// `data` (or `body` as given), then CRC-32 and ISIZE (or the given ones).
function member(data, opt = {}) {
  const d = Buffer.from(data);
  let flags = opt.flags ?? 0;
  const parts = [];
  if (opt.extra) flags |= 4;
  if (opt.name !== undefined) flags |= 8;
  if (opt.comment !== undefined) flags |= 16;
  if (opt.hcrc) flags |= 2;
  const head = Buffer.from([0x1f, 0x8b, opt.method ?? 8, flags, 0, 0, 0, 0, 0, 3]);
  parts.push(head);
  if (opt.extra) {
    const x = Buffer.alloc(2);
    x.writeUInt16LE(opt.extra.length);
    parts.push(x, Buffer.from(opt.extra));
  }
  if (opt.name !== undefined) parts.push(Buffer.from(opt.name, 'latin1'), Buffer.alloc(1));
  if (opt.comment !== undefined) parts.push(Buffer.from(opt.comment, 'latin1'), Buffer.alloc(1));
  if (opt.hcrc) {
    const crc = crc32(Buffer.concat(parts)) & 0xffff;
    const h = Buffer.alloc(2);
    h.writeUInt16LE(opt.hcrc === 'bad' ? crc ^ 0x5555 : crc);
    parts.push(h);
  }
  parts.push(opt.body ?? zlib.deflateRawSync(d));
  parts.push(u32(opt.crc ?? crc32(d)), u32(opt.isize ?? d.length));
  return Buffer.concat(parts);
}

const gz = (s) => zlib.gzipSync(s);
const text = 'hello hello hello sluice '.repeat(40);
const one = gz(text);
const two = gz('second member');
const hex = (s) => Buffer.from(s.replace(/ /g, ''), 'hex');
const zeros = (n) => Buffer.alloc(n);
const cat = (...b) => Buffer.concat(b);
// 1 MiB of varied bytes (several output chunks of Node's 16 KiB).
const big = Buffer.from(Array.from({ length: 1 << 20 }, (_, i) => (i * 7 + (i >> 9)) & 0xff));

const cases = [
  ['one member', one],
  ['two members', cat(one, two)],
  ['empty member', gz('')],
  ['1 MiB member', gz(big)],
  ['two members, the second 1 MiB', cat(one, gz(big))],
  ['member then 1 zero byte', cat(one, zeros(1))],
  ['member then 10 zero bytes', cat(one, zeros(10))],
  ['member then 100 000 zero bytes', cat(one, zeros(100000))],
  ['member, zeros, member', cat(one, zeros(4), two)],
  ['member, zero, magic', cat(one, hex('00 1f 8b 08'))],
  ['member, garbage 1f 8b ff ff, zeros', cat(one, two, hex('1f 8b ff ff'), zeros(10))],
  ['member, garbage 1f 8b ff ff', cat(one, two, hex('1f 8b ff ff'))],
  ['member, 1f 8b', cat(one, hex('1f 8b'))],
  ['member, 1f', cat(one, hex('1f'))],
  ['member, 1f 8b 08', cat(one, hex('1f 8b 08'))],
  ['member, a gzip header alone', cat(one, one.subarray(0, 10))],
  ['member, garbage ab cd ef', cat(one, hex('ab cd ef'))],
  ['member, garbage 1f 00', cat(one, hex('1f 00 00 00'))],
  ['member, a zlib stream', cat(one, zlib.deflateSync('x'))],
  ['member, garbage text', cat(one, Buffer.from('trailing garbage'))],
  ['member, then a truncated member', cat(one, two.subarray(0, two.length - 3))],
  ['member, then a member with a bad CRC', cat(one, member('abc', { crc: 1 }))],
  ['empty input', zeros(0)],
  ['one zero byte', zeros(1)],
  ['zeros only', zeros(16)],
  ['1f', hex('1f')],
  ['1f 8b', hex('1f 8b')],
  ['a header alone', one.subarray(0, 10)],
  ['truncated body', one.subarray(0, 20)],
  ['no trailer', one.subarray(0, one.length - 8)],
  ['half a trailer', one.subarray(0, one.length - 4)],
  ['a zlib stream', zlib.deflateSync('not gzip')],
  ['a raw deflate stream', zlib.deflateRawSync('not gzip')],
  ['text', Buffer.from('not gzip data at all')],
  ['1f 8b, bad method 0', member('abc', { method: 0 })],
  ['1f 8b, bad method 7', member('abc', { method: 7 })],
  ['reserved flag 0x20', member('abc', { flags: 0x20 })],
  ['reserved flag 0x80', member('abc', { flags: 0x80 })],
  ['FTEXT', member('abc', { flags: 1 })],
  ['bad CRC-32', member('abc', { crc: 0x12345678 })],
  ['bad ISIZE', member('abc', { isize: 4 })],
  ['FHCRC right', member('abc', { hcrc: true, name: 'a.txt' })],
  ['FHCRC wrong', member('abc', { hcrc: 'bad', name: 'a.txt' })],
  ['FEXTRA', member('abc', { extra: 'AB\x04\x00wxyz' })],
  ['FEXTRA of 65535 bytes', member('abc', { extra: 'x'.repeat(65535) })],
  ['FNAME', member('abc', { name: 'file.txt' })],
  ['FNAME of 64 KiB', member('abc', { name: 'n'.repeat(65536) })],
  ['FNAME of 200 KiB', member('abc', { name: 'n'.repeat(200 * 1024) })],
  ['FCOMMENT of 70 KiB', member('abc', { comment: 'c'.repeat(70 * 1024) })],
  ['FNAME and FCOMMENT of 64 KiB, FHCRC', member('abc', { name: 'n'.repeat(65536), comment: 'c'.repeat(65536), hcrc: true })],
  ['FNAME without its end', cat(hex('1f 8b 08 08 00 00 00 00 00 03'), Buffer.from('name'))],
  ['FEXTRA cut short', cat(hex('1f 8b 08 04 00 00 00 00 00 03 10 00'), Buffer.from('abc'))],
  ['invalid block type', member('abc', { body: hex('07 00') })],
  ['invalid stored block lengths', member('abc', { body: hex('01 05 00 00 00 61 62 63 64 65') })],
  ['invalid distance too far back', member('abc', { body: hex('63 00 42 00 00') })],
  ['invalid code lengths set', member('abc', { body: hex('04 00 fe ff') })],
  ['stored block, right', member('abcde', { body: hex('01 05 00 fa ff 61 62 63 64 65') })],
  ['deflate body then trailing bytes inside the member', member('abc', { body: cat(zlib.deflateRawSync('abc'), hex('00')) })],
];

module.exports = { cases, member, crc32 };

if (require.main === module && process.argv[2] === '--write') {
  const fs = require('node:fs');
  const path = require('node:path');
  const dir = process.argv[3];
  fs.mkdirSync(dir, { recursive: true });
  cases.forEach(([name, bytes], i) => {
    if (bytes.length > 72 * 1024) return; // the seeds stay small
    const file = `${String(i).padStart(2, '0')}-${name.replace(/[^a-zA-Z0-9]+/g, '-').replace(/-$/, '')}`;
    fs.writeFileSync(path.join(dir, file), bytes);
  });
}
