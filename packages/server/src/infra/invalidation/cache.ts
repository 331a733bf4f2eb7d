import { LRUCache } from 'lru-cache';
import type { Invalidation } from './invalidation.ts';

/**
 * An entry lives at most this long even if no invalidation names it: a bound on staleness should
 * the listener fail in a way nobody notices. Long enough that a busy key costs one lookup in
 * thousands of requests.
 */
export const CACHE_TTL_MS = 30_000;

/** What a lookup found, and what keeps it valid. */
export interface Found<V> {
  value: V;
  /** Tags besides the entry's own key whose invalidation kills it too (e.g. `user:<id>` for a session). */
  tags?: string[];
  /** Milliseconds since the epoch past which the entry is no answer (a session's expiry). */
  expiresAt?: number;
}

interface Entry<V> extends Found<V> {
  tags: string[];
}

/**
 * A bounded in-process cache of credential lookups (LRU), whose entries die with the
 * invalidations `invalidation` hears. Keys are tags themselves (`key:<sha256>`,
 * `session:<sha256>`…): hashes of the secrets, never the secrets.
 *
 * - An entry is used only while `invalidation.current()`; otherwise every call looks up.
 * - Only positive answers are kept: an unknown credential is looked up every time (a key made a
 *   moment ago must work at once, and the rate limiter, not this cache, deals with floods).
 * - A lookup during which anything was invalidated keeps nothing: its answer may predate it.
 *
 * @example
 *   const keys = new InvalidatedCache<KeyPrincipal>(invalidation, { max: 10_000 });
 *   const principal = await keys.get(`key:${hash}`, Date.now(), async () => {
 *     const row = await store.get(…);
 *     return row && { value: toPrincipal(row) };
 *   });
 */
export class InvalidatedCache<V> {
  private readonly entries: LRUCache<string, Entry<V>> | undefined;
  /** Keys of the entries each extra tag kills. */
  private readonly byTag = new Map<string, Set<string>>();

  constructor(
    private readonly invalidation: Invalidation,
    options: {
      max: number;
      ttlMs?: number;
      /** A bound on the entries' sizes added up, as `sizeOf` counts them (an entry larger than this is not kept). */
      maxSize?: number;
      sizeOf?: (value: V, key: string) => number;
    },
  ) {
    if (options.max <= 0 || options.maxSize === 0) return; // cache off: every call looks up
    const { sizeOf } = options;
    this.entries = new LRUCache<string, Entry<V>>({
      max: options.max,
      ttl: options.ttlMs ?? CACHE_TTL_MS,
      ...(options.maxSize && sizeOf
        ? { maxSize: options.maxSize, sizeCalculation: (entry: Entry<V>, key: string) => Math.max(1, sizeOf(entry.value, key)) }
        : {}),
      dispose: (entry, key) => this.unindex(key, entry.tags),
    });
    invalidation.subscribe((tags) => this.drop(tags));
  }

  /** The value under `key`: from memory when valid at `now`, else from `lookup` (kept if it may be). */
  async get(key: string, now: number, lookup: () => Promise<Found<V> | undefined>): Promise<V | undefined> {
    const entries = this.entries;
    if (!entries) return (await lookup())?.value;
    const hit = this.invalidation.current() ? entries.get(key) : undefined;
    if (hit && (hit.expiresAt === undefined || hit.expiresAt > now)) return hit.value;
    const epoch = this.invalidation.epoch;
    const found = await lookup();
    if (found && this.invalidation.current() && this.invalidation.epoch === epoch) {
      const tags = found.tags ?? [];
      entries.set(key, { ...found, tags });
      // An entry larger than maxSize is not kept: nothing to index then.
      for (const tag of entries.has(key) ? tags : []) {
        let keys = this.byTag.get(tag);
        if (!keys) this.byTag.set(tag, (keys = new Set()));
        keys.add(key);
      }
    }
    return found?.value;
  }

  private drop(tags: readonly string[] | 'all'): void {
    if (tags === 'all') {
      this.entries?.clear();
      this.byTag.clear();
      return;
    }
    for (const tag of tags) {
      this.entries?.delete(tag);
      for (const key of [...(this.byTag.get(tag) ?? [])]) this.entries?.delete(key);
    }
  }

  private unindex(key: string, tags: string[]): void {
    for (const tag of tags) {
      const keys = this.byTag.get(tag);
      keys?.delete(key);
      if (keys?.size === 0) this.byTag.delete(tag);
    }
  }
}
