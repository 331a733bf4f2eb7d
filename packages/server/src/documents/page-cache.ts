import { InvalidatedCache } from '../infra/invalidation/cache.ts';
import type { Invalidation } from '../infra/invalidation/invalidation.ts';
import type { Store } from '../store/store.ts';
import type { JsonObject } from '../json/merge-patch.ts';

/** A list's answer as kept: its JSON text, and what to do again when it is answered from memory. */
export interface Page {
  text: string;
  /** Run on every hit: the fields the list filters or sorts by ask for their automatic index, as a read would. */
  onHit?: () => void;
}

/** How the cache answered, for `svc_list_cache_requests_total`. */
export type PageCacheOutcome = 'hit' | 'miss';

export interface PageCacheOptions {
  /** Where entries learn that their database was deleted or its settings changed. */
  invalidation: Invalidation;
  /** The answers kept, their lengths added up (`LIST_CACHE_MB`); 0: off, every list reads the store. */
  maxBytes: number;
  /** Told how each list that could be cached was answered. */
  counted?: (outcome: PageCacheOutcome) => void;
}

/** The entries kept at most, whatever their size (an empty page is a few dozen bytes). */
const MAX_ENTRIES = 10_000;

/**
 * Answers of lists (their JSON text), kept until the database changes. Every write to a database
 * moves its `last_event_id` in the write's own transaction (changes/append.ts), and that version is
 * part of the key: a list first reads the version (one row by primary key), then answers from
 * memory if a list with the same query was answered at that version. So an answer is exact on
 * every instance without a message per write, as the CountCache's totals are; a write committed
 * anywhere makes the next list read the store.
 *
 * - A page built after the version was read may show writes newer than it: still an answer the
 *   list could have given (those writes committed before it answered), and no request can read
 *   that version again once they have committed: versions only grow.
 * - They grow again from a lower number only if the database is deleted and imported back: the
 *   deletion (`database:<id>`, which also announces changed settings) drops the database's
 *   entries on every instance (infra/invalidation), and entries are used only while the
 *   invalidation is current (on SQLite, another process's writes empty the cache).
 * - A public key's read rule is part of the key (its `$auth` operands filled in): two users never
 *   share an entry unless their rules read the same.
 * - Searches are not kept: a search index being built changes their answers without a write.
 * - Bounded by the answers' length added up (LRU), and an entry lives at most CACHE_TTL_MS.
 *
 * The price of a miss is the version read (measured 3–5 µs on SQLite; a round trip on PostgreSQL);
 * a hit spares the page query, the documents' JSON text and the cursor's HMAC.
 */
export class PageCache {
  private readonly pages: InvalidatedCache<Page> | undefined;
  private readonly invalidation?: Invalidation;
  private readonly counted?: (outcome: PageCacheOutcome) => void;

  constructor(
    private readonly store: Store,
    options?: PageCacheOptions,
  ) {
    if (!options || options.maxBytes <= 0) return;
    this.counted = options.counted;
    this.invalidation = options.invalidation;
    this.pages = new InvalidatedCache<Page>(options.invalidation, {
      max: MAX_ENTRIES,
      maxSize: options.maxBytes,
      sizeOf: (page, key) => page.text.length + key.length,
    });
  }

  /**
   * The answer of a list: from memory if the same list was answered at the database's current
   * version, else from `build` (kept). `query`: everything of the request the answer depends on
   * besides the database's data (the collection, the parsed query string).
   */
  async answer(databaseId: string, query: unknown, read: JsonObject | undefined, build: () => Promise<Page>): Promise<string> {
    const pages = this.pages;
    if (!pages) return (await build()).text;
    if (!this.invalidation?.current()) {
      // Nothing may be kept now (the PostgreSQL listener is down): the version read would buy nothing.
      this.counted?.('miss');
      return (await build()).text;
    }
    const row = await this.store.get<{ v: string }>(VERSION_SQL, [databaseId]);
    if (!row) return (await build()).text; // no such database (any more): the page query says what that means
    let built = false;
    const key = `${databaseId}\u0000${row.v}\u0000${JSON.stringify(query)}\u0000${read === undefined ? '' : JSON.stringify(read)}`;
    const page = await pages.get(key, Date.now(), async () => {
      built = true;
      return { value: await build(), tags: [`database:${databaseId}`] };
    });
    this.counted?.(built ? 'miss' : 'hit');
    if (!built) page?.onHit?.();
    return (page as Page).text;
  }
}

const VERSION_SQL = 'SELECT CAST(last_event_id AS TEXT) AS v FROM databases WHERE id = ?';
