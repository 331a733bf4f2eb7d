import { InvalidatedCache } from '../infra/invalidation/cache.ts';
import type { Invalidation } from '../infra/invalidation/invalidation.ts';
import type { Store } from '../store/store.ts';
import type { Filter } from '@svc/filter';
import { lastChangeId } from '../changes/read.ts';
import { SharedRuns } from '../infra/shared-runs.ts';

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

/** A list that joined another's read does what a hit does: its fields ask for their indexes (Page.onHit). */
const joined = (page: Page): Page => {
  page.onHit?.();
  return page;
};

/** The entries kept at most, whatever their size (an empty page is a few dozen bytes). */
const MAX_ENTRIES = 10_000;

/**
 * A database's lists are judged in windows of JUDGE_EVERY: when fewer than MIN_HITS of them were
 * answered from memory, its next SKIP lists go straight to the store (no version read, nothing
 * kept), then it is judged again; each window in a row that fails again doubles the skip, up to
 * SKIP × 2^MAX_DOUBLINGS, and a window that passes sets it back. A miss costs more than no cache
 * (measured on 11-26 at 10 connections, the same list missing every time: SQLite 4,562–4,973
 * lists/s against 5,197–5,762 with the cache off, PostgreSQL 2,532–2,820 against 3,256–3,415: the
 * version read, one more round trip there, and keeping the answer), while a hit costs about a third
 * of a read: caching pays above roughly a quarter of hits. So a database written between most of
 * its lists pays the misses of one window in eight at first, then of one in 113 (with a
 * fixed skip a fifth of list-busy's lists on PostgreSQL still read the version for nothing), and
 * one read more than written keeps its cache; a database whose lists start to repeat finds out
 * within SKIP × 2^MAX_DOUBLINGS lists.
 */
const JUDGE_EVERY = 32;
const MIN_HITS = 8;
const SKIP = 224;
const MAX_DOUBLINGS = 4;
/** Databases whose use is tracked at most; past it the tallies start over (a tally is three numbers). */
const MAX_TRACKED = 10_000;

/** How a database's lists fared in the current window. */
interface Use {
  asked: number;
  hits: number;
  /** Lists left to send straight to the store. */
  skip: number;
  /** Windows in a row that failed just before this one (the skip doubles with each). */
  failed: number;
}

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
 * - Whether kept or not, lists asked for while the same list (the same key but the version) is
 *   being read wait for that read and share the next one (`builds`, infra/shared-runs.ts): never
 *   the read under way, so every answer is read after its list was asked for.
 *
 * The price of a miss is the version read (on SQLite, svc's CPU for one read; on PostgreSQL, a
 * round trip; docs/performance-notes.md) and keeping the answer; a hit spares the page query, the
 * documents' JSON text and the cursor's HMAC. A database whose lists rarely hit skips the cache
 * for a while (JUDGE_EVERY), so a write-heavy one costs about what it did without it.
 * Lists that go to the store without looking count as misses.
 */
export class PageCache {
  private readonly pages: InvalidatedCache<Page> | undefined;
  private readonly invalidation?: Invalidation;
  private readonly counted?: (outcome: PageCacheOutcome) => void;
  private readonly uses = new Map<string, Use>();
  /** Lists asked for while the same list is being read share the next read (infra/shared-runs.ts). */
  readonly builds = new SharedRuns<Page>();

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
  async answer(databaseId: string, query: unknown, read: Filter | undefined, build: () => Promise<Page>): Promise<string> {
    const asked = `${JSON.stringify(query)}\u0000${read === undefined ? '' : JSON.stringify(read)}`;
    const shared = () => this.builds.run(`${databaseId}\u0000${asked}`, build, joined);
    const pages = this.pages;
    if (!pages) return (await shared()).text;
    if (!this.invalidation?.current()) {
      // Nothing may be kept now (the PostgreSQL listener is down): the version read would buy nothing.
      this.counted?.('miss');
      return (await shared()).text;
    }
    const use = this.useOf(databaseId);
    if (use.skip > 0) {
      use.skip -= 1;
      this.counted?.('miss');
      return (await shared()).text;
    }
    const version = await lastChangeId(this.store, databaseId);
    if (version === undefined) return (await shared()).text; // no such database (any more): the page query says what that means
    let built = false;
    const page = await pages.get(`${databaseId}\u0000${version}\u0000${asked}`, Date.now(), async () => {
      built = true;
      return { value: await shared(), tags: [`database:${databaseId}`] };
    });
    this.counted?.(built ? 'miss' : 'hit');
    if (!built) page?.onHit?.();
    this.judge(use, !built);
    return (page as Page).text;
  }

  private useOf(databaseId: string): Use {
    let use = this.uses.get(databaseId);
    if (!use) {
      if (this.uses.size >= MAX_TRACKED) this.uses.clear();
      use = { asked: 0, hits: 0, skip: 0, failed: 0 };
      this.uses.set(databaseId, use);
    }
    return use;
  }

  private judge(use: Use, hit: boolean): void {
    use.asked += 1;
    if (hit) use.hits += 1;
    if (use.asked < JUDGE_EVERY) return;
    if (use.hits < MIN_HITS) {
      use.skip = SKIP * 2 ** use.failed;
      use.failed = Math.min(use.failed + 1, MAX_DOUBLINGS);
    } else use.failed = 0;
    use.asked = 0;
    use.hits = 0;
  }
}
