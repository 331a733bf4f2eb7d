import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { Store } from '../store/store.ts';
import { collectionIs } from './key-sql.ts';

/** How many automatic indexes may exist, and what a field must show before it gets one. */
interface IndexBudget {
  /** Indexes one database may cause to be built (an index another database caused costs nothing). */
  perDatabase: number;
  /** Indexes in the whole store: each is maintained on the writes of its collection (of every database). */
  perStore: number;
  /** Lists of one collection that must sort or filter by a field within `windowMs`… */
  minRequests: number;
  /** …for the field to earn an index; also how long a refusal is remembered. */
  windowMs: number;
}

/**
 * perStore stays 64 although an index is now maintained only by the writes of its collection: every
 * index of `documents`, whatever its collection, still costs every write. SQLite opens a cursor on
 * each index of the table for every INSERT, and each opening walks the cursors already open, so the
 * cost grows with the square of their number: past 64 it soon passes what the write itself costs
 * (docs/performance-notes.md, "Automatic indexes and bulk writes"). PostgreSQL opens, locks (past
 * the 16 a backend locks cheaply) and tests the WHERE of each, and the planner weighs each for every
 * statement.
 */
const DEFAULT_INDEX_BUDGET: IndexBudget = { perDatabase: 16, perStore: 64, minRequests: 3, windowMs: 10 * 60_000 };

/**
 * A B-tree on the field's sort keys (then id), the same followed by `created_at` (then id), or
 * (PostgreSQL) a GIN on the field for its arrays' elements.
 */
const KINDS = ['btree', 'created', 'array'] as const;
type Kind = (typeof KINDS)[number];
/**
 * The document_indexes key of an index of every collection, as built before indexes were per
 * collection: the field path; `path>createdAt` for the one that also orders by creation; `path[]`
 * for the GIN (no field path holds `>` or `[`). Such indexes are kept and still serve every
 * collection (docs/documents.md, "Indexes"); none is built any more.
 */
const globalKey = (segments: string[], kind: Kind) => segments.join('.') + (kind === 'array' ? '[]' : kind === 'created' ? '>createdAt' : '');
/**
 * The key of a collection's index: `<collection>:` and the global key (`notes:score>createdAt`).
 * No collection name nor field path holds `:`, so it cannot be read as a global key or as another
 * collection's; the collection is what precedes the first `:`.
 */
const indexKey = (collection: string, segments: string[], kind: Kind) => `${collection}:${globalKey(segments, kind)}`;
const collectionOfKey = (key: string): string | undefined => {
  const at = key.indexOf(':');
  return at < 0 ? undefined : key.slice(0, at);
};

/**
 * What one list asks of the indexes: the user fields it filters by, the one it sorts by (if it
 * sorts by a user field), and whether it sorts by `createdAt` (the default order).
 */
interface IndexDemand {
  filter: string[][];
  sort?: string[];
  byCreatedAt: boolean;
}

/**
 * How old this process's reading of document_indexes may be when a list names a field it knows no
 * index for: then it is read again, so indexes another instance built reach this one's lists (which
 * name a collection in their SQL only once it is known to have indexes) within a minute, at the cost
 * of one small read a minute at most.
 */
const RELOAD_MS = 60_000;

/** Demand entries, and refusals, remembered at most (the least recently used go first). */
const MAX_DEMAND_ENTRIES = 10_000;

