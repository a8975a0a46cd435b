'use strict';
// The table of calls the tests run through sluice and through Node: valid
// shapes sluice runs, shapes it hands to Node, and the bad inputs Node
// rejects (each error is compared with the one this node gives).
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sluice-cases-'));
const file = path.join(dir, 'f.txt');
fs.writeFileSync(file, 'contents of f\n');

const cases = {
  pbkdf2: [
    ['secret', 'salt', 10, 16, 'sha256'],
    ['secret', 'salt', 10, 0, 'sha256'], // keylen 0: Node's
    ['secret', 'salt', 10, 16, 'md5'], // a digest sluice does not run: Node's
    ['secret', 'salt', 10, 16, 'SHA256'],
    ['secret', 'salt', 'x', 16, 'sha256'],
    ['secret', 'salt', 0, 16, 'sha256'],
    ['secret', 'salt', 1.5, 16, 'sha256'],
    ['secret', 'salt', 10, -1, 'sha256'],
    ['secret', 'salt', 10, 2 ** 31, 'sha256'],
    ['secret', 'salt', 10, 16, 'nope'],
    ['secret', 'salt', 10, 16, undefined],
    ['secret', 'salt', 10, 16, 42],
    [42, 'salt', 10, 16, 'sha256'],
    ['secret', {}, 10, 16, 'sha256'],
    ['secret', null, 10, 16, 'sha256'],
  ],
  scrypt: [
    ['secret', 'salt', 16],
    ['secret', 'salt', 16, { N: 1024, r: 1, p: 1 }],
    ['secret', 'salt', 16, { N: 1000 }],
    ['secret', 'salt', 16, { N: 1024, cost: 1024 }],
    ['secret', 'salt', 16, { maxmem: 1024 }],
    ['secret', 'salt', 16, { N: 2 ** 20 }],
    ['secret', 'salt', -1],
    ['secret', 'salt', 'x'],
    [1, 'salt', 16],
    ['secret', 'salt', 16, 'opts'],
  ],
  randomBytes: [[8], [0], [-1], ['x'], [2 ** 31], [1.5]],
  gzip: [
    ['hello'],
    [Buffer.from('hello'), { level: 9 }],
    [new Uint8Array([1, 2, 3]), {}],
    [Buffer.from('hello'), { level: 10 }],
    [Buffer.from('hello'), { level: 'x' }],
    [Buffer.from('hello'), { windowBits: 9 }],
    [Buffer.from('hello'), { chunkSize: 10 }],
    [42],
    [{}],
  ],
  gunzip: [
    [require('node:zlib').gzipSync('hello')],
    [Buffer.from('not gzip')],
    [Buffer.alloc(0)],
    [42],
    [Buffer.from('x'), { finishFlush: 'x' }],
  ],
  readFile: [
    [file],
    [file, 'utf8'],
    [file, { encoding: 'hex', flag: 'r' }],
    [file, { flag: 'r+' }],
    [path.join(dir, 'missing')],
    [dir],
    [file, 'no-such-encoding'],
    [file, { encoding: 42 }],
    [file, 42],
    [42.5],
    [{}],
    ['bad\u0000path'],
    [''],
    [Buffer.from(file)],
  ],
  stat: [
    [file],
    [dir],
    [path.join(dir, 'missing')],
    [file, { bigint: true }],
    [42.5],
    [{}],
    ['bad\u0000path'],
    [''],
  ],
  lookup: [
    ['localhost'],
    ['localhost', 4],
    ['localhost', { family: 4, all: true }],
    ['localhost', { family: 'IPv4' }],
    ['localhost', { all: 'yes' }],
    ['localhost', { family: 5 }],
    ['localhost', 5],
    ['localhost', 'x'],
    ['localhost', { verbatim: 1 }],
    ['localhost', { order: 'random' }],
    ['localhost', { hints: -1 }],
    [42],
    [{}],
    ['127.0.0.1', { all: true }],
    ['a..b'],
    // What net.connect passes: AI_ADDRCONFIG.
    ['localhost', { hints: require('node:dns').ADDRCONFIG, all: true }],
    ['localhost', { hints: require('node:dns').ADDRCONFIG, family: 4 }],
    ['localhost', { hints: require('node:dns').ADDRCONFIG | require('node:dns').V4MAPPED, family: 6 }],
  ],
};

module.exports = { cases, dir };
