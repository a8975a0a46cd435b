// sluice/argon2: @node-rs/argon2's functions on sluice's Cpu lane (see argon2.js).

export declare const Algorithm: { readonly Argon2d: 0; readonly Argon2i: 1; readonly Argon2id: 2 };
export type Algorithm = 0 | 1 | 2;
export declare const Version: { readonly V0x10: 0; readonly V0x13: 1 };
export type Version = 0 | 1;

export interface Options {
  /** Memory in KiB (default 19456). */
  memoryCost?: number;
  /** Passes over the memory (default 2). */
  timeCost?: number;
  /** Hash length in bytes, 4..=64 (default 32). */
  outputLen?: number;
  /** Lanes, 1..=255 (default 1). */
  parallelism?: number;
  /** Default Argon2id. */
  algorithm?: Algorithm;
  /** Default V0x13. */
  version?: Version;
  /** A key (pepper): verify needs it too. */
  secret?: Uint8Array;
  /** At least 8 bytes (default 16 random ones). */
  salt?: Uint8Array;
}

export declare function hash(password: string | Uint8Array, options?: Options | null, abortSignal?: AbortSignal | null): Promise<string>;
export declare function hashRaw(password: string | Uint8Array, options?: Options | null, abortSignal?: AbortSignal | null): Promise<Buffer>;
export declare function hashSync(password: string | Uint8Array, options?: Options | null): string;
export declare function hashRawSync(password: string | Uint8Array, options?: Options | null): Buffer;
export declare function verify(hashed: string | Uint8Array, password: string | Uint8Array, options?: Options | null, abortSignal?: AbortSignal | null): Promise<boolean>;
export declare function verifySync(hashed: string | Uint8Array, password: string | Uint8Array, options?: Options | null): boolean;
