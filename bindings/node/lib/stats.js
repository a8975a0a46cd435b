'use strict';
// fs.Stats as Node's own binding builds them, from the 18 numbers the
// addon writes for a stat (`stat_fields` in src/fs.rs): dev, mode, nlink,
// uid, gid, rdev, blksize, ino, size, blocks, then seconds and nanoseconds
// of atime, mtime, ctime and birthtime.
//
// Node 22 and later deprecate the public constructor (DEP0180) and compute
// the Date fields lazily from the *Ms ones: there, a constructor of our own
// whose prototype is Stats' sets the fields Node's binding sets (an object
// of one shape, allocated in one go). Before 22, Node's own constructor
// (which builds the four Dates) is Node's own way.

const nodeFs = require('node:fs');

const msFromTimeSpec = (sec, nsec) => sec * 1e3 + nsec / 1e6;

const lazyDates = typeof (Object.getOwnPropertyDescriptor(nodeFs.Stats.prototype, 'atime') || {}).get === 'function';

function SlabStats(f, o) {
  this.dev = f[o];
  this.mode = f[o + 1];
  this.nlink = f[o + 2];
  this.uid = f[o + 3];
  this.gid = f[o + 4];
  this.rdev = f[o + 5];
  this.blksize = f[o + 6];
  this.ino = f[o + 7];
  this.size = f[o + 8];
  this.blocks = f[o + 9];
  this.atimeMs = msFromTimeSpec(f[o + 10], f[o + 11]);
  this.mtimeMs = msFromTimeSpec(f[o + 12], f[o + 13]);
  this.ctimeMs = msFromTimeSpec(f[o + 14], f[o + 15]);
  this.birthtimeMs = msFromTimeSpec(f[o + 16], f[o + 17]);
}
SlabStats.prototype = nodeFs.Stats.prototype;

/** The Stats of the 18 numbers at `f[o]`. */
function statsAt(f, o) {
  if (lazyDates) return new SlabStats(f, o);
  return new nodeFs.Stats(f[o], f[o + 1], f[o + 2], f[o + 3], f[o + 4], f[o + 5], f[o + 6],
    f[o + 7], f[o + 8], f[o + 9], msFromTimeSpec(f[o + 10], f[o + 11]),
    msFromTimeSpec(f[o + 12], f[o + 13]), msFromTimeSpec(f[o + 14], f[o + 15]),
    msFromTimeSpec(f[o + 16], f[o + 17]));
}

module.exports = { statsAt };
