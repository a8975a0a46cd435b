// Types of the `sluice` npm package. The functions mirror Node's promise
// APIs; see README.md ("Node users") for what runs where.

/// <reference types="node" />

import type { BinaryLike, ScryptOptions } from 'node:crypto';
import type { ZlibOptions } from 'node:zlib';
import type { Stats, PathLike } from 'node:fs';
import type { LookupAddress, LookupOneOptions, LookupAllOptions, LookupOptions } from 'node:dns';

export declare const crypto: {
  /** `crypto.pbkdf2` as a promise, on the Cpu lane (sha1/sha256/sha512; other digests are Node's). */
  pbkdf2(password: BinaryLike, salt: BinaryLike, iterations: number, keylen: number, digest: string): Promise<Buffer>;
  /** `crypto.scrypt` as a promise, on the Cpu lane. */
  scrypt(password: BinaryLike, salt: BinaryLike, keylen: number, options?: ScryptOptions): Promise<Buffer>;
  /** `crypto.randomBytes` as a promise, on the Cpu lane. */
  randomBytes(size: number): Promise<Buffer>;
};

export declare const zlib: {
  /** `zlib.gzip` as a promise, on the Cpu lane (options other than `level` are Node's). */
  gzip(buffer: string | ArrayBuffer | NodeJS.ArrayBufferView, options?: ZlibOptions): Promise<Buffer>;
  /** `zlib.gunzip` as a promise, on the Cpu lane. */
  gunzip(buffer: string | ArrayBuffer | NodeJS.ArrayBufferView, options?: ZlibOptions): Promise<Buffer>;
};

export declare const fs: {
  /** `fs.promises.readFile`, on the FastIo lane (string paths, flag 'r'; the rest is Node's). */
  readFile(path: PathLike, options?: { encoding?: null; flag?: string } | null): Promise<Buffer>;
  readFile(path: PathLike, options: { encoding: BufferEncoding; flag?: string } | BufferEncoding): Promise<string>;
  /** `fs.promises.stat`, on the FastIo lane. */
  stat(path: PathLike, options?: { bigint?: false }): Promise<Stats>;
};

export declare const dns: {
  /** `dns.promises.lookup` through sluice::dns: /etc/hosts honoured, no pool thread waits. */
  lookup(hostname: string, family?: number): Promise<LookupAddress>;
  lookup(hostname: string, options: LookupOneOptions): Promise<LookupAddress>;
  lookup(hostname: string, options: LookupAllOptions): Promise<LookupAddress[]>;
  lookup(hostname: string, options: LookupOptions): Promise<LookupAddress | LookupAddress[]>;
};

/** The pool's settings: call once, before the first sluice call of the process. */
export interface PoolOptions {
  /** Threads of the Cpu lane (1..=usable cores). */
  cpu?: number;
  /** Threads of the FastIo lane (1..=1024). */
  fastIo?: number;
  /** Threads of the SlowIo lane (1..=1024). */
  slowIo?: number;
  /** Queue bound of the Cpu lane: past it, calls reject with ESLUICEBUSY. */
  cpuQueueBound?: number;
  /** Queue bound of the FastIo lane. */
  fastIoQueueBound?: number;
  /** Queue bound of the SlowIo lane. */
  slowIoQueueBound?: number;
  /** Worker stack size in bytes (64 KiB..=1 GiB). */
  stackSize?: number;
  /** Nice value of the Cpu workers (0..=19, default 10). */
  cpuNice?: number;
  /**
   * Scheduling policy of the Cpu workers. `'idle'` (SCHED_IDLE) lets any
   * other thread of the machine preempt a hashing worker at once, but runs
   * only on cores nobody else wants; `'guarded'` is SCHED_IDLE while the
   * lane gets the cores, SCHED_OTHER at `cpuNice` while another process
   * starves it (needs CAP_SYS_NICE or `ulimit -e` >= 20 - cpuNice; refused
   * otherwise); `'normal'` is SCHED_OTHER at `cpuNice`; `'batch'` is
   * SCHED_BATCH. Default: `SLUICE_CPU_SCHED` when set, else `'guarded'`
   * where the process may leave SCHED_IDLE, else `'normal'`;
   * `metricsJson().pool.cpu_sched` says which is in force.
   * `node bench/cpu-sched.js` compares them.
   */
  cpuSched?: 'normal' | 'batch' | 'idle' | 'guarded';
}