/**
 * Automatic indexes on user fields. The rule (docs/documents.md, "Indexes"): when lists of a collection
 * sort or filter by a user field path `minRequests` times within `windowMs` (default 3 in 10
 * minutes), and documents of that collection hold a value at that path, svc builds, in the
 * background, one index of that collection's documents, on (database, collection, <the field's
 * sort keys>, id) `WHERE collection = '<name>'` (partial: writes into other collections never
 * maintain it), which then serves that collection in every database. Its lists spell the
 * collection in their SQL text when they filter or sort by such a field (`servesFields`, key-sql.ts)
 * so that the planner can use it.
 * Each database may cause at most `perDatabase` builds (16) and the store holds at most
 * `perStore` (64), so one tenant sorting by junk fields can neither spend the indexes of the
 * others nor make svc index fields no document has; past a budget, lists still work, by scanning.
 * A refused field is not reconsidered for `windowMs`. Indexes built before, of every collection
 * (keyed by the bare path), stay, serve every collection, and count in the budgets.
 *
 * On PostgreSQL a field that documents of the collection hold as an array also earns, on the same
 * demand and within the same budgets, a GIN index on that field alone (`(data #> '{tags}')
 * jsonb_path_ops`, of the collection's documents, listed in document_indexes as `posts:tags[]`):
 * the list filter tests an array's elements by jsonb containment (store/postgres/json-sql.ts
 * arrayHolds), which it serves, beside the field's B-tree for scalar values. Never a GIN on the whole `data` column: it would cost every
 * write of every collection; this one costs only writes that hold the field.
 *
 * Indexes are built once and kept, one at a time in the whole store (`store.maintenance`: two
 * concurrent `CREATE INDEX CONCURRENTLY`, or one and the ANALYZE after another, deadlock on
 * PostgreSQL), and the table is analysed afterwards so the planner knows the new index's
 * statistics (on PostgreSQL those of a statistics object on the field's expressions: the planner
 * reads none from a partial index). A failed build leaves no index behind (PostgreSQL would keep an
 * INVALID one) and is tried again on a later list. Budgets are counted in `document_indexes`
 * (which database caused each build), so they hold across restarts and instances.
 */
