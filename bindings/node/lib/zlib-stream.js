'use strict';
// zlib and brotli streams on the Cpu lane.
//
// Every zlib stream Node makes (createGzip, createDeflate, createInflate,
// createBrotliCompress, ..., and through them the convenience forms deflate,
// inflate, deflateRaw, inflateRaw, unzip, brotliCompress, brotliDecompress)
// does its work through a handle, `new binding.Zlib(mode)` (or
// `BrotliEncoder`/`BrotliDecoder`), where `binding` is
// `process.binding('zlib')`, the very object Node's zlib module reads the
// class from at each construction. Its `write()` runs the library on
// libuv's pool and calls back `processCallback` on the loop. This file puts
// a handle of sluice's in those three places: Node's zlib module (its
// options checks, flush logic, streams and errors) runs unchanged; the
// library calls run on a Cpu worker, each write one call, as in Node. The
// library is Node's own (see src/zstream/), so the bytes are Node's.
//
// A mode whose switch is off (or sluice turned off by a refused SLUICE_*
// variable) gets Node's own handle, made by the same `new`.

const { AsyncResource } = require('node:async_hooks');
const { Buffer } = require('node:buffer');

const native = require('../binding.js');
const { slot, expect } = require('./inbox.js');
const { isFailure, failureError } = require('./errors.js');
const { disabled } = require('./pool.js');
const { callInScope } = require('./uncaught.js');
const { count } = require('./metrics.js');
const { fallback, NOWAIT } = require('./ops.js');

// Node's modes (zlib.constants: DEFLATE 1 ... BROTLI_ENCODE 9) and the
// switch (an `enabled` key) that moves each.
const SWITCH = {
  1: 'deflate', 5: 'deflate', 3: 'gzip',
  2: 'inflate', 6: 'inflate', 7: 'inflate', 4: 'gunzip',
  9: 'brotliCompress', 8: 'brotliDecompress',
};

function asBuffer(view) {
  if (view === undefined || view === null) return undefined;
  return Buffer.isBuffer(view) ? view : Buffer.from(view.buffer, view.byteOffset, view.byteLength);
}

