'use strict';
// fs.open, fs.read, fs.write, fs.close and fs.fstat on the FastIo lane: the
// calls fs.createReadStream and fs.createWriteStream make (ReadStream calls
// fs.open, fs.read and fs.close through the `fs` module, so express.static
// and `send` reach them), and FileHandle's read, write and stat.
//
// The callback forms are replaced in `fs`, as readFile and stat are: a call
// whose arguments are a shape sluice runs goes to the addon; any other
// shape (a Buffer or URL path, a string mode, options objects, a bigint
// position, a length of 0, an argument Node refuses) is Node's own call.
//
// FileHandle's methods do not call `fs.read` or `fs.write`: they call
// Node's fs binding with its `kUsePromises` marker. That binding is
// `process.binding('fs')`, the very object Node's fs code calls, so its
// `read`, `writeBuffer`, `writeString` and `fstat` are wrapped: a
// `kUsePromises` call (FileHandle.read/write/stat, and readFile on a
// FileHandle) of a shape sluice runs returns sluice's promise, and every
// other call (synchronous ones, Node's own callback requests) goes to
// Node's function untouched. Node has checked the arguments by then, and
// FileHandle's reference count (which keeps `close()` from running under a
// read) is Node's, around the call. `fs.promises.open` itself and
// `FileHandle.close` stay on libuv: they make and end Node's FileHandle
// object, which only Node's binding can.

const nodeFs = require('node:fs');
const { Buffer } = require('node:buffer');
const { isArrayBufferView } = require('node:util').types;

const native = require('../binding.js');
const { slot } = require('./inbox.js');
const { start } = require('./call.js');
const { planned } = require('./pool.js');
const { count } = require('./metrics.js');
const { fallback, nowait } = require('./ops.js');
const shapes = require('./shapes.js');
const { FS } = require('./requests.js');

const {
  O_RDONLY, O_WRONLY, O_RDWR, O_CREAT, O_EXCL, O_TRUNC, O_APPEND, O_SYNC,
} = nodeFs.constants;

// stringToFlags of Node's internal/fs/utils.
const FLAGS = new Map([
  ['r', O_RDONLY], ['rs', O_RDONLY | O_SYNC], ['sr', O_RDONLY | O_SYNC],
  ['r+', O_RDWR], ['rs+', O_RDWR | O_SYNC], ['sr+', O_RDWR | O_SYNC],
  ['w', O_TRUNC | O_CREAT | O_WRONLY], ['wx', O_TRUNC | O_CREAT | O_WRONLY | O_EXCL],
  ['xw', O_TRUNC | O_CREAT | O_WRONLY | O_EXCL],
  ['w+', O_TRUNC | O_CREAT | O_RDWR], ['wx+', O_TRUNC | O_CREAT | O_RDWR | O_EXCL],
  ['xw+', O_TRUNC | O_CREAT | O_RDWR | O_EXCL],
  ['a', O_APPEND | O_CREAT | O_WRONLY], ['ax', O_APPEND | O_CREAT | O_WRONLY | O_EXCL],
  ['xa', O_APPEND | O_CREAT | O_WRONLY | O_EXCL], ['as', O_APPEND | O_CREAT | O_WRONLY | O_SYNC],
  ['sa', O_APPEND | O_CREAT | O_WRONLY | O_SYNC],
  ['a+', O_APPEND | O_CREAT | O_RDWR], ['ax+', O_APPEND | O_CREAT | O_RDWR | O_EXCL],
  ['xa+', O_APPEND | O_CREAT | O_RDWR | O_EXCL], ['as+', O_APPEND | O_CREAT | O_RDWR | O_SYNC],
  ['sa+', O_APPEND | O_CREAT | O_RDWR | O_SYNC],
]);

// What Node's descriptor calls make for async_hooks: one FSREQCALLBACK each
// (listed as an FSReqCallback); FileHandle's, an FSReqPromise each.
const FSREQ = { type: 'FSREQCALLBACK', listed: FS };
const FSREQ_PROMISE = { listed: FS };

const isInt = (v, min, max) => typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;
const isFd = (fd) => isInt(fd, 0, 2 ** 31 - 1);
// Node refuses a read or write longer than this (kIoMaxLength, INT32_MAX).
const IO_MAX = 2 ** 31 - 1;
// `length` bytes of `view` from `offset`, at least `min` and at most IO_MAX.
const fits = (view, offset, length, min) =>
  isInt(offset, 0, view.byteLength) && isInt(length, min, Math.min(IO_MAX, view.byteLength - offset));

