'use strict';
// crypto.randomBytes(size, callback) and crypto.randomFill(buf, [offset,
// [size]], callback) on the Cpu lane (the operating system's random source,
// as OpenSSL's is seeded from). The synchronous forms, a size of 0 and
// every argument Node refuses are Node's own calls.

const nodeCrypto = require('node:crypto');
const { Buffer } = require('node:buffer');
const { isAnyArrayBuffer, isArrayBufferView } = require('node:util').types;

const native = require('../binding.js');
const { slot } = require('./inbox.js');
const { start } = require('./call.js');
const { lastCallback } = require('./fd.js');

// The most bytes sluice fills in one call (a larger one is Node's).
const MAX = 2 ** 31 - 1;
// What Node's callback forms make for async_hooks: one RANDOMBYTESREQUEST.
const REQUEST = { type: 'RANDOMBYTESREQUEST' };
const isInt = (v, min, max) => typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;

// Installs the callback forms `enabled` names ({ randomBytes, randomFill }).
function install(enabled, like) {
  const patched = [];
  if (enabled.randomBytes) {
    nodeCrypto.randomBytes = lastCallback('randomBytes', nodeCrypto.randomBytes, like, ([size, ...rest]) => {
      if (rest.length !== 0 || !isInt(size, 1, MAX)) return null;
      return (cb) => start(() => native.randomBytes(slot, size), undefined, null, cb, undefined, REQUEST);
    });
    patched.push('crypto.randomBytes');
  }
  if (enabled.randomFill) {
    nodeCrypto.randomFill = lastCallback('randomFill', nodeCrypto.randomFill, like, (args) => {
      const [buf, offset, size, ...rest] = args;
      if (rest.length !== 0 || !(isArrayBufferView(buf) || isAnyArrayBuffer(buf))) return null;
      // (buf, offset, callback) takes `buf.length - offset`: of an
      // ArrayBuffer or a DataView (no length) Node refuses it.
      if (args.length === 2 && buf.length === undefined) return null;
      // Offsets and sizes count elements of a typed array, as in Node.
      const unit = buf.BYTES_PER_ELEMENT || 1;
      const from = offset === undefined ? 0 : offset;
      if (!isInt(from, 0, buf.byteLength / unit)) return null;
      const elements = size === undefined ? buf.byteLength / unit - from : size;
      if (!isInt(elements, 1, buf.byteLength / unit - from) || elements * unit > MAX) return null;
      const view = isAnyArrayBuffer(buf)
        ? Buffer.from(buf, from * unit, elements * unit)
        : Buffer.from(buf.buffer, buf.byteOffset + from * unit, elements * unit);
      return (cb) => start(() => native.randomBytes(slot, view.length), undefined, (bytes) => {
        view.set(bytes);
        return buf;
      }, cb, undefined, REQUEST);
    });
    patched.push('crypto.randomFill');
  }
  return patched;
}

module.exports = { install };