/**
 * Builds the process's pool (shared by every worker_thread). Throws, naming
 * the option, for a refused value (`ERR_INVALID_ARG_TYPE`, `ERR_OUT_OF_RANGE`,
 * `ERR_INVALID_ARG_VALUE`), `ERR_SLUICE_ENV` naming a refused `SLUICE_*`
 * variable, and `ERR_SLUICE_CONFIGURED` once the pool exists (call it in the
 * tick that loads the package: its warm-up builds the pool afterwards).
 */
export declare function configure(options: PoolOptions): void;

/** True once the pool exists (configured, or built by a first call or the warm-up). */
export declare function isConfigured(): boolean;

/**
 * How the addon was compiled: `'release'` (`npm run build`) or `'debug'`
 * (`npm run build:debug`: unoptimised, its hashes and gzip many times slower;
 * for tests, not measurements).
 */
export declare function buildProfile(): 'release' | 'debug';

/**
 * Resolves once a FastIo worker has run an empty task: the pool's own round
 * trip from JavaScript, for a health check (`await sluice.ping()` answers
 * while the lanes do) or a benchmark of what the package costs beyond the work.
 */
export declare function ping(): Promise<void>;
/**
 * The callback form of {@link ping}: no promise is made; `callback` is
 * called with `null` (or the error) from the loop, in the caller's async
 * context, once a FastIo worker has run an empty task.
 */
export declare function ping(callback: (err: Error | null) => void): void;

/** The error a bounded lane's refusal rejects with. */
export interface SluiceBusyError extends Error {
  code: 'ESLUICEBUSY';
  lane: 'cpu' | 'fastio' | 'slowio';
  bound: number;
}

/** Prometheus text (format 0.0.4), ready to append to prom-client's `register.metrics()`. */
export declare function metrics(): string;

export interface LaneMetrics {
  lane: 'cpu' | 'fastio' | 'slowio';
  limit: number;
  queue_bound: number | null;
  submitted_total: number;
  started_total: number;
  completed_total: number;
  rejected_total: number;
  queue_depth: number;
  in_flight: number;
  threads_alive: number;
  /** Cpu lane under `'guarded'`: its workers run SCHED_OTHER now (else null). */
  sched_promoted: boolean | null;
  /** Cpu lane under `'guarded'`: moves to SCHED_OTHER so far (else null). */
  sched_promotions_total: number | null;
  [key: string]: unknown;
}

export interface MetricsJson {
  /** The process's pool (every thread's calls). */
  pool: {
    policy: string;
    /** The Cpu workers' scheduling policy in force (see `cpuSched`). */
    cpu_sched: 'normal' | 'batch' | 'idle' | 'guarded';
    threads_alive: number;
    threads_idle: number;
    lanes: LaneMetrics[];
  };
  /** The resolver's counters, once a lookup ran (else null). */
  dns: { lookups_total: number; hosts_total: number; dns_total: number; [key: string]: number } | null;
  /**
   * This thread's calls: those sluice ran, those handed to Node's own
   * function, and those of sluice's answered on the loop's thread without a
   * pool thread (the no-wait path: `SLUICE_NOWAIT`).
   */
  node: {
    calls: Record<string, number>;
    fallbacks: Record<string, number>;
    nowait: { stat: number; readFile: number; lookup: number; zlibStream: number; open: number; read: number };
  };
}

/** The same counts as an object. */
export declare function metricsJson(): MetricsJson;
