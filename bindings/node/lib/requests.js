'use strict';
// The calls in flight, as Node lists its own requests.
//
// Node keeps every request of its own in a list (the req_wrap_queue):
// process._getActiveRequests() returns their objects and
// process.getActiveResourcesInfo() their names, then the handles that keep
// the loop alive, the timers and the immediates. A call sluice runs is no
// libuv request, so under the preload (`install`) each call of an fs or dns
// function of Node's has an object of the class Node's function would
// make, listed from the call until its callback returns (or its promise
// settles), as Node lists its request until the callback has run:
//
//   fs.open/read/write/close/fstat/stat/readFile (callback)   FSReqCallback
//   fs.promises.readFile/stat, FileHandle.read/write/stat      FSReqPromise
//   dns.lookup, dns.promises.lookup                            GetAddrInfoReqWrap
//
// (fs.readFile's successive requests, open, fstat, the reads and close,
// are one object: Node lists one of them at a time.) crypto's and zlib's
// calls are none: Node's own are thread-pool jobs, not requests, and are in
// neither list. The inbox's socket, which keeps the loop alive while calls
// are in flight, is left out of both lists (and of
// process._getActiveHandles()): the calls themselves stand for it, as
// Node's requests do for libuv's pool.

/** Node's request of an fs callback form; `oncomplete` is the callback. */
class FSReqCallback {
  constructor(oncomplete) {
    this.oncomplete = oncomplete;
  }
}

/** Node's request of an fs promise form; `promise` is the call's. */
class FSReqPromise {
  constructor(promise) {
    this.promise = promise;
  }
}

/** Node's request of a lookup: the host name, and the callback of the callback form. */
class GetAddrInfoReqWrap {
  constructor(hostname, callback) {
    this.hostname = hostname;
    if (callback !== undefined) this.callback = callback;
  }
}

// How the calls of each family are listed: `callback(cb, context)` and
// `promise(context, promise)` make the object (context: the path or host
// name).
const FS = {
  callback: (cb) => new FSReqCallback(cb),
  promise: (path, promise) => new FSReqPromise(promise),
};
const LOOKUP = {
  callback: (cb, hostname) => new GetAddrInfoReqWrap(hostname, cb),
  promise: (hostname) => new GetAddrInfoReqWrap(hostname),
};

// The listed calls, in the order they were made (Node's list is in that
// order too); empty and unused until `install`. A doubly linked list, as
// Node's own req_wrap_queue is: a call is listed and unlisted in constant
// time with no hashing (a Set's add and delete, and its rehashes as 1000
// calls came and went, were 5 % of the loop thread's samples during 1000
// `fs.stat`s in flight). Each listed call has a node { req, prev, next };
// the node is what listCallback and listPromise return, and what unlist
// takes.
const head = { req: null, prev: null, next: null };
head.prev = head;
head.next = head;
let listing = false;

function list(req) {
  const node = { req, prev: head.prev, next: head };
  head.prev.next = node;
  head.prev = node;
  return node;
}

/** The listed calls' objects, oldest first. */
function listed() {
  const out = [];
  for (let n = head.next; n !== head; n = n.next) out.push(n.req);
  return out;
}

/**
 * The node that lists a callback call of `family` (FS, LOOKUP), or null
 * where nothing is listed (no preload, or a family Node does not list).
 */
function listCallback(family, callback, context) {
  if (!listing || family === undefined) return null;
  return list(family.callback(callback, context));
}

/** The same for a promise call. */
function listPromise(family, context, promise) {
  if (!listing || family === undefined) return null;
  return list(family.promise(context, promise));
}

/** The call listed by `node` (from listCallback or listPromise, or null) is over. Once only: a second call does nothing. */
function unlist(node) {
  if (node === null || node.prev === null) return;
  node.prev.next = node.next;
  node.next.prev = node.prev;
  node.prev = null;
  node.next = null;
}

// Replaces process._getActiveRequests, getActiveResourcesInfo and
// _getActiveHandles with Node's lists plus the calls in flight, less the
// inbox's socket (`inboxSocket()`: null until it opens). Node's
// getActiveResourcesInfo() is its requests' names, then its handles' (in
// the order of _getActiveHandles()), then 'Timeout' and 'Immediate'
// entries: sluice's names go after Node's requests, the socket's name is
// the one at its place among the handles.
function install(inboxSocket) {
  if (listing) return;
  listing = true;
  const { _getActiveRequests: requests, _getActiveHandles: handles, getActiveResourcesInfo: info } = process;
  if (typeof requests !== 'function' || typeof handles !== 'function') return;
  const names = () => listed().map((req) => req.constructor.name);
  const like = (orig, replacement) => {
    Object.defineProperty(replacement, 'name', { value: orig.name });
    Object.defineProperty(replacement, 'length', { value: orig.length });
    return replacement;
  };
  process._getActiveRequests = like(requests, function () {
    const list = Reflect.apply(requests, this, arguments);
    for (const req of listed()) list.push(req);
    return list;
  });
  process._getActiveHandles = like(handles, function () {
    const list = Reflect.apply(handles, this, arguments);
    const at = list.indexOf(inboxSocket());
    if (at !== -1) list.splice(at, 1);
    return list;
  });
  if (typeof info !== 'function') return;
  process.getActiveResourcesInfo = like(info, function () {
    const list = Reflect.apply(info, this, arguments);
    const ownRequests = Reflect.apply(requests, process, []).length;
    const at = Reflect.apply(handles, process, []).indexOf(inboxSocket());
    if (at !== -1) list.splice(ownRequests + at, 1);
    list.splice(ownRequests, 0, ...names());
    return list;
  });
}

module.exports = { FS, LOOKUP, listCallback, listPromise, unlist, install };