// Installs the handles for the modes `enabled` names ({ deflate, gzip,
// inflate, gunzip, brotliCompress, brotliDecompress }); returns their names.
function install(enabled) {
  let binding;
  try {
    // Under --pending-deprecation process.binding warns (DEP0111): left alone.
    if (process.binding.name === 'deprecated') return [];
    binding = process.binding('zlib');
  } catch {
    return [];
  }
  if (typeof binding.Zlib !== 'function') return [];
  const original = { Zlib: binding.Zlib, BrotliEncoder: binding.BrotliEncoder, BrotliDecoder: binding.BrotliDecoder };
  const zlibOk = native.zlibAvailable();
  const brotliOk = native.brotliAvailable();

  // Node's handle's own symbol for its stream (`owner_symbol`), found on
  // the first handle Node's zlib module sets it on.
  let ownerSymbol = null;
  const owner = (handle) => {
    if (ownerSymbol === null) {
      ownerSymbol = Object.getOwnPropertySymbols(handle).find((s) => s.description === 'owner_symbol') || null;
    }
    return ownerSymbol === null ? undefined : handle[ownerSymbol];
  };

  class Handle extends AsyncResource {
    #native;
    #mode;
    // Node's own handle, where init() asks for what sluice does not run
    // (Node 24's brotli dictionary and rejectGarbageAfterEnd): every call
    // is then forwarded to it, its callbacks back to this handle.
    #node = null;
    #state = null;
    #callback = null;
    #writing = false;
    #pendingClose = false;
    // The last write's input and what a write of its rest would pass.
    #in = null;
    #nextOff = -1;
    #nextLen = -1;
    #out = null;
    #outOff = 0;

    constructor(mode, Orig) {
      super('ZLIB');
      this.#mode = mode;
      this.#native = new native.ZlibHandle(mode);
      this.#node = Orig;
    }

    getAsyncId() {
      return this.asyncId();
    }

    // zlib: (windowBits, level, memLevel, strategy, writeState, processCallback, dictionary[, rejectGarbageAfterEnd]);
    // brotli: (params, writeState, processCallback[, dictionary]).
    init(...args) {
      const brotli = this.#mode >= 8;
      const Orig = this.#node;
      this.#node = null;
      if (brotli ? args[3] !== undefined : args[7] === true) return this.#delegate(Orig, brotli, args);
      if (brotli) {
        [, this.#state, this.#callback] = args;
        if (this.#native.initBrotli(Array.from(args[0]))) {
          // Node's binding throws this for a parameter brotli refuses.
          const err = new Error('Initialization failed');
          err.code = 'ERR_ZLIB_INITIALIZATION_FAILED';
          throw err;
        }
        return true;
      }
      const [windowBits, level, memLevel, strategy, state, callback, dictionary] = args;
      this.#state = state;
      this.#callback = callback;
      this.#native.initZlib(windowBits, level, memLevel, strategy, asBuffer(dictionary));
      return true;
    }

    #delegate(Orig, brotli, args) {
      fallback(`${SWITCH[this.#mode]}Stream`);
      this.#native.close();
      const node = new Orig(this.#mode);
      this.#node = node;
      const self = this;
      const at = brotli ? 2 : 5;
      const callback = args[at];
      args[at] = function () {
        return Reflect.apply(callback, self, []);
      };
      node.onerror = (...e) => self.onerror(...e);
      for (const m of ['params', 'reset', 'close', 'write', 'writeSync']) {
        this[m] = (...a) => Reflect.apply(node[m], node, a);
      }
      return node.init(...args);
    }

    params(level, strategy) {
      const f = this.#native.params(level, strategy);
      if (f) this.#emitError(f);
    }

    reset() {
      const f = this.#native.reset();
      if (f) this.#emitError(f);
    }

    close() {
      if (this.#writing) {
        this.#pendingClose = true;
        return;
      }
      this.#pendingClose = false;
      this.#native.close();
    }

    writeSync(flush, input, inOff, inLen, out, outOff, outLen) {
      const r = this.#native.writeSync(flush, asBuffer(input) ?? null, inOff, inLen, out, outOff, outLen);
      if (isFailure(r)) {
        this.#emitError(r);
        return;
      }
      this.#state[0] = r[0];
      this.#state[1] = r[1];
    }

    write(flush, input, inOff, inLen, out, outOff, outLen) {
      const buf = asBuffer(input) ?? null;
      const more = buf !== null && input === this.#in && inOff === this.#nextOff && inLen === this.#nextLen;
      this.#in = input;
      this.#nextOff = inOff;
      this.#nextLen = inLen;
      this.#out = out;
      this.#outOff = outOff;
      this.#writing = true;
      let id;
      try {
        // NOWAIT: a small write runs on this thread (src/zstream, `write`).
        id = this.#native.write(slot, flush, more ? null : buf, inOff, inLen, more, outLen, NOWAIT);
      } catch (err) {
        this.#writing = false;
        process.nextTick(() => this.#emitError(err));
        return;
      }
      expect(id, (value) => this.#settle(value));
    }

    #settle(value) {
      this.#writing = false;
      if (isFailure(value)) {
        this.#in = null;
        callInScope(this, () => this.#emitError(value), undefined);
      } else {
        const [availOut, availIn] = this.#native.take(this.#out, this.#outOff);
        this.#nextOff += this.#nextLen - availIn;
        this.#nextLen = availIn;
        this.#out = null;
        this.#state[0] = availOut;
        this.#state[1] = availIn;
        callInScope(this, this.#callback, this);
      }
      if (this.#pendingClose) this.close();
    }

    // node_zlib.cc's EmitError: onerror(message, errno, code), then a
    // close that waited for the write.
    #emitError(f) {
      const err = f instanceof Error ? f : f.kind === 'zlib' ? null : failureError(f);
      const message = err === null ? f.message : err.message;
      const errno = err === null ? f.errno : typeof err.errno === 'number' ? err.errno : -1;
      const code = err === null ? f.code : err.code;
      this.#writing = false;
      if (typeof this.onerror === 'function') this.onerror(message, errno, code);
      if (this.#pendingClose) this.close();
    }

    // The legacy alias Node's zlib module defines on its handle.
    get jsref() {
      return owner(this);
    }

    set jsref(v) {
      owner(this);
      if (ownerSymbol !== null) this[ownerSymbol] = v;
    }
  }

  // `new binding.Zlib(mode)` returns sluice's handle, or Node's for a mode
  // that stays (a constructor that returns an object makes `new` give it).
  const handleClass = (Orig, available) => {
    const make = function (mode) {
      if (!available || disabled() !== null || !enabled[SWITCH[mode]]) return new Orig(mode);
      count('calls', `${SWITCH[mode]}Stream`);
      return new Handle(mode, Orig);
    };
    Object.defineProperty(make, 'name', { value: Orig.name });
    make.prototype = Handle.prototype;
    return make;
  };

  const patched = [];
  const names = (modes) => modes.filter((m) => enabled[m]);
  if (zlibOk && names(['deflate', 'gzip', 'inflate', 'gunzip']).length > 0) {
    binding.Zlib = handleClass(original.Zlib, true);
    patched.push(...names(['deflate', 'gzip', 'inflate', 'gunzip']).map((m) => `zlib ${m} streams`));
  }
  if (brotliOk && enabled.brotliCompress) {
    binding.BrotliEncoder = handleClass(original.BrotliEncoder, true);
    patched.push('zlib brotliCompress streams');
  }
  if (brotliOk && enabled.brotliDecompress) {
    binding.BrotliDecoder = handleClass(original.BrotliDecoder, true);
    patched.push('zlib brotliDecompress streams');
  }
  return patched;
}

module.exports = { install };
