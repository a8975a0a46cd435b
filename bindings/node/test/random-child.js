'use strict';
// Run on plain node and under `-r ./patch.js`: crypto.randomBytes and
// randomFill's callback forms, each case's outcome as text (the class and
// length of the result, whether bytes outside the range asked for stayed
// zero and some inside changed, or the error). random.test.js compares the
// two runs. One JSON line: { outcomes, calls }.
const crypto = require('node:crypto');
const { describe } = require('./helpers.js');

// [name, function, arguments, the byte range that must be filled].
const cases = [
  ['randomBytes 16', 'randomBytes', [16]], ['randomBytes 0', 'randomBytes', [0]],
  ['randomBytes 70000', 'randomBytes', [70000]], ['randomBytes -1', 'randomBytes', [-1]],
  ['randomBytes string', 'randomBytes', ['16']],
  ['randomFill buffer', 'randomFill', [Buffer.alloc(64)], [0, 64]],
  ['randomFill buffer, offset', 'randomFill', [Buffer.alloc(64), 16], [16, 64]],
  ['randomFill buffer, offset, size', 'randomFill', [Buffer.alloc(64), 16, 20], [16, 36]],
  ['randomFill Uint32Array, offset, size', 'randomFill', [new Uint32Array(16), 4, 8], [16, 48]],
  ['randomFill ArrayBuffer, offset, size', 'randomFill', [new ArrayBuffer(64), 8, 40], [8, 48]],
  ['randomFill ArrayBuffer, offset', 'randomFill', [new ArrayBuffer(64), 8]],
  ['randomFill DataView', 'randomFill', [new DataView(new ArrayBuffer(64))], [0, 64]],
  ['randomFill offset past the end', 'randomFill', [Buffer.alloc(64), 65]],
  ['randomFill size past the end', 'randomFill', [Buffer.alloc(64), 16, 49]],
  ['randomFill size 0', 'randomFill', [Buffer.alloc(64), 64]],
  ['randomFill a string', 'randomFill', ['abc']],
  ['randomFill a fractional offset', 'randomFill', [new Float64Array(8), 1.5]],
];

function bytesOf(v) {
  if (v instanceof ArrayBuffer) return Buffer.from(v);
  return Buffer.from(v.buffer, v.byteOffset, v.byteLength);
}

(async () => {
  const outcomes = {};
  for (const [name, fn, args, range] of cases) {
    outcomes[name] = await new Promise((resolve) => {
      try {
        crypto[fn](...args, (e, v) => {
          if (e) return resolve(JSON.stringify(describe(e)));
          const b = bytesOf(v);
          let fill = '';
          if (range) {
            const [from, to] = range;
            const outside = [...b.subarray(0, from), ...b.subarray(to)].every((x) => x === 0);
            // 8 or more random bytes all zero: 2^-64.
            const inside = b.subarray(from, to).some((x) => x !== 0);
            fill = ` outside zero ${outside}, inside filled ${inside}`;
          }
          resolve(`${v.constructor.name} ${v.byteLength} ${v === args[0]}${fill}`);
        });
      } catch (e) {
        resolve(`sync ${JSON.stringify(describe(e))}`);
      }
    });
  }
  const patched = process.execArgv.some((a) => a.endsWith('patch.js'));
  console.log(JSON.stringify({ outcomes, calls: patched ? require('..').metricsJson().node.calls : {} }));
})();
