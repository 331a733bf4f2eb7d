import type { Readable } from 'node:stream';

/**
 * Where file bytes live (API.md §12), behind one small seam like the limiter and the bus: a local
 * directory (local.ts) or any S3-compatible store (s3.ts), picked once from STORAGE_URL (open.ts).
 * Keys are built by files/ from ids only (`<databaseId>/<fileId>/original`): a file's name never
 * becomes a key or a path.
 */
export interface ByteStore {
  readonly kind: 'local' | 's3';
  /**
   * Stores the stream's bytes under `key`. Resolves once they are durable; rejects when the
   * stream fails (a limit passed, the client gone) or the store does, and then keeps nothing.
   */
  put(key: string, body: Readable): Promise<void>;
  /** The bytes of `key` (an inclusive range of them when given), or undefined when there are none. */
  get(key: string, range?: ByteRange): Promise<Readable | undefined>;
  /** The size of `key` in bytes, or undefined when there is no such key. */
  size(key: string): Promise<number | undefined>;
  /** Removes every key that starts with `prefix` (none: nothing happens). Throws when the store cannot be reached. */
  removePrefix(prefix: string): Promise<void>;
  /** Every key with the time it was written, in no particular order (the sweep of bytes with no record). */
  list(): AsyncIterable<StoredObject>;
  close(): Promise<void>;
}

export interface ByteRange {
  start: number;
  end: number;
}

export interface StoredObject {
  key: string;
  modifiedAt: number;
}