function openFlags(flags) {
  if (flags === undefined || flags === null) return O_RDONLY;
  if (typeof flags === 'number') return isInt(flags, -(2 ** 31), 2 ** 31 - 1) ? flags : null;
  return typeof flags === 'string' && FLAGS.has(flags) ? FLAGS.get(flags) : null;
}

// A position: -1 (the file's offset) for null/undefined, else a whole
// number from -1 up; null for anything else (a bigint is Node's).
function position(p) {
  if (p === undefined || p === null) return -1;
  return isInt(p, -1, Number.MAX_SAFE_INTEGER) ? p : null;
}

// The bytes of `view` from `offset` for `length`, as a Buffer over its memory.
function window(view, offset, length) {
  return Buffer.from(view.buffer, view.byteOffset + offset, length);
}

// A replacement for `orig(...args, callback)`: `plan(args)` (the arguments
// before the callback) returns `(callback) => void` that runs it, or null
// for a shape that is Node's (then Node's function gets the caller's very
// arguments). `like` gives it the original's name, length and symbols.
function lastCallback(op, orig, like, plan) {
  return like(orig, function (...args) {
    const cb = args[args.length - 1];
    const run = typeof cb === 'function' ? planned(() => plan(args.slice(0, -1))) : null;
    if (!run) {
      fallback(op);
      return Reflect.apply(orig, this, args);
    }
    count('calls', op);
    run(cb);
    return undefined;
  });
}

// Installs the patches `enabled` names ({ open, read, write, close, fstat });
// `like(orig, replacement)` gives a replacement the original's name, length
// and symbols (patch.js's). Returns the names patched.
function install(enabled, like) {
  const patched = [];
  // The permission model (--experimental-permission) checks paths in
  // Node's binding; sluice would not, so under it nothing here is patched.
  if (process.permission !== undefined) return patched;

  const original = {
    open: nodeFs.open, read: nodeFs.read, write: nodeFs.write, close: nodeFs.close, fstat: nodeFs.fstat,
  };

  const readInto = (buffer, offset) => (data) => {
    window(buffer, offset, data.length).set(data);
    return data.length;
  };

  if (enabled.open) {
    nodeFs.open = lastCallback('open', original.open, like, ([path, flags, mode]) => {
      const p = shapes.pathShape(path);
      const f = p === null ? null : openFlags(flags);
      const m = mode === undefined ? 0o666 : mode;
      if (f === null || !isInt(m, 0, 2 ** 32 - 1)) return null;
      return (cb) => start(() => native.fdOpen(slot, p, f, m, nowait()), p, null, cb, undefined, FSREQ);
    });
    patched.push('fs.open');
  }

  if (enabled.read) {
    nodeFs.read = lastCallback('read', original.read, like, (args) => {
      if (args.length !== 5) return null;
      const [fd, buffer, offset, length] = args;
      const pos = position(args[4]);
      if (!isFd(fd) || !isArrayBufferView(buffer) || pos === null) return null;
      if (!fits(buffer, offset, length, 1)) return null;
      // Node's callback gets (err, bytesRead || 0, buffer), an error too.
      return (cb) => start(() => native.fdRead(slot, fd, length, pos, nowait()), undefined, readInto(buffer, offset),
        (err, n) => cb(err, n || 0, buffer), undefined, FSREQ);
    });
    patched.push('fs.read');
  }

  if (enabled.write) {
    nodeFs.write = lastCallback('write', original.write, like, (args) => {
      const [fd, data] = args;
      if (!isFd(fd)) return null;
      let bytes;
      let pos;
      if (isArrayBufferView(data)) {
        if (args.length !== 5) return null;
        const [, , offset, length, p] = args;
        if (!fits(data, offset, length, 0)) return null;
        // Node writes at a position only for a whole number >= 0.
        pos = isInt(p, 0, Number.MAX_SAFE_INTEGER) ? p : (p === null || p === undefined ? -1 : null);
        bytes = window(data, offset, length);
      } else if (typeof data === 'string' && args.length <= 4) {
        const [, , p, encoding] = args;
        if (encoding !== undefined && !(typeof encoding === 'string' && Buffer.isEncoding(encoding))) return null;
        pos = isInt(p, 0, Number.MAX_SAFE_INTEGER) ? p : (p === null || p === undefined ? -1 : null);
        bytes = Buffer.from(data, encoding || 'utf8');
      } else {
        return null;
      }
      if (pos === null) return null;
      return (cb) => start(() => native.fdWrite(slot, fd, bytes, pos), undefined, null,
        (err, n) => cb(err, n || 0, data), undefined, FSREQ);
    });
    patched.push('fs.write');
  }

  if (enabled.close) {
    nodeFs.close = lastCallback('close', original.close, like, (args) => {
      if (args.length !== 1 || !isFd(args[0])) return null;
      return (cb) => start(() => native.fdClose(slot, args[0]), undefined, null,
        (err) => (err ? cb(err) : cb(null)), undefined, FSREQ);
    });
    patched.push('fs.close');
  }

  if (enabled.fstat) {
    nodeFs.fstat = lastCallback('fstat', original.fstat, like, (args) => {
      if (args.length > 2 || !isFd(args[0]) || !shapes.statOptionsOk(args[1])) return null;
      return (cb) => start(() => native.fdFstat(slot, args[0], false), undefined, null, cb, undefined,
        FSREQ);
    });
    patched.push('fs.fstat');
  }

  patched.push(...fileHandle(enabled));
  return patched;
}