export class AutoIndexer {
  /** Keys of document_indexes this process knows were built (globalKey, indexKey). */
  private readonly known = new Set<string>();
  /** Collections with an index of their own (known keys with a collection). */
  private readonly indexed = new Set<string>();
  private readonly building = new Map<string, Promise<void>>();
  /** Per database, collection and field: recent lists naming it. */
  private readonly demand = new LRUCache<string, { count: number; since: number }>({ max: MAX_DEMAND_ENTRIES });
  /** Per database and index key (which names the collection): until when a refused build is not reconsidered. */
  private readonly refusals = new LRUCache<string, number>({ max: MAX_DEMAND_ENTRIES });
  private readonly budget: IndexBudget;
  private loaded: Promise<void> | undefined;
  private loadedAt = 0;
  private chain: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: Store,
    budget: Partial<IndexBudget> = {},
    private readonly onError: (e: unknown) => void = () => undefined,
    private readonly now: () => number = Date.now,
  ) {
    this.budget = { ...DEFAULT_INDEX_BUDGET, ...budget };
  }

  /** Reads document_indexes: once, or with `stale` again if the last reading is older than RELOAD_MS. */
  private load(stale = false): Promise<void> {
    if (stale && this.loaded && this.now() - this.loadedAt >= RELOAD_MS) this.loaded = undefined;
    if (!this.loaded) this.loadedAt = this.now();
    return (this.loaded ??= this.store
      .all<{ path: string }>('SELECT path FROM document_indexes')
      .then((rows) => {
        for (const r of rows) this.learn(r.path);
      })
      .catch((e: unknown) => {
        this.loaded = undefined; // the store was away: read it again on a later list
        throw e;
      }));
  }

  /** Records a built index by its key. */
  private learn(key: string): void {
    this.known.add(key);
    const collection = collectionOfKey(key);
    if (collection !== undefined) this.indexed.add(collection);
  }

  /**
   * Whether `collection` has automatic indexes of its own that this process knows of (built here, or
   * read from document_indexes at the first list, or found there when its lists asked for one built
   * by another instance). Before the first list has read the table, none.
   */
  servesCollection(collection: string): boolean {
    return this.indexed.has(collection);
  }

  /**
   * Whether one of `fields` (a list's rule, filter and sort fields, as segments) has an automatic
   * index of `collection`'s own, of any shape: the list then spells the collection in its SQL
   * (key-sql.ts inNamedCollection) so that the planner may use it (documents/list.ts readPage).
   */
  servesFields(collection: string, fields: readonly string[][]): boolean {
    if (!this.servesCollection(collection)) return false;
    for (const segments of fields) for (const kind of KINDS) if (this.known.has(indexKey(collection, segments, kind))) return true;
    return false;
  }

  /** Whether an index of this shape on the field serves the collection: its own, or one of every collection built before. */
  private has(collection: string, segments: string[], kind: Kind): boolean {
    return this.known.has(indexKey(collection, segments, kind)) || this.known.has(globalKey(segments, kind));
  }

  /**
   * Notes that a list of `collection` sorts or filters by `paths`, and starts the build of each
   * path that earned an index. Resolves when those builds have ended; never rejects (a failure
   * goes to `onError`), so callers may leave it running. `asked`: the fields are asked for outright
   * (a database's rules were saved: rule-indexes.ts), not counted as one list's demand.
   */
  async ensure(databaseId: string, collection: string, demand: IndexDemand, opts: { asked?: boolean } = {}): Promise<void> {
    try {
      await this.load();
    } catch (e) {
      this.onError(e);
      return;
    }
    const work: Promise<void>[] = [];
    const gin = this.store.dialect.json.arrayIndex !== undefined;
    // A field filtered by in lists ordered by createdAt (the default, and what access rules' lists
    // are) gets its index followed by created_at: the page is then the first rows of one index
    // range, in order, instead of every matching row fetched and sorted (an owner's 100 todos of
    // 100,000 read for a page of 20). Sorted by the field itself, the index ends in id.
    const wanted: Array<[string[], Kind[]]> = [
      ...demand.filter.map((segments): [string[], Kind[]] => [segments, [demand.byCreatedAt ? 'created' : 'btree', ...(gin ? (['array'] as const) : [])]]),
      ...(demand.sort ? [[demand.sort, gin ? ['btree', 'array'] : ['btree']] as [string[], Kind[]]] : []),
    ];
    if (wanted.some(([segments, kinds]) => kinds.some((kind) => !this.has(collection, segments, kind)))) {
      try {
        await this.load(true);
      } catch (e) {
        this.onError(e);
        return;
      }
    }
    for (const [segments, kinds] of wanted) {
      if (kinds.every((kind) => this.has(collection, segments, kind))) continue;
      // Demand is counted per field, whatever index shape each list needs: the third list that
      // names a field earns it the shape that list needs (and later lists theirs at once).
      if (!opts.asked && !this.earned(`${databaseId}\u0000${collection}\u0000${segments.join('.')}`)) continue;
      for (const kind of kinds) {
        const path = indexKey(collection, segments, kind);
        if (this.has(collection, segments, kind) || this.refused(`${databaseId}\u0000${path}`)) continue;
        let job = this.building.get(path);
        if (!job) {
          job = this.chain
            .then(() => this.consider(databaseId, collection, path, segments, kind, opts.asked === true))
            .finally(() => this.building.delete(path));
          this.chain = job;
          this.building.set(path, job);
        }
        work.push(job);
      }
    }
    await Promise.all(work);
  }

  /** Counts one list naming a (database, collection, field); whether the field has now earned its indexes. */
  private earned(key: string): boolean {
    const t = this.now();
    let d = this.demand.get(key);
    if (!d || t - d.since > this.budget.windowMs) {
      d = { count: 0, since: t };
      this.demand.set(key, d);
    }
    d.count += 1;
    return d.count >= this.budget.minRequests;
  }

  /** Whether a build of this (database, collection, index key) was refused within the window. */
  private refused(key: string): boolean {
    const until = this.refusals.get(key);
    if (until === undefined) return false;
    if (until > this.now()) return true;
    this.refusals.delete(key);
    return false;
  }

  /** Not reconsidered for a window: the field is held by no document, or a budget is spent. */
  private refuse(key: string): void {
    this.refusals.set(key, this.now() + this.budget.windowMs);
  }

  /**
   * Checks the budgets and that documents hold the field (cheap, in the queue of builds), then
   * builds. A refusal of lists' demand is remembered for a window; one of an outright ask (rules
   * saved before their collection holds documents) is not, so the lists that follow still ask.
   */
  private async consider(databaseId: string, collection: string, path: string, segments: string[], kind: Kind, asked: boolean): Promise<void> {
    if (this.known.has(path)) return;
    const key = `${databaseId}\u0000${path}`;
    try {
      const { store } = this;
      const count = async (sql: string, params: string[]) => (await store.get<{ n: number }>(sql, params))?.n ?? 0;
      // Built meanwhile by another instance: known from now on, and free for everyone.
      if (await count('SELECT count(*) AS n FROM document_indexes WHERE path = ?', [path])) {
        this.learn(path);
        return;
      }
      const spent = await count('SELECT count(*) AS n FROM document_indexes WHERE database_id = ?', [databaseId]);
      const inStore = await count('SELECT count(*) AS n FROM document_indexes', []);
      const { json } = store.dialect;
      const holds = kind === 'array' ? json.isArray(json.term(segments)) : `NOT ${json.isNullish(segments)}`;
      const held = await store.get(`SELECT 1 AS held FROM documents WHERE database_id = ? AND collection = ? AND ${holds} LIMIT 1`, [databaseId, collection]);
      if (spent >= this.budget.perDatabase || inStore >= this.budget.perStore || !held) {
        if (!asked) this.refuse(key);
        return;
      }
    } catch (e) {
      this.onError(e);
      return;
    }
    await this.build(databaseId, collection, path, segments, kind);
  }

  /**
   * Builds the collection's index: `collection` is its WHERE, and still the second column of its key
   * (one value throughout, but without it SQLite preferred `documents_by_created` to it where the
   * field's keys narrow nothing, as for a `$prefix` filter, an OR of a range and an array test).
   * `path` names the collection, so the name hashed from it is the collection's too.
   */
  private async build(databaseId: string, collection: string, path: string, segments: string[], kind: Kind): Promise<void> {
    const hash = createHash('sha256').update(path).digest('hex').slice(0, 16);
    const { dialect } = this.store;
    const name = kind === 'array' ? `documents_gin_${hash}` : `documents_by_path_${hash}`;
    const keys = dialect.json.sortKeys(segments);
    const where = collectionIs(collection);
    const statement =
      kind === 'array'
        ? dialect.json.arrayIndex!(name, segments, where)
        : dialect.createDocumentIndex(name, ['database_id', 'collection', ...keys, ...(kind === 'created' ? ['created_at'] : []), 'id'], where);
    // One per field (and per its array term) for the whole table, as an index of every collection
    // had it: made by the first collection's index on the field, kept with it by the others'.
    const statistics = dialect.json.fieldStatistics?.(
      `documents_stats_${createHash('sha256')
        .update(globalKey(segments, kind === 'array' ? 'array' : 'btree'))
        .digest('hex')
        .slice(0, 16)}`,
      segments,
      kind === 'array',
    );
    try {
      // Building an index on a large table outlasts a request's statement time-out.
      await this.store.maintenance(async (q) => {
        try {
          await q.run(statement);
          // Reported, not fatal: the index serves without them (a PostgreSQL before 14 has no statistics on expressions).
          if (statistics) await q.run(statistics).catch(this.onError);
          // Statistics first: an index is recorded once the planner knows it, so a list that follows
          // the record is planned with it.
          await q.run('ANALYZE documents');
          await q.run('INSERT INTO document_indexes (path, name, created_at, database_id) VALUES (?, ?, ?, ?) ON CONFLICT (path) DO NOTHING', [
            path,
            name,
            new Date(this.now()).toISOString(),
            databaseId,
          ]);
          this.learn(path);
        } catch (e) {
          // Under the maintenance lock, so no other instance is building this index right now.
          await q.run(dialect.dropDocumentIndex(name)).catch(() => undefined);
          throw e;
        }
      });
    } catch (e) {
      this.onError(e);
    }
  }
}