// FileHandle's read, write and stat: the `kUsePromises` calls of Node's fs
// binding (see the top of this file).
function fileHandle(enabled) {
  const patched = [];
  let binding;
  try {
    // Under --pending-deprecation process.binding warns (DEP0111): left alone.
    if (process.binding.name === 'deprecated') return patched;
    binding = process.binding('fs');
  } catch {
    return patched;
  }
  const { kUsePromises } = binding;
  if (kUsePromises === undefined) return patched;

  // `plan(...args)` returns the promise sluice runs, or null (Node's call).
  function wrap(name, op, plan) {
    const orig = binding[name];
    if (typeof orig !== 'function') return;
    binding[name] = function (...args) {
      if (args[args.length - 1] === kUsePromises) {
        const run = planned(() => plan(...args));
        if (run) {
          count('calls', op);
          return run();
        }
        fallback(op);
      }
      return Reflect.apply(orig, this, args);
    };
    patched.push(`FileHandle.${op}`);
  }

  if (enabled.read) {
    wrap('read', 'read', (fd, buffer, offset, length, pos) => {
      if (!isFd(fd) || !isArrayBufferView(buffer) || position(pos) === null) return null;
      if (!fits(buffer, offset, length, 1)) return null;
      return () => start(() => native.fdRead(slot, fd, length, pos), undefined, (data) => {
        window(buffer, offset, data.length).set(data);
        return data.length;
      }, undefined, undefined, FSREQ_PROMISE);
    });
  }
  if (enabled.write) {
    wrap('writeBuffer', 'write', (fd, buffer, offset, length, pos) => {
      if (!isFd(fd) || !isArrayBufferView(buffer)) return null;
      if (!fits(buffer, offset, length, 0)) return null;
      const p = isInt(pos, 0, Number.MAX_SAFE_INTEGER) ? pos : (pos === null || pos === undefined ? -1 : null);
      if (p === null) return null;
      const bytes = window(buffer, offset, length);
      return () => start(() => native.fdWrite(slot, fd, bytes, p), undefined, null, undefined, undefined,
        FSREQ_PROMISE);
    });
    wrap('writeString', 'write', (fd, string, pos, encoding) => {
      if (!isFd(fd) || typeof string !== 'string') return null;
      if (encoding !== undefined && !(typeof encoding === 'string' && Buffer.isEncoding(encoding))) return null;
      const p = isInt(pos, 0, Number.MAX_SAFE_INTEGER) ? pos : (pos === null || pos === undefined ? -1 : null);
      if (p === null) return null;
      const bytes = Buffer.from(string, encoding || 'utf8');
      return () => start(() => native.fdWrite(slot, fd, bytes, p), undefined, null, undefined, undefined,
        FSREQ_PROMISE);
    });
    // `wrap` named it twice.
    patched.splice(patched.lastIndexOf('FileHandle.write'), 1);
  }
  if (enabled.fstat) {
    wrap('fstat', 'fstat', (fd, bigint) => {
      if (!isFd(fd) || bigint) return null;
      // Node's binding resolves to the fields; FileHandle builds the Stats.
      return () => start(() => native.fdFstat(slot, fd, true), undefined, null, undefined, undefined,
        FSREQ_PROMISE);
    });
  }
  return patched;
}

module.exports = { install, lastCallback };
